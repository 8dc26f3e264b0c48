/*
 * The life of a request (block core): taken from the queue's pool (or,
 * in interrupt context with the pool dry, the slab), handed to the
 * driver (peek / start / fetch, requeue, stop / start the queue), ended
 * in part or in whole with an error code that reaches every bio's
 * bi_end_io, and given back to the pool.
 *
 * Completion: blk_end_request(rq, error, bytes) ends bytes from the
 * front; each bio that is done gets bi_end_io with the error; the
 * request returns to the pool when all of it is done.  Inside a flush
 * sequence (blk-flush.c) bios are only advanced, and ended with it.
 *
 * A dry pool never fails an I/O quietly: it ends the bio with -ENOMEM or
 * -EIO, which a filesystem understands, and logs a line naming the disk.
 *
 * Locking: q->q_lock, held on entry by every __-prefixed call and by
 * the driver calls (peek, start, requeue, stop, start_queue, insert).
 */
#include "block/blk.h"
#include "block/blk-mq-priv.h"
#include "block/elevator.h"
#include "kernel/completion.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

#define BLK_RQ_WAIT_MS		60000u	/* longest a submitter waits for a free request, ms */
#define BLK_RQ_FAIL_LOG_MS	5000u	/* least time between two "no free request" lines, ms */

/* Queue lock held: a request with nothing in it, for q. */
void blk_rq_init(struct request_queue *q, struct request *rq)
{
	memset(rq, 0, sizeof(*rq));
	rq->rq_q = q;
	rq->rq_tag = -1;
	INIT_LIST_HEAD(&rq->rq_queuelist);
	INIT_LIST_HEAD(&rq->rq_fifo);
	INIT_LIST_HEAD(&rq->rq_hash_back);
	INIT_LIST_HEAD(&rq->rq_hash_front);
	INIT_LIST_HEAD(&rq->rq_timeout_list);
	INIT_LIST_HEAD(&rq->rq_flush_list);
	rq->rq_start_ns = ktime_ns();
}

/*
 * Queue lock held: the pool is dry and err will end an I/O.  Say so,
 * naming the disk, at most once per BLK_RQ_FAIL_LOG_MS.
 */
void blk_rq_fail(struct request_queue *q, int err)
{
	u64 now = ktime_ms();

	q->q_rq_fails++;
	if (q->q_rq_fails > 1 && now - q->q_rq_fail_log_ms < BLK_RQ_FAIL_LOG_MS)
		return;
	q->q_rq_fail_log_ms = now;
	pr_err("%s: no free request (%s): I/O failed with %s, %u so far\n", q->q_name,
	       err == -ENOMEM ? "no memory in interrupt context" : "none came back in time",
	       err == -ENOMEM ? "-ENOMEM" : "-EIO", q->q_rq_fails);
}

/*
 * Queue lock held: a request from the pool.  When it is dry, interrupt
 * context gets one from the slab; other callers wait, with the lock
 * dropped, for a completion to give one back, for BLK_RQ_WAIT_MS at most.
 * *flags is the caller's saved interrupt state, restored while waiting.
 * Returns the request, or ERR_PTR(-ENOMEM) (interrupt context, no memory)
 * or ERR_PTR(-EIO) (the wait ran out: the device is not ending I/O);
 * either is reported here.
 */
struct request *blk_get_request(struct request_queue *q, unsigned long *flags)
{
	struct request *rq;
	u64 deadline = 0;
	bool pooled = true;

	assert_spin_locked(q->q_lock);
	while (list_empty(&q->q_rq_free)) {
		if (in_interrupt()) {
			rq = kmalloc(sizeof(*rq), GFP_ATOMIC);
			if (!rq) {
				blk_rq_fail(q, -ENOMEM);
				return ERR_PTR(-ENOMEM);
			}
			pooled = false;
			goto init;
		}
		if (!deadline)
			deadline = ktime_ms() + BLK_RQ_WAIT_MS;
		else if (ktime_ms() >= deadline) {
			blk_rq_fail(q, -EIO);
			return ERR_PTR(-EIO);
		}
		q->q_rq_waiters++;
		__blk_unplug(q);
		spin_unlock_irqrestore(q->q_lock, *flags);
		cpu_idle_once();
		spin_lock_irqsave(q->q_lock, *flags);
		q->q_rq_waiters--;
	}
	rq = list_first_entry(&q->q_rq_free, struct request, rq_queuelist);
	list_del(&rq->rq_queuelist);
init:
	blk_rq_init(q, rq);
	if (pooled) {
		rq->rq_state |= RQF_POOL;
		q->q_rq_in_use++;
	}
	blk_stat_rq_start(q, rq);
	return rq;
}

/* Queue lock held: give rq back to where it came from. */
void __blk_put_request(struct request_queue *q, struct request *rq)
{
	assert_spin_locked(q->q_lock);
	KASSERT(!(rq->rq_state & (RQF_SORTED | RQF_HASHED | RQF_QUEUED | RQF_TIMED)));
	if (queue_is_mq(q)) {
		blk_mq_put_request(q, rq);	/* back to its tag */
		return;
	}
	if (rq->rq_state & RQF_POOL) {
		rq->rq_state = 0;
		list_add(&rq->rq_queuelist, &q->q_rq_free);
		q->q_rq_in_use--;
	} else {
		kfree(rq);
	}
}

/**
 * blk_peek_request - the request the driver should take next, or NULL.
 * Prepares it once (prep_rq_fn) and leaves it on the dispatch list.
 * Queue lock held.
 */
struct request *blk_peek_request(struct request_queue *q)
{
	struct request *rq;
	int ret;

	assert_spin_locked(q->q_lock);
	for (;;) {
		if (list_empty(&q->q_dispatch) && !elv_next_request(q))
			return NULL;
		rq = list_first_entry(&q->q_dispatch, struct request, rq_queuelist);
		if (!q->q_prep_rq_fn || (rq->rq_state & RQF_PREPPED))
			return rq;
		ret = q->q_prep_rq_fn(q, rq);
		if (ret == BLKPREP_OK) {
			rq->rq_state |= RQF_PREPPED;
			return rq;
		}
		if (ret == BLKPREP_DEFER)
			return NULL;
		list_del_init(&rq->rq_queuelist);
		__blk_trace(q, BLK_TA_ERROR, blk_rq_pos(rq), blk_rq_bytes(rq), rq->rq_cmd_flags, -EIO);
		__blk_end_request_all(rq, -EIO);
	}
}

/* Take rq off the dispatch list and hand it to the driver.  Queue lock held. */
void blk_start_request(struct request *rq)
{
	struct request_queue *q = rq->rq_q;

	assert_spin_locked(q->q_lock);
	list_del_init(&rq->rq_queuelist);
	if (rq->rq_state & RQF_STARTED)
		return;
	rq->rq_state |= RQF_STARTED;
	q->q_in_driver++;
	blk_add_timer(rq);
	__blk_trace(q, BLK_TA_ISSUE, blk_rq_pos(rq), blk_rq_bytes(rq), rq->rq_cmd_flags, rq->rq_tag);
}

/* Peek and start in one: the next request, now the driver's; or NULL. */
struct request *blk_fetch_request(struct request_queue *q)
{
	struct request *rq = blk_peek_request(q);

	if (rq)
		blk_start_request(rq);
	return rq;
}

/* rq leaves the driver: its timer stops, its tag and its place go back. */
void blk_rq_leave_driver(struct request_queue *q, struct request *rq)
{
	if (queue_is_mq(q)) {
		blk_mq_leave_driver(rq);
		return;
	}
	blk_delete_timer(rq);
	if (rq->rq_state & RQF_QUEUED)
		blk_queue_end_tag(q, rq);
	if (rq->rq_state & RQF_STARTED) {
		rq->rq_state &= ~RQF_STARTED;
		q->q_in_driver--;
	}
}

u32 blk_queue_in_driver(const struct request_queue *q)
{
	return queue_is_mq(q) ? blk_mq_in_driver(q) : READ_ONCE(q->q_in_driver);
}

/**
 * blk_requeue_request - give a started request back, to be dispatched
 * first again (the device was busy, or reset).  Its tag is released.
 * Queue lock held.
 */
void blk_requeue_request(struct request_queue *q, struct request *rq)
{
	assert_spin_locked(q->q_lock);
	blk_rq_leave_driver(q, rq);
	blk_dispatch_add(q, rq, true);
	q->q_stats.st_requeues++;
	__blk_trace(q, BLK_TA_REQUEUE, blk_rq_pos(rq), blk_rq_bytes(rq), rq->rq_cmd_flags, 0);
}

/* The driver can take no more for now.  Queue lock held. */
void blk_stop_queue(struct request_queue *q)
{
	assert_spin_locked(q->q_lock);
	q->q_flags |= QUEUE_FLAG_STOPPED;
}

/* The driver can take requests again: run it.  Queue lock held. */
void blk_start_queue(struct request_queue *q)
{
	assert_spin_locked(q->q_lock);
	q->q_flags &= ~QUEUE_FLAG_STOPPED;
	__blk_run_queue(q);
}

/*
 * Queue lock held: rq goes where the driver takes requests from -- the
 * dispatch list, or on a multi-queue queue its hardware queue's.
 */
void blk_dispatch_add(struct request_queue *q, struct request *rq, bool at_head)
{
	if (queue_is_mq(q)) {
		blk_mq_add_dispatch(rq, at_head);
		q->q_rerun = true;
	} else if (at_head) {
		list_add(&rq->rq_queuelist, &q->q_dispatch);
	} else {
		list_add_tail(&rq->rq_queuelist, &q->q_dispatch);
	}
}

/* Insert a prepared request directly for dispatch.  Queue lock held. */
void __blk_insert_request(struct request_queue *q, struct request *rq, bool at_head)
{
	assert_spin_locked(q->q_lock);
	blk_dispatch_add(q, rq, at_head);
	__blk_trace(q, BLK_TA_INSERT, blk_rq_pos(rq), blk_rq_bytes(rq), rq->rq_cmd_flags, 0);
}

/* All of rq is done: release it and end what bios remain. */
static void blk_finish_request(struct request *rq)
{
	struct request_queue *q = rq->rq_q;
	int error = rq->rq_errors;
	struct bio *bio;

	blk_rq_leave_driver(q, rq);
	__blk_trace(q, BLK_TA_COMPLETE, blk_rq_pos(rq), 0, rq->rq_cmd_flags, error);
	elv_completed_request(q, rq);
	if (rq->rq_end_io) {
		rq->rq_end_io(rq, error);	/* the flush sequencer keeps it going */
		return;
	}
	/* Zero-length bios (a flush), or bytes the driver never ended. */
	while ((bio = rq->rq_bio)) {
		rq->rq_bio = bio->bi_next;
		bio->bi_next = NULL;
		bio_endio(bio, bio->bi_iter.bi_size && !error ? -EIO : error);
	}
	blk_stat_rq_done(q, rq);
	__blk_put_request(q, rq);
}

/**
 * __blk_end_request - end nr_bytes of rq from its front, with error (0 or
 * negative errno).  Bios fully done get bi_end_io; inside a flush
 * sequence they are only advanced, and ended when the sequence is.
 * Return: true if part of rq is still pending.  Queue lock held.
 */
bool __blk_end_request(struct request *rq, int error, u32 nr_bytes)
{
	struct request_queue *q = rq->rq_q;
	bool keep = (rq->rq_state & RQF_FLUSH_SEQ) != 0;
	struct bio *bio = rq->rq_bio;
	u32 n;

	assert_spin_locked(q->q_lock);
	if (error && !rq->rq_errors) {
		rq->rq_errors = error;
		q->q_stats.st_errors++;
		__blk_trace(q, BLK_TA_ERROR, blk_rq_pos(rq), nr_bytes, rq->rq_cmd_flags, error);
	}
	nr_bytes = min(nr_bytes, rq->rq_data_len);
	blk_stat_rq_bytes(q, rq, nr_bytes);
	/* Unless keep, bio is always the head: done bios leave from the front. */
	while (nr_bytes && bio) {
		n = min(nr_bytes, bio->bi_iter.bi_size);
		if (n) {
			bio_advance(bio, n);
			nr_bytes -= n;
			rq->rq_data_len -= n;
			rq->rq_sector += n >> SECTOR_SHIFT;
		}
		if (bio->bi_iter.bi_size)
			continue;
		if (keep) {
			bio = bio->bi_next;
			continue;
		}
		rq->rq_bio = bio->bi_next;
		bio->bi_next = NULL;
		bio_endio(bio, error);
		bio = rq->rq_bio;
	}
	if (rq->rq_data_len)
		return true;
	blk_finish_request(rq);
	return false;
}

/* Take the lock, end nr_bytes, and let the driver take more. */
bool blk_end_request(struct request *rq, int error, u32 nr_bytes)
{
	struct request_queue *q = rq->rq_q;
	unsigned long flags;
	bool pending;

	spin_lock_irqsave(q->q_lock, flags);
	pending = __blk_end_request(rq, error, nr_bytes);
	if (!pending)
		__blk_run_queue(q);
	spin_unlock_irqrestore(q->q_lock, flags);
	return pending;
}

void __blk_end_request_all(struct request *rq, int error)
{
	bool pending = __blk_end_request(rq, error, rq->rq_data_len);

	KASSERT(!pending);
}

void blk_end_request_all(struct request *rq, int error)
{
	bool pending = blk_end_request(rq, error, rq->rq_data_len);

	KASSERT(!pending);
}
