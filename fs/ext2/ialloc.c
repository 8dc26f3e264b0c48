/*
 * ext2 inode allocation: the inode bitmaps and the free-inode and
 * used-directory counts of the groups and the superblock.
 *
 * Placement (in the spirit of Linux's Orlov allocator): a file goes in
 * its directory's group when that has a free inode, else the next group
 * with one; a new directory goes in a flex group (with flex_bg, the
 * 2^s_log_groups_per_flex groups whose metadata lies together; else one
 * group): at the top level the one, among those with at least the
 * average free inodes and blocks, with the fewest directories; deeper
 * down its parent's while that has a fair share free, so that directory
 * trees spread out and their files stay near them.
 *
 * ext4 (ext4 wiki "Block Group Descriptors"): the bitmaps come from
 * bitmap.c, which checks their checksums and builds those of groups
 * uninit_bg left unwritten; bg_itable_unused (the inodes at the
 * end of the table never used, which e2fsck does not read) shrinks as
 * inodes past it are taken, and without INODE_ZEROED the table slots it
 * exposes are zeroed first, since mke2fs may have left them unwritten.
 */
#include "fs/ext2/ext2.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/string.h"

static void ext2_count_inodes(struct ext2_fs *fs, u32 g, int delta, bool isdir)
{
	struct ext2_group_desc *gd = &fs->fs_gd[g];

	ext2_gd_set_free_inodes(gd, ext2_gd_free_inodes(gd) + delta);
	if (isdir)
		ext2_gd_set_used_dirs(gd, ext2_gd_used_dirs(gd) - delta);
	fs->fs_sb.s_free_inodes_count =
		cpu_to_le32(le32_to_cpu(fs->fs_sb.s_free_inodes_count) + delta);
	fs->fs_gd_dirty = true;
	fs->fs_sb_dirty = true;
}

/* Groups per flex group: 1 without flex_bg. */
static u32 flex_size(const struct ext2_fs *fs)
{
	u32 log = fs->fs_sb.s_log_groups_per_flex;

	if (!fs->fs_flex_bg || log >= 31)
		return 1;
	return 1U << log;
}

/* A flex group's totals, without groups whose inode bitmap is bad. */
struct flex_stats {
	u64	fs_free_inodes;
	u64	fs_free_blocks;
	u64	fs_dirs;
};

static void flex_stats(const struct ext2_fs *fs, u32 f, u32 flex, struct flex_stats *st)
{
	u32 g;

	memset(st, 0, sizeof(*st));
	for (g = f * flex; g < fs->fs_groups && g < (f + 1) * flex; g++) {
		if (fs->fs_gstate[g] & EXT2_GS_IBITMAP_BAD)
			continue;
		st->fs_free_inodes += ext2_gd_free_inodes(&fs->fs_gd[g]);
		st->fs_free_blocks += ext2_gd_free_blocks(&fs->fs_gd[g]);
		st->fs_dirs += ext2_gd_used_dirs(&fs->fs_gd[g]);
	}
}

/*
 * The group for a new directory in @parent (whose inode lies in group
 * @pg).  Top-level directories spread: the flex group, among those with
 * at least the average free inodes and blocks, with the fewest
 * directories (then the most free blocks).  Deeper
 * ones stay with their parent while its flex group has a fair share of
 * free inodes and blocks and not too many directories (Orlov's
 * thresholds, simplified), else the next flex group that does.
 */
static u32 ext2_find_group_dir(struct ext2_fs *fs, struct ext2_inode_info *parent, u32 pg)
{
	u32 flex = flex_size(fs), nflex = DIV_ROUND_UP(fs->fs_groups, flex), f, g, k;
	u64 avg_i = le32_to_cpu(fs->fs_sb.s_free_inodes_count) / nflex;
	u64 avg_b = ext2_sb_free_blocks(&fs->fs_sb) / nflex, dirs = 0;
	u64 best_blocks = 0, best_dirs = 0;
	u32 best = pg / flex;
	struct flex_stats st;
	bool found = false, near = false;

	for (g = 0; g < fs->fs_groups; g++)
		dirs += ext2_gd_used_dirs(&fs->fs_gd[g]);
	if (parent->ei_ino != EXT2_ROOT_INO) {
		u64 max_dirs = dirs / nflex + (u64)fs->fs_inodes_per_group * flex / 16;

		for (k = 0; k < nflex && !near; k++) {
			f = (pg / flex + k) % nflex;
			flex_stats(fs, f, flex, &st);
			if (st.fs_free_inodes && st.fs_free_inodes >= avg_i / 4 &&
			    st.fs_free_blocks >= avg_b / 4 && st.fs_dirs <= max_dirs) {
				best = f;
				near = true;
			}
		}
	}
	/* spread: the fewest directories among the flex groups with their share free */
	for (k = 0; k < nflex && !near; k++) {
		f = (pg / flex + k) % nflex;
		flex_stats(fs, f, flex, &st);
		if (st.fs_free_inodes == 0 || st.fs_free_inodes < avg_i || st.fs_free_blocks < avg_b)
			continue;
		if (!found || st.fs_dirs < best_dirs ||
		    (st.fs_dirs == best_dirs && st.fs_free_blocks > best_blocks)) {
			best = f;
			best_blocks = st.fs_free_blocks;
			best_dirs = st.fs_dirs;
			found = true;
		}
	}
	/* none has its share: the most free blocks among those with a free inode */
	for (k = 0; k < nflex && !near && !found; k++) {
		flex_stats(fs, k, flex, &st);
		if (st.fs_free_inodes && st.fs_free_blocks >= best_blocks) {
			best = k;
			best_blocks = st.fs_free_blocks;
		}
	}
	for (g = best * flex; g < fs->fs_groups && g < (best + 1) * flex; g++)
		if (ext2_gd_free_inodes(&fs->fs_gd[g]) && !(fs->fs_gstate[g] & EXT2_GS_IBITMAP_BAD))
			return g;
	return pg;
}

/*
 * Inode @bit of group @g was taken: with uninit_bg, shrink bg_itable_unused
 * past it, zeroing the table slots it exposes unless INODE_ZEROED says
 * mke2fs zeroed the table.  0 or the inode table's read error.
 */
static int itable_use(struct ext2_fs *fs, u32 g, u32 bit)
{
	struct ext2_group_desc *gd = &fs->fs_gd[g];
	u32 ipg = fs->fs_inodes_per_group, first = ipg - ext2_gd_itable_unused(gd), i;
	u32 isz = fs->fs_inode_size, tbl = le32_to_cpu(gd->bg_inode_table);
	struct buffer_head *bh;

	if (!fs->fs_gdt_csum || bit < first)
		return 0;
	for (i = first; !ext2_gd_flag(fs, g, EXT4_BG_INODE_ZEROED) && i <= bit; i++) {
		u64 byte = (u64)i * isz;

		bh = ext2_bread(fs, tbl + (u32)(byte >> fs->fs_bshift));
		if (IS_ERR(bh))
			return PTR_ERR(bh);
		memset(bh->b_data + (byte & (fs->fs_bsize - 1)), 0, isz);
		ext2_dirty_meta(fs, bh);
		brelse(bh);
	}
	ext2_gd_set_itable_unused(gd, ipg - bit - 1);
	fs->fs_gd_dirty = true;
	return 0;
}

/* Take a free inode in group @g; 0 and its number, or -ENOSPC/-EUCLEAN/-EIO. */
static int ext2_ialloc_in_group(struct ext2_fs *fs, u32 g, bool isdir, u32 *ino)
{
	struct buffer_head *bh;
	u32 start = 0;
	int bit, err;

	bh = ext2_read_bitmap(fs, g, EXT2_INODE_BITMAP);
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	if (g == 0)
		start = fs->fs_first_ino - 1;	/* the reserved inodes */
	bit = ext2_find_zero(bh->b_data, fs->fs_inodes_per_group, start);
	if (bit < 0) {
		brelse(bh);
		ext2_error(fs, "new_inode", "group %u counts %u free inodes, its bitmap none",
			   g, ext2_gd_free_inodes(&fs->fs_gd[g]));
		return -EUCLEAN;
	}
	err = itable_use(fs, g, (u32)bit);
	if (err) {
		brelse(bh);
		return err;
	}
	bh->b_data[bit >> 3] |= (u8)(1U << (bit & 7));
	ext2_bitmap_changed(fs, g, EXT2_INODE_BITMAP, bh);
	brelse(bh);
	ext2_count_inodes(fs, g, -1, isdir);
	*ino = g * fs->fs_inodes_per_group + (u32)bit + 1;
	return 0;
}

/**
 * ext2_new_inode - allocate an inode for a new file of @mode in @dir
 * Returns 0 and the in-core inode (referenced, links 0, dirty) in *out;
 * the caller sets the link count.  -ENOSPC, -EROFS, -EIO, -EUCLEAN.
 */
int ext2_new_inode(struct ext2_fs *fs, struct ext2_inode_info *dir, u32 mode,
		   struct ext2_inode_info **out)
{
	bool isdir = (mode & EXT2_S_IFMT) == EXT2_S_IFDIR;
	u32 g0 = ext2_ino_group(fs, dir->ei_ino), k, ino = 0;
	int err = -ENOSPC, tries;

	if (fs->fs_rdonly)
		return -EROFS;
	if (isdir)
		g0 = ext2_find_group_dir(fs, dir, g0);
	/* A bad bitmap may hand out an inode in use: retry a few times. */
	for (tries = 0; tries < 4; tries++) {
		err = -ENOSPC;
		for (k = 0; k < fs->fs_groups; k++) {
			u32 g = (g0 + k) % fs->fs_groups;

			if (ext2_gd_free_inodes(&fs->fs_gd[g]) == 0 ||
			    (fs->fs_gstate[g] & EXT2_GS_IBITMAP_BAD))
				continue;
			err = ext2_ialloc_in_group(fs, g, isdir, &ino);
			if (err != -ENOSPC && err != -EUCLEAN)
				break;
		}
		if (err)
			return err;
		err = ext2_iget_new(fs, ino, mode, out);
		if (err != -EUCLEAN)
			return err;
	}
	return err;
}

/**
 * ext2_free_inode - clear @ino in its bitmap and count it free
 * Returns 0, or -EUCLEAN (reported) for a bad or already free inode.
 */
int ext2_free_inode(struct ext2_fs *fs, u32 ino, bool isdir)
{
	struct buffer_head *bh;
	u32 g, bit;

	if (ino < fs->fs_first_ino || ino > fs->fs_inodes_count) {
		ext2_error(fs, "free_inode", "inode %u is reserved or out of range", ino);
		return -EUCLEAN;
	}
	g = ext2_ino_group(fs, ino);
	bit = (ino - 1) % fs->fs_inodes_per_group;
	bh = ext2_read_bitmap(fs, g, EXT2_INODE_BITMAP);
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	if (!(bh->b_data[bit >> 3] & (1U << (bit & 7)))) {
		brelse(bh);
		ext2_error(fs, "free_inode", "inode %u already free", ino);
		return -EUCLEAN;
	}
	bh->b_data[bit >> 3] &= (u8)~(1U << (bit & 7));
	ext2_bitmap_changed(fs, g, EXT2_INODE_BITMAP, bh);
	brelse(bh);
	ext2_count_inodes(fs, g, 1, isdir);
	return 0;
}
