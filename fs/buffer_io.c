/*
 * A buffer's I/O (part of the buffer cache, fs/buffer_priv.h): building
 * and submitting the bio for a run of buffers, completing it, waiting for
 * it, the cache's own fill read, and sequential readahead.
 *
 * All I/O is bios.  A run of consecutive blocks of one device goes as one
 * multi-page bio when the queue's limits allow, else as few as they need;
 * each buffer is one {page, offset, len} vector (block data never
 * straddles a page).  The completion runs in interrupt context: it sets
 * the buffers' state bits under [c] and counts down the submitter's
 * pending I/Os.  A bio that cannot be built (out of memory) fails its
 * buffers as an I/O error would, and the submitter sees -ENOMEM.
 *
 * Readahead: per device the cache remembers the next block it expects; a
 * miss on it doubles a window (up to RA_MAX_BYTES) and reads that far
 * ahead asynchronously, each buffer's reference travelling with its bio.
 *
 * Lock legend: see fs/buffer_priv.h.
 */
#include "fs/buffer_priv.h"
#include "block/bio.h"
#include "block/blkdev.h"
#include "block/bdev.h"
#include "block/blkdev_io.h"
#include "kernel/completion.h"
#include "kernel/errno.h"
#include "kernel/mm/page.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

#define RA_MIN_BLOCKS	4
#define RA_MAX_BYTES	(128 * 1024)	/* readahead window cap */
#define RA_RUN		64		/* buffers gathered before a readahead bio */

/* One bio's worth of buffers, for its completion. */
struct buf_io {
	unsigned		bu_n;
	int			*bu_pending;	/* submitter's countdown, or NULL */
	struct completion	*bu_done;	/* NULL: readahead, nobody waits */
	int			*bu_err;	/* first error, for the submitter */
	struct buffer_head	*bu_bhs[];
};

/*
 * End the I/O of @n buffers: clear the lock bit, record the result, and
 * for readahead (@owned) drop the reference that travelled with the I/O.
 * Caller holds [c].
 */
static void __end_buffers(struct buffer_head **bhs, unsigned n, bool write, int error,
			  bool owned)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		struct buffer_head *bh = bhs[i];

		clear_buffer_locked(bh);
		if (error) {
			set_buffer_error(bh);
			if (write)	/* still newer than the disk */
				set_buffer_dirty(bh);
		} else {
			clear_buffer_error(bh);
			if (!write)
				set_buffer_uptodate(bh);
		}
		if (owned && --bh->b_count == 0)
			list_add_tail(&bh->b_lru, &bcache.lru);
	}
}

/*
 * Record @error for the submitter (the first one stays).  Its bios end on
 * whichever CPU takes the interrupt, while it may still be submitting:
 * its error and countdown change by atomic operations only.
 */
static void note_error(int *err, int error)
{
	int none = 0;

	if (error && err)
		__atomic_compare_exchange_n(err, &none, error, false, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED);
}

/* ... and count one I/O of theirs done; the last one wakes them. */
static void note_done(int *pending, struct completion *done, int *err, int error)
{
	note_error(err, error);
	if (pending && __atomic_sub_fetch(pending, 1, __ATOMIC_ACQ_REL) == 0)
		complete(done);
}

static void end_buffer_io(struct bio *bio, int error)
{
	struct buf_io *io = bio->bi_private;
	unsigned long flags;

	spin_lock_irqsave(&bcache.lock, flags);
	__end_buffers(io->bu_bhs, io->bu_n, bio_is_write(bio), error, !io->bu_done);
	spin_unlock_irqrestore(&bcache.lock, flags);
	note_done(io->bu_pending, io->bu_done, io->bu_err, error);
	kfree(io);
	bio_put(bio);
}

/*
 * Send as many of bhs[0..n) as the queue takes in one bio; returns how
 * many it took (all n, failed with -ENOMEM, if the bio could not be built).
 */
static unsigned submit_some(struct buffer_head **bhs, unsigned n, bool write,
			    int *pending, struct completion *done, int *err)
{
	struct buffer_head *first = bhs[0];
	unsigned long flags;
	struct buf_io *io;
	struct bio *bio;
	unsigned i;

	io = kmalloc(sizeof(*io) + n * sizeof(bhs[0]), GFP_NOIO);
	bio = bio_alloc(GFP_NOIO, n);
	if (!io || !bio)
		goto fail;
	io->bu_pending = pending;
	io->bu_done = done;
	io->bu_err = err;
	memcpy(io->bu_bhs, bhs, n * sizeof(bhs[0]));
	bio->bi_bdev = first->b_bdev;
	bio->bi_iter.bi_sector = first->b_blocknr * (first->b_size >> SECTOR_SHIFT);
	bio->bi_rw = write ? REQ_WRITE : 0;
	bio->bi_end_io = end_buffer_io;
	bio->bi_private = io;
	for (i = 0; i < n; i++) {
		u8 *d = bhs[i]->b_data;

		if (bio_add_page(bio, virt_to_page(d), bhs[i]->b_size,
				 (u32)((uintptr_t)d & ~PAGE_MASK)))
			break;
	}
	if (i == 0)
		goto fail;
	io->bu_n = i;		/* the queue's limits may stop the bio short */
	if (pending)
		__atomic_add_fetch(pending, 1, __ATOMIC_RELAXED);
	submit_bio(bio);
	return i;

fail:
	/*
	 * Out of memory (I/O-path allocations should not fail): nothing was
	 * sent.  The buffers fail as an I/O error leaves them (a write stays
	 * dirty, to be tried again), but the submitter hears -ENOMEM: the
	 * disk is not at fault, and a filesystem must not report it as bad.
	 */
	if (bio)
		bio_put(bio);
	kfree(io);
	spin_lock_irqsave(&bcache.lock, flags);
	__end_buffers(bhs, n, write, -ENOMEM, !done);
	spin_unlock_irqrestore(&bcache.lock, flags);
	note_error(err, -ENOMEM);
	return n;
}

void buffer_submit_run(struct buffer_head **bhs, unsigned n, bool write,
		       int *pending, struct completion *done, int *err)
{
	unsigned k;

	while (n) {
		k = submit_some(bhs, n, write, pending, done, err);
		bhs += k;
		n -= k;
	}
}

/*
 * About to wait for I/O on bdev: let its queue go now rather than when the
 * plug timer fires (the 2.6 "unplug before you sleep" rule).  Without it
 * every synchronous read waited BLK_UNPLUG_DELAY_MS for nothing.
 */
void buffer_kick(struct block_device *bdev)
{
	struct request_queue *q = bdev_get_queue(bdev);

	if (q)
		blk_unplug(q);
}

void wait_on_buffer(struct buffer_head *bh)
{
	if (!buffer_locked(bh))
		return;
	buffer_kick(bh->b_bdev);
	while (buffer_locked(bh))
		cpu_idle_once();	/* the block layer's timeouts bound this */
}

/*
 * bh_submit_read - the cache's fill path for one buffer
 *
 * Not a general "read sectors" helper (that is blkdev_pread): it fills
 * the cache's own buffer.  If @bh is neither uptodate nor under I/O,
 * submit its read and wait; if a read (readahead) is already in flight,
 * wait for that one.  Returns 0 with @bh uptodate, -EIO if the read
 * failed, -ENOMEM if its bio could not be built.
 */
int bh_submit_read(struct buffer_head *bh)
{
	struct completion done;
	unsigned long flags;
	int pending = 0, err = 0;

	spin_lock_irqsave(&bcache.lock, flags);
	if (buffer_uptodate(bh) || buffer_locked(bh)) {
		spin_unlock_irqrestore(&bcache.lock, flags);
		wait_on_buffer(bh);
		return buffer_uptodate(bh) ? 0 : -EIO;
	}
	set_buffer_locked(bh);
	spin_unlock_irqrestore(&bcache.lock, flags);
	init_completion(&done);
	buffer_submit_run(&bh, 1, false, &pending, &done, &err);
	if (__atomic_load_n(&pending, __ATOMIC_ACQUIRE)) {
		buffer_kick(bh->b_bdev);
		wait_for_completion(&done);
	}
	if (err == -ENOMEM)
		return err;
	return buffer_uptodate(bh) ? 0 : -EIO;
}

/* --- readahead ---------------------------------------------------------- */

static struct ra_state *ra_slot(struct block_device *bdev)
{
	struct ra_state *r, *oldest = &bcache.ra[0];

	for (r = bcache.ra; r < bcache.ra + BUFFER_RA_SLOTS; r++) {
		if (r->ra_bdev == bdev)
			goto found;
		if (r->ra_used < oldest->ra_used)
			oldest = r;
	}
	r = oldest;
	memset(r, 0, sizeof(*r));
	r->ra_bdev = bdev;
found:
	r->ra_used = ++bcache.ra_clock;
	return r;
}

void buffer_readahead(struct block_device *bdev, u64 block, u32 n, u32 size)
{
	struct buffer_head *run[RA_RUN];
	unsigned cnt = 0;
	u64 end = block + n, limit = blkdev_size(bdev) / size;

	if (end > limit)
		end = limit;
	for (; block < end; block++) {
		struct buffer_head *bh;
		unsigned long flags;
		bool created;

		bh = buffer_find_or_create(bdev, block, size, &created);
		if (!bh)
			break;
		spin_lock_irqsave(&bcache.lock, flags);
		if (!created || buffer_uptodate(bh)) {
			spin_unlock_irqrestore(&bcache.lock, flags);
			brelse(bh);
			if (cnt)
				buffer_submit_run(run, cnt, false, NULL, NULL, NULL);
			cnt = 0;
			continue;
		}
		set_buffer_locked(bh);	/* the reference goes with the I/O */
		spin_unlock_irqrestore(&bcache.lock, flags);
		run[cnt++] = bh;
		bcache.readahead++;
		if (cnt == ARRAY_SIZE(run)) {
			buffer_submit_run(run, cnt, false, NULL, NULL, NULL);
			cnt = 0;
		}
	}
	if (cnt)
		buffer_submit_run(run, cnt, false, NULL, NULL, NULL);
}

/*
 * Readahead, per device.  A miss on the block after the previous miss (or
 * just past what was read ahead) is a sequential reader: double the
 * window and read that far ahead.  A hit inside the read-ahead region that
 * comes within half a window of its end reads the next window, so a
 * steady reader never waits.  Other hits (metadata: inode tables, indirect
 * blocks, read between data blocks) leave the state alone.
 */
void buffer_note_access(struct block_device *bdev, u64 block, u32 size, bool cached)
{
	struct ra_state *r = ra_slot(bdev);
	u32 max = RA_MAX_BYTES / size;

	if (r->ra_size != size) {
		if (r->ra_size)
			buffer_drop_other_sizes(bdev, size);
		r->ra_size = size;
		r->ra_window = 0;
		r->ra_end = 0;
	}
	if (cached) {
		if (r->ra_window && block < r->ra_end && block + r->ra_window / 2 >= r->ra_end) {
			buffer_readahead(bdev, r->ra_end, r->ra_window, size);
			r->ra_end += r->ra_window;
		}
		return;
	}
	if (block != 0 && (block == r->ra_next || block == r->ra_end)) {
		if (r->ra_window == 0)
			r->ra_window = RA_MIN_BLOCKS;
		else if (r->ra_window < max)
			r->ra_window = min(r->ra_window * 2, max);
		buffer_readahead(bdev, block + 1, r->ra_window, size);
		r->ra_end = block + 1 + r->ra_window;
	} else {
		r->ra_window = 0;
	}
	r->ra_next = block + 1;
}
