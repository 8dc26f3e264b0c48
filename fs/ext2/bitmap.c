/*
 * The groups' block and inode bitmaps as the allocators get them
 * (balloc.c, ialloc.c): read and, with metadata_csum, checked against
 * their descriptor's checksum the first time this mount reads them -- a
 * mismatch is reported once and the group is then neither allocated from
 * nor freed into -- or, for a group uninit_bg marks BLOCK_UNINIT or
 * INODE_UNINIT, built in memory and written, the flag cleared, at its
 * first use (ext4 wiki "Block Group Descriptors", "Checksums").  A
 * change goes through ext2_bitmap_changed(), which sets the checksum in
 * the in-core descriptor before the block joins the journal or is dirtied.
 *
 * A block bitmap is built from the metadata that lies in the group
 * (meta.c: a superblock copy and descriptors, and with flex_bg any
 * group's bitmaps and inode table placed there); an inode bitmap starts
 * all free.  Bits past the group's end are set, as mke2fs pads them.
 */
#include "fs/ext2/ext2.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/string.h"

struct bitmap_kind {
	const char	*bk_name;
	u16		bk_uninit;	/* EXT4_BG_*_UNINIT */
	u8		bk_ok, bk_bad;	/* EXT2_GS_* */
};

static const struct bitmap_kind bitmap_kinds[] = {
	[EXT2_BLOCK_BITMAP] = { "block bitmap", EXT4_BG_BLOCK_UNINIT,
				EXT2_GS_BBITMAP_OK, EXT2_GS_BBITMAP_BAD },
	[EXT2_INODE_BITMAP] = { "inode bitmap", EXT4_BG_INODE_UNINIT,
				EXT2_GS_IBITMAP_OK, EXT2_GS_IBITMAP_BAD },
};

static u32 bitmap_block(const struct ext2_fs *fs, u32 g, enum ext2_bitmap which)
{
	return le32_to_cpu(which == EXT2_BLOCK_BITMAP ? fs->fs_gd[g].bg_block_bitmap :
						       fs->fs_gd[g].bg_inode_bitmap);
}

/* Blocks in group @g: the last group may be short. */
u32 ext2_group_nblocks(const struct ext2_fs *fs, u32 g)
{
	u32 first = fs->fs_first_data_block + g * fs->fs_blocks_per_group;

	return min(fs->fs_blocks_per_group, fs->fs_blocks_count - first);
}

/* The bitmap of an uninitialised group, in @map (a block), its flag cleared. */
static void bitmap_build(struct ext2_fs *fs, u32 g, enum ext2_bitmap which, u8 *map)
{
	u32 bit = which == EXT2_BLOCK_BITMAP ? ext2_group_nblocks(fs, g) : fs->fs_inodes_per_group;

	memset(map, 0, fs->fs_bsize);
	if (which == EXT2_BLOCK_BITMAP)
		ext2_meta_mark_group(fs, g, map);
	for (; bit < fs->fs_bsize * 8; bit++)
		map[bit >> 3] |= (u8)(1U << (bit & 7));
	fs->fs_gd[g].bg_flags = cpu_to_le16(le16_to_cpu(fs->fs_gd[g].bg_flags) &
					    ~bitmap_kinds[which].bk_uninit);
	DPRINTF(EXT2_D_ALLOC, "ext2: group %u: %s initialised\n", g, bitmap_kinds[which].bk_name);
}

void ext2_bitmap_changed(struct ext2_fs *fs, u32 g, enum ext2_bitmap which,
			 struct buffer_head *bh)
{
	ext2_bitmap_csum_set(fs, g, which, bh->b_data);
	fs->fs_gd_dirty = true;
	ext2_dirty_meta(fs, bh);
}

struct buffer_head *ext2_read_bitmap(struct ext2_fs *fs, u32 g, enum ext2_bitmap which)
{
	const struct bitmap_kind *k = &bitmap_kinds[which];
	u32 blk = bitmap_block(fs, g, which);
	struct buffer_head *bh;

	if (fs->fs_gstate[g] & k->bk_bad)
		return ERR_PTR(-EUCLEAN);
	if (ext2_gd_flag(fs, g, k->bk_uninit)) {
		bh = getblk(fs->fs_bdev, blk, fs->fs_bsize);
		if (IS_ERR(bh))
			return bh;
		bitmap_build(fs, g, which, (u8 *)bh->b_data);
		set_buffer_uptodate(bh);
		ext2_bitmap_changed(fs, g, which, bh);
		fs->fs_gstate[g] |= k->bk_ok;
		return bh;
	}
	bh = ext2_bread(fs, blk);
	if (IS_ERR(bh) || (fs->fs_gstate[g] & k->bk_ok))
		return bh;
	if (!ext2_bitmap_csum_ok(fs, g, which, bh->b_data)) {
		brelse(bh);
		fs->fs_gstate[g] |= k->bk_bad;
		ext2_error(fs, which == EXT2_BLOCK_BITMAP ? "block_bitmap" : "inode_bitmap",
			   "group %u: %s (block %u) checksum mismatch; not allocating from the "
			   "group", g, k->bk_name, blk);
		return ERR_PTR(-EUCLEAN);
	}
	fs->fs_gstate[g] |= k->bk_ok;
	return bh;
}
