/*
 * The diagnostics' asynchronous I/O engine (contract in block/diag/aio.h).
 *
 * A context holds N slots; a slot is a buffer of pages (lowmem, highmem
 * or above 4 GiB, as its user chose) and at most one bio in flight built
 * from it.  bi_end_io only records the slot's error and marks it ended;
 * everything else -- the end time when latencies are kept, accounting,
 * checking data, submitting the next I/O -- runs in the command's loop,
 * which sleeps in cpu_idle_once() while nothing has ended -- or, with a
 * target on a polled queue (BLK_MQ_F_POLLED), polls it with blk_poll().
 *
 * Submitting does not unplug; whoever is about to wait (aio_wait,
 * aio_drain, each aio_run pass) unplugs the queues first, so a batch
 * reaches the elevator whole and then runs.  Each aio_run pass is one
 * block-layer batch (blk_start_plug), so even a queue with no elevator
 * gets the pass's requests together.
 *
 * Bios go through submit_bio() when a target has a block_device (its
 * partition remap and bounds check apply), else straight to the queue
 * with blk_queue_submit_bio() (a queue the registry does not know).
 */
#include "block/diag/aio.h"
#include "block/diag/bench.h"
#include "block/bdev.h"
#include "block/blk-mq.h"
#include "kernel/completion.h"
#include "kernel/cpu.h"
#include "kernel/work.h"
#include "kernel/errno.h"
#include "kernel/progress.h"
#include "kernel/time.h"
#include "kernel/mm/highmem.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

int aio_init(struct aio_ctx *c, u32 nslots, u32 max_bytes)
{
	u32 i;

	memset(c, 0, sizeof(*c));
	c->ac_max_pages = DIV_ROUND_UP(max_bytes, PAGE_SIZE) + 1;	/* + an offset */
	c->ac_slots = kcalloc(nslots, sizeof(*c->ac_slots), GFP_KERNEL);
	if (!c->ac_slots)
		return -ENOMEM;
	c->ac_slots[0].as_pages = kcalloc(nslots * c->ac_max_pages, sizeof(struct page *),
					  GFP_KERNEL);
	if (!c->ac_slots[0].as_pages) {
		kfree(c->ac_slots);
		c->ac_slots = NULL;
		return -ENOMEM;
	}
	c->ac_nslots = nslots;
	for (i = 0; i < nslots; i++) {
		c->ac_slots[i].as_ctx = c;
		c->ac_slots[i].as_index = i;
		c->ac_slots[i].as_pages = c->ac_slots[0].as_pages + i * c->ac_max_pages;
	}
	return 0;
}

void aio_exit(struct aio_ctx *c)
{
	u32 i;

	if (!c->ac_slots)
		return;
	for (i = 0; i < c->ac_nslots; i++)
		aio_buf_free(&c->ac_slots[i]);
	kfree(c->ac_slots[0].as_pages);
	kfree(c->ac_slots);
	kfree(c->ac_lat);
	c->ac_slots = NULL;
	c->ac_lat = NULL;
}

int aio_target(struct aio_ctx *c, struct block_device *bdev, struct request_queue *q)
{
	if (c->ac_ntargets == AIO_MAX_TARGETS)
		return -ENOSPC;
	c->ac_targets[c->ac_ntargets].at_bdev = bdev;
	c->ac_targets[c->ac_ntargets].at_q = q;
	return (int)c->ac_ntargets++;
}

int aio_lat_keep(struct aio_ctx *c, u32 cap)
{
	kfree(c->ac_lat);
	c->ac_lat_n = 0;
	c->ac_lat_cap = 0;
	c->ac_clock_ns = 0;
	c->ac_lat = cap ? kmalloc(cap * sizeof(u32), GFP_KERNEL) : NULL;
	if (!c->ac_lat)
		return cap ? -ENOMEM : 0;
	c->ac_lat_cap = cap;
	return 0;
}

void aio_lat_sorted(struct aio_ctx *c)
{
	if (c->ac_lat && c->ac_lat_n)
		bench_sort_u32(c->ac_lat, c->ac_lat_n);
}

int aio_buf_alloc(struct aio_slot *s, u32 bytes, gfp_t gfp)
{
	u32 npages = DIV_ROUND_UP(bytes, PAGE_SIZE), k, j;
	unsigned order = 0;

	aio_buf_free(s);
	if (npages > s->as_ctx->ac_max_pages)
		return -EINVAL;
	while ((1u << order) < npages && order < MAX_ORDER - 1)
		order++;
	for (;; order--) {
		s->as_order = order;
		for (k = 0; k < npages; k += 1u << order) {
			struct page *p = alloc_pages(gfp, order);

			if (!p)
				break;
			for (j = 0; j < 1u << order && k + j < npages; j++)
				s->as_pages[k + j] = p + j;
		}
		s->as_npages = k;
		s->as_owned = true;
		if (k >= npages)
			return 0;
		aio_buf_free(s);
		if (!order)
			return -ENOMEM;
	}
}

void aio_buf_free(struct aio_slot *s)
{
	u32 k;

	for (k = 0; s->as_owned && k < s->as_npages; k += 1u << s->as_order)
		__free_pages(s->as_pages[k], s->as_order);
	s->as_npages = 0;
	s->as_order = 0;
	s->as_owned = false;
	s->as_off = 0;
}

void aio_copy(struct aio_slot *s, u32 pos, void *buf, u32 len, bool to_slot)
{
	u8 *b = buf;

	pos += s->as_off;
	while (len) {
		u32 in = pos & (PAGE_SIZE - 1), n = min(len, (u32)PAGE_SIZE - in);
		u8 *va = kmap_atomic(s->as_pages[pos / PAGE_SIZE]);

		if (to_slot)
			memcpy(va + in, b, n);
		else
			memcpy(b, va + in, n);
		kunmap_atomic(va);
		pos += n;
		b += n;
		len -= n;
	}
}

phys_addr_t aio_phys(struct aio_slot *s, u32 pos)
{
	pos += s->as_off;
	return page_to_phys(s->as_pages[pos / PAGE_SIZE]) + (pos & (PAGE_SIZE - 1));
}

static void aio_endio(struct bio *bio, int error)
{
	struct aio_slot *s = bio->bi_private;

	s->as_err = error;
	bio_put(bio);
	s->as_state = AIO_ENDED;
}

/* aio_submit() with the I/O's start time given (used when latencies are kept). */
static int aio_submit_at(struct aio_slot *s, u32 rw, sector_t sector, u32 bytes, u64 start_ns)
{
	struct aio_target *t = &s->as_ctx->ac_targets[s->as_target];
	u32 block = PAGE_SIZE << s->as_order, pos = s->as_off, left = bytes, n;
	u32 nvecs = bytes ? (pos + bytes - 1) / block - pos / block + 1 : 0;
	struct bio *bio;

	if (bytes && DIV_ROUND_UP(pos + bytes, PAGE_SIZE) > s->as_npages)
		return -EINVAL;
	bio = bio_alloc(GFP_NOIO, nvecs);
	if (!bio)
		return -ENOMEM;
	bio->bi_iter.bi_sector = sector;
	bio->bi_rw = rw;
	while (left) {
		/* Up to the end of the buddy block holding pos: one vector entry. */
		n = min(left, (pos / block + 1) * block - pos);
		if (bio_add_page(bio, s->as_pages[pos / PAGE_SIZE], n, pos & (PAGE_SIZE - 1))) {
			bio_put(bio);
			return -EINVAL;
		}
		pos += n;
		left -= n;
	}
	bio->bi_bdev = t->at_bdev;	/* after bio_add_page: the block layer splits to limits */
	bio->bi_private = s;
	bio->bi_end_io = aio_endio;
	s->as_rw = rw;
	s->as_sector = sector;
	s->as_bytes = bytes;
	s->as_err = 0;
	s->as_start_ns = start_ns;
	s->as_state = AIO_BUSY;
	if (t->at_bdev)
		submit_bio(bio);
	else
		blk_queue_submit_bio(t->at_q, bio);
	return 0;
}

int aio_submit(struct aio_slot *s, u32 rw, sector_t sector, u32 bytes)
{
	return aio_submit_at(s, rw, sector, bytes, s->as_ctx->ac_lat ? ktime_ns() : 0);
}

void aio_unplug(struct aio_ctx *c)
{
	u32 i;

	for (i = 0; i < c->ac_ntargets; i++)
		blk_unplug(c->ac_targets[i].at_q);
}

void aio_reap(struct aio_slot *s)
{
	struct aio_ctx *c = s->as_ctx;

	if (s->as_state != AIO_ENDED)
		return;
	s->as_state = AIO_IDLE;
	if (c->ac_lat)
		c->ac_clock_ns = s->as_end_ns = ktime_ns();
	if (s->as_err)
		c->ac_errors++;
	else
		c->ac_ios++;
	c->ac_bytes += s->as_bytes;
	if (c->ac_lat && c->ac_lat_n < c->ac_lat_cap)
		c->ac_lat[c->ac_lat_n++] = (u32)min(s->as_end_ns - s->as_start_ns, (u64)~0u);
}

/*
 * Wait for some I/O to end: reap the targets that have no completion
 * interrupt (blk_poll), spinning while they have nothing; else halt until
 * an interrupt.
 */
static void aio_idle(struct aio_ctx *c)
{
	bool polled = false;
	u32 i;

	for (i = 0; i < c->ac_ntargets; i++) {
		if (!blk_queue_polled(c->ac_targets[i].at_q))
			continue;
		polled = true;
		if (blk_poll(c->ac_targets[i].at_q))
			return;
	}
	if (!polled) {
		cpu_idle_once();
		return;
	}
	run_deferred_work();
	cpu_relax();
}

int aio_wait(struct aio_slot *s)
{
	blk_unplug(s->as_ctx->ac_targets[s->as_target].at_q);
	while (s->as_state == AIO_BUSY)
		aio_idle(s->as_ctx);
	aio_reap(s);
	return s->as_err;
}

int aio_rw(struct aio_slot *s, u32 rw, sector_t sector, u32 bytes)
{
	struct aio_ctx *c = s->as_ctx;
	u64 start = 0;
	int err;

	if (c->ac_lat)
		start = c->ac_clock_ns ? c->ac_clock_ns : ktime_ns();
	err = aio_submit_at(s, rw, sector, bytes, start);
	return err ? err : aio_wait(s);
}

int aio_drain(struct aio_ctx *c, u32 ms)
{
	u64 deadline = ktime_ms() + ms;
	u32 i;

	aio_unplug(c);
	for (i = 0; i < c->ac_nslots; i++) {
		while (c->ac_slots[i].as_state == AIO_BUSY) {
			if (ms && ktime_ms() > deadline)
				return -ETIMEDOUT;
			aio_idle(c);
		}
		aio_reap(&c->ac_slots[i]);
	}
	return 0;
}

int aio_run(struct aio_ctx *c, const struct aio_ops *ops, void *arg)
{
	u64 last = ktime_ms();
	struct blk_plug plug;
	u32 i, busy, ended;
	int err = 0, r;

	for (;;) {
		busy = ended = 0;
		blk_start_plug(&plug);	/* a pass's submissions reach the driver as one batch */
		for (i = 0; i < c->ac_nslots; i++) {
			struct aio_slot *s = &c->ac_slots[i];

			if (s->as_state == AIO_BUSY) {
				busy++;
				continue;
			}
			if (s->as_state == AIO_ENDED) {
				aio_reap(s);
				ended++;
				if (ops->end)
					ops->end(c, s, arg);
			}
			if (c->ac_stop || !ops->start)
				continue;
			r = ops->start(c, s, arg);
			if (r < 0 && !err)
				err = r;
			if (r < 0)
				c->ac_stop = true;	/* drain, then report */
			else if (r > 0)
				busy++;
		}
		blk_finish_plug(&plug);
		if (!busy)
			break;
		aio_unplug(c);
		if (ops->poll && ops->poll(c, arg))
			c->ac_stop = true;
		if (c->ac_pg && progress_update(c->ac_pg, c->ac_bytes))
			c->ac_stop = c->ac_interrupted = true;
		if (ended) {
			if (c->ac_stall_ms)
				last = ktime_ms();
			continue;
		}
		if (c->ac_stall_ms && ktime_ms() - last > c->ac_stall_ms)
			return -ETIMEDOUT;
		aio_idle(c);		/* nothing ended: wait for an interrupt (or poll) */
	}
	return err ? err : c->ac_interrupted ? -EINTR : 0;
}
