/*
 * bench inside the kernel: the workloads of block/diag/bench.h run on a
 * device through the aio engine (block/diag/bench.c), called by the bench
 * shell command (block/diag/bench_cmds.c).  Private to those two files.
 */
#ifndef BLOCK_DIAG_BENCH_RUN_H
#define BLOCK_DIAG_BENCH_RUN_H

#include "block/genhd.h"
#include "block/diag/aio.h"
#include "block/diag/bench.h"
#include "kernel/progress.h"

#define BENCH_MAX_BS	(1u << 20)		/* one bio of BIO_MAX_VECS pages */
#define BENCH_MAX_LAT	262144u			/* latencies kept for percentiles */
#define BENCH_MAX_RESULTS 16

struct bench_result {
	char	r_name[16];
	u32	r_qd;
	u64	r_ios;
	u64	r_bytes;
	u64	r_ns;
};

/* One bench command: [l] all of it, the command's loop only. */
struct bench_ctx {
	struct block_device	*c_bdev;	/* NULL: a bare queue */
	fmode_t			c_mode;
	struct request_queue	*c_q;
	u64			c_devsize;	/* bytes */
	struct aio_ctx		c_aio;		/* one slot per unit of the deepest qd */
	struct bench_result	c_res[BENCH_MAX_RESULTS];
	u32			c_nres;
	struct progress		c_pg;		/* the running workload's progress line */
	const struct progress	*c_pg_leader;	/* a share of cpus=: the command's progress */
	bool			c_failed;	/* an error, a failed check, a stop */
	bool			c_quiet;	/* a share of cpus=: results kept, no BENCH line */
};

/* Start c's progress line for w, as a share when c is one. */
static inline void bench_progress_start(struct bench_ctx *c, const struct bench_work *w, u64 total)
{
	progress_start_share(&c->c_pg, w->bw_name, total, c->c_pg_leader);
}

/* Run one workload, printing its BENCH line; failures set c_failed. */
void bench_run_work(struct bench_ctx *c, struct bench_work *w);
/* qd slots with buffers of max_bs bytes, from any zone.  0 or -ENOMEM. */
int bench_alloc_slots(struct bench_ctx *c, u32 qd, u32 max_bs);
/* bench_smp.c: a random workload from w->bw_cpus CPUs at once. */
void bench_run_cpus(struct bench_ctx *c, const struct bench_work *w);
/* The bytes a random workload ranges over (span=, else to the end). */
u64 bench_span(struct bench_ctx *c, const struct bench_work *w);
/* len bytes from off= fit the device and bs= is usable; else says why. */
bool bench_range_ok(struct bench_ctx *c, const struct bench_work *w, u64 len);
/* Keep the result for the table at the end. */
void bench_record(struct bench_ctx *c, const struct bench_work *w, u64 ios, u64 ns);
/* bench_mixed.c: the mixed workload (block/diag/bench.h). */
void bench_run_mixed(struct bench_ctx *c, const struct bench_work *w);
/* round(num * 10^d / den) into buf; den 0 counts as 1. */
void bench_fixed(char *buf, size_t len, u64 num, u64 den, unsigned d);

#endif
