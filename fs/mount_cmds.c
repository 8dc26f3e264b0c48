/*
 * The mount shell commands (over fs/automount.h):
 *
 *	mount				list mounts: "DEV on PATH type T (ro|rw)"
 *	mount DEV|PARTUUID=..|UUID=.. DIR [ro,commit=SECONDS]
 *					mount a device at DIR
 *	umount DIR			write back and unmount
 *
 * Output formats are read by tests.
 */
#include "fs/automount.h"
#include "fs/vfs.h"
#include "block/bdev.h"
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/shell.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

static int mount_list_one(struct vfs_mount *m, void *path)
{
	int err = vfs_mount_path(m, path, VFS_PATH_MAX);

	if (err)
		return err;
	kprintf("%s on %s type %s (%s)\n", bdev_name(m->mnt_bdev), (char *)path,
		m->mnt_type->ft_name, m->mnt_flags & VFS_MNT_RDONLY ? "ro" : "rw");
	return 0;
}

static int mount_list(void)
{
	char *path = kmalloc(VFS_PATH_MAX, GFP_KERNEL);
	int err;

	if (!path)
		return -ENOMEM;
	err = vfs_for_each_mount(mount_list_one, path);
	kfree(path);
	return err;
}

/* "ro", "commit=SECONDS" (journaling filesystems), comma-separated, into VFS_MNT_* flags. */
static int mount_options(char *opts, unsigned *flags)
{
	char *o = opts, *comma;
	u64 v;

	for (; o; o = comma) {
		comma = strchr(o, ',');
		if (comma)
			*comma++ = '\0';
		if (!strcmp(o, "ro")) {
			*flags |= VFS_MNT_RDONLY;
		} else if (str_starts(o, "commit=") && !str_to_u64(o + 7, &v, false) && v &&
			   v <= VFS_MNT_COMMIT_MAX) {
			*flags |= VFS_MNT_COMMIT(v);
		} else {
			kprintf("mount: unknown option '%s' (ro, commit=SECONDS)\n", o);
			return -ECANCELED;
		}
	}
	return 0;
}

static int cmd_mount(int argc, char **argv)
{
	struct block_device *bdev;
	unsigned flags = 0;
	int err;

	if (argc == 1)
		return mount_list();
	if (argc == 4) {
		err = mount_options(argv[3], &flags);
		if (err)
			return err;
	} else if (argc != 3) {
		return -EINVAL;
	}
	if (str_starts(argv[1], "UUID="))
		bdev = fs_lookup_uuid(argv[1] + 5);
	else
		bdev = bdev_lookup(argv[1]);
	if (!bdev)
		return -ENODEV;
	err = fs_mount_bdev(bdev, argv[2], NULL, flags);
	if (err == -EINVAL) {	/* the filesystem refused it, and said why: not a usage error */
		kprintf("mount: %s: not mounted: the filesystem refused it\n", argv[1]);
		return -ECANCELED;
	}
	return err;
}
SHELL_COMMAND("mount", cmd_mount, "mount [DEV|PARTUUID=..|UUID=.. DIR [ro,commit=SECONDS]]",
	      "mount a filesystem on directory DIR (or at a new /NAME), or list mounts");

static int cmd_umount(int argc, char **argv)
{
	struct vfs_mount *m;
	int err;

	if (argc != 2)
		return -EINVAL;
	err = vfs_find_mount(argv[1], &m);
	return err ? err : fs_umount(m);
}
SHELL_COMMAND("umount", cmd_umount, "umount DIR", "write back and unmount a filesystem");
