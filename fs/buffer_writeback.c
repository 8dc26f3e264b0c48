/*
 * Write-back (part of the buffer cache, fs/buffer_priv.h): dirty buffers
 * to the disk, for sync_dirty_buffer(), sync_blockdev() and the cache
 * making room.
 *
 * Write-back sorts the dirty blocks by (device, size, number) and sends
 * each run of consecutive blocks as one bio, so the elevator sees large
 * requests in sector order.  Retry policy: a run that fails is written
 * again block by block, each waited for on its own so the queue cannot
 * merge them, so that a bad sector costs only its own block; a block
 * that still fails stays dirty with its error bit set, for the next sync
 * or for invalidate_bdev to report.  sync_blockdev ends with a cache
 * flush, the ordering promise the filesystem relies on.
 *
 * Errors a caller sees: -EIO for anything the device reported, -ENOMEM
 * when a bio could not be built (nothing was sent; the block stays dirty).
 *
 * Lock legend: see fs/buffer_priv.h.
 */
#include "fs/buffer_priv.h"
#include "block/bio.h"
#include "block/bdev.h"
#include "block/blkdev_io.h"
#include "kernel/completion.h"
#include "kernel/errno.h"
#include "kernel/mm/slab.h"
#include "lib/sort.h"

/* What a submitter's first error becomes for its caller (see above). */
static int io_result(int err)
{
	if (err == -ENOMEM || !err)
		return err;
	return -EIO;
}

static int cmp_block(const void *a, const void *b)
{
	const struct buffer_head *x = *(struct buffer_head *const *)a;
	const struct buffer_head *y = *(struct buffer_head *const *)b;

	if (x->b_bdev != y->b_bdev)
		return (uintptr_t)x->b_bdev < (uintptr_t)y->b_bdev ? -1 : 1;
	if (x->b_size != y->b_size)
		return x->b_size < y->b_size ? -1 : 1;
	return x->b_blocknr < y->b_blocknr ? -1 : x->b_blocknr > y->b_blocknr;
}

/*
 * Take a dirty, idle-of-I/O buffer for writing: clean it (a write that
 * fails makes it dirty again) and mark its I/O in flight.  Caller holds [c].
 */
static void __start_write(struct buffer_head *bh)
{
	clear_buffer_dirty(bh);
	set_buffer_locked(bh);
}

/*
 * Write v[0..n) (sorted by cmp_block, each referenced and locked) as one
 * bio per run of at most @max consecutive blocks, and wait for all of
 * them.  Returns 0, -EIO or -ENOMEM; a buffer whose write failed is dirty
 * again, with its error bit set.
 */
static int write_buffers(struct buffer_head **v, size_t n, size_t max)
{
	struct completion done;
	size_t i, j;
	int pending = 1, err = 0;	/* pending held until every run is submitted */

	init_completion(&done);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && j - i < max &&
		     v[j]->b_bdev == v[i]->b_bdev && v[j]->b_size == v[i]->b_size &&
		     v[j]->b_blocknr == v[j - 1]->b_blocknr + 1; j++)
			;
		buffer_submit_run(v + i, (unsigned)(j - i), true, &pending, &done, &err);
		bcache.writes += j - i;
	}
	if (__atomic_sub_fetch(&pending, 1, __ATOMIC_ACQ_REL) == 0)
		complete(&done);	/* every run ended already */
	for (i = 0; i < n; i++)		/* runs are sorted by device */
		if (i == 0 || v[i]->b_bdev != v[i - 1]->b_bdev)
			buffer_kick(v[i]->b_bdev);
	wait_for_completion(&done);
	return io_result(err);
}

/*
 * After a failed write_buffers(), write each buffer that failed again on
 * its own, waiting for each so that the queue cannot merge them: a request
 * fails as a whole, and one bad sector must not cost the blocks that merely
 * shared it (nor a passing error any block).  Returns 0 or the first error.
 */
static int rewrite_failed(struct buffer_head **v, size_t n)
{
	struct buffer_head *bh;
	unsigned long flags;
	int err = 0, e;
	size_t i;

	for (i = 0; i < n; i++) {
		bh = v[i];
		spin_lock_irqsave(&bcache.lock, flags);
		if (!buffer_dirty(bh) || !buffer_error(bh)) {
			spin_unlock_irqrestore(&bcache.lock, flags);
			continue;
		}
		__start_write(bh);
		spin_unlock_irqrestore(&bcache.lock, flags);
		e = write_buffers(&v[i], 1, 1);
		if (e && !err)
			err = e;
	}
	return err;
}

/*
 * Write the dirty buffers of bdev (all devices if NULL) in block order,
 * as one bio per run of consecutive blocks, and wait for all of them;
 * the blocks of a run that failed are tried again one by one.  Returns 0,
 * -EIO or -ENOMEM (the buffers that could not be written stay dirty).
 */
int buffer_writeback(struct block_device *bdev)
{
	struct buffer_head **v, *bh;
	unsigned long flags;
	size_t n = 0, cap, i;
	int err;

	cap = bcache.nr_buffers;
	if (!cap)
		return 0;
	v = kmalloc(cap * sizeof(*v), GFP_NOIO);
	if (!v)
		return -ENOMEM;
	spin_lock_irqsave(&bcache.lock, flags);
	for (i = 0; i < BUFFER_HASH_SIZE && n < cap; i++) {
		list_for_each_entry(bh, &bcache.hash[i], b_hash) {
			if (n == cap)
				break;
			if ((bdev && bh->b_bdev != bdev) || !buffer_dirty(bh) || buffer_locked(bh))
				continue;
			__start_write(bh);
			if (bh->b_count++ == 0)
				list_del_init(&bh->b_lru);
			v[n++] = bh;
		}
	}
	spin_unlock_irqrestore(&bcache.lock, flags);

	sort(v, n, sizeof(*v), cmp_block);
	err = write_buffers(v, n, BIO_MAX_VECS);
	if (err)
		err = rewrite_failed(v, n);
	for (i = 0; i < n; i++)
		brelse(v[i]);
	kfree(v);
	return err;
}

int sync_dirty_buffer(struct buffer_head *bh)
{
	struct completion done;
	unsigned long flags;
	int pending = 0, err = 0;

	wait_on_buffer(bh);
	spin_lock_irqsave(&bcache.lock, flags);
	if (!buffer_dirty(bh)) {
		spin_unlock_irqrestore(&bcache.lock, flags);
		return buffer_error(bh) ? -EIO : 0;
	}
	__start_write(bh);
	spin_unlock_irqrestore(&bcache.lock, flags);
	init_completion(&done);
	buffer_submit_run(&bh, 1, true, &pending, &done, &err);
	if (__atomic_load_n(&pending, __ATOMIC_ACQUIRE)) {
		buffer_kick(bh->b_bdev);
		wait_for_completion(&done);
	}
	return io_result(err);
}

int sync_blockdev(struct block_device *bdev)
{
	int err, ferr;

	if (!bcache.data[0])
		return bdev_read_only(bdev) ? 0 : blkdev_flush(bdev);
	err = buffer_writeback(bdev);
	if (bdev_read_only(bdev))
		return err;
	ferr = blkdev_flush(bdev);
	return err ? err : ferr;
}
