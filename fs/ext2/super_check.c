/*
 * ext2 on-disk superblock and group descriptors: where they lie and the
 * checks that stand between the disk and the mount.
 *
 * The disk is hostile input.  The mount (super.c) copies the superblock
 * into a local and calls these in order: ext2_check_geometry() checks
 * every geometry field against the others and against the device and
 * fills in the derived fields; ext2_check_features() sorts the feature
 * bits into understood, refused (unknown incompat: no mount) and
 * read-only (unknown ro_compat); ext2_load_groups() reads the group
 * descriptor table and bounds-checks every descriptor and the free
 * counts.  Each prints what is wrong, once, and returns -errno.
 *
 * Layout (ext2 doc "Superblock", "Block Group Descriptor Table"; ext4
 * wiki "sparse_super", "Meta Block Groups"): which groups hold superblock
 * backups, how many blocks open a group, and where each descriptor
 * block lies, with or without meta_bg.
 */
#include "fs/ext2/ext2.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

#define EXT2_INCOMPAT_SUPP	(EXT2_FEATURE_INCOMPAT_FILETYPE | \
				 EXT2_FEATURE_INCOMPAT_META_BG | \
				 EXT4_FEATURE_INCOMPAT_FLEX_BG | \
				 EXT4_FEATURE_INCOMPAT_LARGEDIR | /* ext4dir: local mask line */ \
				 EXT4_FEATURE_INCOMPAT_INLINE_DATA)
#define EXT2_RO_COMPAT_SUPP	(EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER | \
				 EXT2_FEATURE_RO_COMPAT_LARGE_FILE)

struct feature_name {
	u32		fn_bit;
	const char	*fn_name;
};

/* Names as e2fsprogs prints them (lib/e2p/feature.c). */
static const struct feature_name incompat_names[] = {
	{ EXT2_FEATURE_INCOMPAT_COMPRESSION,	"compression" },
	{ EXT2_FEATURE_INCOMPAT_FILETYPE,	"filetype" },
	{ EXT3_FEATURE_INCOMPAT_RECOVER,	"needs_recovery" },
	{ EXT3_FEATURE_INCOMPAT_JOURNAL_DEV,	"journal_dev" },
	{ EXT2_FEATURE_INCOMPAT_META_BG,	"meta_bg" },
	{ EXT4_FEATURE_INCOMPAT_EXTENTS,	"extent" },
	{ EXT4_FEATURE_INCOMPAT_64BIT,		"64bit" },
	{ EXT4_FEATURE_INCOMPAT_MMP,		"mmp" },
	{ EXT4_FEATURE_INCOMPAT_FLEX_BG,	"flex_bg" },
	{ EXT4_FEATURE_INCOMPAT_EA_INODE,	"ea_inode" },
	{ EXT4_FEATURE_INCOMPAT_DIRDATA,	"dirdata" },
	{ EXT4_FEATURE_INCOMPAT_CSUM_SEED,	"metadata_csum_seed" },
	{ EXT4_FEATURE_INCOMPAT_LARGEDIR,	"large_dir" },
	{ EXT4_FEATURE_INCOMPAT_INLINE_DATA,	"inline_data" },
	{ EXT4_FEATURE_INCOMPAT_ENCRYPT,	"encrypt" },
	{ EXT4_FEATURE_INCOMPAT_CASEFOLD,	"casefold" },
};

static const struct feature_name ro_compat_names[] = {
	{ EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER,	"sparse_super" },
	{ EXT2_FEATURE_RO_COMPAT_LARGE_FILE,	"large_file" },
	{ EXT2_FEATURE_RO_COMPAT_BTREE_DIR,	"btree_dir" },
	{ EXT4_FEATURE_RO_COMPAT_HUGE_FILE,	"huge_file" },
	{ EXT4_FEATURE_RO_COMPAT_GDT_CSUM,	"uninit_bg" },
	{ EXT4_FEATURE_RO_COMPAT_DIR_NLINK,	"dir_nlink" },
	{ EXT4_FEATURE_RO_COMPAT_EXTRA_ISIZE,	"extra_isize" },
	{ EXT4_FEATURE_RO_COMPAT_QUOTA,		"quota" },
	{ EXT4_FEATURE_RO_COMPAT_BIGALLOC,	"bigalloc" },
	{ EXT4_FEATURE_RO_COMPAT_METADATA_CSUM,	"metadata_csum" },
	{ EXT4_FEATURE_RO_COMPAT_READONLY,	"read-only" },
	{ EXT4_FEATURE_RO_COMPAT_PROJECT,	"project" },
	{ EXT4_FEATURE_RO_COMPAT_VERITY,	"verity" },
};

/* "extent 64bit 0x80000000" for the set bits of @bits into @buf. */
static const char *feature_list(char *buf, size_t size, u32 bits,
				const struct feature_name *names, size_t n)
{
	size_t len = 0, i;
	u32 bit;

	buf[0] = '\0';
	for (bit = 1; bit; bit <<= 1) {
		const char *name = NULL;

		if (!(bits & bit))
			continue;
		for (i = 0; i < n; i++)
			if (names[i].fn_bit == bit)
				name = names[i].fn_name;
		if (len < size) {
			if (name)
				len += snprintf(buf + len, size - len, "%s%s", len ? " " : "", name);
			else
				len += snprintf(buf + len, size - len, "%s0x%x", len ? " " : "", bit);
		}
	}
	return buf;
}

/* Does @group hold a superblock backup (doc: "sparse_super"; ext4 wiki: "sparse_super2")? */
bool ext2_group_has_super(const struct ext2_fs *fs, u32 group)
{
	const struct ext2_super_block *sb = &fs->fs_sb;
	u32 p;

	if (group == 0)
		return true;
	if (le32_to_cpu(sb->s_feature_compat) & EXT4_FEATURE_COMPAT_SPARSE_SUPER2)
		return group == le32_to_cpu(sb->s_backup_bgs[0]) ||
		       group == le32_to_cpu(sb->s_backup_bgs[1]);
	if (group == 1)
		return true;
	if (!(le32_to_cpu(sb->s_feature_ro_compat) & EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER))
		return true;
	if (!(group & 1))
		return false;
	for (p = 3; p <= 7; p += 2) {
		u64 x = p;

		while (x < group)
			x *= p;
		if (x == group)
			return true;
	}
	return false;
}

/*
 * How many blocks at the start of @group hold the superblock copy and the
 * descriptor table or its meta_bg share, with the reserved growth blocks
 * (as e2fsprogs' ext2fs_super_and_bgd_loc2 counts them).
 */
u32 ext2_group_head_blocks(const struct ext2_fs *fs, u32 group)
{
	u32 per = fs->fs_bsize / sizeof(struct ext2_group_desc), pos = group % per;
	bool super = ext2_group_has_super(fs, group);

	if (!fs->fs_meta_bg)
		return super ? 1 + fs->fs_gdt_blocks +
			       le16_to_cpu(fs->fs_sb.s_reserved_gdt_blocks) : 0;
	if (group / per < fs->fs_first_meta_bg)
		return super ? 1 + fs->fs_first_meta_bg : 0;
	/* a meta group keeps its descriptor block in its first, second and last group */
	return super + (pos == 0 || pos == 1 || pos == per - 1);
}

/* Where descriptor block @i lies (Linux's ext2 descriptor_loc). */
u32 ext2_desc_block(const struct ext2_fs *fs, u32 i)
{
	u32 per = fs->fs_bsize / sizeof(struct ext2_group_desc), group = i * per;

	if (!fs->fs_meta_bg || i < fs->fs_first_meta_bg)
		return fs->fs_first_data_block + 1 + i;
	return fs->fs_first_data_block + group * fs->fs_blocks_per_group +
	       ext2_group_has_super(fs, group);
}

/*
 * Check the superblock's geometry in @sb (a local copy) against itself and
 * a device of @devbytes, and fill the derived fields of @fs.  Returns 0,
 * -EOPNOTSUPP for legal blocks larger than a page (8-64 KiB), or -EINVAL,
 * after printing what is wrong.
 */
int ext2_check_geometry(struct ext2_fs *fs, const struct ext2_super_block *sb,
			       u64 devbytes, const char *dev)
{
	u32 log = le32_to_cpu(sb->s_log_block_size), bpg, ipg, groups, isize;
	const char *why = NULL;

	if (le16_to_cpu(sb->s_magic) != EXT2_SUPER_MAGIC) {
		pr_err("ext2 (%s): bad superblock magic 0x%04x\n", dev, le16_to_cpu(sb->s_magic));
		return -EINVAL;
	}
	if (le32_to_cpu(sb->s_rev_level) > EXT2_DYNAMIC_REV) {
		why = "unknown revision";
		goto bad;
	}
	if (log > EXT2_MAX_BLOCK_LOG - EXT2_MIN_BLOCK_LOG &&
	    log <= EXT2_LEGAL_BLOCK_LOG - EXT2_MIN_BLOCK_LOG) {
		pr_err("ext2 (%s): %u-byte blocks are not supported (at most %u)\n", dev,
		       1U << (EXT2_MIN_BLOCK_LOG + log), 1U << EXT2_MAX_BLOCK_LOG);
		return -EOPNOTSUPP;
	}
	if (log > EXT2_MAX_BLOCK_LOG - EXT2_MIN_BLOCK_LOG) {
		why = "block size";
		goto bad;
	}
	fs->fs_bshift = EXT2_MIN_BLOCK_LOG + log;
	fs->fs_bsize = 1U << fs->fs_bshift;
	fs->fs_apb = fs->fs_bsize / 4;
	fs->fs_apb_shift = fs->fs_bshift - 2;
	fs->fs_blocks_count = le32_to_cpu(sb->s_blocks_count);
	fs->fs_first_data_block = le32_to_cpu(sb->s_first_data_block);
	bpg = fs->fs_blocks_per_group = le32_to_cpu(sb->s_blocks_per_group);
	ipg = fs->fs_inodes_per_group = le32_to_cpu(sb->s_inodes_per_group);
	fs->fs_inodes_count = le32_to_cpu(sb->s_inodes_count);
	if (le32_to_cpu(sb->s_rev_level) == EXT2_GOOD_OLD_REV) {
		isize = EXT2_GOOD_OLD_INODE_SIZE;
		fs->fs_first_ino = EXT2_GOOD_OLD_FIRST_INO;
	} else {
		isize = le16_to_cpu(sb->s_inode_size);
		fs->fs_first_ino = le32_to_cpu(sb->s_first_ino);
	}
	fs->fs_inode_size = isize;
	if (fs->fs_first_data_block != (fs->fs_bsize == 1024 ? 1U : 0U)) {
		why = "first data block";
		goto bad;
	}
	if (fs->fs_blocks_count <= fs->fs_first_data_block + 1) {
		why = "block count";
		goto bad;
	}
	if ((u64)fs->fs_blocks_count << fs->fs_bshift > devbytes) {
		pr_err("ext2 (%s): the filesystem (%llu bytes) is larger than the device "
		       "(%llu bytes)\n", dev, (unsigned long long)fs->fs_blocks_count << fs->fs_bshift,
		       (unsigned long long)devbytes);
		return -EINVAL;
	}
	if (bpg == 0 || bpg > 8 * fs->fs_bsize || ipg == 0 || ipg > 8 * fs->fs_bsize) {
		why = "blocks or inodes per group";
		goto bad;
	}
	if (isize < EXT2_GOOD_OLD_INODE_SIZE || isize > fs->fs_bsize || !is_power_of_2(isize)) {
		why = "inode size";
		goto bad;
	}
	groups = (fs->fs_blocks_count - fs->fs_first_data_block + bpg - 1) / bpg;
	fs->fs_groups = groups;
	if ((u64)groups * ipg != fs->fs_inodes_count) {
		why = "inode count does not match the groups";
		goto bad;
	}
	if (fs->fs_first_ino < EXT2_GOOD_OLD_FIRST_INO || fs->fs_first_ino >= fs->fs_inodes_count) {
		why = "first inode";
		goto bad;
	}
	fs->fs_itable_blocks = (u32)DIV_ROUND_UP((u64)ipg * isize, fs->fs_bsize);
	fs->fs_gdt_blocks = (u32)DIV_ROUND_UP((u64)groups * sizeof(struct ext2_group_desc),
					      fs->fs_bsize);
	if (fs->fs_first_data_block + 1 + fs->fs_gdt_blocks >= fs->fs_blocks_count) {
		why = "group descriptors beyond the end";
		goto bad;
	}
	return 0;
bad:
	pr_err("ext2 (%s): impossible geometry in the superblock: %s\n", dev, why);
	return -EINVAL;
}

/*
 * The largest file: what triple indirection addresses, limited by i_blocks
 * (2^32 512-byte units, indirect blocks included) as Linux's
 * ext2_max_size() reasons, and by 2 GiB - 1 without large_file.
 */
u64 ext2_max_size(const struct ext2_fs *fs)
{
	u64 apb = fs->fs_apb, blocks, limit, meta;

	blocks = EXT2_NDIR_BLOCKS + apb + apb * apb + apb * apb * apb;
	meta = 1 + (1 + apb) + (1 + apb + apb * apb);
	limit = (((u64)1 << 32) - 1) >> (fs->fs_bshift - 9);
	if (limit > meta)
		limit -= meta;
	blocks = min(blocks, limit);
	return blocks << fs->fs_bshift;
}

int ext2_check_features(struct ext2_fs *fs, const char *dev, bool *force_ro)
{
	const struct ext2_super_block *sb = &fs->fs_sb;
	u32 incompat = 0, ro_compat = 0;
	char names[128];

	if (le32_to_cpu(sb->s_rev_level) >= EXT2_DYNAMIC_REV) {
		incompat = le32_to_cpu(sb->s_feature_incompat);
		ro_compat = le32_to_cpu(sb->s_feature_ro_compat);
	}
	/* needs_recovery is journal.c's to handle (replay, or refuse without a journal) */
	incompat &= ~EXT3_FEATURE_INCOMPAT_RECOVER;
	if (incompat & ~EXT2_INCOMPAT_SUPP) {
		pr_err("ext2 (%s): unsupported features: %s; refusing to mount\n", dev,
		       feature_list(names, sizeof(names), incompat & ~EXT2_INCOMPAT_SUPP,
				    incompat_names, ARRAY_SIZE(incompat_names)));
		return -EINVAL;
	}
	/* ext4dir: local gating until ext4grp's merges: inline data is read-only */
	if ((incompat & EXT4_FEATURE_INCOMPAT_INLINE_DATA) && !*force_ro) {
		pr_warn("ext2 (%s): inline_data is read-only; mounting read-only\n", dev);
		*force_ro = true;
	}
	if ((ro_compat & ~EXT2_RO_COMPAT_SUPP) && !*force_ro) {
		pr_warn("ext2 (%s): unsupported features: %s; mounting read-only\n", dev,
			feature_list(names, sizeof(names), ro_compat & ~EXT2_RO_COMPAT_SUPP,
				     ro_compat_names, ARRAY_SIZE(ro_compat_names)));
		*force_ro = true;
	}
	fs->fs_filetype = incompat & EXT2_FEATURE_INCOMPAT_FILETYPE;
	fs->fs_flex_bg = incompat & EXT4_FEATURE_INCOMPAT_FLEX_BG;
	fs->fs_meta_bg = incompat & EXT2_FEATURE_INCOMPAT_META_BG;
	fs->fs_csum = ro_compat & EXT4_FEATURE_RO_COMPAT_METADATA_CSUM;
	if (fs->fs_csum)
		fs->fs_csum_seed = (incompat & EXT4_FEATURE_INCOMPAT_CSUM_SEED) ?
			le32_to_cpu(sb->s_checksum_seed) :
			ext2_csum(~0u, sb->s_uuid, sizeof(sb->s_uuid));
	/* s_first_meta_bg past the table means every block follows the superblock */
	fs->fs_first_meta_bg = fs->fs_meta_bg ? min(le32_to_cpu(sb->s_first_meta_bg),
						    fs->fs_gdt_blocks) : fs->fs_gdt_blocks;
	return 0;
}

/* Load the descriptor table and check every descriptor's bounds. */
int ext2_load_groups(struct ext2_fs *fs, const char *dev)
{
	u32 per = fs->fs_bsize / sizeof(struct ext2_group_desc), i, g;
	u64 free_blocks = 0, free_inodes = 0;
	struct buffer_head *bh;

	fs->fs_gd = kcalloc(fs->fs_groups, sizeof(struct ext2_group_desc), GFP_KERNEL);
	if (!fs->fs_gd)
		return -ENOMEM;
	for (i = 0; i < fs->fs_gdt_blocks; i++) {
		u32 n = min(per, fs->fs_groups - i * per);

		bh = bread(fs->fs_bdev, ext2_desc_block(fs, i), fs->fs_bsize);
		if (IS_ERR(bh)) {
			pr_err("ext2 (%s): cannot read group descriptors: %s\n", dev,
			       errstr(PTR_ERR(bh)));
			return PTR_ERR(bh);
		}
		memcpy(&fs->fs_gd[i * per], bh->b_data, n * sizeof(struct ext2_group_desc));
		brelse(bh);
	}
	for (g = 0; g < fs->fs_groups; g++) {
		const struct ext2_group_desc *gd = &fs->fs_gd[g];
		u32 first = fs->fs_first_data_block + g * fs->fs_blocks_per_group;
		u32 last = min(first + fs->fs_blocks_per_group, fs->fs_blocks_count) - 1;
		u32 bb = le32_to_cpu(gd->bg_block_bitmap), ib = le32_to_cpu(gd->bg_inode_bitmap);
		u32 it = le32_to_cpu(gd->bg_inode_table);

		if (fs->fs_flex_bg) {
			first = fs->fs_first_data_block;
			last = fs->fs_blocks_count - 1;
		}
		if (bb < first || bb > last || ib < first || ib > last || it < first ||
		    (u64)it + fs->fs_itable_blocks - 1 > last ||
		    le16_to_cpu(gd->bg_free_blocks_count) > fs->fs_blocks_per_group ||
		    le16_to_cpu(gd->bg_free_inodes_count) > fs->fs_inodes_per_group ||
		    le16_to_cpu(gd->bg_used_dirs_count) > fs->fs_inodes_per_group) {
			pr_err("ext2 (%s): group descriptor %u is corrupt\n", dev, g);
			return -EINVAL;
		}
		free_blocks += le16_to_cpu(gd->bg_free_blocks_count);
		free_inodes += le16_to_cpu(gd->bg_free_inodes_count);
	}
	/* The descriptors are authoritative, as Linux's counters take them. */
	if (free_blocks > fs->fs_blocks_count || free_inodes > fs->fs_inodes_count) {
		pr_err("ext2 (%s): free counts larger than the filesystem\n", dev);
		return -EINVAL;
	}
	fs->fs_sb.s_free_blocks_count = cpu_to_le32((u32)free_blocks);
	fs->fs_sb.s_free_inodes_count = cpu_to_le32((u32)free_inodes);
	return 0;
}
