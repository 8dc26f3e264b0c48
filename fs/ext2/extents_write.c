/*
 * ext4 extent trees, writing (ext4 wiki "Extent Tree"): filling holes,
 * converting uninitialized extents that are written, and truncation.
 *
 * Insertion (ext4_insert) walks to the leaf for the new extent and
 * merges it with a neighbour that continues it on disk, or inserts it in
 * order.  A full leaf is split: the topmost full node on the path whose
 * parent has room is split in two (an append moves only the last entry,
 * so a file written in order leaves full nodes), a new index goes into
 * the parent, and the walk starts again; when every node up to the root
 * is full, the root's entries move to a new block and the root becomes
 * an index of one entry, one level deeper.  Each round either finishes
 * or makes room one level lower, so the loop is bounded by the depth.
 * An index's key is kept equal to the first key below it (e2fsck checks
 * that).  New tree blocks are counted in i_blocks; every changed node
 * goes through ext4_node_dirty() (the inode for the root, else the
 * checksum and ext2_dirty_meta(): the journal).
 *
 * Truncation removes and trims extents from the end, frees the data and
 * the emptied tree blocks, and pulls the only child of the root back
 * into i_block while it fits (the depth shrinks, as e2fsck prefers).
 * Writing into an uninitialized extent splits it into its unwritten
 * head, the written (initialized) blocks and its unwritten tail; an
 * ENOSPC for a tree block in the middle of that can leave blocks
 * allocated but unmapped (e2fsck reclaims them), never data exposed.
 */
#include "fs/ext2/ext2.h"
#include "fs/ext2/extents.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/string.h"

/* Where to look for blocks for @ei when nothing better is known. */
static u32 ext4_goal(const struct ext2_inode_info *ei)
{
	const struct ext2_fs *fs = ei->ei_fs;

	if (ei->ei_last_block && ei->ei_last_block + 1 < fs->fs_blocks_count)
		return ei->ei_last_block + 1;
	return fs->fs_first_data_block + ext2_ino_group(fs, ei->ei_ino) * fs->fs_blocks_per_group;
}

/* Zero blocks [@pblk, @pblk + @n) through the cache.  0 or -errno. */
static int ext4_zero(struct ext2_fs *fs, u32 pblk, u32 n)
{
	struct buffer_head *bh;
	u32 i;

	for (i = 0; i < n; i++) {
		bh = ext2_getblk_zero(fs, pblk + i);
		if (IS_ERR(bh))
			return PTR_ERR(bh);
		brelse(bh);
	}
	return 0;
}

/* Free data blocks [@pblk, @pblk + @n) of @ei.  0 or the first error. */
static int ext4_free_run(struct ext2_inode_info *ei, u32 pblk, u32 n)
{
	int err = 0, e;
	u32 i;

	for (i = 0; i < n; i++) {
		e = ext2_free_block(ei->ei_fs, pblk + i);
		if (!e)
			ext2_add_blocks(ei, -1);
		else if (!err)
			err = e;
	}
	return err;
}

/* A new, empty tree block at @depth near @goal, counted in i_blocks. */
static int ext4_new_node(struct ext2_inode_info *ei, u32 goal, u32 depth,
			 struct buffer_head **out, u32 *blk)
{
	struct ext2_fs *fs = ei->ei_fs;
	struct buffer_head *bh;
	int got;

	if (goal >= fs->fs_blocks_count)
		goal = ext4_goal(ei);
	got = ext2_new_blocks(fs, goal, 1, blk);
	if (got < 0)
		return got;
	bh = ext2_getblk_zero(fs, *blk);
	if (IS_ERR(bh)) {
		ext2_free_block(fs, *blk);
		return PTR_ERR(bh);
	}
	ext2_add_blocks(ei, 1);
	ext4_node_init((struct ext4_extent_header *)bh->b_data,
		       ext4_node_capacity(fs->fs_bsize), depth);
	*out = bh;
	return 0;
}

/* Checksum new tree block @bh and put it in the journal (or dirty). */
static void ext4_new_node_done(struct ext2_inode_info *ei, struct buffer_head *bh)
{
	ext4_node_set_csum(ei, (struct ext4_extent_header *)bh->b_data);
	ext2_dirty_meta(ei->ei_fs, bh);
	brelse(bh);
}

/* Move the full root into a new block and make the root its index.  0 or -errno. */
static int ext4_grow_root(struct ext2_inode_info *ei)
{
	struct ext4_extent_header *root = ext4_root(ei), *h;
	u32 depth = le16_to_cpu(root->eh_depth), blk;
	struct ext4_extent_idx x;
	struct buffer_head *bh;
	int err;

	if (depth >= EXT4_EXT_MAX_DEPTH)
		return -EFBIG;
	err = ext4_new_node(ei, ext4_goal(ei), depth, &bh, &blk);
	if (err)
		return err;
	h = (struct ext4_extent_header *)bh->b_data;
	ext4_node_move_tail(root, 0, h);
	memset(&x, 0, sizeof(x));
	x.ei_block = cpu_to_le32(ext4_entries(h) ? ext4_entry_key(h, 0) : 0);
	x.ei_leaf_lo = cpu_to_le32(blk);
	root->eh_depth = cpu_to_le16((u16)(depth + 1));
	ext4_node_insert(root, 0, &x);
	ext4_new_node_done(ei, bh);
	ext2_mark_dirty(ei);
	return 0;
}

/* Split full node @level (> 0) of @w, whose parent has room.  0 or -errno. */
static int ext4_split(struct ext2_inode_info *ei, struct ext4_walk *w, u32 level)
{
	struct ext4_path *p = &w->w_path[level], *up = &w->w_path[level - 1];
	struct ext4_extent_idx x;
	struct buffer_head *bh;
	struct ext4_extent_header *h;
	u32 blk;
	int err;

	err = ext4_new_node(ei, p->p_blk + 1, le16_to_cpu(p->p_hdr->eh_depth), &bh, &blk);
	if (err)
		return err;
	h = (struct ext4_extent_header *)bh->b_data;
	ext4_node_move_tail(p->p_hdr, ext4_node_split_point(p->p_hdr, p->p_pos), h);
	memset(&x, 0, sizeof(x));
	x.ei_block = cpu_to_le32(ext4_entry_key(h, 0));
	x.ei_leaf_lo = cpu_to_le32(blk);
	ext4_node_insert(up->p_hdr, ext4_walk_child(w, level - 1) + 1, &x);
	ext4_new_node_done(ei, bh);
	ext4_node_dirty(ei, w, level);
	ext4_node_dirty(ei, w, level - 1);
	return 0;
}

/* The first key of node @level changed: carry it up the index keys that start there. */
static void ext4_fix_keys(struct ext2_inode_info *ei, struct ext4_walk *w, u32 level)
{
	u32 key = ext4_entry_key(w->w_path[level].p_hdr, 0), c;

	for (; level > 0; level--) {
		c = ext4_walk_child(w, level - 1);
		ext4_idx_first(w->w_path[level - 1].p_hdr)[c].ei_block = cpu_to_le32(key);
		ext4_node_dirty(ei, w, level - 1);
		if (c)
			break;
	}
}

static bool ext4_node_full(const struct ext4_extent_header *h)
{
	return ext4_entries(h) >= le16_to_cpu(h->eh_max);
}

/* Put extent @nx (over a hole of the tree) into @ei's tree.  0 or -errno. */
static int ext4_insert(struct ext2_inode_info *ei, const struct ext4_extent *nx)
{
	u32 lblk = ext4_ext_lblk(nx), level, n, pos, tries;
	struct ext4_extent_header *leaf;
	struct ext4_extent *ex;
	struct ext4_walk w;
	int err;

	for (tries = 0; tries < 2 * EXT4_EXT_MAX_DEPTH + 4; tries++) {
		err = ext4_walk_find(ei, lblk, &w);
		if (err)
			goto out;
		leaf = w.w_path[w.w_depth].p_hdr;
		ex = ext4_ext_first(leaf);
		n = ext4_entries(leaf);
		pos = w.w_path[w.w_depth].p_pos;
		if (pos > 0 && ext4_ext_can_merge(&ex[pos - 1], nx)) {
			ext4_ext_set(&ex[pos - 1], ext4_ext_lblk(&ex[pos - 1]),
				     ext4_ext_len(&ex[pos - 1]) + ext4_ext_len(nx),
				     ext4_ext_pblk(&ex[pos - 1]), ext4_ext_uninit(nx));
			goto dirty;
		}
		if (pos < n && ext4_ext_can_merge(nx, &ex[pos])) {
			ext4_ext_set(&ex[pos], lblk, ext4_ext_len(nx) + ext4_ext_len(&ex[pos]),
				     ext4_ext_pblk(nx), ext4_ext_uninit(nx));
			goto keys;
		}
		if (!ext4_node_full(leaf)) {
			ext4_node_insert(leaf, pos, nx);
			goto keys;
		}
		for (level = w.w_depth; level > 0 && ext4_node_full(w.w_path[level - 1].p_hdr); level--)
			;
		err = level ? ext4_split(ei, &w, level) : ext4_grow_root(ei);
		ext4_walk_release(&w);
		if (err)
			return err;
	}
	return ext4_ext_corrupt(ei, 0, "insertion did not find room");
keys:
	if (pos == 0)
		ext4_fix_keys(ei, &w, w.w_depth);
dirty:
	ext4_node_dirty(ei, &w, w.w_depth);
out:
	ext4_walk_release(&w);
	return err;
}

/**
 * ext4_ext_fill_hole - allocate and map up to @n blocks of the hole at @lblk
 * @w: the walk that found the hole (released here)
 * Continues the extent before the hole on disk when it can.  Fills @map
 * (m_new); with EXT2_MAP_ZERO the blocks are zeroed first.  0 or -errno.
 */
int ext4_ext_fill_hole(struct ext2_inode_info *ei, struct ext4_walk *w, u32 lblk, u32 n,
		       unsigned flags, struct ext2_map *map)
{
	struct ext4_path *lp = &w->w_path[w->w_depth];
	struct ext2_fs *fs = ei->ei_fs;
	struct ext4_extent nx, *left;
	u32 goal = ext4_goal(ei), pblk;
	int got, err;

	if (lp->p_pos) {
		left = &ext4_ext_first(lp->p_hdr)[lp->p_pos - 1];
		goal = ext4_ext_pblk(left) + (lblk - ext4_ext_lblk(left));
		if (goal >= fs->fs_blocks_count)
			goal = ext4_goal(ei);
	}
	ext4_walk_release(w);
	got = ext2_new_blocks(fs, goal, min(n, EXT4_EXT_INIT_MAX_LEN), &pblk);
	if (got < 0)
		return got;
	err = flags & EXT2_MAP_ZERO ? ext4_zero(fs, pblk, (u32)got) : 0;
	ext4_ext_set(&nx, lblk, (u32)got, pblk, false);
	if (!err)
		err = ext4_insert(ei, &nx);
	if (err) {
		ext4_free_run(ei, pblk, (u32)got);
		ext2_add_blocks(ei, got);	/* they were never counted */
		return err;
	}
	ext2_add_blocks(ei, got);
	ei->ei_last_block = pblk + (u32)got - 1;
	map->m_pblk = pblk;
	map->m_len = (u32)got;
	map->m_new = true;
	return 0;
}

/**
 * ext4_ext_convert - make blocks [@lblk, @lblk + @n) of the uninitialized
 * extent the walk @w found (p_pos - 1 of its leaf) initialized
 * The walk is released here.  Fills @map (m_new: the blocks hold old
 * disk contents until the caller writes them; EXT2_MAP_ZERO zeroes them
 * first).  0 or -errno.
 */
int ext4_ext_convert(struct ext2_inode_info *ei, struct ext4_walk *w, u32 lblk, u32 n,
		     unsigned flags, struct ext2_map *map)
{
	struct ext4_path *lp = &w->w_path[w->w_depth];
	u32 i = lp->p_pos - 1;
	struct ext4_extent *ex = ext4_ext_first(lp->p_hdr), *e = &ex[i], part;
	u32 a = ext4_ext_lblk(e), p = ext4_ext_pblk(e), head = lblk - a;
	u32 tail = ext4_ext_len(e) - head - n;
	int err;

	if (flags & EXT2_MAP_ZERO) {
		err = ext4_zero(ei->ei_fs, p + head, n);
		if (err)
			return err;
	}
	map->m_pblk = p + head;
	map->m_len = n;
	map->m_new = true;
	ext4_ext_set(&part, a, n, p, false);
	if (head == 0 && i > 0 && ext4_ext_can_merge(&ex[i - 1], &part)) {
		/* written in order: the extent before grows, this one shrinks */
		ext4_ext_set(&ex[i - 1], ext4_ext_lblk(&ex[i - 1]), ext4_ext_len(&ex[i - 1]) + n,
			     ext4_ext_pblk(&ex[i - 1]), false);
		if (tail)
			ext4_ext_set(e, a + n, tail, p + n, true);
		else
			ext4_node_remove(lp->p_hdr, i);
		ext4_node_dirty(ei, w, w->w_depth);
		return 0;
	}
	if (head == 0) {
		ext4_ext_set(e, a, n, p, false);
		ext4_node_dirty(ei, w, w->w_depth);
		ext4_walk_release(w);
		if (!tail)
			return 0;
		ext4_ext_set(&part, a + n, tail, p + n, true);
		return ext4_insert(ei, &part);
	}
	ext4_ext_set(e, a, head, p, true);
	ext4_node_dirty(ei, w, w->w_depth);
	ext4_walk_release(w);
	ext4_ext_set(&part, lblk, n, p + head, false);
	err = ext4_insert(ei, &part);
	if (!err && tail) {
		ext4_ext_set(&part, lblk + n, tail, p + head + n, true);
		err = ext4_insert(ei, &part);
	}
	return err;
}

/*
 * Remove from node @h (at @depth, keys below @hi) every mapping of
 * logical blocks from @first on, freeing data and emptied tree blocks.
 * *changed is set if @h changed.  0 or the first error.
 */
static int ext4_trunc_node(struct ext2_inode_info *ei, struct ext4_extent_header *h, u32 depth,
			   u32 hi, u32 first, bool *changed)
{
	struct ext2_fs *fs = ei->ei_fs;
	struct ext4_extent_header *ch;
	struct buffer_head *bh;
	u32 i, key, len, keep, leaf, chi;
	int err = 0, e;
	bool sub;

	for (i = ext4_entries(h); i-- > 0;) {
		key = ext4_entry_key(h, i);
		if (depth == 0) {
			struct ext4_extent *x = &ext4_ext_first(h)[i];

			len = ext4_ext_len(x);
			if ((u64)key + len <= first)
				break;
			keep = key < first ? first - key : 0;
			e = ext4_free_run(ei, ext4_ext_pblk(x) + keep, len - keep);
			if (e && !err)
				err = e;
			*changed = true;
			if (keep) {
				ext4_ext_set(x, key, keep, ext4_ext_pblk(x), ext4_ext_uninit(x));
				break;
			}
			ext4_node_remove(h, i);
			continue;
		}
		chi = i + 1 < ext4_entries(h) ? ext4_entry_key(h, i + 1) : hi;
		if (chi <= first)
			break;
		leaf = le32_to_cpu(ext4_idx_first(h)[i].ei_leaf_lo);
		e = ext4_read_node(ei, leaf, depth - 1, key, chi, &bh);
		if (e)
			return err ? err : e;
		ch = (struct ext4_extent_header *)bh->b_data;
		sub = false;
		e = ext4_trunc_node(ei, ch, depth - 1, chi, first, &sub);
		if (e && !err)
			err = e;
		if (!ext4_entries(ch)) {
			brelse(bh);
			e = ext2_free_block(fs, leaf);
			if (!e)
				ext2_add_blocks(ei, -1);
			else if (!err)
				err = e;
			ext4_node_remove(h, i);
			*changed = true;
			continue;
		}
		if (sub) {
			ext4_node_set_csum(ei, ch);
			ext2_dirty_meta(fs, bh);
		}
		brelse(bh);
		if (key < first)
			break;
	}
	return err;
}

/* While the root has one child whose entries fit in i_block, take them in. */
static int ext4_shrink(struct ext2_inode_info *ei)
{
	struct ext4_extent_header *root = ext4_root(ei), *h;
	struct buffer_head *bh;
	u32 blk, n;
	int err;

	while (le16_to_cpu(root->eh_depth) > 0 && ext4_entries(root) == 1) {
		blk = le32_to_cpu(ext4_idx_first(root)->ei_leaf_lo);
		err = ext4_read_node(ei, blk, le16_to_cpu(root->eh_depth) - 1,
				     ext4_entry_key(root, 0), EXT4_EXT_MAX_LBLK, &bh);
		if (err)
			return err;
		h = (struct ext4_extent_header *)bh->b_data;
		n = ext4_entries(h);
		if (n > le16_to_cpu(root->eh_max)) {
			brelse(bh);
			return 0;
		}
		memset(ext4_ext_first(root), 0, EXT4_EXT_ROOT_MAX * EXT4_EXT_ENTRY);
		memcpy(ext4_ext_first(root), ext4_ext_first(h), n * EXT4_EXT_ENTRY);
		root->eh_entries = h->eh_entries;
		root->eh_depth = h->eh_depth;
		brelse(bh);
		ext2_mark_dirty(ei);
		err = ext2_free_block(ei->ei_fs, blk);
		if (err)
			return err;
		ext2_add_blocks(ei, -1);
	}
	return 0;
}

/**
 * ext4_ext_truncate - ext2_truncate_blocks() for an inode with an extent tree
 * Frees every block past the first @size bytes; the tree shrinks with
 * it.  Does not change i_size.  0 or the first error.
 */
int ext4_ext_truncate(struct ext2_inode_info *ei, u64 size)
{
	struct ext2_fs *fs = ei->ei_fs;
	struct ext4_extent_header *root = ext4_root(ei);
	u64 first = (size + fs->fs_bsize - 1) >> fs->fs_bshift;
	bool changed = false;
	int err, e;

	err = ext4_check_root(ei);
	if (err)
		return err;
	err = ext4_trunc_node(ei, root, le16_to_cpu(root->eh_depth), EXT4_EXT_MAX_LBLK,
			      (u32)min(first, (u64)EXT4_EXT_MAX_LBLK), &changed);
	if (!ext4_entries(root))
		root->eh_depth = 0;
	e = ext4_shrink(ei);
	if (e && !err)
		err = e;
	ei->ei_last_block = 0;
	ext2_mark_dirty(ei);
	return err;
}
