/*
 * Block-core internals shared by the files of block/, not by drivers:
 * request pool management and the queue list.  Drivers and filesystems
 * include block/blkdev.h and block/bio.h only.
 */
#ifndef BLOCK_BLK_H
#define BLOCK_BLK_H

#include "block/blkdev.h"
#include "block/blk-trace.h"

/* Record a trace event when tracing is on: one test on the hot path.  Queue lock held. */
static inline void __blk_trace(struct request_queue *q, enum blk_trace_act act, sector_t sector,
			       u32 bytes, u32 rw, s32 arg)
{
	if (unlikely(q->q_trace))
		blk_trace_record(q->q_trace, act, sector, bytes, rw, arg);
}

/* blk-core.c: give a request back to its pool.  Queue lock held. */
void __blk_put_request(struct request_queue *q, struct request *rq);
/* blk-core.c: a request for a data-less command (flush).  Queue lock held. */
void blk_rq_init(struct request_queue *q, struct request *rq);
/* blk-core.c: the driver may be called now (not stopped, not plugged). */
bool blk_queue_runnable(const struct request_queue *q);

#endif
