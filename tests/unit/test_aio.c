/*
 * Host tests of the diagnostics' I/O engine (block/diag/aio.c) on the RAM
 * test device: synchronous round trips from misaligned buffers, aio_run
 * keeping every slot busy and refilling from its callbacks, errors
 * counted and handed to the callback, a stop (Ctrl-C) draining what is in
 * flight, aio_drain's time limit, and latencies.  The device holds its
 * requests until the idle loop (standing in for interrupts) ends them.
 */
#include "tests/unit/unit.h"
#include "tests/unit/blk_testdev.h"
#include "tests/unit/fakes/sched_fake.h"
#include "block/diag/aio.h"
#include "block/diag/bench.h"
#include "kernel/errno.h"
#include "kernel/progress.h"
#include "lib/string.h"

#define NSLOTS		4
#define BUF_BYTES	(16 * SECTOR_SIZE)

/* kernel/progress.c's update, reduced to what the engine asks: stop now? */
static int stop_after = -1;	/* updates before "Ctrl-C"; -1: never */
bool progress_update(struct progress *p, u64 done_bytes)
{
	return stop_after >= 0 && stop_after-- == 0;
}

static struct tdev *setup(struct aio_ctx *c, bool async)
{
	struct tdev *td = tdev_create(4096, "noop");
	u32 i;

	td->td_async = async;
	tdev_set_idle(td);
	CHECK_EQ(aio_init(c, NSLOTS, BUF_BYTES), 0);
	CHECK_EQ(aio_target(c, NULL, td->td_q), 0);
	for (i = 0; i < NSLOTS; i++)
		CHECK_EQ(aio_buf_alloc(&c->ac_slots[i], BUF_BYTES, GFP_HIGHUSER), 0);
	return td;
}

static void teardown(struct aio_ctx *c, struct tdev *td)
{
	aio_exit(c);
	tdev_destroy(td);
	CHECK_EQ(host_pages_live, 0);
}

/* Stamp nr sectors of slot s as LBA sector.. with seed; check them back. */
static void stamp(struct aio_slot *s, sector_t sector, u32 nr, u64 seed)
{
	u8 sec[SECTOR_SIZE];
	u32 i;

	for (i = 0; i < nr; i++) {
		bench_fill_sector(sec, sector + i, seed);
		aio_copy(s, i * SECTOR_SIZE, sec, SECTOR_SIZE, true);
	}
}

static bool stamped(struct aio_slot *s, sector_t sector, u32 nr, u64 seed)
{
	u8 sec[SECTOR_SIZE];
	u32 i;

	for (i = 0; i < nr; i++) {
		aio_copy(s, i * SECTOR_SIZE, sec, SECTOR_SIZE, false);
		if (!bench_check_sector(sec, sector + i, seed))
			return false;
	}
	return true;
}

/* A write from a 2-byte aligned user buffer of highmem pages reads back intact. */
static void test_rw_round_trip(void)
{
	struct aio_ctx c;
	struct tdev *td = setup(&c, true);
	struct aio_slot *w = &c.ac_slots[0], *r = &c.ac_slots[1];
	u32 i;

	aio_buf_free(w);
	w->as_off = 2;
	for (i = 0; i < 3; i++)
		w->as_pages[w->as_npages++] = host_alloc_page_in(HOST_MEM_HIGH);
	stamp(w, 100, 8, 7);
	CHECK_EQ(aio_rw(w, REQ_WRITE, 100, 8 * SECTOR_SIZE), 0);
	CHECK_EQ(aio_rw(r, 0, 100, 8 * SECTOR_SIZE), 0);
	CHECK(stamped(r, 100, 8, 7));
	CHECK_EQ(c.ac_ios, 2);
	CHECK_EQ(c.ac_bytes, 16 * SECTOR_SIZE);
	CHECK_EQ(w->as_state, AIO_IDLE);
	for (i = 0; i < w->as_npages; i++)
		__free_page(w->as_pages[i]);
	w->as_npages = 0;	/* the test's pages, not the engine's */
	teardown(&c, td);
}

struct run {
	u32	r_issued, r_ended, r_max, r_errors, r_peak;
};

static int run_start(struct aio_ctx *c, struct aio_slot *s, void *arg)
{
	struct run *r = arg;
	sector_t sector = r->r_issued * 16;	/* gaps: no two merge */
	int err;

	if (r->r_issued == r->r_max)
		return 0;
	stamp(s, sector, 8, 3);
	err = aio_submit(s, REQ_WRITE, sector, 8 * SECTOR_SIZE);
	if (err)
		return err;
	r->r_issued++;
	return 1;
}

static void run_end(struct aio_ctx *c, struct aio_slot *s, void *arg)
{
	struct run *r = arg;
	u32 i, busy = 1;

	r->r_ended++;
	r->r_errors += s->as_err != 0;
	for (i = 0; i < c->ac_nslots; i++)
		busy += c->ac_slots[i].as_state == AIO_BUSY;
	r->r_peak = busy > r->r_peak ? busy : r->r_peak;
}

static const struct aio_ops run_ops = { .start = run_start, .end = run_end };

/* 40 writes through 4 slots: all 4 in flight, each end refilled, data on disk. */
static void test_run_refills(void)
{
	struct aio_ctx c;
	struct tdev *td = setup(&c, true);
	struct run r = { .r_max = 40 };

	CHECK_EQ(aio_run(&c, &run_ops, &r), 0);
	CHECK_EQ(r.r_issued, 40);
	CHECK_EQ(r.r_ended, 40);
	CHECK_EQ(r.r_peak, NSLOTS);
	CHECK_EQ(c.ac_ios, 40);
	CHECK_EQ(aio_rw(&c.ac_slots[0], 0, 39 * 16, 8 * SECTOR_SIZE), 0);
	CHECK(stamped(&c.ac_slots[0], 39 * 16, 8, 3));
	teardown(&c, td);
}

/* A failed I/O is counted and reaches the end callback with its error. */
static void test_run_error(void)
{
	struct aio_ctx c;
	struct tdev *td = setup(&c, true);
	struct run r = { .r_max = 8 };

	td->td_fail_sector = 36;	/* the third write */
	CHECK_EQ(aio_run(&c, &run_ops, &r), 0);
	CHECK_EQ(r.r_errors, 1);
	CHECK_EQ(c.ac_errors, 1);
	CHECK_EQ(c.ac_ios, 7);
	CHECK_EQ(aio_rw(&c.ac_slots[0], 0, 32, 8 * SECTOR_SIZE), -EIO);
	teardown(&c, td);
}

/* Ctrl-C: nothing more starts, what is in flight ends, the run says -EINTR. */
static void test_run_interrupted(void)
{
	struct aio_ctx c;
	struct tdev *td = setup(&c, true);
	struct run r = { .r_max = 1000 };
	struct progress pg;
	u32 i;

	c.ac_pg = &pg;
	stop_after = 2;
	CHECK_EQ(aio_run(&c, &run_ops, &r), -EINTR);
	stop_after = -1;
	CHECK(c.ac_interrupted);
	CHECK(r.r_issued < 1000);
	CHECK_EQ(r.r_ended, r.r_issued);
	for (i = 0; i < NSLOTS; i++)
		CHECK_EQ(c.ac_slots[i].as_state, AIO_IDLE);
	teardown(&c, td);
}

/* aio_drain gives up after its limit while the device holds the I/O. */
static void test_drain_timeout(void)
{
	struct aio_ctx c;
	struct tdev *td = setup(&c, true);

	host_idle_hook = NULL;		/* no interrupts: the clock only */
	CHECK_EQ(aio_submit(&c.ac_slots[2], 0, 0, 8 * SECTOR_SIZE), 0);
	CHECK_EQ(aio_drain(&c, 20), -ETIMEDOUT);
	CHECK_EQ(c.ac_slots[2].as_state, AIO_BUSY);
	tdev_set_idle(td);
	CHECK_EQ(aio_drain(&c, 20), 0);
	CHECK_EQ(c.ac_slots[2].as_state, AIO_IDLE);
	CHECK_EQ(c.ac_ios, 1);
	teardown(&c, td);
}

/* Latencies: one per I/O, from submission to the end the waiter saw, sorted. */
static void test_latencies(void)
{
	struct aio_ctx c;
	struct tdev *td = setup(&c, true);
	u32 i;

	CHECK_EQ(aio_lat_keep(&c, 3), 0);
	for (i = 0; i < 5; i++)
		CHECK_EQ(aio_rw(&c.ac_slots[0], 0, i * 8, 8 * SECTOR_SIZE), 0);
	CHECK_EQ(c.ac_lat_n, 3);	/* capped */
	aio_lat_sorted(&c);
	for (i = 0; i < 3; i++)
		CHECK(c.ac_lat[i] >= NSEC_PER_MSEC);	/* one idle tick each */
	CHECK(c.ac_lat[0] <= c.ac_lat[1] && c.ac_lat[1] <= c.ac_lat[2]);
	teardown(&c, td);
}

static const struct unit_case cases[] = {
	{ "aio/rw_round_trip", test_rw_round_trip },
	{ "aio/run_refills", test_run_refills },
	{ "aio/run_error", test_run_error },
	{ "aio/run_interrupted", test_run_interrupted },
	{ "aio/drain_timeout", test_drain_timeout },
	{ "aio/latencies", test_latencies },
};

UNIT_MAIN("block_aio", cases)
