/*
 * Synchronous byte-range I/O on block devices: the block layer's one
 * "read or write some sectors and wait" helper.  Contract: block/blkdev_io.h.
 *
 * Layer: block core, above submit_bio().  The middle of a range that
 * covers whole logical blocks goes straight from the caller's buffer as
 * bios as large as the device takes (blkdev_rw_linear); the ends go
 * through a one-block bounce buffer, read-modify-write for writes.  Each
 * bio is waited for with submit_bio_wait(), which unplugs the queue, so
 * nothing here waits for the unplug timer.
 */
#include "block/blkdev_io.h"
#include "block/bdev.h"
#include "block/bio.h"
#include "block/blkdev.h"
#include "block/genhd.h"
#include "kernel/errno.h"
#include "kernel/mm/page.h"
#include "lib/string.h"

u64 blkdev_size(struct block_device *bdev)
{
	return (u64)bdev_nr_sects(bdev) << SECTOR_SHIFT;
}

static u32 lblock(struct block_device *bdev)
{
	u32 lbs = bdev->bd_disk->gd_logical_block_size;

	return lbs ? lbs : SECTOR_SIZE;
}

/*
 * Whole logical blocks (len and off their multiples) straight between
 * lowmem memory and the device, as large bios one after the other, each
 * built with as few bio_add_page() calls as the memory allows (one for a
 * buffer inside one memory range, rather than one per page).
 * 0, or a negative errno.
 */
static int blkdev_rw_linear(struct block_device *bdev, void *buf, size_t len, u64 off,
			    bool write)
{
	struct request_queue *q = bdev_get_queue(bdev);
	size_t most = q ? (size_t)q->q_limits.lim_max_hw_sectors << SECTOR_SHIFT : 0;
	u8 *p = buf;

	most = max(most & ~(size_t)(PAGE_SIZE - 1), (size_t)PAGE_SIZE);	/* whole pages */

	while (len) {
		size_t first = min(len, most);
		unsigned long npages = ((uintptr_t)p % PAGE_SIZE + first - 1) / PAGE_SIZE + 1;
		/* One memory range: one vector, in the bio itself (no vector pool). */
		bool one = pages_contiguous(virt_to_page(p), virt_to_page(p + first - 1), npages);
		struct bio *bio = bio_alloc(GFP_NOIO, one ? 1 : BIO_MAX_VECS);
		size_t done = 0;
		int err;

		bio->bi_bdev = bdev;
		bio->bi_iter.bi_sector = off >> SECTOR_SHIFT;
		bio->bi_rw = write ? REQ_WRITE : 0;
		while (done < len) {
			u8 *m = p + done;
			u32 in_page = (u32)((uintptr_t)m & ~PAGE_MASK);
			size_t n = min(len - done, most > bio->bi_iter.bi_size ?
					most - bio->bi_iter.bi_size : (size_t)PAGE_SIZE);
			struct page *pg = virt_to_page(m);

			/*
			 * Lowmem is mapped linearly: all the bytes up to what the
			 * device takes at once go as one entry when they lie in one
			 * memory range, else page by page.
			 */
			if (n > PAGE_SIZE - in_page &&
			    !pages_contiguous(pg, virt_to_page(m + n - 1), (in_page + n - 1) / PAGE_SIZE + 1))
				n = PAGE_SIZE - in_page;
			if (bio_add_page(bio, pg, (u32)n, in_page))
				break;	/* the bio is full: send what it has */
			done += n;
		}
		err = done ? submit_bio_wait(bio) : -EIO;
		bio_put(bio);
		if (err)
			return err;
		p += done;
		off += done;
		len -= done;
	}
	return 0;
}

/*
 * One partial block at block-aligned offset @blk: [skip, skip+n) of it.
 * The bounce block is read first; for a write the new bytes go in and it
 * goes back.
 */
static int rw_partial(struct block_device *bdev, u8 *bounce, u32 lbs, u64 blk,
		      u32 skip, u8 *buf, u32 n, bool write)
{
	int err = blkdev_rw_linear(bdev, bounce, lbs, blk, false);

	if (err)
		return err;
	if (!write) {
		memcpy(buf, bounce + skip, n);
		return 0;
	}
	memcpy(bounce + skip, buf, n);
	return blkdev_rw_linear(bdev, bounce, lbs, blk, true);
}

static long blkdev_rw(struct block_device *bdev, u8 *buf, size_t len, u64 off, bool write)
{
	u32 lbs = lblock(bdev);
	u64 size = blkdev_size(bdev);
	size_t total;
	u8 *bounce = NULL;
	long ret;
	int err = 0;

	if (off >= size)
		return 0;
	if (len > size - off)
		len = (size_t)(size - off);
	total = len;
	if ((off | len) & (lbs - 1)) {
		bounce = get_free_pages(GFP_KERNEL, 0);	/* lowmem; lbs <= PAGE_SIZE */
		if (!bounce)
			return -ENOMEM;
	}
	if (off & (lbs - 1)) {			/* head */
		u32 skip = (u32)(off & (lbs - 1));
		u32 n = (u32)min((size_t)(lbs - skip), len);

		err = rw_partial(bdev, bounce, lbs, off - skip, skip, buf, n, write);
		if (err)
			goto out;
		buf += n;
		off += n;
		len -= n;
	}
	if (len >= lbs) {			/* middle */
		size_t mid = len & ~(size_t)(lbs - 1);

		err = blkdev_rw_linear(bdev, buf, mid, off, write);
		if (err)
			goto out;
		buf += mid;
		off += mid;
		len -= mid;
	}
	if (len)				/* tail */
		err = rw_partial(bdev, bounce, lbs, off, 0, buf, (u32)len, write);
out:
	if (bounce)
		free_pages(bounce, 0);
	ret = err ? err : (long)total;
	return ret;
}

long blkdev_pread(struct block_device *bdev, void *buf, size_t len, u64 off)
{
	return blkdev_rw(bdev, buf, len, off, false);
}

long blkdev_pwrite(struct block_device *bdev, const void *buf, size_t len, u64 off)
{
	return blkdev_rw(bdev, (u8 *)buf, len, off, true);
}

int blkdev_flush(struct block_device *bdev)
{
	struct bio *bio = bio_alloc(GFP_NOIO, 0);
	int err;

	bio->bi_bdev = bdev;
	bio->bi_rw = REQ_WRITE | REQ_PREFLUSH;
	err = submit_bio_wait(bio);
	bio_put(bio);
	return err;
}

/* Range bios are sent this many sectors at most at a time (2 GiB; the queue splits further). */
#define BLKDEV_RANGE_CHUNK	(1u << 22)

/* One DISCARD or WRITE ZEROES bio per chunk of [sector, +nr), each waited for. */
static int blkdev_issue_range(struct block_device *bdev, sector_t sector, u64 nr, u32 op)
{
	u32 lbs = lblock(bdev) >> SECTOR_SHIFT;
	int err = 0;

	if ((sector | nr) % lbs)
		return -EINVAL;
	while (nr && !err) {
		struct bio *bio = bio_alloc(GFP_NOIO, 0);
		u32 n = (u32)min(nr, (u64)BLKDEV_RANGE_CHUNK);

		bio->bi_bdev = bdev;
		bio->bi_rw = REQ_WRITE | op;
		bio->bi_iter.bi_sector = sector;
		bio->bi_iter.bi_size = n << SECTOR_SHIFT;
		err = submit_bio_wait(bio);
		bio_put(bio);
		sector += n;
		nr -= n;
	}
	return err;
}

int blkdev_issue_discard(struct block_device *bdev, sector_t sector, u64 nr_sects)
{
	return blkdev_issue_range(bdev, sector, nr_sects, REQ_DISCARD);
}

/* The fallback of zeroout: ordinary writes of one zeroed page, repeated. */
static int blkdev_write_zero_pages(struct block_device *bdev, sector_t sector, u64 nr)
{
	struct page *zero = alloc_page(GFP_KERNEL | __GFP_ZERO);
	int err = 0;

	if (!zero)
		return -ENOMEM;
	while (nr && !err) {
		struct bio *bio = bio_alloc(GFP_NOIO, BIO_MAX_VECS);
		u32 n;

		bio->bi_bdev = bdev;
		bio->bi_rw = REQ_WRITE;
		bio->bi_iter.bi_sector = sector;
		while (nr) {
			n = (u32)min(nr, (u64)(PAGE_SIZE >> SECTOR_SHIFT));
			if (bio_add_page(bio, zero, n << SECTOR_SHIFT, 0))
				break;	/* full: send what it has */
			sector += n;
			nr -= n;
		}
		err = bio->bi_iter.bi_size ? submit_bio_wait(bio) : -EIO;
		bio_put(bio);
	}
	__free_page(zero);
	return err;
}

int blkdev_issue_zeroout(struct block_device *bdev, sector_t sector, u64 nr_sects)
{
	int err = blkdev_issue_range(bdev, sector, nr_sects, REQ_WRITE_ZEROES);

	if (err == -EOPNOTSUPP)
		err = blkdev_write_zero_pages(bdev, sector, nr_sects);
	return err;
}
