/*
 * Per-queue I/O statistics in the shape of Linux's /proc/diskstats, plus
 * the block layer's own events (splits, bounces, requeues, timeouts).
 * Index [0] is reads, [1] writes.
 *
 * The counters every request moves (ios, merges, sectors, ticks, in
 * flight, tags) are per CPU, updated by the CPU that does the work with
 * interrupts off and no shared lock: the multi-queue path takes no queue
 * lock for them.  The rare events stay in q->q_stats under the queue lock.
 * Time busy is counted as Linux's io_ticks: at most one CPU per jiffy
 * adds the jiffies since the last stamp, if requests were in flight.
 * Readers sum everything with blk_stat_read().
 */
#ifndef BLOCK_BLK_STAT_H
#define BLOCK_BLK_STAT_H

#include "kernel/types.h"

struct request;
struct request_queue;

struct blk_stats {
	u64	st_ios[2];		/* requests completed */
	u64	st_merges[2];		/* bios merged into an existing request */
	u64	st_sectors[2];		/* sectors completed */
	u64	st_ticks_ns[2];		/* sum of request lifetimes */
	u64	st_busy_ms;		/* time with at least one request in flight */
	u32	st_in_flight;		/* requests allocated, not ended */
	u64	st_splits;		/* bios split to the queue's limits */
	u64	st_bounces;		/* bios that needed bounce pages */
	u64	st_bounce_pages;	/* bounce pages used */
	u64	st_requeues;
	u64	st_timeouts;
	u64	st_errors;		/* requests ended with an error */
	u64	st_flushes;		/* flush commands issued */
	u64	st_tagged;		/* tags handed out */
};

/* One CPU's share of the per-request counters (fields as in blk_stats). */
struct blk_stats_cpu {
	u64	sc_ios[2];
	u64	sc_merges[2];
	u64	sc_sectors[2];
	u64	sc_ticks_ns[2];
	u64	sc_tagged;
	s32	sc_in_flight;		/* started here less ended here: may be < 0 */
} __attribute__((aligned(64)));		/* a cache line of its own */

int blk_stat_init(struct request_queue *q);
void blk_stat_exit(struct request_queue *q);
/* Interrupts off (or the queue lock held): a request was allocated, ended bytes, ended. */
void blk_stat_rq_start(struct request_queue *q, struct request *rq);
void blk_stat_rq_bytes(struct request_queue *q, struct request *rq, u32 bytes);
void blk_stat_rq_done(struct request_queue *q, struct request *rq);
/* Interrupts off: a bio merged into a request; a tag was handed out. */
void blk_stat_merge(struct request_queue *q, int dir);
void blk_stat_tagged(struct request_queue *q);
void blk_stat_reset(struct request_queue *q);
/* A snapshot of every counter of q, per-CPU shares summed. */
void blk_stat_read(struct request_queue *q, struct blk_stats *out);

static inline struct blk_stats blk_stat_snapshot(struct request_queue *q)
{
	struct blk_stats s;

	blk_stat_read(q, &s);
	return s;
}
/* Format one iostat line for q into buf; returns the length as snprintf. */
int blk_stat_format(struct request_queue *q, char *buf, size_t len);

#endif
