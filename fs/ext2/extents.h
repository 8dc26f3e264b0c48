/*
 * ext4 extent trees inside fs/ext2/: the calls between extents_node.c
 * (one node in memory: checks, search, insert, remove, split; no I/O,
 * built on the host for tests/unit/test_fs_ext4_extents.c), extents.c
 * (reading: the walk from the root in i_block to a leaf, block checks
 * and checksums, mapping) and extents_write.c (allocation, splits, depth
 * changes, conversion of uninitialized extents, truncate).  bmap.c,
 * inode.c and namei.c see only the calls declared in ext2.h.
 *
 * A node is a struct ext4_extent_header followed by eh_max 12-byte
 * entries whose first field (ee_block or ei_block) is the key; the
 * node helpers treat both kinds alike where only the key matters.
 */
#ifndef FS_EXT2_EXTENTS_H
#define FS_EXT2_EXTENTS_H

#include "fs/ext2/extents_fs.h"

#define EXT4_EXT_ENTRY		12u	/* bytes of an extent or an index entry */

static inline struct ext4_extent *ext4_ext_first(struct ext4_extent_header *h)
{
	return (struct ext4_extent *)(h + 1);
}

static inline struct ext4_extent_idx *ext4_idx_first(struct ext4_extent_header *h)
{
	return (struct ext4_extent_idx *)(h + 1);
}

static inline u32 ext4_entry_key(const struct ext4_extent_header *h, u32 i)
{
	const le32 *key = (const le32 *)((const u8 *)(h + 1) + i * EXT4_EXT_ENTRY);

	return le32_to_cpu(*key);
}

static inline u16 ext4_entries(const struct ext4_extent_header *h)
{
	return le16_to_cpu(h->eh_entries);
}

static inline bool ext4_ext_uninit(const struct ext4_extent *e)
{
	return le16_to_cpu(e->ee_len) > EXT4_EXT_INIT_MAX_LEN;
}

/* Blocks the extent maps, initialized or not. */
static inline u32 ext4_ext_len(const struct ext4_extent *e)
{
	u32 len = le16_to_cpu(e->ee_len);

	return len > EXT4_EXT_INIT_MAX_LEN ? len - EXT4_EXT_INIT_MAX_LEN : len;
}

static inline u32 ext4_ext_pblk(const struct ext4_extent *e)
{
	return le32_to_cpu(e->ee_start_lo);
}

static inline u32 ext4_ext_lblk(const struct ext4_extent *e)
{
	return le32_to_cpu(e->ee_block);
}

/* Fill @e; @len must be at most the longest extent of its kind. */
static inline void ext4_ext_set(struct ext4_extent *e, u32 lblk, u32 len, u32 pblk, bool uninit)
{
	e->ee_block = cpu_to_le32(lblk);
	e->ee_len = cpu_to_le16((u16)(uninit ? len + EXT4_EXT_INIT_MAX_LEN : len));
	e->ee_start_hi = 0;
	e->ee_start_lo = cpu_to_le32(pblk);
}

/* extents_node.c */
u32 ext4_node_capacity(u32 bytes);
void ext4_node_init(struct ext4_extent_header *h, u32 max, u32 depth);
int ext4_node_check(const struct ext4_extent_header *h, u32 cap, u32 depth, u32 lo, u32 hi,
		    const char **why);
u32 ext4_node_search(const struct ext4_extent_header *h, u32 lblk);
void ext4_node_insert(struct ext4_extent_header *h, u32 pos, const void *entry);
void ext4_node_remove(struct ext4_extent_header *h, u32 pos);
void ext4_node_move_tail(struct ext4_extent_header *from, u32 first,
			 struct ext4_extent_header *to);
u32 ext4_node_split_point(const struct ext4_extent_header *h, u32 pos);
bool ext4_ext_can_merge(const struct ext4_extent *left, const struct ext4_extent *right);
u32 ext4_node_tail_offset(const struct ext4_extent_header *h);

/*
 * The tree (extents.c, extents_write.c).  A walk holds the path from the
 * root (level 0, in i_block, no buffer) to a leaf (level w_depth): each
 * level's node, its block and buffer, the key range [p_lo, p_hi) its
 * parent gives it, and p_pos = ext4_node_search() of the block looked for.
 */
struct buffer_head;
struct ext2_inode_info;
struct ext2_map;

struct ext4_path {
	struct buffer_head		*p_bh;		/* NULL for the root */
	struct ext4_extent_header	*p_hdr;
	u32				p_blk;		/* 0 for the root */
	u32				p_lo, p_hi;
	u32				p_pos;
};

struct ext4_walk {
	struct ext4_path	w_path[EXT4_EXT_MAX_DEPTH + 1];
	u32			w_depth;	/* levels below the root that are loaded */
};

/* extents.c */
struct ext4_extent_header *ext4_root(struct ext2_inode_info *ei);
int ext4_ext_corrupt(struct ext2_inode_info *ei, u32 blk, const char *why);
void ext4_node_set_csum(const struct ext2_inode_info *ei, struct ext4_extent_header *h);
int ext4_check_root(struct ext2_inode_info *ei);
int ext4_walk_find(struct ext2_inode_info *ei, u32 lblk, struct ext4_walk *w);
void ext4_walk_release(struct ext4_walk *w);
u32 ext4_walk_child(const struct ext4_walk *w, u32 level);
void ext4_node_dirty(struct ext2_inode_info *ei, struct ext4_walk *w, u32 level);
int ext4_read_node(struct ext2_inode_info *ei, u32 blk, u32 depth, u32 lo, u32 hi,
		   struct buffer_head **out);

/* extents_write.c */
int ext4_ext_fill_hole(struct ext2_inode_info *ei, struct ext4_walk *w, u32 lblk, u32 n,
		       unsigned flags, struct ext2_map *map);
int ext4_ext_convert(struct ext2_inode_info *ei, struct ext4_walk *w, u32 lblk, u32 n,
		     unsigned flags, struct ext2_map *map);

#endif
