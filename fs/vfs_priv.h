/*
 * Inside the VFS: its two locks and the unlocked forms of the calls in
 * fs/vfs.h, for fs/ code that already holds the lock.
 *
 * vfs_lock serialises everything below the entry points: every call into
 * a filesystem (ext2/3/4, FAT) and the VFS state above them -- vnode
 * references, open files' positions, the mount table as the path walk
 * reads it, access times.  fs/vfs_entry.c takes it around each call of
 * fs/vfs.h, so a filesystem is entered by one CPU at a time; the buffer
 * cache (its own spinlock) and the block layer below run on every CPU at
 * once, and a CPU that waits for vfs_lock runs its deferred work.
 *
 * vfs_mount_lock is taken outside vfs_lock (never the other way round)
 * by mount, umount and vfs_for_each_mount, whose callback may then enter
 * the VFS.  The mount table changes only with both held, so either one
 * is enough to read it.
 *
 * Every __vfs_X here is vfs_X of fs/vfs.h for a caller that holds
 * vfs_lock (STYLE: __ means "the caller holds the lock"); __vfs_mount,
 * __vfs_umount and __vfs_for_each_mount also want vfs_mount_lock.
 */
#ifndef FS_VFS_PRIV_H
#define FS_VFS_PRIV_H

#include "fs/vfs.h"
#include "kernel/mutex.h"

extern struct mutex vfs_lock;
extern struct mutex vfs_mount_lock;

/* fs/vfs.c */
int __vfs_register_fstype(const struct vfs_fstype *ft);
int __vfs_mount(struct block_device *bdev, const char *dir, const char *fstype, unsigned flags);
int __vfs_find_mount(const char *path, struct vfs_mount **out);
int __vfs_umount(struct vfs_mount *mnt);
int __vfs_mount_path(const struct vfs_mount *mnt, char *buf, size_t size);
int __vfs_for_each_mount(int (*fn)(struct vfs_mount *mnt, void *arg), void *arg);
int __vfs_statfs(const char *path, struct vfs_statfs *st);
int __vfs_sync(void);
void __vfs_idle(void);
int __vfs_fsync_vnode(struct vnode *v);

/* fs/namei.c: the path walk; vnodes returned referenced (vnode_put under vfs_lock) */
int __vfs_lookup(const char *path, bool follow, struct vnode **out);
/*
 * The parent directory of @path (referenced) and its last component,
 * copied into @name (VFS_NAME_MAX + 1 bytes); "." and ".." as the last
 * component give -EINVAL, "/" alone -EBUSY.
 */
int __vfs_lookup_parent(const char *path, struct vnode **dir, char *name);
/* For a create: the file if it exists (*found), else its directory and name. */
int __vfs_lookup_create(const char *path, bool follow, struct vnode **out, char *name,
			bool *found);

/* fs/vfsops.c */
int __vfs_open(const char *path, unsigned flags, u32 mode, struct vfs_file **out);
int __vfs_close(struct vfs_file *f);
long __vfs_read(struct vfs_file *f, void *buf, size_t len);
long __vfs_write(struct vfs_file *f, const void *buf, size_t len);
long __vfs_pread(struct vfs_file *f, void *buf, size_t len, u64 pos);
long __vfs_pwrite(struct vfs_file *f, const void *buf, size_t len, u64 pos);
int __vfs_seek(struct vfs_file *f, s64 off, int whence, u64 *newpos);
int __vfs_ftruncate(struct vfs_file *f, u64 size);
int __vfs_readdir(struct vfs_file *f, struct vfs_dirent *de);
int __vfs_fstat(struct vfs_file *f, struct vfs_stat *st);
int __vfs_stat(const char *path, struct vfs_stat *st);
int __vfs_lstat(const char *path, struct vfs_stat *st);
int __vfs_truncate(const char *path, u64 size);
int __vfs_fsync(const char *path);
int __vfs_fsync_file(struct vfs_file *f);
int __vfs_mkdir(const char *path, u32 mode);
int __vfs_rmdir(const char *path);
int __vfs_unlink(const char *path);
int __vfs_rename(const char *from, const char *to);
int __vfs_link(const char *target, const char *path);
int __vfs_symlink(const char *target, const char *path);
int __vfs_readlink(const char *path, char *buf, size_t size);

#endif
