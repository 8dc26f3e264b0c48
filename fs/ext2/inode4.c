/*
 * The ext4 fields of an inode, kept by the ext2 driver for ext2, ext3 and
 * ext4 alike: what inode.c, file.c and namei.c call when a field means
 * more than ext2 made it mean.
 *
 *  - the inode checksum (metadata_csum): crc32c over the whole slot,
 *    in-inode attributes included, with the checksum fields counted as
 *    zero; verified when an inode is read, set whenever a slot is written;
 *  - the timestamp extra words of large inodes: nanoseconds and two epoch
 *    bits that carry times from 1901 to 2446;
 *  - i_blocks past 32 bits (huge_file), in 512-byte or filesystem blocks;
 *  - the largest file one inode may hold, by its block map and huge_file;
 *  - dir_nlink: a directory with too many subdirectories keeps a link
 *    count of 1, meaning "many";
 *  - inode flags this driver cannot honour (encryption, verity, casefold,
 *    compression, attribute inodes): such an inode is refused with a line
 *    naming the reason, never read or written wrongly.
 *
 * Source: ext4 wiki, "Ext4 Disk Layout", sections "Inode Table" (fields,
 * i_flags, "Inode Size", "Inode Timestamps"), "Checksums" and "Block and
 * Inode Allocation Policy" (link counts).
 */
#include "fs/ext2/ext2.h"
#include "block/bdev.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "lib/string.h"

#define I_CSUM_LO	offsetof(struct ext2_inode, i_checksum_lo)
#define I_CSUM_HI	offsetof(struct ext2_inode, i_checksum_hi)
#define I_S32_MIN	(-(s64)0x80000000)
#define I_S32_MAX	((s64)0x7fffffff)
#define I_U32_MAX	0xffffffffu

/*
 * The checksum of @slot (fs_inode_size bytes) of @ei, "Checksums": the
 * seed is ei_csum_seed; i_checksum_lo, and i_checksum_hi when
 * i_extra_isize covers it, are taken as zero.
 */
static u32 ext2_inode_csum(const struct ext2_inode_info *ei, const u8 *slot)
{
	static const u8 zero[2];
	u32 size = ei->ei_fs->fs_inode_size, c;

	c = ext2_csum(ei->ei_csum_seed, slot, I_CSUM_LO);
	c = ext2_csum(c, zero, sizeof(zero));
	c = ext2_csum(c, slot + I_CSUM_LO + 2, EXT2_GOOD_OLD_INODE_SIZE - I_CSUM_LO - 2);
	if (size <= EXT2_GOOD_OLD_INODE_SIZE)
		return c;
	if (EXT2_IFITS(ei, i_checksum_hi)) {
		c = ext2_csum(c, slot + EXT2_GOOD_OLD_INODE_SIZE, I_CSUM_HI - EXT2_GOOD_OLD_INODE_SIZE);
		c = ext2_csum(c, zero, sizeof(zero));
		c = ext2_csum(c, slot + I_CSUM_HI + 2, size - I_CSUM_HI - 2);
	} else {
		c = ext2_csum(c, slot + EXT2_GOOD_OLD_INODE_SIZE, size - EXT2_GOOD_OLD_INODE_SIZE);
	}
	return c;
}

/**
 * ext2_inode_csum_verify - check the checksum of the slot @ei was read from
 * @ei: its ei_raw and ei_csum_seed already set from @slot
 * Returns 0 (or no metadata_csum), -EUCLEAN on a mismatch (reported with
 * the inode number; the caller fails only this inode).
 */
int ext2_inode_csum_verify(struct ext2_inode_info *ei, const u8 *slot)
{
	const struct ext2_inode *r = (const struct ext2_inode *)slot;
	u32 want, got;

	if (!ei->ei_fs->fs_csum)
		return 0;
	got = ext2_inode_csum(ei, slot);
	want = le16_to_cpu(r->i_checksum_lo);
	if (EXT2_IFITS(ei, i_checksum_hi))
		want |= (u32)le16_to_cpu(r->i_checksum_hi) << 16;
	else
		got &= 0xFFFF;
	if (want == got)
		return 0;
	ext2_error(ei->ei_fs, "iget", "inode %u: checksum mismatch (stored %#x, computed %#x)",
		   ei->ei_ino, want, got);
	return -EUCLEAN;
}

/**
 * ext2_inode_csum_set - store the checksum of @slot, just written from @ei
 * In the slot and in ei_raw, so both stay the same.  No-op without
 * metadata_csum.
 */
void ext2_inode_csum_set(struct ext2_inode_info *ei, u8 *slot)
{
	struct ext2_inode *r = (struct ext2_inode *)slot;
	u32 c;

	if (!ei->ei_fs->fs_csum)
		return;
	c = ext2_inode_csum(ei, slot);
	r->i_checksum_lo = cpu_to_le16((u16)c);
	ei->ei_raw.i_checksum_lo = r->i_checksum_lo;
	if (EXT2_IFITS(ei, i_checksum_hi)) {
		r->i_checksum_hi = cpu_to_le16((u16)(c >> 16));
		ei->ei_raw.i_checksum_hi = r->i_checksum_hi;
	}
}

/*
 * i_extra_isize for a new inode, "Inode Size": s_want_extra_isize (at
 * least s_min_extra_isize) with extra_isize, else every field we know;
 * never more than the slot holds.
 */
u32 ext2_new_extra_isize(const struct ext2_fs *fs)
{
	u32 want = EXT2_INODE_EXTRA_ISIZE;

	if (fs->fs_inode_size <= EXT2_GOOD_OLD_INODE_SIZE)
		return 0;
	if (ext2_ro_feature(fs, EXT4_FEATURE_RO_COMPAT_EXTRA_ISIZE)) {
		want = max(want, (u32)le16_to_cpu(fs->fs_sb.s_want_extra_isize));
		want = max(want, (u32)le16_to_cpu(fs->fs_sb.s_min_extra_isize));
	}
	return min(want, fs->fs_inode_size - EXT2_GOOD_OLD_INODE_SIZE) & ~3u;
}

/* Where each time lives: the seconds word and its extra word (0: none). */
static const struct {
	u16	base;
	u16	extra;
} ext2_time_loc[EXT2_NTIMES] = {
	[EXT2_ATIME]	= { offsetof(struct ext2_inode, i_atime),
			    offsetof(struct ext2_inode, i_atime_extra) },
	[EXT2_MTIME]	= { offsetof(struct ext2_inode, i_mtime),
			    offsetof(struct ext2_inode, i_mtime_extra) },
	[EXT2_CTIME]	= { offsetof(struct ext2_inode, i_ctime),
			    offsetof(struct ext2_inode, i_ctime_extra) },
	[EXT2_CRTIME]	= { offsetof(struct ext2_inode, i_crtime),
			    offsetof(struct ext2_inode, i_crtime_extra) },
};

#define EXT4_EPOCH_BITS	2
#define EXT4_EPOCH_MASK	((1u << EXT4_EPOCH_BITS) - 1)
#define EXT4_NSEC_MAX	999999999u

/*
 * Time @which of @ei, "Inode Timestamps": the seconds word is signed
 * (1901-2038); the extra word, when the inode has it, adds epoch bits
 * << 32 and holds nanoseconds << 2.  A time the inode lacks reads as 0.
 */
void ext2_get_time(const struct ext2_inode_info *ei, int which, s64 *sec, u32 *nsec)
{
	const u8 *r = (const u8 *)&ei->ei_raw;
	u32 base = ext2_time_loc[which].base, extra = ext2_time_loc[which].extra, x;

	*sec = 0;
	*nsec = 0;
	if (!ext2_ifits(ei, base + 4))
		return;
	*sec = (s32)get_le32(r + base);
	if (!ext2_ifits(ei, extra + 4))
		return;
	x = get_le32(r + extra);
	*sec += (s64)(x & EXT4_EPOCH_MASK) << 32;
	*nsec = min(x >> EXT4_EPOCH_BITS, EXT4_NSEC_MAX);
}

/* Set time @which, clamped to what the inode can hold. */
void ext2_set_time(struct ext2_inode_info *ei, int which, s64 sec, u32 nsec)
{
	u8 *r = (u8 *)&ei->ei_raw;
	u32 base = ext2_time_loc[which].base, extra = ext2_time_loc[which].extra;
	bool has_extra = ext2_ifits(ei, extra + 4);
	s64 lo = I_S32_MIN, hi = has_extra ? I_S32_MAX + ((s64)EXT4_EPOCH_MASK << 32) : I_S32_MAX;

	if (!ext2_ifits(ei, base + 4))
		return;
	sec = clamp(sec, lo, hi);
	put_le32(r + base, (u32)sec);
	if (has_extra)
		put_le32(r + extra, ((u32)((sec - (s32)sec) >> 32) & EXT4_EPOCH_MASK) |
				    min(nsec, EXT4_NSEC_MAX) << EXT4_EPOCH_BITS);
	ei->ei_dirty = true;
}

/* Now, for inode times: seconds and nanoseconds. */
void ext2_now_ts(s64 *sec, u32 *nsec)
{
	u64 ns = wallclock_unix_ns();

	*sec = (s64)(ns / NSEC_PER_SEC);
	*nsec = (u32)(ns % NSEC_PER_SEC);
}

#define EXT4_HUGE_FILE_FL	0x00040000	/* i_blocks in filesystem blocks */

/**
 * ext2_iblocks - blocks the inode uses, in 512-byte units
 * With huge_file, i_blocks_hi adds 16 bits, and EXT4_HUGE_FILE_FL says
 * the count is in filesystem blocks ("Inode Table": i_blocks_lo).
 */
u64 ext2_iblocks(const struct ext2_inode_info *ei)
{
	const struct ext2_fs *fs = ei->ei_fs;
	u64 b = le32_to_cpu(ei->ei_raw.i_blocks);

	if (!ext2_ro_feature(fs, EXT4_FEATURE_RO_COMPAT_HUGE_FILE))
		return b;
	b |= (u64)le16_to_cpu(ei->ei_raw.i_blocks_hi) << 32;
	if (le32_to_cpu(ei->ei_raw.i_flags) & EXT4_HUGE_FILE_FL)
		b <<= fs->fs_bshift - 9;
	return b;
}

/* Store @b 512-byte units, as Linux's ext4_inode_blocks_set() lays them out. */
static void ext2_set_iblocks(struct ext2_inode_info *ei, u64 b)
{
	struct ext2_fs *fs = ei->ei_fs;
	struct ext2_inode *r = &ei->ei_raw;
	u32 flags = le32_to_cpu(r->i_flags) & ~EXT4_HUGE_FILE_FL;

	if (!ext2_ro_feature(fs, EXT4_FEATURE_RO_COMPAT_HUGE_FILE)) {
		/* the size limit keeps a file within 2^32 units: never saturates */
		r->i_blocks = cpu_to_le32((u32)min(b, (u64)I_U32_MAX));
		return;
	}
	if (b >> 48) {
		b >>= fs->fs_bshift - 9;
		flags |= EXT4_HUGE_FILE_FL;
	}
	r->i_blocks = cpu_to_le32((u32)b);
	r->i_blocks_hi = cpu_to_le16((u16)(b >> 32));
	r->i_flags = cpu_to_le32(flags);
}

/* Account @n blocks (negative: freed) in i_blocks. */
void ext2_add_blocks(struct ext2_inode_info *ei, int n)
{
	s64 b = (s64)ext2_iblocks(ei) + (s64)n * (s64)(ei->ei_fs->fs_bsize >> 9);

	ext2_set_iblocks(ei, b < 0 ? 0 : (u64)b);
	ei->ei_dirty = true;
}

/*
 * The largest file @ei may hold, in bytes.  An extent-mapped file has
 * 32-bit logical blocks; a block-mapped one what triple indirection
 * addresses.  Without huge_file, i_blocks (2^32 512-byte units, metadata
 * included) bounds both, as fs_max_size does for block maps; with it,
 * i_blocks is never the limit (Linux's ext4_max_size and
 * ext4_max_bitmap_size reason the same way).
 */
u64 ext2_inode_max_size(const struct ext2_inode_info *ei)
{
	const struct ext2_fs *fs = ei->ei_fs;
	bool huge = ext2_ro_feature(fs, EXT4_FEATURE_RO_COMPAT_HUGE_FILE);
	u64 apb = fs->fs_apb, blocks;

	if (le32_to_cpu(ei->ei_raw.i_flags) & EXT4_EXTENTS_FL) {
		blocks = I_U32_MAX;
		if (!huge)
			blocks = min(blocks, (u64)(I_U32_MAX >> (fs->fs_bshift - 9)));
		return blocks << fs->fs_bshift;
	}
	if (!huge)
		return fs->fs_max_size;
	blocks = EXT2_NDIR_BLOCKS + apb + apb * apb + apb * apb * apb;
	return blocks << fs->fs_bshift;
}

/*
 * Directory sizes: i_size_high counts for a directory only with large_dir
 * ("Inode Table": i_size_high), as Linux's ext4_isize() reads it.
 */
bool ext2_size_high(const struct ext2_inode_info *ei)
{
	return ext2_isreg(ei) ||
	       (ext2_isdir(ei) && ext2_incompat_feature(ei->ei_fs, EXT4_FEATURE_INCOMPAT_LARGEDIR));
}

/* dir_nlink: a directory's link count of 1 means "more than we count". */
static bool ext2_dir_nlink(const struct ext2_fs *fs)
{
	return ext2_ro_feature(fs, EXT4_FEATURE_RO_COMPAT_DIR_NLINK);
}

/*
 * The most links an inode may have: 65000 on a filesystem with any ext4
 * feature (EXT4_LINK_MAX, what e2fsck accepts), 32000 on plain ext2/ext3.
 */
u32 ext2_link_max(const struct ext2_fs *fs)
{
	const u32 ext4_ro = EXT4_FEATURE_RO_COMPAT_HUGE_FILE | EXT4_FEATURE_RO_COMPAT_DIR_NLINK |
			    EXT4_FEATURE_RO_COMPAT_EXTRA_ISIZE | EXT4_FEATURE_RO_COMPAT_METADATA_CSUM |
			    EXT4_FEATURE_RO_COMPAT_GDT_CSUM;
	const u32 ext4_in = EXT4_FEATURE_INCOMPAT_EXTENTS | EXT4_FEATURE_INCOMPAT_64BIT |
			    EXT4_FEATURE_INCOMPAT_FLEX_BG;

	return ext2_ro_feature(fs, ext4_ro) || ext2_incompat_feature(fs, ext4_in) ?
	       EXT4_LINK_MAX : EXT2_LINK_MAX;
}

/* May directory @dir gain a subdirectory?  0 or -EMLINK. */
int ext2_dir_may_link(const struct ext2_inode_info *dir)
{
	u32 n = le16_to_cpu(dir->ei_raw.i_links_count);

	if (ext2_dir_nlink(dir->ei_fs) || n < ext2_link_max(dir->ei_fs))
		return 0;
	return -EMLINK;
}

/*
 * A subdirectory was added to @dir: one more link, or 1 ("many") once the
 * count passes EXT4_LINK_MAX with dir_nlink, and 1 stays 1.
 */
u32 ext2_dir_inc_links(const struct ext2_inode_info *dir)
{
	u32 n = le16_to_cpu(dir->ei_raw.i_links_count);

	if (ext2_dir_nlink(dir->ei_fs) && (n == 1 || n + 1 > EXT4_LINK_MAX))
		return 1;
	return n + 1;
}

/* A subdirectory of @dir went: one link fewer, but "many" (1) and 2 stay. */
u32 ext2_dir_dec_links(const struct ext2_inode_info *dir)
{
	u32 n = le16_to_cpu(dir->ei_raw.i_links_count);

	return n > 2 ? n - 1 : n;
}

/* i_flags ("Inode Table"): what we cannot honour, with its name. */
static const struct {
	u32		flag;
	const char	*what;
} ext2_bad_flags[] = {
	{ 0x00000004, "compressed" },		/* EXT4_COMPR_FL */
	{ 0x00000200, "compressed" },		/* EXT4_COMPRBLK_FL */
	{ 0x00000800, "encrypted" },		/* EXT4_ENCRYPT_FL */
	{ 0x00100000, "verity-protected" },	/* EXT4_VERITY_FL */
	{ 0x00200000, "an attribute value inode" },	/* EXT4_EA_INODE_FL */
	{ 0x40000000, "case-insensitive" },	/* EXT4_CASEFOLD_FL */
};

/**
 * ext2_inode_flags_check - refuse an inode whose flags we cannot honour
 * Returns 0, -EOPNOTSUPP (the inode is fine, we cannot handle it; one
 * line naming why) or -EUCLEAN (a flag whose feature is off: corrupt).
 */
int ext2_inode_flags_check(struct ext2_inode_info *ei)
{
	struct ext2_fs *fs = ei->ei_fs;
	u32 flags = le32_to_cpu(ei->ei_raw.i_flags);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ext2_bad_flags); i++) {
		if (flags & ext2_bad_flags[i].flag) {
			pr_warn("ext2 (%s): inode %u is %s; not supported, refusing it\n",
				bdev_name(fs->fs_bdev), ei->ei_ino, ext2_bad_flags[i].what);
			return -EOPNOTSUPP;
		}
	}
	if (((flags & EXT4_EXTENTS_FL) &&
	     !ext2_incompat_feature(fs, EXT4_FEATURE_INCOMPAT_EXTENTS)) ||
	    ((flags & EXT4_INLINE_DATA_FL) &&
	     !ext2_incompat_feature(fs, EXT4_FEATURE_INCOMPAT_INLINE_DATA))) {
		ext2_error(fs, "iget", "inode %u: extent or inline-data flag without the feature",
			   ei->ei_ino);
		return -EUCLEAN;
	}
	return 0;
}
