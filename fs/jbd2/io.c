/*
 * Journal block I/O (fs/jbd2, kernel only; the host tests link
 * tests/unit/fakes/jbd2_io_fake.c instead): whole filesystem blocks
 * between kmalloc memory and the device, synchronous, with the block
 * layer's REQ_PREFLUSH and REQ_FUA (block/bio.h) where the journal's
 * ordering needs them.  The block layer drops both for a device without
 * a volatile write cache.
 *
 * Log writes bypass the buffer cache: no buffer ever holds a journal
 * block (the journal inode is not reachable by path), and recovery's home
 * writes are followed by invalidate_bdev() in the mount that asked for them.
 *
 * jbd2.broken_commit=1 (test only) makes commit.c write commit blocks
 * without the preceding flush, so that the power-cut simulator can prove
 * it catches a broken ordering; the mount says so loudly.
 */
#include "fs/jbd2/jbd2.h"
#include "block/bio.h"
#include "block/blkdev_io.h"
#include "kernel/errno.h"
#include "kernel/mm/page.h"
#include "kernel/param.h"
#include "kernel/time.h"

static bool jbd2_param_broken_commit;
PARAM_BOOL("jbd2.broken_commit", jbd2_param_broken_commit,
	   "TEST ONLY: write journal commit blocks without the preceding cache flush");

static unsigned int jbd2_param_commit = JBD2_DEFAULT_COMMIT_S;
PARAM_UINT("jbd2.commit", jbd2_param_commit,
	   "journal commit interval in seconds when a mount gives no commit= option");

u32 jbd2_default_commit_s(void)
{
	return jbd2_param_commit;
}

bool jbd2_io_broken_commit(void)
{
	return jbd2_param_broken_commit;
}

u64 jbd2_now_ms(void)
{
	return ktime_ms();
}

u64 jbd2_now_s(void)
{
	return wallclock_unix();
}

int jbd2_io_read(struct block_device *bdev, u64 blk, u32 bsize, void *buf)
{
	long n = blkdev_pread(bdev, buf, bsize, blk * bsize);

	if (n < 0)
		return (int)n;
	return n == (long)bsize ? 0 : -EIO;
}

int jbd2_io_write(struct block_device *bdev, u64 blk, u32 bsize, const void *buf, u32 n,
		  unsigned flags)
{
	size_t len = (size_t)n * bsize, done = 0;
	const u8 *p = buf;
	struct bio *bio;
	int err;

	if (n > BIO_MAX_VECS * (PAGE_SIZE / bsize))
		return -EINVAL;
	bio = bio_alloc(GFP_NOIO, BIO_MAX_VECS);
	if (!bio)
		return -ENOMEM;
	bio->bi_bdev = bdev;
	bio->bi_iter.bi_sector = blk * (bsize >> SECTOR_SHIFT);
	bio->bi_rw = REQ_WRITE;
	if (flags & JBD2_IO_PREFLUSH)
		bio->bi_rw |= REQ_PREFLUSH;
	if (flags & JBD2_IO_FUA)
		bio->bi_rw |= REQ_FUA;
	while (done < len) {
		const u8 *q = p + done;
		u32 in_page = (u32)((uintptr_t)q & ~PAGE_MASK);
		u32 k = (u32)min(len - done, (size_t)(PAGE_SIZE - in_page));

		if (bio_add_page(bio, virt_to_page((void *)q), k, in_page)) {
			bio_put(bio);
			return -EIO;
		}
		done += k;
	}
	err = submit_bio_wait(bio);
	bio_put(bio);
	return err;
}

int jbd2_io_flush(struct block_device *bdev)
{
	return blkdev_flush(bdev);
}
