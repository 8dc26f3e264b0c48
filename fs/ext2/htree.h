/*
 * Between the files of the htree code (htree.c: checks, lookups,
 * checksums; htree_add.c: insertion and splits): the path from the root
 * to a leaf and accessors for index blocks.  On-disk layouts are in
 * htree_fs.h; the calls the rest of ext2 makes are in ext2.h.
 */
#ifndef FS_EXT2_HTREE_H
#define FS_EXT2_HTREE_H

#include "fs/ext2/ext2.h"
#include "fs/ext2/htree_fs.h"

/* One index block on the way from the root to a leaf. */
struct dx_frame {
	struct buffer_head	*f_bh;		/* referenced */
	u64			f_lblk;
	u32			f_off;		/* byte offset of its entries */
	u32			f_at;		/* the entry followed */
};

struct dx_path {
	struct dx_frame	p_frame[DX_MAX_LEVELS_LARGEDIR];
	u32		p_levels;	/* frames in use: indirect_levels + 1 */
	u32		p_hash;		/* the name's hash */
	unsigned	p_version;	/* DX_HASH_*, signedness applied */
	u32		p_seed[4];
};

static inline struct dx_entry *dx_entries(struct buffer_head *bh, u32 off)
{
	return (struct dx_entry *)(bh->b_data + off);
}

static inline struct dx_countlimit *dx_cl(struct buffer_head *bh, u32 off)
{
	return (struct dx_countlimit *)(bh->b_data + off);
}

static inline struct dx_root_info *dx_info(struct buffer_head *bh)
{
	return (struct dx_root_info *)(bh->b_data + DX_ROOT_INFO);
}

static inline u32 dx_count(struct buffer_head *bh, u32 off)
{
	return le16_to_cpu(dx_cl(bh, off)->count);
}

static inline void dx_set_count(struct buffer_head *bh, u32 off, u32 n)
{
	dx_cl(bh, off)->count = cpu_to_le16((u16)n);
}

u32 ext2_dx_limit(const struct ext2_fs *fs, bool root);
u32 ext2_dx_max_levels(const struct ext2_fs *fs);
int ext2_dx_probe(struct ext2_inode_info *dir, const char *name, size_t len, struct dx_path *p);
void ext2_dx_release(struct dx_path *p);
u64 ext2_dx_leaf(const struct dx_path *p);
bool ext2_dx_is_node(const struct ext2_inode_info *dir, struct buffer_head *bh, u64 lblk);
int ext2_dx_bad(struct ext2_inode_info *dir, u64 lblk, const char *why);

#endif
