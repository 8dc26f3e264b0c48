/*
 * ext2 file data: read, write and truncate of regular files, and reading
 * symlink targets.
 *
 * Data moves in runs, in the way of Linux 2.6's mpage_readpages and
 * mpage_writepages: the whole blocks of a request are mapped a run at a
 * time (ext2_map_blocks: one tree walk for a stretch of blocks contiguous
 * on disk, allocating contiguously for writes), runs that follow each
 * other on disk across pointer blocks are joined, and each goes as large
 * bios straight between the caller's buffer and the disk
 * (direct_rw_blocks, which stays coherent with the buffer cache: a block
 * the cache holds, dirty or not, is read from and written into its
 * buffer).  The partial blocks at the ends of a request go through the
 * cache.  Indirect blocks and all other metadata only ever go through the
 * cache.  Direct writes are on the device when the call returns; sync
 * then writes the metadata and flushes, so sync's promise is unchanged.
 *
 * Holes read as zeroes, a write allocates the blocks it touches (and the
 * indirect blocks on the way) and zero-fills what it does not cover, and
 * a file that grows past the old end first has the stale tail of its old
 * last block zeroed, so that bytes past EOF are never exposed.  Truncate
 * frees whole blocks past the new end and zeroes the rest of the new last
 * block.  A full disk or a failed direct write ends a write short; the
 * count says how far it got, and the blocks of the failed part are freed
 * (past the old end) or zeroed (in a hole).
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

/*
 * A direct write into the new blocks of @map failed, so they hold what
 * the disk held before.  Those inside i_size (a hole being filled) are
 * zeroed through the cache; those past it are freed, as Linux's
 * ext2_write_failed truncates, so that the file stays as the write found
 * it.
 */
static void ext2_write_failed(struct ext2_inode_info *ei, const struct ext2_map *map)
{
	struct ext2_fs *fs = ei->ei_fs;
	u64 eof = (ext2_isize(ei) + fs->fs_bsize - 1) >> fs->fs_bshift;
	struct buffer_head *bh;
	u32 i;

	for (i = 0; i < map->m_len && map->m_lblk + i < eof; i++) {
		bh = ext2_getblk_zero(fs, map->m_pblk + i);
		if (!IS_ERR(bh))
			brelse(bh);
	}
	if (map->m_lblk + map->m_len > eof)
		ext2_truncate_blocks(ei, ext2_isize(ei));	/* errors already reported */
}

/*
 * The whole blocks at @pos (block-aligned), @len bytes of them: the runs
 * of ext2_map_blocks() that follow each other on disk (and are all new or
 * all old), moved by one direct_rw_blocks() or, for a hole being read,
 * zero-filled.  A mapping that does not continue the run is left in
 * *@ahead for the next call, so that blocks it allocated are written (or
 * undone) as new ones, never taken for old.  Returns the bytes done
 * (whole blocks, at least one) or -errno.
 */
static long ext2_rw_run(struct ext2_inode_info *ei, u64 pos, u8 *buf, size_t len, bool write,
			struct ext2_map *ahead)
{
	struct ext2_fs *fs = ei->ei_fs;
	u32 want = (u32)(len >> fs->fs_bshift);
	unsigned flags = write ? EXT2_MAP_CREATE : 0;
	struct ext2_map map = { .m_lblk = pos >> fs->fs_bshift, .m_len = want }, next;
	int err;

	if (ahead->m_len && ahead->m_lblk == map.m_lblk) {
		map = *ahead;
		map.m_len = min(map.m_len, want);	/* a mapping is good for any prefix */
	} else {
		err = ext2_map_blocks(ei, &map, flags);
		if (err)
			return err;
	}
	ahead->m_len = 0;
	if (!map.m_pblk) {
		memset(buf, 0, (size_t)map.m_len << fs->fs_bshift);
		return (long)map.m_len << fs->fs_bshift;
	}
	while (map.m_len < want) {
		next.m_lblk = map.m_lblk + map.m_len;
		next.m_len = want - map.m_len;
		if (ext2_map_blocks(ei, &next, flags))
			break;			/* the next call meets the error again */
		if (next.m_pblk != map.m_pblk + map.m_len || next.m_new != map.m_new) {
			*ahead = next;
			break;
		}
		map.m_len += next.m_len;
	}
	err = direct_rw_blocks(fs->fs_bdev, map.m_pblk, map.m_len, fs->fs_bsize, buf, write);
	if (err && map.m_new)
		ext2_write_failed(ei, &map);
	return err ? err : (long)map.m_len << fs->fs_bshift;
}

/*
 * Bytes [off, off + n) of the block holding @pos, through the buffer
 * cache: the ends of a request that do not cover a whole block.  0 or
 * -errno.
 */
static int ext2_rw_partial(struct ext2_inode_info *ei, u64 pos, u32 off, u8 *buf, u32 n,
			   bool write)
{
	struct ext2_fs *fs = ei->ei_fs;
	struct buffer_head *bh;
	u32 pblk;
	int err;

	err = ext2_bmap(ei, pos >> fs->fs_bshift, write, &pblk);
	if (err)
		return err;
	if (!pblk) {			/* a hole, being read */
		memset(buf, 0, n);
		return 0;
	}
	bh = ext2_bread(fs, pblk);
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	if (write) {
		memcpy(bh->b_data + off, buf, n);
		mark_buffer_dirty(bh);
	} else {
		memcpy(buf, bh->b_data + off, n);
	}
	brelse(bh);
	return 0;
}

/*
 * Move @len bytes at @pos between @buf and the file: whole blocks in runs,
 * the partial blocks at either end one by one.  A write grows i_size as it
 * goes.  Returns the bytes done, or -errno if none were.
 */
static long ext2_rw(struct ext2_inode_info *ei, u64 pos, u8 *buf, size_t len, bool write)
{
	struct ext2_fs *fs = ei->ei_fs;
	struct ext2_map ahead = { .m_len = 0 };
	size_t done = 0;
	long n;
	u32 off;
	int err;

	while (done < len) {
		off = (u32)(pos & (fs->fs_bsize - 1));
		if (off == 0 && len - done >= fs->fs_bsize) {
			n = ext2_rw_run(ei, pos, buf + done, (len - done) & ~(size_t)(fs->fs_bsize - 1),
					write, &ahead);
		} else {
			n = (long)min((size_t)(fs->fs_bsize - off), len - done);
			err = ext2_rw_partial(ei, pos, off, buf + done, (u32)n, write);
			if (err)
				n = err;
		}
		if (n < 0) {
			if (ahead.m_len && ahead.m_new)
				ext2_write_failed(ei, &ahead);	/* allocated, never written */
			return done ? (long)done : n;
		}
		done += (size_t)n;
		pos += (u64)n;
		if (write && pos > ext2_isize(ei))
			ext2_set_isize(ei, pos);
	}
	return (long)done;
}

/* vop_read */
long ext2_read(struct vnode *v, u64 pos, void *buf, size_t len)
{
	struct ext2_inode_info *ei = EXT2_I(v);
	u64 size = ext2_isize(ei);

	if (ext2_isdir(ei))
		return -EISDIR;
	if (!ext2_isreg(ei))
		return -EINVAL;
	if (pos >= size)
		return 0;
	len = (size_t)min((u64)len, size - pos);
	len = min(len, (size_t)0x7fffffff);
	if (ext2_inline(ei))
		return ext2_inline_read(ei, pos, buf, len);
	return ext2_rw(ei, pos, buf, len, false);
}

/* vop_write */
long ext2_write(struct vnode *v, u64 pos, const void *buf, size_t len)
{
	struct ext2_inode_info *ei = EXT2_I(v);
	struct ext2_fs *fs = ei->ei_fs;
	long done;
	int err;

	if (fs->fs_rdonly)
		return -EROFS;
	if (ext2_isdir(ei))
		return -EISDIR;
	if (!ext2_isreg(ei))
		return -EINVAL;
	if (pos >= ext2_inode_max_size(ei))
		return len ? -EFBIG : 0;
	len = (size_t)min((u64)len, ext2_inode_max_size(ei) - pos);
	len = min(len, (size_t)0x7fffffff);
	if (pos > ext2_isize(ei)) {
		err = ext2_zero_tail(ei, ext2_isize(ei));
		if (err)
			return err;
	}
	done = ext2_rw(ei, pos, (u8 *)buf, len, true);
	if (done > 0)
		ext2_touch(ei, true, true);
	return done;
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
	if (size > ext2_inode_max_size(ei))
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
