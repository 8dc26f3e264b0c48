/*
 * The bench shell command: the Linux peer's workloads (block/bench.h) run
 * on a request queue, printing the peer's "BENCH ..." lines and then a
 * readable table.  I/O goes through blk_queue_submit_bio(), so what is
 * measured is the whole block layer: bios, splitting, merging, the
 * elevator, tags and the driver.  QD1 waits for each I/O; QD>1 keeps qd
 * bios in flight, resubmitting from this loop (never from bi_end_io).
 *
 *	bench DEV [WORKLOAD...]     e.g. bench nullb0 randread:qd=32:secs=5
 *
 * DEV is what the registry knows ("sda", "sda2", "8:1", "PARTUUID=..."),
 * opened for writing only when a workload writes, and I/O goes through
 * submit_bio() with its partition remap; failing that, a queue by name
 * (a queue the registry does not know, such as a self-test's).
 *
 * One workload is this kernel's own: flush, randwrite's I/Os sent as
 * PREFLUSH|FUA writes (a journal commit each), whose BENCH line adds the
 * cache flushes the device received and their number per I/O.
 *
 * Differences from the peer, by necessity: the QD>1 engine is the block
 * layer itself ("engine=blk-async" instead of linux-aio); times come from
 * the TSC clock; numbers are formatted in fixed point.
 */
#include "block/diag/bench.h"
#include "block/bdev.h"
#include "block/genhd.h"
#include "block/blkdev.h"
#include "block/elevator.h"
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/shell.h"
#include "kernel/progress.h"
#include "kernel/mm/mm.h"
#include "kernel/time.h"
#include "kernel/completion.h"
#include "kernel/mm/highmem.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

#define BENCH_MAX_BS	(1u << 20)		/* one bio of BIO_MAX_VECS pages */
#define BENCH_MAX_LAT	262144u			/* latencies kept for percentiles */
#define BENCH_MAX_RESULTS 16

struct bench_slot {
	struct bench_ctx	*s_ctx;
	struct page		*s_pages[BENCH_MAX_BS / PAGE_SIZE];
	unsigned		s_order;	/* s_pages come in blocks of 2^s_order */
	volatile bool		s_busy;		/* set by submit, cleared by end_io */
	volatile int		s_error;
	u64			s_off;
};

struct bench_result {
	char	r_name[16];
	u32	r_qd;
	u64	r_ios;
	u64	r_bytes;
	u64	r_ns;
};

struct bench_ctx {
	struct block_device	*c_bdev;	/* NULL: a bare queue */
	fmode_t			c_mode;
	struct request_queue	*c_q;
	u64			c_devsize;	/* bytes */
	u32			c_npages;	/* pages per slot */
	struct bench_slot	*c_slots;
	u32			c_nslots;
	struct bench_result	c_res[BENCH_MAX_RESULTS];
	u32			c_nres;
	struct progress		c_pg;		/* the running workload's progress line */
	bool			c_failed;	/* an error, a failed check, a stop */
};

/* Through the device (and its partition remap) when there is one. */
static void bench_send(struct bench_ctx *c, struct bio *bio)
{
	if (c->c_bdev) {
		bio->bi_bdev = c->c_bdev;
		submit_bio(bio);
	} else {
		blk_queue_submit_bio(c->c_q, bio);
	}
}

static void bench_endio(struct bio *bio, int error)
{
	struct bench_slot *s = bio->bi_private;

	s->s_error = error;
	bio_put(bio);
	s->s_busy = false;
}

/* Start one I/O of bs bytes at byte offset off from slot s. */
static void bench_submit(struct bench_ctx *c, struct bench_slot *s, u32 bs, u64 off,
			 u32 rw)
{
	struct bio *bio = bio_alloc(GFP_NOIO, DIV_ROUND_UP(bs, PAGE_SIZE << s->s_order));
	u32 i, len;

	bio->bi_iter.bi_sector = off >> SECTOR_SHIFT;
	bio->bi_rw = rw;
	for (i = 0; bs; i += 1u << s->s_order, bs -= len) {
		len = min(bs, (u32)PAGE_SIZE << s->s_order);
		bio_add_page(bio, s->s_pages[i], len, 0);
	}
	bio->bi_private = s;
	bio->bi_end_io = bench_endio;
	s->s_busy = true;
	s->s_error = 0;
	s->s_off = off;
	bench_send(c, bio);
}

/*
 * Wait until slot s is idle.  The bound is the queue's: a request-based
 * queue ends every request within its timeout and retries (then -EIO),
 * and the memory disks end bios before submission returns; giving up
 * earlier here would leave the bio writing into a freed buffer.
 */
static int bench_wait(struct bench_slot *s)
{
	while (s->s_busy)
		cpu_idle_once();
	return s->s_error;
}

/* Synchronous I/O from slot 0; 0 or the error. */
static int bench_rw(struct bench_ctx *c, u32 bs, u64 off, u32 rw)
{
	bench_submit(c, &c->c_slots[0], bs, off, rw | REQ_SYNC);
	return bench_wait(&c->c_slots[0]);
}

static int bench_flush(struct bench_ctx *c)
{
	struct bench_slot *s = &c->c_slots[0];
	struct bio *bio = bio_alloc(GFP_NOIO, 0);

	bio->bi_rw = REQ_WRITE | REQ_PREFLUSH | REQ_SYNC;
	bio->bi_private = s;
	bio->bi_end_io = bench_endio;
	s->s_busy = true;
	bench_send(c, bio);
	return bench_wait(s);
}

static void fixed(char *buf, size_t len, u64 num, u64 den, unsigned d)
{
	bench_fmt_fixed(num, den ? den : 1, d, buf, len);
}

static void bench_record(struct bench_ctx *c, const struct bench_work *w, u64 ios, u64 ns)
{
	struct bench_result *r;

	if (c->c_nres >= BENCH_MAX_RESULTS)
		return;
	r = &c->c_res[c->c_nres++];
	str_copy(r->r_name, w->bw_name, sizeof(r->r_name));
	r->r_qd = (u32)w->bw_qd;
	r->r_ios = ios;
	r->r_bytes = ios * w->bw_bs;
	r->r_ns = ns;
}

static bool range_ok(struct bench_ctx *c, const struct bench_work *w, u64 len)
{
	if (w->bw_off + len > c->c_devsize || !w->bw_bs || (w->bw_bs & 511) || (w->bw_off & 511) ||
	    w->bw_bs > BENCH_MAX_BS) {
		kprintf("BENCH error %s bad-range off=%llu len=%llu bs=%llu devsize=%llu\n",
		       w->bw_name, (unsigned long long)w->bw_off, (unsigned long long)len,
		       (unsigned long long)w->bw_bs, (unsigned long long)c->c_devsize);
		return false;
	}
	return true;
}

/*
 * The workload's time is up, or the user stopped it with Ctrl-C (which
 * fails the command).  Also draws the progress line for done bytes.
 */
static bool time_up(struct bench_ctx *c, const struct bench_work *w, u64 t0, u64 done)
{
	if (progress_update(&c->c_pg, done)) {
		c->c_failed = true;
		return true;
	}
	return w->bw_secs_ms && ktime_ns() - t0 >= w->bw_secs_ms * NSEC_PER_MSEC;
}

static void run_seq(struct bench_ctx *c, const struct bench_work *w, bool wr)
{
	char b1[24], secs[24], mibps[24], iops[24], fsecs[24];
	u64 bs = w->bw_bs, done = 0, n = 0, o, t0, tf = 0, t;
	int err;

	if (!range_ok(c, w, w->bw_bytes))
		return;
	progress_start(&c->c_pg, w->bw_name, w->bw_bytes);
	t0 = ktime_ns();
	for (o = w->bw_off; o + bs <= w->bw_off + w->bw_bytes; o += bs) {
		err = bench_rw(c, (u32)bs, o, wr ? REQ_WRITE : 0);
		if (err) {
			kprintf("BENCH error %s at=%llu err=%d\n", w->bw_name, (unsigned long long)o, err);
			c->c_failed = true;
			break;
		}
		done += bs;
		n++;
		if (time_up(c, w, t0, done))
			break;
	}
	progress_end(&c->c_pg, done);
	if (wr) {
		u64 ts = ktime_ns();

		if (bench_flush(c))
			kprintf("BENCH warn flush failed\n");
		tf = ktime_ns() - ts;
	}
	t = ktime_ns() - t0;
	fixed(secs, sizeof(secs), t, NSEC_PER_SEC, 3);
	fixed(mibps, sizeof(mibps), done * (NSEC_PER_SEC / 1000), (t / 1000) << 20, 1);
	fixed(iops, sizeof(iops), n * NSEC_PER_SEC, t, 0);
	fixed(fsecs, sizeof(fsecs), tf, NSEC_PER_SEC, 3);
	kprintf("BENCH %s bs=%s MiB=%llu ios=%llu secs=%s MiBps=%s iops=%s%s%s\n", w->bw_name,
	       bench_fmt_size(bs, b1, sizeof(b1)), (unsigned long long)(done >> 20),
	       (unsigned long long)n, secs, mibps, iops, wr ? " flush_secs=" : "", wr ? fsecs : "");
	bench_record(c, w, n, t);
}

static u64 span_of(struct bench_ctx *c, const struct bench_work *w)
{
	u64 span = w->bw_span ? w->bw_span : c->c_devsize - min(w->bw_off, c->c_devsize);

	if (w->bw_off + span > c->c_devsize)
		span = c->c_devsize > w->bw_off ? c->c_devsize - w->bw_off : 0;
	return span;
}

static void run_rand_qd1(struct bench_ctx *c, const struct bench_work *w, bool wr)
{
	char b1[24], secs[24], iops[24], mibps[24], avg[24], p50[24], p99[24], mx[24];
	u64 span = span_of(c, w), nblk = span / w->bw_bs, n = 0, t0, t, a, o, el;
	u32 cap = w->bw_ios && w->bw_ios < BENCH_MAX_LAT ? (u32)w->bw_ios : BENCH_MAX_LAT;
	u32 *lat = kmalloc(cap * sizeof(u32), GFP_KERNEL), kept = 0;
	struct bench_rng rng;
	int err;

	if (!nblk || !range_ok(c, w, nblk * w->bw_bs))
		goto out;
	bench_rng_seed(&rng, w->bw_seed);
	progress_start(&c->c_pg, w->bw_name, w->bw_ios * w->bw_bs);
	t0 = t = ktime_ns();
	while (!w->bw_ios || n < w->bw_ios) {
		o = bench_next_off(&rng, w, nblk);
		a = t;
		err = bench_rw(c, (u32)w->bw_bs, o, wr ? REQ_WRITE : 0);
		t = ktime_ns();
		if (err) {
			kprintf("BENCH error %s at=%llu err=%d\n", w->bw_name, (unsigned long long)o, err);
			c->c_failed = true;
			break;
		}
		if (lat && kept < cap)
			lat[kept++] = (u32)min(t - a, (u64)~0u);
		n++;
		if (time_up(c, w, t0, n * w->bw_bs))
			break;
	}
	progress_end(&c->c_pg, n * w->bw_bs);
	el = t - t0;
	if (lat && kept)
		bench_sort_u32(lat, kept);
	fixed(secs, sizeof(secs), el, NSEC_PER_SEC, 3);
	fixed(iops, sizeof(iops), n * NSEC_PER_SEC, el, 0);
	fixed(mibps, sizeof(mibps), n * w->bw_bs * (NSEC_PER_SEC / 1000), (el / 1000) << 20, 2);
	fixed(avg, sizeof(avg), el, (n ? n : 1) * NSEC_PER_USEC, 1);
	fixed(p50, sizeof(p50), kept ? lat[kept / 2] : 0, NSEC_PER_USEC, 1);
	fixed(p99, sizeof(p99), kept ? lat[(u32)((u64)kept * 99 / 100)] : 0, NSEC_PER_USEC, 1);
	fixed(mx, sizeof(mx), kept ? lat[kept - 1] : 0, NSEC_PER_USEC, 1);
	kprintf("BENCH %s qd=1 bs=%s span_MiB=%llu ios=%llu secs=%s iops=%s MiBps=%s lat_us_avg=%s p50=%s p99=%s max=%s\n",
	       w->bw_name, bench_fmt_size(w->bw_bs, b1, sizeof(b1)), (unsigned long long)(span >> 20),
	       (unsigned long long)n, secs, iops, mibps, avg, p50, p99, mx);
	bench_record(c, w, n, el);
out:
	kfree(lat);
}

/* Cache flushes the queue has sent its device so far. */
static u64 bench_flushes(struct bench_ctx *c)
{
	unsigned long flags;
	u64 n;

	spin_lock_irqsave(c->c_q->q_lock, flags);
	n = c->c_q->q_stats.st_flushes;
	spin_unlock_irqrestore(c->c_q->q_lock, flags);
	return n;
}

/*
 * qd I/Os of rw at random offsets kept in flight.  A flush workload
 * (REQ_PREFLUSH) also says how many cache flushes the device got.
 */
static void run_rand_async(struct bench_ctx *c, const struct bench_work *w, u32 rw)
{
	char b1[24], secs[24], iops[24], mibps[24], per[24], fl[48] = "";
	u64 span = span_of(c, w), nblk = span / w->bw_bs, issued = 0, done = 0, t0, el, f0;
	u32 qd = min((u32)w->bw_qd, c->c_nslots), i;
	bool stop = false, err = false, busy, progress;
	struct bench_rng rng;

	if (!nblk || !range_ok(c, w, nblk * w->bw_bs))
		return;
	bench_rng_seed(&rng, w->bw_seed);
	progress_start(&c->c_pg, w->bw_name, w->bw_ios * w->bw_bs);
	f0 = bench_flushes(c);
	t0 = ktime_ns();
	for (i = 0; i < qd && (!w->bw_ios || issued < w->bw_ios); i++, issued++)
		bench_submit(c, &c->c_slots[i], (u32)w->bw_bs, bench_next_off(&rng, w, nblk), rw);
	blk_unplug(c->c_q);
	do {
		busy = progress = false;
		for (i = 0; i < qd; i++) {
			struct bench_slot *s = &c->c_slots[i];

			if (s->s_busy) {
				busy = true;
				continue;
			}
			if (s->s_off == ~0ULL)
				continue;		/* retired */
			progress = true;
			if (s->s_error && !err) {
				kprintf("BENCH error %s err=%d at=%llu\n", w->bw_name, s->s_error,
				       (unsigned long long)s->s_off);
				err = stop = true;
				c->c_failed = true;
			} else if (!s->s_error) {
				done++;
			}
			s->s_off = ~0ULL;
			if (time_up(c, w, t0, done * w->bw_bs))
				stop = true;
			if (!stop && (!w->bw_ios || issued < w->bw_ios)) {
				bench_submit(c, s, (u32)w->bw_bs, bench_next_off(&rng, w, nblk), rw);
				issued++;
				busy = true;
			}
		}
		if (busy)
			blk_unplug(c->c_q);
		if (busy && !progress)
			cpu_idle_once();	/* nothing ended: wait for an interrupt */
	} while (busy);
	progress_end(&c->c_pg, done * w->bw_bs);
	el = ktime_ns() - t0;
	fixed(secs, sizeof(secs), el, NSEC_PER_SEC, 3);
	fixed(iops, sizeof(iops), done * NSEC_PER_SEC, el, 0);
	fixed(mibps, sizeof(mibps), done * w->bw_bs * (NSEC_PER_SEC / 1000), (el / 1000) << 20, 2);
	if (rw & REQ_PREFLUSH) {
		f0 = bench_flushes(c) - f0;
		fixed(per, sizeof(per), f0, done, 2);
		snprintf(fl, sizeof(fl), " flushes=%llu flushes_per_io=%s", (unsigned long long)f0, per);
	}
	kprintf("BENCH %s qd=%d bs=%s span_MiB=%llu ios=%llu secs=%s iops=%s MiBps=%s%s engine=blk-async%s\n",
	       w->bw_name, w->bw_qd, bench_fmt_size(w->bw_bs, b1, sizeof(b1)),
	       (unsigned long long)(span >> 20), (unsigned long long)done, secs, iops, mibps, fl,
	       err ? " ERROR" : "");
	bench_record(c, w, done, el);
}

/* Fill (or check) the sectors of slot 0's buffer for bytes at off. */
static u64 pattern(struct bench_ctx *c, u64 off, u32 bs, u64 seed, bool check, u64 *first_bad,
		   u64 *got0, u64 *got1)
{
	u64 bad = 0, lba;
	u32 s;

	for (s = 0; s < bs / SECTOR_SIZE; s++) {
		u8 *p = kmap_atomic(c->c_slots[0].s_pages[s / (PAGE_SIZE / SECTOR_SIZE)]);
		u8 *sec = p + (s % (PAGE_SIZE / SECTOR_SIZE)) * SECTOR_SIZE;

		lba = off / SECTOR_SIZE + s;
		if (!check) {
			bench_fill_sector(sec, lba, seed);
		} else if (!bench_check_sector(sec, lba, seed)) {
			if (!bad) {
				*first_bad = lba;
				memcpy(got0, sec, 8);
				memcpy(got1, sec + 8, 8);
			}
			bad++;
		}
		kunmap_atomic(p);
	}
	return bad;
}

static void run_verify(struct bench_ctx *c, const struct bench_work *w, bool do_write, bool do_read)
{
	char b1[24], ws[24], rs[24];
	u64 bs = w->bw_bs, bad = 0, first_bad = ~0ULL, got0 = 0, got1 = 0, o, t0, tw = 0, tr = 0;
	int err;

	if (!range_ok(c, w, w->bw_bytes))
		return;
	progress_start(&c->c_pg, w->bw_name, (do_write + do_read) * w->bw_bytes);
	if (do_write) {
		t0 = ktime_ns();
		for (o = w->bw_off; o + bs <= w->bw_off + w->bw_bytes; o += bs) {
			pattern(c, o, (u32)bs, w->bw_seed, false, NULL, NULL, NULL);
			err = bench_rw(c, (u32)bs, o, REQ_WRITE);
			if (err) {
				kprintf("BENCH error %s write at=%llu err=%d\n", w->bw_name,
				       (unsigned long long)o, err);
				goto fail;
			}
			if (time_up(c, w, t0, o + bs - w->bw_off))
				goto stopped;
		}
		if (bench_flush(c))
			kprintf("BENCH warn flush failed\n");
		tw = ktime_ns() - t0;
	}
	if (do_read) {
		t0 = ktime_ns();
		for (o = w->bw_off; o + bs <= w->bw_off + w->bw_bytes; o += bs) {
			u32 i;

			for (i = 0; i < c->c_npages; i++)
				zero_page_range(c->c_slots[0].s_pages[i], 0, PAGE_SIZE);
			err = bench_rw(c, (u32)bs, o, 0);
			if (err) {
				kprintf("BENCH error %s read at=%llu err=%d\n", w->bw_name,
				       (unsigned long long)o, err);
				goto fail;
			}
			if (time_up(c, w, t0, (do_write ? w->bw_bytes : 0) + o + bs - w->bw_off))
				goto stopped;
			{
				u64 fb = 0, g0 = 0, g1 = 0, nb;

				nb = pattern(c, o, (u32)bs, w->bw_seed, true, &fb, &g0, &g1);
				if (nb && !bad) {
					first_bad = fb;
					got0 = g0;
					got1 = g1;
				}
				bad += nb;
			}
		}
		tr = ktime_ns() - t0;
	}
	fixed(ws, sizeof(ws), tw, NSEC_PER_SEC, 3);
	fixed(rs, sizeof(rs), tr, NSEC_PER_SEC, 3);
	if (do_read && bad)
		kprintf("BENCH %s bs=%s MiB=%llu seed=%llu sectors=%llu bad=%llu first_bad_lba=%llu got_lba=%llu got_seed=%llu write_secs=%s read_secs=%s result=FAIL\n",
		       w->bw_name, bench_fmt_size(bs, b1, sizeof(b1)),
		       (unsigned long long)(w->bw_bytes >> 20), (unsigned long long)w->bw_seed,
		       (unsigned long long)(w->bw_bytes / SECTOR_SIZE), (unsigned long long)bad,
		       (unsigned long long)first_bad, (unsigned long long)got0,
		       (unsigned long long)got1, ws, rs);
	else
		kprintf("BENCH %s bs=%s MiB=%llu seed=%llu sectors=%llu bad=0 write_secs=%s read_secs=%s result=%s\n",
		       w->bw_name, bench_fmt_size(bs, b1, sizeof(b1)),
		       (unsigned long long)(w->bw_bytes >> 20), (unsigned long long)w->bw_seed,
		       (unsigned long long)(w->bw_bytes / SECTOR_SIZE), ws, rs,
		       do_read ? "PASS" : "WRITTEN");
	if (do_read && bad)
		c->c_failed = true;
	progress_end(&c->c_pg, 0);
	return;

stopped:
	kprintf("BENCH %s result=STOPPED\n", w->bw_name);
fail:
	progress_end(&c->c_pg, 0);
	c->c_failed = true;
}

static void bench_warn(const char *key, void *arg)
{
	kprintf("BENCH warn unknown-key %s\n", key);
}

static void bench_print_info(struct bench_ctx *c, const char *dev)
{
	struct request_queue *q = c->c_q;
	char depth[12] = "1";

	if (q->q_tags)
		snprintf(depth, sizeof(depth), "%u", q->q_tags->bqt_depth);
	kprintf("BENCH info dev=%s size_MiB=%llu driver=%s xfer_mode=none queue_depth=%s sched=%s max_sectors_kb=%u max_hw_sectors_kb=%u max_segments=%u nr_requests=%u\n",
	       dev, (unsigned long long)(c->c_devsize >> 20),
	       q->q_request_fn ? "request_fn" : "make_request", depth,
	       q->q_elevator ? q->q_elevator->e_type->et_name : "none",
	       q->q_limits.lim_max_sectors / 2, q->q_limits.lim_max_hw_sectors / 2,
	       q->q_limits.lim_max_segments, q->q_nr_requests);
}

static void bench_table(struct bench_ctx *c)
{
	char mibps[24], iops[24], secs[24];
	u32 i;

	kprintf("%-10s %4s %10s %9s %10s %10s\n", "workload", "qd", "ios", "secs", "MiB/s", "IOPS");
	for (i = 0; i < c->c_nres; i++) {
		struct bench_result *r = &c->c_res[i];

		fixed(secs, sizeof(secs), r->r_ns, NSEC_PER_SEC, 3);
		fixed(mibps, sizeof(mibps), r->r_bytes * (NSEC_PER_SEC / 1000), (r->r_ns / 1000) << 20, 1);
		fixed(iops, sizeof(iops), r->r_ios * NSEC_PER_SEC, r->r_ns, 0);
		kprintf("%-10s %4u %10llu %9s %10s %10s\n", r->r_name, r->r_qd,
		       (unsigned long long)r->r_ios, secs, mibps, iops);
	}
}

static const char *const bench_defaults[] = {
	"seqread:mib=1024:bs=1M", "randread:qd=1:bs=4K:secs=5", "randread:qd=32:bs=4K:secs=5",
};

static void bench_run_one(struct bench_ctx *c, char *spec)
{
	struct bench_work w;
	bool wr;

	bench_parse_work(spec, &w, bench_warn, NULL);
	wr = !strcmp(w.bw_name, "randwrite") || !strcmp(w.bw_name, "seqwrite");
	if (!strcmp(w.bw_name, "seqread") || !strcmp(w.bw_name, "seqwrite"))
		run_seq(c, &w, wr);
	else if (!strcmp(w.bw_name, "randread") || !strcmp(w.bw_name, "randwrite"))
		w.bw_qd == 1 ? run_rand_qd1(c, &w, wr) : run_rand_async(c, &w, wr ? REQ_WRITE : 0);
	else if (!strcmp(w.bw_name, "flush"))
		run_rand_async(c, &w, REQ_WRITE | REQ_PREFLUSH | REQ_FUA);
	else if (!strcmp(w.bw_name, "verify"))
		run_verify(c, &w, true, true);
	else if (!strcmp(w.bw_name, "fill"))
		run_verify(c, &w, true, false);
	else if (!strcmp(w.bw_name, "check"))
		run_verify(c, &w, false, true);
	else {
		kprintf("BENCH warn unknown workload %s\n", w.bw_name);
		c->c_failed = true;
	}
}

/* Free the blocks of slot s that cover its first npages pages. */
static void slot_free(struct bench_slot *s, u32 npages)
{
	u32 k;

	for (k = 0; k < npages; k += 1u << s->s_order) {
		if (s->s_pages[k])
			__free_pages(s->s_pages[k], s->s_order);
		s->s_pages[k] = NULL;
	}
}

/*
 * A slot's npages pages, in blocks as large as the buddy allocator gives:
 * one block for the whole buffer when it can, so that an I/O is one
 * vector entry and one bio_add_page(), not one per page.
 */
static int slot_alloc(struct bench_slot *s, u32 npages)
{
	unsigned order = 0;
	u32 k, j;

	while ((1u << order) < npages && order < MAX_ORDER - 1)
		order++;
	for (;; order--) {
		s->s_order = order;
		for (k = 0; k < npages; k += 1u << order) {
			struct page *p = alloc_pages(GFP_HIGHUSER, order);

			if (!p)
				break;
			for (j = 0; j < 1u << order && k + j < npages; j++)
				s->s_pages[k + j] = p + j;
		}
		if (k >= npages)
			return 0;
		slot_free(s, k);
		if (!order)
			return -ENOMEM;
	}
}

static void bench_free_slots(struct bench_ctx *c)
{
	u32 i;

	for (i = 0; i < c->c_nslots; i++)
		slot_free(&c->c_slots[i], c->c_npages);
	kfree(c->c_slots);
}

/* Buffers for qd slots of the largest bs asked for, from any zone. */
static int bench_alloc_slots(struct bench_ctx *c, u32 nslots, u32 max_bs)
{
	u32 i;

	c->c_npages = DIV_ROUND_UP(max_bs, PAGE_SIZE);
	c->c_nslots = nslots;
	c->c_slots = kcalloc(nslots, sizeof(struct bench_slot), GFP_KERNEL);
	if (!c->c_slots)
		return -ENOMEM;
	for (i = 0; i < nslots; i++) {
		c->c_slots[i].s_ctx = c;
		c->c_slots[i].s_off = ~0ULL;
		if (slot_alloc(&c->c_slots[i], c->c_npages))
			goto fail;
	}
	return 0;
fail:
	bench_free_slots(c);
	return -ENOMEM;
}

/* Does any of the n workload arguments (NULL: the defaults) write? */
static bool bench_writes(char **args, int n)
{
	static const char *const writers[] = { "seqwrite", "randwrite", "verify", "fill", "flush" };
	const char *a, *p;
	unsigned k;
	int i;

	for (i = 0; args && i < n; i++)
		for (a = args[i]; a; a = (p = strchr(a, ',')) ? p + 1 : NULL)
			for (k = 0; k < ARRAY_SIZE(writers); k++)
				if (str_starts(a, writers[k]))
					return true;
	return false;
}

/*
 * Find and open the device: the registry first, then a bare queue.
 * Return: 0, or -ECANCELED after saying why.
 */
static int bench_open(struct bench_ctx *c, const char *dev, char **args, int n)
{
	int err;

	c->c_bdev = bdev_lookup(dev);
	if (c->c_bdev) {
		c->c_mode = FMODE_READ | (bench_writes(args, n) ? FMODE_WRITE : 0);
		err = bdev_open(c->c_bdev, c->c_mode, NULL);
		if (err) {
			kprintf("bench: %s: %s\n", dev, errstr(err));
			bdev_put(c->c_bdev);
			c->c_bdev = NULL;
			return -ECANCELED;
		}
		c->c_q = bdev_get_queue(c->c_bdev);
		c->c_devsize = bdev_nr_sects(c->c_bdev) << SECTOR_SHIFT;
		return 0;
	}
	c->c_q = blk_queue_find(dev);
	if (!c->c_q || !c->c_q->q_nr_sectors) {
		kprintf("bench: no device %s\n", dev);
		return -ECANCELED;
	}
	c->c_devsize = c->c_q->q_nr_sectors << SECTOR_SHIFT;
	return 0;
}

static int cmd_bench(int argc, char **argv)
{
	struct bench_ctx *c;
	char spec[128], *p, *tok;
	u32 qd = 1, bs = 4096;
	int i, n, err = 0;

	if (argc < 2)
		return -EINVAL;
	if (argc == 2 && !strcmp(argv[1], "mm"))
		return mm_bench();	/* the memory allocator's figures */
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	n = argc > 2 ? argc - 2 : (int)ARRAY_SIZE(bench_defaults);
	err = bench_open(c, argv[1], argc > 2 ? argv + 2 : NULL, n);
	if (err)
		goto free_ctx;
	/* Size the buffers for the deepest and largest workload. */
	for (i = 0; i < n; i++) {
		str_copy(spec, argc > 2 ? argv[i + 2] : bench_defaults[i], sizeof(spec));
		for (p = spec; (tok = p); ) {
			struct bench_work w;

			p = strchr(p, ',');
			if (p)
				*p++ = 0;
			bench_parse_work(tok, &w, NULL, NULL);
			qd = max(qd, (u32)w.bw_qd);
			bs = max(bs, (u32)min(w.bw_bs, (u64)BENCH_MAX_BS));
		}
	}
	if (bench_alloc_slots(c, qd, bs)) {
		kprintf("bench: no memory for %u buffers of %u bytes\n", qd, bs);
		err = -ECANCELED;
		goto close_dev;
	}
	bench_print_info(c, argv[1]);
	for (i = 0; i < n && !shell_interrupted(); i++) {
		str_copy(spec, argc > 2 ? argv[i + 2] : bench_defaults[i], sizeof(spec));
		for (p = spec; (tok = p); ) {
			p = strchr(p, ',');
			if (p)
				*p++ = 0;
			if (*tok)
				bench_run_one(c, tok);
		}
	}
	bench_table(c);
	bench_free_slots(c);
	if (c->c_failed)
		err = -ECANCELED;	/* the BENCH lines said what failed */
close_dev:
	if (c->c_bdev) {
		bdev_close(c->c_bdev, c->c_mode, NULL);
		bdev_put(c->c_bdev);
	}
free_ctx:
	kfree(c);
	return err;
}
SHELL_COMMAND("bench", cmd_bench, "bench DEV [WORKLOAD...] | bench mm",
	      "run the Linux peer's workloads (seqread, randread:qd=32, verify, ...) on a device");
