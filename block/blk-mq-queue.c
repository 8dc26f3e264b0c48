/*
 * The multi-queue block layer (contract: block/blk-mq.h): tag sets --
 * the tags of each hardware queue, with a preallocated request and the
 * driver's bytes behind every tag -- and the life of a multi-queue
 * request_queue: its hardware queues, one software queue per CPU mapped
 * onto them, its flush request.  Requests: blk-mq.c.
 */
#include "block/blk.h"
#include "block/blk-mq-priv.h"
#include "block/elevator.h"
#include "kernel/completion.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/mm/slab.h"

#define BLK_MQ_RQ_ALIGN		16u	/* bytes: each preallocated request starts on one */

static size_t blk_mq_rq_size(const struct blk_mq_tag_set *set)
{
	return (sizeof(struct request) + set->cmd_size + BLK_MQ_RQ_ALIGN - 1) &
	       ~(size_t)(BLK_MQ_RQ_ALIGN - 1);
}

static void blk_mq_free_set_tags(struct blk_mq_tag_set *set)
{
	u32 i;

	if (!set->tags)
		return;
	for (i = 0; i < set->nr_hw_queues; i++) {
		if (!set->tags[i])
			continue;
		kfree(set->tags[i]->rq_mem);
		blk_mq_free_tags(set->tags[i]);
	}
	kfree(set->tags);
	set->tags = NULL;
}

/* The tags of hardware queue i and their requests, each set up by the driver. */
static int blk_mq_alloc_hw_tags(struct blk_mq_tag_set *set, u32 i)
{
	size_t sz = blk_mq_rq_size(set);
	struct blk_mq_tags *tags;
	struct request *rq;
	u32 t;
	int err;

	tags = blk_mq_init_tags(set->queue_depth, set->reserved_tags);
	if (!tags)
		return -ENOMEM;
	set->tags[i] = tags;
	tags->rq_mem = kcalloc(set->queue_depth, sz, GFP_KERNEL);
	if (!tags->rq_mem)
		return -ENOMEM;
	for (t = 0; t < set->queue_depth; t++) {
		rq = (struct request *)((char *)tags->rq_mem + t * sz);
		rq->rq_tag = (int)t;
		tags->static_rqs[t] = rq;
		if (set->ops->init_request) {
			err = set->ops->init_request(set, rq, i);
			if (err)
				return err;
		}
	}
	return 0;
}

/**
 * blk_mq_alloc_tag_set - check set and allocate its tags and requests.
 * Return: 0, -EINVAL (no queue_rq, or a count out of range), -ENOMEM, or
 * what ops->init_request returned.  Nothing is left allocated on error.
 */
int blk_mq_alloc_tag_set(struct blk_mq_tag_set *set)
{
	u32 i;
	int err;

	if (!set->ops || !set->ops->queue_rq || !set->nr_hw_queues ||
	    set->nr_hw_queues > BLK_MQ_MAX_HW_QUEUES || !set->queue_depth ||
	    set->queue_depth > BLK_MQ_MAX_DEPTH || set->reserved_tags >= set->queue_depth)
		return -EINVAL;
	INIT_LIST_HEAD(&set->tag_list);
	spin_lock_init(&set->tag_list_lock, "blk_mq_tag_set");
	set->tags = kcalloc(set->nr_hw_queues, sizeof(*set->tags), GFP_KERNEL);
	if (!set->tags)
		return -ENOMEM;
	for (i = 0; i < set->nr_hw_queues; i++) {
		err = blk_mq_alloc_hw_tags(set, i);
		if (err)
			goto free_tags;
	}
	return 0;

free_tags:
	blk_mq_free_set_tags(set);
	return err;
}

/* Free set's tags and requests; every queue on it is cleaned up already. */
void blk_mq_free_tag_set(struct blk_mq_tag_set *set)
{
	KASSERT(list_empty(&set->tag_list));
	blk_mq_free_set_tags(set);
}

static int blk_mq_init_hctxs(struct request_queue *q, struct blk_mq_tag_set *set)
{
	struct blk_mq_hw_ctx *hctx;
	u32 i;
	int err;

	q->q_hctx = kcalloc(set->nr_hw_queues, sizeof(*q->q_hctx), GFP_KERNEL);
	if (!q->q_hctx)
		return -ENOMEM;
	for (i = 0; i < set->nr_hw_queues; i++) {
		hctx = kzalloc(sizeof(*hctx), GFP_KERNEL);
		if (!hctx)
			return -ENOMEM;
		q->q_hctx[i] = hctx;
		q->q_nr_hw_queues = i + 1;
		spin_lock_init(&hctx->lock, "blk_mq_hw_ctx");
		INIT_LIST_HEAD(&hctx->dispatch);
		INIT_LIST_HEAD(&hctx->timeout_list);
		hctx->queue_num = i;
		hctx->queue = q;
		hctx->tags = set->tags[i];
		work_init(&hctx->run_work, blk_mq_run_work_fn);
		if (set->ops->init_hctx) {
			err = set->ops->init_hctx(hctx, set->driver_data, i);
			if (err)
				return err;
		}
	}
	q->q_nr_ctx = max(blk_mq_nr_cpus(), 1u);
	q->q_ctx = kcalloc(q->q_nr_ctx, sizeof(*q->q_ctx), GFP_KERNEL);
	if (!q->q_ctx)
		return -ENOMEM;
	for (i = 0; i < q->q_nr_ctx; i++) {
		spin_lock_init(&q->q_ctx[i].lock, "blk_mq_ctx");
		INIT_LIST_HEAD(&q->q_ctx[i].rq_list);
		q->q_ctx[i].cpu = i;
		q->q_ctx[i].hctx = q->q_hctx[i % set->nr_hw_queues];	/* cpu -> hctx */
		q->q_ctx[i].queue = q;
	}
	return 0;
}

/* The flush command of q: a request with the driver's bytes behind it. */
static int blk_mq_init_flush_rq(struct request_queue *q, struct blk_mq_tag_set *set)
{
	struct request *f = kzalloc(blk_mq_rq_size(set), GFP_KERNEL);

	if (!f)
		return -ENOMEM;
	q->q_flush.fq_rq = f;
	return set->ops->init_request ? set->ops->init_request(set, f, 0) : 0;
}

/**
 * blk_mq_init_queue - a request_queue whose requests come from set.
 * The elevator is the boot one (elevator=) on a single hardware queue and
 * none on several, or with BLK_MQ_F_NO_SCHED; `elevator` changes it.
 * Return: the queue, or ERR_PTR(-ENOMEM / what a driver hook returned).
 */
struct request_queue *blk_mq_init_queue(struct blk_mq_tag_set *set, const char *name)
{
	struct request_queue *q = blk_alloc_queue(name);
	unsigned long flags;
	int err = -ENOMEM;

	if (!q)
		return ERR_PTR(-ENOMEM);
	q->q_mq_ops = set->ops;
	q->q_tag_set = set;
	INIT_LIST_HEAD(&q->q_tag_set_link);
	q->q_make_request_fn = blk_mq_make_request;
	q->q_nr_requests = set->queue_depth - set->reserved_tags;
	if (set->timeout_ms)
		q->q_rq_timeout_ms = set->timeout_ms;
	timer_setup(&q->q_timeout_timer, blk_mq_timeout_timer);
	work_init(&q->q_mq_timeout_work, blk_mq_timeout_work);
	timer_setup(&q->q_mq_poll_timer, blk_mq_poll_timer);
	work_init(&q->q_mq_poll_work, blk_mq_poll_work);
	err = blk_mq_init_hctxs(q, set);
	if (!err)
		err = blk_mq_init_flush_rq(q, set);
	if (!err && !(set->flags & BLK_MQ_F_NO_SCHED) && set->nr_hw_queues == 1)
		err = elevator_init(q, NULL);
	if (err)
		goto cleanup;
	spin_lock_irqsave(&set->tag_list_lock, flags);
	list_add_tail(&q->q_tag_set_link, &set->tag_list);
	spin_unlock_irqrestore(&set->tag_list_lock, flags);
	return q;

cleanup:
	blk_cleanup_queue(q);
	return ERR_PTR(err);
}

/* Free what blk_mq_init_queue() built; q is drained (blk_cleanup_queue). */
void blk_mq_exit_queue(struct request_queue *q)
{
	struct blk_mq_tag_set *set = q->q_tag_set;
	unsigned long flags;
	u32 i;

	del_timer(&q->q_mq_poll_timer);
	if (!in_interrupt())
		run_deferred_work();	/* a queued run of one of our hctxs */
	KASSERT(!q->q_mq_timeout_work.w_queued && !q->q_mq_poll_work.w_queued);
	spin_lock_irqsave(&set->tag_list_lock, flags);
	list_del_init(&q->q_tag_set_link);
	spin_unlock_irqrestore(&set->tag_list_lock, flags);
	for (i = 0; q->q_hctx && i < q->q_nr_hw_queues; i++) {
		KASSERT(!q->q_hctx[i]->run_work.w_queued && list_empty(&q->q_hctx[i]->dispatch));
		kfree(q->q_hctx[i]);
	}
	kfree(q->q_hctx);
	kfree(q->q_ctx);
	if (q->q_flush.fq_rq != &q->q_flush.fq_flush_rq)
		kfree(q->q_flush.fq_rq);
	q->q_hctx = NULL;
	q->q_ctx = NULL;
}

struct request *blk_mq_tag_to_rq(struct blk_mq_tag_set *set, u32 hctx_idx, u32 tag)
{
	struct blk_mq_tags *tags;

	if (hctx_idx >= set->nr_hw_queues)
		return NULL;
	tags = set->tags[hctx_idx];
	return tag < tags->nr_tags ? tags->rqs[tag] : NULL;
}

/*
 * Requests of q holding a tag now: a scan of the tags, for draining (a
 * queue sharing its tag set must not wait for the others' I/O).
 */
u32 blk_mq_queue_rqs(const struct request_queue *q)
{
	const struct blk_mq_tags *tags;
	const struct request *rq;
	u32 i, t, n = 0;

	for (i = 0; i < q->q_nr_hw_queues; i++) {
		tags = q->q_hctx[i]->tags;
		for (t = 0; t < tags->nr_tags; t++) {
			rq = READ_ONCE(tags->rqs[t]);
			n += rq && rq->rq_q == q;
		}
	}
	return n;
}

u32 blk_mq_tags_in_use(const struct request_queue *q)
{
	u32 i, n = 0;

	for (i = 0; i < q->q_nr_hw_queues; i++)
		n += __atomic_load_n(&q->q_hctx[i]->tags->busy, __ATOMIC_RELAXED);
	return n;
}
