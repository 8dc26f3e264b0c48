/*
 * ext2 block allocation: the block bitmaps, one block per group, and the
 * free counts in the group descriptors and the superblock, kept exact.
 *
 * A new block goes near @goal: first the rest of the goal's group from
 * the goal on, then the following groups in turn (skipping full ones),
 * then the start of the goal's group.  The bitmaps are disk contents and
 * so suspect: a bit that claims metadata free (any group's: with flex_bg
 * it may lie anywhere, see meta.c), a count that disagrees with its
 * bitmap, or a free of a block already free is reported as corruption
 * (ext2_error) and never followed blindly.
 *
 * The bitmaps come from bitmap.c, which checks their ext4 checksums and
 * builds those of groups uninit_bg left unwritten.
 */
#include "fs/ext2/ext2.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/string.h"

static inline bool bit_test(const u8 *map, u32 bit)
{
	return map[bit >> 3] & (1U << (bit & 7));
}

static inline void bit_set(u8 *map, u32 bit)
{
	map[bit >> 3] |= (u8)(1U << (bit & 7));
}

static inline void bit_clear(u8 *map, u32 bit)
{
	map[bit >> 3] &= (u8)~(1U << (bit & 7));
}

/*
 * Searches and runs go a 32-bit word at a time: bit i of a bitmap is bit
 * i % 8 of byte i / 8, so word w holds bits 32w..32w+31 as a little-endian
 * value.  A bitmap is a whole block, so every word read lies inside it.
 */
static inline u32 bitmap_word(const u8 *map, u32 bit)
{
	return le32_to_cpu(((const le32 *)map)[bit >> 5]);
}

/* How many clear bits start at @bit, at most @max. */
static u32 zero_run(const u8 *map, u32 bit, u32 max)
{
	u32 n = 0;

	while (n < max) {
		u32 sh = (bit + n) & 31, w = bitmap_word(map, bit + n) >> sh;

		if (w)
			return min(max, n + (u32)__builtin_ctz(w));
		n += 32 - sh;
	}
	return max;
}

/* Set bits [@bit, @bit + @n). */
static void set_run(u8 *map, u32 bit, u32 n)
{
	while (n) {
		u32 sh = bit & 31, k = min(n, 32 - sh);
		u32 mask = (k == 32 ? ~0u : (1u << k) - 1) << sh;

		((le32 *)map)[bit >> 5] = cpu_to_le32(bitmap_word(map, bit) | mask);
		bit += k;
		n -= k;
	}
}

/* The first clear bit in [start, nbits) of @map, or -1. */
int ext2_find_zero(const u8 *map, u32 nbits, u32 start)
{
	u32 i = start;

	while (i < nbits) {
		u32 sh = i & 31, w = ~bitmap_word(map, i) >> sh;

		if (w) {
			i += (u32)__builtin_ctz(w);
			return i < nbits ? (int)i : -1;
		}
		i += 32 - sh;
	}
	return -1;
}

static void ext2_count_blocks(struct ext2_fs *fs, u32 g, int delta)
{
	struct ext2_group_desc *gd = &fs->fs_gd[g];

	ext2_gd_set_free_blocks(gd, ext2_gd_free_blocks(gd) + delta);
	ext2_sb_set_free_blocks(&fs->fs_sb, ext2_sb_free_blocks(&fs->fs_sb) + delta);
	fs->fs_gd_dirty = true;
	fs->fs_sb_dirty = true;
}

/*
 * Take a free bit in group @g's bitmap at or after @start (wrapping to the
 * group's start), and up to @max - 1 free bits right after it, so that a
 * run of new blocks is contiguous on disk.  Returns how many were taken
 * (the first in *out), -ENOSPC if the group is full (with ext3: or has only
 * blocks the running transaction freed, which the committed state still owns).
 */
static int ext2_alloc_in_group(struct ext2_fs *fs, u32 g, u32 start, u32 max, u32 *out)
{
	u32 nbits = ext2_group_nblocks(fs, g), base = fs->fs_first_data_block + g * fs->fs_blocks_per_group;
	struct buffer_head *bh;
	int bit, n, i, err = -ENOSPC;
	bool wrapped = false, busy = false;
	u32 run, first;

	bh = ext2_read_bitmap(fs, g, EXT2_BLOCK_BITMAP);
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	if (start >= nbits)
		start = 0;
	first = start;
	for (;;) {
		bit = ext2_find_zero(bh->b_data, nbits, start);
		if (bit < 0 && start && !wrapped) {
			start = 0;
			wrapped = true;
			continue;
		}
		if (busy && (bit < 0 || (wrapped && (u32)bit >= first)))
			break;		/* only blocks the running transaction freed: -ENOSPC */
		if (bit >= 0 && ext2_block_busy(fs, base + (u32)bit)) {
			busy = true;	/* ext3: still in use by the committed state */
			start = (u32)bit + 1;
			if (start >= nbits && !wrapped) {
				start = 0;
				wrapped = true;
			} else if (start >= nbits) {
				break;
			}
			continue;
		}
		if (bit < 0) {
			ext2_error(fs, "new_block", "group %u counts %u free blocks, its bitmap none",
				   g, ext2_gd_free_blocks(&fs->fs_gd[g]));
			err = -EUCLEAN;
			break;
		}
		run = ext2_data_run(fs, base + (u32)bit, min(max, nbits - (u32)bit));
		if (!run) {
			/* Wrong bits: set them, which is now right, and search on. */
			for (n = bit; (u32)n < nbits && !bit_test(bh->b_data, (u32)n) &&
				      !ext2_data_run(fs, base + (u32)n, 1); n++)
				bit_set(bh->b_data, (u32)n);
			ext2_bitmap_changed(fs, g, EXT2_BLOCK_BITMAP, bh);
			ext2_error(fs, "new_block", "bitmap of group %u marks metadata blocks %u-%u free",
				   g, base + (u32)bit, base + (u32)n - 1);
			continue;
		}
		/* Free neighbours only: a wrong bit is left for the search above to report. */
		n = (int)zero_run(bh->b_data, (u32)bit, run);
		for (i = 1; fs->fs_journal && i < n; i++)
			if (ext2_block_busy(fs, base + (u32)(bit + i)))
				n = i;		/* ext3: the committed state still owns it */
		set_run(bh->b_data, (u32)bit, (u32)n);
		ext2_bitmap_changed(fs, g, EXT2_BLOCK_BITMAP, bh);
		ext2_count_blocks(fs, g, -n);
		*out = base + (u32)bit;
		err = n;
		break;
	}
	brelse(bh);
	return err;
}

/**
 * ext2_new_blocks - allocate up to @max contiguous blocks near @goal
 * Returns how many (at least 1; the group's free space or a used block
 * may end the run early) with the first in *out, their contents
 * undefined; -ENOSPC, -EROFS, -EIO or -EUCLEAN.
 */
int ext2_new_blocks(struct ext2_fs *fs, u32 goal, u32 max, u32 *out)
{
	u32 g0, k, start;
	int n;

	if (fs->fs_rdonly)
		return -EROFS;
	if (ext2_sb_free_blocks(&fs->fs_sb) == 0)
		return -ENOSPC;
	if (!ext2_valid_block(fs, goal))
		goal = fs->fs_first_data_block;
	g0 = ext2_block_group(fs, goal);
	start = goal - fs->fs_first_data_block - g0 * fs->fs_blocks_per_group;
	for (k = 0; k < fs->fs_groups; k++) {
		u32 g = (g0 + k) % fs->fs_groups;

		if (ext2_gd_free_blocks(&fs->fs_gd[g]) == 0 ||
		    (fs->fs_gstate[g] & EXT2_GS_BBITMAP_BAD))
			continue;
		/* never more than the group counts free: a wrong bitmap must not wrap the count */
		n = ext2_alloc_in_group(fs, g, k == 0 ? start : 0,
					min(max, ext2_gd_free_blocks(&fs->fs_gd[g])), out);
		if (n == -ENOSPC || n == -EUCLEAN)
			continue;
		if (n > 0)
			DPRINTF(EXT2_D_ALLOC, "ext2: blocks %u+%d (goal %u)\n", *out, n, goal);
		return n;
	}
	return -ENOSPC;
}

/**
 * ext2_free_block - return @blk to its group
 * Returns 0, or -EUCLEAN (reported) for a block that is out of range,
 * metadata, or already free.
 */
int ext2_free_block(struct ext2_fs *fs, u32 blk)
{
	struct buffer_head *bh;
	u32 g, bit;

	if (!ext2_data_run(fs, blk, 1)) {
		ext2_error(fs, "free_block", "block %u is out of range or metadata", blk);
		return -EUCLEAN;
	}
	g = ext2_block_group(fs, blk);
	bh = ext2_read_bitmap(fs, g, EXT2_BLOCK_BITMAP);
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	bit = blk - fs->fs_first_data_block - g * fs->fs_blocks_per_group;
	if (!bit_test(bh->b_data, bit)) {
		brelse(bh);
		ext2_error(fs, "free_block", "block %u already free", blk);
		return -EUCLEAN;
	}
	bit_clear(bh->b_data, bit);
	ext2_bitmap_changed(fs, g, EXT2_BLOCK_BITMAP, bh);
	brelse(bh);
	ext2_count_blocks(fs, g, 1);
	/* The log may hold an old copy: replay must not write it over the block's next use. */
	return ext2_journal_forget(fs, blk);
}
