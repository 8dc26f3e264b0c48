/*
 * The VFS mount table, the filesystem type registry, vnode references,
 * and "/", the directory of mounts.
 *
 * A mount is a filesystem hung on the namespace in one of two places:
 * under a name of its own in "/" (mnt_covered NULL), or on a directory of
 * another mounted filesystem, which it covers: the mount holds that
 * directory's vnode and the vnode points back (v_mountedhere), and the
 * path walk (fs/namei.c) switches between the two.  "/" is a vnode of
 * its own, with ops that list and look up the mounts it holds.  A
 * filesystem type plugs in with a const struct vfs_fstype; mounting
 * without a type name probes each registered type.
 *
 * The mount table is the machine's one namespace, so it is this file's
 * state rather than a context passed around.  Mounts are kept in mount
 * order, which puts every mount after the one it sits on.  Locking: every
 * function here runs under vfs_lock (fs/vfs_priv.h); the mount table
 * changes only with vfs_mount_lock held as well.
 */
#include "fs/vfs_priv.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

#define VFS_MAX_FSTYPES	4	/* registered filesystem types */

static const struct vfs_fstype *vfs_fstypes[VFS_MAX_FSTYPES];	/* [v] */
static LIST_HEAD(vfs_mounts);					/* [m] in mount order */

int __vfs_fsync_vnode(struct vnode *v)
{
	struct vfs_mount *m = v->v_mnt;

	if (!m)				/* "/": every filesystem */
		return __vfs_sync();
	return m->mnt_type->ft_sync ? m->mnt_type->ft_sync(m) : 0;
}

void __vfs_idle(void)
{
	struct vfs_mount *m;

	list_for_each_entry(m, &vfs_mounts, mnt_link)
		if (m->mnt_type->ft_idle)
			m->mnt_type->ft_idle(m);
}

static int vfs_root_lookup(struct vnode *dir, const char *name, size_t len, struct vnode **out);
static int vfs_root_getattr(struct vnode *v, struct vfs_stat *st);
static int vfs_root_readdir(struct vnode *dir, u64 *pos, struct vfs_dirent *de);

static const struct vnode_ops vfs_root_ops = {
	.vop_lookup	= vfs_root_lookup,
	.vop_getattr	= vfs_root_getattr,
	.vop_readdir	= vfs_root_readdir,
};

/* "/": never released (its count starts at one and stays above). */
struct vnode vfs_rootv = {
	.v_ops		= &vfs_root_ops,
	.v_mnt		= NULL,
	.v_ino		= 1,
	.v_mode		= VFS_S_IFDIR | 0755,
	.v_count	= 1,
};

void vnode_get(struct vnode *v)
{
	assert_mutex_held(&vfs_lock);
	v->v_count++;
}

/* Drop a reference; the last one calls vop_release.  0 or its error. */
int vnode_put(struct vnode *v)
{
	if (!v)
		return 0;
	assert_mutex_held(&vfs_lock);
	KASSERT(v->v_count > 0);
	if (--v->v_count > 0)
		return 0;
	return v->v_ops->vop_release ? v->v_ops->vop_release(v) : 0;
}

int __vfs_register_fstype(const struct vfs_fstype *ft)
{
	size_t i;

	for (i = 0; i < VFS_MAX_FSTYPES; i++) {
		if (vfs_fstypes[i] == ft)
			return 0;
		if (!vfs_fstypes[i]) {
			vfs_fstypes[i] = ft;
			return 0;
		}
	}
	return -ENOSPC;
}

/* The mount under @name in "/", or NULL. */
static struct vfs_mount *vfs_root_mount(const char *name, size_t len)
{
	struct vfs_mount *m;

	list_for_each_entry(m, &vfs_mounts, mnt_link)
		if (!m->mnt_covered && strlen(m->mnt_name) == len && !memcmp(m->mnt_name, name, len))
			return m;
	return NULL;
}

/*
 * The type named, or the first whose probe says the device is its own.
 * A probe that could not read the device ends the search: the next one
 * would only wait for the same failing disk again.
 */
static const struct vfs_fstype *vfs_pick_type(struct block_device *bdev, const char *fstype)
{
	size_t i;
	int r;

	for (i = 0; i < VFS_MAX_FSTYPES && vfs_fstypes[i]; i++) {
		const struct vfs_fstype *ft = vfs_fstypes[i];

		if (fstype) {
			if (!strcmp(ft->ft_name, fstype))
				return ft;
			continue;
		}
		r = ft->ft_probe(bdev);
		if (r == 1)
			return ft;
		if (r < 0)
			break;
	}
	return NULL;
}

/*
 * Where a mount on @dir goes: the directory it will cover, referenced, in
 * *covered; or, for a name not yet in "/", NULL there and the name in
 * @mnt->mnt_name.  0, -EBUSY for "/" and for a mount's root (no
 * stacking), -ENOTDIR, -ENAMETOOLONG, or the walk's error.
 */
static int vfs_mountpoint(const char *dir, struct vfs_mount *mnt, struct vnode **covered)
{
	char *name = kmalloc(VFS_NAME_MAX + 1, GFP_KERNEL);
	struct vnode *v;
	bool found;
	int err;

	if (!name)
		return -ENOMEM;
	err = __vfs_lookup_create(dir, true, &v, name, &found);
	if (err)
		goto free_name;
	*covered = NULL;
	if (!found) {
		if (v != &vfs_rootv)
			err = -ENOENT;
		else if (strlen(name) >= VFS_MNTNAME_MAX)
			err = -ENAMETOOLONG;
		else
			str_copy(mnt->mnt_name, name, VFS_MNTNAME_MAX);
		vnode_put(v);
	} else if (!VFS_S_ISDIR(v->v_mode) || !v->v_mnt || v == v->v_mnt->mnt_root) {
		err = VFS_S_ISDIR(v->v_mode) ? -EBUSY : -ENOTDIR;
		vnode_put(v);
	} else {
		*covered = v;
	}
free_name:
	kfree(name);
	return err;
}

/**
 * vfs_mount - mount @bdev on the directory @dir, or at "/NAME"
 * @fstype: a type name, or NULL to probe
 * @flags:  VFS_MNT_RDONLY to force read-only
 *
 * Returns 0, -ENOENT or -ENOTDIR (no such directory), -EBUSY (@dir is "/"
 * or already a mount point, or the device is mounted), -ENODEV (no type
 * recognises it), -EINVAL (the filesystem refused: reason printed), -ENOMEM.
 */
int __vfs_mount(struct block_device *bdev, const char *dir, const char *fstype, unsigned flags)
{
	const struct vfs_fstype *ft;
	struct vnode *covered;
	struct vfs_mount *m;
	int err;

	list_for_each_entry(m, &vfs_mounts, mnt_link)
		if (m->mnt_bdev == bdev)
			return -EBUSY;
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	err = vfs_mountpoint(dir, m, &covered);
	if (err)
		goto free_mount;
	ft = vfs_pick_type(bdev, fstype);
	if (!ft) {
		err = -ENODEV;
		goto put_covered;
	}
	m->mnt_type = ft;
	m->mnt_bdev = bdev;
	m->mnt_flags = flags & (VFS_MNT_RDONLY | VFS_MNT_COMMIT(VFS_MNT_COMMIT_MAX));
	err = ft->ft_mount(m, bdev);
	if (err)
		goto put_covered;
	m->mnt_covered = covered;
	if (covered)
		covered->v_mountedhere = m;
	list_add_tail(&m->mnt_link, &vfs_mounts);
	return 0;
put_covered:
	vnode_put(covered);
free_mount:
	kfree(m);
	return err;
}

int __vfs_find_mount(const char *path, struct vfs_mount **out)
{
	struct vnode *v;
	int err;

	err = __vfs_lookup(path, true, &v);
	if (err)
		return err;
	if (v->v_mnt && v == v->v_mnt->mnt_root)
		*out = v->v_mnt;
	else
		err = -EINVAL;
	vnode_put(v);
	return err;
}

/* Does another mount sit on a directory of @mnt? */
bool vfs_mounted_on(const struct vfs_mount *mnt)
{
	struct vfs_mount *m;

	list_for_each_entry(m, &vfs_mounts, mnt_link)
		if (m->mnt_covered && m->mnt_covered->v_mnt == mnt)
			return true;
	return false;
}

/**
 * vfs_umount - write back and unmount @mnt
 *
 * Returns -EBUSY, and @mnt stays mounted, while another mount sits on one
 * of its directories or its files are in use.  Otherwise @mnt is gone,
 * and the result is 0 or the write-back's error.
 */
int __vfs_umount(struct vfs_mount *mnt)
{
	int err, e;

	if (vfs_mounted_on(mnt))
		return -EBUSY;
	err = mnt->mnt_type->ft_umount(mnt);
	if (err == -EBUSY && mnt->mnt_priv)
		return err;
	if (mnt->mnt_covered) {
		mnt->mnt_covered->v_mountedhere = NULL;
		e = vnode_put(mnt->mnt_covered);
		if (e && !err)
			err = e;
	}
	list_del(&mnt->mnt_link);
	kfree(mnt);
	return err;
}

/* Put "/" and @name (@len bytes) in front of the path built backwards at *p. */
static int path_prepend(char *buf, char **p, const char *name, size_t len)
{
	if ((size_t)(*p - buf) < len + 1)
		return -ENAMETOOLONG;
	*p -= len;
	memcpy(*p, name, len);
	*--*p = '/';
	return 0;
}

/* Put the name @dir has in its parent @up in front of the path. */
static int path_prepend_child(char *buf, char **p, struct vnode *up, const struct vnode *dir,
			      struct vfs_dirent *de)
{
	u64 pos = 0;
	int r;

	while ((r = up->v_ops->vop_readdir(up, &pos, de)) == 1) {
		if (de->d_ino != dir->v_ino || !strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		return path_prepend(buf, p, de->d_name, de->d_namlen);
	}
	return r < 0 ? r : -ENOENT;
}

/**
 * vfs_mount_path - the full path of the directory @mnt is mounted on
 *
 * Found as getcwd() found it before name caches: from the covered
 * directory up through "..", looking each directory up by inode number in
 * its parent, and on through the mounts on the way to "/".  Returns 0 and
 * the path in @buf, -ENAMETOOLONG if it does not fit in @size bytes (as a
 * ".." loop on a corrupt disk will not), or the filesystem's error.
 */
int __vfs_mount_path(const struct vfs_mount *mnt, char *buf, size_t size)
{
	struct vfs_dirent *de;
	struct vnode *v, *up;
	char *p = buf + size;
	int err = 0;

	if (size == 0)
		return -ENAMETOOLONG;
	*--p = '\0';
	de = kmalloc(sizeof(*de), GFP_KERNEL);
	if (!de)
		return -ENOMEM;
	while (mnt->mnt_covered) {
		v = mnt->mnt_covered;
		vnode_get(v);
		while (!err && v != v->v_mnt->mnt_root) {
			err = v->v_ops->vop_lookup(v, "..", 2, &up);
			if (err)
				break;
			err = path_prepend_child(buf, &p, up, v, de);
			vnode_put(v);
			v = up;
		}
		mnt = v->v_mnt;
		vnode_put(v);
		if (err)
			goto free_de;
	}
	err = path_prepend(buf, &p, mnt->mnt_name, strlen(mnt->mnt_name));
	if (!err)
		memmove(buf, p, strlen(p) + 1);
free_de:
	kfree(de);
	return err;
}

int __vfs_for_each_mount(int (*fn)(struct vfs_mount *mnt, void *arg), void *arg)
{
	struct vfs_mount *m, *t;
	int r;

	list_for_each_entry_safe(m, t, &vfs_mounts, mnt_link) {
		r = fn(m, arg);
		if (r)
			return r;
	}
	return 0;
}

int __vfs_statfs(const char *path, struct vfs_statfs *st)
{
	struct vnode *v;
	int err;

	err = __vfs_lookup(path, true, &v);
	if (err)
		return err;
	err = v->v_mnt ? v->v_mnt->mnt_type->ft_statfs(v->v_mnt, st) : -EINVAL;
	vnode_put(v);
	return err;
}

/* Write back every mounted filesystem; 0 or the first error. */
int __vfs_sync(void)
{
	struct vfs_mount *m;
	int err = 0, e;

	list_for_each_entry(m, &vfs_mounts, mnt_link) {
		if (!m->mnt_type->ft_sync)
			continue;
		e = m->mnt_type->ft_sync(m);
		if (e && !err)
			err = e;
	}
	return err;
}

static int vfs_root_lookup(struct vnode *dir, const char *name, size_t len, struct vnode **out)
{
	struct vfs_mount *m = vfs_root_mount(name, len);

	if (!m)
		return -ENOENT;
	vnode_get(m->mnt_root);
	*out = m->mnt_root;
	return 0;
}

static int vfs_root_getattr(struct vnode *v, struct vfs_stat *st)
{
	struct vfs_mount *m;

	memset(st, 0, sizeof(*st));
	st->st_ino = v->v_ino;
	st->st_mode = v->v_mode;
	st->st_nlink = 2;
	list_for_each_entry(m, &vfs_mounts, mnt_link)
		st->st_nlink += !m->mnt_covered;
	return 0;
}

/* Entries: ".", "..", then the mounts in "/"; *pos counts entries returned. */
static int vfs_root_readdir(struct vnode *dir, u64 *pos, struct vfs_dirent *de)
{
	struct vfs_mount *m;
	u64 i = 2;

	memset(de, 0, sizeof(*de));
	de->d_type = VFS_DT_DIR;
	if (*pos < 2) {
		de->d_ino = 1;
		de->d_namlen = (u16)(*pos + 1);
		memcpy(de->d_name, "..", de->d_namlen);
		(*pos)++;
		return 1;
	}
	list_for_each_entry(m, &vfs_mounts, mnt_link) {
		if (m->mnt_covered || i++ < *pos)
			continue;
		de->d_ino = m->mnt_root->v_ino;
		de->d_namlen = (u16)strlen(m->mnt_name);
		memcpy(de->d_name, m->mnt_name, de->d_namlen + 1);
		(*pos)++;
		return 1;
	}
	return 0;
}
