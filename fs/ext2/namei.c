/*
 * ext2 namespace operations: create, mkdir, symlink, link, unlink, rmdir,
 * rename (the vnode ops table that joins them to the VFS is in handle.c).
 *
 * Link counts follow the usual rules: a file counts its names; a
 * directory counts its name in the parent, its own ".", and the ".." of
 * each subdirectory; with dir_nlink, a directory past EXT4_LINK_MAX
 * counts 1, "many", and stays so (inode4.c).  A new inode is written with its link count set
 * before any name points to it; a failure after the inode exists drops
 * its count to 0 and lets release free it.  Symlinks shorter than 60
 * bytes live in i_block (fast), longer ones in one data block (slow).
 */
#include "fs/ext2/ext2.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/string.h"

#define EXT2_ANCESTOR_WALK_MAX	4096	/* ".." steps before a walk is a loop */

static u32 ext2_nlink(const struct ext2_inode_info *ei)
{
	return le16_to_cpu(ei->ei_raw.i_links_count);
}

static void ext2_set_nlink(struct ext2_inode_info *ei, u32 n)
{
	ei->ei_raw.i_links_count = cpu_to_le16((u16)n);
	ext2_touch(ei, false, true);
}

/* Common checks for adding @name to @dir. */
static int ext2_may_add(struct ext2_inode_info *dir, const char *name, size_t len)
{
	u32 ino;
	int err;

	if (dir->ei_fs->fs_rdonly)
		return -EROFS;
	if (!ext2_isdir(dir))
		return -ENOTDIR;
	if (ext2_nlink(dir) == 0)
		return -ENOENT;		/* removed while in use */
	err = ext2_dir_find(dir, name, len, &ino);
	if (err == 0)
		return -EEXIST;
	return err == -ENOENT ? 0 : err;
}

/* A new inode of @mode with @nlink links, named @name in @dir. */
static int ext2_make(struct ext2_inode_info *dir, const char *name, size_t len, u32 mode,
		     u32 nlink, struct ext2_inode_info **out)
{
	struct ext2_inode_info *ei;
	int err;

	err = ext2_may_add(dir, name, len);
	if (err)
		return err;
	err = ext2_new_inode(dir->ei_fs, dir, mode, &ei);
	if (err)
		return err;
	ext2_set_nlink(ei, nlink);
	*out = ei;
	return 0;
}

/* Undo ext2_make() after a failure: release frees the inode. */
static void ext2_unmake(struct ext2_inode_info *ei)
{
	ext2_set_nlink(ei, 0);
	ext2_iput(ei);
}

int ext2_create(struct vnode *dv, const char *name, size_t len, u32 mode,
		       struct vnode **out)
{
	struct ext2_inode_info *dir = EXT2_I(dv), *ei;
	int err;

	mode = EXT2_S_IFREG | (mode & 07777);
	err = ext2_make(dir, name, len, mode, 1, &ei);
	if (err)
		return err;
	err = ext2_dir_add(dir, name, len, ei->ei_ino, mode);
	if (err) {
		ext2_unmake(ei);
		return err;
	}
	*out = &ei->ei_vnode;
	return 0;
}

int ext2_mkdir(struct vnode *dv, const char *name, size_t len, u32 mode)
{
	struct ext2_inode_info *dir = EXT2_I(dv), *ei;
	int err;

	if (ext2_dir_may_link(dir))
		return -EMLINK;
	mode = EXT2_S_IFDIR | (mode & 07777);
	err = ext2_make(dir, name, len, mode, 2, &ei);
	if (err)
		return err;
	err = ext2_dir_init(ei, dir->ei_ino);
	if (err)
		goto unmake;
	err = ext2_dir_add(dir, name, len, ei->ei_ino, mode);
	if (err)
		goto unmake;
	ext2_set_nlink(dir, ext2_dir_inc_links(dir));
	ext2_iput(ei);
	return 0;
unmake:
	ext2_unmake(ei);
	return err;
}

int ext2_symlink(struct vnode *dv, const char *name, size_t len, const char *target)
{
	struct ext2_inode_info *dir = EXT2_I(dv), *ei;
	size_t tlen = strlen(target);
	struct buffer_head *bh;
	u32 pblk;
	int err;

	if (tlen == 0)
		return -ENOENT;
	if (tlen >= dir->ei_fs->fs_bsize)
		return -ENAMETOOLONG;
	err = ext2_make(dir, name, len, EXT2_S_IFLNK | 0777, 1, &ei);
	if (err)
		return err;
	if (tlen < EXT2_FAST_SYMLINK_MAX) {
		memcpy(ei->ei_raw.i_block, target, tlen);
	} else {
		ext4_ext_new(ei);
		err = ext2_bmap(ei, 0, true, &pblk);
		if (err)
			goto unmake;
		bh = ext2_bread(ei->ei_fs, pblk);
		if (IS_ERR(bh)) {
			err = PTR_ERR(bh);
			goto unmake;
		}
		memcpy(bh->b_data, target, tlen);
		ext2_dirty_meta(dir->ei_fs, bh);
		brelse(bh);
	}
	ext2_set_isize(ei, tlen);
	err = ext2_dir_add(dir, name, len, ei->ei_ino, EXT2_S_IFLNK);
	if (err)
		goto unmake;
	ext2_iput(ei);
	return 0;
unmake:
	ext2_unmake(ei);
	return err;
}

int ext2_link(struct vnode *v, struct vnode *dv, const char *name, size_t len)
{
	struct ext2_inode_info *ei = EXT2_I(v), *dir = EXT2_I(dv);
	int err;

	if (ext2_isdir(ei))
		return -EPERM;
	if (ext2_nlink(ei) >= ext2_link_max(ei->ei_fs))
		return -EMLINK;
	if (ext2_nlink(ei) == 0)
		return -ENOENT;
	err = ext2_may_add(dir, name, len);
	if (err)
		return err;
	err = ext2_dir_add(dir, name, len, ei->ei_ino, ext2_mode(ei));
	if (err)
		return err;
	ext2_set_nlink(ei, ext2_nlink(ei) + 1);
	return 0;
}

/* The inode @name in @dir names, referenced. */
static int ext2_child(struct ext2_inode_info *dir, const char *name, size_t len,
		      struct ext2_inode_info **out)
{
	u32 ino;
	int err;

	if (dir->ei_fs->fs_rdonly)
		return -EROFS;
	if (!ext2_isdir(dir))
		return -ENOTDIR;
	err = ext2_dir_find(dir, name, len, &ino);
	if (err)
		return err;
	return ext2_iget(dir->ei_fs, ino, out);
}

/* Drop one link of @ei (a directory loses both its links). */
static void ext2_drop_link(struct ext2_inode_info *ei)
{
	u32 n = ext2_nlink(ei);

	if (ext2_isdir(ei) || n == 0)
		n = 0;
	else
		n--;
	ext2_set_nlink(ei, n);
}

int ext2_unlink(struct vnode *dv, const char *name, size_t len)
{
	struct ext2_inode_info *dir = EXT2_I(dv), *ei;
	int err;

	err = ext2_child(dir, name, len, &ei);
	if (err)
		return err;
	if (ext2_isdir(ei)) {
		err = -EISDIR;
		goto put;
	}
	err = ext2_dir_remove(dir, name, len);
	if (!err)
		ext2_drop_link(ei);
put:
	ext2_iput(ei);
	return err;
}

int ext2_rmdir(struct vnode *dv, const char *name, size_t len)
{
	struct ext2_inode_info *dir = EXT2_I(dv), *ei;
	int err;

	err = ext2_child(dir, name, len, &ei);
	if (err)
		return err;
	if (!ext2_isdir(ei)) {
		err = -ENOTDIR;
		goto put;
	}
	if (ei == dir || ei->ei_ino == EXT2_ROOT_INO) {
		err = -EBUSY;
		goto put;
	}
	err = ext2_dir_empty(ei);
	if (err)
		goto put;
	err = ext2_dir_remove(dir, name, len);
	if (err)
		goto put;
	ext2_drop_link(ei);
	ext2_set_nlink(dir, ext2_dir_dec_links(dir));
put:
	ext2_iput(ei);
	return err;
}

/*
 * Is directory @anc an ancestor of (or the same as) directory @d?  Walks
 * ".." up to the root; a walk longer than EXT2_ANCESTOR_WALK_MAX is a loop
 * on disk.  1, 0 or -errno.
 */
static int ext2_is_ancestor(struct ext2_fs *fs, u32 anc, u32 d)
{
	struct ext2_inode_info *ei;
	u32 steps, up;
	int err;

	for (steps = 0; steps < EXT2_ANCESTOR_WALK_MAX; steps++) {
		if (d == anc)
			return 1;
		if (d == EXT2_ROOT_INO)
			return 0;
		err = ext2_iget(fs, d, &ei);
		if (err)
			return err;
		if (ext2_isdir(ei)) {
			err = ext2_dir_parent(ei, &up);
		} else {
			ext2_error(fs, "rename", "\"..\" leads to inode %u, not a directory", d);
			err = -EUCLEAN;
		}
		ext2_iput(ei);
		if (err)
			return err;
		d = up;
	}
	ext2_error(fs, "rename", "directory loop above inode %u", d);
	return -EUCLEAN;
}

int ext2_rename(struct vnode *odv, const char *oname, size_t olen,
		       struct vnode *ndv, const char *nname, size_t nlen)
{
	struct ext2_inode_info *odir = EXT2_I(odv), *ndir = EXT2_I(ndv), *src, *dst = NULL;
	struct ext2_fs *fs = odir->ei_fs;
	bool isdir;
	u32 dino, up;
	int err;

	err = ext2_child(odir, oname, olen, &src);
	if (err)
		return err;
	isdir = ext2_isdir(src);
	if (!ext2_isdir(ndir) || ext2_nlink(ndir) == 0) {
		err = ext2_isdir(ndir) ? -ENOENT : -ENOTDIR;
		goto put_src;
	}
	err = ext2_dir_find(ndir, nname, nlen, &dino);
	if (err && err != -ENOENT)
		goto put_src;
	if (!err) {
		if (dino == src->ei_ino)
			goto put_src;		/* same file: nothing to do (POSIX) */
		err = ext2_iget(fs, dino, &dst);
		if (err)
			goto put_src;
	}
	/* Ancestry first, as Linux checks it before the types (lock_rename). */
	if (odir != ndir) {
		if (isdir) {
			/* its ".." is rewritten last: it must be there before anything changes */
			err = ext2_dir_parent(src, &up);
			if (!err)
				err = ext2_is_ancestor(fs, src->ei_ino, ndir->ei_ino);
			if (err > 0)
				err = -EINVAL;	/* into its own subtree */
			if (err)
				goto put_dst;
		}
		if (dst && ext2_isdir(dst)) {
			err = ext2_is_ancestor(fs, dst->ei_ino, odir->ei_ino);
			if (err > 0)
				err = -ENOTEMPTY;	/* over a directory above the source */
			if (err)
				goto put_dst;
		}
	}
	if (dst) {
		if (isdir && !ext2_isdir(dst)) {
			err = -ENOTDIR;
			goto put_dst;
		}
		if (!isdir && ext2_isdir(dst)) {
			err = -EISDIR;
			goto put_dst;
		}
		if (isdir) {
			err = ext2_dir_empty(dst);
			if (err)
				goto put_dst;
		}
	} else if (isdir && odir != ndir && ext2_dir_may_link(ndir)) {
		err = -EMLINK;
		goto put_dst;
	}

	/* The new name first, so the file always has one. */
	if (dst) {
		err = ext2_dir_set(ndir, nname, nlen, src->ei_ino, ext2_mode(src));
		if (err)
			goto put_dst;
		ext2_drop_link(dst);
		if (isdir)
			ext2_set_nlink(ndir, ext2_dir_dec_links(ndir));
	} else {
		err = ext2_dir_add(ndir, nname, nlen, src->ei_ino, ext2_mode(src));
		if (err)
			goto put_dst;
	}
	err = ext2_dir_remove(odir, oname, olen);
	if (err)
		goto put_dst;
	if (isdir && odir != ndir) {
		err = ext2_dir_set(src, "..", 2, ndir->ei_ino, EXT2_S_IFDIR);
		ext2_set_nlink(odir, ext2_dir_dec_links(odir));
		ext2_set_nlink(ndir, ext2_dir_inc_links(ndir));
	}
	ext2_touch(src, false, true);
put_dst:
	ext2_iput(dst);
put_src:
	ext2_iput(src);
	return err;
}
