/*
 * Direct I/O of whole blocks (contract: fs/direct_io.h): file data moved
 * between the caller's memory and the device without a buffer per block,
 * coherent with the buffer cache.
 *
 * A request is walked against the cache: each stretch of blocks the
 * cache does not hold goes to the block layer's synchronous helper
 * (blkdev_pread/blkdev_pwrite, block-aligned, lowmem), and each block it
 * does hold goes through its buffer instead, so a cached copy is never
 * bypassed.  The walk goes a region at a time where the cache's region
 * counters say it holds nothing there (buffer_uncached_span) and looks
 * up single blocks only in the regions that hold some: file data sits in
 * regions of its own, so a large request costs a few counter reads, not
 * a locked hash lookup per block.  Memory the device cannot be given as it is goes
 * through a bounce of lowmem pages.
 *
 * Lock legend: see fs/buffer_priv.h; this file takes bcache.lock only
 * through the cache's calls.  Callers are serialised.
 */
#include "fs/direct_io.h"
#include "fs/buffer_priv.h"
#include "block/blkdev_io.h"
#include "kernel/errno.h"
#include "kernel/mm/page.h"
#include "lib/string.h"

#define DIRECT_BOUNCE_ORDER 4		/* 2^n pages: the bounce for memory the
					   device cannot be given as it is */

/*
 * Move one block through its cached buffer, then drop the reference.  A
 * write first waits for the buffer's I/O: a read landing, or a write-back
 * leaving, must not overlap the copy.
 */
static int cached_rw(struct buffer_head *bh, u8 *buf, bool write)
{
	int err = 0;

	if (write) {
		wait_on_buffer(bh);
		memcpy(bh->b_data, buf, bh->b_size);
		mark_buffer_dirty(bh);
	} else {
		err = bh_submit_read(bh);
		if (!err)
			memcpy(buf, bh->b_data, bh->b_size);
	}
	brelse(bh);
	return err;
}

/*
 * Move @n blocks at @block straight between the device and @buf, which
 * is lowmem, through the block layer's synchronous helper.  0 or -errno.
 */
static int uncached_rw(struct block_device *bdev, u64 block, u32 n, u32 size,
		       u8 *buf, bool write)
{
	size_t len = (size_t)n * size;
	u64 off = block * size;
	long done;

	if (write)
		done = blkdev_pwrite(bdev, buf, len, off);
	else
		done = blkdev_pread(bdev, buf, len, off);
	if (done < 0)
		return (int)done;
	if ((size_t)done != len)	/* the range was checked: the device shrank */
		return -EIO;
	bcache.direct += n;
	return 0;
}

/* direct_rw_blocks() on lowmem aligned to @size. */
static int direct_rw(struct block_device *bdev, u64 block, u32 n, u32 size,
		     u8 *buf, bool write)
{
	struct buffer_head *bh;
	u32 i = 0, j, k;
	int err = 0;

	while (i < n && !err) {
		bh = NULL;
		for (j = i; j < n; j++) {	/* [i, j) is not cached; bh the block at j */
			k = buffer_uncached_span(bdev, block + j, n - j, size);
			if (k) {
				j += k - 1;
				continue;
			}
			bh = buffer_lookup_get(bdev, block + j, size);
			if (bh)
				break;
		}
		if (j > i)
			err = uncached_rw(bdev, block + i, j - i, size, buf + (size_t)i * size, write);
		if (bh) {
			if (!err)
				err = cached_rw(bh, buf + (size_t)j * size, write);
			else
				brelse(bh);
			j++;
		}
		i = j;
	}
	return err;
}

int direct_rw_blocks(struct block_device *bdev, u64 block, u32 n, u32 size,
		     void *buf, bool write)
{
	size_t len = (size_t)n * size, k;
	unsigned order = DIRECT_BOUNCE_ORDER;
	u8 *p = buf, *bounce;
	int err;

	if (!buffer_size_ok(size))
		return -EINVAL;
	err = buffer_cache_init();
	if (err)
		return err;
	if (block + n > blkdev_size(bdev) / size)
		return -ENXIO;
	if (!n)
		return 0;
	if (virt_addr_valid(p) && virt_addr_valid(p + len - 1) && !((uintptr_t)p & (size - 1)))
		return direct_rw(bdev, block, n, size, p, write);

	/* vmalloc memory or a misaligned buffer: through lowmem pages, copied once */
	while (!(bounce = get_free_pages(GFP_NOIO, order)) && order)
		order--;		/* fragmented: smaller bios rather than none */
	if (!bounce)
		return -ENOMEM;
	for (; len && !err; len -= k, p += k, block += k / size) {
		k = min(len, (size_t)PAGE_SIZE << order);
		if (write)
			memcpy(bounce, p, k);
		err = direct_rw(bdev, block, (u32)(k / size), size, bounce, write);
		if (!err && !write)
			memcpy(p, bounce, k);
	}
	free_pages(bounce, order);
	return err;
}
