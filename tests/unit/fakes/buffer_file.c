/*
 * Host fake of the buffer cache (fs/buffer.h) over an image file or memory.
 *
 * Same contract as fs/buffer.c, with a plain implementation: a hash of
 * buffers per device, an LRU of unreferenced ones bounded by a count,
 * pread/pwrite (or memcpy) for I/O.  Dirty buffers are written back at
 * sync, at eviction and at close.  It checks what a real cache would
 * tolerate silently: a brelse() of an unreferenced buffer aborts, and
 * bdev_file_close() reports buffers still referenced (reference leaks).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "block/bdev.h"
#include "block/blkdev_io.h"
#include "tests/unit/fakes/buffer_file.h"

#define BF_HASH		1024	/* hash chains per device */
#define BF_LIMIT	4096	/* default most buffers kept */

#define BF(bdev)	container_of(bdev, struct bf_dev, bd_bdev)

/* The fake's device: the registry's struct first, for bdev_name(). */
struct bf_dev {
	struct block_device	bd_bdev;	/* bd_name filled in */
	int			bd_fd;		/* -1 for memory */
	u8			*bd_mem;
	u64			bd_off, bd_size;
	bool			bd_ro;
	struct list_head	bd_hash[BF_HASH];
	struct list_head	bd_lru;		/* unreferenced, oldest first */
	u32			bd_nbuf, bd_limit;
	u64			bd_fail_start, bd_fail_end;
	bool			bd_fail_writes;
	struct bdev_stats	bd_st;
};

static struct bf_dev *bdev_new(void)
{
	struct bf_dev *b = calloc(1, sizeof(*b));
	int i;

	if (!b)
		return NULL;
	for (i = 0; i < BF_HASH; i++)
		INIT_LIST_HEAD(&b->bd_hash[i]);
	INIT_LIST_HEAD(&b->bd_lru);
	b->bd_limit = BF_LIMIT;
	b->bd_fd = -1;
	return b;
}

struct block_device *bdev_file_open(const char *path, u64 offset, u64 size, bool ro)
{
	struct bf_dev *b;
	struct stat st;
	int fd;

	fd = open(path, ro ? O_RDONLY : O_RDWR);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || (u64)st.st_size < offset)
		goto close_fd;
	if (size == 0)
		size = (u64)st.st_size - offset;
	b = bdev_new();
	if (!b)
		goto close_fd;
	b->bd_fd = fd;
	b->bd_off = offset;
	b->bd_size = size;
	b->bd_ro = ro;
	snprintf(b->bd_bdev.bd_name, sizeof(b->bd_bdev.bd_name), "file0");
	return &b->bd_bdev;
close_fd:
	close(fd);
	return NULL;
}

struct block_device *bdev_mem_open(void *mem, u64 len, bool ro, const char *name)
{
	struct bf_dev *b = bdev_new();

	if (!b)
		return NULL;
	b->bd_mem = mem;
	b->bd_size = len;
	b->bd_ro = ro;
	snprintf(b->bd_bdev.bd_name, sizeof(b->bd_bdev.bd_name), "%s", name);
	return &b->bd_bdev;
}

static bool in_fail(struct bf_dev *b, u64 pos, u64 len, bool write)
{
	return write == b->bd_fail_writes && pos < b->bd_fail_end &&
	       pos + len > b->bd_fail_start;
}

/* Move [pos, pos + len) of the device to or from @buf, unless it is in a failing range. */
static int bf_rw(struct bf_dev *b, u64 pos, u8 *buf, size_t len, bool write)
{
	ssize_t n;

	if (in_fail(b, pos, len, write))
		return -EIO;
	if (write && b->bd_ro) {
		fprintf(stderr, "buffer_file: write at byte %llu of a read-only device\n",
			(unsigned long long)pos);
		abort();
	}
	if (b->bd_mem) {
		if (write)
			memcpy(b->bd_mem + pos, buf, len);
		else
			memcpy(buf, b->bd_mem + pos, len);
		return 0;
	}
	if (write)
		n = pwrite(b->bd_fd, buf, len, (off_t)(b->bd_off + pos));
	else
		n = pread(b->bd_fd, buf, len, (off_t)(b->bd_off + pos));
	if (n == (ssize_t)len)
		return 0;
	if (n >= 0 && !write) {		/* a short file reads as zeroes */
		memset(buf + n, 0, len - (size_t)n);
		return 0;
	}
	return -EIO;
}

static int bf_io(struct buffer_head *bh, bool write)
{
	struct bf_dev *b = BF(bh->b_bdev);
	int err = bf_rw(b, bh->b_blocknr * bh->b_size, bh->b_data, bh->b_size, write);

	if (!err && write)
		b->bd_st.bs_writes++;
	else if (!err)
		b->bd_st.bs_reads++;
	return err;
}

static int bf_writeback(struct buffer_head *bh)
{
	int err;

	if (!buffer_dirty(bh))
		return 0;
	err = bf_io(bh, true);
	if (err) {
		set_buffer_error(bh);
		return err;
	}
	clear_buffer_dirty(bh);
	return 0;
}

static void bf_free(struct buffer_head *bh)
{
	list_del(&bh->b_hash);
	list_del(&bh->b_lru);
	BF(bh->b_bdev)->bd_nbuf--;
	free(bh->b_data);
	free(bh);
}

/* Evict unreferenced buffers, oldest first, until under the limit. */
static void bf_shrink(struct bf_dev *b)
{
	struct buffer_head *bh, *t;

	list_for_each_entry_safe(bh, t, &b->bd_lru, b_lru) {
		if (b->bd_nbuf < b->bd_limit)
			break;
		if (bf_writeback(bh))
			continue;	/* keep it dirty; sync will report */
		bf_free(bh);
	}
}

/* Drop unreferenced buffers whose size is not @size. */
static void bf_drop_other_sizes(struct bf_dev *b, u32 size)
{
	struct buffer_head *bh, *t;

	list_for_each_entry_safe(bh, t, &b->bd_lru, b_lru)
		if (bh->b_size != size && !bf_writeback(bh))
			bf_free(bh);
}

static struct buffer_head *bf_find(struct bf_dev *b, u64 block, u32 size)
{
	struct list_head *chain = &b->bd_hash[(block ^ size) % BF_HASH];
	struct buffer_head *bh;

	list_for_each_entry(bh, chain, b_hash)
		if (bh->b_blocknr == block && bh->b_size == size)
			return bh;
	return NULL;
}

struct buffer_head *getblk(struct block_device *bdev, u64 block, u32 size)
{
	struct bf_dev *b = BF(bdev);
	struct buffer_head *bh;

	if (size < 512 || size > 65536 || !is_power_of_2(size))
		return ERR_PTR(-EINVAL);
	if (block >= b->bd_size / size)
		return ERR_PTR(-ENXIO);
	bh = bf_find(b, block, size);
	if (bh) {
		if (bh->b_count++ == 0)
			list_del_init(&bh->b_lru);
		return bh;
	}
	bf_drop_other_sizes(b, size);
	bf_shrink(b);
	bh = calloc(1, sizeof(*bh));
	if (!bh)
		return ERR_PTR(-ENOMEM);
	bh->b_data = malloc(size);
	if (!bh->b_data) {
		free(bh);
		return ERR_PTR(-ENOMEM);
	}
	bh->b_bdev = bdev;
	bh->b_blocknr = block;
	bh->b_size = size;
	bh->b_count = 1;
	INIT_LIST_HEAD(&bh->b_lru);
	list_add(&bh->b_hash, &b->bd_hash[(block ^ size) % BF_HASH]);
	b->bd_nbuf++;
	return bh;
}

struct buffer_head *bread(struct block_device *bdev, u64 block, u32 size)
{
	struct buffer_head *bh = getblk(bdev, block, size);
	int err;

	if (IS_ERR(bh) || buffer_uptodate(bh))
		return bh;
	err = bf_io(bh, false);
	if (err) {
		set_buffer_error(bh);
		brelse(bh);
		return ERR_PTR(err);
	}
	set_buffer_uptodate(bh);
	return bh;
}

/* Same rule as fs/direct_io.c: cached blocks through their buffers, the rest straight. */
int direct_rw_blocks(struct block_device *bdev, u64 block, u32 n, u32 size, void *buf, bool write)
{
	struct bf_dev *b = BF(bdev);
	struct buffer_head *bh = NULL;
	u8 *p = buf;
	u32 i = 0, j;
	int err = 0;

	if (size < 512 || size > 65536 || !is_power_of_2(size))
		return -EINVAL;
	if (block + n > b->bd_size / size)
		return -ENXIO;
	while (i < n && !err) {
		for (j = i; j < n && !(bh = bf_find(b, block + j, size)); j++)
			;
		if (j > i) {
			err = bf_rw(b, (block + i) * size, p + (size_t)i * size,
				    (size_t)(j - i) * size, write);
			if (!err && write)
				b->bd_st.bs_writes += j - i;
			else if (!err)
				b->bd_st.bs_reads += j - i;
		}
		if (bh && !err && write) {
			memcpy(bh->b_data, p + (size_t)j * size, size);
			mark_buffer_dirty(bh);
		} else if (bh && !err) {
			if (!buffer_uptodate(bh)) {
				err = bf_io(bh, false);
				if (!err)
					set_buffer_uptodate(bh);
			}
			if (!err)
				memcpy(p + (size_t)j * size, bh->b_data, size);
		}
		i = bh ? j + 1 : j;
	}
	return err;
}

void breadahead(struct block_device *bdev, u64 block, u32 size)
{
	struct buffer_head *bh = bread(bdev, block, size);

	if (!IS_ERR(bh))
		brelse(bh);
}

void brelse(struct buffer_head *bh)
{
	if (!bh)
		return;
	if (bh->b_count == 0) {
		fprintf(stderr, "brelse: block %llu not referenced\n",
			(unsigned long long)bh->b_blocknr);
		abort();
	}
	if (--bh->b_count == 0)
		list_add_tail(&bh->b_lru, &BF(bh->b_bdev)->bd_lru);
}

void mark_buffer_dirty(struct buffer_head *bh)
{
	if (BF(bh->b_bdev)->bd_ro) {
		fprintf(stderr, "mark_buffer_dirty: block %llu on a read-only device\n",
			(unsigned long long)bh->b_blocknr);
		abort();
	}
	set_buffer_dirty(bh);
	set_buffer_uptodate(bh);
}

int sync_dirty_buffer(struct buffer_head *bh)
{
	return bf_writeback(bh);
}

static int cmp_blocks(const void *a, const void *b)
{
	const struct buffer_head *x = *(struct buffer_head *const *)a;
	const struct buffer_head *y = *(struct buffer_head *const *)b;

	return x->b_blocknr < y->b_blocknr ? -1 : x->b_blocknr > y->b_blocknr;
}

int sync_blockdev(struct block_device *bdev)
{
	struct bf_dev *b = BF(bdev);
	struct buffer_head **v, *bh;
	u32 n = 0, i;
	int err = 0, e;

	v = malloc((b->bd_nbuf + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < BF_HASH; i++)
		list_for_each_entry(bh, &b->bd_hash[i], b_hash)
			if (buffer_dirty(bh))
				v[n++] = bh;
	qsort(v, n, sizeof(*v), cmp_blocks);
	for (i = 0; i < n; i++) {
		e = bf_writeback(v[i]);
		if (e && !err)
			err = e;
	}
	free(v);
	/* The "cache flush": counted, not fsync()ed; tests need order, not durability. */
	b->bd_st.bs_flushes++;
	return err;
}

int invalidate_bdev(struct block_device *bdev)
{
	struct bf_dev *b = BF(bdev);
	struct buffer_head *bh, *t;
	int err = 0, i;

	for (i = 0; i < BF_HASH; i++)
		list_for_each_entry_safe(bh, t, &b->bd_hash[i], b_hash) {
			if (bh->b_count) {
				fprintf(stderr, "invalidate_bdev: block %llu still has %u references\n",
					(unsigned long long)bh->b_blocknr, bh->b_count);
				err = -EBUSY;
				continue;
			}
			if (bf_writeback(bh) && !err)
				err = -EIO;
			bf_free(bh);
		}
	return err;
}

int bdev_file_close(struct block_device *bdev)
{
	struct bf_dev *b = BF(bdev);
	int err = sync_blockdev(bdev), e;

	e = invalidate_bdev(bdev);
	if (e)
		err = e;
	if (b->bd_nbuf == 0) {
		if (b->bd_fd >= 0)
			close(b->bd_fd);
		free(b);
	}
	return err;
}

void bdev_get_stats(struct block_device *bdev, struct bdev_stats *st)
{
	struct bf_dev *b = BF(bdev);
	struct buffer_head *bh;
	int i;

	*st = b->bd_st;
	st->bs_cached = b->bd_nbuf;
	st->bs_referenced = 0;
	for (i = 0; i < BF_HASH; i++)
		list_for_each_entry(bh, &b->bd_hash[i], b_hash)
			if (bh->b_count)
				st->bs_referenced++;
}

void bdev_fail_range(struct block_device *bdev, u64 start, u64 end, bool writes)
{
	struct bf_dev *b = BF(bdev);
	b->bd_fail_start = start;
	b->bd_fail_end = end;
	b->bd_fail_writes = writes;
}

void bdev_set_cache_limit(struct block_device *bdev, u32 n)
{
	struct bf_dev *b = BF(bdev);
	b->bd_limit = n ? n : 1;
}

/* The registry's calls the filesystem makes (block/bdev.h, block/blkdev_io.h). */
u64 blkdev_size(struct block_device *bdev) { return BF(bdev)->bd_size; }
bool bdev_read_only(const struct block_device *bdev) { return BF(bdev)->bd_ro; }
