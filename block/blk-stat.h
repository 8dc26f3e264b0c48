/*
 * Per-queue I/O statistics in the shape of Linux's /proc/diskstats, plus
 * the block layer's own events (splits, bounces, requeues, timeouts).
 * Index [0] is reads, [1] writes.  Every field is [q]: updated and read
 * under the queue lock.
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
	u64	st_busy_ns;		/* time with at least one request in flight */
	u64	st_busy_since;		/* when st_in_flight last left zero */
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

/* All with the queue lock held: a request was allocated, ended bytes, ended. */
void blk_stat_rq_start(struct request_queue *q, struct request *rq);
void blk_stat_rq_bytes(struct request_queue *q, struct request *rq, u32 bytes);
void blk_stat_rq_done(struct request_queue *q, struct request *rq);
void blk_stat_reset(struct request_queue *q);
/* Format one iostat line for q into buf; returns the length as snprintf. */
int blk_stat_format(struct request_queue *q, char *buf, size_t len);

#endif
