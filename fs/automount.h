/*
 * Mounting block devices by hand (fs/automount.c, which also mounts every
 * recognisable device at boot and unmounts all at shutdown): the calls
 * the shell's mount and umount (fs/mount_cmds.c) are made of.  A device
 * mounted this way is opened and claimed until it is unmounted.
 */
#ifndef FS_AUTOMOUNT_H
#define FS_AUTOMOUNT_H

#include "kernel/types.h"

struct block_device;
struct vfs_mount;

/*
 * Open @bdev (referenced; the reference passes to the mount or is dropped)
 * and mount it at @dir with @fstype (NULL: probe), VFS_MNT_* @flags.
 * 0 or -errno (-EINVAL: the filesystem refused it and said why).
 */
int fs_mount_bdev(struct block_device *bdev, const char *dir, const char *fstype,
		  unsigned flags);
/* Unmount @m and close its device.  0 or -errno (-EBUSY: still in use). */
int fs_umount(struct vfs_mount *m);
/* The device whose filesystem has UUID @uuid (referenced), or NULL. */
struct block_device *fs_lookup_uuid(const char *uuid);

#endif
