/*
 * blk-mq hardware queues: running them (the dispatch loop that calls
 * ops->queue_rq), BUSY and restart, stopping and quiescing, polling,
 * iterating over started requests.
 *
 * A run takes requests from the hardware queue's dispatch list, refilled
 * from the software queues or the elevator (blk-mq-sched.c), and issues
 * them one by one with no lock held, telling the driver whether another
 * follows at once (bd.last).  A run is never re-entered: one asked for
 * while the queue runs (a completion inside queue_rq, an interrupt) makes
 * the running one loop again.  In interrupt context a run is deferred to
 * deferred work (kernel/work.h), so queue_rq always runs with interrupts
 * on.  BUSY puts the request back at the head and marks the queue
 * RESTART: the next completion of that queue runs it again; a completion
 * that slipped in between the BUSY answer and the mark is caught by the
 * hctx's completion count.  Polled queues get a poll from deferred work
 * every tick while the device holds requests.
 */
#include "block/blk.h"
#include "block/blk-mq-priv.h"
#include "kernel/completion.h"
#include "kernel/cpu.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/time.h"

#define BLK_MQ_QUIESCE_MS	30000u	/* longest wait for a running dispatch to end, ms */

/* Put rq on its hardware queue's dispatch list.  Any context, any lock but hctx's. */
void blk_mq_add_dispatch(struct request *rq, bool at_head)
{
	struct blk_mq_hw_ctx *hctx = rq->rq_mq_hctx;
	unsigned long flags;

	spin_lock_irqsave(&hctx->lock, flags);
	if (at_head)
		list_add(&rq->rq_queuelist, &hctx->dispatch);
	else
		list_add_tail(&rq->rq_queuelist, &hctx->dispatch);
	spin_unlock_irqrestore(&hctx->lock, flags);
}

/* BUSY: rq goes back at the head.  Return true if a completion already freed room. */
static bool blk_mq_busy(struct blk_mq_hw_ctx *hctx, struct request *rq, u32 seen)
{
	unsigned long flags;
	bool again;

	spin_lock_irqsave(&hctx->lock, flags);
	list_add(&rq->rq_queuelist, &hctx->dispatch);
	hctx->busy++;
	hctx->state |= BLK_MQ_S_RESTART;
	again = __atomic_load_n(&hctx->nr_completed, __ATOMIC_ACQUIRE) != seen;
	if (again)
		hctx->state &= ~BLK_MQ_S_RESTART;
	spin_unlock_irqrestore(&hctx->lock, flags);
	return again;
}

/*
 * Refill list from hctx's dispatch list, after moving what waits in the
 * software queues or the elevator there if it is empty: one hctx lock
 * round for a whole batch.  Return: false when nothing is left to issue.
 */
static bool blk_mq_take_batch(struct blk_mq_hw_ctx *hctx, struct list_head *list)
{
	unsigned long flags;
	bool refilled = false;

	for (;;) {
		spin_lock_irqsave(&hctx->lock, flags);
		list_splice_tail_init(&hctx->dispatch, list);
		spin_unlock_irqrestore(&hctx->lock, flags);
		if (!list_empty(list))
			return true;
		if (refilled || !blk_mq_sched_fill(hctx))
			return false;
		refilled = true;
	}
}

/* Put back at the head of the dispatch list what a batch did not issue. */
static void blk_mq_return_batch(struct blk_mq_hw_ctx *hctx, struct list_head *list)
{
	unsigned long flags;

	if (list_empty(list))
		return;
	spin_lock_irqsave(&hctx->lock, flags);
	list_splice_tail_init(&hctx->dispatch, list);	/* list goes in front */
	list_splice_tail_init(list, &hctx->dispatch);
	spin_unlock_irqrestore(&hctx->lock, flags);
}

/*
 * Hand rq to the driver; early: the core started it already (then so are
 * those on list).  Return: 1 issued, 0 ended with an error (or busy, but
 * room came back meanwhile: carry on), -1 busy (stop).  A busy request
 * goes back, not started, to the head of the dispatch list, list after it.
 */
static int blk_mq_issue_one(struct blk_mq_hw_ctx *hctx, struct request *rq, bool last,
			    bool early, struct list_head *list)
{
	struct blk_mq_queue_data bd = { .rq = rq, .last = last };
	u32 seen = __atomic_load_n(&hctx->nr_completed, __ATOMIC_ACQUIRE);
	int ret;

	if (early)
		hctx->started_early = rq;
	ret = hctx->queue->q_mq_ops->queue_rq(hctx, &bd);
	hctx->started_early = NULL;
	if (ret == BLK_MQ_RQ_OK)
		return 1;
	if (ret == BLK_MQ_RQ_BUSY) {
		if (early)
			blk_mq_unstart(hctx, rq, list);
		blk_mq_return_batch(hctx, list);
		return blk_mq_busy(hctx, rq, seen) ? 0 : -1;
	}
	blk_mq_end_request(rq, ret < 0 ? ret : -EIO);	/* unstarts it too */
	return 0;
}

/*
 * Issue requests until none is left, the driver is busy, or the queue
 * stops.  Each batch taken is started in one queue-lock round, unless
 * queue_rq may sleep (deferred work, timeouts among it, could then run
 * while requests are started but not yet on the device).
 */
static u32 blk_mq_dispatch(struct blk_mq_hw_ctx *hctx)
{
	struct request_queue *q = hctx->queue;
	const struct blk_mq_ops *ops = q->q_mq_ops;
	bool early = !(q->q_tag_set->flags & BLK_MQ_F_BLOCKING);
	bool uncommitted = false, last;
	LIST_HEAD(list);
	struct request *rq;
	u32 issued = 0;
	int ret;

	while (!(__atomic_load_n(&hctx->state, __ATOMIC_ACQUIRE) & BLK_MQ_S_STOPPED)) {
		if (list_empty(&list)) {
			if (!blk_mq_take_batch(hctx, &list))
				break;
			if (early)
				blk_mq_start_batch(hctx, &list);
		}
		rq = list_first_entry(&list, struct request, rq_queuelist);
		list_del_init(&rq->rq_queuelist);
		/* The end of this batch: what completions add meanwhile is the next one. */
		last = list_empty(&list);
		ret = blk_mq_issue_one(hctx, rq, last, early, &list);
		if (ret < 0)
			break;
		if (ret > 0) {
			issued++;
			uncommitted = !last;
		}
	}
	if (!list_empty(&list)) {	/* stopped with some in hand */
		if (early)
			blk_mq_unstart(hctx, NULL, &list);
		blk_mq_return_batch(hctx, &list);
	}
	if (uncommitted && ops->commit_rqs)
		ops->commit_rqs(hctx);
	return issued;
}

/*
 * hctx is ours (RUNNING) and its lock held (flags saved): dispatch until
 * no run is owed, then let hctx go and unlock.
 */
static void blk_mq_run_locked(struct blk_mq_hw_ctx *hctx, unsigned long flags, u32 issued)
{
	while ((hctx->state & (BLK_MQ_S_RERUN | BLK_MQ_S_STOPPED)) == BLK_MQ_S_RERUN) {
		hctx->state &= ~BLK_MQ_S_RERUN;
		spin_unlock_irqrestore(&hctx->lock, flags);
		issued += blk_mq_dispatch(hctx);
		spin_lock_irqsave(&hctx->lock, flags);
	}
	hctx->state &= ~BLK_MQ_S_RUNNING;
	hctx->queued += issued;
	spin_unlock_irqrestore(&hctx->lock, flags);
}

/**
 * blk_mq_issue_direct - issue rq on hctx, claimed by blk_mq_claim_direct()
 * (no lock held); then run whatever was asked for meanwhile and release
 * hctx.  A busy driver leaves rq at the head of the dispatch list.
 */
void blk_mq_issue_direct(struct blk_mq_hw_ctx *hctx, struct request *rq)
{
	LIST_HEAD(none);
	unsigned long flags;
	int ret;

	ret = blk_mq_issue_one(hctx, rq, true, hctx->started_early == rq, &none);
	spin_lock_irqsave(&hctx->lock, flags);
	if (ret == 0)			/* room came back, or rq ended: look again */
		hctx->state |= BLK_MQ_S_RERUN;
	blk_mq_run_locked(hctx, flags, ret > 0);
}

/**
 * blk_mq_run_hw_queue - issue what hctx has to issue.  async, or an
 * interrupt context, defers the run to deferred work.  A stopped queue
 * does not run; a running one runs once more.
 */
void blk_mq_run_hw_queue(struct blk_mq_hw_ctx *hctx, bool async)
{
	unsigned long flags;

	if (async || in_interrupt()) {
		if (!(__atomic_load_n(&hctx->state, __ATOMIC_ACQUIRE) & BLK_MQ_S_STOPPED))
			schedule_work(&hctx->run_work);
		return;
	}
	spin_lock_irqsave(&hctx->lock, flags);
	if (hctx->state & BLK_MQ_S_STOPPED)
		goto unlock;
	if (hctx->state & BLK_MQ_S_RUNNING) {
		hctx->state |= BLK_MQ_S_RERUN;
		goto unlock;
	}
	hctx->state = (hctx->state | BLK_MQ_S_RUNNING | BLK_MQ_S_RERUN) & ~BLK_MQ_S_RESTART;
	hctx->run++;
	blk_mq_run_locked(hctx, flags, 0);
	return;
unlock:
	spin_unlock_irqrestore(&hctx->lock, flags);
}

/* Deferred work: bios parked for want of a tag, then the run itself. */
void blk_mq_run_work_fn(struct work *w)
{
	struct blk_mq_hw_ctx *hctx = container_of(w, struct blk_mq_hw_ctx, run_work);

	if (READ_ONCE(hctx->queue->q_mq_wait_head))
		blk_mq_resubmit_parked(hctx->queue);
	blk_mq_run_hw_queue(hctx, false);
}

void blk_mq_run_hw_queues(struct request_queue *q, bool async)
{
	bool parked = READ_ONCE(q->q_mq_wait_head) != NULL;	/* resubmitted by run_work */
	u32 i;

	for (i = 0; i < q->q_nr_hw_queues; i++)
		if (async || parked || blk_mq_hctx_has_work(q->q_hctx[i]))
			blk_mq_run_hw_queue(q->q_hctx[i], async || parked);
}

void blk_mq_stop_hw_queues(struct request_queue *q)
{
	unsigned long flags;
	u32 i;

	for (i = 0; i < q->q_nr_hw_queues; i++) {
		spin_lock_irqsave(&q->q_hctx[i]->lock, flags);
		q->q_hctx[i]->state |= BLK_MQ_S_STOPPED;
		spin_unlock_irqrestore(&q->q_hctx[i]->lock, flags);
	}
}

void blk_mq_start_hw_queues(struct request_queue *q)
{
	unsigned long flags;
	u32 i;

	for (i = 0; i < q->q_nr_hw_queues; i++) {
		spin_lock_irqsave(&q->q_hctx[i]->lock, flags);
		q->q_hctx[i]->state &= ~BLK_MQ_S_STOPPED;
		spin_unlock_irqrestore(&q->q_hctx[i]->lock, flags);
	}
	blk_mq_run_hw_queues(q, in_interrupt());
}

/*
 * Wait until no dispatch loop of q runs.  With one CPU and runs from
 * interrupt context deferred, none can be running under a process-context
 * caller; the bounded wait is for SMP.
 */
void blk_mq_quiesce_queue(struct request_queue *q)
{
	u64 deadline = ktime_ms() + BLK_MQ_QUIESCE_MS;
	u32 i;

	for (i = 0; i < q->q_nr_hw_queues; i++)
		while ((__atomic_load_n(&q->q_hctx[i]->state, __ATOMIC_ACQUIRE) & BLK_MQ_S_RUNNING) &&
		       ktime_ms() < deadline)
			cpu_idle_once();
}

void blk_mq_tagset_busy_iter(struct blk_mq_tag_set *set,
			     bool (*fn)(struct request *rq, void *data), void *data)
{
	struct blk_mq_tags *tags;
	struct request *rq;
	u32 i, t;

	for (i = 0; i < set->nr_hw_queues; i++) {
		tags = set->tags[i];
		for (t = 0; t < tags->nr_tags; t++) {
			rq = READ_ONCE(tags->rqs[t]);
			if (rq && (READ_ONCE(rq->rq_state) & RQF_STARTED) && !fn(rq, data))
				return;
		}
	}
}

int blk_mq_poll(struct blk_mq_hw_ctx *hctx)
{
	const struct blk_mq_ops *ops = hctx->queue->q_mq_ops;

	return ops->poll ? ops->poll(hctx) : 0;
}

bool blk_queue_polled(const struct request_queue *q)
{
	return queue_is_mq(q) && (q->q_tag_set->flags & BLK_MQ_F_POLLED);
}

int blk_poll(struct request_queue *q)
{
	int n = 0;
	u32 i;

	if (!blk_queue_polled(q))
		return 0;
	for (i = 0; i < q->q_nr_hw_queues; i++)
		n += blk_mq_poll(q->q_hctx[i]);
	return n;
}

void blk_wait_io(struct request_queue *q)
{
	if (!blk_queue_polled(q)) {
		cpu_idle_once();
	} else if (!blk_poll(q)) {
		run_deferred_work();	/* what a completion queued */
		cpu_relax();
	}
}

/* The poll tick of a polled queue (interrupt context): poll from deferred work. */
void blk_mq_poll_timer(struct timer_list *t)
{
	schedule_work(&container_of(t, struct request_queue, q_mq_poll_timer)->q_mq_poll_work);
}

/* Reap what the device finished; tick again while it holds requests. */
void blk_mq_poll_work(struct work *w)
{
	struct request_queue *q = container_of(w, struct request_queue, q_mq_poll_work);

	/* A start that finds the timer idle arms it: nothing is missed unlocked. */
	blk_poll(q);
	if (blk_mq_in_driver(q) && !timer_pending(&q->q_mq_poll_timer))
		mod_timer(&q->q_mq_poll_timer, get_jiffies_64() + 1);
}
