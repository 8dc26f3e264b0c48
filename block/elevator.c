/*
 * The elevator core: merge lookups, request-to-request merging, adding
 * and dispatching through the queue's scheduler, and switching the
 * scheduler of a live queue.
 *
 * Layer: between blk-core.c and blk-request.c (which call the elv_*
 * functions with the queue lock held) and the schedulers (noop-iosched.c,
 * deadline-iosched.c, kyber-iosched.c, which see only their ops).  Every request waiting in a scheduler is in
 * two hashes: by end sector (a bio starting there back-merges) and by
 * start sector (a bio ending there front-merges).  After a merge the grown
 * request is checked against its new neighbour, so a bio that fills the
 * gap between two requests turns them into one.
 *
 * Switching (elevator_switch) puts the queue in bypass, drains every
 * queued request into the dispatch list in the old scheduler's order,
 * then swaps: nothing queued is lost or reordered.
 */
#include "block/blk.h"
#include "block/blk-mq.h"
#include "block/elevator.h"
#include "kernel/errno.h"
#include "kernel/param.h"
#include "kernel/printk.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

static const struct elevator_type *const elevators[] = {
	&elevator_deadline,
	&elevator_kyber,
	&elevator_noop,
};

/* elevator=NAME on the command line: the scheduler of new queues. */
static const char *elevator_param = "deadline";
#ifndef HOST_TEST
PARAM_STR("elevator", elevator_param, "I/O scheduler for new queues (noop, deadline, kyber)");
#endif

const char *elv_default_name(void)
{
	return elevator_param;
}

const struct elevator_type *elv_find(const char *name)
{
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(elevators); i++)
		if (!strcmp(elevators[i]->et_name, name))
			return elevators[i];
	return NULL;
}

/* The i-th scheduler known, for listings; NULL past the end. */
const struct elevator_type *elv_type_at(unsigned i)
{
	return i < ARRAY_SIZE(elevators) ? elevators[i] : NULL;
}

static unsigned elv_hash(sector_t s)
{
	return (unsigned)((s * 0x9E3779B97F4A7C15ULL) >> (64 - ELV_HASH_BITS));
}

static void elv_rqhash_add(struct elevator_queue *e, struct request *rq)
{
	list_add(&rq->rq_hash_back, &e->e_hash_back[elv_hash(blk_rq_pos(rq) + blk_rq_sectors(rq))]);
	list_add(&rq->rq_hash_front, &e->e_hash_front[elv_hash(blk_rq_pos(rq))]);
	rq->rq_state |= RQF_HASHED;
}

static void elv_rqhash_del(struct request *rq)
{
	if (!(rq->rq_state & RQF_HASHED))
		return;
	list_del_init(&rq->rq_hash_back);
	list_del_init(&rq->rq_hash_front);
	rq->rq_state &= ~RQF_HASHED;
}

static void elv_rqhash_reposition(struct elevator_queue *e, struct request *rq)
{
	elv_rqhash_del(rq);
	elv_rqhash_add(e, rq);
}

/* The waiting request that ends at sector s, or NULL. */
static struct request *elv_find_back(struct elevator_queue *e, sector_t s)
{
	struct request *rq;

	list_for_each_entry(rq, &e->e_hash_back[elv_hash(s)], rq_hash_back)
		if (blk_rq_pos(rq) + blk_rq_sectors(rq) == s)
			return rq;
	return NULL;
}

/* The waiting request that starts at sector s, or NULL. */
static struct request *elv_find_front(struct elevator_queue *e, sector_t s)
{
	struct request *rq;

	list_for_each_entry(rq, &e->e_hash_front[elv_hash(s)], rq_hash_front)
		if (blk_rq_pos(rq) == s)
			return rq;
	return NULL;
}

/* Does the scheduler let waiting rq grow by bytes? */
static bool elv_allow_merge(struct request_queue *q, const struct request *rq, u32 bytes)
{
	const struct elevator_ops *ops = q->q_elevator->e_type->et_ops;

	return !ops->elv_allow_merge || ops->elv_allow_merge(q, rq, bytes);
}

/* Take rq out of the scheduler and the hashes, without dispatching it. */
static void elv_remove_merged(struct request_queue *q, struct request *rq,
			      struct request *next)
{
	struct elevator_queue *e = q->q_elevator;

	elv_rqhash_del(next);
	if (e->e_type->et_ops->elv_merged_requests)
		e->e_type->et_ops->elv_merged_requests(q, rq, next);
	next->rq_state &= ~RQF_SORTED;
	q->q_in_elevator--;
	if (q->q_last_merge == next)
		q->q_last_merge = NULL;
	blk_stat_rq_done(q, next);	/* leaves the in-flight count; no I/O of its own */
	__blk_put_request(q, next);
}

/* rq grew at the back: merge it with the request that now follows it. */
static void elv_merge_latter(struct request_queue *q, struct request *rq)
{
	struct request *next = elv_find_front(q->q_elevator, blk_rq_pos(rq) + blk_rq_sectors(rq));

	if (next && next != rq && elv_allow_merge(q, rq, blk_rq_bytes(next)) &&
	    blk_attempt_req_merge(q, rq, next)) {
		elv_remove_merged(q, rq, next);
		elv_rqhash_reposition(q->q_elevator, rq);
	}
}

/* rq grew at the front: merge the request that now precedes it into it. */
static struct request *elv_merge_former(struct request_queue *q, struct request *rq)
{
	struct request *prev = elv_find_back(q->q_elevator, blk_rq_pos(rq));

	if (prev && prev != rq && elv_allow_merge(q, prev, blk_rq_bytes(rq)) &&
	    blk_attempt_req_merge(q, prev, rq)) {
		elv_remove_merged(q, prev, rq);
		elv_rqhash_reposition(q->q_elevator, prev);
		return prev;
	}
	return rq;
}

static bool elv_back_merge(struct request_queue *q, struct request *rq, struct bio *bio)
{
	const struct elevator_ops *ops = q->q_elevator->e_type->et_ops;

	if (!rq || !(rq->rq_state & RQF_SORTED) ||
	    !elv_allow_merge(q, rq, bio->bi_iter.bi_size) || !blk_try_back_merge(q, rq, bio))
		return false;
	elv_rqhash_reposition(q->q_elevator, rq);
	if (ops->elv_merged)
		ops->elv_merged(q, rq, false);
	elv_merge_latter(q, rq);
	q->q_last_merge = rq;
	return true;
}

static bool elv_front_merge(struct request_queue *q, struct request *rq, struct bio *bio)
{
	const struct elevator_ops *ops = q->q_elevator->e_type->et_ops;

	if (!rq || !(rq->rq_state & RQF_SORTED) ||
	    !elv_allow_merge(q, rq, bio->bi_iter.bi_size) || !blk_try_front_merge(q, rq, bio))
		return false;
	elv_rqhash_reposition(q->q_elevator, rq);
	if (ops->elv_merged)
		ops->elv_merged(q, rq, true);
	q->q_last_merge = elv_merge_former(q, rq);
	return true;
}

/**
 * elv_bio_merge - merge bio into a waiting request if one is adjacent.
 * Return: true when bio is now part of a request.  Queue lock held.
 */
bool elv_bio_merge(struct request_queue *q, struct bio *bio)
{
	struct elevator_queue *e = q->q_elevator;

	assert_spin_locked(q->q_lock);
	if (!e || (q->q_flags & (QUEUE_FLAG_NOMERGES | QUEUE_FLAG_BYPASS)) ||
	    (bio->bi_rw & REQ_NOMERGE_FLAGS) || !bio->bi_iter.bi_size)
		return false;
	if (elv_back_merge(q, q->q_last_merge, bio) || elv_front_merge(q, q->q_last_merge, bio))
		return true;
	if (elv_back_merge(q, elv_find_back(e, bio->bi_iter.bi_sector), bio))
		return true;
	return elv_front_merge(q, elv_find_front(e, bio_end_sector(bio)), bio);
}

/* Hand a new request to the scheduler (or straight to dispatch in bypass). */
void elv_add_request(struct request_queue *q, struct request *rq)
{
	struct elevator_queue *e = q->q_elevator;

	assert_spin_locked(q->q_lock);
	__blk_trace(q, BLK_TA_INSERT, blk_rq_pos(rq), blk_rq_bytes(rq), rq->rq_cmd_flags, 0);
	if (!e || (q->q_flags & QUEUE_FLAG_BYPASS)) {
		blk_dispatch_add(q, rq, false);
		return;
	}
	if (!(rq->rq_cmd_flags & REQ_NOMERGE_FLAGS) && rq->rq_bio)
		elv_rqhash_add(e, rq);
	rq->rq_state |= RQF_SORTED;
	q->q_in_elevator++;
	e->e_type->et_ops->elv_add(q, rq);
}

/* Move the scheduler's next choice to the dispatch list; force empties it. */
static struct request *__elv_next(struct request_queue *q, bool force)
{
	struct elevator_queue *e = q->q_elevator;
	struct request *rq;

	if (!e || !q->q_in_elevator)
		return NULL;
	rq = e->e_type->et_ops->elv_dispatch(q, force);
	if (!rq)
		return NULL;
	elv_rqhash_del(rq);
	rq->rq_state &= ~RQF_SORTED;
	q->q_in_elevator--;
	if (q->q_last_merge == rq)
		q->q_last_merge = NULL;
	blk_dispatch_add(q, rq, false);
	__blk_trace(q, BLK_TA_DISPATCH, blk_rq_pos(rq), blk_rq_bytes(rq), rq->rq_cmd_flags, 0);
	return rq;
}

/* Queue lock held: the scheduler's next request, now on q_dispatch. */
struct request *elv_next_request(struct request_queue *q)
{
	assert_spin_locked(q->q_lock);
	return __elv_next(q, false);
}

void elv_completed_request(struct request_queue *q, struct request *rq)
{
	struct elevator_queue *e = q->q_elevator;

	if (e && e->e_type->et_ops->elv_completed)
		e->e_type->et_ops->elv_completed(q, rq);
}

static struct elevator_queue *elv_alloc(struct request_queue *q, const struct elevator_type *t)
{
	struct elevator_queue *e = kzalloc(sizeof(*e), GFP_KERNEL);
	unsigned i;

	if (!e)
		return NULL;
	e->e_type = t;
	for (i = 0; i < ELV_HASH_SIZE; i++) {
		INIT_LIST_HEAD(&e->e_hash_back[i]);
		INIT_LIST_HEAD(&e->e_hash_front[i]);
	}
	if (t->et_ops->elv_init(q, e)) {
		kfree(e);
		return NULL;
	}
	return e;
}

/**
 * elevator_init - give a new queue its scheduler (NULL: the elevator= one).
 * Return: 0, -EINVAL for an unknown name, -ENOMEM.
 */
int elevator_init(struct request_queue *q, const char *name)
{
	const struct elevator_type *t = elv_find(name ? name : elv_default_name());

	if (!t) {
		pr_warn("%s: unknown elevator %s, using noop\n", q->q_name, name ? name : elevator_param);
		t = &elevator_noop;
	}
	q->q_elevator = elv_alloc(q, t);
	return q->q_elevator ? 0 : -ENOMEM;
}

/* Free the scheduler of an empty queue. */
void elevator_exit(struct request_queue *q)
{
	struct elevator_queue *e = q->q_elevator;

	if (!e)
		return;
	KASSERT(q->q_in_elevator == 0);
	if (e->e_type->et_ops->elv_exit)
		e->e_type->et_ops->elv_exit(e);
	kfree(e);
	q->q_elevator = NULL;
}

/**
 * elevator_switch - change a live queue's scheduler.
 * Requests waiting in the old one move to the dispatch list in its order;
 * while switching, new requests bypass scheduling.  A multi-queue queue
 * may also go to or from "none" (its software queues, no scheduler).
 * Return: 0, -EINVAL for an unknown name, -ENOMEM (the old one stays).
 */
int elevator_switch(struct request_queue *q, const char *name)
{
	bool none = queue_is_mq(q) && !strcmp(name, ELV_NONE_NAME);
	const struct elevator_type *t = none ? NULL : elv_find(name);
	struct elevator_queue *old, *new = NULL;
	unsigned long flags;

	if (!t && !none)
		return -EINVAL;
	if (!queue_is_mq(q) && !q->q_elevator)
		return 0;
	if ((q->q_elevator ? q->q_elevator->e_type : NULL) == t)
		return 0;
	spin_lock_irqsave(q->q_lock, flags);
	q->q_flags |= QUEUE_FLAG_BYPASS;
	while (__elv_next(q, true))
		;
	KASSERT(q->q_in_elevator == 0);
	old = q->q_elevator;
	blk_queue_unlock(q, flags);

	if (t)
		new = elv_alloc(q, t);	/* may sleep for memory: not under the lock */

	spin_lock_irqsave(q->q_lock, flags);
	if (new || none) {
		q->q_elevator = new;
		q->q_last_merge = NULL;
	}
	q->q_flags &= ~QUEUE_FLAG_BYPASS;
	blk_queue_unlock(q, flags);
	if (t && !new)
		return -ENOMEM;
	if (old && old->e_type->et_ops->elv_exit)
		old->e_type->et_ops->elv_exit(old);
	kfree(old);
	blk_run_queue(q);
	return 0;
}

static const struct elv_tunable *elv_tunable(struct request_queue *q, const char *name)
{
	const struct elevator_type *t = q->q_elevator ? q->q_elevator->e_type : NULL;
	u32 i;

	for (i = 0; t && i < t->et_nr_tunables; i++)
		if (!strcmp(t->et_tunables[i].tn_name, name))
			return &t->et_tunables[i];
	return NULL;
}

/* Read a tunable of q's scheduler; 0 or -ENOENT. */
int elv_tunable_get(struct request_queue *q, const char *name, u32 *val)
{
	unsigned long flags;
	const struct elv_tunable *tn;
	int err = -ENOENT;

	spin_lock_irqsave(q->q_lock, flags);
	tn = elv_tunable(q, name);
	if (tn) {
		*val = *(u32 *)((char *)q->q_elevator->e_data + tn->tn_offset);
		err = 0;
	}
	spin_unlock_irqrestore(q->q_lock, flags);
	return err;
}

/* Set a tunable of q's scheduler; 0, -ENOENT, or -ERANGE. */
int elv_tunable_set(struct request_queue *q, const char *name, u32 val)
{
	unsigned long flags;
	const struct elv_tunable *tn;
	int err = -ENOENT;

	spin_lock_irqsave(q->q_lock, flags);
	tn = elv_tunable(q, name);
	if (tn && (val < tn->tn_min || val > tn->tn_max)) {
		err = -ERANGE;
	} else if (tn) {
		*(u32 *)((char *)q->q_elevator->e_data + tn->tn_offset) = val;
		err = 0;
	}
	spin_unlock_irqrestore(q->q_lock, flags);
	return err;
}
