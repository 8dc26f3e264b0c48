/*
 * Per-request timeouts.  A started request is on its queue's timeout list
 * with a deadline in jiffies; one timer per queue fires at the earliest.
 * A request past its deadline goes to the driver's timed_out hook, which
 * says: retry (the driver reset the device; the request is requeued, at
 * most q_max_retries times, then failed with -EIO), give it more time,
 * fail it, or "I ended it myself".  Without a hook it fails with -EIO.
 *
 * Everything runs under the queue lock; the timer function takes it.
 */
#include "block/blk.h"
#include "kernel/errno.h"
#include "kernel/time.h"

static void blk_rq_timed_out_timer(struct timer_list *t);

void blk_timeout_init(struct request_queue *q)
{
	INIT_LIST_HEAD(&q->q_timeout_list);
	timer_setup(&q->q_timeout_timer, blk_rq_timed_out_timer);
}

/* Start rq's clock.  Queue lock held. */
void blk_add_timer(struct request *rq)
{
	struct request_queue *q = rq->rq_q;

	rq->rq_deadline = get_jiffies_64() + msecs_to_jiffies(q->q_rq_timeout_ms);
	list_add_tail(&rq->rq_timeout_list, &q->q_timeout_list);
	rq->rq_state |= RQF_TIMED;
	if (!timer_pending(&q->q_timeout_timer))
		mod_timer(&q->q_timeout_timer, rq->rq_deadline);
}

/* Stop rq's clock.  Queue lock held. */
void blk_delete_timer(struct request *rq)
{
	if (!(rq->rq_state & RQF_TIMED))
		return;
	list_del_init(&rq->rq_timeout_list);
	rq->rq_state &= ~RQF_TIMED;
}

static void blk_rq_timed_out(struct request_queue *q, struct request *rq)
{
	enum blk_eh_timer_return ret;

	q->q_stats.st_timeouts++;
	__blk_trace(q, BLK_TA_TIMEOUT, blk_rq_pos(rq), blk_rq_bytes(rq), rq->rq_cmd_flags,
		    (s32)rq->rq_retries);
	blk_delete_timer(rq);
	ret = q->q_rq_timed_out_fn ? q->q_rq_timed_out_fn(rq) : BLK_EH_FAIL;
	switch (ret) {
	case BLK_EH_RETRY:
		if (++rq->rq_retries <= q->q_max_retries) {
			blk_requeue_request(q, rq);
			break;
		}
		__blk_end_request_all(rq, -EIO);
		break;
	case BLK_EH_RESET_TIMER:
		blk_add_timer(rq);
		break;
	case BLK_EH_FAIL:
		__blk_end_request_all(rq, -EIO);
		break;
	case BLK_EH_HANDLED:
		break;
	}
}

/*
 * Handle every request past its deadline and re-arm for the next one.
 * Each handled request leaves the list first, so a hook that ends or
 * requeues others cannot trip the walk.  Queue lock held.
 */
void blk_timeout_check(struct request_queue *q)
{
	u64 now = get_jiffies_64(), next;
	struct request *rq, *expired;
	bool requeued = false;

	assert_spin_locked(q->q_lock);
	for (;;) {
		expired = NULL;
		next = ~0ULL;
		list_for_each_entry(rq, &q->q_timeout_list, rq_timeout_list) {
			if (rq->rq_deadline <= now) {
				expired = rq;
				break;
			}
			next = min(next, rq->rq_deadline);
		}
		if (!expired)
			break;
		blk_rq_timed_out(q, expired);
		requeued = true;
	}
	if (next != ~0ULL)
		mod_timer(&q->q_timeout_timer, next);
	if (requeued)
		__blk_run_queue(q);
}

static void blk_rq_timed_out_timer(struct timer_list *t)
{
	struct request_queue *q = container_of(t, struct request_queue, q_timeout_timer);
	unsigned long flags;

	spin_lock_irqsave(q->q_lock, flags);
	blk_timeout_check(q);
	spin_unlock_irqrestore(q->q_lock, flags);
}
