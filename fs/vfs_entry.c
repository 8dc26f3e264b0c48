/*
 * The VFS entry points: each call of fs/vfs.h takes vfs_lock around the
 * unlocked form that does the work (fs/vfs_priv.h), so that a filesystem
 * is entered by one CPU at a time while the buffer cache and the block
 * layer under it run on all of them.  Mount, umount and the walk over the
 * mount table take vfs_mount_lock first.
 *
 * No entry point calls another: each takes the lock once.  A CPU that
 * holds vfs_lock and comes back here (deferred work run while it waited
 * for I/O inside a filesystem) panics in mutex_lock instead of waiting
 * for itself.  vfs_idle, called by the idle shell, only tries the lock:
 * while another CPU is inside the VFS the timed work waits for the next
 * idle moment.
 */
#include "fs/vfs_priv.h"

DEFINE_MUTEX(vfs_lock);
DEFINE_MUTEX(vfs_mount_lock);

#define VFS_LOCKED(type, call)			\
	do {					\
		type __r;			\
		mutex_lock(&vfs_lock);		\
		__r = (call);			\
		mutex_unlock(&vfs_lock);	\
		return __r;			\
	} while (0)

int vfs_register_fstype(const struct vfs_fstype *ft)
{
	VFS_LOCKED(int, __vfs_register_fstype(ft));
}

int vfs_mount(struct block_device *bdev, const char *dir, const char *fstype, unsigned flags)
{
	int err;

	mutex_lock(&vfs_mount_lock);
	mutex_lock(&vfs_lock);
	err = __vfs_mount(bdev, dir, fstype, flags);
	mutex_unlock(&vfs_lock);
	mutex_unlock(&vfs_mount_lock);
	return err;
}

int vfs_umount(struct vfs_mount *mnt)
{
	int err;

	mutex_lock(&vfs_mount_lock);
	mutex_lock(&vfs_lock);
	err = __vfs_umount(mnt);
	mutex_unlock(&vfs_lock);
	mutex_unlock(&vfs_mount_lock);
	return err;
}

/* @fn runs with vfs_mount_lock held: it may enter the VFS, but not mount or unmount. */
int vfs_for_each_mount(int (*fn)(struct vfs_mount *mnt, void *arg), void *arg)
{
	int r;

	mutex_lock(&vfs_mount_lock);
	r = __vfs_for_each_mount(fn, arg);
	mutex_unlock(&vfs_mount_lock);
	return r;
}

int vfs_find_mount(const char *path, struct vfs_mount **out)
{
	VFS_LOCKED(int, __vfs_find_mount(path, out));
}

int vfs_path_mount(const char *path, struct vfs_mount **out)
{
	struct vnode *v;
	int err;

	mutex_lock(&vfs_lock);
	err = __vfs_lookup(path, true, &v);
	if (!err) {
		*out = v->v_mnt;
		vnode_put(v);
	}
	mutex_unlock(&vfs_lock);
	return err;
}

int vfs_mount_path(const struct vfs_mount *mnt, char *buf, size_t size)
{
	VFS_LOCKED(int, __vfs_mount_path(mnt, buf, size));
}

int vfs_statfs(const char *path, struct vfs_statfs *st)
{
	VFS_LOCKED(int, __vfs_statfs(path, st));
}

int vfs_sync(void)
{
	VFS_LOCKED(int, __vfs_sync());
}

void vfs_idle(void)
{
	if (!mutex_trylock(&vfs_lock))
		return;
	__vfs_idle();
	mutex_unlock(&vfs_lock);
}

int vfs_open(const char *path, unsigned flags, u32 mode, struct vfs_file **out)
{
	VFS_LOCKED(int, __vfs_open(path, flags, mode, out));
}

int vfs_close(struct vfs_file *f)
{
	VFS_LOCKED(int, __vfs_close(f));
}

long vfs_read(struct vfs_file *f, void *buf, size_t len)
{
	VFS_LOCKED(long, __vfs_read(f, buf, len));
}

long vfs_write(struct vfs_file *f, const void *buf, size_t len)
{
	VFS_LOCKED(long, __vfs_write(f, buf, len));
}

long vfs_pread(struct vfs_file *f, void *buf, size_t len, u64 pos)
{
	VFS_LOCKED(long, __vfs_pread(f, buf, len, pos));
}

long vfs_pwrite(struct vfs_file *f, const void *buf, size_t len, u64 pos)
{
	VFS_LOCKED(long, __vfs_pwrite(f, buf, len, pos));
}

int vfs_seek(struct vfs_file *f, s64 off, int whence, u64 *newpos)
{
	VFS_LOCKED(int, __vfs_seek(f, off, whence, newpos));
}

int vfs_ftruncate(struct vfs_file *f, u64 size)
{
	VFS_LOCKED(int, __vfs_ftruncate(f, size));
}

int vfs_readdir(struct vfs_file *f, struct vfs_dirent *de)
{
	VFS_LOCKED(int, __vfs_readdir(f, de));
}

int vfs_fstat(struct vfs_file *f, struct vfs_stat *st)
{
	VFS_LOCKED(int, __vfs_fstat(f, st));
}

int vfs_stat(const char *path, struct vfs_stat *st)
{
	VFS_LOCKED(int, __vfs_stat(path, st));
}

int vfs_lstat(const char *path, struct vfs_stat *st)
{
	VFS_LOCKED(int, __vfs_lstat(path, st));
}

int vfs_truncate(const char *path, u64 size)
{
	VFS_LOCKED(int, __vfs_truncate(path, size));
}

int vfs_fsync(const char *path)
{
	VFS_LOCKED(int, __vfs_fsync(path));
}

int vfs_fsync_file(struct vfs_file *f)
{
	VFS_LOCKED(int, __vfs_fsync_file(f));
}

int vfs_mkdir(const char *path, u32 mode)
{
	VFS_LOCKED(int, __vfs_mkdir(path, mode));
}

int vfs_rmdir(const char *path)
{
	VFS_LOCKED(int, __vfs_rmdir(path));
}

int vfs_unlink(const char *path)
{
	VFS_LOCKED(int, __vfs_unlink(path));
}

int vfs_rename(const char *from, const char *to)
{
	VFS_LOCKED(int, __vfs_rename(from, to));
}

int vfs_link(const char *target, const char *path)
{
	VFS_LOCKED(int, __vfs_link(target, path));
}

int vfs_symlink(const char *target, const char *path)
{
	VFS_LOCKED(int, __vfs_symlink(target, path));
}

int vfs_readlink(const char *path, char *buf, size_t size)
{
	VFS_LOCKED(int, __vfs_readlink(path, buf, size));
}
