/*
 * Host tests of the multi-queue core (block/blk-mq*.c) against a fake
 * driver: a RAM-backed device whose queue_rq answers BUSY at random and
 * holds what it takes, ended in random order from "interrupt" context by
 * the idle hook -- or requeued, as after a reset.  The randomized stress
 * runs under each scheduler (none, noop, deadline), one and three
 * hardware queues, four CPUs' software queues, with elevator switches
 * under load, and checks the data against a model, every request's shape
 * (one direction, contiguous bios, limits, ranges alone), merges, every
 * bio ended exactly once, and the tag space empty at the end.  The flush
 * test checks PREFLUSH/FUA ordering against a write-cache model.
 */
#include "tests/unit/unit.h"
#include "tests/unit/blk_testdev.h"
#include "tests/unit/fakes/page_fake.h"
#include "tests/unit/fakes/sched_fake.h"
#include "tests/unit/host/shim.h"
#include "block/blk.h"
#include "block/blk-mq-priv.h"
#include "block/elevator.h"
#include "kernel/completion.h"
#include "kernel/errno.h"
#include "kernel/mm/slab.h"

#define FD_CHUNK	8u		/* sectors: the unit of the model */
#define FD_CHUNKS	512u		/* 2 MiB device */
#define FD_SECTORS	(FD_CHUNK * FD_CHUNKS)
#define FD_HELD		2048u
#define FD_IOS		256u		/* bios in flight at most */

struct fd_io {
	struct bio	*bio;
	u32		first, nr;	/* chunks */
	u32		gen;
	u32		kind;		/* FD_READ, ... */
	int		calls, error;
	u32		clean_before;	/* flush test: completions before submission */
};

enum { FD_READ, FD_WRITE, FD_DISCARD, FD_FLUSH };

struct fdev {
	struct blk_mq_tag_set	set;
	struct request_queue	*q;
	u8			data[FD_SECTORS * SECTOR_SIZE];
	u32			model[FD_CHUNKS];	/* gen of each chunk; 0: zeroes */
	u8			wbusy[FD_CHUNKS], rbusy[FD_CHUNKS];
	struct request		*held[FD_HELD];
	u32			nheld;
	u32			busy_pct, requeue_pct;
	u32			busy, requeues, issued, multi_bio, bad_shape, bad_tag;
	u32			doorbells;	/* bd->last requests and commit_rqs calls */
	bool			same_cpu;	/* fd_submit stays on the current CPU */
	/* Write-cache model (flush test). */
	bool			cache;
	u8			dirty[FD_CHUNKS];
	u8			flush_snap[FD_CHUNKS];
	u32			flush_in_flight, flush_max;
	u32			write_done_order[FD_CHUNKS];	/* completion index, 0: not yet */
	u32			nwrite_done;
	struct fd_io		io[FD_IOS];
	u32			inflight;
	u32			bad_data, bad_end, bad_durable;
};

static struct fdev *fd;
static u32 rnd_state = 1;

static u32 rnd(void)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return rnd_state >> 8;
}

static u32 word(sector_t s, u32 gen, u32 i)
{
	return gen ? (u32)s * 2654435761u ^ gen * 0x9E3779B1u ^ i : 0;
}

/* Fill or check a bio's pages as sectors first.. with the model's gens (gen: all one). */
static bool fd_walk(struct bio *bio, sector_t first, u32 gen, bool check)
{
	struct bvec_iter it;
	struct bio_vec bv;
	u64 byte = 0;
	bool ok = true;
	u32 k, w, g;

	bio_for_each_segment_all(bv, bio, it) {
		u8 *p = (u8 *)host_page_buf(bv.bv_page) + bv.bv_offset;

		for (k = 0; k < bv.bv_len; k += 4, byte += 4) {
			sector_t s = first + byte / SECTOR_SIZE;

			g = check ? fd->model[s / FD_CHUNK] : gen;
			w = word(s, g, (u32)(byte % SECTOR_SIZE) / 4);
			if (!check)
				memcpy(p + k, &w, 4);
			else if (memcmp(p + k, &w, 4))
				ok = false;
		}
	}
	return ok;
}

/* Is rq what a driver may be given? */
static bool fd_rq_ok(struct request *rq)
{
	const struct queue_limits *lim = &rq->rq_q->q_limits;
	struct bio *b;
	sector_t next = blk_rq_pos(rq);
	u32 bytes = 0, n = 0;

	if (blk_rq_is_flush(rq))
		return !rq->rq_bio;
	for (b = rq->rq_bio; b; b = b->bi_next, n++) {
		if (b->bi_iter.bi_sector != next || ((b->bi_rw ^ rq->rq_cmd_flags) & REQ_WRITE) ||
		    ((b->bi_rw ^ rq->rq_cmd_flags) & REQ_NODATA))
			return false;
		next += bio_sectors(b);
		bytes += b->bi_iter.bi_size;
	}
	if (n > 1)
		fd->multi_bio++;
	if ((rq->rq_cmd_flags & REQ_NODATA) && n != 1)
		return false;
	if (!(rq->rq_cmd_flags & REQ_NODATA) &&
	    (blk_rq_sectors(rq) > lim->lim_max_sectors || rq->rq_nr_phys_segments > lim->lim_max_segments))
		return false;
	return bytes == blk_rq_bytes(rq) && blk_rq_pos(rq) + blk_rq_sectors(rq) <= FD_SECTORS;
}

static int fd_queue_rq(struct blk_mq_hw_ctx *hctx, const struct blk_mq_queue_data *bd)
{
	struct request *rq = bd->rq;
	u32 i;

	if (rq->rq_mq_hctx != hctx || blk_mq_tag_to_rq(&fd->set, hctx->queue_num, (u32)rq->rq_tag) != rq)
		fd->bad_tag++;
	if (rnd() % 100 < fd->busy_pct) {
		fd->busy++;
		return BLK_MQ_RQ_BUSY;
	}
	blk_mq_start_request(rq);
	if (!fd_rq_ok(rq))
		fd->bad_shape++;
	if (blk_rq_is_flush(rq)) {
		if (++fd->flush_in_flight > fd->flush_max)
			fd->flush_max = fd->flush_in_flight;
		memcpy(fd->flush_snap, fd->dirty, sizeof(fd->dirty));	/* what it covers */
	}
	KASSERT(fd->nheld < FD_HELD);
	fd->held[fd->nheld++] = rq;
	fd->issued++;
	fd->doorbells += bd->last;
	(void)i;
	return BLK_MQ_RQ_OK;
}

/* The device does rq's work (at completion: reordering is the point). */
static void fd_transfer(struct request *rq)
{
	struct req_iterator it;
	struct bio_vec bv;
	u64 pos = blk_rq_pos(rq) * SECTOR_SIZE;
	u32 c;

	if (blk_rq_is_flush(rq)) {
		for (c = 0; c < FD_CHUNKS; c++)
			if (fd->flush_snap[c])
				fd->dirty[c] = 0;
		fd->flush_in_flight--;
		return;
	}
	if (rq->rq_cmd_flags & REQ_NODATA) {
		memset(fd->data + pos, 0, blk_rq_bytes(rq));
	} else {
		rq_for_each_segment(bv, rq, it) {
			u8 *p = (u8 *)host_page_buf(bv.bv_page) + bv.bv_offset;

			if (rq_is_write(rq))
				memcpy(fd->data + pos, p, bv.bv_len);
			else
				memcpy(p, fd->data + pos, bv.bv_len);
			pos += bv.bv_len;
		}
	}
	if (rq_is_write(rq) && fd->cache && !(rq->rq_cmd_flags & REQ_FUA))	/* FUA: write-through */
		for (c = (u32)(blk_rq_pos(rq) / FD_CHUNK);
		     c < (blk_rq_pos(rq) + blk_rq_sectors(rq)) / FD_CHUNK; c++)
			fd->dirty[c] = 1;
}

/* Interrupt: end (or requeue) held request i. */
static void fd_complete_one(u32 i)
{
	struct request *rq = fd->held[i];

	fd->held[i] = fd->held[--fd->nheld];
	host_in_interrupt = true;
	if (rnd() % 100 < fd->requeue_pct) {
		fd->requeues++;
		blk_mq_requeue_request(rq, true);
	} else {
		fd_transfer(rq);
		blk_mq_end_request(rq, 0);
	}
	host_in_interrupt = false;
}

/*
 * Interrupt: end up to n held requests, picked at random, together
 * (blk_mq_end_requests) in runs of random length, as a driver reaping a
 * completion ring does; some are requeued instead.
 */
static void fd_complete_batch(u32 n)
{
	struct request *rqs[16];
	int errs[16];
	u32 m = 0, i;

	host_in_interrupt = true;
	while (n-- && fd->nheld) {
		i = rnd() % fd->nheld;
		struct request *rq = fd->held[i];

		fd->held[i] = fd->held[--fd->nheld];
		if (rnd() % 100 < fd->requeue_pct) {
			fd->requeues++;
			blk_mq_requeue_request(rq, true);
			continue;
		}
		fd_transfer(rq);
		rqs[m] = rq;
		errs[m++] = 0;
		if (m == 16 || rnd() % 4 == 0) {
			blk_mq_end_requests(rqs, errs, m);
			m = 0;
		}
	}
	blk_mq_end_requests(rqs, errs, m);
	host_in_interrupt = false;
}

/* The idle hook: some held requests end, in random order; time passes. */
static void fd_idle(void)
{
	u32 n = fd->nheld ? 1 + rnd() % fd->nheld : 0;

	if (rnd() % 2) {
		fd_complete_batch(n);
	} else {
		while (n-- && fd->nheld)
			fd_complete_one(rnd() % fd->nheld);
	}
	host_advance_ns(NSEC_PER_MSEC);
}

static void fd_commit_rqs(struct blk_mq_hw_ctx *hctx)
{
	(void)hctx;
	fd->doorbells++;
}

static const struct blk_mq_ops fd_ops = {
	.queue_rq	= fd_queue_rq,
	.commit_rqs	= fd_commit_rqs,
};

static void fd_create(u32 hw_queues, u32 depth, const char *elv)
{
	KASSERT(bio_init_pools() == 0);
	fd = calloc(1, sizeof(*fd));
	KASSERT(fd);
	fd->set.ops = &fd_ops;
	fd->set.nr_hw_queues = hw_queues;
	fd->set.queue_depth = depth;
	fd->set.cmd_size = 24;
	KASSERT(blk_mq_alloc_tag_set(&fd->set) == 0);
	fd->q = blk_mq_init_queue(&fd->set, "fd");
	KASSERT(!IS_ERR(fd->q));
	fd->q->q_nr_sectors = FD_SECTORS;
	blk_queue_max_sectors(fd->q, 64);
	blk_queue_max_discard_sectors(fd->q, 64);
	blk_queue_max_write_zeroes_sectors(fd->q, 64);
	if (elv)
		KASSERT(elevator_switch(fd->q, elv) == 0);
	host_idle_hook = fd_idle;
}

static void fd_free_slots(void);

static void fd_destroy(void)
{
	fd_free_slots();
	blk_cleanup_queue(fd->q);
	blk_mq_free_tag_set(&fd->set);
	host_idle_hook = NULL;
	free(fd);
	fd = NULL;
}

static void fd_endio(struct bio *bio, int error)
{
	struct fd_io *io = bio->bi_private;
	u32 c;

	io->calls++;
	io->error = error;
	if (io->calls > 1 || error)
		fd->bad_end++;
	if (io->kind == FD_READ) {
		if (!fd_walk(bio, io->first * FD_CHUNK, 0, true))
			fd->bad_data++;
		for (c = io->first; c < io->first + io->nr; c++)
			fd->rbusy[c]--;
	} else if (io->kind != FD_FLUSH || io->nr) {
		for (c = io->first; c < io->first + io->nr; c++) {
			fd->model[c] = io->kind == FD_DISCARD ? 0 : io->gen;
			fd->wbusy[c] = 0;
			if (!fd->write_done_order[c])
				fd->write_done_order[c] = ++fd->nwrite_done;
			if ((bio->bi_rw & REQ_FUA) && fd->dirty[c])
				fd->bad_durable++;	/* FUA ended before its data was durable */
		}
	}
	if (bio->bi_rw & REQ_PREFLUSH)		/* what ended before it must be durable */
		for (c = 0; c < FD_CHUNKS; c++)
			if (fd->write_done_order[c] && fd->write_done_order[c] <= io->clean_before &&
			    fd->dirty[c])
				fd->bad_durable++;
	fd->inflight--;
}

/* Free slot i's bio if it has ended; true if the slot is free now. */
static bool fd_put_slot(u32 i)
{
	struct fd_io *io = &fd->io[i];

	if (io->bio && !io->calls)
		return false;
	if (io->bio && !io->bio->bi_vcnt)
		bio_put(io->bio);
	else if (io->bio)
		tbio_free(io->bio);
	memset(io, 0, sizeof(*io));
	return true;
}

static void fd_free_slots(void)
{
	u32 i;

	for (i = 0; i < FD_IOS; i++)
		fd_put_slot(i);
}

static struct fd_io *fd_slot(void)
{
	u32 i;

	for (i = 0; i < FD_IOS; i++)
		if (fd_put_slot(i))
			return &fd->io[i];
	return NULL;
}

/* Submit one bio on chunks [first, first + nr); false if they are busy. */
static bool fd_submit(u32 kind, u32 first, u32 nr, u32 rw_extra, u32 gen)
{
	struct fd_io *io;
	struct bio *b;
	u32 c, rw;

	for (c = first; c < first + nr; c++)
		if (fd->wbusy[c] || (kind != FD_READ && fd->rbusy[c]))
			return false;
	io = fd_slot();
	if (!io)
		return false;
	rw = (kind == FD_READ ? 0 : REQ_WRITE) | rw_extra;
	if (kind == FD_DISCARD)
		rw |= rnd() % 2 ? REQ_DISCARD : REQ_WRITE_ZEROES;
	if (kind == FD_DISCARD || (kind == FD_FLUSH && !nr)) {
		b = bio_alloc(GFP_NOIO, 0);
		KASSERT(b);
		b->bi_iter.bi_sector = first * FD_CHUNK;
		b->bi_iter.bi_size = kind == FD_DISCARD ? nr * FD_CHUNK * SECTOR_SIZE : 0;
		b->bi_rw = rw;
	} else {
		b = tbio_alloc(HOST_MEM_NORMAL, rw, first * FD_CHUNK, nr * FD_CHUNK, 0);
		if (kind != FD_READ)
			fd_walk(b, first * FD_CHUNK, gen, false);
	}
	for (c = first; c < first + nr; c++) {
		if (kind == FD_READ)
			fd->rbusy[c]++;
		else
			fd->wbusy[c] = 1;
	}
	io->bio = b;
	io->first = first;
	io->nr = nr;
	io->gen = gen;
	io->kind = kind;
	io->clean_before = fd->nwrite_done;
	b->bi_private = io;
	b->bi_end_io = fd_endio;
	fd->inflight++;
	if (!fd->same_cpu)
		blk_mq_test_cpu = rnd() % BLK_MQ_NR_CPUS;	/* a different CPU each time */
	blk_queue_submit_bio(fd->q, b);
	return true;
}

static void fd_drain(void)
{
	long spins = 0;

	while (fd->inflight && ++spins < HOST_WAIT_SPINS) {
		blk_unplug(fd->q);
		cpu_idle_once();
	}
	CHECK_EQ(fd->inflight, 0);
}

static const char *const elvs[] = { "none", "noop", "deadline", "kyber" };

/* The randomized stress on hw hardware queues, starting on elevator elv. */
static void mq_stress(const char *elv, u32 hw, bool switching)
{
	u32 i, gen = 1, first, nr, kind, r, c, k;

	rnd_state = 7 + hw * 31 + (u32)strlen(elv);
	fd_create(hw, 16, elv);
	if (!strcmp(elv, "kyber"))	/* two writes in flight: it holds requests back */
		CHECK_EQ(elv_tunable_set(fd->q, "max_depth", 2), 0);
	fd->busy_pct = 10;
	fd->requeue_pct = 3;
	for (i = 0; i < 6000; i++) {
		r = rnd() % 100;
		if (r < 8) {			/* a sequential burst: merges */
			first = rnd() % (FD_CHUNKS - 8);
			for (k = 0; k < 6; k++)
				fd_submit(FD_WRITE, first + k, 1, 0, ++gen);
			continue;
		}
		kind = r < 55 ? FD_WRITE : r < 92 ? FD_READ : r < 96 ? FD_DISCARD : FD_FLUSH;
		nr = 1 + rnd() % 4;
		first = rnd() % (FD_CHUNKS - nr);
		if (kind == FD_FLUSH)
			fd_submit(FD_WRITE, first, nr, rnd() % 2 ? REQ_FUA : REQ_PREFLUSH, ++gen);
		else
			fd_submit(kind, first, nr, 0, ++gen);
		if (r >= 96 && rnd() % 2) {	/* a batch from one CPU, up to past its limit */
			struct blk_plug plug;

			fd->same_cpu = true;
			blk_start_plug(&plug);
			for (k = rnd() % (BLK_PLUG_MAX + 8); k; k--) {
				nr = 1 + rnd() % 4;
				fd_submit(rnd() % 3 ? FD_READ : FD_WRITE, rnd() % (FD_CHUNKS - nr), nr, 0,
					  ++gen);
			}
			blk_finish_plug(&plug);
			fd->same_cpu = false;
		}
		if (switching && i % 500 == 250)
			CHECK_EQ(elevator_switch(fd->q, elvs[rnd() % ARRAY_SIZE(elvs)]), 0);
		if (rnd() % 4 == 0) {
			blk_unplug(fd->q);
			cpu_idle_once();
		}
	}
	fd_drain();
	CHECK_EQ(fd->bad_data, 0);
	CHECK_EQ(fd->bad_end, 0);
	CHECK_EQ(fd->bad_shape, 0);
	CHECK_EQ(fd->bad_tag, 0);
	CHECK(fd->busy > 0 && fd->requeues > 0);
	CHECK(fd->multi_bio > 0);			/* bios did merge */
	CHECK(blk_stat_snapshot(fd->q).st_merges[1] > 0);
	for (c = 0; c < FD_CHUNKS; c++)			/* the device holds the model */
		for (k = 0; k < FD_CHUNK * SECTOR_SIZE / 4; k += 37) {
			sector_t s = (sector_t)c * FD_CHUNK + k / (SECTOR_SIZE / 4);
			u32 w = word(s, fd->model[c], k % (SECTOR_SIZE / 4)), got;

			memcpy(&got, fd->data + s * SECTOR_SIZE + (k % (SECTOR_SIZE / 4)) * 4, 4);
			if (got != w) {
				CHECK(!"device content differs from the model");
				c = FD_CHUNKS;
				break;
			}
		}
	CHECK_EQ(blk_mq_tags_in_use(fd->q), 0);
	CHECK_EQ(fd->q->q_rq_in_use, 0);
	CHECK_EQ(blk_stat_snapshot(fd->q).st_in_flight, 0);
	fd_destroy();
}

static void test_stress_none_1(void) { mq_stress("none", 1, false); }
static void test_stress_noop_1(void) { mq_stress("noop", 1, false); }
static void test_stress_deadline_1(void) { mq_stress("deadline", 1, false); }
static void test_stress_none_3(void) { mq_stress("none", 3, false); }
static void test_stress_deadline_3(void) { mq_stress("deadline", 3, false); }
static void test_stress_switching(void) { mq_stress("deadline", 3, true); }
static void test_stress_kyber_1(void) { mq_stress("kyber", 1, false); }
static void test_stress_kyber_3(void) { mq_stress("kyber", 3, false); }

/* PREFLUSH / FUA on a device with a volatile cache and no FUA: the ordering promise. */
static void flush_case(u32 flush_flags, const char *elv)
{
	static const u32 flags[] = { 0, REQ_FUA, REQ_PREFLUSH, REQ_PREFLUSH | REQ_FUA };
	u32 i, next = 0, f;

	rnd_state = 99 + flush_flags;
	fd_create(2, 8, elv);
	fd->cache = true;
	fd->busy_pct = 10;
	blk_queue_flush(fd->q, flush_flags);
	for (i = 0; i < 400 && next + 2 < FD_CHUNKS; i++) {
		f = flags[rnd() % 4];
		if (rnd() % 8 == 0)
			fd_submit(FD_FLUSH, 0, 0, REQ_PREFLUSH, 0);	/* an empty flush */
		else
			fd_submit(FD_WRITE, next, 1 + rnd() % 2, f, i + 1);
		next += 2;
		if (rnd() % 3 == 0) {
			blk_unplug(fd->q);
			cpu_idle_once();
		}
	}
	fd_drain();
	CHECK_EQ(fd->bad_durable, 0);
	CHECK_EQ(fd->bad_end, 0);
	CHECK_EQ(fd->bad_shape, 0);
	CHECK_EQ(fd->bad_tag, 0);
	CHECK(fd->flush_max == 1);			/* C1: one flush in flight */
	CHECK(blk_stat_snapshot(fd->q).st_flushes > 0);
	CHECK_EQ(blk_mq_tags_in_use(fd->q), 0);
	fd_destroy();
}

static void test_flush_cache_no_fua(void) { flush_case(BLK_FLUSH_CACHE, "none"); }
static void test_flush_cache_fua(void) { flush_case(BLK_FLUSH_CACHE | BLK_FLUSH_FUA, "deadline"); }

/* A request that BUSY keeps back runs again when a completion frees room. */
static void test_busy_restart(void)
{
	u32 i;

	rnd_state = 3;
	fd_create(1, 4, "none");
	fd->busy_pct = 60;
	for (i = 0; i < 40; i++)
		fd_submit(FD_WRITE, i * 2, 1, 0, i + 1);
	fd_drain();
	CHECK(fd->busy > 0);
	CHECK_EQ(fd->bad_end, 0);
	CHECK(fd->q->q_hctx[0]->busy > 0);
	CHECK(list_empty(&fd->q->q_hctx[0]->dispatch));
	fd_destroy();
}

/*
 * A batch (blk_start_plug) holds its CPU's requests back, past the queue's
 * unplug threshold, and the finish hands them over in one run.  A flush,
 * or a wait, lets go of what it holds and the batch goes on; one past
 * BLK_PLUG_MAX runs the queue at once; another CPU's are not held.
 */
static void plug_case(const char *elv)
{
	struct blk_plug plug, inner;
	u32 i;

	rnd_state = 5;
	fd_create(1, 64, elv);
	fd->same_cpu = true;
	blk_mq_test_cpu = 1;
	blk_start_plug(&plug);
	blk_start_plug(&inner);			/* joins the batch */
	for (i = 0; i < 10; i++)
		CHECK(fd_submit(FD_READ, i * 4, 1, 0, 0));	/* apart: no merges */
	blk_finish_plug(&inner);		/* the outer batch ends it */
	CHECK_EQ(fd->issued, 0);
	blk_finish_plug(&plug);
	CHECK_EQ(fd->issued, 10);
	/* One doorbell per run: an elevator's in refills of BLK_MQ_SCHED_BATCH. */
	CHECK_EQ(fd->doorbells, strcmp(elv, "none") ? DIV_ROUND_UP(10, BLK_MQ_SCHED_BATCH) : 1);

	blk_start_plug(&plug);
	for (i = 0; i < 5; i++)
		CHECK(fd_submit(FD_READ, 100 + i * 4, 1, 0, 0));
	blk_flush_plug();
	CHECK_EQ(fd->issued, 15);
	wait_prepare_register(blk_flush_plug);	/* as at boot: a waiter lets the batch go */
	CHECK(fd_submit(FD_READ, 140, 1, 0, 0));
	CHECK_EQ(fd->issued, 15);
	cpu_idle_once();
	CHECK_EQ(fd->issued, 16);
	wait_prepare_register(NULL);
	blk_mq_test_cpu = 2;			/* another CPU: not this batch's */
	CHECK(fd_submit(FD_READ, 200, 1, 0, 0));
	blk_unplug(fd->q);
	CHECK_EQ(fd->issued, 17);
	blk_mq_test_cpu = 1;
	for (i = 0; i < BLK_PLUG_MAX; i++)
		CHECK(fd_submit(FD_READ, 300 + i * 4, 1, 0, 0));
	CHECK_EQ(fd->issued, 17);
	CHECK(fd_submit(FD_READ, 300 + i * 4, 1, 0, 0));	/* one too many: runs now */
	CHECK_EQ(fd->issued, 17 + BLK_PLUG_MAX + 1);
	blk_finish_plug(&plug);
	fd->same_cpu = false;
	fd_drain();
	CHECK_EQ(fd->bad_data, 0);
	CHECK_EQ(fd->bad_end, 0);
	fd_destroy();
}

static void test_plug_none(void) { plug_case("none"); }
static void test_plug_noop(void) { plug_case("noop"); }

/* Bad tag sets are refused; a set's requests carry the driver's bytes. */
static void test_tag_set_checks(void)
{
	struct blk_mq_tag_set set = { .ops = &fd_ops, .nr_hw_queues = 2, .queue_depth = 4,
				      .cmd_size = 100 };
	struct request *a, *b;

	CHECK_EQ(blk_mq_alloc_tag_set(&(struct blk_mq_tag_set){ .ops = &fd_ops }), -EINVAL);
	CHECK_EQ(blk_mq_alloc_tag_set(&(struct blk_mq_tag_set){ .ops = &fd_ops, .nr_hw_queues = 1,
								 .queue_depth = 2, .reserved_tags = 2 }),
		 -EINVAL);
	CHECK_EQ(blk_mq_alloc_tag_set(&set), 0);
	a = set.tags[0]->static_rqs[0];
	b = set.tags[0]->static_rqs[1];
	CHECK((char *)b - (char *)a >= (long)(sizeof(struct request) + 100));
	CHECK(blk_mq_tag_to_rq(&set, 2, 0) == NULL);		/* no such queue */
	CHECK(blk_mq_tag_to_rq(&set, 1, 4) == NULL);		/* no such tag */
	CHECK(blk_mq_tag_to_rq(&set, 1, 0) == NULL);		/* free */
	blk_mq_free_tag_set(&set);
}

/* Driver commands on reserved tags: never a normal tag, and back again. */
static void test_reserved_requests(void)
{
	struct request *rq[3];

	KASSERT(bio_init_pools() == 0);
	fd = calloc(1, sizeof(*fd));
	fd->set.ops = &fd_ops;
	fd->set.nr_hw_queues = 1;
	fd->set.queue_depth = 4;
	fd->set.reserved_tags = 2;
	KASSERT(blk_mq_alloc_tag_set(&fd->set) == 0);
	fd->q = blk_mq_init_queue(&fd->set, "fd");
	rq[0] = blk_mq_alloc_request(fd->q, 0, true);
	rq[1] = blk_mq_alloc_request(fd->q, 0, true);
	CHECK(!IS_ERR(rq[0]) && !IS_ERR(rq[1]) && rq[0]->rq_tag < 2 && rq[1]->rq_tag < 2);
	host_in_interrupt = true;	/* no waiting: the reserved ones are gone */
	CHECK(PTR_ERR(blk_mq_alloc_request(fd->q, 0, true)) == -EAGAIN);
	host_in_interrupt = false;
	rq[2] = blk_mq_alloc_request(fd->q, REQ_WRITE, false);
	CHECK(!IS_ERR(rq[2]) && rq[2]->rq_tag >= 2);
	CHECK(blk_mq_tag_to_rq(&fd->set, 0, (u32)rq[0]->rq_tag) == rq[0]);
	CHECK_EQ(blk_mq_tags_in_use(fd->q), 3);
	blk_mq_free_request(rq[0]);
	blk_mq_free_request(rq[1]);
	blk_mq_free_request(rq[2]);
	CHECK_EQ(blk_mq_tags_in_use(fd->q), 0);
	fd_destroy();
}

static const struct unit_case cases[] = {
	{ "mq/reserved_requests", test_reserved_requests },
	{ "mq/tag_set_checks", test_tag_set_checks },
	{ "mq/busy_restart", test_busy_restart },
	{ "mq/plug_none", test_plug_none },
	{ "mq/plug_noop", test_plug_noop },
	{ "mq/stress_none_1hw", test_stress_none_1 },
	{ "mq/stress_noop_1hw", test_stress_noop_1 },
	{ "mq/stress_deadline_1hw", test_stress_deadline_1 },
	{ "mq/stress_none_3hw", test_stress_none_3 },
	{ "mq/stress_deadline_3hw", test_stress_deadline_3 },
	{ "mq/stress_elevator_switching", test_stress_switching },
	{ "mq/stress_kyber_1hw", test_stress_kyber_1 },
	{ "mq/stress_kyber_3hw", test_stress_kyber_3 },
	{ "mq/flush_cache_no_fua", test_flush_cache_no_fua },
	{ "mq/flush_cache_fua", test_flush_cache_fua },
};

UNIT_MAIN("block_mq", cases)
