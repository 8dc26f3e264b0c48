/*
 * Tagged command queueing: a map of up to 32 tags per device (AHCI NCQ,
 * SATA's limit), each naming one request the device holds.  The driver
 * asks for a tag when it starts a request, finds the request by tag when
 * the device completes it, and after a device reset calls
 * blk_queue_invalidate_tags() to requeue everything the device dropped.
 *
 * A map may be shared by the queues of one controller (ports that share
 * the command slots); it has its own lock for that, taken inside the
 * queue lock of whichever queue uses it.
 */
#include "block/blk.h"
#include "kernel/errno.h"
#include "kernel/mm/slab.h"

/**
 * blk_queue_init_tags - give q a tag map of depth tags (1..32), or share
 * an existing one (shared != NULL; depth is then ignored).
 * Return: 0, -EINVAL, -EBUSY (q already tagged), -ENOMEM.
 */
int blk_queue_init_tags(struct request_queue *q, u32 depth, struct blk_queue_tag *shared)
{
	struct blk_queue_tag *t = shared;
	unsigned long flags;

	if (q->q_tags)
		return -EBUSY;
	if (!t) {
		if (!depth || depth > BLK_TAG_MAX_DEPTH)
			return -EINVAL;
		t = kzalloc(sizeof(*t), GFP_KERNEL);
		if (!t)
			return -ENOMEM;
		spin_lock_init(&t->bqt_lock, "blk_queue_tag");
		t->bqt_depth = depth;
	}
	spin_lock_irqsave(&t->bqt_lock, flags);
	t->bqt_refcnt++;
	spin_unlock_irqrestore(&t->bqt_lock, flags);
	q->q_tags = t;
	return 0;
}

/* Drop q's use of its tag map; the last user frees it.  No tag may be busy. */
void blk_queue_free_tags(struct request_queue *q)
{
	struct blk_queue_tag *t = q->q_tags;
	unsigned long flags;
	int left;

	if (!t)
		return;
	q->q_tags = NULL;
	spin_lock_irqsave(&t->bqt_lock, flags);
	left = --t->bqt_refcnt;
	spin_unlock_irqrestore(&t->bqt_lock, flags);
	if (!left) {
		KASSERT(t->bqt_busy == 0);
		kfree(t);
	}
}

/* Change the depth (1..32); tags above a smaller depth drain naturally. */
int blk_queue_resize_tags(struct request_queue *q, u32 depth)
{
	struct blk_queue_tag *t = q->q_tags;
	unsigned long flags;

	if (!t)
		return -ENXIO;
	if (!depth || depth > BLK_TAG_MAX_DEPTH)
		return -EINVAL;
	spin_lock_irqsave(&t->bqt_lock, flags);
	t->bqt_depth = depth;
	spin_unlock_irqrestore(&t->bqt_lock, flags);
	return 0;
}

/**
 * blk_queue_start_tag - give rq the lowest free tag and start it.
 * Return: 0 (rq->rq_tag is set), or -EBUSY when every tag is in use:
 * leave rq queued and stop pulling until a completion.  Queue lock held.
 */
int blk_queue_start_tag(struct request_queue *q, struct request *rq)
{
	struct blk_queue_tag *t = q->q_tags;
	u32 free, tag;

	assert_spin_locked(q->q_lock);
	KASSERT(t && !(rq->rq_state & RQF_QUEUED));
	spin_lock(&t->bqt_lock);
	free = ~t->bqt_map & (t->bqt_depth == 32 ? ~0u : (1u << t->bqt_depth) - 1);
	if (!free) {
		spin_unlock(&t->bqt_lock);
		return -EBUSY;
	}
	tag = (u32)__builtin_ctz(free);
	t->bqt_map |= 1u << tag;
	t->bqt_index[tag] = rq;
	t->bqt_busy++;
	spin_unlock(&t->bqt_lock);
	rq->rq_tag = (int)tag;
	rq->rq_state |= RQF_QUEUED;
	blk_stat_tagged(q);
	__blk_trace(q, BLK_TA_TAG, blk_rq_pos(rq), blk_rq_bytes(rq), rq->rq_cmd_flags, (s32)tag);
	blk_start_request(rq);
	return 0;
}

/* Release rq's tag (the block layer does this when rq ends).  Queue lock held. */
void blk_queue_end_tag(struct request_queue *q, struct request *rq)
{
	struct blk_queue_tag *t = q->q_tags;
	u32 tag = (u32)rq->rq_tag;

	assert_spin_locked(q->q_lock);
	KASSERT(t && (rq->rq_state & RQF_QUEUED) && tag < BLK_TAG_MAX_DEPTH);
	spin_lock(&t->bqt_lock);
	KASSERT(t->bqt_index[tag] == rq);
	t->bqt_index[tag] = NULL;
	t->bqt_map &= ~(1u << tag);
	t->bqt_busy--;
	spin_unlock(&t->bqt_lock);
	rq->rq_tag = -1;
	rq->rq_state &= ~RQF_QUEUED;
}

/* The request holding tag on q, or NULL (a stale or foreign tag). */
struct request *blk_queue_find_tag(struct request_queue *q, int tag)
{
	struct blk_queue_tag *t = q->q_tags;
	struct request *rq = NULL;

	if (!t || tag < 0 || (u32)tag >= BLK_TAG_MAX_DEPTH)
		return NULL;
	spin_lock(&t->bqt_lock);
	rq = t->bqt_index[tag];
	spin_unlock(&t->bqt_lock);
	return rq && rq->rq_q == q ? rq : NULL;
}

/**
 * blk_queue_invalidate_tags - the device lost every command it held:
 * requeue each of q's tagged requests, in tag order.
 * Return: how many were requeued.  Queue lock held.
 */
int blk_queue_invalidate_tags(struct request_queue *q)
{
	struct request *rq;
	int tag, n = 0;

	assert_spin_locked(q->q_lock);
	for (tag = BLK_TAG_MAX_DEPTH - 1; tag >= 0; tag--) {
		rq = blk_queue_find_tag(q, tag);
		if (!rq)
			continue;
		blk_requeue_request(q, rq);	/* at the head: reverse walk keeps tag order */
		n++;
	}
	return n;
}
