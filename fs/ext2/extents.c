/*
 * ext4 extent trees, reading (ext4 wiki "Extent Tree"): the walk from the
 * root node in i_block down to the leaf that maps a logical block, and
 * ext4_ext_map(), the extent flavour of ext2_map_blocks() (bmap.c sends
 * every inode with EXT4_EXTENTS_FL here).
 *
 * The disk is hostile: the walk is bounded (depth <= EXT4_EXT_MAX_DEPTH,
 * and each level must be one less than its parent's), and every node it
 * reaches passes ext4_node_check() (magic, counts, capacity, sorted and
 * disjoint keys inside the parent's range), its checksum with
 * metadata_csum (crc32c(inode seed, block up to the ext4_extent_tail),
 * section "Checksums"), and for each child pointer and extent a check
 * that the blocks lie inside the filesystem and outside its metadata
 * (ext2_data_run).  A failing node is reported once with the inode and
 * the block and fails the access with -EUCLEAN; the rest of the
 * filesystem stays usable.
 *
 * Uninitialized extents read as holes (zeroes); a write into one goes to
 * extents_write.c, which converts the blocks written.  Block numbers are
 * u32: a high half that is not 0 is refused as corruption.
 */
#include "fs/ext2/ext2.h"
#include "fs/ext2/extents.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/string.h"

struct ext4_extent_header *ext4_root(struct ext2_inode_info *ei)
{
	return (struct ext4_extent_header *)ei->ei_raw.i_block;
}

bool ext4_has_extents(const struct ext2_fs *fs)
{
	return le32_to_cpu(fs->fs_sb.s_feature_incompat) & EXT4_FEATURE_INCOMPAT_EXTENTS;
}

bool ext4_uses_extents(const struct ext2_inode_info *ei)
{
	return le32_to_cpu(ei->ei_raw.i_flags) & EXT4_EXTENTS_FL;
}

/**
 * ext4_ext_new - give new inode @ei an empty extent tree
 * Does so only when the filesystem has the extent feature; the caller
 * calls it for regular files, directories and slow symlinks before their
 * first block is mapped.
 */
void ext4_ext_new(struct ext2_inode_info *ei)
{
	struct ext4_extent_header *root = ext4_root(ei);

	if (!ext4_has_extents(ei->ei_fs))
		return;
	memset(ei->ei_raw.i_block, 0, sizeof(ei->ei_raw.i_block));
	ext4_node_init(root, EXT4_EXT_ROOT_MAX, 0);
	ei->ei_raw.i_flags = cpu_to_le32(le32_to_cpu(ei->ei_raw.i_flags) | EXT4_EXTENTS_FL);
	ext2_mark_dirty(ei);
}

int ext4_ext_corrupt(struct ext2_inode_info *ei, u32 blk, const char *why)
{
	if (blk)
		ext2_error(ei->ei_fs, "extents", "inode %u: tree block %u: %s", ei->ei_ino, blk, why);
	else
		ext2_error(ei->ei_fs, "extents", "inode %u: root in i_block: %s", ei->ei_ino, why);
	return -EUCLEAN;
}

/* crc32c of tree block @h up to its tail (section "Checksums"). */
static u32 ext4_block_csum(const struct ext2_inode_info *ei, const struct ext4_extent_header *h)
{
	return ext2_csum(ei->ei_csum_seed, h, ext4_node_tail_offset(h));
}

/* Set the checksum of tree block @h (checked by the reader: the tail fits). */
void ext4_node_set_csum(const struct ext2_inode_info *ei, struct ext4_extent_header *h)
{
	struct ext4_extent_tail *t;

	if (!ei->ei_fs->fs_csum)
		return;
	t = (struct ext4_extent_tail *)((u8 *)h + ext4_node_tail_offset(h));
	t->et_checksum = cpu_to_le32(ext4_block_csum(ei, h));
}

/*
 * Check node @h of the walk at @level (block @blk, 0 for the root): the
 * node itself, the checksum of a tree block and the disk blocks its
 * entries name.  0 or -EUCLEAN (reported).
 */
static int ext4_check_level(struct ext2_inode_info *ei, struct ext4_extent_header *h, u32 blk,
			    u32 depth, u32 lo, u32 hi)
{
	struct ext2_fs *fs = ei->ei_fs;
	u32 cap = blk ? ext4_node_capacity(fs->fs_bsize) : EXT4_EXT_ROOT_MAX, i;
	const struct ext4_extent_tail *t;
	const char *why;

	if (ext4_node_check(h, cap, depth, lo, hi, &why))
		return ext4_ext_corrupt(ei, blk, why);
	if (blk && fs->fs_csum) {
		t = (const struct ext4_extent_tail *)((const u8 *)h + ext4_node_tail_offset(h));
		if (le32_to_cpu(t->et_checksum) != ext4_block_csum(ei, h))
			return ext4_ext_corrupt(ei, blk, "checksum mismatch");
	}
	for (i = 0; i < ext4_entries(h); i++) {
		if (depth) {
			u32 leaf = le32_to_cpu(ext4_idx_first(h)[i].ei_leaf_lo);

			if (!ext2_data_run(fs, leaf, 1))
				return ext4_ext_corrupt(ei, blk, "child block out of range or metadata");
		} else {
			const struct ext4_extent *e = &ext4_ext_first(h)[i];

			if (ext2_data_run(fs, ext4_ext_pblk(e), ext4_ext_len(e)) != ext4_ext_len(e))
				return ext4_ext_corrupt(ei, blk, "extent out of range or on metadata");
		}
	}
	return 0;
}

/**
 * ext4_read_node - read and check tree block @blk, a node at @depth with
 * keys in [@lo, @hi)
 * Returns 0 with the buffer in *out, -EUCLEAN (reported) or -EIO.
 */
int ext4_read_node(struct ext2_inode_info *ei, u32 blk, u32 depth, u32 lo, u32 hi,
		   struct buffer_head **out)
{
	struct buffer_head *bh;
	int err;

	if (!ext2_data_run(ei->ei_fs, blk, 1))
		return ext4_ext_corrupt(ei, blk, "block out of range or metadata");
	bh = ext2_bread(ei->ei_fs, blk);
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	err = ext4_check_level(ei, (struct ext4_extent_header *)bh->b_data, blk, depth, lo, hi);
	if (err) {
		brelse(bh);
		return err;
	}
	*out = bh;
	return 0;
}

/* Check the root node in i_block.  0 or -EUCLEAN (reported). */
int ext4_check_root(struct ext2_inode_info *ei)
{
	struct ext4_extent_header *h = ext4_root(ei);

	if (le16_to_cpu(h->eh_depth) > EXT4_EXT_MAX_DEPTH)
		return ext4_ext_corrupt(ei, 0, "tree deeper than 5");
	return ext4_check_level(ei, h, 0, le16_to_cpu(h->eh_depth), 0, EXT4_EXT_MAX_LBLK);
}

void ext4_walk_release(struct ext4_walk *w)
{
	u32 i;

	for (i = 0; i <= w->w_depth; i++) {
		brelse(w->w_path[i].p_bh);
		w->w_path[i].p_bh = NULL;
	}
}

/**
 * ext4_walk_find - the path from the root of @ei's tree to the leaf for @lblk
 * Every node on it is checked.  At each level p_pos is how many entries
 * have keys <= @lblk (ext4_node_search); an index level descends into
 * the entry before that (the first if none).  Release with
 * ext4_walk_release() whatever it returns.  0, -EUCLEAN or -EIO.
 */
int ext4_walk_find(struct ext2_inode_info *ei, u32 lblk, struct ext4_walk *w)
{
	struct ext4_extent_header *h = ext4_root(ei);
	struct buffer_head *bh;
	u32 level, depth, lo = 0, hi = EXT4_EXT_MAX_LBLK, blk = 0, child;
	int err;

	memset(w, 0, sizeof(*w));
	depth = le16_to_cpu(h->eh_depth);
	if (depth > EXT4_EXT_MAX_DEPTH)
		return ext4_ext_corrupt(ei, 0, "tree deeper than 5");
	for (level = 0;; level++) {
		struct ext4_path *p = &w->w_path[level];

		err = ext4_check_level(ei, h, blk, depth - level, lo, hi);
		if (err)
			return err;
		p->p_hdr = h;
		p->p_blk = blk;
		p->p_lo = lo;
		p->p_hi = hi;
		p->p_pos = ext4_node_search(h, lblk);
		w->w_depth = level;
		if (level == depth)
			return 0;
		if (!ext4_entries(h))
			return ext4_ext_corrupt(ei, blk, "empty index node");
		child = p->p_pos ? p->p_pos - 1 : 0;
		lo = ext4_entry_key(h, child);
		if (child + 1 < ext4_entries(h))
			hi = ext4_entry_key(h, child + 1);
		blk = le32_to_cpu(ext4_idx_first(h)[child].ei_leaf_lo);
		bh = ext2_bread(ei->ei_fs, blk);
		if (IS_ERR(bh))
			return PTR_ERR(bh);
		w->w_path[level + 1].p_bh = bh;
		w->w_depth = level + 1;
		h = (struct ext4_extent_header *)bh->b_data;
	}
}

/* The child of index level @level that the walk followed. */
u32 ext4_walk_child(const struct ext4_walk *w, u32 level)
{
	u32 pos = w->w_path[level].p_pos;

	return pos ? pos - 1 : 0;
}

/**
 * ext4_node_dirty - node @level of walk @w was changed: the inode for the
 * root, else the block (checksum first) into the journal or dirty.
 */
void ext4_node_dirty(struct ext2_inode_info *ei, struct ext4_walk *w, u32 level)
{
	struct ext4_path *p = &w->w_path[level];

	if (!p->p_bh) {
		ext2_mark_dirty(ei);
		return;
	}
	ext4_node_set_csum(ei, p->p_hdr);
	ext2_dirty_meta(ei->ei_fs, p->p_bh);
}

/**
 * ext4_ext_map - ext2_map_blocks() for an inode with an extent tree
 * Same contract (see bmap.c): a run inside one extent, or a hole up to
 * the next extent; uninitialized extents read as holes.  With
 * EXT2_MAP_CREATE a hole is allocated and a run of an uninitialized
 * extent converted (m_new: the caller must write or zero it).
 * Returns 0, -EFBIG past 2^32 - 1 blocks, -ENOSPC, -EUCLEAN, -EIO.
 */
int ext4_ext_map(struct ext2_inode_info *ei, struct ext2_map *map, unsigned flags)
{
	struct ext4_extent_header *leaf;
	struct ext4_extent *e = NULL;
	struct ext4_walk w;
	u32 lblk, n, next;
	int err;

	if (map->m_lblk >= EXT4_EXT_MAX_LBLK)
		return -EFBIG;
	lblk = (u32)map->m_lblk;
	n = (u32)min((u64)map->m_len, (u64)EXT4_EXT_MAX_LBLK - lblk);
	map->m_new = false;
	err = ext4_walk_find(ei, lblk, &w);
	if (err)
		goto out;
	leaf = w.w_path[w.w_depth].p_hdr;
	if (w.w_path[w.w_depth].p_pos)
		e = &ext4_ext_first(leaf)[w.w_path[w.w_depth].p_pos - 1];
	if (e && lblk - ext4_ext_lblk(e) < ext4_ext_len(e)) {
		n = min(n, ext4_ext_lblk(e) + ext4_ext_len(e) - lblk);
		if (!ext4_ext_uninit(e)) {
			map->m_pblk = ext4_ext_pblk(e) + (lblk - ext4_ext_lblk(e));
			map->m_len = n;
			goto out;
		}
		if (flags & EXT2_MAP_CREATE) {
			err = ext4_ext_convert(ei, &w, lblk, n, flags, map);
			goto out;
		}
	} else {
		next = w.w_path[w.w_depth].p_pos < ext4_entries(leaf) ?
		       ext4_entry_key(leaf, w.w_path[w.w_depth].p_pos) : w.w_path[w.w_depth].p_hi;
		n = min(n, next - lblk);
		if (flags & EXT2_MAP_CREATE) {
			err = ext4_ext_fill_hole(ei, &w, lblk, n, flags, map);
			goto out;
		}
	}
	map->m_pblk = 0;		/* a hole, or an uninitialized extent: zeroes */
	map->m_len = n;
out:
	ext4_walk_release(&w);
	return err;
}
