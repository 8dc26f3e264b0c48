/*
 * ext4 directory metadata on disk: the checksum tail of a directory leaf
 * block, the hash tree (htree) index blocks and their tail, and the
 * in-inode extended attribute area that inline data lives in.
 * Layouts only, no code; all fields little-endian.
 *
 * Sources: ext4 wiki "Ext4 Disk Layout", sections "Linear (Classic)
 * Directories" (the dirent tail), "Hash Tree Directories" (dx_root,
 * dx_node, dx_entry, dx_tail, the hash versions), "Extended Attributes"
 * (in-inode header and entries) and "Inline Data".
 *
 * An htree directory keeps its index in blocks that read as ordinary
 * directory blocks to a linear walk: block 0 holds "." and ".." (whose
 * rec_len runs to the block end) followed by dx_root_info and the root's
 * entries; an interior node starts with one unused entry spanning the
 * whole block.  An index block's entries are {hash, block}: entry i covers
 * hashes from its hash up to the next entry's; the first entry's hash
 * field holds the limit and count of the block instead.
 */
#ifndef FS_EXT2_HTREE_FS_H
#define FS_EXT2_HTREE_FS_H

#include "kernel/compiler.h"
#include "lib/byteorder.h"

/* "Linear (Classic) Directories": the last 12 bytes of a leaf with metadata_csum. */
struct ext4_dirent_tail {
	le32	det_reserved_zero1;	/* looks like an unused entry: inode 0 */
	le16	det_rec_len;		/* 12 */
	u8	det_reserved_zero2;	/* name_len 0 */
	u8	det_reserved_ft;	/* EXT4_DIRENT_TAIL_FT */
	le32	det_checksum;		/* crc32c(inode seed, block up to this tail) */
};
_Static_assert(sizeof(struct ext4_dirent_tail) == 12, "dirent tail size");
#define EXT4_DIRENT_TAIL_FT	0xDE

/* "Hash Tree Directories": dx_root_info, after "." and ".." in block 0. */
struct dx_root_info {
	le32	reserved_zero;
	u8	hash_version;		/* DX_HASH_* (the signed variant) */
	u8	info_length;		/* 8 */
	u8	indirect_levels;	/* index levels below the root */
	u8	unused_flags;
};
_Static_assert(sizeof(struct dx_root_info) == 8, "dx_root_info size");

/* The first entry of an index block: limit and count over its hash field. */
struct dx_countlimit {
	le16	limit;			/* entries that fit in the block */
	le16	count;			/* entries in use, this one included */
};
_Static_assert(sizeof(struct dx_countlimit) == 4, "dx_countlimit size");

struct dx_entry {
	le32	hash;
	le32	block;			/* logical block of the directory */
};
_Static_assert(sizeof(struct dx_entry) == 8, "dx_entry size");

/* After the last possible entry of an index block with metadata_csum. */
struct dx_tail {
	le32	dt_reserved;
	le32	dt_checksum;		/* crc32c(seed, header + count entries, dx_tail) */
};
_Static_assert(sizeof(struct dx_tail) == 8, "dx_tail size");

/* Where the entries start: "." (12) + ".." header and name (12) + root info (8). */
#define DX_ROOT_ENTRIES		32
#define DX_ROOT_INFO		24
/* An interior node: an 8-byte unused dirent spanning the block, then entries. */
#define DX_NODE_ENTRIES		8

/* The hash versions; the unsigned ones are used when s_flags says so. */
#define DX_HASH_LEGACY			0
#define DX_HASH_HALF_MD4		1
#define DX_HASH_TEA			2
#define DX_HASH_LEGACY_UNSIGNED		3
#define DX_HASH_HALF_MD4_UNSIGNED	4
#define DX_HASH_TEA_UNSIGNED		5
#define DX_HASH_SIPHASH			6

/* s_flags bits ("The Super Block") */
#define EXT2_FLAGS_SIGNED_HASH		0x0001
#define EXT2_FLAGS_UNSIGNED_HASH	0x0002

/* Index levels below the root: 1 at most, 2 with large_dir. */
#define DX_MAX_LEVELS		2
#define DX_MAX_LEVELS_LARGEDIR	3

/*
 * "Extended Attributes": the in-inode area after i_extra_isize starts
 * with this magic, then entries; values are at e_value_offs from the first
 * entry.  Entries end at a zero 4-byte word.
 */
#define EXT4_XATTR_MAGIC	0xEA020000
struct ext4_xattr_entry {
	u8	e_name_len;
	u8	e_name_index;		/* EXT4_XATTR_INDEX_* prefix */
	le16	e_value_offs;
	le32	e_value_inum;		/* ea_inode: value in an inode (not supported) */
	le32	e_value_size;
	le32	e_hash;
	char	e_name[];		/* not terminated */
};
_Static_assert(sizeof(struct ext4_xattr_entry) == 16, "xattr entry size");
#define EXT4_XATTR_PAD		4
#define EXT4_XATTR_LEN(n)	(((n) + 16 + EXT4_XATTR_PAD - 1) & ~(EXT4_XATTR_PAD - 1))
#define EXT4_XATTR_INDEX_SYSTEM	7	/* "system." (inline data's "system.data") */

/* "Inline Data": i_block (60 bytes) then the value of "system.data". */
#define EXT4_INLINE_IBLOCK	60

#endif
