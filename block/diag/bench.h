/*
 * The bench workloads, shared with the Linux peer that tools/bench runs:
 * the same workload strings, the same sector pattern, the same random
 * offsets and the same "BENCH ..." lines, so one script compares both
 * kernels and either kernel can check sectors the other filled.
 *
 * bench_work.c is portable (host-tested against values the peer's code
 * computes); bench.c runs workloads on a device, in the kernel only, and
 * bench_cmds.c is the shell command.
 *
 * Workload: NAME[:key=val]...  with keys mib, bs, off, span (sizes: a
 * bare number is MiB, bs KiB; K/M/G and s(ectors) suffixes), ios, secs,
 * qd, seed; and cpus (this kernel's only; a number or "all"): randread
 * and randwrite from that many CPUs at once, each with its own qd and
 * seed + its index.  NAME is seqread, seqwrite, randread, randwrite, verify,
 * fill or check; and two the peer lacks: flush (see bench.c) and mixed,
 * random reads of bs at readqd beside sequential writes of wbs at
 * writeqd (bench_mixed.c; defaults readqd=1, writeqd=32, bs=4K, wbs=1M,
 * secs=10), whose qd is readqd + writeqd.
 */
#ifndef BLOCK_BENCH_H
#define BLOCK_BENCH_H

#include "kernel/types.h"

#define BENCH_MAXQD	256
#define BENCH_MAXCPUS	64

struct bench_work {
	char	bw_name[16];
	u64	bw_bytes;	/* mib= */
	u64	bw_bs;
	u64	bw_off;
	u64	bw_span;	/* 0: to the end of the device */
	u64	bw_ios;		/* 0: unlimited (use secs) */
	u64	bw_secs_ms;	/* secs= in milliseconds; 0: unlimited */
	int	bw_qd;
	u64	bw_seed;
	int	bw_readqd;	/* mixed: reads in flight */
	int	bw_writeqd;	/* mixed: writes in flight (-1 until parsed) */
	u64	bw_wbs;		/* mixed: write size */
	u32	bw_cpus;	/* random workloads: submitters on this many CPUs, qd each */
};

/* The peer's xorshift64* generator. */
struct bench_rng {
	u64	r_state;
};

/* Warnings the parser reports, as the peer prints them (may be NULL). */
typedef void (bench_warn_fn)(const char *key, void *arg);

void bench_parse_work(char *spec, struct bench_work *w, bench_warn_fn *warn, void *arg);
/* size with optional K/M/G/s suffix, else times unit; strtoull base 0 rules. */
u64 bench_parse_size(const char *s, u64 unit);
/* "1M", "4K" or "512": the peer's fmt_size. buf holds at least 24 bytes. */
const char *bench_fmt_size(u64 bytes, char *buf, size_t len);
/* round(num * 10^decimals / den) as "I.FFF"; den > 0. */
const char *bench_fmt_fixed(u64 num, u64 den, unsigned decimals, char *buf, size_t len);

void bench_rng_seed(struct bench_rng *r, u64 seed);
u64 bench_rng_next(struct bench_rng *r);
/* The peer's next_off: off + (rng % nblk) * bs. */
u64 bench_next_off(struct bench_rng *r, const struct bench_work *w, u64 nblk);

/* The 512-byte LBA pattern: 64 little-endian u64 words. */
void bench_fill_sector(void *sector, u64 lba, u64 seed);
bool bench_check_sector(const void *sector, u64 lba, u64 seed);

/* Sort n u32 values ascending in place (heap sort: no recursion, no memory). */
void bench_sort_u32(u32 *v, u32 n);

#endif
