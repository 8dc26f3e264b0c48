/*
 * ext2's vnode ops table, with every operation that changes the
 * filesystem run inside a journal handle (journal.c, fs/jbd2/jbd2.h).
 *
 * A handle spans one operation: the journal never commits in the middle
 * of it, so each committed transaction holds whole operations.  The
 * outermost start may commit first (the commit interval, a full
 * transaction), except for release: it finishes the operation that
 * dropped the last link (unlink, rmdir, rename over a file) and must
 * commit with it, or a crash between the two would leave an inode
 * without a name for e2fsck to find.  Without a journal the wrappers
 * call straight through.
 */
#include "fs/ext2/ext2.h"

static struct ext2_fs *vfs_fs(struct vnode *v)
{
	return EXT2_I(v)->ei_fs;
}

static int j_create(struct vnode *dv, const char *name, size_t len, u32 mode, struct vnode **out)
{
	struct ext2_fs *fs = vfs_fs(dv);
	int err = ext2_journal_begin(fs, true);

	if (err)
		return err;
	err = ext2_create(dv, name, len, mode, out);
	return ext2_journal_end(fs, err);
}

static int j_mkdir(struct vnode *dv, const char *name, size_t len, u32 mode)
{
	struct ext2_fs *fs = vfs_fs(dv);
	int err = ext2_journal_begin(fs, true);

	if (err)
		return err;
	return ext2_journal_end(fs, ext2_mkdir(dv, name, len, mode));
}

static int j_symlink(struct vnode *dv, const char *name, size_t len, const char *target)
{
	struct ext2_fs *fs = vfs_fs(dv);
	int err = ext2_journal_begin(fs, true);

	if (err)
		return err;
	return ext2_journal_end(fs, ext2_symlink(dv, name, len, target));
}

static int j_link(struct vnode *v, struct vnode *dv, const char *name, size_t len)
{
	struct ext2_fs *fs = vfs_fs(dv);
	int err = ext2_journal_begin(fs, true);

	if (err)
		return err;
	return ext2_journal_end(fs, ext2_link(v, dv, name, len));
}

static int j_unlink(struct vnode *dv, const char *name, size_t len)
{
	struct ext2_fs *fs = vfs_fs(dv);
	int err = ext2_journal_begin(fs, true);

	if (err)
		return err;
	return ext2_journal_end(fs, ext2_unlink(dv, name, len));
}

static int j_rmdir(struct vnode *dv, const char *name, size_t len)
{
	struct ext2_fs *fs = vfs_fs(dv);
	int err = ext2_journal_begin(fs, true);

	if (err)
		return err;
	return ext2_journal_end(fs, ext2_rmdir(dv, name, len));
}

static int j_rename(struct vnode *odv, const char *oname, size_t olen,
		    struct vnode *ndv, const char *nname, size_t nlen)
{
	struct ext2_fs *fs = vfs_fs(odv);
	int err = ext2_journal_begin(fs, true);

	if (err)
		return err;
	return ext2_journal_end(fs, ext2_rename(odv, oname, olen, ndv, nname, nlen));
}

static long j_write(struct vnode *v, u64 pos, const void *buf, size_t len)
{
	struct ext2_fs *fs = vfs_fs(v);
	int err = ext2_journal_begin(fs, true);
	long n;

	if (err)
		return err;
	n = ext2_write(v, pos, buf, len);
	err = ext2_journal_end(fs, 0);
	return n < 0 || !err ? n : err;
}

static int j_truncate(struct vnode *v, u64 size)
{
	struct ext2_fs *fs = vfs_fs(v);
	int err = ext2_journal_begin(fs, true);

	if (err)
		return err;
	return ext2_journal_end(fs, ext2_truncate(v, size));
}

static int j_set_atime(struct vnode *v, s64 atime)
{
	struct ext2_fs *fs = vfs_fs(v);
	int err = ext2_journal_begin(fs, true);

	if (err)
		return err;
	return ext2_journal_end(fs, ext2_set_atime(v, atime));
}

static int j_release(struct vnode *v)
{
	struct ext2_fs *fs = vfs_fs(v);
	int berr = ext2_journal_begin(fs, false);
	int err;

	/* release runs even on an aborted journal: it frees the in-core inode */
	err = ext2_inode_release(v);
	if (!berr)
		err = ext2_journal_end(fs, err);
	return err ? err : berr;
}

const struct vnode_ops ext2_vnode_ops = {
	.vop_lookup	= ext2_lookup,
	.vop_getattr	= ext2_getattr,
	.vop_read	= ext2_read,
	.vop_write	= j_write,
	.vop_truncate	= j_truncate,
	.vop_readdir	= ext2_readdir,
	.vop_readlink	= ext2_readlink,
	.vop_create	= j_create,
	.vop_mkdir	= j_mkdir,
	.vop_symlink	= j_symlink,
	.vop_link	= j_link,
	.vop_unlink	= j_unlink,
	.vop_rmdir	= j_rmdir,
	.vop_rename	= j_rename,
	.vop_set_atime	= j_set_atime,
	.vop_release	= j_release,
};
