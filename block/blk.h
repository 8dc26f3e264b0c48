/*
 * Block-core internals shared by the files of block/, not by drivers:
 * tracing, the request pool and plugging.  Drivers and filesystems
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

/* blk-request.c: a request from the pool, or ERR_PTR(-ENOMEM / -EIO).  Queue lock held. */
struct request *blk_get_request(struct request_queue *q, unsigned long *flags);
/* blk-request.c: give a request back to its pool.  Queue lock held. */
void __blk_put_request(struct request_queue *q, struct request *rq);
/* blk-request.c: a request for a data-less command (flush).  Queue lock held. */
void blk_rq_init(struct request_queue *q, struct request *rq);

/*
 * blk-request.c: queue lock held (mq: any lock but rq's hctx's): the
 * driver no longer holds rq (timer, tag, count).
 */
void blk_rq_leave_driver(struct request_queue *q, struct request *rq);
/* blk-request.c: queue lock held: no request could be had; say so (rate limited). */
void blk_rq_fail(struct request_queue *q, int err);
/* blk-request.c: queue lock held: put rq on the list the driver takes from. */
void blk_dispatch_add(struct request_queue *q, struct request *rq, bool at_head);
/* blk-core.c: fill a new request from its first bio. */
void blk_rq_bio_prep(struct request_queue *q, struct request *rq, struct bio *bio);

/*
 * blk-plug.c: drop the queue lock taken with spin_lock_irqsave(q->q_lock,
 * flags); on a multi-queue queue, run the hardware queues if a run was
 * asked for meanwhile (q_rerun: see block/blk-mq-priv.h).
 */
void blk_queue_unlock(struct request_queue *q, unsigned long flags);

/* blk-plug.c: the plugging state of a new queue. */
void blk_plug_init(struct request_queue *q);
/* blk-plug.c: the driver may be called now (not stopped, not plugged). */
bool blk_queue_runnable(const struct request_queue *q);
/* blk-plug.c: hold I/O back / release it and run the driver.  Queue lock held. */
void blk_plug_device(struct request_queue *q);
void __blk_unplug(struct request_queue *q);
/* blk-plug.c: is this CPU in a batch (blkdev.h)?  Never in interrupt context. */
bool blk_plug_active(void);
/*
 * blk-plug.c: leave a request of q to this CPU's batch, to run hctx at
 * its end -- or, hctx NULL, to unplug q, which must be plugged (queue
 * lock held).  False if q is not plugged, or there is no batch or it is
 * full: run it now.  Takes no lock.
 */
bool blk_plug_hold(struct request_queue *q, struct blk_mq_hw_ctx *hctx);

#endif
