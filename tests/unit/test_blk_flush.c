/*
 * Host tests of flush/FUA sequencing (block/blk-flush.c).
 *
 * The test device holds every command it is handed; the tests complete
 * them one at a time, in a seeded random order as a queueing disk may,
 * and keep a clock of one tick per action (a submission or a completion).
 * A command the device receives during an action gets that action's tick:
 * it was issued after the action's own submission or completion.  From
 * that record the promises are checked:
 *  - the data of a PREFLUSH request starts only after a flush issued
 *    after its submission has completed (a pure flush: it ends only then);
 *  - an emulated FUA write ends only after a flush issued after its data
 *    completed;
 *  - one flush in flight at a time, and K PREFLUSH|FUA requests that
 *    arrive while one is in flight cost at most two more, not 2K.
 */
#include "tests/unit/unit.h"
#include "tests/unit/blk_testdev.h"
#include "tests/unit/fakes/sched_fake.h"
#include "kernel/errno.h"

#define FX_IOS		64	/* requests in one run */
#define FX_SPACING	16	/* sectors from one request's start to the next: no merges */
#define FX_SECTORS	8	/* of each data request */
#define FX_FLUSHES	(2 * FX_IOS + 1)
#define FX_SEEDS	32

/* One request's life, in ticks (0: not yet). */
struct fx_io {
	u32	io_rw;
	bool	io_data;		/* false: a pure flush */
	u32	io_submit;
	u32	io_data_issue;
	u32	io_data_flags;		/* REQ_* the device saw on the data */
	u32	io_data_done;
	u32	io_end;			/* its bio ended */
};

struct fx {
	struct tdev	*x_td;
	u32		x_now;			/* one tick per action */
	u32		x_logged;		/* td_log entries stamped so far */
	u32		x_nio;			/* requests submitted */
	struct fx_io	x_io[FX_IOS];
	u32		x_nflush;		/* flushes issued */
	u32		x_ndone;		/* flushes completed */
	u32		x_flush_issue[FX_FLUSHES];
	u32		x_flush_done[FX_FLUSHES];
	int		x_flush_err[FX_FLUSHES];
	u64		x_rng;
};

static struct fx *fx_start(u32 cache, u64 seed)
{
	struct fx *x = calloc(1, sizeof(*x));

	x->x_td = tdev_create(FX_IOS * FX_SPACING, "noop");
	blk_queue_flush(x->x_td->td_q, cache);
	blk_queue_plugging(x->x_td->td_q, false);
	x->x_td->td_async = true;
	x->x_rng = seed * 0x9E3779B97F4A7C15ULL | 1;
	x->x_now = 1;
	return x;
}

static void fx_end(struct fx *x)
{
	CHECK_EQ(x->x_td->td_nheld, 0);
	CHECK_EQ(x->x_td->td_q->q_rq_in_use, 0);
	CHECK(!blk_flush_busy(x->x_td->td_q));
	tbio_free_slots((int)x->x_nio);
	tdev_destroy(x->x_td);
	free(x);
}

/* xorshift64: a number below n. */
static u32 fx_rand(struct fx *x, u32 n)
{
	x->x_rng ^= x->x_rng << 13;
	x->x_rng ^= x->x_rng >> 7;
	x->x_rng ^= x->x_rng << 17;
	return (u32)(x->x_rng % n);
}

/* After an action: stamp what the device received and which bios ended. */
static void fx_stamp(struct fx *x)
{
	struct tdev *td = x->x_td;
	u32 i, flushes_held = 0;

	for (; x->x_logged < td->td_nlog; x->x_logged++) {
		struct tdev_log *l = &td->td_log[x->x_logged];
		struct fx_io *io;

		if (l->l_flush) {
			KASSERT(x->x_nflush < FX_FLUSHES);
			x->x_flush_issue[x->x_nflush++] = x->x_now;
			continue;
		}
		io = &x->x_io[l->l_pos / FX_SPACING];
		CHECK_EQ(io->io_data_issue, 0);		/* data goes once */
		io->io_data_issue = x->x_now;
		io->io_data_flags = l->l_flags;
	}
	for (i = 0; i < x->x_nio; i++)
		if (!x->x_io[i].io_end && tres[i].r_calls)
			x->x_io[i].io_end = x->x_now;
	for (i = 0; i < td->td_nheld; i++)
		flushes_held += blk_rq_is_flush(td->td_held[i]);
	CHECK(flushes_held <= 1);
	x->x_now++;
}

/* Submit the next request: a write of FX_SECTORS with rw, or a pure flush. */
static void fx_submit(struct fx *x, u32 rw, bool data)
{
	u32 i = x->x_nio++;
	struct bio *b = tbio_slot(HOST_MEM_NORMAL, rw, i * FX_SPACING, FX_SECTORS, 0, (int)i);

	if (!data)
		b->bi_iter.bi_size = 0;
	x->x_io[i].io_rw = rw;
	x->x_io[i].io_data = data;
	x->x_io[i].io_submit = x->x_now;
	blk_queue_submit_bio(x->x_td->td_q, b);
	fx_stamp(x);
}

/* The device completes the k-th command it holds. */
static void fx_complete(struct fx *x, u32 k)
{
	struct request *rq = x->x_td->td_held[k];

	if (blk_rq_is_flush(rq)) {
		x->x_flush_err[x->x_ndone] = x->x_td->td_fail_flushes ? -EIO : 0;
		x->x_flush_done[x->x_ndone++] = x->x_now;
	} else {
		x->x_io[blk_rq_pos(rq) / FX_SPACING].io_data_done = x->x_now;
	}
	tdev_complete_one(x->x_td, k);
	fx_stamp(x);
}

/* The index of the flush the device holds. */
static u32 fx_held_flush(struct fx *x)
{
	u32 k;

	for (k = 0; k < x->x_td->td_nheld; k++)
		if (blk_rq_is_flush(x->x_td->td_held[k]))
			return k;
	KASSERT(!"no flush held");
	return 0;
}

static void fx_drain(struct fx *x)
{
	while (x->x_td->td_nheld)
		fx_complete(x, fx_rand(x, x->x_td->td_nheld));
}

/* Did a flush issued at tick from or later complete, successfully, by tick by? */
static bool fx_flush_between(const struct fx *x, u32 from, u32 by)
{
	u32 f;

	for (f = 0; f < x->x_ndone; f++)
		if (!x->x_flush_err[f] && x->x_flush_issue[f] >= from && x->x_flush_done[f] <= by)
			return true;
	return false;
}

/*
 * Request i ended once, without error, and kept the promises of its flags
 * on a device with cache (BLK_FLUSH_*): none are needed without a write cache.
 */
static void fx_check_io(const struct fx *x, u32 i, u32 cache)
{
	const struct fx_io *io = &x->x_io[i];
	bool fua = io->io_rw & REQ_FUA, native_fua = cache & BLK_FLUSH_FUA;

	CHECK(tres[i].r_calls == 1 && tres[i].r_error == 0);
	if (io->io_data) {
		CHECK(io->io_data_issue && io->io_data_done && io->io_end);
		CHECK(!(io->io_data_flags & REQ_PREFLUSH));
		CHECK_EQ(!!(io->io_data_flags & REQ_FUA), fua && native_fua);
	}
	if (!(cache & BLK_FLUSH_CACHE))
		return;
	if (io->io_rw & REQ_PREFLUSH)
		CHECK(fx_flush_between(x, io->io_submit, io->io_data ? io->io_data_issue : io->io_end));
	if (fua && io->io_data && !native_fua)
		CHECK(fx_flush_between(x, io->io_data_done, io->io_end));
}

static void fx_check_all(const struct fx *x, u32 cache)
{
	u32 i;

	for (i = 0; i < x->x_nio; i++)
		fx_check_io(x, i, cache);
}

/* The pure flush step table. */
static void test_flush_policy(void)
{
	const u32 P = BLK_FLUSH_STEP_PREFLUSH, D = BLK_FLUSH_STEP_DATA, F = BLK_FLUSH_STEP_POSTFLUSH;

	CHECK_EQ(blk_flush_policy(0, REQ_PREFLUSH | REQ_FUA, true), D);
	CHECK_EQ(blk_flush_policy(0, REQ_PREFLUSH, false), 0);
	CHECK_EQ(blk_flush_policy(BLK_FLUSH_CACHE, REQ_PREFLUSH, false), P);
	CHECK_EQ(blk_flush_policy(BLK_FLUSH_CACHE, REQ_PREFLUSH | REQ_FUA, true), P | D | F);
	CHECK_EQ(blk_flush_policy(BLK_FLUSH_CACHE | BLK_FLUSH_FUA, REQ_PREFLUSH | REQ_FUA, true), P | D);
	CHECK_EQ(blk_flush_policy(BLK_FLUSH_CACHE | BLK_FLUSH_FUA, REQ_FUA, true), D);
	CHECK_EQ(blk_flush_policy(BLK_FLUSH_CACHE, REQ_FUA, true), D | F);
	CHECK_EQ(blk_flush_policy(BLK_FLUSH_CACHE, 0, true), D);
}

/* What the driver sees, in order, for each kind of device: the short paths. */
static void test_flush_short_paths(void)
{
	struct {
		u32 cache;
		u32 rw;
		bool data;
		const char *want;	/* F = flush, W = write, w = write with FUA */
	} c[] = {
		{ BLK_FLUSH_CACHE, REQ_WRITE | REQ_PREFLUSH | REQ_FUA, true, "FWF" },
		{ BLK_FLUSH_CACHE, REQ_WRITE | REQ_FUA, true, "WF" },
		{ BLK_FLUSH_CACHE, REQ_WRITE | REQ_PREFLUSH, true, "FW" },
		{ BLK_FLUSH_CACHE, REQ_WRITE | REQ_PREFLUSH, false, "F" },
		{ BLK_FLUSH_CACHE | BLK_FLUSH_FUA, REQ_WRITE | REQ_PREFLUSH | REQ_FUA, true, "Fw" },
		{ BLK_FLUSH_CACHE | BLK_FLUSH_FUA, REQ_WRITE | REQ_FUA, true, "w" },
		{ BLK_FLUSH_CACHE | BLK_FLUSH_FUA, REQ_WRITE | REQ_PREFLUSH, false, "F" },
		{ 0, REQ_WRITE | REQ_PREFLUSH, false, "" },
		{ 0, REQ_WRITE | REQ_FUA | REQ_PREFLUSH, true, "W" },
		{ 0, REQ_WRITE | REQ_FUA, true, "W" },
	};
	unsigned k;

	for (k = 0; k < ARRAY_SIZE(c); k++) {
		struct fx *x = fx_start(c[k].cache, k + 1);
		struct tdev *td = x->x_td;
		char got[8] = "";
		u32 i, nf = 0;

		fx_submit(x, c[k].rw, c[k].data);
		fx_drain(x);
		for (i = 0; i < td->td_nlog && i < 7; i++) {
			got[i] = td->td_log[i].l_flush ? 'F' :
				 (td->td_log[i].l_flags & REQ_FUA) ? 'w' : 'W';
			nf += td->td_log[i].l_flush;
		}
		got[i] = 0;
		CHECK_STR(got, c[k].want);
		CHECK_EQ(blk_stat_snapshot(td->td_q).st_flushes, nf);
		fx_check_all(x, c[k].cache);
		fx_end(x);
	}
}

/*
 * K requests that arrive while a flush is in flight all wait for the
 * next one, which they share; their data steps run together, and their
 * post-flushes are one more.  Sequences run one at a time would cost 2K.
 */
static void test_flush_shared_by_concurrent_requests(void)
{
	static const struct {
		u32 rw;
		bool data;
		u32 further;	/* flushes after the one in flight */
	} c[] = {
		{ REQ_WRITE | REQ_PREFLUSH, false, 1 },
		{ REQ_WRITE | REQ_PREFLUSH, true, 1 },
		{ REQ_WRITE | REQ_PREFLUSH | REQ_FUA, true, 2 },
	};
	const u32 K = FX_IOS - 1;
	unsigned k;
	u64 seed;
	u32 i;

	for (k = 0; k < ARRAY_SIZE(c); k++)
		for (seed = 1; seed <= FX_SEEDS; seed++) {
			struct fx *x = fx_start(BLK_FLUSH_CACHE, seed);

			fx_submit(x, REQ_WRITE | REQ_PREFLUSH, false);
			CHECK(x->x_nflush == 1 && x->x_td->td_nheld == 1);
			for (i = 0; i < K; i++)
				fx_submit(x, c[k].rw, c[k].data);
			CHECK_EQ(x->x_td->td_nheld, 1);	/* all wait for the next flush */
			fx_drain(x);
			CHECK_EQ(x->x_nflush - 1, c[k].further);
			if (c[k].data)
				CHECK_EQ(x->x_td->td_max_held, K);	/* the data ran together */
			fx_check_all(x, BLK_FLUSH_CACHE);
			fx_end(x);
		}
}

/*
 * A seeded random mix of plain, PREFLUSH, FUA and PREFLUSH|FUA writes
 * and pure flushes, submitted while the device completes what it holds in
 * random order: every promise is kept, on devices with and without FUA.
 */
static void test_flush_ordering_random_mix(void)
{
	static const u32 kinds[] = {
		REQ_WRITE, REQ_WRITE | REQ_PREFLUSH, REQ_WRITE | REQ_FUA,
		REQ_WRITE | REQ_PREFLUSH | REQ_FUA, REQ_WRITE | REQ_PREFLUSH,	/* pure flush */
	};
	const u32 nkinds = ARRAY_SIZE(kinds);
	u32 cache, kind;
	u64 seed;

	for (cache = BLK_FLUSH_CACHE; cache <= (BLK_FLUSH_CACHE | BLK_FLUSH_FUA); cache += BLK_FLUSH_FUA)
		for (seed = 1; seed <= FX_SEEDS; seed++) {
			struct fx *x = fx_start(cache, seed);

			while (x->x_nio < FX_IOS || x->x_td->td_nheld) {
				if (x->x_nio < FX_IOS && (!x->x_td->td_nheld || !fx_rand(x, 3))) {
					kind = fx_rand(x, nkinds);
					fx_submit(x, kinds[kind], kind != nkinds - 1);
				} else {
					fx_complete(x, fx_rand(x, x->x_td->td_nheld));
				}
			}
			fx_check_all(x, cache);
			fx_end(x);
		}
}

/*
 * A failed flush fails exactly the sequences it covered: a pre-flush
 * waiter and a post-flush waiter.  A request that arrived while it was in
 * flight, and a FUA write whose data was in flight, go on to succeed.
 */
static void test_flush_error_fails_covered(void)
{
	struct fx *x = fx_start(BLK_FLUSH_CACHE, 1);

	fx_submit(x, REQ_WRITE | REQ_FUA, true);		/* 0: data in flight */
	fx_submit(x, REQ_WRITE | REQ_PREFLUSH, true);		/* 1: waits (C2) */
	CHECK(x->x_nflush == 0 && x->x_td->td_nheld == 1);
	fx_complete(x, 0);					/* one flush for 0 and 1 */
	CHECK_EQ(x->x_nflush, 1);
	fx_submit(x, REQ_WRITE | REQ_PREFLUSH, true);		/* 2: waits for the next */
	fx_submit(x, REQ_WRITE | REQ_FUA, true);		/* 3: data beside the flush */
	CHECK_EQ(x->x_td->td_nheld, 2);
	x->x_td->td_fail_flushes = 1;
	fx_complete(x, fx_held_flush(x));
	CHECK(tres[0].r_calls == 1 && tres[0].r_error == -EIO);
	CHECK(tres[1].r_calls == 1 && tres[1].r_error == -EIO);
	CHECK_EQ(x->x_io[1].io_data_issue, 0);			/* its data never went */
	CHECK(tres[2].r_calls == 0 && tres[3].r_calls == 0);
	fx_drain(x);
	fx_check_io(x, 2, BLK_FLUSH_CACHE);
	fx_check_io(x, 3, BLK_FLUSH_CACHE);
	CHECK_EQ(x->x_nflush, 2);		/* one more, for 2 and 3 together */
	fx_end(x);
}

/* A FUA write's post-flush waits for the data in flight; a data error skips it. */
static void test_flush_fua_waits_for_data(void)
{
	struct fx *x = fx_start(BLK_FLUSH_CACHE, 1);

	fx_submit(x, REQ_WRITE | REQ_FUA, true);
	fx_submit(x, REQ_WRITE | REQ_FUA, true);
	CHECK_EQ(x->x_td->td_nheld, 2);			/* both data steps at once */
	x->x_td->td_fail_sector = FX_SPACING;		/* request 1 */
	fx_complete(x, 0);
	CHECK(tres[0].r_calls == 0 && x->x_nflush == 0);	/* C2: 1 is in flight */
	fx_complete(x, 0);
	CHECK(tres[1].r_calls == 1 && tres[1].r_error == -EIO);
	CHECK(tres[0].r_calls == 0 && x->x_nflush == 1);	/* 0 is not durable yet */
	fx_complete(x, 0);
	fx_check_io(x, 0, BLK_FLUSH_CACHE);
	CHECK_EQ(blk_stat_snapshot(x->x_td->td_q).st_flushes, 1);
	fx_end(x);
}

/*
 * A data step goes to the head of the dispatch list: its request waited
 * its turn already, for the pre-flush.  One tag, so plain writes queue up
 * behind the flush meanwhile.
 */
static void test_flush_data_step_first(void)
{
	struct fx *x = fx_start(BLK_FLUSH_CACHE, 1);

	CHECK_EQ(blk_queue_init_tags(x->x_td->td_q, 1, NULL), 0);
	x->x_td->td_tags = true;
	fx_submit(x, REQ_WRITE | REQ_PREFLUSH, true);
	fx_submit(x, REQ_WRITE, true);
	fx_submit(x, REQ_WRITE, true);
	CHECK(x->x_nflush == 1 && x->x_td->td_nheld == 1);
	fx_complete(x, 0);
	CHECK(x->x_io[0].io_data_issue && !x->x_io[1].io_data_issue);
	fx_drain(x);
	fx_check_all(x, BLK_FLUSH_CACHE);
	fx_end(x);
}

/* C3: a stream of FUA writes holds a waiting flush back only so long. */
static void test_flush_not_starved(void)
{
	struct fx *x = fx_start(BLK_FLUSH_CACHE, 1);

	fx_submit(x, REQ_WRITE | REQ_FUA, true);
	fx_submit(x, REQ_WRITE | REQ_FUA, true);
	fx_complete(x, 0);				/* 0 waits for 1's data */
	host_advance_ns((u64)(BLK_FLUSH_PENDING_MS - 1) * NSEC_PER_MSEC);
	fx_submit(x, REQ_WRITE | REQ_FUA, true);
	CHECK_EQ(x->x_nflush, 0);
	host_advance_ns(NSEC_PER_MSEC);
	fx_submit(x, REQ_WRITE | REQ_FUA, true);
	CHECK_EQ(x->x_nflush, 1);			/* issued with data in flight */
	fx_drain(x);
	fx_check_all(x, BLK_FLUSH_CACHE);
	fx_end(x);
}

static const struct unit_case cases[] = {
	{ "flush/policy", test_flush_policy },
	{ "flush/short_paths", test_flush_short_paths },
	{ "flush/shared_by_concurrent_requests", test_flush_shared_by_concurrent_requests },
	{ "flush/ordering_random_mix", test_flush_ordering_random_mix },
	{ "flush/error_fails_covered", test_flush_error_fails_covered },
	{ "flush/fua_waits_for_data", test_flush_fua_waits_for_data },
	{ "flush/data_step_first", test_flush_data_step_first },
	{ "flush/not_starved", test_flush_not_starved },
};

UNIT_MAIN("block_flush", cases)
