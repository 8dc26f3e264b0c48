/*
 * bench's workloads on a device (block/diag/bench_run.h): the Linux
 * peer's seqread/seqwrite, randread/randwrite at qd=1 and qd>1, verify,
 * fill, check, and this kernel's flush, each printing the peer's
 * "BENCH ..." line.  I/O goes through the aio engine (block/diag/aio.h)
 * to the device's queue, so what is measured is the whole block layer:
 * bios, splitting, merging, the elevator, tags and the driver.
 *
 * qd=1 and the sequential and verify workloads wait for each I/O on slot
 * 0; qd>1 keeps qd slots busy with aio_run(), resubmitting from its loop
 * (never from bi_end_io).  flush is randwrite's I/Os sent as
 * PREFLUSH|FUA writes (a journal commit each); its BENCH line adds the
 * cache flushes the device received and their number per I/O.
 *
 * Differences from the peer, by necessity: the QD>1 engine is the block
 * layer itself ("engine=blk-async" instead of linux-aio); times come from
 * the TSC clock; numbers are formatted in fixed point.
 */
#include "block/diag/bench_run.h"
#include "block/blkdev.h"
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "kernel/mm/highmem.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

/* Synchronous I/O of bs bytes at byte offset off from slot 0; 0 or the error. */
static int bench_rw(struct bench_ctx *c, u32 bs, u64 off, u32 rw)
{
	return aio_rw(&c->c_aio.ac_slots[0], rw, off >> SECTOR_SHIFT, bs);
}

static int bench_flush(struct bench_ctx *c)
{
	return bench_rw(c, 0, 0, REQ_WRITE | REQ_PREFLUSH);
}

void bench_fixed(char *buf, size_t len, u64 num, u64 den, unsigned d)
{
	bench_fmt_fixed(num, den ? den : 1, d, buf, len);
}

void bench_record(struct bench_ctx *c, const struct bench_work *w, u64 ios, u64 ns)
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

bool bench_range_ok(struct bench_ctx *c, const struct bench_work *w, u64 len)
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

	if (!bench_range_ok(c, w, w->bw_bytes))
		return;
	bench_progress_start(c, w, w->bw_bytes);
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
	bench_fixed(secs, sizeof(secs), t, NSEC_PER_SEC, 3);
	bench_fixed(mibps, sizeof(mibps), done * (NSEC_PER_SEC / 1000), (t / 1000) << 20, 1);
	bench_fixed(iops, sizeof(iops), n * NSEC_PER_SEC, t, 0);
	bench_fixed(fsecs, sizeof(fsecs), tf, NSEC_PER_SEC, 3);
	kprintf("BENCH %s bs=%s MiB=%llu ios=%llu secs=%s MiBps=%s iops=%s%s%s\n", w->bw_name,
	       bench_fmt_size(bs, b1, sizeof(b1)), (unsigned long long)(done >> 20),
	       (unsigned long long)n, secs, mibps, iops, wr ? " flush_secs=" : "", wr ? fsecs : "");
	bench_record(c, w, n, t);
}

u64 bench_span(struct bench_ctx *c, const struct bench_work *w)
{
	u64 span = w->bw_span ? w->bw_span : c->c_devsize - min(w->bw_off, c->c_devsize);

	if (w->bw_off + span > c->c_devsize)
		span = c->c_devsize > w->bw_off ? c->c_devsize - w->bw_off : 0;
	return span;
}

static void run_rand_qd1(struct bench_ctx *c, const struct bench_work *w, bool wr)
{
	char b1[24], secs[24], iops[24], mibps[24], avg[24], p50[24], p99[24], mx[24];
	u64 span = bench_span(c, w), nblk = span / w->bw_bs, n = 0, t0, t, o, el;
	u32 cap = w->bw_ios && w->bw_ios < BENCH_MAX_LAT ? (u32)w->bw_ios : BENCH_MAX_LAT;
	struct aio_ctx *a = &c->c_aio;
	struct bench_rng rng;
	u32 *lat, kept;
	int err;

	if (!nblk || !bench_range_ok(c, w, nblk * w->bw_bs))
		return;
	aio_lat_keep(a, cap);	/* without memory: no percentiles, still a run */
	bench_rng_seed(&rng, w->bw_seed);
	bench_progress_start(c, w, w->bw_ios * w->bw_bs);
	t0 = t = ktime_ns();
	while (!w->bw_ios || n < w->bw_ios) {
		o = bench_next_off(&rng, w, nblk);
		err = bench_rw(c, (u32)w->bw_bs, o, wr ? REQ_WRITE : 0);
		t = a->ac_lat ? a->ac_slots[0].as_end_ns : ktime_ns();
		if (err) {
			kprintf("BENCH error %s at=%llu err=%d\n", w->bw_name, (unsigned long long)o, err);
			c->c_failed = true;
			break;
		}
		n++;
		if (time_up(c, w, t0, n * w->bw_bs))
			break;
	}
	progress_end(&c->c_pg, n * w->bw_bs);
	el = t - t0;
	aio_lat_sorted(a);
	lat = a->ac_lat;
	kept = lat ? a->ac_lat_n : 0;
	bench_fixed(secs, sizeof(secs), el, NSEC_PER_SEC, 3);
	bench_fixed(iops, sizeof(iops), n * NSEC_PER_SEC, el, 0);
	bench_fixed(mibps, sizeof(mibps), n * w->bw_bs * (NSEC_PER_SEC / 1000), (el / 1000) << 20, 2);
	bench_fixed(avg, sizeof(avg), el, (n ? n : 1) * NSEC_PER_USEC, 1);
	bench_fixed(p50, sizeof(p50), kept ? lat[kept / 2] : 0, NSEC_PER_USEC, 1);
	bench_fixed(p99, sizeof(p99), kept ? lat[(u32)((u64)kept * 99 / 100)] : 0, NSEC_PER_USEC, 1);
	bench_fixed(mx, sizeof(mx), kept ? lat[kept - 1] : 0, NSEC_PER_USEC, 1);
	if (!c->c_quiet)
		kprintf("BENCH %s qd=1 bs=%s span_MiB=%llu ios=%llu secs=%s iops=%s MiBps=%s lat_us_avg=%s p50=%s p99=%s max=%s\n",
			w->bw_name, bench_fmt_size(w->bw_bs, b1, sizeof(b1)),
			(unsigned long long)(span >> 20), (unsigned long long)n, secs, iops, mibps,
			avg, p50, p99, mx);
	bench_record(c, w, n, el);
	aio_lat_keep(a, 0);
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

/* One qd>1 run: what the aio callbacks share. */
struct bench_async {
	struct bench_ctx	*b_c;
	const struct bench_work	*b_w;
	struct bench_rng	b_rng;
	u64			b_nblk;
	u64			b_issued;
	u64			b_t0;
	u32			b_qd;
	u32			b_rw;
	bool			b_err;
};

/* An I/O ended: name the first error; stop at it or when the time is up. */
static void async_end(struct aio_ctx *a, struct aio_slot *s, void *arg)
{
	struct bench_async *b = arg;
	const struct bench_work *w = b->b_w;

	if (s->as_err && !b->b_err) {
		kprintf("BENCH error %s err=%d at=%llu\n", w->bw_name, s->as_err,
		       (unsigned long long)s->as_sector << SECTOR_SHIFT);
		b->b_err = a->ac_stop = true;
		b->b_c->c_failed = true;
	}
	if (w->bw_secs_ms && ktime_ns() - b->b_t0 >= w->bw_secs_ms * NSEC_PER_MSEC)
		a->ac_stop = true;
}

/* Keep the first qd slots busy until ios= are issued. */
static int async_start(struct aio_ctx *a, struct aio_slot *s, void *arg)
{
	struct bench_async *b = arg;
	const struct bench_work *w = b->b_w;
	int err;

	if (s->as_index >= b->b_qd || (w->bw_ios && b->b_issued >= w->bw_ios))
		return 0;
	err = aio_submit(s, b->b_rw, bench_next_off(&b->b_rng, w, b->b_nblk) >> SECTOR_SHIFT,
			 (u32)w->bw_bs);
	if (err)
		return err;
	b->b_issued++;
	return 1;
}

static const struct aio_ops bench_async_ops = { .end = async_end, .start = async_start };

/*
 * qd I/Os of rw at random offsets kept in flight.  A flush workload
 * (REQ_PREFLUSH) also says how many cache flushes the device got.
 */
static void run_rand_async(struct bench_ctx *c, const struct bench_work *w, u32 rw)
{
	char b1[24], secs[24], iops[24], mibps[24], per[24], fl[48] = "";
	struct bench_async b = { .b_c = c, .b_w = w, .b_rw = rw };
	u64 span = bench_span(c, w), done, el, f0;
	struct aio_ctx *a = &c->c_aio;
	int err;

	b.b_nblk = span / w->bw_bs;
	b.b_qd = min((u32)w->bw_qd, a->ac_nslots);
	if (!b.b_nblk || !bench_range_ok(c, w, b.b_nblk * w->bw_bs))
		return;
	bench_rng_seed(&b.b_rng, w->bw_seed);
	bench_progress_start(c, w, w->bw_ios * w->bw_bs);
	a->ac_ios = a->ac_errors = a->ac_bytes = 0;
	a->ac_stop = a->ac_interrupted = false;
	f0 = bench_flushes(c);
	b.b_t0 = ktime_ns();
	err = aio_run(a, &bench_async_ops, &b);
	done = a->ac_ios;
	if (err && !b.b_err) {
		c->c_failed = true;	/* Ctrl-C (said by the progress line) or no memory */
		if (err != -EINTR) {
			kprintf("BENCH error %s err=%d\n", w->bw_name, err);
			b.b_err = true;
		}
	}
	progress_end(&c->c_pg, done * w->bw_bs);
	el = ktime_ns() - b.b_t0;
	bench_fixed(secs, sizeof(secs), el, NSEC_PER_SEC, 3);
	bench_fixed(iops, sizeof(iops), done * NSEC_PER_SEC, el, 0);
	bench_fixed(mibps, sizeof(mibps), done * w->bw_bs * (NSEC_PER_SEC / 1000), (el / 1000) << 20, 2);
	if (rw & REQ_PREFLUSH) {
		f0 = bench_flushes(c) - f0;
		bench_fixed(per, sizeof(per), f0, done, 2);
		snprintf(fl, sizeof(fl), " flushes=%llu flushes_per_io=%s", (unsigned long long)f0, per);
	}
	if (!c->c_quiet)
		kprintf("BENCH %s qd=%d bs=%s span_MiB=%llu ios=%llu secs=%s iops=%s MiBps=%s%s engine=blk-async%s\n",
			w->bw_name, w->bw_qd, bench_fmt_size(w->bw_bs, b1, sizeof(b1)),
			(unsigned long long)(span >> 20), (unsigned long long)done, secs, iops,
			mibps, fl, b.b_err ? " ERROR" : "");
	bench_record(c, w, done, el);
}

/* Fill (or check) the sectors of slot 0's buffer for bytes at off. */
static u64 pattern(struct bench_ctx *c, u64 off, u32 bs, u64 seed, bool check, u64 *first_bad,
		   u64 *got0, u64 *got1)
{
	u64 bad = 0, lba;
	u32 s;

	for (s = 0; s < bs / SECTOR_SIZE; s++) {
		u8 *p = kmap_atomic(c->c_aio.ac_slots[0].as_pages[s / (PAGE_SIZE / SECTOR_SIZE)]);
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

	if (!bench_range_ok(c, w, w->bw_bytes))
		return;
	bench_progress_start(c, w, (do_write + do_read) * w->bw_bytes);
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

			for (i = 0; i < c->c_aio.ac_slots[0].as_npages; i++)
				zero_page_range(c->c_aio.ac_slots[0].as_pages[i], 0, PAGE_SIZE);
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
	bench_fixed(ws, sizeof(ws), tw, NSEC_PER_SEC, 3);
	bench_fixed(rs, sizeof(rs), tr, NSEC_PER_SEC, 3);
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


int bench_alloc_slots(struct bench_ctx *c, u32 qd, u32 max_bs)
{
	u32 i;
	int err = aio_init(&c->c_aio, qd, max_bs);

	if (err)
		return err;
	aio_target(&c->c_aio, c->c_bdev, c->c_q);
	c->c_aio.ac_pg = &c->c_pg;
	for (i = 0; i < qd && !err; i++)
		err = aio_buf_alloc(&c->c_aio.ac_slots[i], max_bs, GFP_HIGHUSER);
	if (err)
		aio_exit(&c->c_aio);
	return err;
}

void bench_run_work(struct bench_ctx *c, struct bench_work *w)
{
	bool wr = !strcmp(w->bw_name, "randwrite") || !strcmp(w->bw_name, "seqwrite");
	bool rnd = !strcmp(w->bw_name, "randread") || !strcmp(w->bw_name, "randwrite");

	if (w->bw_cpus > 1 && rnd) {
		bench_run_cpus(c, w);
		return;
	}
	if (w->bw_cpus > 1)
		kprintf("BENCH warn %s runs on one CPU (cpus= is for randread and randwrite)\n",
			w->bw_name);
	if (!strcmp(w->bw_name, "seqread") || !strcmp(w->bw_name, "seqwrite"))
		run_seq(c, w, wr);
	else if (rnd)
		w->bw_qd == 1 ? run_rand_qd1(c, w, wr) : run_rand_async(c, w, wr ? REQ_WRITE : 0);
	else if (!strcmp(w->bw_name, "flush"))
		run_rand_async(c, w, REQ_WRITE | REQ_PREFLUSH | REQ_FUA);
	else if (!strcmp(w->bw_name, "verify"))
		run_verify(c, w, true, true);
	else if (!strcmp(w->bw_name, "fill"))
		run_verify(c, w, true, false);
	else if (!strcmp(w->bw_name, "check"))
		run_verify(c, w, false, true);
	else if (!strcmp(w->bw_name, "mixed"))
		bench_run_mixed(c, w);
	else {
		kprintf("BENCH warn unknown workload %s\n", w->bw_name);
		c->c_failed = true;
	}
}
