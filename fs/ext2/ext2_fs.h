/*
 * ext2 on-disk format: superblock, block group descriptor, inode and
 * directory entry, with the feature bits and constants that go with them.
 * Hardware-style header: layouts only, no code.  All fields little-endian.
 *
 * Source: "The Second Extended File System" by Dave Poirier (the ext2 doc
 * of the e2fsprogs/nongnu project, sections "Superblock", "Block Group
 * Descriptor Table", "Inode Table", "Directories") and the ext4 wiki's
 * "Ext4 Disk Layout" for the fields ext3/ext4 added to the same structs.
 *
 * Layout of a filesystem: the superblock at byte 1024 (block 1 for 1 KiB
 * blocks, inside block 0 otherwise); the group descriptor table in the
 * block after the superblock's; then per group a block bitmap, an inode
 * bitmap and an inode table, wherever the descriptors say.  With
 * sparse_super, groups 0, 1 and powers of 3, 5 and 7 carry backup copies
 * of superblock and descriptors; with sparse_super2, only the (at most two)
 * groups s_backup_bgs names.
 */
#ifndef FS_EXT2_EXT2_FS_H
#define FS_EXT2_EXT2_FS_H

#include "kernel/compiler.h"
#include "lib/byteorder.h"

#define EXT2_SUPER_OFFSET	1024	/* bytes from the start of the device */
#define EXT2_SUPER_SIZE		1024
#define EXT2_SUPER_MAGIC	0xEF53
#define EXT2_SB_CHECKSUM_OFFSET	1020	/* s_checksum (metadata_csum), the last field */
#define EXT2_MIN_BLOCK_LOG	10	/* 1 KiB */
#define EXT2_MAX_BLOCK_LOG	12	/* 4 KiB: the most a 4 KiB page holds */
#define EXT2_LEGAL_BLOCK_LOG	16	/* 64 KiB: the most mke2fs makes */
#define EXT2_GOOD_OLD_REV	0
#define EXT2_DYNAMIC_REV	1
#define EXT2_GOOD_OLD_INODE_SIZE 128
#define EXT2_GOOD_OLD_FIRST_INO	11

/* Reserved inode numbers ("Defined Reserved Inodes") */
#define EXT2_BAD_INO		1
#define EXT2_ROOT_INO		2
#define EXT2_RESIZE_INO		7

/* Superblock, doc section "Superblock"; 1024 bytes at byte 1024. */
struct ext2_super_block {
	le32	s_inodes_count;
	le32	s_blocks_count;
	le32	s_r_blocks_count;
	le32	s_free_blocks_count;
	le32	s_free_inodes_count;
	le32	s_first_data_block;
	le32	s_log_block_size;	/* block size = 1024 << this */
	le32	s_log_frag_size;
	le32	s_blocks_per_group;
	le32	s_frags_per_group;
	le32	s_inodes_per_group;
	le32	s_mtime;
	le32	s_wtime;
	le16	s_mnt_count;
	le16	s_max_mnt_count;	/* signed on disk; -1: no limit */
	le16	s_magic;
	le16	s_state;
#define EXT2_VALID_FS		0x0001	/* cleanly unmounted */
#define EXT2_ERROR_FS		0x0002	/* errors detected */
	le16	s_errors;
	le16	s_minor_rev_level;
	le32	s_lastcheck;
	le32	s_checkinterval;
	le32	s_creator_os;
	le32	s_rev_level;
	le16	s_def_resuid;
	le16	s_def_resgid;
	/* EXT2_DYNAMIC_REV only from here */
	le32	s_first_ino;
	le16	s_inode_size;
	le16	s_block_group_nr;
	le32	s_feature_compat;
#define EXT2_FEATURE_COMPAT_DIR_PREALLOC	0x0001
#define EXT2_FEATURE_COMPAT_IMAGIC_INODES	0x0002
#define EXT3_FEATURE_COMPAT_HAS_JOURNAL		0x0004
#define EXT2_FEATURE_COMPAT_EXT_ATTR		0x0008
#define EXT2_FEATURE_COMPAT_RESIZE_INODE	0x0010
#define EXT2_FEATURE_COMPAT_DIR_INDEX		0x0020
#define EXT4_FEATURE_COMPAT_SPARSE_SUPER2	0x0200	/* backups only in s_backup_bgs */
	le32	s_feature_incompat;
#define EXT2_FEATURE_INCOMPAT_COMPRESSION	0x0001
#define EXT2_FEATURE_INCOMPAT_FILETYPE		0x0002
#define EXT3_FEATURE_INCOMPAT_RECOVER		0x0004
#define EXT3_FEATURE_INCOMPAT_JOURNAL_DEV	0x0008
#define EXT2_FEATURE_INCOMPAT_META_BG		0x0010
#define EXT4_FEATURE_INCOMPAT_EXTENTS		0x0040
#define EXT4_FEATURE_INCOMPAT_64BIT		0x0080
#define EXT4_FEATURE_INCOMPAT_MMP		0x0100
#define EXT4_FEATURE_INCOMPAT_FLEX_BG		0x0200
#define EXT4_FEATURE_INCOMPAT_EA_INODE		0x0400
#define EXT4_FEATURE_INCOMPAT_DIRDATA		0x1000
#define EXT4_FEATURE_INCOMPAT_CSUM_SEED		0x2000
#define EXT4_FEATURE_INCOMPAT_LARGEDIR		0x4000
#define EXT4_FEATURE_INCOMPAT_INLINE_DATA	0x8000
#define EXT4_FEATURE_INCOMPAT_ENCRYPT		0x10000
#define EXT4_FEATURE_INCOMPAT_CASEFOLD		0x20000
	le32	s_feature_ro_compat;
#define EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER	0x0001
#define EXT2_FEATURE_RO_COMPAT_LARGE_FILE	0x0002
#define EXT2_FEATURE_RO_COMPAT_BTREE_DIR	0x0004
#define EXT4_FEATURE_RO_COMPAT_HUGE_FILE	0x0008
#define EXT4_FEATURE_RO_COMPAT_GDT_CSUM		0x0010
#define EXT4_FEATURE_RO_COMPAT_DIR_NLINK	0x0020
#define EXT4_FEATURE_RO_COMPAT_EXTRA_ISIZE	0x0040
#define EXT4_FEATURE_RO_COMPAT_QUOTA		0x0100
#define EXT4_FEATURE_RO_COMPAT_BIGALLOC		0x0200
#define EXT4_FEATURE_RO_COMPAT_METADATA_CSUM	0x0400
#define EXT4_FEATURE_RO_COMPAT_READONLY		0x1000
#define EXT4_FEATURE_RO_COMPAT_PROJECT		0x2000
#define EXT4_FEATURE_RO_COMPAT_VERITY		0x8000
#define EXT4_FEATURE_RO_COMPAT_ORPHAN_PRESENT	0x10000	/* the orphan file has entries */
	u8	s_uuid[16];
	char	s_volume_name[16];
	char	s_last_mounted[64];
	le32	s_algorithm_usage_bitmap;
	u8	s_prealloc_blocks;
	u8	s_prealloc_dir_blocks;
	le16	s_reserved_gdt_blocks;
	u8	s_journal_uuid[16];
	le32	s_journal_inum;
	le32	s_journal_dev;
	le32	s_last_orphan;
	le32	s_hash_seed[4];
	u8	s_def_hash_version;
	u8	s_jnl_backup_type;
	le16	s_desc_size;
	le32	s_default_mount_opts;
	le32	s_first_meta_bg;
	le32	s_mkfs_time;
	le32	s_jnl_blocks[17];
	/* ext4 from here (64bit, flex_bg, metadata_csum, ...) */
	le32	s_blocks_count_hi;
	le32	s_r_blocks_count_hi;
	le32	s_free_blocks_count_hi;
	le16	s_min_extra_isize;
	le16	s_want_extra_isize;
	le32	s_flags;
	le16	s_raid_stride;
	le16	s_mmp_interval;
	le64	s_mmp_block;
	le32	s_raid_stripe_width;
	u8	s_log_groups_per_flex;
	u8	s_checksum_type;		/* 1: crc32c */
	le16	s_reserved_pad;
	le64	s_kbytes_written;
	u8	s_snapshot_and_errors[0x200 - 0x180];	/* snapshot and error records */
	u8	s_mount_opts[64];
	le32	s_usr_quota_inum;
	le32	s_grp_quota_inum;
	le32	s_overhead_blocks;
	le32	s_backup_bgs[2];		/* sparse_super2: the groups with backups */
	u8	s_encrypt_algos[4];
	u8	s_encrypt_pw_salt[16];
	le32	s_lpf_ino;
	le32	s_prj_quota_inum;
	le32	s_checksum_seed;		/* with INCOMPAT_CSUM_SEED */
	u8	s_reserved_628[EXT2_SB_CHECKSUM_OFFSET - 628];
	le32	s_checksum;			/* crc32c(~0, bytes before it) */
};
_Static_assert(sizeof(struct ext2_super_block) == EXT2_SUPER_SIZE, "superblock size");
_Static_assert(offsetof(struct ext2_super_block, s_magic) == 56, "s_magic");
_Static_assert(offsetof(struct ext2_super_block, s_rev_level) == 76, "s_rev_level");
_Static_assert(offsetof(struct ext2_super_block, s_inode_size) == 88, "s_inode_size");
_Static_assert(offsetof(struct ext2_super_block, s_feature_ro_compat) == 100, "features");
_Static_assert(offsetof(struct ext2_super_block, s_uuid) == 104, "s_uuid");
_Static_assert(offsetof(struct ext2_super_block, s_volume_name) == 120, "s_volume_name");
_Static_assert(offsetof(struct ext2_super_block, s_last_mounted) == 136, "s_last_mounted");
_Static_assert(offsetof(struct ext2_super_block, s_reserved_gdt_blocks) == 206, "s_reserved_gdt");
_Static_assert(offsetof(struct ext2_super_block, s_desc_size) == 254, "s_desc_size");
_Static_assert(offsetof(struct ext2_super_block, s_jnl_blocks) == 268, "s_jnl_blocks");
_Static_assert(offsetof(struct ext2_super_block, s_blocks_count_hi) == 336, "s_blocks_count_hi");
_Static_assert(offsetof(struct ext2_super_block, s_log_groups_per_flex) == 0x174, "flex");
_Static_assert(offsetof(struct ext2_super_block, s_mount_opts) == 0x200, "s_mount_opts");
_Static_assert(offsetof(struct ext2_super_block, s_backup_bgs) == 588, "s_backup_bgs");
_Static_assert(offsetof(struct ext2_super_block, s_checksum_seed) == 0x270, "s_checksum_seed");
_Static_assert(offsetof(struct ext2_super_block, s_checksum) == EXT2_SB_CHECKSUM_OFFSET,
	       "s_checksum");

/*
 * Block group descriptor, doc section "Block Group Descriptor Table" and
 * ext4 wiki "Block Group Descriptors".  On disk each one is s_desc_size
 * bytes: 32 (the first half below) without the 64bit feature, 64 or more
 * with it.  In core every descriptor is this whole struct; the hi halves
 * stay zero for 32-byte descriptors.
 */
#define EXT2_MIN_DESC_SIZE	32
#define EXT4_MIN_DESC_SIZE_64BIT 64
#define EXT4_MAX_DESC_SIZE	1024	/* Linux's bound: EXT4_MIN_BLOCK_SIZE */
struct ext2_group_desc {
	le32	bg_block_bitmap;
	le32	bg_inode_bitmap;
	le32	bg_inode_table;
	le16	bg_free_blocks_count;
	le16	bg_free_inodes_count;
	le16	bg_used_dirs_count;
	le16	bg_flags;		/* ext4: meaningful only with GDT_CSUM or METADATA_CSUM */
#define EXT4_BG_INODE_UNINIT	0x0001	/* inode bitmap and table not initialised */
#define EXT4_BG_BLOCK_UNINIT	0x0002	/* block bitmap not initialised */
#define EXT4_BG_INODE_ZEROED	0x0004	/* inode table zeroed */
	le32	bg_exclude_bitmap_lo;
	le16	bg_block_bitmap_csum_lo;	/* metadata_csum: crc32c of the bitmap, low 16 */
	le16	bg_inode_bitmap_csum_lo;
	le16	bg_itable_unused;	/* inodes never used at the end of the table */
	le16	bg_checksum;		/* crc16 (gdt_csum) or crc32c & 0xFFFF */
	/* s_desc_size >= 64 (64bit) from here */
	le32	bg_block_bitmap_hi;
	le32	bg_inode_bitmap_hi;
	le32	bg_inode_table_hi;
	le16	bg_free_blocks_count_hi;
	le16	bg_free_inodes_count_hi;
	le16	bg_used_dirs_count_hi;
	le16	bg_itable_unused_hi;
	le32	bg_exclude_bitmap_hi;
	le16	bg_block_bitmap_csum_hi;
	le16	bg_inode_bitmap_csum_hi;
	le32	bg_reserved_60;
};
_Static_assert(sizeof(struct ext2_group_desc) == EXT4_MIN_DESC_SIZE_64BIT, "descriptor size");
_Static_assert(offsetof(struct ext2_group_desc, bg_free_blocks_count) == 12, "bg_free_blocks");
_Static_assert(offsetof(struct ext2_group_desc, bg_used_dirs_count) == 16, "bg_used_dirs");
_Static_assert(offsetof(struct ext2_group_desc, bg_flags) == 0x12, "bg_flags");
_Static_assert(offsetof(struct ext2_group_desc, bg_block_bitmap_csum_lo) == 0x18, "bbitmap csum");
_Static_assert(offsetof(struct ext2_group_desc, bg_itable_unused) == 0x1C, "bg_itable_unused");
_Static_assert(offsetof(struct ext2_group_desc, bg_checksum) == 0x1E, "bg_checksum");
_Static_assert(offsetof(struct ext2_group_desc, bg_block_bitmap_hi) == EXT2_MIN_DESC_SIZE,
	       "the 64bit half");
_Static_assert(offsetof(struct ext2_group_desc, bg_free_blocks_count_hi) == 0x2C, "free hi");
_Static_assert(offsetof(struct ext2_group_desc, bg_itable_unused_hi) == 0x32, "unused hi");
_Static_assert(offsetof(struct ext2_group_desc, bg_block_bitmap_csum_hi) == 0x38, "csum hi");
_Static_assert(offsetof(struct ext2_group_desc, bg_inode_bitmap_csum_hi) == 0x3A, "csum hi");

/* Block pointers in i_block[], doc section "i_block" */
#define EXT2_NDIR_BLOCKS	12
#define EXT2_IND_BLOCK		12
#define EXT2_DIND_BLOCK		13
#define EXT2_TIND_BLOCK		14
#define EXT2_N_BLOCKS		15

/* Inode, doc section "Inode Table"; the first 128 bytes of each s_inode_size slot. */
struct ext2_inode {
	le16	i_mode;
	le16	i_uid;
	le32	i_size;			/* low 32 bits */
	le32	i_atime;
	le32	i_ctime;
	le32	i_mtime;
	le32	i_dtime;		/* deletion time; 0 for a live inode */
	le16	i_gid;
	le16	i_links_count;
	le32	i_blocks;		/* 512-byte units, metadata blocks included */
	le32	i_flags;
#define EXT2_INDEX_FL		0x00001000	/* directory has an htree index */
#define EXT4_EXTENTS_FL		0x00080000
#define EXT4_INLINE_DATA_FL	0x10000000
	le32	i_osd1;
	le32	i_block[EXT2_N_BLOCKS];
	le32	i_generation;
	le32	i_file_acl;
	le32	i_size_high;		/* regular files with large_file; i_dir_acl in rev 0 */
	le32	i_faddr;
	le16	i_blocks_hi;		/* osd2 (Linux): huge_file only */
	le16	i_file_acl_high;
	le16	i_uid_high;
	le16	i_gid_high;
	le16	i_checksum_lo;
	le16	i_reserved_126;
	/* Large inodes (s_inode_size > 128) continue here */
	le16	i_extra_isize;
	le16	i_checksum_hi;
	le32	i_ctime_extra;
	le32	i_mtime_extra;
	le32	i_atime_extra;
	le32	i_crtime;
	le32	i_crtime_extra;
	le32	i_version_hi;
	le32	i_projid;
};
#define EXT2_INODE_EXTRA_ISIZE	32	/* bytes of the struct past 128 */
_Static_assert(sizeof(struct ext2_inode) == EXT2_GOOD_OLD_INODE_SIZE + EXT2_INODE_EXTRA_ISIZE,
	       "inode size");
_Static_assert(offsetof(struct ext2_inode, i_links_count) == 26, "i_links_count");
_Static_assert(offsetof(struct ext2_inode, i_block) == 40, "i_block");
_Static_assert(offsetof(struct ext2_inode, i_size_high) == 108, "i_size_high");
_Static_assert(offsetof(struct ext2_inode, i_extra_isize) == 128, "i_extra_isize");
_Static_assert(offsetof(struct ext2_inode, i_crtime) == 144, "i_crtime");

/* i_mode: file type and permissions (POSIX values) */
#define EXT2_S_IFMT	0xF000
#define EXT2_S_IFSOCK	0xC000
#define EXT2_S_IFLNK	0xA000
#define EXT2_S_IFREG	0x8000
#define EXT2_S_IFBLK	0x6000
#define EXT2_S_IFDIR	0x4000
#define EXT2_S_IFCHR	0x2000
#define EXT2_S_IFIFO	0x1000

/* A symlink target shorter than this lives in i_block itself (a fast symlink). */
#define EXT2_FAST_SYMLINK_MAX	(EXT2_N_BLOCKS * 4)
#define EXT2_LINK_MAX		32000	/* the most links ext2 allows one inode */
#define EXT4_LINK_MAX		65000	/* and ext4; with dir_nlink a directory past it counts 1 */

/*
 * Directory entry, doc section "Linked Directory Entry": 8 bytes of header,
 * then the name, padded so rec_len is a multiple of 4.  Entries tile the
 * block exactly; inode 0 marks an unused one.  Without the filetype
 * feature, name_len is 16 bits and file_type does not exist.
 */
struct ext2_dir_entry {
	le32	inode;
	le16	rec_len;
	u8	name_len;
	u8	file_type;
	char	name[];			/* not terminated */
};
_Static_assert(sizeof(struct ext2_dir_entry) == 8, "dirent header");
_Static_assert(offsetof(struct ext2_dir_entry, rec_len) == 4, "rec_len");

#define EXT2_NAME_LEN		255
#define EXT2_DIR_PAD		4
#define EXT2_DIR_REC_LEN(n)	(((n) + 8 + EXT2_DIR_PAD - 1) & ~(EXT2_DIR_PAD - 1))

/* file_type values, doc section "Defined Inode File Type Values" */
#define EXT2_FT_UNKNOWN		0
#define EXT2_FT_REG_FILE	1
#define EXT2_FT_DIR		2
#define EXT2_FT_CHRDEV		3
#define EXT2_FT_BLKDEV		4
#define EXT2_FT_FIFO		5
#define EXT2_FT_SOCK		6
#define EXT2_FT_SYMLINK		7
#define EXT2_FT_MAX		8

#endif
