/*
 * bench's random workloads from several CPUs at once (cpus=N): what the
 * per-queue locks, the per-CPU software queues and the tags do when more
 * than one CPU submits.
 *
 * Share i runs the workload on its own CPU (kernel/smp_run.c), with its
 * own qd slots and seed + i, so the CPUs read different offsets; share 0
 * runs on the command's CPU, in the command's context, and alone watches
 * for Ctrl-C (the others follow its progress).  The shares print nothing;
 * one line sums them:
 *
 *	BENCH randread qd=32 cpus=2 bs=4K span_MiB=1024 ios=... secs=...
 *	      iops=... MiBps=... iops_per_cpu=51234,50987 engine=blk-async
 *
 * qd is each CPU's; secs is the longest share's time, iops all the I/Os
 * over it.  Fewer CPUs online than asked: said, and run on those.
 */
#include "block/diag/bench_run.h"
#include "kernel/console.h"
#include "kernel/smp.h"
#include "kernel/time.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

struct bench_cpus {
	const struct bench_work	*p_w;
	struct bench_ctx	*p_ctx[BENCH_MAXCPUS];
};

static void bench_share(void *data, u32 idx)
{
	struct bench_cpus *p = data;
	struct bench_work w = *p->p_w;

	w.bw_seed += idx;
	w.bw_cpus = 1;
	bench_run_work(p->p_ctx[idx], &w);
}

/* A context for share idx > 0: c's device, slots of its own.  NULL: no memory. */
static struct bench_ctx *bench_share_ctx(struct bench_ctx *c, const struct bench_work *w)
{
	struct bench_ctx *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return NULL;
	s->c_bdev = c->c_bdev;
	s->c_mode = c->c_mode;
	s->c_q = c->c_q;
	s->c_devsize = c->c_devsize;
	s->c_quiet = true;
	s->c_pg_leader = &c->c_pg;
	if (bench_alloc_slots(s, (u32)w->bw_qd, (u32)w->bw_bs)) {
		kfree(s);
		return NULL;
	}
	return s;
}

static void bench_share_free(struct bench_ctx *s)
{
	aio_exit(&s->c_aio);
	kfree(s);
}

void bench_run_cpus(struct bench_ctx *c, const struct bench_work *w)
{
	char b1[24], secs[24], iops[24], mibps[24], per[BENCH_MAXCPUS * 12] = "";
	struct bench_cpus *p = kzalloc(sizeof(*p), GFP_KERNEL);
	u32 cpus[BENCH_MAXCPUS], want, n, i, base = c->c_nres;
	u64 ios = 0, el = 0;
	size_t len = 0;
	bool failed = false;

	want = smp_run_cpus(w->bw_cpus, cpus);
	if (want < w->bw_cpus && w->bw_cpus < BENCH_MAXCPUS)
		kprintf("BENCH warn cpus=%u but %u online: running on %u\n", w->bw_cpus, want, want);
	if (!p)
		goto nomem;
	p->p_w = w;
	p->p_ctx[0] = c;
	for (i = 1; i < want; i++)
		if (!(p->p_ctx[i] = bench_share_ctx(c, w)))
			goto nomem;
	c->c_quiet = true;
	n = smp_run_parallel(want, bench_share, p);
	c->c_quiet = false;
	for (i = 0; i < n; i++) {
		struct bench_ctx *s = p->p_ctx[i];
		const struct bench_result *r = i ? &s->c_res[0] : &c->c_res[base];

		if ((i ? s->c_nres : c->c_nres - base) != 1) {
			failed = true;	/* the share said why */
			continue;
		}
		failed |= s->c_failed;
		ios += r->r_ios;
		el = max(el, r->r_ns);
		len += snprintf(per + len, sizeof(per) - len, "%s%llu", i ? "," : "",
				(unsigned long long)(r->r_ns ? r->r_ios * NSEC_PER_SEC / r->r_ns : 0));
	}
	c->c_nres = base;
	bench_fixed(secs, sizeof(secs), el, NSEC_PER_SEC, 3);
	bench_fixed(iops, sizeof(iops), ios * NSEC_PER_SEC, el, 0);
	bench_fixed(mibps, sizeof(mibps), ios * w->bw_bs * (NSEC_PER_SEC / 1000), (el / 1000) << 20, 2);
	kprintf("BENCH %s qd=%d cpus=%u bs=%s span_MiB=%llu ios=%llu secs=%s iops=%s MiBps=%s iops_per_cpu=%s engine=blk-async%s\n",
		w->bw_name, w->bw_qd, n, bench_fmt_size(w->bw_bs, b1, sizeof(b1)),
		(unsigned long long)(bench_span(c, w) >> 20), (unsigned long long)ios, secs, iops,
		mibps, per, failed ? " ERROR" : "");
	bench_record(c, w, ios, el);
	c->c_failed |= failed;
	goto out;

nomem:
	kprintf("BENCH error %s no memory for %u CPUs' buffers\n", w->bw_name, want);
	c->c_failed = true;
out:
	for (i = 1; p && i < want; i++)
		if (p->p_ctx[i])
			bench_share_free(p->p_ctx[i]);
	kfree(p);
}
