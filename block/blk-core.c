/*
 * The request queue core: queue life cycle and the submit path.
 *
 * Layer: block core.  Above: submit_bio() from filesystems, the buffer
 * cache and blkdev_pread/pwrite.  Below: drivers, through q_request_fn
 * (pull style, called with the queue lock held; the request side is in
 * blk-request.c) or q_make_request_fn (bio style).
 *
 * Path of a bio: submit_bio -> bdev_remap (partition to disk) ->
 * blk_queue_submit_bio -> bounce (pages the device cannot reach) -> split
 * (queue limits) -> make_request.  For request-based queues that is
 * blk_queue_bio: merge into a waiting request, or take a request from the
 * pool (blk-request.c; waiting for one if it is dry), hand it to the
 * elevator, and plug or run the queue (blk-plug.c).  Flush and FUA bios
 * go to the flush sequencer (blk-flush.c).
 *
 * Contract: every bio handed to submit_bio() ends exactly once, through
 * bio_endio(), with 0 or a negative errno -- also when it is refused
 * before it reaches a queue.  Queue lock legend: block/blkdev.h.
 */
#include "block/blk.h"
#include "block/blk-mq-priv.h"
#include "block/elevator.h"
#include "kernel/completion.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

/* Every queue, for the shell's iostat/blktrace/elevator commands. */
static LIST_HEAD(blk_queue_list);		/* [blk_queues_lock] */
static DEFINE_SPINLOCK(blk_queues_lock);

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
	q->q_rq_timeout_ms = BLK_DEF_TIMEOUT_MS;
	q->q_max_retries = BLK_DEF_MAX_RETRIES;
	ratelimit_init(&q->q_err_rl, RATELIMIT_INTERVAL_MS, RATELIMIT_BURST);
	q->q_make_request_fn = blk_queue_bio;
	blk_plug_init(q);
	blk_timeout_init(q);
	blk_flush_init(q);
	if (blk_stat_init(q) || blk_bounce_init(q)) {
		blk_stat_exit(q);
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
	if (queue_is_mq(q))
		blk_mq_exit_queue(q);
	blk_queue_free_tags(q);
	blk_trace_disable(q);
	blk_bounce_exit(q);
	blk_stat_exit(q);
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

void blk_rq_bio_prep(struct request_queue *q, struct request *rq, struct bio *bio)
{
	rq->rq_cmd_flags = bio->bi_rw & (REQ_WRITE | REQ_FUA | REQ_PREFLUSH | REQ_NOMERGE |
					 REQ_NODATA);
	rq->rq_sector = bio->bi_iter.bi_sector;
	rq->rq_data_len = bio->bi_iter.bi_size;
	rq->rq_nr_phys_segments = blk_bio_segments(&q->q_limits, bio);
	rq->rq_bio = rq->rq_biotail = bio;
	bio->bi_next = NULL;
}

/*
 * May q take bio's operation at all?  A DISCARD or WRITE ZEROES range
 * goes only to a queue whose limits say the device has it, and must be a
 * write with no pages: a driver never sees one it cannot do.
 */
static bool blk_bio_op_supported(const struct queue_limits *lim, const struct bio *bio)
{
	if (!(bio->bi_rw & REQ_NODATA))
		return true;
	if (!(bio->bi_rw & REQ_WRITE) || bio->bi_vcnt ||
	    (bio->bi_rw & REQ_NODATA) == REQ_NODATA || (bio->bi_rw & REQ_FLUSH_DATA))
		return false;
	return bio_is_discard(bio) ? lim->lim_max_discard_sectors != 0 :
				     lim->lim_max_write_zeroes_sectors != 0;
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

	spin_lock_irqsave(q->q_lock, flags);
	if (!(bio->bi_rw & REQ_FLUSH_DATA) && elv_bio_merge(q, bio))
		goto out;

	rq = blk_get_request(q, &flags);
	if (IS_ERR(rq)) {			/* reported by blk_get_request */
		spin_unlock_irqrestore(q->q_lock, flags);
		bio_endio(bio, (int)PTR_ERR(rq));
		return;
	}
	blk_rq_bio_prep(q, rq, bio);
	if (rq->rq_cmd_flags & REQ_FLUSH_DATA) {
		blk_insert_flush(rq);
		__blk_unplug(q);
		goto unlock;
	}
	if (!q->q_in_elevator && list_empty(&q->q_dispatch))
		blk_plug_device(q);
	elv_add_request(q, rq);
out:
	if (blk_plug_hold(q, NULL))
		goto unlock;		/* this CPU's batch unplugs it */
	if (q->q_in_elevator >= q->q_unplug_thresh ||
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
	if (!blk_bio_op_supported(lim, bio)) {
		bio_endio(bio, -EOPNOTSUPP);
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
 * Overrides bi_end_io and bi_private.  Unplugs the queue before it
 * sleeps (the plugging rule in block/blkdev.h), so the bio never waits
 * for the unplug timer.
 * Return: 0 or the bio's first error.
 */
int submit_bio_wait(struct bio *bio)
{
	struct request_queue *q = bio->bi_bdev ? bdev_get_queue(bio->bi_bdev) : bio->bi_queue;
	struct completion done;

	init_completion(&done);
	bio->bi_private = &done;
	bio->bi_end_io = submit_bio_wait_endio;
	submit_bio(bio);
	if (q)
		blk_unplug(q);
	if (q && blk_queue_polled(q))
		while (!completion_done(&done))	/* no interrupt will end it */
			blk_wait_io(q);
	wait_for_completion(&done);
	return bio->bi_error;
}
