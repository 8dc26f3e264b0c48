/*
 * ext2 block map: from a file's logical blocks to disk blocks through
 * the twelve direct pointers and the single, double and triple indirect
 * blocks in i_block[] (doc section "i_block"), allocating on the way for
 * writes, and freeing from a point on for truncate.  Mapping works in
 * runs: one walk of the tree returns as many blocks as are contiguous on
 * disk (or a hole's length), and allocation hands out contiguous runs
 * after the file's last block, with the indirect blocks kept apart near
 * the group's end, so bulk file I/O needs few walks and large bios.
 *
 * A pointer of 0 is a hole: reads see zeroes and nothing is allocated.
 * Every pointer read from disk is checked to lie inside the filesystem
 * and outside its metadata (meta.c) before it is followed, so that no
 * file write lands on a bitmap or an inode table; a bad one fails the
 * access with -EUCLEAN and is reported.  The tree has a fixed depth of at
 * most three indirect levels, so the recursion in the truncate walk is
 * bounded by the format, not by the disk.
 */
#include "fs/ext2/ext2.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/string.h"

#define EXT2_MAX_DEPTH	4	/* i_block slot plus three indirect levels */

/*
 * The offsets at each level for logical block @lblk; returns how many
 * levels (1 for a direct block) or -EFBIG past triple indirection.
 */
static int ext2_block_path(const struct ext2_fs *fs, u64 lblk, u32 off[EXT2_MAX_DEPTH])
{
	u64 apb = fs->fs_apb, mask = apb - 1;
	u32 sh = fs->fs_apb_shift;

	if (lblk < EXT2_NDIR_BLOCKS) {
		off[0] = (u32)lblk;
		return 1;
	}
	lblk -= EXT2_NDIR_BLOCKS;
	if (lblk < apb) {
		off[0] = EXT2_IND_BLOCK;
		off[1] = (u32)lblk;
		return 2;
	}
	lblk -= apb;
	if (lblk < apb * apb) {
		off[0] = EXT2_DIND_BLOCK;
		off[1] = (u32)(lblk >> sh);
		off[2] = (u32)(lblk & mask);
		return 3;
	}
	lblk -= apb * apb;
	if (lblk < apb * apb * apb) {
		off[0] = EXT2_TIND_BLOCK;
		off[1] = (u32)(lblk >> (2 * sh));
		off[2] = (u32)((lblk >> sh) & mask);
		off[3] = (u32)(lblk & mask);
		return 4;
	}
	return -EFBIG;
}

/* The group the next data block of @ei goes to: its last block's, or its inode's. */
static u32 ext2_data_group(struct ext2_inode_info *ei)
{
	struct ext2_fs *fs = ei->ei_fs;

	if (ei->ei_last_block && ext2_valid_block(ei->ei_fs, ei->ei_last_block + 1))
		return ext2_block_group(fs, ei->ei_last_block + 1);
	return ext2_ino_group(fs, ei->ei_ino);
}

/*
 * Allocate up to @max contiguous blocks for @ei, zeroed through the buffer
 * cache if @zero.  Data (@meta false) goes right after the file's last
 * block.  An indirect block (@meta) goes near the end of the group the
 * data is filling, as Linux's ext2 does not: there the indirect blocks of
 * a growing file lie next to each other and out of the way of its data,
 * so the data stays one run on disk across pointer blocks (large bios),
 * sync writes the indirect blocks as one run, and a cold sequential read
 * finds them in order, which the cache reads ahead.  The data of a group
 * needs about blocks_per_group / addresses_per_block of them: twice that
 * is kept clear.  Returns how many (the first in *first) or -errno.
 */
static int ext2_alloc_run(struct ext2_inode_info *ei, u32 max, bool zero, bool meta,
			  u32 *first)
{
	struct ext2_fs *fs = ei->ei_fs;
	struct buffer_head *bh;
	u32 goal, g;
	int n, i;

	if (meta) {
		g = ext2_data_group(ei);
		goal = fs->fs_first_data_block + g * fs->fs_blocks_per_group +
		       ext2_group_nblocks(fs, g) -
		       min(ext2_group_nblocks(fs, g), 2 * fs->fs_blocks_per_group / fs->fs_apb);
	} else if (ei->ei_last_block) {
		goal = ei->ei_last_block + 1;
	} else {
		goal = fs->fs_first_data_block + ext2_ino_group(fs, ei->ei_ino) * fs->fs_blocks_per_group;
	}
	n = ext2_new_blocks(fs, goal, max, first);
	if (n < 0)
		return n;
	for (i = 0; zero && i < n; i++) {
		bh = ext2_getblk_zero(fs, *first + (u32)i);
		if (IS_ERR(bh)) {
			for (i = 0; i < n; i++)
				ext2_free_block(fs, *first + (u32)i);
			return PTR_ERR(bh);
		}
		brelse(bh);
	}
	if (!meta)
		ei->ei_last_block = *first + (u32)n - 1;
	ext2_add_blocks(ei, n);
	return n;
}

static int ext2_bad_pointer(struct ext2_inode_info *ei, u32 blk, u64 lblk)
{
	ext2_error(ei->ei_fs, "bmap",
		   "inode %u: block %u (for block %llu) out of range or metadata",
		   ei->ei_ino, blk, (unsigned long long)lblk);
	return -EUCLEAN;
}

/**
 * ext2_map_blocks - map a run of @ei's logical blocks to disk blocks
 * @map:   m_lblk and m_len (the most blocks wanted, at least 1) in;
 *         m_len, m_pblk and m_new out (see struct ext2_map)
 * @flags: EXT2_MAP_CREATE allocates the blocks of a hole, and the
 *         indirect blocks on the way (always zeroed); EXT2_MAP_ZERO also
 *         zeroes new data blocks.  Without it the caller must write every
 *         new block before anything can read it.
 *
 * A run never leaves the pointer block (the direct slots of i_block, or
 * one indirect block) that maps m_lblk, so one walk of the tree serves
 * all of it: it is the blocks whose pointers read m_pblk, m_pblk + 1, ...;
 * or, without CREATE, the hole up to the next pointer (m_pblk 0); or,
 * with CREATE, the hole's blocks as far as they could be allocated
 * contiguously.
 *
 * Returns 0, -EFBIG, -ENOSPC, -EUCLEAN (a bad pointer, reported), -EIO.
 */
int ext2_map_blocks(struct ext2_inode_info *ei, struct ext2_map *map, unsigned flags)
{
	struct ext2_fs *fs = ei->ei_fs;
	bool create = flags & EXT2_MAP_CREATE;
	u32 off[EXT2_MAX_DEPTH], blk, max, n, i;
	struct buffer_head *bh = NULL, *nbh;
	int depth, level, got, err = 0;
	le32 *slot;

	if (ext4_uses_extents(ei))
		return ext4_ext_map(ei, map, flags);
	depth = ext2_block_path(fs, map->m_lblk, off);
	if (depth < 0)
		return depth;
	max = min(map->m_len, (depth == 1 ? EXT2_NDIR_BLOCKS : fs->fs_apb) - off[depth - 1]);
	map->m_new = false;
	slot = &ei->ei_raw.i_block[off[0]];
	for (level = 1; level < depth; level++) {	/* down to the pointer block of m_lblk */
		blk = le32_to_cpu(*slot);
		if (!blk && !create) {
			n = max;		/* no pointer block: a hole as far as it would reach */
			goto done;
		}
		if (!blk) {
			got = ext2_alloc_run(ei, 1, true, true, &blk);
			if (got < 0) {
				err = got;
				goto out;
			}
			*slot = cpu_to_le32(blk);
			if (bh)
				ext2_dirty_meta(fs, bh);
			else
				ext2_mark_dirty(ei);
		} else if (!ext2_data_run(fs, blk, 1)) {
			err = ext2_bad_pointer(ei, blk, map->m_lblk);
			goto out;
		}
		nbh = ext2_bread(fs, blk);
		brelse(bh);
		bh = NULL;
		if (IS_ERR(nbh)) {
			err = PTR_ERR(nbh);
			goto out;
		}
		bh = nbh;
		slot = (le32 *)bh->b_data + off[level];
	}

	blk = le32_to_cpu(slot[0]);
	if (blk) {
		max = ext2_data_run(fs, blk, max);	/* a run stops short of metadata */
		if (!max) {
			err = ext2_bad_pointer(ei, blk, map->m_lblk);
			goto out;
		}
		for (n = 1; n < max && le32_to_cpu(slot[n]) == blk + n; n++)
			;
	} else {
		for (n = 1; n < max && !slot[n]; n++)
			;
	}
	if (!blk && create) {
		got = ext2_alloc_run(ei, n, flags & EXT2_MAP_ZERO, false, &blk);
		if (got < 0) {
			err = got;
			goto out;
		}
		n = (u32)got;
		for (i = 0; i < n; i++)
			slot[i] = cpu_to_le32(blk + i);
		if (bh)
			ext2_dirty_meta(fs, bh);
		else
			ext2_mark_dirty(ei);
		map->m_new = true;
	}
	if (create)
		ei->ei_last_block = blk + n - 1;
done:
	map->m_pblk = blk;
	map->m_len = n;
out:
	brelse(bh);
	return err;
}

/**
 * ext2_bmap - map logical block @lblk of @ei to a disk block
 * @create: allocate missing blocks (indirect ones too); new blocks are zeroed
 *
 * Returns 0 with *pblk the block, or 0 for a hole when !@create; -EFBIG,
 * -ENOSPC, -EUCLEAN (a bad pointer, reported), -EIO.
 */
int ext2_bmap(struct ext2_inode_info *ei, u64 lblk, bool create, u32 *pblk)
{
	struct ext2_map map = { .m_lblk = lblk, .m_len = 1 };
	int err = ext2_map_blocks(ei, &map, create ? EXT2_MAP_CREATE | EXT2_MAP_ZERO : 0);

	*pblk = map.m_pblk;
	return err;
}

/*
 * Free the subtree under pointer *p of @level indirect levels (0: *p is a
 * data block) from its logical block @from on; if @from is 0 the pointer's
 * own block goes too and *p becomes 0.  Returns 0 or the first error;
 * blocks that fail their checks are dropped from the tree and reported.
 */
static int ext2_free_tree(struct ext2_inode_info *ei, le32 *p, int level, u64 from)
{
	struct ext2_fs *fs = ei->ei_fs;
	u32 blk = le32_to_cpu(*p), i;
	struct buffer_head *bh;
	u64 span;
	int err = 0, e;

	if (!blk)
		return 0;
	if (!ext2_data_run(fs, blk, 1)) {
		ext2_error(fs, "truncate", "inode %u: block %u out of range or metadata",
			   ei->ei_ino, blk);
		*p = 0;
		return -EUCLEAN;
	}
	if (level > 0) {
		span = (u64)1 << (fs->fs_apb_shift * (u32)(level - 1));
		bh = ext2_bread(fs, blk);
		if (IS_ERR(bh))
			return PTR_ERR(bh);
		for (i = (u32)(from / span); i < fs->fs_apb; i++) {
			le32 *q = (le32 *)bh->b_data + i;
			u64 sub = i == from / span ? from % span : 0;

			if (!*q)
				continue;
			e = ext2_free_tree(ei, q, level - 1, sub);
			if (e && !err)
				err = e;
			ext2_dirty_meta(fs, bh);
		}
		brelse(bh);
	}
	if (from == 0) {
		e = ext2_free_block(fs, blk);
		if (!e)
			ext2_add_blocks(ei, -1);
		else if (!err)
			err = e;
		*p = 0;
	}
	return err;
}

/**
 * ext2_truncate_blocks - free every block of @ei past the first @size bytes
 * Does not change i_size.  Returns 0 or the first error (the rest is still
 * freed as far as it can be).
 */
int ext2_truncate_blocks(struct ext2_inode_info *ei, u64 size)
{
	struct ext2_fs *fs = ei->ei_fs;
	u64 first = (size + fs->fs_bsize - 1) >> fs->fs_bshift, base, span;
	int level, err = 0, e;
	u32 i;

	if (ext4_uses_extents(ei))
		return ext4_ext_truncate(ei, size);
	for (i = (u32)min(first, (u64)EXT2_NDIR_BLOCKS); i < EXT2_NDIR_BLOCKS; i++) {
		e = ext2_free_tree(ei, &ei->ei_raw.i_block[i], 0, 0);
		if (e && !err)
			err = e;
	}
	base = EXT2_NDIR_BLOCKS;
	span = fs->fs_apb;
	for (level = 1; level <= 3; level++) {
		if (first < base + span) {
			e = ext2_free_tree(ei, &ei->ei_raw.i_block[EXT2_IND_BLOCK + level - 1],
					   level, first > base ? first - base : 0);
			if (e && !err)
				err = e;
		}
		base += span;
		span <<= fs->fs_apb_shift;
	}
	ei->ei_last_block = 0;
	ext2_mark_dirty(ei);
	return err;
}
