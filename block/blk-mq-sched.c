/*
 * blk-mq scheduling glue: where a new request waits before its hardware
 * queue takes it, and how bios merge into waiting requests.
 *
 * With an elevator (noop or deadline: the same schedulers as the
 * single-queue path, under the queue lock as Linux runs its mq
 * schedulers under theirs) requests wait in the elevator, merge through
 * its hashes, and a hardware queue that runs dry takes up to
 * BLK_MQ_SCHED_BATCH of them in the elevator's order.  With none,
 * requests wait in the software queue of the CPU that made them, a bio
 * tries to merge with the newest BLK_MQ_CTX_MERGE_SCAN of them, and a
 * run moves all of them, in order, to the hardware queue.  Requests left
 * in software queues after a switch to an elevator drain the same way.
 *
 * A plugged queue keeps its waiting requests (the plugging rule of
 * block/blkdev.h); the flag is read without the queue lock here: a run
 * that misses an unplug is followed by the unplugger's own run, and one
 * that misses a plug only dispatches early.
 */
#include "block/blk.h"
#include "block/blk-mq-priv.h"
#include "block/elevator.h"

/* Is an elevator in use on q?  A snapshot when the queue lock is not held. */
bool blk_mq_use_elevator(const struct request_queue *q)
{
	return READ_ONCE(q->q_elevator) && !(READ_ONCE(q->q_flags) & QUEUE_FLAG_BYPASS);
}

/* ctx->lock held: merge bio into one of ctx's newest staged requests. */
static bool blk_mq_ctx_merge(struct request_queue *q, struct blk_mq_ctx *ctx, struct bio *bio)
{
	struct request *rq;
	u32 n = 0;

	if ((q->q_flags & QUEUE_FLAG_NOMERGES) || (bio->bi_rw & REQ_NOMERGE_FLAGS) ||
	    !bio->bi_iter.bi_size)
		return false;
	list_for_each_entry_reverse(rq, &ctx->rq_list, rq_queuelist) {
		if (n++ == BLK_MQ_CTX_MERGE_SCAN)
			break;
		if (blk_try_back_merge(q, rq, bio) || blk_try_front_merge(q, rq, bio))
			return true;
	}
	return false;
}

/**
 * blk_mq_sched_bio_merge - merge bio into a request still waiting.
 * Return: true when bio is now part of a request.  Queue lock held.
 */
bool blk_mq_sched_bio_merge(struct request_queue *q, struct blk_mq_ctx *ctx, struct bio *bio)
{
	bool merged;

	assert_spin_locked(q->q_lock);
	if (blk_mq_use_elevator(q))
		return elv_bio_merge(q, bio);
	spin_lock(&ctx->lock);
	merged = blk_mq_ctx_merge(q, ctx, bio);
	spin_unlock(&ctx->lock);
	return merged;
}

/**
 * blk_mq_ctx_bio_merge - with no elevator, merge bio into a request
 * staged on ctx; no queue lock.  Return: true when merged.
 */
bool blk_mq_ctx_bio_merge(struct request_queue *q, struct blk_mq_ctx *ctx, struct bio *bio)
{
	unsigned long flags;
	bool merged;

	if (!READ_ONCE(ctx->nr_queued))
		return false;
	spin_lock_irqsave(&ctx->lock, flags);
	merged = blk_mq_ctx_merge(q, ctx, bio);
	spin_unlock_irqrestore(&ctx->lock, flags);
	return merged;
}

/* Stage rq on software queue ctx (no elevator in use). */
void blk_mq_ctx_insert(struct blk_mq_ctx *ctx, struct request *rq)
{
	unsigned long flags;

	spin_lock_irqsave(&ctx->lock, flags);
	list_add_tail(&rq->rq_queuelist, &ctx->rq_list);
	ctx->nr_queued++;
	spin_unlock_irqrestore(&ctx->lock, flags);
}

/* Queue lock held: rq waits in the elevator, or in software queue ctx. */
void blk_mq_sched_insert(struct request_queue *q, struct blk_mq_ctx *ctx, struct request *rq)
{
	assert_spin_locked(q->q_lock);
	if (blk_mq_use_elevator(q)) {
		elv_add_request(q, rq);
		return;
	}
	__blk_trace(q, BLK_TA_INSERT, blk_rq_pos(rq), blk_rq_bytes(rq), rq->rq_cmd_flags, 0);
	blk_mq_ctx_insert(ctx, rq);
}

/* Queue lock held: requests waiting in the elevator and the software queues. */
u32 blk_mq_sched_queued(struct request_queue *q)
{
	u32 n = q->q_in_elevator, i;

	for (i = 0; i < q->q_nr_ctx; i++)
		n += READ_ONCE(q->q_ctx[i].nr_queued);
	return n;
}

/*
 * Queue lock held: may a new request skip staging?  Only when nothing
 * waits that it could overtake or merge with, and the scheduler (none, or
 * noop's FIFO) would hand it on first anyway; deadline and the others see
 * every request.
 */
bool blk_mq_sched_may_bypass(struct request_queue *q)
{
	if (blk_mq_use_elevator(q) && q->q_elevator->e_type != &elevator_noop)
		return false;
	return !blk_mq_sched_queued(q) && !q->q_mq_wait_head &&
	       !(q->q_flags & QUEUE_FLAG_PLUGGED);
}

/* Move every request staged in hctx's software queues to its dispatch list. */
static bool blk_mq_fill_from_ctx(struct blk_mq_hw_ctx *hctx)
{
	struct request_queue *q = hctx->queue;
	LIST_HEAD(batch);
	unsigned long flags;
	u32 i;

	for (i = 0; i < q->q_nr_ctx; i++) {
		struct blk_mq_ctx *ctx = &q->q_ctx[i];

		if (ctx->hctx != hctx || !READ_ONCE(ctx->nr_queued))
			continue;
		spin_lock_irqsave(&ctx->lock, flags);
		list_splice_tail_init(&ctx->rq_list, &batch);
		ctx->nr_queued = 0;
		spin_unlock_irqrestore(&ctx->lock, flags);
	}
	if (list_empty(&batch))
		return false;
	spin_lock_irqsave(&hctx->lock, flags);
	list_splice_tail_init(&batch, &hctx->dispatch);
	spin_unlock_irqrestore(&hctx->lock, flags);
	return true;
}

/* Take up to BLK_MQ_SCHED_BATCH requests from the elevator; true if hctx got one. */
static bool blk_mq_fill_from_elevator(struct blk_mq_hw_ctx *hctx)
{
	struct request_queue *q = hctx->queue;
	struct request *rq;
	unsigned long flags;
	bool got = false;
	u32 i;

	spin_lock_irqsave(q->q_lock, flags);
	for (i = 0; i < BLK_MQ_SCHED_BATCH && !(q->q_flags & QUEUE_FLAG_PLUGGED); i++) {
		rq = elv_next_request(q);	/* onto its own hardware queue's list */
		if (!rq)
			break;
		if (rq->rq_mq_hctx == hctx)
			got = true;
	}
	q->q_rerun = false;	/* blk_dispatch_add asked for runs: only other queues need one */
	spin_unlock_irqrestore(q->q_lock, flags);
	/*
	 * Other queues that were handed requests run too; not those that
	 * merely share the elevator: one that holds requests back (kyber)
	 * would have them run each other for nothing, forever.
	 */
	if (q->q_nr_hw_queues > 1)
		for (i = 0; i < q->q_nr_hw_queues; i++)
			if (q->q_hctx[i] != hctx && !list_empty(&q->q_hctx[i]->dispatch))
				blk_mq_run_hw_queue(q->q_hctx[i], true);
	return got;
}

/**
 * blk_mq_sched_fill - refill hctx's dispatch list from where requests
 * wait.  Return: true if it has something new.  No lock held.
 */
bool blk_mq_sched_fill(struct blk_mq_hw_ctx *hctx)
{
	struct request_queue *q = hctx->queue;
	bool got;

	if (READ_ONCE(q->q_flags) & QUEUE_FLAG_PLUGGED)
		return false;
	got = blk_mq_fill_from_ctx(hctx);
	if (!got && READ_ONCE(q->q_in_elevator))
		got = blk_mq_fill_from_elevator(hctx);
	return got;
}

/* Might a run of hctx issue something?  A snapshot, without locks. */
bool blk_mq_hctx_has_work(struct blk_mq_hw_ctx *hctx)
{
	struct request_queue *q = hctx->queue;
	u32 i;

	if (!list_empty(&hctx->dispatch) || READ_ONCE(q->q_in_elevator))
		return true;
	for (i = 0; i < q->q_nr_ctx; i++)
		if (q->q_ctx[i].hctx == hctx && READ_ONCE(q->q_ctx[i].nr_queued))
			return true;
	return false;
}

/*
 * Would unplugging q do anything: is it plugged, or does a hardware queue
 * have work or a bio wait for a tag?  A lock-free peek, for blk_unplug():
 * a waiter on an idle queue then takes no lock (a plug set just after it
 * looked is released by the plug timer, as one set after an unplug is).
 */
bool blk_mq_unplug_needed(struct request_queue *q)
{
	u32 i;

	if ((READ_ONCE(q->q_flags) & QUEUE_FLAG_PLUGGED) || READ_ONCE(q->q_mq_wait_head))
		return true;
	for (i = 0; i < q->q_nr_hw_queues; i++)
		if (blk_mq_hctx_has_work(q->q_hctx[i]))
			return true;
	return false;
}
