/*
 * ext2 block map: from a file's logical block to its disk block through
 * the twelve direct pointers and the single, double and triple indirect
 * blocks in i_block[] (doc section "i_block"), allocating on the way for
 * writes, and freeing from a point on for truncate.
 *
 * A pointer of 0 is a hole: reads see zeroes and nothing is allocated.
 * Every pointer read from disk is checked to lie inside the filesystem
 * before it is followed; a bad one fails the access with -EUCLEAN and is
 * reported.  The tree has a fixed depth of at most three indirect levels,
 * so the recursion in the truncate walk is bounded by the format, not by
 * the disk.
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

/* Allocate a zeroed block for @ei near its last one; 0 or -errno. */
static int ext2_alloc_for(struct ext2_inode_info *ei, u32 *out)
{
	struct ext2_fs *fs = ei->ei_fs;
	struct buffer_head *bh;
	u32 goal = ei->ei_last_block ? ei->ei_last_block + 1 :
		   fs->fs_first_data_block +
		   ext2_ino_group(fs, ei->ei_ino) * fs->fs_blocks_per_group;
	int err;

	err = ext2_new_block(fs, goal, out);
	if (err)
		return err;
	bh = ext2_getblk_zero(fs, *out);
	if (IS_ERR(bh)) {
		ext2_free_block(fs, *out);
		return PTR_ERR(bh);
	}
	brelse(bh);
	ei->ei_last_block = *out;
	ext2_add_blocks(ei, 1);
	return 0;
}

static int ext2_bad_pointer(struct ext2_inode_info *ei, u32 blk, u64 lblk)
{
	ext2_error(ei->ei_fs, "bmap", "inode %u: block %u (for block %llu) out of range",
		   ei->ei_ino, blk, (unsigned long long)lblk);
	return -EUCLEAN;
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
	struct ext2_fs *fs = ei->ei_fs;
	u32 off[EXT2_MAX_DEPTH], blk, nb;
	struct buffer_head *bh;
	int depth, i, err;
	le32 *p;

	depth = ext2_block_path(fs, lblk, off);
	if (depth < 0)
		return depth;
	blk = le32_to_cpu(ei->ei_raw.i_block[off[0]]);
	if (!blk) {
		if (!create)
			goto hole;
		err = ext2_alloc_for(ei, &blk);
		if (err)
			return err;
		ei->ei_raw.i_block[off[0]] = cpu_to_le32(blk);
		ext2_mark_dirty(ei);
	} else if (!ext2_valid_block(fs, blk)) {
		return ext2_bad_pointer(ei, blk, lblk);
	}
	for (i = 1; i < depth; i++) {
		bh = ext2_bread(fs, blk);
		if (IS_ERR(bh))
			return PTR_ERR(bh);
		p = (le32 *)bh->b_data + off[i];
		nb = le32_to_cpu(*p);
		if (!nb) {
			if (!create) {
				brelse(bh);
				goto hole;
			}
			err = ext2_alloc_for(ei, &nb);
			if (err) {
				brelse(bh);
				return err;
			}
			*p = cpu_to_le32(nb);
			mark_buffer_dirty(bh);
		} else if (!ext2_valid_block(fs, nb)) {
			brelse(bh);
			return ext2_bad_pointer(ei, nb, lblk);
		}
		brelse(bh);
		blk = nb;
	}
	if (create)
		ei->ei_last_block = blk;
	*pblk = blk;
	return 0;
hole:
	*pblk = 0;
	return 0;
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
	if (!ext2_valid_block(fs, blk)) {
		ext2_error(fs, "truncate", "inode %u: block %u out of range", ei->ei_ino, blk);
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
			mark_buffer_dirty(bh);
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
