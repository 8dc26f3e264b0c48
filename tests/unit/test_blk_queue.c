/*
 * Host tests of the request queue core (block/blk-core.c, blk-plug.c,
 * blk-request.c and friends) against the RAM test device: merging into requests at the size limit,
 * front and gap-filling merges, plugging, splits with data verified,
 * partial completion, the request pool running dry, requeue and
 * stop/start, prep_rq_fn, timeouts with bounded retries, submission
 * through a block_device, and the statistics.
 */
#include "tests/unit/unit.h"
#include "tests/unit/blk_testdev.h"
#include "tests/unit/fakes/bdev_fake.h"
#include "tests/unit/fakes/fakes.h"
#include "tests/unit/fakes/sched_fake.h"
#include "kernel/errno.h"
#include "lib/string.h"
#include "tests/unit/host/shim.h"

#define NBIO	64

/* 64 sequential 4 KiB writes while plugged become requests of max_sectors. */
static void test_sequential_merge_to_limit(void)
{
	struct tdev *td = tdev_create(8192, "noop");
	u64 seq = blk_trace_seq(td->td_q);
	int i;

	blk_queue_max_sectors(td->td_q, 64);	/* 32 KiB */
	blk_unplug(td->td_q);
	td->td_q->q_unplug_thresh = 1000;	/* only the explicit unplug */
	for (i = 0; i < NBIO; i++) {
		tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, i * 8, 8, 0, i);
		tbio_stamp(tbios[i], 1);
		blk_queue_submit_bio(td->td_q, tbios[i]);
	}
	CHECK_EQ(td->td_nlog, 0);		/* held by the plug */
	blk_unplug(td->td_q);
	CHECK_EQ(td->td_nlog, 8);
	for (i = 0; i < 8; i++) {
		CHECK_EQ(td->td_log[i].l_pos, i * 64);
		CHECK_EQ(td->td_log[i].l_bytes, 64 * 512);
	}
	for (i = 0; i < NBIO; i++)
		CHECK(tres[i].r_calls == 1 && tres[i].r_error == 0);
	CHECK(tdev_check(td, 0, NBIO * 8, 1));
	CHECK_EQ(blk_trace_count(td->td_q, seq, BLK_TA_BACKMERGE), NBIO - 8);
	CHECK_EQ(blk_stat_snapshot(td->td_q).st_merges[1], NBIO - 8);
	CHECK_EQ(blk_stat_snapshot(td->td_q).st_ios[1], 8);
	CHECK_EQ(blk_stat_snapshot(td->td_q).st_sectors[1], NBIO * 8);
	tbio_free_slots(NBIO);
	tdev_destroy(td);
	CHECK_EQ(host_bios_live(), 0);
}

/* A front merge, then a bio that fills the gap joins two requests. */
static void test_front_and_gap_merge(void)
{
	struct tdev *td = tdev_create(1024, "deadline");
	u64 seq = blk_trace_seq(td->td_q);

	td->td_q->q_unplug_thresh = 1000;
	blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 8, 8, 0, 0));
	blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 0, 8, 0, 1));
	blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 24, 8, 0, 2));
	blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, 0, 16, 8, 0, 3));	/* a read: no */
	blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 16, 8, 0, 4));
	CHECK_EQ(blk_trace_count(td->td_q, seq, BLK_TA_FRONTMERGE), 1);
	CHECK_EQ(blk_trace_count(td->td_q, seq, BLK_TA_RQMERGE), 1);
	blk_unplug(td->td_q);
	CHECK_EQ(td->td_nlog, 2);
	CHECK_EQ(td->td_log[0].l_pos, 16);	/* the read first: deadline prefers reads */
	CHECK_EQ(td->td_log[1].l_pos, 0);
	CHECK_EQ(td->td_log[1].l_bytes, 32 * 512);
	CHECK_EQ(blk_stat_snapshot(td->td_q).st_in_flight, 0);
	CHECK_EQ(blk_stat_snapshot(td->td_q).st_ios[1], 1);
	tbio_free_slots(5);
	tdev_destroy(td);
}

/* Plugging off: each bio goes to the driver at once, no merging window. */
static void test_plugging_off_and_threshold(void)
{
	struct tdev *td = tdev_create(1024, "noop");
	struct bio *b;
	long idle;
	int i;

	blk_queue_plugging(td->td_q, false);
	for (i = 0; i < 4; i++)
		blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, i * 8, 8, 0, i));
	CHECK_EQ(td->td_nlog, 4);
	tbio_free_slots(4);
	blk_queue_plugging(td->td_q, true);
	/* Plugged: unplugged when BLK_UNPLUG_THRESH requests wait. */
	for (i = 0; i < (int)BLK_UNPLUG_THRESH; i++)
		blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 100 + i * 16, 8, 0, i));
	CHECK_EQ(td->td_nlog, 4 + BLK_UNPLUG_THRESH);
	tbio_free_slots(BLK_UNPLUG_THRESH);
	/* Plugged: the timer unplugs a lone request. */
	blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 500, 8, 0, 0));
	CHECK_EQ(td->td_nlog, 8);
	host_advance_ns(BLK_UNPLUG_DELAY_MS * 2 * NSEC_PER_MSEC);
	CHECK_EQ(td->td_nlog, 9);
	tbio_free_slots(1);
	/* Whoever sleeps on I/O unplugs: submit_bio_wait releases the plug at once. */
	blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 600, 8, 0, 0));
	CHECK_EQ(td->td_nlog, 9);			/* held by the plug */
	b = tbio_slot(HOST_MEM_NORMAL, 0, 700, 8, 0, 1);
	b->bi_queue = td->td_q;
	idle = host_idle_calls;
	CHECK_EQ(submit_bio_wait(b), 0);
	CHECK_EQ(host_idle_calls, idle);		/* no wait for the unplug timer */
	CHECK_EQ(td->td_nlog, 11);			/* the waiter and what it found plugged */
	CHECK(!(td->td_q->q_flags & QUEUE_FLAG_PLUGGED));
	tbio_free_slots(2);
	tdev_destroy(td);
}

/* A CPU's batch keeps the queue plugged past the threshold; its finish unplugs. */
static void test_batch_holds_plug(void)
{
	struct tdev *td = tdev_create(1024, "noop");
	struct blk_plug plug;
	int i;

	blk_start_plug(&plug);
	for (i = 0; i < 3 * (int)BLK_UNPLUG_THRESH; i++)
		blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, i * 16, 8, 0, i));
	CHECK_EQ(td->td_nlog, 0);
	CHECK(td->td_q->q_flags & QUEUE_FLAG_PLUGGED);
	blk_finish_plug(&plug);
	CHECK_EQ(td->td_nlog, 3 * BLK_UNPLUG_THRESH);
	CHECK(!(td->td_q->q_flags & QUEUE_FLAG_PLUGGED));
	tbio_free_slots(3 * BLK_UNPLUG_THRESH);
	tdev_destroy(td);
}

/* Tiny limits force splits everywhere; data and completions still right. */
static void test_split_to_limits_data(void)
{
	struct tdev *td = tdev_create(4096, "deadline");
	struct request_queue *q = td->td_q;
	int i;

	blk_queue_max_hw_sectors(q, 8);
	blk_queue_max_sectors(q, 3);
	blk_queue_max_segments(q, 2);
	blk_queue_max_segment_size(q, 1024);
	for (i = 0; i < 8; i++) {
		tbio_slot(i & 1 ? HOST_MEM_HIGH4G : HOST_MEM_DMA, REQ_WRITE, 100 * i, 7 + i * 5, 512 * i, i);
		tbio_stamp(tbios[i], 7);
		blk_queue_submit_bio(q, tbios[i]);
	}
	blk_unplug(q);
	for (i = 0; i < 8; i++) {
		CHECK(tres[i].r_calls == 1 && tres[i].r_error == 0);
		CHECK(tdev_check(td, 100 * i, 7 + i * 5, 7));
	}
	for (i = 0; i < (int)td->td_nlog; i++)
		CHECK(td->td_log[i].l_bytes <= 3 * 512);
	CHECK(blk_stat_snapshot(q).st_splits > 0);
	tbio_free_slots(8);
	/* Read back through the same limits into fresh pages. */
	for (i = 0; i < 8; i++) {
		tbio_slot(HOST_MEM_HIGH, 0, 100 * i, 7 + i * 5, 1536, i);
		blk_queue_submit_bio(q, tbios[i]);
	}
	blk_unplug(q);
	for (i = 0; i < 8; i++)
		CHECK(tres[i].r_calls == 1 && tbio_check(tbios[i], 100 * i, 7));
	tbio_free_slots(8);
	tdev_destroy(td);
	CHECK_EQ(host_bios_live(), 0);
}

/* The driver ends 512 bytes at a time; each bio ends once, in order. */
static void test_partial_completion(void)
{
	struct tdev *td = tdev_create(1024, "noop");
	int i;

	td->td_chunk = 512;
	td->td_q->q_unplug_thresh = 1000;
	for (i = 0; i < 3; i++)
		blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, i * 4, 4, 0, i));
	blk_unplug(td->td_q);
	CHECK_EQ(td->td_nlog, 1);
	for (i = 0; i < 3; i++)
		CHECK(tres[i].r_calls == 1 && tres[i].r_error == 0);
	CHECK_EQ(td->td_q->q_rq_in_use, 0);
	tbio_free_slots(3);
	tdev_destroy(td);
}

/* More requests than the pool: submitters wait for completions. */
static void test_pool_runs_dry(void)
{
	struct tdev *td = tdev_create(8192, "noop");
	int i, n = 200;

	td->td_async = true;
	tdev_set_idle(td);
	blk_queue_plugging(td->td_q, false);
	host_idle_calls = 0;
	for (i = 0; i < n; i++)
		blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE | REQ_NOMERGE,
						  i * 16, 8, 0, i));
	CHECK(host_idle_calls > 0);
	CHECK(td->td_max_held <= BLK_DEF_NR_REQUESTS);
	tdev_complete(td);
	for (i = 0; i < n; i++)
		CHECK(tres[i].r_calls == 1 && tres[i].r_error == 0);
	CHECK_EQ(td->td_q->q_rq_in_use, 0);
	tbio_free_slots(n);
	tdev_destroy(td);
}

/* A busy device requeues and stops; start_queue redoes the request. */
static void test_requeue_stop_start(void)
{
	struct tdev *td = tdev_create(1024, "deadline");
	unsigned long flags;

	td->td_busy_once = 1;
	blk_queue_plugging(td->td_q, false);
	tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 40, 8, 0, 0);
	tbio_stamp(tbios[0], 3);
	blk_queue_submit_bio(td->td_q, tbios[0]);
	CHECK_EQ(tres[0].r_calls, 0);
	CHECK(td->td_q->q_flags & QUEUE_FLAG_STOPPED);
	CHECK_EQ(blk_stat_snapshot(td->td_q).st_requeues, 1);
	spin_lock_irqsave(td->td_q->q_lock, flags);
	blk_start_queue(td->td_q);
	spin_unlock_irqrestore(td->td_q->q_lock, flags);
	CHECK_EQ(tres[0].r_calls, 1);
	CHECK(tdev_check(td, 40, 8, 3));
	tbio_free_slots(1);
	tdev_destroy(td);
}

static int prep_calls;
static int prep_kill_sector = -1;

static int test_prep(struct request_queue *q, struct request *rq)
{
	prep_calls++;
	if ((int)blk_rq_pos(rq) == prep_kill_sector)
		return BLKPREP_KILL;
	rq->rq_special = &prep_calls;
	return BLKPREP_OK;
}

static void test_prep_once_and_kill(void)
{
	struct tdev *td = tdev_create(1024, "noop");

	blk_queue_prep_rq(td->td_q, test_prep);
	blk_queue_plugging(td->td_q, false);
	td->td_busy_once = 1;
	prep_calls = 0;
	blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 8, 8, 0, 0));
	blk_run_queue(td->td_q);	/* stopped: nothing */
	spin_lock_irq(td->td_q->q_lock);
	blk_start_queue(td->td_q);
	spin_unlock_irq(td->td_q->q_lock);
	CHECK_EQ(tres[0].r_calls, 1);
	CHECK_EQ(prep_calls, 1);	/* built once, despite the requeue */
	prep_kill_sector = 64;
	blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 64, 8, 0, 1));
	CHECK(tres[1].r_calls == 1 && tres[1].r_error == -EIO);
	prep_kill_sector = -1;
	tbio_free_slots(2);
	tdev_destroy(td);
}

static int timeouts_seen;
static enum blk_eh_timer_return timeout_verdict;

static enum blk_eh_timer_return test_timed_out(struct request *rq)
{
	timeouts_seen++;
	return timeout_verdict;
}

/* A lost request times out; retried up to q_max_retries, then -EIO. */
static void test_timeout_retries(void)
{
	struct tdev *td = tdev_create(1024, "noop");
	struct request_queue *q = td->td_q;
	u32 i;

	td->td_async = true;
	blk_queue_rq_timed_out(q, test_timed_out);
	blk_queue_rq_timeout(q, 100);
	blk_queue_plugging(q, false);
	timeouts_seen = 0;
	timeout_verdict = BLK_EH_RETRY;
	blk_queue_submit_bio(q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 8, 8, 0, 0));
	CHECK_EQ(td->td_nlog, 1);
	for (i = 0; i <= BLK_DEF_MAX_RETRIES; i++) {
		td->td_nheld = 0;	/* the device "lost" it */
		host_advance_ns(150 * NSEC_PER_MSEC);
	}
	CHECK_EQ(timeouts_seen, BLK_DEF_MAX_RETRIES + 1);
	CHECK_EQ(td->td_nlog, BLK_DEF_MAX_RETRIES + 1);	/* re-issued each retry */
	CHECK(tres[0].r_calls == 1 && tres[0].r_error == -EIO);
	CHECK_EQ(blk_stat_snapshot(q).st_timeouts, BLK_DEF_MAX_RETRIES + 1);
	CHECK_EQ(q->q_in_driver, 0);
	/* More time, then it completes after all. */
	timeout_verdict = BLK_EH_RESET_TIMER;
	blk_queue_submit_bio(q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 16, 8, 0, 1));
	host_advance_ns(150 * NSEC_PER_MSEC);
	CHECK_EQ(tres[1].r_calls, 0);
	tdev_complete(td);
	CHECK(tres[1].r_calls == 1 && tres[1].r_error == 0);
	/* Give up at once: -EIO, no retry. */
	timeout_verdict = BLK_EH_FAIL;
	timeouts_seen = 0;
	blk_queue_submit_bio(q, tbio_slot(HOST_MEM_NORMAL, 0, 24, 8, 0, 2));
	td->td_nheld = 0;
	host_advance_ns(150 * NSEC_PER_MSEC);
	CHECK_EQ(timeouts_seen, 1);
	CHECK(tres[2].r_calls == 1 && tres[2].r_error == -EIO);
	CHECK_EQ(q->q_in_driver, 0);
	CHECK_EQ(q->q_rq_in_use, 0);
	tbio_free_slots(3);
	tdev_destroy(td);
}

/* An I/O error reaches every bio of the request. */
static void test_error_reaches_every_bio(void)
{
	struct tdev *td = tdev_create(1024, "noop");
	int i;

	td->td_fail_sector = 12;
	td->td_q->q_unplug_thresh = 1000;
	for (i = 0; i < 3; i++)
		blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, 0, i * 8, 8, 0, i));
	blk_unplug(td->td_q);
	CHECK_EQ(td->td_nlog, 1);
	for (i = 0; i < 3; i++)
		CHECK(tres[i].r_calls == 1 && tres[i].r_error == -EIO);
	CHECK_EQ(blk_stat_snapshot(td->td_q).st_errors, 1);
	tbio_free_slots(3);
	tdev_destroy(td);
}

static void test_submit_through_bdev(void)
{
	struct tdev *td = tdev_create(1024, "noop");
	struct block_device part = { td->td_q, 100, 50, false };
	struct bio *b;

	blk_queue_plugging(td->td_q, false);
	b = tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 10, 8, 0, 0);
	b->bi_bdev = &part;
	tbio_stamp(b, 9);	/* stamped for sector 10... */
	submit_bio(b);
	CHECK(tres[0].r_calls == 1 && tres[0].r_error == 0);
	CHECK_EQ(td->td_log[0].l_pos, 110);	/* ...lands at 110 */
	b = tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 45, 8, 0, 1);
	b->bi_bdev = &part;
	submit_bio(b);
	CHECK_EQ(tres[1].r_error, -EIO);		/* past the end */
	part.bd_read_only = true;
	b = tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 0, 8, 0, 2);
	b->bi_bdev = &part;
	submit_bio(b);
	CHECK_EQ(tres[2].r_error, -EROFS);
	b = tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 0, 1, 0, 3);
	b->bi_iter.bi_size = 100;		/* not a whole sector */
	blk_queue_submit_bio(td->td_q, b);
	CHECK_EQ(tres[3].r_error, -EINVAL);
	b->bi_iter.bi_size = 512;
	tbio_free_slots(4);
	tdev_destroy(td);
}

static void test_iostat_line(void)
{
	struct tdev *td = tdev_create(1024, "noop");
	char line[256];

	blk_queue_plugging(td->td_q, false);
	blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, 0, 0, 8, 0, 0));
	blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 8, 16, 0, 1));
	blk_stat_format(td->td_q, line, sizeof(line));
	CHECK(str_starts(line, "tdev     1 0 8 0 1 0 16 0 0 "));
	tbio_free_slots(2);
	tdev_destroy(td);
}

/* Elevator switch with requests queued: none lost, order kept. */
static void test_elevator_switch_drains(void)
{
	struct tdev *td = tdev_create(4096, "deadline");
	int i;

	td->td_q->q_unplug_thresh = 1000;
	for (i = 0; i < 10; i++)
		blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, (10 - i) * 16, 8, 0, i));
	CHECK_EQ(td->td_q->q_in_elevator, 10);
	CHECK_EQ(elevator_switch(td->td_q, "noop"), 0);
	CHECK_STR(td->td_q->q_elevator->e_type->et_name, "noop");
	CHECK_EQ(elevator_switch(td->td_q, "nonesuch"), -EINVAL);
	blk_unplug(td->td_q);
	CHECK_EQ(td->td_nlog, 10);
	for (i = 0; i < 10; i++)
		CHECK(tres[i].r_calls == 1);
	tbio_free_slots(10);
	tdev_destroy(td);
}

/* From interrupt context a dry pool lends a request from the slab instead. */
static void test_pool_dry_in_interrupt(void)
{
	struct tdev *td = tdev_create(8192, "noop");
	long idle = host_idle_calls;
	u32 i;

	td->td_async = true;
	blk_queue_plugging(td->td_q, false);
	for (i = 0; i < BLK_DEF_NR_REQUESTS; i++)
		blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE | REQ_NOMERGE,
						  i * 16, 8, 0, (int)i));
	CHECK_EQ(td->td_q->q_rq_in_use, BLK_DEF_NR_REQUESTS);
	host_in_interrupt = true;
	blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 4000, 8, 0, (int)i));
	host_in_interrupt = false;
	CHECK_EQ(host_idle_calls, idle);		/* it did not wait */
	CHECK_EQ(td->td_nheld, BLK_DEF_NR_REQUESTS + 1);
	tdev_complete(td);
	for (i = 0; i <= BLK_DEF_NR_REQUESTS; i++)
		CHECK(tres[i].r_calls == 1 && tres[i].r_error == 0);
	CHECK_EQ(td->td_q->q_rq_in_use, 0);
	CHECK_EQ(blk_stat_snapshot(td->td_q).st_in_flight, 0);
	tbio_free_slots(BLK_DEF_NR_REQUESTS + 1);
	tdev_destroy(td);
}

/* Fill td's pool with held requests; the caller ends them with tdev_complete(). */
static void fill_pool(struct tdev *td)
{
	u32 i;

	td->td_async = true;
	blk_queue_plugging(td->td_q, false);
	for (i = 0; i < BLK_DEF_NR_REQUESTS; i++)
		blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE | REQ_NOMERGE,
						  i * 16, 8, 0, (int)i));
	CHECK_EQ(td->td_q->q_rq_in_use, BLK_DEF_NR_REQUESTS);
}

/* A driver that keeps giving its request more time: it never ends. */
static enum blk_eh_timer_return keep_waiting(struct request *rq)
{
	return BLK_EH_RESET_TIMER;
}

/*
 * A pool that stays dry fails the I/O with an errno a filesystem knows
 * -- -ENOMEM when interrupt context finds no memory either, -EIO when no
 * request comes back in time -- and says so once, naming the disk.
 */
static void test_pool_dry_fails_cleanly(void)
{
	struct tdev *td = tdev_create(8192, "noop");
	const u32 n = BLK_DEF_NR_REQUESTS;

	fill_pool(td);
	host_printk_last[0] = '\0';
	host_in_interrupt = true;
	host_slab_fail_after = 0;
	blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 4000, 8, 0, (int)n));
	host_slab_fail_after = -1;
	host_in_interrupt = false;
	CHECK(tres[n].r_calls == 1 && tres[n].r_error == -ENOMEM);
	CHECK(strstr(host_printk_last, "tdev: no free request") != NULL);

	blk_queue_rq_timed_out(td->td_q, keep_waiting);
	host_printk_last[0] = '\0';
	blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 4100, 8, 0, (int)n + 1));
	CHECK(tres[n + 1].r_calls == 1 && tres[n + 1].r_error == -EIO);
	CHECK(strstr(host_printk_last, "tdev: no free request") != NULL);

	tdev_complete(td);
	CHECK_EQ(td->td_q->q_rq_in_use, 0);
	tbio_free_slots((int)n + 2);
	tdev_destroy(td);
}

static const struct unit_case cases[] = {
	{ "queue/pool_dry_fails_cleanly", test_pool_dry_fails_cleanly },
	{ "queue/pool_dry_in_interrupt", test_pool_dry_in_interrupt },
	{ "queue/sequential_merge_to_limit", test_sequential_merge_to_limit },
	{ "queue/front_and_gap_merge", test_front_and_gap_merge },
	{ "queue/plugging_off_and_threshold", test_plugging_off_and_threshold },
	{ "queue/batch_holds_plug", test_batch_holds_plug },
	{ "queue/split_to_limits_data", test_split_to_limits_data },
	{ "queue/partial_completion", test_partial_completion },
	{ "queue/pool_runs_dry", test_pool_runs_dry },
	{ "queue/requeue_stop_start", test_requeue_stop_start },
	{ "queue/prep_once_and_kill", test_prep_once_and_kill },
	{ "queue/timeout_retries", test_timeout_retries },
	{ "queue/error_reaches_every_bio", test_error_reaches_every_bio },
	{ "queue/submit_through_bdev", test_submit_through_bdev },
	{ "queue/iostat_line", test_iostat_line },
	{ "queue/elevator_switch_drains", test_elevator_switch_drains },
};

UNIT_MAIN("block_queue", cases)
