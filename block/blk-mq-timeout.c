/*
 * blk-mq: requests on the device -- started, timed, leaving it -- and
 * their timeouts.
 *
 * While a multi-queue request is on the device its state (RQF_STARTED,
 * RQF_TIMED, RQF_TIMING_OUT), its place on the timeout list and the
 * count of requests the device holds belong to its hardware queue, under
 * hctx->lock, not to the queue lock: CPUs that submit and complete on
 * different hardware queues share nothing here.  The queue lock, when a
 * path holds it, is taken first (block/blk-mq-priv.h).  Trace events are
 * written under the queue lock, so a path that holds only hctx->lock
 * writes them after it lets go, and only when tracing is on.
 *
 * Timeouts: every started request carries a deadline and sits on its
 * hctx's list; one timer per queue, armed by a start that finds it idle,
 * only schedules deferred work.  The work takes the requests past their
 * deadline off the lists (marking them RQF_TIMING_OUT), re-arms the timer
 * for the earliest left, and hands each to ops->timeout with no lock
 * held (no hook: the clock restarts, since the driver still holds the
 * request).  A completion that races with it clears the mark, and the
 * work then leaves the request alone.
 */
#include "block/blk.h"
#include "block/blk-mq-priv.h"
#include "kernel/errno.h"
#include "kernel/time.h"

#define BLK_MQ_TIMEOUT_BATCH	32u	/* expired requests handled per pass */

/* hctx->lock held: start rq's clock, arming the queue's timer if it is idle. */
static void __blk_mq_add_timer(struct blk_mq_hw_ctx *hctx, struct request *rq)
{
	struct request_queue *q = hctx->queue;

	rq->rq_state |= RQF_TIMED;
	rq->rq_deadline = get_jiffies_64() + msecs_to_jiffies(q->q_rq_timeout_ms);
	list_add_tail(&rq->rq_timeout_list, &hctx->timeout_list);
	if (!timer_pending(&q->q_timeout_timer))
		mod_timer(&q->q_timeout_timer, rq->rq_deadline);
}

/* hctx->lock held: rq is on the device from now on (its clock runs). */
static void __blk_mq_start_request(struct blk_mq_hw_ctx *hctx, struct request *rq)
{
	struct request_queue *q = hctx->queue;

	KASSERT(!(rq->rq_state & RQF_STARTED));
	rq->rq_state |= RQF_STARTED;
	hctx->nr_in_driver++;
	__blk_mq_add_timer(hctx, rq);
	if (blk_queue_polled(q) && !timer_pending(&q->q_mq_poll_timer))
		mod_timer(&q->q_mq_poll_timer, get_jiffies_64() + 1);
}

/* No lock held: trace the issue of rq, or of each on list, if tracing is on. */
static void blk_mq_trace_issue(struct request_queue *q, struct request *rq, struct list_head *list)
{
	unsigned long flags;

	if (likely(!READ_ONCE(q->q_trace)))
		return;
	spin_lock_irqsave(q->q_lock, flags);
	if (rq)
		__blk_trace(q, BLK_TA_ISSUE, blk_rq_pos(rq), blk_rq_bytes(rq), rq->rq_cmd_flags,
			    rq->rq_tag);
	if (list)
		list_for_each_entry(rq, list, rq_queuelist)
			__blk_trace(q, BLK_TA_ISSUE, blk_rq_pos(rq), blk_rq_bytes(rq),
				    rq->rq_cmd_flags, rq->rq_tag);
	spin_unlock_irqrestore(q->q_lock, flags);
}

/**
 * blk_mq_claim_direct - may rq, new, go straight to hctx's driver?  Yes
 * when the device holds none of hctx's requests, none wait on its
 * dispatch list and no dispatch runs; then hctx is claimed (RUNNING) for
 * blk_mq_issue_direct() and, unless queue_rq may sleep, rq is started in
 * this same lock round (hctx->started_early; not traced: the caller
 * does that).  Any lock but hctx's may be held.
 */
bool blk_mq_claim_direct(struct blk_mq_hw_ctx *hctx, struct request *rq)
{
	unsigned long flags;
	bool ok;

	spin_lock_irqsave(&hctx->lock, flags);
	ok = !hctx->nr_in_driver && list_empty(&hctx->dispatch) &&
	     !(hctx->state & (BLK_MQ_S_STOPPED | BLK_MQ_S_RUNNING));
	if (ok) {
		hctx->state = (hctx->state | BLK_MQ_S_RUNNING) & ~BLK_MQ_S_RESTART;
		hctx->run++;
		if (!(hctx->queue->q_tag_set->flags & BLK_MQ_F_BLOCKING)) {
			__blk_mq_start_request(hctx, rq);
			hctx->started_early = rq;
		}
	}
	spin_unlock_irqrestore(&hctx->lock, flags);
	return ok;
}

/**
 * blk_mq_start_request - the driver has rq: its timeout starts.
 * Call from queue_rq() before the device can complete it.  On a polled
 * queue it also starts the poll tick: waiters that do not poll themselves
 * (the buffer cache, filesystems) still see their I/O end, a tick later.
 * A request issued directly or in a batch (blk_mq_start_batch) was
 * started by the core already: then this costs nothing.
 */
void blk_mq_start_request(struct request *rq)
{
	struct blk_mq_hw_ctx *hctx = rq->rq_mq_hctx;
	unsigned long flags;

	if (hctx->started_early == rq) {
		hctx->started_early = NULL;
		return;
	}
	spin_lock_irqsave(&hctx->lock, flags);
	__blk_mq_start_request(hctx, rq);
	spin_unlock_irqrestore(&hctx->lock, flags);
	blk_mq_trace_issue(rq->rq_q, rq, NULL);
}

/**
 * blk_mq_start_batch - start every request of list (hctx's, about to be
 * handed to the driver in order) in one lock round; the driver's own
 * blk_mq_start_request() for each then costs nothing.  No lock held.
 */
void blk_mq_start_batch(struct blk_mq_hw_ctx *hctx, struct list_head *list)
{
	struct request *rq;
	unsigned long flags;

	spin_lock_irqsave(&hctx->lock, flags);
	list_for_each_entry(rq, list, rq_queuelist)
		__blk_mq_start_request(hctx, rq);
	spin_unlock_irqrestore(&hctx->lock, flags);
	blk_mq_trace_issue(hctx->queue, NULL, list);
}

/* hctx->lock held: rq is off the device, its clock stopped. */
static void __blk_mq_leave_driver(struct blk_mq_hw_ctx *hctx, struct request *rq)
{
	if (rq->rq_state & RQF_TIMED)
		list_del_init(&rq->rq_timeout_list);
	if (rq->rq_state & RQF_STARTED)
		hctx->nr_in_driver--;
	rq->rq_state &= ~(RQF_STARTED | RQF_TIMED | RQF_TIMING_OUT);
}

/* rq leaves the driver (ended, requeued, or never issued).  Any lock but hctx's. */
void blk_mq_leave_driver(struct request *rq)
{
	struct blk_mq_hw_ctx *hctx = rq->rq_mq_hctx;
	unsigned long flags;

	spin_lock_irqsave(&hctx->lock, flags);
	__blk_mq_leave_driver(hctx, rq);
	spin_unlock_irqrestore(&hctx->lock, flags);
}

/*
 * Requests the core started (a batch, or a direct issue) that the driver
 * did not take: rq (may be NULL) and those on list go back to waiting.
 */
void blk_mq_unstart(struct blk_mq_hw_ctx *hctx, struct request *rq, struct list_head *list)
{
	struct request *r;
	unsigned long flags;

	spin_lock_irqsave(&hctx->lock, flags);
	if (rq)
		__blk_mq_leave_driver(hctx, rq);
	list_for_each_entry(r, list, rq_queuelist)
		__blk_mq_leave_driver(hctx, r);
	spin_unlock_irqrestore(&hctx->lock, flags);
}

/* Requests of q the device holds: a snapshot. */
u32 blk_mq_in_driver(const struct request_queue *q)
{
	u32 i, n = 0;

	for (i = 0; i < q->q_nr_hw_queues; i++)
		n += READ_ONCE(q->q_hctx[i]->nr_in_driver);
	return n;
}

/* The timeout timer fired (interrupt context): the work does the rest. */
void blk_mq_timeout_timer(struct timer_list *t)
{
	struct request_queue *q = container_of(t, struct request_queue, q_timeout_timer);

	schedule_work(&q->q_mq_timeout_work);
}

/*
 * Take up to max expired requests of hctx off its list into out, marked
 * RQF_TIMING_OUT; *next: the earliest deadline left.  Return: how many.
 */
static u32 blk_mq_collect_expired(struct blk_mq_hw_ctx *hctx, struct request **out, u32 max,
				  u64 *next)
{
	u64 now = get_jiffies_64();
	struct request *rq, *n;
	unsigned long flags;
	u32 nr = 0;

	spin_lock_irqsave(&hctx->lock, flags);
	list_for_each_entry_safe(rq, n, &hctx->timeout_list, rq_timeout_list) {
		if (rq->rq_deadline > now || nr == max) {
			*next = min(*next, rq->rq_deadline);
			continue;
		}
		list_del_init(&rq->rq_timeout_list);
		rq->rq_state = (rq->rq_state & ~RQF_TIMED) | RQF_TIMING_OUT;
		out[nr++] = rq;
	}
	spin_unlock_irqrestore(&hctx->lock, flags);
	return nr;
}

/* Count and trace the expired requests of out[0..nr). */
static void blk_mq_account_expired(struct request_queue *q, struct request *const *out, u32 nr)
{
	unsigned long flags;
	u32 i;

	spin_lock_irqsave(q->q_lock, flags);
	for (i = 0; i < nr; i++) {
		q->q_stats.st_timeouts++;
		__blk_trace(q, BLK_TA_TIMEOUT, blk_rq_pos(out[i]), blk_rq_bytes(out[i]),
			    out[i]->rq_cmd_flags, (s32)out[i]->rq_retries);
	}
	spin_unlock_irqrestore(q->q_lock, flags);
}

/* rq still timing out (no completion came meanwhile)?  Then it stays the caller's. */
static bool blk_mq_still_timing_out(struct request *rq)
{
	struct blk_mq_hw_ctx *hctx = rq->rq_mq_hctx;
	unsigned long flags;
	bool still;

	spin_lock_irqsave(&hctx->lock, flags);
	still = (rq->rq_state & RQF_TIMING_OUT) != 0;
	spin_unlock_irqrestore(&hctx->lock, flags);
	return still;
}

/* The driver wants more time for rq: its clock starts again. */
static void blk_mq_restart_clock(struct request *rq)
{
	struct blk_mq_hw_ctx *hctx = rq->rq_mq_hctx;
	unsigned long flags;

	spin_lock_irqsave(&hctx->lock, flags);
	if (rq->rq_state & RQF_TIMING_OUT) {
		rq->rq_state &= ~RQF_TIMING_OUT;
		__blk_mq_add_timer(hctx, rq);
	}
	spin_unlock_irqrestore(&hctx->lock, flags);
}

/* One expired request: ask the driver (no lock held), then do what it says. */
static void blk_mq_rq_timed_out(struct request_queue *q, struct request *rq)
{
	enum blk_eh_timer_return ret;

	if (!blk_mq_still_timing_out(rq))
		return;
	/* Without a hook the driver still holds rq: failing it would end it twice. */
	ret = q->q_mq_ops->timeout ? q->q_mq_ops->timeout(rq) : BLK_EH_RESET_TIMER;
	switch (ret) {
	case BLK_EH_RETRY:
		if (++rq->rq_retries <= q->q_max_retries) {
			blk_mq_requeue_request(rq, true);
			break;
		}
		blk_mq_end_request(rq, -EIO);
		break;
	case BLK_EH_RESET_TIMER:
		blk_mq_restart_clock(rq);
		break;
	case BLK_EH_FAIL:
		blk_mq_end_request(rq, -EIO);
		break;
	case BLK_EH_HANDLED:
		break;
	}
}

/* Deferred work: handle every request of the queue past its deadline. */
void blk_mq_timeout_work(struct work *w)
{
	struct request_queue *q = container_of(w, struct request_queue, q_mq_timeout_work);
	struct request *expired[BLK_MQ_TIMEOUT_BATCH];
	u64 next = ~0ULL;
	u32 nr, h, i;

	for (h = 0; h < q->q_nr_hw_queues; h++) {
		do {
			nr = blk_mq_collect_expired(q->q_hctx[h], expired, BLK_MQ_TIMEOUT_BATCH, &next);
			if (nr)
				blk_mq_account_expired(q, expired, nr);
			for (i = 0; i < nr; i++)
				blk_mq_rq_timed_out(q, expired[i]);
		} while (nr == BLK_MQ_TIMEOUT_BATCH);
	}
	if (next != ~0ULL)
		mod_timer(&q->q_timeout_timer, next);
}
