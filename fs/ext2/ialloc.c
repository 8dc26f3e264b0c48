/*
 * ext2 inode allocation: the inode bitmaps and the free-inode and
 * used-directory counts of the groups and the superblock.
 *
 * Placement (Linux 2.4's ext2 policy, simplified): a file goes in its
 * directory's group when that has a free inode, else the next group with
 * one; a new directory goes in the group, among those with at least the
 * average number of free inodes, that has the most free blocks, so that
 * directory trees spread out and their files stay near them.
 */
#include "fs/ext2/ext2.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/string.h"

static void ext2_count_inodes(struct ext2_fs *fs, u32 g, int delta, bool isdir)
{
	struct ext2_group_desc *gd = &fs->fs_gd[g];

	gd->bg_free_inodes_count = cpu_to_le16((u16)(le16_to_cpu(gd->bg_free_inodes_count) + delta));
	if (isdir)
		gd->bg_used_dirs_count =
			cpu_to_le16((u16)(le16_to_cpu(gd->bg_used_dirs_count) - delta));
	fs->fs_sb.s_free_inodes_count =
		cpu_to_le32(le32_to_cpu(fs->fs_sb.s_free_inodes_count) + delta);
	fs->fs_gd_dirty = true;
	fs->fs_sb_dirty = true;
}

static u32 ext2_find_group_dir(struct ext2_fs *fs, u32 parent)
{
	u32 avg = le32_to_cpu(fs->fs_sb.s_free_inodes_count) / fs->fs_groups, g, best = parent;
	u32 best_blocks = 0;
	bool found = false;

	for (g = 0; g < fs->fs_groups; g++) {
		const struct ext2_group_desc *gd = &fs->fs_gd[g];
		u32 fi = le16_to_cpu(gd->bg_free_inodes_count);

		if (fi == 0 || fi < avg)
			continue;
		if (!found || le16_to_cpu(gd->bg_free_blocks_count) > best_blocks) {
			best = g;
			best_blocks = le16_to_cpu(gd->bg_free_blocks_count);
			found = true;
		}
	}
	return best;
}

/* Take a free inode in group @g; 0 and its number, or -ENOSPC/-EUCLEAN/-EIO. */
static int ext2_ialloc_in_group(struct ext2_fs *fs, u32 g, bool isdir, u32 *ino)
{
	struct buffer_head *bh;
	u32 start = 0;
	int bit;

	bh = ext2_bread(fs, le32_to_cpu(fs->fs_gd[g].bg_inode_bitmap));
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	if (g == 0)
		start = fs->fs_first_ino - 1;	/* the reserved inodes */
	bit = ext2_find_zero(bh->b_data, fs->fs_inodes_per_group, start);
	if (bit < 0) {
		brelse(bh);
		ext2_error(fs, "new_inode", "group %u counts %u free inodes, its bitmap none",
			   g, le16_to_cpu(fs->fs_gd[g].bg_free_inodes_count));
		return -EUCLEAN;
	}
	bh->b_data[bit >> 3] |= (u8)(1U << (bit & 7));
	ext2_dirty_meta(fs, bh);
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
		g0 = ext2_find_group_dir(fs, g0);
	/* A bad bitmap may hand out an inode in use: retry a few times. */
	for (tries = 0; tries < 4; tries++) {
		err = -ENOSPC;
		for (k = 0; k < fs->fs_groups; k++) {
			u32 g = (g0 + k) % fs->fs_groups;

			if (le16_to_cpu(fs->fs_gd[g].bg_free_inodes_count) == 0)
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
	bh = ext2_bread(fs, le32_to_cpu(fs->fs_gd[g].bg_inode_bitmap));
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	if (!(bh->b_data[bit >> 3] & (1U << (bit & 7)))) {
		brelse(bh);
		ext2_error(fs, "free_inode", "inode %u already free", ino);
		return -EUCLEAN;
	}
	bh->b_data[bit >> 3] &= (u8)~(1U << (bit & 7));
	ext2_dirty_meta(fs, bh);
	brelse(bh);
	ext2_count_inodes(fs, g, 1, isdir);
	return 0;
}
