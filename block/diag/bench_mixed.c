/*
 * bench's mixed workload: what a latency scheduler is for.  readqd
 * random reads of bs (slots 0..readqd-1) run beside writeqd sequential
 * writes of wbs (the slots after them) that sweep the span over and
 * over, for secs seconds; the BENCH line gives the reads' rate and their
 * latency percentiles, and the writes' MiB/s:
 *
 *	BENCH mixed readqd=1 writeqd=32 bs=4K wbs=1M secs=10.002 reads=...
 *	  read_iops=... read_p50_us=... read_p99_us=... write_MiBps=...
 *
 * With writeqd=0 it measures the idle read latency the others are
 * compared with.  Latencies run from submission to the moment the loop
 * sees the end, as aio measures them; up to MIXED_MAX_LAT reads are
 * kept (the rest still count in read_iops).  The Linux peer has no such
 * workload; the table in the benchmark document compares schedulers of
 * this kernel, on one disk, in one run.
 */
#include "block/diag/bench_run.h"
#include "block/blkdev.h"
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/time.h"
#include "kernel/mm/vmap.h"
#include "lib/string.h"

#define MIXED_MAX_LAT	(1u << 18)	/* read latencies kept: 1 MiB */

struct bench_mixed {
	struct bench_ctx	*m_c;
	const struct bench_work	*m_w;
	struct bench_rng	m_rng;
	u64			m_nblk;		/* read blocks in the span */
	u64			m_wnext;	/* next write offset, relative to off= */
	u64			m_wspan;	/* bytes the writes sweep */
	u64			m_t0;
	u64			m_reads, m_writes;
	u64			m_start[BENCH_MAXQD];	/* each slot's submission, ns */
	u32			*m_lat;		/* read latencies, us */
	u32			m_nlat;
	bool			m_err;
};

static bool mixed_is_read(const struct bench_mixed *m, const struct aio_slot *s)
{
	return s->as_index < (u32)m->m_w->bw_readqd;
}

static void mixed_end(struct aio_ctx *a, struct aio_slot *s, void *arg)
{
	struct bench_mixed *m = arg;
	const struct bench_work *w = m->m_w;

	if (s->as_err && !m->m_err) {
		kprintf("BENCH error mixed err=%d at=%llu\n", s->as_err,
			(unsigned long long)s->as_sector << SECTOR_SHIFT);
		m->m_err = a->ac_stop = true;
		m->m_c->c_failed = true;
	}
	if (mixed_is_read(m, s)) {
		m->m_reads++;
		if (m->m_nlat < MIXED_MAX_LAT)
			m->m_lat[m->m_nlat++] = (u32)min((ktime_ns() - m->m_start[s->as_index]) /
							 NSEC_PER_USEC, (u64)0xffffffffu);
	} else {
		m->m_writes++;
	}
	if (ktime_ns() - m->m_t0 >= w->bw_secs_ms * NSEC_PER_MSEC)
		a->ac_stop = true;
}

static int mixed_start(struct aio_ctx *a, struct aio_slot *s, void *arg)
{
	struct bench_mixed *m = arg;
	const struct bench_work *w = m->m_w;
	u64 off;

	if (s->as_index >= (u32)w->bw_qd)
		return 0;
	m->m_start[s->as_index] = ktime_ns();
	if (mixed_is_read(m, s))
		return aio_submit(s, 0, bench_next_off(&m->m_rng, w, m->m_nblk) >> SECTOR_SHIFT,
				  (u32)w->bw_bs) ?: 1;
	off = w->bw_off + m->m_wnext;
	m->m_wnext += w->bw_wbs;
	if (m->m_wnext + w->bw_wbs > m->m_wspan)
		m->m_wnext = 0;
	return aio_submit(s, REQ_WRITE, off >> SECTOR_SHIFT, (u32)w->bw_wbs) ?: 1;
}

static const struct aio_ops mixed_ops = { .end = mixed_end, .start = mixed_start };

/* The p-th percentile (0..100) of n sorted values. */
static u32 percentile(const u32 *v, u32 n, u32 p)
{
	return n ? v[min((u64)n * p / 100, (u64)n - 1)] : 0;
}

void bench_run_mixed(struct bench_ctx *c, const struct bench_work *w)
{
	static struct bench_mixed m;	/* a few KiB: one bench runs at a time */
	char b1[24], b2[24], secs[24], iops[24], mibps[24];
	struct aio_ctx *a = &c->c_aio;
	u64 span = bench_span(c, w), el;
	int err;

	memset(&m, 0, sizeof(m));
	m.m_c = c;
	m.m_w = w;
	m.m_nblk = span / w->bw_bs;
	m.m_wspan = span / w->bw_wbs * w->bw_wbs;
	if (!m.m_nblk || (w->bw_writeqd && !m.m_wspan) || !bench_range_ok(c, w, span) ||
	    (u32)w->bw_qd > a->ac_nslots || w->bw_wbs > BENCH_MAX_BS || (w->bw_wbs & 511)) {
		kprintf("BENCH error mixed bad-range\n");
		c->c_failed = true;
		return;
	}
	m.m_lat = vmalloc(MIXED_MAX_LAT * sizeof(u32));
	if (!m.m_lat) {
		kprintf("BENCH error mixed no-memory\n");
		c->c_failed = true;
		return;
	}
	bench_rng_seed(&m.m_rng, w->bw_seed);
	bench_progress_start(c, w, 0);
	a->ac_ios = a->ac_errors = a->ac_bytes = 0;
	a->ac_stop = a->ac_interrupted = false;
	m.m_t0 = ktime_ns();
	err = aio_run(a, &mixed_ops, &m);
	el = ktime_ns() - m.m_t0;
	progress_end(&c->c_pg, 0);
	if (err && !m.m_err) {
		c->c_failed = true;
		if (err != -EINTR)
			kprintf("BENCH error mixed err=%d\n", err);
	}
	bench_sort_u32(m.m_lat, m.m_nlat);
	bench_fixed(secs, sizeof(secs), el, NSEC_PER_SEC, 3);
	bench_fixed(iops, sizeof(iops), m.m_reads * NSEC_PER_SEC, el, 0);
	bench_fixed(mibps, sizeof(mibps), m.m_writes * w->bw_wbs * (NSEC_PER_SEC / 1000),
		    (el / 1000) << 20, 2);
	kprintf("BENCH mixed readqd=%d writeqd=%d bs=%s wbs=%s secs=%s reads=%llu read_iops=%s "
		"read_p50_us=%u read_p99_us=%u read_max_us=%u write_MiBps=%s engine=blk-async%s\n",
		w->bw_readqd, w->bw_writeqd, bench_fmt_size(w->bw_bs, b1, sizeof(b1)),
		bench_fmt_size(w->bw_wbs, b2, sizeof(b2)), secs, (unsigned long long)m.m_reads,
		iops, percentile(m.m_lat, m.m_nlat, 50), percentile(m.m_lat, m.m_nlat, 99),
		m.m_nlat ? m.m_lat[m.m_nlat - 1] : 0, mibps, m.m_err ? " ERROR" : "");
	bench_record(c, w, m.m_reads + m.m_writes, el);
	vfree(m.m_lat);
}
