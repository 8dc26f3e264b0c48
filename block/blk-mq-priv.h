/*
 * blk-mq internals shared by block/blk-mq*.c and the few places of the
 * single-queue core that branch on queue_is_mq(): software queues, the
 * scheduler glue and the deferred run.  Drivers include block/blk-mq.h.
 *
 * Locks, outermost first: q->q_lock (the scheduler lock: elevator, merge
 * lookups into it, plugging, trace, flush sequences, parked bios) ->
 * ctx->lock (a CPU's staged requests) -> hctx->lock (dispatch list, and
 * the requests on the device: blk-mq-timeout.c).  queue_rq() runs with
 * none of them held.  With no elevator a request is made, issued and
 * ended without the queue lock (blk-mq.c): CPUs on different hardware
 * queues then share only atomic tag words.  A path that wants a hardware
 * queue run while it holds the queue lock sets q->q_rerun ("a run is
 * owed") and the run happens when it unlocks with blk_queue_unlock().
 *
 * Lock legend: [I] immutable after set-up, [c] ctx->lock.
 */
#ifndef BLOCK_BLK_MQ_PRIV_H
#define BLOCK_BLK_MQ_PRIV_H

#include "block/blk-mq.h"
#include "block/blk-mq-tag.h"

/*
 * One software queue per CPU the kernel knows (nr_cpu_ids, fixed once the
 * other CPUs are started, before any driver makes a queue); a request is
 * staged on the submitting CPU's.  Host tests build with BLK_MQ_NR_CPUS
 * CPUs and choose the "current CPU" in blk_mq_test_cpu.
 */
#ifdef HOST_TEST
#ifndef BLK_MQ_NR_CPUS
#define BLK_MQ_NR_CPUS		1u
#endif
extern u32 blk_mq_test_cpu;
static inline u32 blk_mq_nr_cpus(void) { return BLK_MQ_NR_CPUS; }
static inline u32 blk_mq_this_cpu(void) { return blk_mq_test_cpu % BLK_MQ_NR_CPUS; }
#else
#include "kernel/smp.h"
static inline u32 blk_mq_nr_cpus(void) { return READ_ONCE(nr_cpu_ids); }
static inline u32 blk_mq_this_cpu(void) { return smp_processor_id(); }
#endif

#define BLK_MQ_SCHED_BATCH	8u	/* requests taken from an elevator per refill */
#define BLK_MQ_CTX_MERGE_SCAN	8u	/* staged requests a bio tries to merge with */

/* A software staging queue: one per CPU. */
struct blk_mq_ctx {
	spinlock_t		lock;		/* guards [c] */
	struct list_head	rq_list;	/* [c] staged requests (no elevator) */
	u32			nr_queued;	/* [c] on rq_list */
	u32			cpu;		/* [I] */
	struct blk_mq_hw_ctx	*hctx;		/* [I] the hardware queue of this CPU */
	struct request_queue	*queue;		/* [I] */
};

static inline struct blk_mq_ctx *blk_mq_this_ctx(struct request_queue *q)
{
	u32 cpu = blk_mq_this_cpu();

	return &q->q_ctx[cpu < q->q_nr_ctx ? cpu : 0];
}

/* blk-mq-queue.c */
u32 blk_mq_queue_rqs(const struct request_queue *q);

/* blk-mq.c */
void blk_mq_make_request(struct request_queue *q, struct bio *bio);
void blk_mq_resubmit_parked(struct request_queue *q);
void blk_mq_put_request(struct request_queue *q, struct request *rq);
void blk_mq_exit_queue(struct request_queue *q);
void blk_mq_flush_borrow_tag(struct request *flush_rq, struct request *owner);
void blk_mq_flush_return_tag(struct request *flush_rq);

/* blk-mq-timeout.c: requests on the device ([h]), and their timeouts. */
bool blk_mq_claim_direct(struct blk_mq_hw_ctx *hctx, struct request *rq);
void blk_mq_start_batch(struct blk_mq_hw_ctx *hctx, struct list_head *list);
void blk_mq_unstart(struct blk_mq_hw_ctx *hctx, struct request *rq, struct list_head *list);
void blk_mq_leave_driver(struct request *rq);
u32 blk_mq_in_driver(const struct request_queue *q);
void blk_mq_timeout_timer(struct timer_list *t);
void blk_mq_timeout_work(struct work *w);

/* blk-mq-dispatch.c */
void blk_mq_add_dispatch(struct request *rq, bool at_head);
void blk_mq_run_work_fn(struct work *w);
void blk_mq_poll_timer(struct timer_list *t);
void blk_mq_poll_work(struct work *w);
void blk_mq_issue_direct(struct blk_mq_hw_ctx *hctx, struct request *rq);

/* blk-mq-sched.c: queue lock held for the first four; not for the next three. */
bool blk_mq_sched_bio_merge(struct request_queue *q, struct blk_mq_ctx *ctx, struct bio *bio);
void blk_mq_sched_insert(struct request_queue *q, struct blk_mq_ctx *ctx, struct request *rq);
u32 blk_mq_sched_queued(struct request_queue *q);
bool blk_mq_sched_may_bypass(struct request_queue *q);
bool blk_mq_ctx_bio_merge(struct request_queue *q, struct blk_mq_ctx *ctx, struct bio *bio);
void blk_mq_ctx_insert(struct blk_mq_ctx *ctx, struct request *rq);
bool blk_mq_use_elevator(const struct request_queue *q);
bool blk_mq_sched_fill(struct blk_mq_hw_ctx *hctx);
bool blk_mq_hctx_has_work(struct blk_mq_hw_ctx *hctx);

#endif
