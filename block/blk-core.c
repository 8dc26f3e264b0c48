/*
 * The request queue core: queue life cycle, bio submission, the request
 * pool, plugging, the driver interface (peek/fetch/start/requeue/stop)
 * and request completion.
 *
 * Layer: block core.  Above: submit_bio() from filesystems and tools.
 * Below: drivers, through q_request_fn (pull style, called with the
 * queue lock held) or q_make_request_fn (bio style).
 *
 * Path of a bio: submit_bio -> bdev_remap (partition to disk) ->
 * blk_queue_submit_bio -> bounce (pages the device cannot reach) -> split
 * (queue limits) -> make_request.  For request-based queues that is
 * blk_queue_bio: merge into a waiting request, or take a request from the
 * pool (waiting for one if it is dry), hand it to the elevator, and plug
 * or run the queue.  Flush and FUA bios go to the flush sequencer.
 *
 * Plugging: a queue that receives I/O while idle is plugged, holding
 * requests back so that the ones behind can merge; it is unplugged by an
 * explicit blk_unplug(), when BLK_UNPLUG_THRESH requests wait, by a sync
 * bio, or by the unplug timer after BLK_UNPLUG_DELAY_MS.
 *
 * Completion: blk_end_request(rq, error, bytes) ends bytes from the
 * front; each bio that is done gets bi_end_io with the error; the request
 * returns to the pool when all of it is done.
 */
#include "block/blk.h"
#include "block/elevator.h"
#include "kernel/completion.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

#define BLK_RQ_WAIT_MS	60000u	/* longest a submitter waits for a free request, ms */

/* Every queue, for the shell's iostat/blktrace/elevator commands. */
static LIST_HEAD(blk_queue_list);		/* [blk_queues_lock] */
static DEFINE_SPINLOCK(blk_queues_lock);

static void blk_unplug_timeout(struct timer_list *t);

/**
 * blk_alloc_queue - a queue for a make_request (bio-based) driver.
 * @name: for logs and shell commands ("ram0"); copied.
 * Return: the queue with default limits, or NULL.
 */
struct request_queue *blk_alloc_queue(const char *name)
{
	struct request_queue *q = kzalloc(sizeof(*q), GFP_KERNEL);
	unsigned long flags;

	if (!q)
		return NULL;
	str_copy(q->q_name, name, sizeof(q->q_name));
	spin_lock_init(&q->q_lock_internal, "request_queue");
	q->q_lock = &q->q_lock_internal;
	blk_set_default_limits(&q->q_limits);
	INIT_LIST_HEAD(&q->q_dispatch);
	INIT_LIST_HEAD(&q->q_rq_free);
	INIT_LIST_HEAD(&q->q_all);
	q->q_unplug_thresh = BLK_UNPLUG_THRESH;
	q->q_unplug_delay_ms = BLK_UNPLUG_DELAY_MS;
	q->q_rq_timeout_ms = BLK_DEF_TIMEOUT_MS;
	q->q_max_retries = BLK_DEF_MAX_RETRIES;
	q->q_make_request_fn = blk_queue_bio;
	timer_setup(&q->q_unplug_timer, blk_unplug_timeout);
	blk_timeout_init(q);
	blk_flush_init(q);
	if (blk_bounce_init(q)) {
		kfree(q);
		return NULL;
	}
	spin_lock_irqsave(&blk_queues_lock, flags);
	list_add_tail(&q->q_all, &blk_queue_list);
	spin_unlock_irqrestore(&blk_queues_lock, flags);
	return q;
}

/**
 * blk_init_queue - a queue for a request_fn (pull-style) driver.
 * @fn: called with the queue lock held whenever requests may be pulled.
 * @lock: the driver's lock to use as the queue lock, or NULL for the queue's own.
 * Return: the queue with the boot elevator and a pool of requests, or NULL.
 */
struct request_queue *blk_init_queue(request_fn_proc *fn, spinlock_t *lock, const char *name)
{
	struct request_queue *q = blk_alloc_queue(name);
	u32 i;

	if (!q)
		return NULL;
	if (lock)
		q->q_lock = lock;
	q->q_request_fn = fn;
	q->q_nr_requests = BLK_DEF_NR_REQUESTS;
	q->q_rq_pool = kcalloc(q->q_nr_requests, sizeof(struct request), GFP_KERNEL);
	if (!q->q_rq_pool)
		goto free_queue;
	for (i = 0; i < q->q_nr_requests; i++)
		list_add_tail(&q->q_rq_pool[i].rq_queuelist, &q->q_rq_free);
	if (elevator_init(q, NULL))
		goto free_pool;
	return q;

free_pool:
	kfree(q->q_rq_pool);
	q->q_rq_pool = NULL;
free_queue:
	blk_cleanup_queue(q);
	return NULL;
}

/**
 * blk_cleanup_queue - fail new I/O, wait (bounded) for what is queued,
 * and free the queue.  The driver must not be stopped.
 */
void blk_cleanup_queue(struct request_queue *q)
{
	unsigned long flags;

	spin_lock_irqsave(q->q_lock, flags);
	q->q_flags |= QUEUE_FLAG_DEAD;
	spin_unlock_irqrestore(q->q_lock, flags);
	if (blk_drain_queue(q, q->q_rq_timeout_ms * (q->q_max_retries + 1)))
		pr_err("%s: queue freed with I/O outstanding\n", q->q_name);
	del_timer(&q->q_unplug_timer);
	del_timer(&q->q_timeout_timer);
	spin_lock_irqsave(&blk_queues_lock, flags);
	list_del_init(&q->q_all);
	spin_unlock_irqrestore(&blk_queues_lock, flags);
	elevator_exit(q);
	blk_queue_free_tags(q);
	blk_trace_disable(q);
	blk_bounce_exit(q);
	kfree(q->q_rq_pool);
	kfree(q);
}

/* The queue named name, or NULL. */
struct request_queue *blk_queue_find(const char *name)
{
	struct request_queue *q, *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&blk_queues_lock, flags);
	list_for_each_entry(q, &blk_queue_list, q_all)
		if (!strcmp(q->q_name, name)) {
			found = q;
			break;
		}
	spin_unlock_irqrestore(&blk_queues_lock, flags);
	return found;
}

/* Iterate over queues: NULL gives the first; NULL at the end. */
struct request_queue *blk_queue_next(struct request_queue *prev)
{
	struct list_head *n;
	unsigned long flags;
	struct request_queue *q = NULL;

	spin_lock_irqsave(&blk_queues_lock, flags);
	n = prev ? prev->q_all.next : blk_queue_list.next;
	if (n != &blk_queue_list)
		q = list_entry(n, struct request_queue, q_all);
	spin_unlock_irqrestore(&blk_queues_lock, flags);
	return q;
}

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
	spin_unlock_irqrestore(q->q_lock, flags);
}

static void blk_plug_device(struct request_queue *q)
{
	if (q->q_flags & (QUEUE_FLAG_PLUGGED | QUEUE_FLAG_NOPLUG | QUEUE_FLAG_STOPPED))
		return;
	q->q_flags |= QUEUE_FLAG_PLUGGED;
	mod_timer(&q->q_unplug_timer, get_jiffies_64() + msecs_to_jiffies(q->q_unplug_delay_ms) + 1);
	__blk_trace(q, BLK_TA_PLUG, 0, 0, 0, 0);
}

/* Queue lock held: stop holding I/O back and run the driver. */
static void __blk_unplug(struct request_queue *q)
{
	if (q->q_flags & QUEUE_FLAG_PLUGGED) {
		q->q_flags &= ~QUEUE_FLAG_PLUGGED;
		del_timer(&q->q_unplug_timer);
		__blk_trace(q, BLK_TA_UNPLUG, 0, 0, 0, (s32)q->q_in_elevator);
	}
	__blk_run_queue(q);
}

/* Release a plugged queue now (the end of a batch of submissions). */
void blk_unplug(struct request_queue *q)
{
	unsigned long flags;

	spin_lock_irqsave(q->q_lock, flags);
	__blk_unplug(q);
	spin_unlock_irqrestore(q->q_lock, flags);
}

static void blk_unplug_timeout(struct timer_list *t)
{
	blk_unplug(container_of(t, struct request_queue, q_unplug_timer));
}

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
 * Queue lock held: a request from the pool.  When it is dry, interrupt
 * context gets one from the slab (or NULL); other callers wait, with the
 * lock dropped, for a completion to give one back (bounded).  *flags is
 * the caller's saved interrupt state, restored while waiting.
 */
static struct request *blk_get_request(struct request_queue *q, unsigned long *flags)
{
	struct request *rq;
	u64 deadline = 0;
	bool pooled = true;

	while (list_empty(&q->q_rq_free)) {
		if (in_interrupt()) {
			rq = kmalloc(sizeof(*rq), GFP_ATOMIC);
			if (!rq)
				return NULL;
			pooled = false;
			goto init;
		}
		if (!deadline)
			deadline = ktime_ms() + BLK_RQ_WAIT_MS;
		else if (ktime_ms() >= deadline)
			return NULL;
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
	if (rq->rq_state & RQF_POOL) {
		rq->rq_state = 0;
		list_add(&rq->rq_queuelist, &q->q_rq_free);
		q->q_rq_in_use--;
	} else {
		kfree(rq);
	}
}

static void blk_rq_from_bio(struct request_queue *q, struct request *rq, struct bio *bio)
{
	rq->rq_cmd_flags = bio->bi_rw & (REQ_WRITE | REQ_SYNC | REQ_FUA | REQ_PREFLUSH | REQ_NOMERGE);
	rq->rq_sector = bio->bi_iter.bi_sector;
	rq->rq_data_len = bio->bi_iter.bi_size;
	rq->rq_nr_phys_segments = blk_bio_segments(&q->q_limits, bio);
	rq->rq_bio = rq->rq_biotail = bio;
	bio->bi_next = NULL;
}

/**
 * blk_queue_bio - the make_request function of request-based queues.
 * Merges bio into a waiting request or builds a new one, then plugs or
 * runs the queue.
 */
void blk_queue_bio(struct request_queue *q, struct bio *bio)
{
	struct request *rq;
	unsigned long flags;
	bool sync = (bio->bi_rw & REQ_SYNC) != 0;

	spin_lock_irqsave(q->q_lock, flags);
	if (!(bio->bi_rw & REQ_FLUSH_DATA) && elv_bio_merge(q, bio))
		goto out;

	rq = blk_get_request(q, &flags);
	if (!rq) {
		spin_unlock_irqrestore(q->q_lock, flags);
		bio_endio(bio, -EBUSY);
		return;
	}
	blk_rq_from_bio(q, rq, bio);
	if (rq->rq_cmd_flags & REQ_FLUSH_DATA) {
		blk_insert_flush(rq);
		__blk_unplug(q);
		goto unlock;
	}
	if (!q->q_in_elevator && list_empty(&q->q_dispatch))
		blk_plug_device(q);
	elv_add_request(q, rq);
out:
	if (sync || q->q_in_elevator >= q->q_unplug_thresh ||
	    !(q->q_flags & QUEUE_FLAG_PLUGGED))
		__blk_unplug(q);
unlock:
	spin_unlock_irqrestore(q->q_lock, flags);
}

/* Hand bio to the queue in parts that each fit its limits. */
static void blk_submit_split(struct request_queue *q, struct bio *bio)
{
	struct bio *front;

	do {
		front = blk_queue_split(q, bio);
		q->q_make_request_fn(q, front);
	} while (front != bio);
}

/**
 * blk_queue_submit_bio - submit a bio straight to a queue, sector already
 * absolute on the device: submit_bio() without a block_device, for
 * drivers' own commands and for tests that run without the registry.
 * The result comes through bio_endio().
 */
void blk_queue_submit_bio(struct request_queue *q, struct bio *bio)
{
	struct queue_limits *lim = &q->q_limits;
	u32 lbs_mask = (lim->lim_logical_block_size >> SECTOR_SHIFT) - 1;
	struct bio *part;
	unsigned long flags;

	if (q->q_flags & QUEUE_FLAG_DEAD) {
		bio_endio(bio, -ENODEV);
		return;
	}
	if ((bio->bi_iter.bi_size & (lim->lim_logical_block_size - 1)) ||
	    (bio->bi_iter.bi_sector & lbs_mask)) {
		bio_endio(bio, -EINVAL);
		return;
	}
	bio->bi_queue = q;
	bio->bi_start_ns = ktime_ns();
	if (q->q_trace) {		/* a peek: __blk_trace tests it again, locked */
		spin_lock_irqsave(q->q_lock, flags);
		__blk_trace(q, BLK_TA_QUEUE, bio->bi_iter.bi_sector, bio->bi_iter.bi_size,
			    bio->bi_rw, 0);
		spin_unlock_irqrestore(q->q_lock, flags);
	}

	/* Bounce first (a bounce bio is a fresh vector), then split to limits. */
	if (!blk_bio_needs_bounce(lim, bio)) {
		blk_submit_split(q, bio);
		return;
	}
	do {
		part = blk_bounce_split(q, bio);
		if (IS_ERR(part)) {
			bio_endio(bio, (int)PTR_ERR(part));
			return;
		}
		blk_submit_split(q, blk_queue_bounce(q, part));
	} while (part != bio);
}

/**
 * submit_bio - start the I/O of a bio on its block device.
 * The sector is relative to bi_bdev (a partition or a whole disk); the
 * result, success or error, always comes through bio_endio().
 */
void submit_bio(struct bio *bio)
{
	struct request_queue *q = bio->bi_bdev ? bdev_get_queue(bio->bi_bdev) : bio->bi_queue;
	int err;

	if (!q) {
		bio_endio(bio, -ENODEV);
		return;
	}
	if (bio->bi_bdev) {
		err = bdev_remap(bio->bi_bdev, &bio->bi_iter.bi_sector, bio_sectors(bio),
				 bio_is_write(bio));
		if (err) {
			bio_endio(bio, err);
			return;
		}
	}
	blk_queue_submit_bio(q, bio);
}

static void submit_bio_wait_endio(struct bio *bio, int error)
{
	complete(bio->bi_private);
}

/**
 * submit_bio_wait - submit and wait for the result.  Not from interrupts.
 * Overrides bi_end_io and bi_private.
 * Return: 0 or the bio's first error.
 */
int submit_bio_wait(struct bio *bio)
{
	struct completion done;

	init_completion(&done);
	bio->bi_private = &done;
	bio->bi_end_io = submit_bio_wait_endio;
	bio->bi_rw |= REQ_SYNC;
	submit_bio(bio);
	wait_for_completion(&done);
	return bio->bi_error;
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

/**
 * blk_requeue_request - give a started request back, to be dispatched
 * first again (the device was busy, or reset).  Its tag is released.
 * Queue lock held.
 */
void blk_requeue_request(struct request_queue *q, struct request *rq)
{
	assert_spin_locked(q->q_lock);
	blk_delete_timer(rq);
	if (rq->rq_state & RQF_QUEUED)
		blk_queue_end_tag(q, rq);
	if (rq->rq_state & RQF_STARTED) {
		rq->rq_state &= ~RQF_STARTED;
		q->q_in_driver--;
	}
	list_add(&rq->rq_queuelist, &q->q_dispatch);
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

/* Insert a prepared request directly for dispatch.  Queue lock held. */
void __blk_insert_request(struct request_queue *q, struct request *rq, bool at_head)
{
	assert_spin_locked(q->q_lock);
	if (at_head)
		list_add(&rq->rq_queuelist, &q->q_dispatch);
	else
		list_add_tail(&rq->rq_queuelist, &q->q_dispatch);
	__blk_trace(q, BLK_TA_INSERT, blk_rq_pos(rq), blk_rq_bytes(rq), rq->rq_cmd_flags, 0);
}

/* All of rq is done: release it and end what bios remain. */
static void blk_finish_request(struct request *rq)
{
	struct request_queue *q = rq->rq_q;
	int error = rq->rq_errors;
	struct bio *bio;

	blk_delete_timer(rq);
	if (rq->rq_state & RQF_QUEUED)
		blk_queue_end_tag(q, rq);
	if (rq->rq_state & RQF_STARTED) {
		rq->rq_state &= ~RQF_STARTED;
		q->q_in_driver--;
	}
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

/* Is anything still queued or in the driver? */
static bool blk_queue_busy(struct request_queue *q)
{
	return q->q_in_elevator || !list_empty(&q->q_dispatch) || q->q_in_driver ||
	       q->q_rq_in_use || blk_flush_busy(q);
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
		spin_unlock_irqrestore(q->q_lock, flags);
		if (!busy)
			return 0;
		if (ktime_ms() >= deadline)
			return -ETIMEDOUT;
		cpu_idle_once();
	}
}
