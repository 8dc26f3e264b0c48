/*
 * ext4 extent tree, on-disk format (ext4 wiki "Ext4 Disk Layout", section
 * "Extent Tree").  Layouts only, no code.  All fields little-endian.
 *
 * An inode with EXT4_EXTENTS_FL keeps in its 60-byte i_block a node of a
 * B+tree keyed by logical block: a header and up to four entries.  A node
 * of depth 0 is a leaf of struct ext4_extent (a run of up to 32768
 * logical blocks mapped to contiguous disk blocks); a node of depth d > 0
 * holds struct ext4_extent_idx entries pointing to whole blocks that are
 * nodes of depth d - 1.  Entries are sorted by logical block; an index's
 * ei_block is the first logical block its subtree maps.  A tree block has
 * the header, eh_max entries, and with metadata_csum a struct
 * ext4_extent_tail right after the eh_max'th entry (section "Checksums":
 * crc32c(inode seed, block up to the tail)).
 *
 * ee_len above EXT4_EXT_INIT_MAX_LEN marks an uninitialized extent of
 * ee_len - EXT4_EXT_INIT_MAX_LEN blocks: allocated, read as zeroes.
 */
#ifndef FS_EXT2_EXTENTS_FS_H
#define FS_EXT2_EXTENTS_FS_H

#include "kernel/compiler.h"
#include "lib/byteorder.h"

#define EXT4_EXT_MAGIC		0xF30A
#define EXT4_EXT_INIT_MAX_LEN	32768u		/* longest initialized extent */
#define EXT4_EXT_UNINIT_MAX_LEN	32767u		/* longest uninitialized extent */
#define EXT4_EXT_MAX_DEPTH	5		/* Linux's bound; 4 levels already map 2^32 blocks */
#define EXT4_EXT_ROOT_MAX	4		/* entries in i_block after the header */
#define EXT4_EXT_MAX_LBLK	0xFFFFFFFFu	/* logical blocks below this (2^32 - 1 of them) */

struct ext4_extent_header {
	le16	eh_magic;	/* EXT4_EXT_MAGIC */
	le16	eh_entries;	/* valid entries that follow */
	le16	eh_max;		/* capacity of the node in entries */
	le16	eh_depth;	/* 0: leaf; else levels of index below */
	le32	eh_generation;	/* unused by Linux */
};

struct ext4_extent_idx {
	le32	ei_block;	/* first logical block of the subtree */
	le32	ei_leaf_lo;	/* the child node's block */
	le16	ei_leaf_hi;	/* high 16 bits: 0 here (u32 block numbers) */
	le16	ei_unused;
};

struct ext4_extent {
	le32	ee_block;	/* first logical block */
	le16	ee_len;		/* blocks; above 32768: uninitialized, len - 32768 */
	le16	ee_start_hi;	/* high 16 bits of the first disk block: 0 here */
	le32	ee_start_lo;	/* first disk block */
};

struct ext4_extent_tail {
	le32	et_checksum;	/* crc32c(inode seed, block up to here) */
};

_Static_assert(sizeof(struct ext4_extent_header) == 12, "extent header size");
_Static_assert(sizeof(struct ext4_extent_idx) == 12, "extent index size");
_Static_assert(sizeof(struct ext4_extent) == 12, "extent size");
_Static_assert(sizeof(struct ext4_extent_tail) == 4, "extent tail size");
_Static_assert(offsetof(struct ext4_extent_header, eh_depth) == 6, "eh_depth");
_Static_assert(offsetof(struct ext4_extent_idx, ei_leaf_hi) == 8, "ei_leaf_hi");
_Static_assert(offsetof(struct ext4_extent, ee_start_hi) == 6, "ee_start_hi");
_Static_assert(offsetof(struct ext4_extent, ee_start_lo) == 8, "ee_start_lo");
_Static_assert(sizeof(struct ext4_extent_header) + EXT4_EXT_ROOT_MAX * sizeof(struct ext4_extent)
	       == 60, "the root fills i_block");

#endif
