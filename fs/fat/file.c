/*
 * FAT file data: read, write and truncate of regular files.
 *
 * A file is its cluster chain; byte b lies in chain cluster b / csize.
 * Data moves in runs: the whole sectors of a request that lie in clusters
 * contiguous on disk go in one direct_rw_blocks() call (coherent with the
 * buffer cache), the partial sectors at the ends through the cache.
 * FAT has no holes: a write past the end first writes zeroes from the old
 * end, and truncating upwards does the same.  A full volume ends a write
 * short; the count says how far it got.  Files are limited to 4 GiB - 1
 * (FileSize is 32 bits).
 */
#include "fs/fat/fat.h"
#include "block/bdev.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

#define FAT_MAX_FILE	0xFFFFFFFFULL	/* DIR_FileSize is 32 bits */
#define FAT_MAX_RUN	(256 * 1024)	/* bytes moved by one direct call, at most */
#define FAT_ZERO_CHUNK	4096		/* bytes of zeroes written per step when extending */

/*
 * Move up to @len bytes at @pos (within the chain, growing it for a
 * write) between @buf and the disk.  Returns the bytes moved (> 0) or -errno.
 */
static long fat_rw_run(struct fat_node *n, u64 pos, u8 *buf, size_t len, bool write)
{
	struct fat_fs *fs = n->n_fs;
	const struct fat_geom *g = &fs->fs_g;
	u32 lclus = (u32)(pos / g->g_csize), coff = (u32)(pos % g->g_csize), pclus, next;
	u32 sec, soff, nsec, avail;
	struct buffer_head *bh;
	size_t done;
	int err;

	err = fat_bmap(n, lclus, write, &pclus);
	if (err)
		return err;
	sec = fat_cluster_sector(g, pclus) + (coff >> g->g_bps_shift);
	soff = coff & (g->g_bps - 1);
	if (soff || len < g->g_bps) {
		done = min((size_t)(g->g_bps - soff), len);
		bh = fat_bread(fs, sec);
		if (IS_ERR(bh))
			return PTR_ERR(bh);
		if (write) {
			memcpy(bh->b_data + soff, buf, done);
			mark_buffer_dirty(bh);
		} else {
			memcpy(buf, bh->b_data + soff, done);
		}
		brelse(bh);
		return (long)done;
	}
	/* Whole sectors: to the end of this cluster, then on through contiguous ones. */
	avail = g->g_csize - coff;
	while (avail < len && avail < FAT_MAX_RUN) {
		err = fat_bmap(n, lclus + 1, write, &next);
		if (err || next != pclus + 1)
			break;
		lclus++;
		pclus = next;
		avail += g->g_csize;
	}
	nsec = (u32)(min((size_t)avail, min(len, (size_t)FAT_MAX_RUN)) >> g->g_bps_shift);
	err = direct_rw_blocks(fs->fs_bdev, sec, nsec, g->g_bps, buf, write);
	if (err)
		return err;
	return (long)nsec << g->g_bps_shift;
}

long fat_read(struct vnode *v, u64 pos, void *buf, size_t len)
{
	struct fat_node *n = FAT_N(v);
	size_t done = 0;
	long r;

	if (n->n_dir)
		return -EISDIR;
	if (n->n_err)
		return n->n_err;
	if (pos >= n->n_size)
		return 0;
	len = (size_t)min((u64)len, n->n_size - pos);
	while (done < len) {
		r = fat_rw_run(n, pos + done, (u8 *)buf + done, len - done, false);
		if (r < 0)
			return done ? (long)done : r;
		done += (size_t)r;
	}
	return (long)done;
}

/* Write @len bytes at @pos, growing the chain; the bytes written or -errno. */
static long fat_write_at(struct fat_node *n, u64 pos, const u8 *buf, size_t len)
{
	size_t done = 0;
	long r;

	while (done < len) {
		r = fat_rw_run(n, pos + done, (u8 *)buf + done, len - done, true);
		if (r < 0) {
			if (r != -ENOSPC)
				pr_err("vfat (%s): write failed: %s\n", bdev_name(n->n_fs->fs_bdev),
				       errstr((int)r));
			break;
		}
		done += (size_t)r;
	}
	if (pos + done > n->n_size)
		n->n_size = (u32)(pos + done);
	if (done) {
		fat_touch(n);
		return (long)done;
	}
	return len ? r : 0;
}

/* Zeroes from the end of the file to @size.  0 or -errno (-ENOSPC: it got part way). */
static int fat_extend(struct fat_node *n, u64 size)
{
	u8 *zero = kzalloc(FAT_ZERO_CHUNK, GFP_KERNEL);
	long r = 0;

	if (!zero)
		return -ENOMEM;
	while (n->n_size < size) {
		r = fat_write_at(n, n->n_size, zero, (size_t)min((u64)FAT_ZERO_CHUNK, size - n->n_size));
		if (r < 0)
			break;
		if (r == 0) {
			r = -ENOSPC;
			break;
		}
	}
	kfree(zero);
	return r < 0 ? (int)r : 0;
}

long fat_write(struct vnode *v, u64 pos, const void *buf, size_t len)
{
	struct fat_node *n = FAT_N(v);
	int err;

	if (n->n_dir)
		return -EISDIR;
	if (n->n_err)
		return n->n_err;
	if (pos >= FAT_MAX_FILE)
		return -EFBIG;
	len = (size_t)min((u64)len, FAT_MAX_FILE - pos);
	if (pos > n->n_size) {
		err = fat_extend(n, pos);
		if (err)
			return err;
	}
	return fat_write_at(n, pos, buf, len);
}

int fat_truncate(struct vnode *v, u64 size)
{
	struct fat_node *n = FAT_N(v);
	u32 csize = n->n_fs->fs_g.g_csize;
	int err;

	if (n->n_dir)
		return -EISDIR;
	if (n->n_err)
		return n->n_err;
	if (size > FAT_MAX_FILE)
		return -EFBIG;
	if (size > n->n_size)
		return fat_extend(n, size);
	err = fat_truncate_chain(n, (u32)((size + csize - 1) / csize));
	n->n_size = (u32)size;
	fat_touch(n);
	return err;
}
