/*
 * The multi-queue block layer (contract: block/blk-mq.h): the life of
 * its requests.  Tag sets and queues: blk-mq-queue.c.
 *
 * Path of a bio on a multi-queue queue: submit_bio -> blk_queue_submit_bio
 * (checks, bounce, split: as on every queue) -> blk_mq_make_request().
 * With no elevator in use it takes no queue lock: it merges into a
 * request staged on this CPU's software queue (ctx->lock), or takes a
 * tag of this CPU's hardware queue -- the tag names a preallocated
 * request with the driver's bytes behind it -- and goes straight to an
 * idle driver, or is staged and the hardware queue run.  With an
 * elevator, under the queue lock (the scheduler lock) it merges into a
 * waiting request or takes a tag and is staged in the elevator;
 * PREFLUSH/FUA requests go to the flush sequencer; and unless the queue
 * is plugged the hardware queue is then run (blk-mq-dispatch.c), which
 * hands requests to ops->queue_rq() with no lock held.  The driver calls
 * blk_mq_start_request() (timeout clock, blk-mq-timeout.c) and, from any
 * context, blk_mq_end_request(), which ends the bios and gives the tag
 * back -- without the queue lock for a request made without it.
 *
 * A submitter finding no free tag waits for one (process context, with
 * the hardware queues run and polled meanwhile, BLK_RQ_WAIT_MS at most);
 * in interrupt context its bio is parked and resubmitted from deferred
 * work when a tag comes back.  Locks: block/blk-mq-priv.h.
 */
#include "block/blk.h"
#include "block/blk-mq-priv.h"
#include "block/elevator.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

#define BLK_MQ_TAG_WAIT_MS	60000u	/* longest a submitter waits for a free tag, ms */

#ifdef HOST_TEST
u32 blk_mq_test_cpu;
#endif

/*
 * A free tag of hctx, waiting for one when none is (process context:
 * the hardware queues run and polled meanwhile, BLK_MQ_TAG_WAIT_MS at
 * most).  locked: the caller holds the queue lock, flags its saved
 * interrupt state, and it is dropped while waiting.  Return: the tag, or
 * -EAGAIN (interrupt context: park the bio) or -EIO (none came back in
 * time; reported).
 */
static int blk_mq_wait_tag(struct request_queue *q, struct blk_mq_hw_ctx *hctx, bool reserved,
			   bool locked, unsigned long *flags)
{
	u64 deadline = 0;
	int tag;

	while ((tag = blk_mq_get_tag(hctx->tags, reserved)) == BLK_MQ_NO_TAG) {
		if (in_interrupt())
			return -EAGAIN;
		if (!deadline) {
			deadline = ktime_ms() + BLK_MQ_TAG_WAIT_MS;
		} else if (ktime_ms() >= deadline) {
			if (!locked)
				spin_lock_irqsave(q->q_lock, *flags);
			blk_rq_fail(q, -EIO);
			if (!locked)
				spin_unlock_irqrestore(q->q_lock, *flags);
			return -EIO;
		}
		__atomic_add_fetch(&q->q_rq_waiters, 1, __ATOMIC_RELAXED);
		if (locked) {
			__blk_unplug(q);
			blk_queue_unlock(q, *flags);
		} else {
			blk_mq_run_hw_queue(hctx, false);
		}
		blk_wait_io(q);
		if (locked)
			spin_lock_irqsave(q->q_lock, *flags);
		__atomic_sub_fetch(&q->q_rq_waiters, 1, __ATOMIC_RELAXED);
	}
	return tag;
}

/* Interrupts off: tag's request, made ready for q on ctx's hardware queue. */
static struct request *blk_mq_tag_rq(struct request_queue *q, struct blk_mq_ctx *ctx, int tag)
{
	struct blk_mq_hw_ctx *hctx = ctx->hctx;
	struct request *rq = hctx->tags->static_rqs[tag];

	blk_rq_init(q, rq);
	rq->rq_tag = tag;
	rq->rq_mq_hctx = hctx;
	rq->rq_mq_ctx = ctx;
	hctx->tags->rqs[tag] = rq;
	blk_stat_tagged(q);
	blk_stat_rq_start(q, rq);
	return rq;
}

/*
 * Queue lock held: a request of this CPU's hardware queue, or
 * ERR_PTR(-EAGAIN) (interrupt context and no tag: park the bio),
 * ERR_PTR(-EIO) (no tag came back in BLK_MQ_TAG_WAIT_MS; reported).
 * *flags is the caller's saved interrupt state, restored while waiting.
 */
static struct request *blk_mq_get_request(struct request_queue *q, bool reserved,
					  unsigned long *flags)
{
	struct blk_mq_ctx *ctx = blk_mq_this_ctx(q);
	struct request *rq;
	int tag = blk_mq_wait_tag(q, ctx->hctx, reserved, true, flags);

	if (tag < 0)
		return ERR_PTR(tag);
	rq = blk_mq_tag_rq(q, ctx, tag);
	__blk_trace(q, BLK_TA_TAG, 0, 0, 0, tag);
	return rq;
}

struct request *blk_mq_alloc_request(struct request_queue *q, u32 rw, bool reserved)
{
	struct request *rq;
	unsigned long flags;

	spin_lock_irqsave(q->q_lock, flags);
	rq = blk_mq_get_request(q, reserved, &flags);
	if (!IS_ERR(rq))
		rq->rq_cmd_flags = rw;
	blk_queue_unlock(q, flags);
	return rq;
}

void blk_mq_free_request(struct request *rq)
{
	struct request_queue *q = rq->rq_q;
	unsigned long flags;

	spin_lock_irqsave(q->q_lock, flags);
	blk_rq_leave_driver(q, rq);
	blk_stat_rq_done(q, rq);
	__blk_put_request(q, rq);
	blk_queue_unlock(q, flags);
}

/*
 * rq is done with: its tag goes back.  Return: true if the hardware
 * queues should run (a restart is owed, or someone waits for a tag).
 */
static bool blk_mq_free_tag(struct request_queue *q, struct request *rq)
{
	struct blk_mq_hw_ctx *hctx = rq->rq_mq_hctx;
	u32 tag = (u32)rq->rq_tag;

	KASSERT(hctx && tag < hctx->tags->nr_tags && hctx->tags->rqs[tag] == rq);
	rq->rq_state = 0;
	hctx->tags->rqs[tag] = NULL;
	blk_mq_put_tag(hctx->tags, tag);
	__atomic_add_fetch(&hctx->nr_completed, 1, __ATOMIC_RELEASE);
	return (__atomic_load_n(&hctx->state, __ATOMIC_ACQUIRE) & BLK_MQ_S_RESTART) ||
	       __atomic_load_n(&q->q_rq_waiters, __ATOMIC_RELAXED) || READ_ONCE(q->q_mq_wait_head);
}

/* Queue lock held: rq is done with; its tag goes back (from __blk_put_request). */
void blk_mq_put_request(struct request_queue *q, struct request *rq)
{
	if (blk_mq_free_tag(q, rq))
		q->q_rerun = true;
}

/* Queue lock held: keep bio until a tag comes back (interrupt context). */
static void blk_mq_park_bio(struct request_queue *q, struct bio *bio)
{
	bio->bi_next = NULL;
	if (q->q_mq_wait_tail)
		q->q_mq_wait_tail->bi_next = bio;
	else
		q->q_mq_wait_head = bio;
	q->q_mq_wait_tail = bio;
}

/**
 * blk_mq_resubmit_parked - submit again the bios parked for want of a
 * tag.  From deferred work (blk-mq-dispatch.c), so it may wait.
 */
void blk_mq_resubmit_parked(struct request_queue *q)
{
	struct bio *bio;
	unsigned long flags;

	for (;;) {
		spin_lock_irqsave(q->q_lock, flags);
		bio = q->q_mq_wait_head;
		if (bio) {
			q->q_mq_wait_head = bio->bi_next;
			if (!q->q_mq_wait_head)
				q->q_mq_wait_tail = NULL;
			bio->bi_next = NULL;
		}
		spin_unlock_irqrestore(q->q_lock, flags);
		if (!bio)
			return;
		blk_mq_make_request(q, bio);
	}
}

/*
 * May bio take the path without the queue lock?  Only when nothing there
 * needs it: no elevator in use, no flush sequence, tracing off, no bio
 * parked for a tag (it must go first), the queue not plugged.
 */
static bool blk_mq_nolock_ok(struct request_queue *q, const struct bio *bio)
{
	return !(bio->bi_rw & REQ_FLUSH_DATA) && !blk_mq_use_elevator(q) &&
	       !READ_ONCE(q->q_trace) && !READ_ONCE(q->q_mq_wait_head) &&
	       !(READ_ONCE(q->q_flags) & QUEUE_FLAG_PLUGGED);
}

/*
 * The path of a bio with no elevator: merge into this CPU's software
 * queue (its ctx->lock), or a tag of this CPU's hardware queue (atomic),
 * then straight to an idle driver (hctx->lock) or staged on the software
 * queue and the hardware queue run.  No lock two CPUs on different
 * hardware queues share.  Return: false to take the locked path instead
 * (no tag in interrupt context: the bio is parked there).
 */
static bool blk_mq_make_request_nolock(struct request_queue *q, struct bio *bio)
{
	struct blk_mq_ctx *ctx = blk_mq_this_ctx(q);
	struct blk_mq_hw_ctx *hctx = ctx->hctx;
	struct request *rq;
	unsigned long flags;
	int tag;

	if (blk_mq_ctx_bio_merge(q, ctx, bio))
		return true;
	tag = blk_mq_wait_tag(q, hctx, false, false, &flags);
	if (tag == -EAGAIN)
		return false;
	if (tag < 0) {
		bio_endio(bio, tag);	/* reported by blk_mq_wait_tag */
		return true;
	}
	local_irq_save(flags);
	rq = blk_mq_tag_rq(q, ctx, tag);
	local_irq_restore(flags);
	rq->rq_state |= RQF_NOLOCK;
	blk_rq_bio_prep(q, rq, bio);
	if (!in_interrupt() && !blk_plug_active() && blk_mq_claim_direct(hctx, rq)) {
		blk_mq_issue_direct(hctx, rq);
		return true;
	}
	blk_mq_ctx_insert(ctx, rq);
	if (!blk_plug_hold(q, hctx))
		blk_mq_run_hw_queue(hctx, in_interrupt());
	return true;
}

/**
 * blk_mq_make_request - the make_request function of multi-queue queues:
 * bio is within the queue's limits and bounced already.  With no
 * elevator it takes the path without the queue lock (above).  Otherwise,
 * under the queue lock: merge it, or build a request on a tag and stage
 * it; then run the hardware queue unless the queue is plugged.  When the
 * queue is idle -- nothing staged, nothing on the device, no scheduler
 * that orders (noop) -- the new request skips staging and plugging and
 * goes to queue_rq() at once, as Linux's direct issue: one queue-lock
 * round instead of three, and no plug timer (nothing is there to merge
 * with).
 */
void blk_mq_make_request(struct request_queue *q, struct bio *bio)
{
	struct blk_mq_hw_ctx *hctx;
	struct blk_mq_ctx *ctx;
	struct request *rq;
	unsigned long flags;

	if (blk_mq_nolock_ok(q, bio) && blk_mq_make_request_nolock(q, bio))
		return;
	spin_lock_irqsave(q->q_lock, flags);
	ctx = blk_mq_this_ctx(q);
	if (!(bio->bi_rw & REQ_FLUSH_DATA) && blk_mq_sched_bio_merge(q, ctx, bio))
		goto out;
	if (q->q_mq_wait_head && in_interrupt()) {	/* keep the parked ones' order */
		blk_mq_park_bio(q, bio);
		goto out;
	}
	rq = blk_mq_get_request(q, false, &flags);
	if (IS_ERR(rq)) {
		if (PTR_ERR(rq) == -EAGAIN) {
			blk_mq_park_bio(q, bio);
			goto out;
		}
		blk_queue_unlock(q, flags);
		bio_endio(bio, (int)PTR_ERR(rq));	/* reported by blk_mq_get_request */
		return;
	}
	blk_rq_bio_prep(q, rq, bio);
	if (rq->rq_cmd_flags & REQ_FLUSH_DATA) {
		blk_insert_flush(rq);
		__blk_unplug(q);
		goto unlock;
	}
	hctx = rq->rq_mq_hctx;
	if (blk_mq_sched_may_bypass(q) && !blk_plug_active() && blk_mq_claim_direct(hctx, rq)) {
		/* Idle: straight to the driver, started in the claim. */
		if (hctx->started_early == rq)
			__blk_trace(q, BLK_TA_ISSUE, blk_rq_pos(rq), blk_rq_bytes(rq),
				    rq->rq_cmd_flags, rq->rq_tag);
		blk_queue_unlock(q, flags);
		blk_mq_issue_direct(hctx, rq);
		return;
	}
	if (!blk_mq_sched_queued(q))
		blk_plug_device(q);
	blk_mq_sched_insert(q, rq->rq_mq_ctx, rq);
out:
	if (blk_plug_hold(q, NULL))
		goto unlock;		/* this CPU's batch unplugs it */
	if (blk_mq_sched_queued(q) >= q->q_unplug_thresh || !(q->q_flags & QUEUE_FLAG_PLUGGED))
		__blk_unplug(q);
unlock:
	blk_queue_unlock(q, flags);
}

/*
 * End rq, made on the path without the queue lock, the same way: its
 * bios, the per-CPU counters, off the device (hctx->lock), its tag back.
 * An error is counted and traced under the queue lock (rare).  Trace
 * events of the completion itself are not written: tracing was off when
 * rq was made.
 */
static void blk_mq_end_nolock(struct request *rq, int error)
{
	struct request_queue *q = rq->rq_q;
	unsigned long flags;
	struct bio *bio;

	if (error) {
		spin_lock_irqsave(q->q_lock, flags);
		q->q_stats.st_errors++;
		__blk_trace(q, BLK_TA_ERROR, blk_rq_pos(rq), rq->rq_data_len, rq->rq_cmd_flags, error);
		spin_unlock_irqrestore(q->q_lock, flags);
	}
	local_irq_save(flags);
	blk_stat_rq_bytes(q, rq, rq->rq_data_len);
	local_irq_restore(flags);
	while ((bio = rq->rq_bio)) {
		rq->rq_bio = bio->bi_next;
		bio->bi_next = NULL;
		bio_advance(bio, bio->bi_iter.bi_size);
		bio_endio(bio, error);
	}
	rq->rq_data_len = 0;
	blk_mq_leave_driver(rq);
	local_irq_save(flags);
	blk_stat_rq_done(q, rq);
	local_irq_restore(flags);
	if (blk_mq_free_tag(q, rq))
		blk_mq_run_hw_queues(q, false);
}

/**
 * blk_mq_end_request - the device is done with rq: end its bios with
 * error (0 or a negative errno) -- or, inside a flush sequence, take it
 * to its next step -- and give its tag back.  Any context.
 */
void blk_mq_end_request(struct request *rq, int error)
{
	blk_mq_end_requests(&rq, &error, 1);
}

/**
 * blk_mq_end_requests - end n requests, rqs[i] with errs[i], as
 * blk_mq_end_request() would each, in one queue-lock round for every run
 * of consecutive requests of one queue (a driver reaping a batch of
 * completions: one round per interrupt instead of one per request).
 * Any context.
 */
void blk_mq_end_requests(struct request *const *rqs, const int *errs, u32 n)
{
	struct request_queue *q = NULL;
	unsigned long flags = 0;
	bool pending;
	u32 i;

	for (i = 0; i < n; i++) {
		if (rqs[i]->rq_state & RQF_NOLOCK) {
			if (q)
				blk_queue_unlock(q, flags);
			q = NULL;
			blk_mq_end_nolock(rqs[i], errs[i]);
			continue;
		}
		if (rqs[i]->rq_q != q) {
			if (q)
				blk_queue_unlock(q, flags);
			q = rqs[i]->rq_q;
			spin_lock_irqsave(q->q_lock, flags);
		}
		pending = __blk_end_request(rqs[i], errs[i], rqs[i]->rq_data_len);
		KASSERT(!pending);
	}
	if (q)
		blk_queue_unlock(q, flags);
}

/**
 * blk_mq_requeue_request - put a started request back at the head of its
 * hardware queue's dispatch list (the device lost it: a reset).  It keeps
 * its tag.  kick: run the hardware queue now (from deferred work).
 */
void blk_mq_requeue_request(struct request *rq, bool kick)
{
	struct request_queue *q = rq->rq_q;
	unsigned long flags;

	spin_lock_irqsave(q->q_lock, flags);
	blk_rq_leave_driver(q, rq);
	blk_mq_add_dispatch(rq, true);
	q->q_stats.st_requeues++;
	__blk_trace(q, BLK_TA_REQUEUE, blk_rq_pos(rq), blk_rq_bytes(rq), rq->rq_cmd_flags, 0);
	spin_unlock_irqrestore(q->q_lock, flags);
	if (kick)
		blk_mq_run_hw_queue(rq->rq_mq_hctx, true);
}

/* The flush command takes owner's tag while owner waits for it (owner is not on the device). */
void blk_mq_flush_borrow_tag(struct request *f, struct request *owner)
{
	f->rq_tag = owner->rq_tag;
	f->rq_mq_hctx = owner->rq_mq_hctx;
	f->rq_mq_ctx = owner->rq_mq_ctx;
	f->rq_mq_hctx->tags->rqs[f->rq_tag] = f;
}

/* The flush ended: its tag names its owner again. */
void blk_mq_flush_return_tag(struct request *f)
{
	struct blk_mq_tags *tags = f->rq_mq_hctx->tags;

	tags->rqs[f->rq_tag] = tags->static_rqs[f->rq_tag];
}
