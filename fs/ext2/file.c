/*
 * ext2 file data: read, write and truncate of regular files, and reading
 * symlink targets.
 *
 * Data moves one filesystem block at a time through the buffer cache:
 * holes read as zeroes, a write allocates the blocks it touches (and the
 * indirect blocks on the way) and zero-fills what it does not cover, and
 * a file that grows past the old end first has the stale tail of its old
 * last block zeroed, so that bytes past EOF are never exposed.  Truncate
 * frees whole blocks past the new end and zeroes the rest of the new last
 * block.  A full disk ends a write short; the count says how far it got.
 */
#include "fs/ext2/ext2.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/string.h"

/* Zero bytes [size, end of its block) if that block is mapped. */
static int ext2_zero_tail(struct ext2_inode_info *ei, u64 size)
{
	struct ext2_fs *fs = ei->ei_fs;
	u32 off = (u32)(size & (fs->fs_bsize - 1)), pblk;
	struct buffer_head *bh;
	int err;

	if (!off)
		return 0;
	err = ext2_bmap(ei, size >> fs->fs_bshift, false, &pblk);
	if (err || !pblk)
		return err;
	bh = ext2_bread(fs, pblk);
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	memset(bh->b_data + off, 0, fs->fs_bsize - off);
	mark_buffer_dirty(bh);
	brelse(bh);
	return 0;
}

/* vop_read */
long ext2_read(struct vnode *v, u64 pos, void *buf, size_t len)
{
	struct ext2_inode_info *ei = EXT2_I(v);
	struct ext2_fs *fs = ei->ei_fs;
	u64 size = ext2_isize(ei);
	struct buffer_head *bh;
	size_t done = 0;
	u32 pblk, off, n;
	int err;

	if (ext2_isdir(ei))
		return -EISDIR;
	if (!ext2_isreg(ei))
		return -EINVAL;
	if (pos >= size)
		return 0;
	len = (size_t)min((u64)len, size - pos);
	len = min(len, (size_t)0x7fffffff);
	while (done < len) {
		off = (u32)(pos & (fs->fs_bsize - 1));
		n = (u32)min((size_t)(fs->fs_bsize - off), len - done);
		err = ext2_bmap(ei, pos >> fs->fs_bshift, false, &pblk);
		if (err)
			goto fail;
		if (!pblk) {
			memset((u8 *)buf + done, 0, n);
		} else {
			bh = ext2_bread(fs, pblk);
			if (IS_ERR(bh)) {
				err = PTR_ERR(bh);
				goto fail;
			}
			memcpy((u8 *)buf + done, bh->b_data + off, n);
			brelse(bh);
		}
		done += n;
		pos += n;
	}
	return (long)done;
fail:
	return done ? (long)done : err;
}

/* vop_write */
long ext2_write(struct vnode *v, u64 pos, const void *buf, size_t len)
{
	struct ext2_inode_info *ei = EXT2_I(v);
	struct ext2_fs *fs = ei->ei_fs;
	u64 size = ext2_isize(ei);
	struct buffer_head *bh;
	size_t done = 0;
	u32 pblk, off, n;
	int err = 0;

	if (fs->fs_rdonly)
		return -EROFS;
	if (ext2_isdir(ei))
		return -EISDIR;
	if (!ext2_isreg(ei))
		return -EINVAL;
	if (pos >= fs->fs_max_size)
		return len ? -EFBIG : 0;
	len = (size_t)min((u64)len, fs->fs_max_size - pos);
	len = min(len, (size_t)0x7fffffff);
	if (pos > size) {
		err = ext2_zero_tail(ei, size);
		if (err)
			return err;
	}
	while (done < len) {
		off = (u32)(pos & (fs->fs_bsize - 1));
		n = (u32)min((size_t)(fs->fs_bsize - off), len - done);
		err = ext2_bmap(ei, pos >> fs->fs_bshift, true, &pblk);
		if (err)
			break;
		bh = n == fs->fs_bsize ? getblk(fs->fs_bdev, pblk, fs->fs_bsize)
				       : ext2_bread(fs, pblk);
		if (IS_ERR(bh)) {
			err = PTR_ERR(bh);
			break;
		}
		memcpy(bh->b_data + off, (const u8 *)buf + done, n);
		set_buffer_uptodate(bh);
		mark_buffer_dirty(bh);
		brelse(bh);
		done += n;
		pos += n;
		if (pos > ext2_isize(ei))
			ext2_set_isize(ei, pos);
	}
	if (done)
		ext2_touch(ei, true, true);
	return done ? (long)done : err;
}

/* vop_truncate */
int ext2_truncate(struct vnode *v, u64 size)
{
	struct ext2_inode_info *ei = EXT2_I(v);
	struct ext2_fs *fs = ei->ei_fs;
	u64 old = ext2_isize(ei);
	int err;

	if (fs->fs_rdonly)
		return -EROFS;
	if (ext2_isdir(ei))
		return -EISDIR;
	if (!ext2_isreg(ei))
		return -EINVAL;
	if (size > fs->fs_max_size)
		return -EFBIG;
	if (size < old) {
		err = ext2_zero_tail(ei, size);
		if (!err)
			err = ext2_truncate_blocks(ei, size);
	} else {
		err = ext2_zero_tail(ei, old);
	}
	ext2_set_isize(ei, size);
	ext2_touch(ei, true, true);
	return err;
}

/* vop_readlink */
int ext2_readlink(struct vnode *v, char *buf, size_t size)
{
	struct ext2_inode_info *ei = EXT2_I(v);
	u32 len = (u32)ext2_isize(ei), pblk;
	struct buffer_head *bh;
	int err;

	if (!ext2_islnk(ei))
		return -EINVAL;
	if (ext2_fast_symlink(ei)) {
		memcpy(buf, ei->ei_raw.i_block, min((size_t)len, size));
		return (int)len;
	}
	err = ext2_bmap(ei, 0, false, &pblk);
	if (err)
		return err;
	if (!pblk) {
		ext2_error(ei->ei_fs, "readlink", "symlink inode %u has no block", ei->ei_ino);
		return -EUCLEAN;
	}
	bh = ext2_bread(ei->ei_fs, pblk);
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	memcpy(buf, bh->b_data, min((size_t)len, size));
	brelse(bh);
	return (int)len;
}
