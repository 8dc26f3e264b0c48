/*
 * VFS operations by path and on open files: open/read/write/seek/close,
 * stat, truncate, readdir, and the namespace changes (mkdir, rmdir,
 * unlink, rename, link, symlink, readlink).
 *
 * This layer resolves paths (fs/namei.c), enforces what does not depend
 * on the filesystem -- access mode of an open file, -EROFS on read-only
 * mounts, -EXDEV across mounts, "." and ".." never created or removed,
 * "/" holding only mounts, -EBUSY for removing or renaming a mount point
 * -- records accesses (fs/atime.c) and calls the vnode's ops for the rest.
 * A missing op means the object cannot do that: -EPERM.
 */
#include "fs/vfs_priv.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

static bool vfs_ro(const struct vnode *v)
{
	return v->v_mnt && (v->v_mnt->mnt_flags & VFS_MNT_RDONLY);
}

/* May the directory @dir be changed?  0, -EROFS, or -EPERM for "/". */
static int vfs_may_modify(const struct vnode *dir)
{
	if (!dir->v_mnt)
		return -EPERM;
	return vfs_ro(dir) ? -EROFS : 0;
}

/* The file @path names, made (empty, @mode) if it does not exist. */
static int vfs_open_create(const char *path, unsigned flags, u32 mode, struct vnode **out)
{
	bool follow = !(flags & (VFS_O_NOFOLLOW | VFS_O_EXCL)), found;
	char *name = kmalloc(VFS_NAME_MAX + 1, GFP_KERNEL);
	struct vnode *v;
	int err;

	if (!name)
		return -ENOMEM;
	err = __vfs_lookup_create(path, follow, &v, name, &found);
	if (err)
		goto free_name;
	if (found) {
		if (flags & VFS_O_EXCL) {
			vnode_put(v);
			err = -EEXIST;
		} else {
			*out = v;
		}
		goto free_name;
	}
	err = vfs_may_modify(v);
	if (!err)
		err = v->v_ops->vop_create ?
		      v->v_ops->vop_create(v, name, strlen(name), mode, out) : -EPERM;
	vnode_put(v);
free_name:
	kfree(name);
	return err;
}

/**
 * vfs_open - open @path with VFS_O_* @flags (@mode for a created file)
 * Returns 0 and the file in *out, or -errno.  Close with __vfs_close().
 */
int __vfs_open(const char *path, unsigned flags, u32 mode, struct vfs_file **out)
{
	unsigned acc = flags & VFS_O_ACCMODE;
	struct vfs_file *f;
	struct vnode *v;
	int err;

	if (acc == VFS_O_ACCMODE)
		return -EINVAL;
	if (flags & VFS_O_CREAT) {
		err = vfs_open_create(path, flags, mode, &v);
	} else {
		err = __vfs_lookup(path, !(flags & VFS_O_NOFOLLOW), &v);
	}
	if (err)
		return err;
	if (VFS_S_ISLNK(v->v_mode))
		err = -ELOOP;
	else if ((flags & VFS_O_DIRECTORY) && !VFS_S_ISDIR(v->v_mode))
		err = -ENOTDIR;
	else if (VFS_S_ISDIR(v->v_mode) && acc != VFS_O_RDONLY)
		err = -EISDIR;
	else if (acc != VFS_O_RDONLY && vfs_ro(v))
		err = -EROFS;
	else if ((flags & VFS_O_TRUNC) && acc != VFS_O_RDONLY && VFS_S_ISREG(v->v_mode))
		err = v->v_ops->vop_truncate ? v->v_ops->vop_truncate(v, 0) : -EPERM;
	if (err)
		goto put;
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f) {
		err = -ENOMEM;
		goto put;
	}
	f->f_vnode = v;
	f->f_flags = flags;
	*out = f;
	return 0;
put:
	vnode_put(v);
	return err;
}

int __vfs_close(struct vfs_file *f)
{
	int err = vnode_put(f->f_vnode);

	kfree(f);
	return err;
}

long __vfs_pread(struct vfs_file *f, void *buf, size_t len, u64 pos)
{
	struct vnode *v = f->f_vnode;
	long n;

	if ((f->f_flags & VFS_O_ACCMODE) == VFS_O_WRONLY)
		return -EBADF;
	if (VFS_S_ISDIR(v->v_mode))
		return -EISDIR;
	if (!v->v_ops->vop_read)
		return -EINVAL;
	n = v->v_ops->vop_read(v, pos, buf, len);
	if (n >= 0 && len)
		vfs_accessed(v);	/* an atime not recorded fails no read, as on Linux */
	return n;
}

/* A file opened VFS_O_SYNC: the bytes are durable when this returns. */
long __vfs_pwrite(struct vfs_file *f, const void *buf, size_t len, u64 pos)
{
	struct vnode *v = f->f_vnode;
	long n;
	int err;

	if ((f->f_flags & VFS_O_ACCMODE) == VFS_O_RDONLY)
		return -EBADF;
	if (vfs_ro(v))
		return -EROFS;
	if (!v->v_ops->vop_write)
		return -EINVAL;
	n = v->v_ops->vop_write(v, pos, buf, len);
	if (n > 0 && (f->f_flags & VFS_O_SYNC) == VFS_O_SYNC) {
		err = __vfs_fsync_file(f);
		if (err)
			return err;
	}
	return n;
}

long __vfs_read(struct vfs_file *f, void *buf, size_t len)
{
	long n = __vfs_pread(f, buf, len, f->f_pos);

	if (n > 0)
		f->f_pos += (u64)n;
	return n;
}

long __vfs_write(struct vfs_file *f, const void *buf, size_t len)
{
	struct vfs_stat st;
	long n;
	int err;

	if (f->f_flags & VFS_O_APPEND) {
		err = __vfs_fstat(f, &st);
		if (err)
			return err;
		f->f_pos = st.st_size;
	}
	n = __vfs_pwrite(f, buf, len, f->f_pos);
	if (n > 0)
		f->f_pos += (u64)n;
	return n;
}

int __vfs_fsync_file(struct vfs_file *f)
{
	return __vfs_fsync_vnode(f->f_vnode);
}

int __vfs_fsync(const char *path)
{
	struct vnode *v;
	int err = __vfs_lookup(path, true, &v);

	if (err)
		return err;
	err = __vfs_fsync_vnode(v);
	vnode_put(v);
	return err;
}

int __vfs_seek(struct vfs_file *f, s64 off, int whence, u64 *newpos)
{
	struct vfs_stat st;
	s64 base;
	int err;

	switch (whence) {
	case VFS_SEEK_SET:
		base = 0;
		break;
	case VFS_SEEK_CUR:
		base = (s64)f->f_pos;
		break;
	case VFS_SEEK_END:
		err = __vfs_fstat(f, &st);
		if (err)
			return err;
		base = (s64)st.st_size;
		break;
	default:
		return -EINVAL;
	}
	if ((off > 0 && base > INT64_MAX - off) || base + off < 0)
		return -EINVAL;
	f->f_pos = (u64)(base + off);
	if (newpos)
		*newpos = f->f_pos;
	return 0;
}

int __vfs_ftruncate(struct vfs_file *f, u64 size)
{
	struct vnode *v = f->f_vnode;

	if ((f->f_flags & VFS_O_ACCMODE) == VFS_O_RDONLY)
		return -EBADF;
	if (vfs_ro(v))
		return -EROFS;
	return v->v_ops->vop_truncate ? v->v_ops->vop_truncate(v, size) : -EINVAL;
}

/* 1 and the next entry, 0 at the end, or -errno.  A listing from the start is an access. */
int __vfs_readdir(struct vfs_file *f, struct vfs_dirent *de)
{
	struct vnode *v = f->f_vnode;
	bool start = f->f_pos == 0;
	int r;

	if (!VFS_S_ISDIR(v->v_mode) || !v->v_ops->vop_readdir)
		return -ENOTDIR;
	r = v->v_ops->vop_readdir(v, &f->f_pos, de);
	if (r >= 0 && start)
		vfs_accessed(v);	/* an atime not recorded fails no listing */
	return r;
}

int __vfs_fstat(struct vfs_file *f, struct vfs_stat *st)
{
	return f->f_vnode->v_ops->vop_getattr(f->f_vnode, st);
}

static int vfs_stat_common(const char *path, bool follow, struct vfs_stat *st)
{
	struct vnode *v;
	int err;

	err = __vfs_lookup(path, follow, &v);
	if (err)
		return err;
	err = v->v_ops->vop_getattr(v, st);
	vnode_put(v);
	return err;
}

int __vfs_stat(const char *path, struct vfs_stat *st)
{
	return vfs_stat_common(path, true, st);
}

int __vfs_lstat(const char *path, struct vfs_stat *st)
{
	return vfs_stat_common(path, false, st);
}

int __vfs_truncate(const char *path, u64 size)
{
	struct vfs_file *f;
	int err, e;

	err = __vfs_open(path, VFS_O_WRONLY, 0, &f);
	if (err)
		return err;
	err = __vfs_ftruncate(f, size);
	e = __vfs_close(f);
	return err ? err : e;
}

int __vfs_readlink(const char *path, char *buf, size_t size)
{
	struct vnode *v;
	int err;

	err = __vfs_lookup(path, false, &v);
	if (err)
		return err;
	if (!VFS_S_ISLNK(v->v_mode))
		err = -EINVAL;
	else
		err = v->v_ops->vop_readlink(v, buf, size);
	vnode_put(v);
	return err;
}

/*
 * -EBUSY if @name in @dir is a mount point: a covered directory, or a
 * mount in "/".  Else 0, or the lookup's error (-ENOENT is left to the
 * operation to report).  Without mounts on @dir's filesystem, no lookup.
 */
static int vfs_not_mountpoint(struct vnode *dir, const char *name)
{
	struct vnode *v;
	int err;

	if (dir->v_mnt && !vfs_mounted_on(dir->v_mnt))
		return 0;
	err = dir->v_ops->vop_lookup(dir, name, strlen(name), &v);
	if (err)
		return err == -ENOENT ? 0 : err;
	if (v->v_mountedhere || v == v->v_mnt->mnt_root)
		err = -EBUSY;
	vnode_put(v);
	return err;
}

/*
 * The parent of @path, checked modifiable, and the last name (allocated:
 * kfree() it).  @removes: the name is to go or be replaced, which a mount
 * point's may not (-EBUSY).
 */
static int vfs_parent_for_change(const char *path, bool removes, struct vnode **dir, char **name)
{
	int err;

	*name = kmalloc(VFS_NAME_MAX + 1, GFP_KERNEL);
	if (!*name)
		return -ENOMEM;
	err = __vfs_lookup_parent(path, dir, *name);
	if (err)
		goto free_name;
	err = removes ? vfs_not_mountpoint(*dir, *name) : 0;
	if (!err)
		err = vfs_may_modify(*dir);
	if (err)
		goto put_dir;
	return 0;
put_dir:
	vnode_put(*dir);
free_name:
	kfree(*name);
	return err;
}

/* The changes of one name in one directory that vfs_nameop() makes. */
enum vfs_nameop {
	NAMEOP_MKDIR,
	NAMEOP_RMDIR,
	NAMEOP_UNLINK,
	NAMEOP_SYMLINK,
};

/*
 * Find the directory of @path, check it may change, apply @op to the last
 * name (@mode for mkdir, @target for symlink) and put the directory back.
 * A filesystem without the op gives -EPERM.
 */
static int vfs_nameop(const char *path, enum vfs_nameop op, u32 mode, const char *target)
{
	const struct vnode_ops *ops;
	struct vnode *dir;
	char *name;
	size_t len;
	int err;

	err = vfs_parent_for_change(path, op == NAMEOP_RMDIR || op == NAMEOP_UNLINK, &dir, &name);
	if (err)
		return op == NAMEOP_MKDIR && err == -EBUSY ? -EEXIST : err;	/* mkdir / */
	ops = dir->v_ops;
	len = strlen(name);
	err = -EPERM;
	switch (op) {
	case NAMEOP_MKDIR:
		if (ops->vop_mkdir)
			err = ops->vop_mkdir(dir, name, len, mode);
		break;
	case NAMEOP_RMDIR:
		if (ops->vop_rmdir)
			err = ops->vop_rmdir(dir, name, len);
		break;
	case NAMEOP_UNLINK:
		if (ops->vop_unlink)
			err = ops->vop_unlink(dir, name, len);
		break;
	case NAMEOP_SYMLINK:
		if (ops->vop_symlink)
			err = ops->vop_symlink(dir, name, len, target);
		break;
	}
	vnode_put(dir);
	kfree(name);
	return err;
}

int __vfs_mkdir(const char *path, u32 mode)
{
	return vfs_nameop(path, NAMEOP_MKDIR, mode, NULL);
}

int __vfs_rmdir(const char *path)
{
	return vfs_nameop(path, NAMEOP_RMDIR, 0, NULL);
}

int __vfs_unlink(const char *path)
{
	return vfs_nameop(path, NAMEOP_UNLINK, 0, NULL);
}

int __vfs_symlink(const char *target, const char *path)
{
	if (strlen(target) >= VFS_PATH_MAX)
		return -ENAMETOOLONG;
	return vfs_nameop(path, NAMEOP_SYMLINK, 0, target);
}

/* A new name @path for the existing file @target (not followed if a symlink). */
int __vfs_link(const char *target, const char *path)
{
	struct vnode *v, *dir;
	char *name;
	int err;

	err = __vfs_lookup(target, false, &v);
	if (err)
		return err;
	err = vfs_parent_for_change(path, false, &dir, &name);
	if (err)
		goto put_v;
	if (dir->v_mnt != v->v_mnt)
		err = -EXDEV;
	else
		err = dir->v_ops->vop_link ?
		      dir->v_ops->vop_link(v, dir, name, strlen(name)) : -EPERM;
	vnode_put(dir);
	kfree(name);
put_v:
	vnode_put(v);
	return err;
}

int __vfs_rename(const char *from, const char *to)
{
	struct vnode *odir, *ndir;
	char *oname, *nname;
	int err;

	err = vfs_parent_for_change(from, true, &odir, &oname);
	if (err)
		return err;
	err = vfs_parent_for_change(to, true, &ndir, &nname);
	if (err)
		goto put_odir;
	if (odir->v_mnt != ndir->v_mnt)
		err = -EXDEV;
	else
		err = odir->v_ops->vop_rename ?
		      odir->v_ops->vop_rename(odir, oname, strlen(oname),
					      ndir, nname, strlen(nname)) : -EPERM;
	vnode_put(ndir);
	kfree(nname);
put_odir:
	vnode_put(odir);
	kfree(oname);
	return err;
}
