/*
 * Host tests of the elevators, tags and bounce buffers, with the fake
 * clock for deadline expiry and the trace ring and test device log as
 * witnesses of what reached the driver.  Flush/FUA: test_blk_flush.c.
 */
#include "tests/unit/unit.h"
#include "tests/unit/blk_testdev.h"
#include "tests/unit/fakes/sched_fake.h"
#include "kernel/errno.h"

/* Pull one request through the driver by hand. */
static struct request *pull(struct request_queue *q)
{
	struct request *rq;

	spin_lock_irq(q->q_lock);
	rq = blk_fetch_request(q);
	spin_unlock_irq(q->q_lock);
	return rq;
}

static void end(struct request *rq)
{
	blk_end_request_all(rq, 0);
}

/* A queue whose driver never pulls by itself: the test pulls. */
static struct tdev *manual_dev(const char *elv)
{
	struct tdev *td = tdev_create(1 << 16, elv);

	blk_queue_plugging(td->td_q, true);
	td->td_q->q_unplug_thresh = 1000;
	td->td_q->q_unplug_delay_ms = 1000000;
	spin_lock_irq(td->td_q->q_lock);
	blk_stop_queue(td->td_q);
	spin_unlock_irq(td->td_q->q_lock);
	return td;
}

static void finish_manual(struct tdev *td, int n)
{
	spin_lock_irq(td->td_q->q_lock);
	blk_start_queue(td->td_q);
	spin_unlock_irq(td->td_q->q_lock);
	blk_unplug(td->td_q);
	tbio_free_slots(n);
	tdev_destroy(td);
}

static void test_noop_fifo(void)
{
	struct tdev *td = manual_dev("noop");
	static const sector_t order[] = { 300, 100, 200, 50 };
	struct request *rq;
	int i;

	for (i = 0; i < 4; i++)
		blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, order[i], 8, 0, i));
	for (i = 0; i < 4; i++) {
		rq = pull(td->td_q);
		CHECK(rq && blk_rq_pos(rq) == order[i]);
		if (rq)
			end(rq);
	}
	finish_manual(td, 4);
}

/* One sweep up from the oldest, then the oldest left, then on up. */
static void test_deadline_sorted_sweep(void)
{
	struct tdev *td = manual_dev("deadline");
	static const sector_t in[] = { 100, 50, 300, 10, 200 };
	static const sector_t out[] = { 100, 200, 300, 50, 10 };
	struct request *rq;
	int i;

	for (i = 0; i < 5; i++)
		blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, in[i], 8, 0, i));
	for (i = 0; i < 5; i++) {
		rq = pull(td->td_q);
		CHECK(rq && blk_rq_pos(rq) == out[i]);
		if (rq)
			end(rq);
	}
	finish_manual(td, 5);
}

/* An expired read is served before the sweep goes on. */
static void test_deadline_expired_read_first(void)
{
	int expire;

	for (expire = 0; expire < 2; expire++) {
		struct tdev *td = manual_dev("deadline");
		struct request *rq;

		CHECK_EQ(elv_tunable_set(td->td_q, "fifo_batch", 1), 0);
		blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, 0, 100, 8, 0, 0));
		blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, 0, 50, 8, 0, 1));
		blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, 0, 300, 8, 0, 2));
		rq = pull(td->td_q);
		CHECK(rq && blk_rq_pos(rq) == 100);	/* oldest starts the sweep */
		end(rq);
		if (expire)
			host_advance_ns(501 * NSEC_PER_MSEC);
		else
			host_advance_ns(499 * NSEC_PER_MSEC);
		rq = pull(td->td_q);
		/* Unexpired: the sweep goes on to 300; expired: the FIFO head, 50. */
		CHECK(rq && blk_rq_pos(rq) == (expire ? 50u : 300u));
		end(rq);
		finish_manual(td, 3);
	}
}

/* Writes wait for at most writes_starved read batches. */
static void test_deadline_writes_starved(void)
{
	struct tdev *td = manual_dev("deadline");
	struct request *rq;
	int i, first_write = -1;

	CHECK_EQ(elv_tunable_set(td->td_q, "fifo_batch", 1), 0);
	CHECK_EQ(elv_tunable_set(td->td_q, "writes_starved", 2), 0);
	CHECK_EQ(elv_tunable_set(td->td_q, "fifo_batch", 0), -ERANGE);
	blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 5000, 8, 0, 0));
	for (i = 1; i < 8; i++)
		blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, 0, i * 100, 8, 0, i));
	for (i = 0; i < 8; i++) {
		rq = pull(td->td_q);
		if (rq && rq_is_write(rq) && first_write < 0)
			first_write = i;
		end(rq);
	}
	CHECK_EQ(first_write, 2);	/* after two read batches */
	finish_manual(td, 8);
}

/* Tunables are per queue and read back. */
static void test_deadline_tunables(void)
{
	struct tdev *td = manual_dev("deadline");
	u32 v;

	CHECK_EQ(elv_tunable_get(td->td_q, "read_expire", &v), 0);
	CHECK_EQ(v, 500);
	CHECK_EQ(elv_tunable_get(td->td_q, "write_expire", &v), 0);
	CHECK_EQ(v, 5000);
	CHECK_EQ(elv_tunable_get(td->td_q, "writes_starved", &v), 0);
	CHECK_EQ(v, 2);
	CHECK_EQ(elv_tunable_get(td->td_q, "fifo_batch", &v), 0);
	CHECK_EQ(v, 16);
	CHECK_EQ(elv_tunable_set(td->td_q, "read_expire", 20), 0);
	CHECK_EQ(elv_tunable_get(td->td_q, "read_expire", &v), 0);
	CHECK_EQ(v, 20);
	CHECK_EQ(elv_tunable_get(td->td_q, "nonesuch", &v), -ENOENT);
	finish_manual(td, 0);
}

/* Tags: depth bounds what the device holds; invalidate requeues all. */
static void test_tags(void)
{
	struct tdev *td = tdev_create(4096, "noop");
	struct request_queue *q = td->td_q;
	struct blk_queue_tag *shared;
	struct request_queue *q2;
	int i;

	CHECK_EQ(blk_queue_init_tags(q, 33, NULL), -EINVAL);
	CHECK_EQ(blk_queue_init_tags(q, 4, NULL), 0);
	CHECK_EQ(blk_queue_init_tags(q, 4, NULL), -EBUSY);
	td->td_tags = true;
	td->td_async = true;
	blk_queue_plugging(q, false);
	for (i = 0; i < 10; i++)
		blk_queue_submit_bio(q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE | REQ_NOMERGE, i * 8, 8, 0, i));
	CHECK_EQ(td->td_nheld, 4);
	for (i = 0; i < 4; i++) {
		CHECK_EQ(td->td_log[i].l_tag, i);
		CHECK(blk_queue_find_tag(q, i) == td->td_held[i]);
	}
	CHECK(blk_queue_find_tag(q, 4) == NULL);
	CHECK(blk_queue_find_tag(q, -1) == NULL);
	/* Device reset: all four come back and are issued again. */
	spin_lock_irq(q->q_lock);
	CHECK_EQ(blk_queue_invalidate_tags(q), 4);
	td->td_nheld = 0;
	__blk_run_queue(q);
	spin_unlock_irq(q->q_lock);
	CHECK_EQ(td->td_nheld, 4);
	CHECK_EQ(td->td_log[4].l_pos, 0);	/* requeued in tag order */
	CHECK_EQ(td->td_log[7].l_pos, 24);
	CHECK_EQ(blk_stat_snapshot(q).st_requeues, 4);
	while (td->td_nheld)
		tdev_complete(td);
	for (i = 0; i < 10; i++)
		CHECK(tres[i].r_calls == 1 && tres[i].r_error == 0);
	CHECK(q->q_tags->bqt_busy == 0);
	/* A second queue sharing the map. */
	shared = q->q_tags;
	q2 = blk_alloc_queue("tdev2");
	CHECK_EQ(blk_queue_init_tags(q2, 0, shared), 0);
	CHECK_EQ(shared->bqt_refcnt, 2);
	blk_cleanup_queue(q2);
	CHECK_EQ(shared->bqt_refcnt, 1);
	tbio_free_slots(10);
	tdev_destroy(td);
}

/* Bounce: what the device cannot reach is copied, the rest is not. */
static void test_bounce_decisions(void)
{
	struct queue_limits l;
	struct bio *b;

	blk_set_default_limits(&l);
	b = tbio_slot(HOST_MEM_HIGH4G, REQ_WRITE, 0, 8, 0, 0);
	CHECK(!blk_bio_needs_bounce(&l, b));
	l.lim_bounce_limit = BLK_BOUNCE_4G;
	CHECK(blk_bio_needs_bounce(&l, b));
	tbio_free_slots(1);
	b = tbio_slot(HOST_MEM_HIGH, REQ_WRITE, 0, 8, 0, 0);	/* highmem below 4 GiB */
	CHECK(!blk_bio_needs_bounce(&l, b));
	l.lim_bounce_highmem = true;
	CHECK(blk_bio_needs_bounce(&l, b));
	tbio_free_slots(1);
	blk_set_default_limits(&l);
	l.lim_dma_alignment = 511;
	b = tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 0, 8, 512, 0);
	CHECK(!blk_bio_needs_bounce(&l, b));
	tbio_free_slots(1);
	b = tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 0, 8, 0, 0);
	b->bi_io_vec[0].bv_offset = 2;	/* misaligned by hand */
	b->bi_io_vec[0].bv_len -= 2;
	CHECK(blk_bio_needs_bounce(&l, b));
	b->bi_io_vec[0].bv_offset = 0;
	b->bi_io_vec[0].bv_len += 2;
	tbio_free_slots(1);
	l.lim_dma_alignment = 0;
	l.lim_bounce_limit = BLK_BOUNCE_ISA;
	b = tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 0, 8, 0, 0);
	CHECK(blk_bio_needs_bounce(&l, b));
	tbio_free_slots(1);
	b = tbio_slot(HOST_MEM_DMA, REQ_WRITE, 0, 8, 0, 0);
	CHECK(!blk_bio_needs_bounce(&l, b));
	tbio_free_slots(1);
}

/* A mixed bio through a 32-bit queue: data right, only high pages bounced. */
static void test_bounce_roundtrip(void)
{
	struct tdev *td = tdev_create(4096, "noop");
	struct request_queue *q = td->td_q;
	struct bio *b;
	u32 i;

	CHECK_EQ(blk_queue_bounce_limit(q, BLK_BOUNCE_4G, false), 0);
	blk_queue_plugging(q, false);
	b = tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 100, 8, 0, 0);
	for (i = 1; i < 4; i++)			/* every other page above 4 GiB */
		CHECK_EQ(bio_add_page(b, host_alloc_page_in(i % 2 ? HOST_MEM_HIGH4G :
							     HOST_MEM_NORMAL), PAGE_SIZE, 0), 0);
	CHECK_EQ(b->bi_vcnt, 4);
	tbio_stamp(b, 5);
	blk_queue_submit_bio(q, b);
	CHECK(tres[0].r_calls == 1 && tres[0].r_error == 0);
	CHECK(tdev_check(td, 100, 32, 5));
	CHECK_EQ(blk_stat_snapshot(q).st_bounces, 1);
	CHECK_EQ(blk_stat_snapshot(q).st_bounce_pages, 2);
	tbio_slot(HOST_MEM_HIGH4G, 0, 100, 32, 512, 1);
	blk_queue_submit_bio(q, tbios[1]);
	CHECK(tres[1].r_calls == 1 && tbio_check(tbios[1], 100, 5));
	CHECK_EQ(blk_stat_snapshot(q).st_bounces, 2);
	/* Nothing reachable is bounced. */
	tbio_slot(HOST_MEM_NORMAL, 0, 100, 32, 0, 2);
	blk_queue_submit_bio(q, tbios[2]);
	CHECK(tres[2].r_calls == 1 && tbio_check(tbios[2], 100, 5));
	CHECK_EQ(blk_stat_snapshot(q).st_bounces, 2);
	tbio_free_slots(3);
	tdev_destroy(td);
	CHECK_EQ(host_bios_live(), 0);
}

/* Misaligned pieces are packed so the device sees aligned entries only. */
static void test_bounce_alignment_packing(void)
{
	struct tdev *td = tdev_create(4096, "noop");
	struct request_queue *q = td->td_q;
	struct page *pg[4];
	struct bio *b = bio_alloc(GFP_NOIO, 8);
	static const u32 off[] = { 1, 2000, 0, 3 }, len[] = { 1001, 1047, 2048, 1024 };
	u32 i, total = 0;
	struct tbio_result r = { 0, 1 };

	CHECK_EQ(blk_queue_dma_alignment(q, 3), 0);
	blk_queue_plugging(q, false);
	for (i = 0; i < 4; i++) {
		pg[i] = host_alloc_page_in(HOST_MEM_HIGH);
		CHECK_EQ(bio_add_page(b, pg[i], len[i], off[i]), 0);
		total += len[i];
	}
	CHECK_EQ(total, 10 * 512);
	b->bi_iter.bi_sector = 7;
	b->bi_rw = REQ_WRITE;
	b->bi_private = &r;
	b->bi_end_io = tbio_endio;
	tbio_stamp(b, 11);
	blk_queue_submit_bio(q, b);
	CHECK(r.r_calls == 1 && r.r_error == 0);
	CHECK(tdev_check(td, 7, 10, 11));
	CHECK_EQ(blk_stat_snapshot(q).st_bounces, 1);
	for (i = 0; i < 4; i++)
		__free_pages(pg[i], 0);
	bio_put(b);
	tdev_destroy(td);
	CHECK_EQ(host_bios_live(), 0);
}

/* Pull requests until the scheduler holds back; they stay with the "driver". */
static int pull_all(struct request_queue *q, struct request **got, int max)
{
	int n = 0;

	while (n < max && (got[n] = pull(q)) != NULL)
		n++;
	return n;
}

/* Reads go first and are never held back; writes stop at max_depth in flight. */
static void test_kyber_write_depth(void)
{
	struct tdev *td = manual_dev("kyber");
	struct request *got[16];
	int i, n;

	CHECK_EQ(elv_tunable_set(td->td_q, "max_depth", 2), 0);
	for (i = 0; i < 4; i++)
		blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 1000 + i * 100,
							 8, 0, i));
	for (i = 4; i < 7; i++)
		blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, 0, i * 100, 8, 0, i));
	n = pull_all(td->td_q, got, 16);
	CHECK_EQ(n, 5);			/* three reads, then two writes */
	for (i = 0; i < n; i++)
		CHECK(rq_is_write(got[i]) == (i >= 3));
	end(got[3]);			/* a write ends: one more may go */
	got[3] = pull(td->td_q);
	CHECK(got[3] && rq_is_write(got[3]));
	CHECK(pull(td->td_q) == NULL);
	for (i = 0; i < n; i++)
		end(got[i]);
	n = pull_all(td->td_q, got, 16);
	CHECK_EQ(n, 1);			/* the last write */
	end(got[0]);
	finish_manual(td, 7);
}

/* A 512 KiB write at sector: one page, mapped 128 times (no data is moved). */
static struct bio *big_write(struct page *pg, sector_t sector)
{
	struct bio *b = bio_alloc(GFP_NOIO, 128);
	int i;

	for (i = 0; i < 128; i++)
		CHECK_EQ(bio_add_page(b, pg, PAGE_SIZE, 0), 0);
	b->bi_iter.bi_sector = sector;
	b->bi_rw = REQ_WRITE;
	return b;
}

/* Submit n 512 KiB writes, back to back on disk from sector, into b[]. */
static void big_writes(struct tdev *td, struct page *pg, struct bio **b, int n, sector_t sector)
{
	int i;

	for (i = 0; i < n; i++) {
		b[i] = big_write(pg, sector + i * 1024);
		blk_queue_submit_bio(td->td_q, b[i]);
	}
}

/* Pull what goes at once, which must be want requests of bytes each; end them. */
static void pull_wave(struct tdev *td, int want, u32 bytes)
{
	struct request *got[16];
	int i, n = pull_all(td->td_q, got, 16);

	CHECK_EQ(n, want);
	for (i = 0; i < n; i++) {
		CHECK_EQ(blk_rq_bytes(got[i]), bytes);
		end(got[i]);
	}
}

/*
 * The depth counts a token per MiB begun, and held-back writes merge only
 * as far as the depth passes them whole: at max_depth=1 one 1 MiB write
 * at a time; at 2 one 2 MiB write (not two); at 5 two of them.
 */
static void test_kyber_tokens_by_size(void)
{
	struct tdev *td = manual_dev("kyber");
	struct page *pg = host_alloc_page_in(HOST_MEM_NORMAL);
	struct bio *b[20];
	int i;

	blk_queue_max_hw_sectors(td->td_q, 4096);
	blk_queue_max_sectors(td->td_q, 4096);
	blk_queue_max_segments(td->td_q, 1024);
	CHECK_EQ(elv_tunable_set(td->td_q, "max_depth", 1), 0);
	big_writes(td, pg, b, 4, 0);
	pull_wave(td, 1, 1u << 20);
	pull_wave(td, 1, 1u << 20);
	CHECK_EQ(elv_tunable_set(td->td_q, "max_depth", 2), 0);
	big_writes(td, pg, b + 4, 8, 8192);
	pull_wave(td, 1, 2u << 20);
	pull_wave(td, 1, 2u << 20);
	CHECK_EQ(elv_tunable_set(td->td_q, "max_depth", 5), 0);
	big_writes(td, pg, b + 12, 8, 16384);
	pull_wave(td, 2, 2u << 20);		/* 2 + 2 tokens fit in 5 */
	finish_manual(td, 0);
	for (i = 0; i < 20; i++)
		bio_put(b[i]);
	__free_pages(pg, 0);
}

/* One read that the "device" takes us microseconds to serve. */
static void kyber_read(struct tdev *td, u64 us)
{
	struct request *rq;

	blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, 0, 50000, 8, 0, 200));
	rq = pull(td->td_q);
	CHECK(rq && !rq_is_write(rq));
	host_advance_ns(us * NSEC_PER_USEC);
	if (rq)
		end(rq);
	tbio_free(tbios[200]);
}

/* How many of 16 queued writes the scheduler lets through at once. */
static int kyber_depth(struct tdev *td)
{
	struct request *got[16], *w;
	int i, n;

	for (i = 0; i < 16; i++)
		blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, i * 100,
							 8, 0, i));
	n = pull_all(td->td_q, got, 16);
	for (i = 0; i < n; i++)
		end(got[i]);
	while ((w = pull(td->td_q)) != NULL)
		end(w);
	tbio_free_slots(16);
	return n;
}

/*
 * A window of reads slower than the target halves the write depth; fast
 * reads grow it back, by a quarter (at least one) a window, to max_depth.
 */
static void test_kyber_feedback(void)
{
	struct tdev *td = manual_dev("kyber");
	int i;

	CHECK_EQ(elv_tunable_set(td->td_q, "read_lat_us", 100), 0);
	CHECK_EQ(elv_tunable_set(td->td_q, "window_ms", 10), 0);
	CHECK_EQ(elv_tunable_set(td->td_q, "max_depth", 8), 0);
	CHECK_EQ(elv_tunable_set(td->td_q, "min_depth", 2), 0);
	CHECK_EQ(kyber_depth(td), 8);
	for (i = 0; i < 10; i++)
		kyber_read(td, 1000);		/* 1 ms reads against 100 us */
	CHECK_EQ(kyber_depth(td), 4);
	for (i = 0; i < 10; i++)
		kyber_read(td, 1000);
	CHECK_EQ(kyber_depth(td), 2);
	for (i = 0; i < 10; i++)
		kyber_read(td, 1000);		/* not below min_depth */
	CHECK_EQ(kyber_depth(td), 2);
	for (i = 0; i < 500 * 3; i++)
		kyber_read(td, 20);		/* three windows: 2 -> 3 -> 4 -> 5 */
	CHECK_EQ(kyber_depth(td), 5);
	for (i = 0; i < 500 * 3; i++)
		kyber_read(td, 20);
	CHECK_EQ(kyber_depth(td), 8);
	finish_manual(td, 0);
}

/* With read_lat_us=0 the target is twice the read latency learnt without writes. */
static void test_kyber_learns_idle_latency(void)
{
	struct tdev *td = manual_dev("kyber");
	struct request *w[2];
	int i;

	CHECK_EQ(elv_tunable_set(td->td_q, "window_ms", 10), 0);
	CHECK_EQ(elv_tunable_set(td->td_q, "max_depth", 8), 0);
	for (i = 0; i < 400; i++)
		kyber_read(td, 50);		/* idle: ~50 us, target ~100 us */
	CHECK_EQ(kyber_depth(td), 8);
	/* With writes in flight, reads take 6x as long: throttled. */
	for (i = 0; i < 2; i++)
		blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 90000 + i * 100,
							 8, 0, 100 + i));
	CHECK_EQ(pull_all(td->td_q, w, 2), 2);
	for (i = 0; i < 40; i++)
		kyber_read(td, 300);
	end(w[0]);
	end(w[1]);
	tbio_free(tbios[100]);
	tbio_free(tbios[101]);
	CHECK(kyber_depth(td) < 8);
	finish_manual(td, 0);
}

static const struct unit_case cases[] = {
	{ "elevator/noop_fifo", test_noop_fifo },
	{ "elevator/deadline_sorted_sweep", test_deadline_sorted_sweep },
	{ "elevator/deadline_expired_read_first", test_deadline_expired_read_first },
	{ "elevator/deadline_writes_starved", test_deadline_writes_starved },
	{ "elevator/deadline_tunables", test_deadline_tunables },
	{ "elevator/kyber_write_depth", test_kyber_write_depth },
	{ "elevator/kyber_tokens_by_size", test_kyber_tokens_by_size },
	{ "elevator/kyber_feedback", test_kyber_feedback },
	{ "elevator/kyber_learns_idle_latency", test_kyber_learns_idle_latency },
	{ "tag/depth_find_invalidate_share", test_tags },
	{ "bounce/decisions", test_bounce_decisions },
	{ "bounce/roundtrip_32bit", test_bounce_roundtrip },
	{ "bounce/alignment_packing", test_bounce_alignment_packing },
};

UNIT_MAIN("block_sched", cases)
