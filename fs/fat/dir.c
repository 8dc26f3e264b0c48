/*
 * FAT directories (fatgen103 "FAT Directory Structure"): arrays of 32-byte
 * entries, either the fixed root region of FAT12/16 or, for every other
 * directory (the FAT32 root included), the clusters of a chain.  A slot
 * is an entry's index in that array.
 *
 * Reading walks the slots in order: an entry whose first byte is 0 ends
 * the directory, 0xE5 is free, long-name entries are collected
 * (fat_name.c) until their short entry, volume labels are skipped.
 * Adding a name writes its long-name entries and short entry into a run
 * of free slots, growing a chained directory by a zeroed cluster when no
 * run is long enough (the fixed root cannot grow: -ENOSPC).  Removing
 * marks the short entry and its long-name entries free.  A directory
 * holds at most 65536 entries.
 */
#include "fs/fat/fat.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

#define FAT_MAX_TAIL	999999	/* fatgen103 numeric tails ~1 .. ~999999 */

/*
 * Slot @idx of @dir: 0 with its buffer (referenced) and entry, -ENOENT
 * past the end.  With @grow, a chained directory grows by zeroed
 * clusters to reach it.
 */
static int fat_dir_slot(struct fat_node *dir, u32 idx, bool grow, struct buffer_head **bh,
			struct fat_dirent **de, u64 *pos)
{
	struct fat_fs *fs = dir->n_fs;
	const struct fat_geom *g = &fs->fs_g;
	u64 byte = (u64)idx * FAT_DIRENT_SIZE;
	u32 sec, clus, lclus = (u32)(byte / g->g_csize), i;
	bool fresh = lclus >= dir->n_nclus;
	int err;

	if (idx >= FAT_MAX_DIR_ENTRIES)
		return grow ? -ENOSPC : -ENOENT;
	if (dir->n_root && g->g_type != 32) {
		if (idx >= g->g_root_ents)
			return grow ? -ENOSPC : -ENOENT;
		sec = g->g_root_start + (u32)(byte >> g->g_bps_shift);
	} else {
		err = fat_bmap(dir, lclus, grow, &clus);
		if (err)
			return err;
		if (fresh) {	/* a new cluster of a directory: all free entries */
			for (i = 0; i < g->g_spc; i++) {
				struct buffer_head *z = fat_getblk_zero(fs, fat_cluster_sector(g, clus) + i);

				if (IS_ERR(z))
					return PTR_ERR(z);
				brelse(z);
			}
		}
		sec = fat_cluster_sector(g, clus) + (u32)((byte % g->g_csize) >> g->g_bps_shift);
	}
	*bh = fat_bread(fs, sec);
	if (IS_ERR(*bh))
		return PTR_ERR(*bh);
	*de = (struct fat_dirent *)((*bh)->b_data + (byte & (g->g_bps - 1)));
	*pos = ((u64)sec << g->g_bps_shift) + (byte & (g->g_bps - 1));
	return 0;
}

/* The next entry of @dir from it->it_idx: 1 and the entry, 0 at the end, or -errno. */
int fat_dir_next(struct fat_node *dir, struct fat_iter *it)
{
	struct buffer_head *bh;
	struct fat_dirent *de;
	u64 pos;
	int err, n;

	if (it->it_idx == 0)
		fat_lfn_reset(&it->it_lfn);
	for (;; it->it_idx++) {
		err = fat_dir_slot(dir, it->it_idx, false, &bh, &de, &pos);
		if (err)
			return err == -ENOENT ? 0 : err;
		if (de->de_name[0] == FAT_DE_END) {
			brelse(bh);
			return 0;
		}
		if (de->de_name[0] == FAT_DE_FREE) {
			fat_lfn_reset(&it->it_lfn);
		} else if ((de->de_attr & FAT_ATTR_LONG_MASK) == FAT_ATTR_LONG_NAME) {
			const struct fat_lfn *l = (const struct fat_lfn *)de;

			if (l->ld_ord & FAT_LFN_LAST)
				it->it_lfn_first = it->it_idx;
			fat_lfn_feed(&it->it_lfn, l);
		} else if (de->de_attr & FAT_ATTR_VOLUME_ID) {
			fat_lfn_reset(&it->it_lfn);
		} else {
			memcpy(&it->it_de, de, sizeof(*de));
			brelse(bh);
			it->it_slot = it->it_idx;
			it->it_pos = pos;
			it->it_first = it->it_lfn.ls_valid ? it->it_lfn_first : it->it_idx;
			n = fat_lfn_finish(&it->it_lfn, it->it_de.de_name, it->it_name,
					   sizeof(it->it_name));
			if (n == 0) {
				it->it_first = it->it_idx;
				n = fat_short_to_text(it->it_de.de_name, it->it_de.de_ntres,
						      it->it_name);
			}
			it->it_len = (size_t)n;
			it->it_idx++;
			return 1;
		}
		brelse(bh);
	}
}

/* The entry of @dir named @name (long or short name, any case): 0 and *it, -ENOENT. */
int fat_dir_find(struct fat_node *dir, const char *name, size_t len, struct fat_iter *it)
{
	char sn[32];
	int r;

	it->it_idx = 0;
	while ((r = fat_dir_next(dir, it)) == 1) {
		if (fat_name_eq(it->it_name, it->it_len, name, len))
			return 0;
		r = fat_short_to_text(it->it_de.de_name, 0, sn);
		if (fat_name_eq(sn, (size_t)r, name, len))
			return 0;
	}
	return r < 0 ? r : -ENOENT;
}

/* Is the short name @sn used in @dir?  1, 0 or -errno. */
static int fat_short_taken(struct fat_node *dir, const u8 sn[11], struct fat_iter *it)
{
	int r;

	it->it_idx = 0;
	while ((r = fat_dir_next(dir, it)) == 1)
		if (!memcmp(it->it_de.de_name, sn, 11))
			return 1;
	return r;
}

#define FAT_TAIL_MAP	4096	/* tails ~1..~4095 found in one pass of the directory */

/* The ~N tail of short name @sn if it is @basis with that tail, else 0. */
static u32 fat_tail_of(const u8 basis[11], const u8 sn[11])
{
	u8 cand[11];
	u32 n = 0;
	int i = 0;

	while (i < 8 && sn[i] != '~')
		i++;
	if (i == 8)
		return 0;
	for (i++; i < 8 && sn[i] >= '0' && sn[i] <= '9' && n < 1000000; i++)
		n = n * 10 + (u32)(sn[i] - '0');
	if (n == 0 || n > FAT_MAX_TAIL)
		return 0;
	fat_short_tail(basis, n, cand);
	return memcmp(cand, sn, 11) ? 0 : n;
}

/*
 * The short name for @name in @dir (unique there) into de->de_name; 1 if
 * it needs no long name.  One pass over the directory notes whether the
 * basis is taken and which tails are; the lowest free tail wins (a
 * directory that used up ~1..~4095 of one basis is searched further one
 * tail at a time).
 */
static int fat_pick_short(struct fat_node *dir, const char *name, size_t len,
			  struct fat_dirent *de, struct fat_iter *it)
{
	u8 basis[11], *used = NULL;
	bool basis_taken = false;
	u32 n;
	int kind, r;

	kind = fat_short_basis(name, len, basis);
	if (kind < 0)
		return kind;
	used = kzalloc(FAT_TAIL_MAP / 8, GFP_KERNEL);
	if (!used)
		return -ENOMEM;
	it->it_idx = 0;
	while ((r = fat_dir_next(dir, it)) == 1) {
		n = fat_tail_of(basis, it->it_de.de_name);
		if (n && n < FAT_TAIL_MAP)
			used[n / 8] |= (u8)(1 << (n % 8));
		if (!memcmp(it->it_de.de_name, basis, 11))
			basis_taken = true;
	}
	if (r < 0)
		goto out;
	if (kind > 0 && !basis_taken) {
		memcpy(de->de_name, basis, 11);
		r = kind == 1;
		goto out;
	}
	for (n = 1; n < FAT_TAIL_MAP; n++) {
		if (!(used[n / 8] & (1 << (n % 8)))) {
			fat_short_tail(basis, n, de->de_name);
			r = 0;
			goto out;
		}
	}
	for (r = -ENOSPC; n <= FAT_MAX_TAIL; n++) {
		fat_short_tail(basis, n, de->de_name);
		r = fat_short_taken(dir, de->de_name, it);
		if (r <= 0)
			break;
		r = -ENOSPC;
	}
out:
	kfree(used);
	return r;
}

/*
 * Write the long-name entries for @name and the short entry @de (its name
 * chosen here) into free slots of @dir.  0 and *pos, the byte offset of
 * the short entry, or -EINVAL (a name FAT cannot hold), -ENOSPC, -EIO.
 */
int fat_dir_add(struct fat_node *dir, const char *name, size_t len, struct fat_dirent *de,
		u64 *pos)
{
	struct fat_iter *it = kmalloc(sizeof(*it), GFP_KERNEL);
	struct fat_lfn *lfn = kmalloc(FAT_LFN_MAX_ENTRIES * sizeof(*lfn), GFP_KERNEL);
	u16 *u16name = kmalloc((FAT_LFN_MAX_CHARS + 1) * sizeof(u16), GFP_KERNEL);
	struct buffer_head *bh;
	struct fat_dirent *d;
	u32 idx, run = 0, first = 0, i;
	int nu, nl = 0, err, shortonly;
	bool end = false;

	if (!it || !lfn || !u16name) {
		err = -ENOMEM;
		goto out;
	}
	nu = fat_name_to_utf16(name, len, u16name, FAT_LFN_MAX_CHARS);
	if (nu < 0) {
		err = nu;
		goto out;
	}
	shortonly = fat_pick_short(dir, name, len, de, it);
	if (shortonly < 0) {
		err = shortonly;
		goto out;
	}
	if (!shortonly)
		nl = fat_lfn_build(u16name, (u32)nu, fat_lfn_checksum(de->de_name), lfn);

	/* A run of nl + 1 free slots; after the end marker everything is free. */
	for (idx = 0;; idx++) {
		u64 p;

		err = fat_dir_slot(dir, idx, end, &bh, &d, &p);
		if (err == -ENOENT) {
			end = true;	/* past the last cluster: grow into new ones */
			err = fat_dir_slot(dir, idx, true, &bh, &d, &p);
		}
		if (err)
			goto out;
		if (d->de_name[0] == FAT_DE_END)
			end = true;
		if (end || d->de_name[0] == FAT_DE_FREE) {
			if (run++ == 0)
				first = idx;
		} else {
			run = 0;
		}
		brelse(bh);
		if (run == (u32)nl + 1)
			break;
	}
	for (i = 0; i <= (u32)nl; i++) {
		err = fat_dir_slot(dir, first + i, false, &bh, &d, pos);
		if (err)
			goto out;
		memcpy(d, i < (u32)nl ? (void *)&lfn[i] : (void *)de, FAT_DIRENT_SIZE);
		mark_buffer_dirty(bh);
		brelse(bh);
	}
out:
	kfree(u16name);
	kfree(lfn);
	kfree(it);
	return err;
}

/* Free the slots of the entry @it found (its long-name entries too). */
int fat_dir_remove(struct fat_node *dir, const struct fat_iter *it)
{
	struct buffer_head *bh;
	struct fat_dirent *d;
	u32 i;
	u64 p;
	int err;

	for (i = it->it_first; i <= it->it_slot; i++) {
		err = fat_dir_slot(dir, i, false, &bh, &d, &p);
		if (err)
			return err;
		d->de_name[0] = FAT_DE_FREE;
		mark_buffer_dirty(bh);
		brelse(bh);
	}
	return 0;
}

/* 1 if @dir holds nothing but "." and "..", 0 if it holds more, -errno. */
int fat_dir_empty(struct fat_node *dir)
{
	struct fat_iter *it = kmalloc(sizeof(*it), GFP_KERNEL);
	int r;

	if (!it)
		return -ENOMEM;
	it->it_idx = 0;
	while ((r = fat_dir_next(dir, it)) == 1)
		if (strcmp(it->it_name, ".") && strcmp(it->it_name, ".."))
			break;
	kfree(it);
	return r < 0 ? r : !r;
}

/* The first cluster of @dir's parent from its ".." entry (0: the root). */
int fat_dir_parent(struct fat_node *dir, u32 *clus)
{
	struct buffer_head *bh;
	struct fat_dirent *d;
	u64 p;
	int err;

	err = fat_dir_slot(dir, 1, false, &bh, &d, &p);
	if (err)
		return err == -ENOENT ? -EUCLEAN : err;
	if (memcmp(d->de_name, "..         ", 11)) {
		brelse(bh);
		fat_error(dir->n_fs, "directory at cluster %u has no \"..\" entry", dir->n_start);
		return -EUCLEAN;
	}
	*clus = fat_de_start(dir->n_fs, d);
	brelse(bh);
	return 0;
}

/*
 * A new directory's first cluster @clus: zeroed, with "." (itself) and
 * ".." (@parent, 0 for the root), times from @tmpl.
 */
int fat_dir_init(struct fat_fs *fs, u32 clus, u32 parent, const struct fat_dirent *tmpl)
{
	const struct fat_geom *g = &fs->fs_g;
	struct buffer_head *bh;
	struct fat_dirent *d;
	u32 i;

	for (i = 0; i < g->g_spc; i++) {
		bh = fat_getblk_zero(fs, fat_cluster_sector(g, clus) + i);
		if (IS_ERR(bh))
			return PTR_ERR(bh);
		if (i == 0) {
			d = (struct fat_dirent *)bh->b_data;
			d[0] = *tmpl;
			memcpy(d[0].de_name, ".          ", 11);
			d[0].de_fstcluslo = cpu_to_le16((u16)clus);
			d[0].de_fstclushi = cpu_to_le16(g->g_type == 32 ? (u16)(clus >> 16) : 0);
			d[1] = d[0];
			memcpy(d[1].de_name, "..         ", 11);
			d[1].de_fstcluslo = cpu_to_le16((u16)parent);
			d[1].de_fstclushi = cpu_to_le16(g->g_type == 32 ? (u16)(parent >> 16) : 0);
		}
		brelse(bh);
	}
	return 0;
}

/*
 * vop_readdir: *pos is the next slot; the root, which has no "." and ".."
 * on disk, gets them made up at positions 0 and 1 (slots follow at 2).
 */
int fat_readdir(struct vnode *v, u64 *pos, struct vfs_dirent *de)
{
	struct fat_node *dir = FAT_N(v);
	u32 base = dir->n_root ? 2 : 0;
	struct fat_iter *it;
	int r;

	if (dir->n_err)
		return dir->n_err;
	if (*pos < base) {
		de->d_ino = v->v_ino;
		de->d_type = VFS_DT_DIR;
		de->d_namlen = (u16)(*pos + 1);
		memcpy(de->d_name, "..", *pos + 1);
		de->d_name[*pos + 1] = '\0';
		(*pos)++;
		return 1;
	}
	if (*pos - base >= FAT_MAX_DIR_ENTRIES)
		return 0;
	it = kmalloc(sizeof(*it), GFP_KERNEL);
	if (!it)
		return -ENOMEM;
	it->it_idx = (u32)(*pos - base);
	fat_lfn_reset(&it->it_lfn);
	r = fat_dir_next(dir, it);
	if (r == 1) {
		*pos = it->it_idx + base;
		de->d_ino = fat_ino(dir->n_fs, &it->it_de, it->it_pos);
		de->d_type = it->it_de.de_attr & FAT_ATTR_DIRECTORY ? VFS_DT_DIR : VFS_DT_REG;
		de->d_namlen = (u16)it->it_len;
		memcpy(de->d_name, it->it_name, it->it_len + 1);
	}
	kfree(it);
	return r;
}
