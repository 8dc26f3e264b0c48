/*
 * ext4 checksums of the superblock, the group descriptors and the block
 * and inode bitmaps (ext4 wiki "Checksums", "Super Block" s_checksum,
 * "Block Group Descriptors" bg_checksum and bg_*_bitmap_csum).
 *
 * Layer: on-disk format code under super_check.c (verify at mount),
 * super.c (set when the superblock and descriptors are written), balloc.c
 * and ialloc.c (verify when a bitmap is first read, set whenever one
 * changes); journal.c sets the superblock checksum of the copy it writes
 * in place.  Pure functions of their arguments: no I/O, no locks.
 *
 * The sums (every crc32c raw, seeded, no final inversion):
 *  - superblock, metadata_csum: crc32c(~0, the 1020 bytes before s_checksum);
 *  - descriptor, metadata_csum: crc32c(fs seed, le32 group, the descriptor
 *    with bg_checksum taken as zero) & 0xFFFF;
 *  - descriptor, gdt_csum alone (uninit_bg): crc16 (ANSI polynomial,
 *    reflected 0xA001, start ~0) over s_uuid, le32 group, the descriptor
 *    before bg_checksum and, 64bit descriptors, the bytes after it;
 *  - bitmaps, metadata_csum: crc32c(fs seed, blocks_per_group / 8 or
 *    inodes_per_group / 8 bytes), low 16 bits in the _lo field, high 16 in
 *    the _hi field when the descriptor is large enough to hold it.
 */
#include "fs/ext2/ext2.h"
#include "lib/byteorder.h"
#include "lib/string.h"

/* Descriptors at least this large hold the _hi halves of the bitmap sums. */
#define EXT4_BG_INODE_BITMAP_CSUM_HI_END \
	(offsetof(struct ext2_group_desc, bg_inode_bitmap_csum_hi) + 2)
#define EXT4_BG_BLOCK_BITMAP_CSUM_HI_END \
	(offsetof(struct ext2_group_desc, bg_block_bitmap_csum_hi) + 2)

/* CRC-16/ARC register update, bit by bit: the descriptors are short. */
static u16 crc16(u16 crc, const void *buf, size_t len)
{
	const u8 *p = buf;
	int k;

	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc & 1) ? (u16)((crc >> 1) ^ 0xA001) : (u16)(crc >> 1);
	}
	return crc;
}

static bool sb_has_csum(const struct ext2_super_block *sb)
{
	return le32_to_cpu(sb->s_rev_level) >= EXT2_DYNAMIC_REV &&
	       (le32_to_cpu(sb->s_feature_ro_compat) & EXT4_FEATURE_RO_COMPAT_METADATA_CSUM);
}

static u32 sb_csum(const struct ext2_super_block *sb)
{
	return crc32c(~0u, sb, EXT2_SB_CHECKSUM_OFFSET);
}

/**
 * ext2_sb_csum_set - set s_checksum of @sb when it has metadata_csum
 * @sb: a superblock about to be written (in core or in a buffer)
 */
void ext2_sb_csum_set(struct ext2_super_block *sb)
{
	if (sb_has_csum(sb))
		sb->s_checksum = cpu_to_le32(sb_csum(sb));
}

/**
 * ext2_sb_csum_ok - does s_checksum of @sb match (or is there none)?
 */
bool ext2_sb_csum_ok(const struct ext2_super_block *sb)
{
	return !sb_has_csum(sb) || le32_to_cpu(sb->s_checksum) == sb_csum(sb);
}

/**
 * ext2_gd_csum - the bg_checksum descriptor @desc of group @g should hold
 * @desc: fs_desc_size bytes as on disk (bg_checksum itself is skipped)
 * Returns 0 when the filesystem has no descriptor checksums.
 */
u16 ext2_gd_csum(const struct ext2_fs *fs, u32 g, const void *desc)
{
	size_t off = offsetof(struct ext2_group_desc, bg_checksum);
	le32 group = cpu_to_le32(g);
	le16 zero = 0;
	u32 c;
	u16 c16;

	if (fs->fs_csum) {
		c = ext2_csum(fs->fs_csum_seed, &group, sizeof(group));
		c = ext2_csum(c, desc, off);
		c = ext2_csum(c, &zero, sizeof(zero));
		c = ext2_csum(c, (const u8 *)desc + off + 2, fs->fs_desc_size - off - 2);
		return (u16)c;
	}
	if (!fs->fs_gdt_csum)
		return 0;
	c16 = crc16(0xFFFF, fs->fs_sb.s_uuid, sizeof(fs->fs_sb.s_uuid));
	c16 = crc16(c16, &group, sizeof(group));
	c16 = crc16(c16, desc, off);
	if (fs->fs_desc_size > off + 2)
		c16 = crc16(c16, (const u8 *)desc + off + 2, fs->fs_desc_size - off - 2);
	return c16;
}

/*
 * Where group @g keeps @which bitmap's checksum: the _lo field, and the
 * _hi one when the descriptor is large enough (else *hi is NULL); and
 * how many bits the bitmap has.
 */
static u32 bitmap_csum_fields(const struct ext2_fs *fs, u32 g, enum ext2_bitmap which,
			      le16 **lo, le16 **hi)
{
	struct ext2_group_desc *gd = &fs->fs_gd[g];
	size_t hi_end;

	if (which == EXT2_BLOCK_BITMAP) {
		*lo = &gd->bg_block_bitmap_csum_lo;
		*hi = &gd->bg_block_bitmap_csum_hi;
		hi_end = EXT4_BG_BLOCK_BITMAP_CSUM_HI_END;
	} else {
		*lo = &gd->bg_inode_bitmap_csum_lo;
		*hi = &gd->bg_inode_bitmap_csum_hi;
		hi_end = EXT4_BG_INODE_BITMAP_CSUM_HI_END;
	}
	if (fs->fs_desc_size < hi_end)
		*hi = NULL;
	return which == EXT2_BLOCK_BITMAP ? fs->fs_blocks_per_group : fs->fs_inodes_per_group;
}

void ext2_bitmap_csum_set(struct ext2_fs *fs, u32 g, enum ext2_bitmap which, const void *map)
{
	le16 *lo, *hi;
	u32 c;

	if (!fs->fs_csum)
		return;
	c = ext2_csum(fs->fs_csum_seed, map, bitmap_csum_fields(fs, g, which, &lo, &hi) / 8);
	*lo = cpu_to_le16((u16)c);
	if (hi)
		*hi = cpu_to_le16((u16)(c >> 16));
}

bool ext2_bitmap_csum_ok(const struct ext2_fs *fs, u32 g, enum ext2_bitmap which,
			 const void *map)
{
	le16 *lo, *hi;
	u32 c, want;

	if (!fs->fs_csum)
		return true;
	c = ext2_csum(fs->fs_csum_seed, map, bitmap_csum_fields(fs, g, which, &lo, &hi) / 8);
	want = le16_to_cpu(*lo);
	if (hi)
		want |= (u32)le16_to_cpu(*hi) << 16;
	else
		c &= 0xFFFF;
	return c == want;
}
