/*
 * The File Allocation Table (fatgen103 "FAT Data Structure"): reading and
 * writing entries through the buffer cache, allocating and freeing
 * clusters, and mapping a file's cluster index to its disk cluster.
 *
 * Every FAT copy is written on each change (unless FAT32's BPB_ExtFlags
 * turns mirroring off, when only the active one is used), so the copies
 * never disagree.  FAT12 entries are 12 bits packed in pairs and may
 * straddle two sectors, so they are read and written a byte at a time.
 * A file's chain is checked once when its node is made (fat_check_chain:
 * every link in range, no free or bad entry, no loop) and its length
 * kept in the node, so later walks (fat_bmap) are bounded by it.  The
 * free count is counted when first needed and kept exact after that; the
 * next-free hint only says where a search starts.
 */
#include "fs/fat/fat.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/string.h"

/* Byte @off of FAT copy @copy through the cache: 0 and *bh (referenced) and *p. */
static int fat_byte(struct fat_fs *fs, u32 copy, u32 off, struct buffer_head **bh, u8 **p)
{
	const struct fat_geom *g = &fs->fs_g;
	u32 sec = g->g_rsvd + copy * g->g_fatsz + (off >> g->g_bps_shift);

	*bh = fat_bread(fs, sec);
	if (IS_ERR(*bh))
		return PTR_ERR(*bh);
	*p = (*bh)->b_data + (off & (g->g_bps - 1));
	return 0;
}

static u32 fat_read_copy(const struct fat_geom *g)
{
	return g->g_mirror ? 0 : g->g_active_fat;
}

int fat_get(struct fat_fs *fs, u32 clus, u32 *val)
{
	const struct fat_geom *g = &fs->fs_g;
	u32 off = fat_entry_offset(g, clus), copy = fat_read_copy(g);
	struct buffer_head *bh, *bh2;
	u8 *p, *p2;
	int err;

	err = fat_byte(fs, copy, off, &bh, &p);
	if (err)
		return err;
	if (g->g_type == 32) {
		*val = get_le32(p) & FAT32_MASK;
	} else if (g->g_type == 16) {
		*val = get_le16(p);
	} else {
		err = fat_byte(fs, copy, off + 1, &bh2, &p2);
		if (!err) {
			*val = fat12_decode(clus, (u16)(*p | (*p2 << 8)));
			brelse(bh2);
		}
	}
	brelse(bh);
	return err;
}

static int fat_set_copy(struct fat_fs *fs, u32 copy, u32 clus, u32 val)
{
	const struct fat_geom *g = &fs->fs_g;
	u32 off = fat_entry_offset(g, clus);
	struct buffer_head *bh, *bh2;
	u8 *p, *p2;
	u16 w;
	int err;

	err = fat_byte(fs, copy, off, &bh, &p);
	if (err)
		return err;
	if (g->g_type == 32) {
		put_le32(p, (get_le32(p) & ~FAT32_MASK) | (val & FAT32_MASK));
	} else if (g->g_type == 16) {
		put_le16(p, (u16)val);
	} else {
		err = fat_byte(fs, copy, off + 1, &bh2, &p2);
		if (err)
			goto out;
		w = fat12_encode(clus, (u16)(*p | (*p2 << 8)), val);
		*p = (u8)w;
		*p2 = (u8)(w >> 8);
		mark_buffer_dirty(bh2);
		brelse(bh2);
	}
	mark_buffer_dirty(bh);
out:
	brelse(bh);
	return err;
}

/* Set entry @clus to @val in every FAT copy in use.  0 or the first error. */
int fat_set(struct fat_fs *fs, u32 clus, u32 val)
{
	const struct fat_geom *g = &fs->fs_g;
	u32 i;
	int err;

	KASSERT(!fs->fs_rdonly);
	if (!g->g_mirror)
		return fat_set_copy(fs, g->g_active_fat, clus, val);
	for (i = 0; i < g->g_nfats; i++) {
		err = fat_set_copy(fs, i, clus, val);
		if (err)
			return err;
	}
	return 0;
}

int fat_count_free(struct fat_fs *fs)
{
	u32 c, v, n = 0;
	int err;

	if (fs->fs_free != FAT_FREE_UNKNOWN)
		return 0;
	for (c = FAT_FIRST_CLUSTER; c < fs->fs_g.g_clusters + FAT_FIRST_CLUSTER; c++) {
		err = fat_get(fs, c, &v);
		if (err)
			return err;
		if (v == 0)
			n++;
	}
	fs->fs_free = n;
	return 0;
}

/*
 * A free cluster, marked end-of-chain and linked after @prev (0: none).
 * 0 and *out, -ENOSPC, or an I/O error.
 */
int fat_alloc(struct fat_fs *fs, u32 prev, u32 *out)
{
	const struct fat_geom *g = &fs->fs_g;
	u32 c = fs->fs_next_free, i, v;
	int err;

	err = fat_count_free(fs);
	if (err)
		return err;
	if (fs->fs_free == 0)
		return -ENOSPC;
	for (i = 0; i < g->g_clusters; i++, c++) {
		if (!fat_valid_cluster(g, c))
			c = FAT_FIRST_CLUSTER;
		err = fat_get(fs, c, &v);
		if (err)
			return err;
		if (v != 0)
			continue;
		err = fat_set(fs, c, fat_eoc(g));
		if (!err && prev)
			err = fat_set(fs, prev, c);
		if (err)
			return err;
		fs->fs_free--;
		fs->fs_next_free = c + 1;
		DPRINTF(FAT_D_ALLOC, "fat: cluster %u after %u\n", c, prev);
		*out = c;
		return 0;
	}
	fat_error(fs, "free count says %u free, the FAT has none", fs->fs_free);
	fs->fs_free = 0;
	return -ENOSPC;
}

/*
 * Free the chain from @start.  A chain that turns bad (out of range, or
 * reaching a free entry, which is where a loop ends once its clusters are
 * freed) ends the walk there, reported: what is freed is freed, the rest
 * is left for fsck.  0 or an I/O error.
 */
int fat_free_chain(struct fat_fs *fs, u32 start)
{
	const struct fat_geom *g = &fs->fs_g;
	enum fat_entry_kind kind;
	u32 c = start, v, n;
	int err;

	for (n = 0; n < g->g_clusters && fat_valid_cluster(g, c); n++) {
		err = fat_get(fs, c, &v);
		if (err)
			return err;
		if (v == 0) {
			fat_error(fs, "freeing the chain from cluster %u: cluster %u is already "
				  "free", start, c);
			return 0;
		}
		err = fat_set(fs, c, 0);
		if (err)
			return err;
		if (fs->fs_free != FAT_FREE_UNKNOWN)
			fs->fs_free++;
		if (c < fs->fs_next_free)
			fs->fs_next_free = c;
		kind = fat_entry_kind(g, v);
		if (kind == FAT_ENT_EOC)
			return 0;
		if (kind != FAT_ENT_NEXT) {
			fat_error(fs, "freeing the chain from cluster %u: cluster %u links to "
				  "%#x; the rest is left for fsck", start, c, v);
			return 0;
		}
		c = v;
	}
	if (!fat_valid_cluster(g, c))
		fat_error(fs, "freeing the chain from cluster %u: cluster %u is outside the "
			  "volume", start, c);
	return 0;
}

static int fat_get_cb(void *ctx, u32 clus, u32 *val)
{
	return fat_get(ctx, clus, val);
}

/*
 * Walk @n's chain once and remember its length and end.  A corrupt chain,
 * or one too short for the file's size, leaves n_err set: that file's
 * I/O fails, the rest of the volume works.
 */
int fat_check_chain(struct fat_node *n)
{
	struct fat_fs *fs = n->n_fs;
	u32 need = (u32)(((u64)n->n_size + fs->fs_g.g_csize - 1) / fs->fs_g.g_csize);
	int err;

	n->n_nclus = 0;
	n->n_last = 0;
	n->n_cur_l = 0;
	n->n_cur_p = n->n_start;
	if (n->n_root && fs->fs_g.g_type != 32)
		return 0;
	err = fat_chain_walk(&fs->fs_g, fat_get_cb, fs, n->n_start, &n->n_nclus, &n->n_last);
	if (err == -EUCLEAN)
		fat_error(fs, "%s at cluster %u: cluster chain is corrupt (out of range, free, "
			  "bad or looping)", n->n_dir ? "directory" : "file", n->n_start);
	else if (!err && !n->n_dir && n->n_nclus < need) {
		fat_error(fs, "file at cluster %u: %u clusters for %u bytes", n->n_start,
			  n->n_nclus, n->n_size);
		err = -EUCLEAN;
	} else if (!err && n->n_dir && n->n_nclus == 0) {
		fat_error(fs, "directory with no clusters");
		err = -EUCLEAN;
	}
	n->n_err = err;
	return err;
}

/*
 * The disk cluster of @n's cluster @lclus.  Past the end of the chain:
 * -ENOENT, or with @create the chain grows to reach it (the new clusters
 * are not zeroed: the caller writes them).
 */
int fat_bmap(struct fat_node *n, u32 lclus, bool create, u32 *pclus)
{
	struct fat_fs *fs = n->n_fs;
	u32 l, c, v;
	int err;

	if (n->n_err)
		return n->n_err;
	while (lclus >= n->n_nclus) {
		if (!create)
			return -ENOENT;
		err = fat_alloc(fs, n->n_last, &c);
		if (err)
			return err;
		if (!n->n_start) {
			n->n_start = c;
			n->n_cur_l = 0;
			n->n_cur_p = c;
			n->n_dirty = true;
		}
		n->n_last = c;
		n->n_nclus++;
	}
	if (lclus == n->n_nclus - 1) {
		*pclus = n->n_last;
		return 0;
	}
	if (n->n_cur_l <= lclus && n->n_cur_p) {
		l = n->n_cur_l;
		c = n->n_cur_p;
	} else {
		l = 0;
		c = n->n_start;
	}
	for (; l < lclus; l++) {
		err = fat_get(fs, c, &v);
		if (err)
			return err;
		if (fat_entry_kind(&fs->fs_g, v) != FAT_ENT_NEXT) {
			fat_error(fs, "chain from cluster %u changed under us", n->n_start);
			return -EUCLEAN;
		}
		c = v;
	}
	n->n_cur_l = lclus;
	n->n_cur_p = c;
	*pclus = c;
	return 0;
}

/* Keep the first @keep clusters of @n's chain and free the rest. */
int fat_truncate_chain(struct fat_node *n, u32 keep)
{
	struct fat_fs *fs = n->n_fs;
	u32 last, next;
	int err;

	if (keep >= n->n_nclus)
		return 0;
	if (keep == 0) {
		err = fat_free_chain(fs, n->n_start);
		n->n_start = 0;
		n->n_last = 0;
		n->n_nclus = 0;
		n->n_cur_l = 0;
		n->n_cur_p = 0;
		n->n_dirty = true;
		return err;
	}
	err = fat_bmap(n, keep - 1, false, &last);
	if (!err)
		err = fat_get(fs, last, &next);
	if (!err)
		err = fat_set(fs, last, fat_eoc(&fs->fs_g));
	if (err)
		return err;
	n->n_last = last;
	n->n_nclus = keep;
	if (n->n_cur_l >= keep) {
		n->n_cur_l = 0;
		n->n_cur_p = n->n_start;
	}
	return fat_entry_kind(&fs->fs_g, next) == FAT_ENT_NEXT ? fat_free_chain(fs, next) : 0;
}
