/*
 * Running and plugging a request queue (block core).
 *
 * Running: __blk_run_queue() calls the driver's request_fn, with the
 * queue lock held, whenever requests may be pulled; it is never
 * re-entered (a run asked for from inside request_fn is folded into the
 * one in progress).
 *
 * Plugging: a queue that receives I/O while idle is plugged, holding
 * requests back so that the ones behind can merge with them.  It is
 * unplugged when BLK_UNPLUG_THRESH requests wait, by the unplug timer
 * after q_unplug_delay_ms, or by an explicit blk_unplug() from whoever is
 * about to sleep on I/O (the rule in block/blkdev.h; submit_bio_wait
 * and the buffer cache do it).  Flush sequences unplug at once.
 *
 * Batches (blkdev.h): each CPU's current struct blk_plug, on its
 * submitter's stack, remembers which queues and hardware queues it holds
 * back; the finish, or the CPU going idle, runs each of them once.
 *
 * Draining: blk_drain_queue() unplugs and waits, bounded, until nothing
 * is queued or in the driver (queue teardown, elevator switch).
 *
 * Locking: q->q_lock for the queue's plug; blk_unplug() and
 * blk_run_queue() take it themselves.  A CPU's batch is its own: only
 * that CPU, outside interrupts, looks at it, so it needs no lock.
 */
#include "block/blk.h"
#include "block/blk-mq-priv.h"
#include "block/elevator.h"
#include "kernel/completion.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/irq.h"
#include "kernel/time.h"
#include "lib/string.h"

/* Queue lock held: may request_fn be called now? */
bool blk_queue_runnable(const struct request_queue *q)
{
	return q->q_request_fn && !(q->q_flags & (QUEUE_FLAG_STOPPED | QUEUE_FLAG_PLUGGED));
}

/**
 * __blk_run_queue - let the driver pull requests, if it may.
 * Not re-entered: a run requested from inside request_fn is folded into
 * the one in progress.  Queue lock held.
 */
void __blk_run_queue(struct request_queue *q)
{
	assert_spin_locked(q->q_lock);
	if (queue_is_mq(q)) {
		if (!(q->q_flags & QUEUE_FLAG_PLUGGED))
			q->q_rerun = true;	/* at blk_queue_unlock(): no lock in queue_rq */
		return;
	}
	if (!blk_queue_runnable(q))
		return;
	if (q->q_running) {
		q->q_rerun = true;
		return;
	}
	q->q_running = true;
	do {
		q->q_rerun = false;
		q->q_request_fn(q);
	} while (q->q_rerun && blk_queue_runnable(q));
	q->q_running = false;
}

void blk_run_queue(struct request_queue *q)
{
	unsigned long flags;

	spin_lock_irqsave(q->q_lock, flags);
	__blk_run_queue(q);
	blk_queue_unlock(q, flags);
}

void blk_queue_unlock(struct request_queue *q, unsigned long flags)
{
	bool run = false;

	if (queue_is_mq(q)) {
		run = q->q_rerun;
		q->q_rerun = false;
	}
	spin_unlock_irqrestore(q->q_lock, flags);
	if (run)
		blk_mq_run_hw_queues(q, false);
}

/* Queue lock held: hold I/O back, until blk_unplug() or the timer. */
void blk_plug_device(struct request_queue *q)
{
	if (q->q_flags & (QUEUE_FLAG_PLUGGED | QUEUE_FLAG_NOPLUG | QUEUE_FLAG_STOPPED))
		return;
	q->q_flags |= QUEUE_FLAG_PLUGGED;
	mod_timer(&q->q_unplug_timer, get_jiffies_64() + msecs_to_jiffies(q->q_unplug_delay_ms) + 1);
	__blk_trace(q, BLK_TA_PLUG, 0, 0, 0, 0);
}

/* Queue lock held: stop holding I/O back and run the driver. */
void __blk_unplug(struct request_queue *q)
{
	assert_spin_locked(q->q_lock);
	if (q->q_flags & QUEUE_FLAG_PLUGGED) {
		q->q_flags &= ~QUEUE_FLAG_PLUGGED;
		del_timer(&q->q_unplug_timer);
		__blk_trace(q, BLK_TA_UNPLUG, 0, 0, 0, (s32)q->q_in_elevator);
	}
	__blk_run_queue(q);
}

/*
 * Release a plugged queue now: the end of a batch of submissions, and
 * what whoever is about to sleep on I/O must call first (blkdev.h).
 */
void blk_unplug(struct request_queue *q)
{
	unsigned long flags;

	if (queue_is_mq(q) && !blk_mq_unplug_needed(q))
		return;		/* idle: the common case of a waiter at depth 1 */
	spin_lock_irqsave(q->q_lock, flags);
	__blk_unplug(q);
	blk_queue_unlock(q, flags);
}

#ifdef HOST_TEST
#define BLK_PLUG_CPUS	BLK_MQ_NR_CPUS
#else
#define BLK_PLUG_CPUS	NR_CPUS
#endif

static struct blk_plug *cpu_plug[BLK_PLUG_CPUS];	/* each CPU's batch, or NULL */

/* This CPU's batch; NULL in interrupt context, where there is none. */
static struct blk_plug *this_plug(void)
{
	return in_interrupt() ? NULL : cpu_plug[blk_mq_this_cpu()];
}

void blk_start_plug(struct blk_plug *plug)
{
	memset(plug, 0, sizeof(*plug));
	if (!in_interrupt() && !this_plug())
		cpu_plug[blk_mq_this_cpu()] = plug;
}

void blk_finish_plug(struct blk_plug *plug)
{
	if (this_plug() != plug)
		return;			/* joined an outer batch, which ends it */
	blk_flush_plug();
	cpu_plug[blk_mq_this_cpu()] = NULL;
}

/* Let go of what this CPU's batch holds; the batch goes on, empty. */
void blk_flush_plug(void)
{
	struct blk_plug *plug = this_plug(), held;
	u32 i;

	if (!plug || !plug->bp_nq)
		return;
	held = *plug;		/* a run may submit again: into an empty batch */
	plug->bp_count = plug->bp_nq = 0;
	for (i = 0; i < held.bp_nq; i++) {
		if (held.bp_hctx[i])
			blk_mq_run_hw_queue(held.bp_hctx[i], false);
		else
			blk_unplug(held.bp_q[i]);
	}
}

bool blk_plug_active(void)
{
	return this_plug() != NULL;
}

bool blk_plug_hold(struct request_queue *q, struct blk_mq_hw_ctx *hctx)
{
	struct blk_plug *plug = this_plug();
	u32 i;

	if (!plug || plug->bp_count >= BLK_PLUG_MAX ||
	    (!hctx && !(q->q_flags & QUEUE_FLAG_PLUGGED)))
		return false;
	for (i = 0; i < plug->bp_nq; i++)
		if (plug->bp_q[i] == q && plug->bp_hctx[i] == hctx)
			break;
	if (i == plug->bp_nq) {
		if (i == BLK_PLUG_QUEUES)
			return false;
		plug->bp_q[i] = q;
		plug->bp_hctx[i] = hctx;
		plug->bp_nq++;
	}
	plug->bp_count++;
	return true;
}

static int blk_plug_wait_init(void)
{
	wait_prepare_register(blk_flush_plug);	/* a waiter lets its batch go */
	return 0;
}
subsys_initcall(blk_plug_wait_init);

static void blk_unplug_timeout(struct timer_list *t)
{
	blk_unplug(container_of(t, struct request_queue, q_unplug_timer));
}

/* Plugging state of a new queue: the defaults, and its unplug timer. */
void blk_plug_init(struct request_queue *q)
{
	q->q_unplug_thresh = BLK_UNPLUG_THRESH;
	q->q_unplug_delay_ms = BLK_UNPLUG_DELAY_MS;
	timer_setup(&q->q_unplug_timer, blk_unplug_timeout);
}

/* Is anything still queued or in the driver? */
static bool blk_queue_busy(struct request_queue *q)
{
	if (queue_is_mq(q) && blk_mq_queue_rqs(q))
		return true;
	return q->q_in_elevator || !list_empty(&q->q_dispatch) || blk_queue_in_driver(q) ||
	       q->q_rq_in_use || blk_flush_busy(q) || q->q_mq_wait_head;
}

/**
 * blk_drain_queue - unplug and wait until every request has ended.
 * Return: 0, or -ETIMEDOUT after timeout_ms.  Not from interrupts.
 */
int blk_drain_queue(struct request_queue *q, u32 timeout_ms)
{
	u64 deadline = ktime_ms() + timeout_ms;
	unsigned long flags;
	bool busy;

	for (;;) {
		spin_lock_irqsave(q->q_lock, flags);
		__blk_unplug(q);
		busy = blk_queue_busy(q);
		blk_queue_unlock(q, flags);
		if (!busy)
			return 0;
		if (ktime_ms() >= deadline)
			return -ETIMEDOUT;
		blk_wait_io(q);
	}
}
