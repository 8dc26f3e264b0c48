/*
 * The VFS mount table, the filesystem type registry, vnode references,
 * and "/", the directory of mount points.
 *
 * "/" is a vnode of its own (no mount, ops that list and look up mount
 * points, nothing else); each mount hangs its filesystem's root directory
 * under one name there.  A filesystem type plugs in with a const struct
 * vfs_fstype; mounting without a type name probes each registered type.
 *
 * The mount table is the machine's one namespace, so it is this file's
 * state rather than a context passed around.  Locking: see fs/vfs.h (one
 * caller at a time).
 */
#include "fs/vfs.h"
#include "fs/buffer.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

#define VFS_MAX_FSTYPES	4	/* registered filesystem types */

static const struct vfs_fstype *vfs_fstypes[VFS_MAX_FSTYPES];	/* [v] */
static LIST_HEAD(vfs_mounts);					/* [v] in mount order */

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
	v->v_count++;
}

/* Drop a reference; the last one calls vop_release.  0 or its error. */
int vnode_put(struct vnode *v)
{
	if (!v)
		return 0;
	KASSERT(v->v_count > 0);
	if (--v->v_count > 0)
		return 0;
	return v->v_ops->vop_release ? v->v_ops->vop_release(v) : 0;
}

int vfs_register_fstype(const struct vfs_fstype *ft)
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

static struct vfs_mount *vfs_find_mount(const char *name, size_t len)
{
	struct vfs_mount *m;

	list_for_each_entry(m, &vfs_mounts, mnt_link)
		if (strlen(m->mnt_name) == len && !memcmp(m->mnt_name, name, len))
			return m;
	return NULL;
}

/* "/sda1" or "sda1" -> "sda1"; 0 or -EINVAL. */
static int vfs_mount_name(const char *dir, const char **name, size_t *len)
{
	size_t i;

	while (*dir == '/')
		dir++;
	*name = dir;
	*len = strlen(dir);
	while (*len && dir[*len - 1] == '/')
		(*len)--;
	for (i = 0; i < *len; i++)
		if (dir[i] == '/')
			return -EINVAL;
	if (*len == 0 || *len >= VFS_MNTNAME_MAX ||
	    (*len == 1 && dir[0] == '.') || (*len == 2 && dir[0] == '.' && dir[1] == '.'))
		return -EINVAL;
	return 0;
}

static const struct vfs_fstype *vfs_pick_type(struct block_device *bdev, const char *fstype)
{
	size_t i;

	for (i = 0; i < VFS_MAX_FSTYPES && vfs_fstypes[i]; i++) {
		const struct vfs_fstype *ft = vfs_fstypes[i];

		if (fstype ? !strcmp(ft->ft_name, fstype) : ft->ft_probe(bdev) == 1)
			return ft;
	}
	return NULL;
}

/**
 * vfs_mount - mount @bdev at "/NAME"
 * @fstype: a type name, or NULL to probe
 * @flags:  VFS_MNT_RDONLY to force read-only
 *
 * Returns 0, -EINVAL (bad name, or the filesystem refused: reason printed),
 * -EBUSY (name or device in use), -ENODEV (no type recognises it), -ENOMEM.
 */
int vfs_mount(struct block_device *bdev, const char *dir, const char *fstype, unsigned flags)
{
	const struct vfs_fstype *ft;
	struct vfs_mount *m;
	const char *name;
	size_t len;
	int err;

	err = vfs_mount_name(dir, &name, &len);
	if (err)
		return err;
	if (vfs_find_mount(name, len))
		return -EBUSY;
	list_for_each_entry(m, &vfs_mounts, mnt_link)
		if (m->mnt_bdev == bdev)
			return -EBUSY;
	ft = vfs_pick_type(bdev, fstype);
	if (!ft)
		return -ENODEV;
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	memcpy(m->mnt_name, name, len);
	m->mnt_type = ft;
	m->mnt_bdev = bdev;
	m->mnt_flags = flags & VFS_MNT_RDONLY;
	err = ft->ft_mount(m, bdev);
	if (err) {
		kfree(m);
		return err;
	}
	list_add_tail(&m->mnt_link, &vfs_mounts);
	return 0;
}

/* Unmount "/NAME": 0, -ENOENT, -EBUSY (files in use), or a write-back error. */
int vfs_umount(const char *dir)
{
	struct vfs_mount *m;
	const char *name;
	size_t len;
	int err;

	err = vfs_mount_name(dir, &name, &len);
	if (err)
		return err;
	m = vfs_find_mount(name, len);
	if (!m)
		return -ENOENT;
	err = m->mnt_type->ft_umount(m);
	if (err == -EBUSY && m->mnt_priv)
		return err;
	list_del(&m->mnt_link);
	kfree(m);
	return err;
}

int vfs_for_each_mount(int (*fn)(struct vfs_mount *mnt, void *arg), void *arg)
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

int vfs_statfs(const char *path, struct vfs_statfs *st)
{
	struct vnode *v;
	int err;

	err = vfs_lookup(path, true, &v);
	if (err)
		return err;
	err = v->v_mnt ? v->v_mnt->mnt_type->ft_statfs(v->v_mnt, st) : -EINVAL;
	vnode_put(v);
	return err;
}

/* Write back every mounted filesystem; 0 or the first error. */
int vfs_sync(void)
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
	struct vfs_mount *m = vfs_find_mount(name, len);

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
		st->st_nlink++;
	return 0;
}

/* Entries: ".", "..", then the mounts; *pos counts entries returned. */
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
		if (i++ < *pos)
			continue;
		de->d_ino = m->mnt_root->v_ino;
		de->d_namlen = (u16)strlen(m->mnt_name);
		memcpy(de->d_name, m->mnt_name, de->d_namlen + 1);
		(*pos)++;
		return 1;
	}
	return 0;
}
