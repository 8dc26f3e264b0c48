/*
 * Flush and FUA sequencing: the block layer's ordering promise.
 *
 * A request carrying REQ_PREFLUSH and/or REQ_FUA runs as a sequence of
 * steps, decided once by blk_flush_policy() from what the device has:
 *   PREFLUSH   a cache flush before the data (the bio asked for one and
 *              the device has a volatile write cache);
 *   DATA       the write itself (FUA kept only if the device honours it);
 *   POSTFLUSH  a cache flush after the data: FUA emulated on a device with
 *              a cache but without FUA.
 * A device without a write cache needs no steps: the data goes as a
 * plain write, and a pure flush ends at once.
 *
 * Sequences share their flushes (the scheme of Linux 2.6.37 and later).
 * A sequence whose next step is a flush joins the pending list; one flush
 * command is then issued for the whole list, which becomes the running
 * list, and when that flush completes every sequence on it has done its
 * step.  A data step is an ordinary request, put at the head of the
 * dispatch list since it has waited for its pre-flush already, and any
 * number of them may be in flight at once.  Three rules:
 *   C1  One flush in flight at a time.  Sequences that reach a flush step
 *       meanwhile wait for the next one -- a flush covers only the writes
 *       completed before it was issued -- so two lists, swapped, suffice.
 *   C2  No flush is issued while a data step is in flight, so that the
 *       sequences which shared a pre-flush share their post-flush too.
 *   C3  Unless the pending list has waited BLK_FLUSH_PENDING_MS: a stream
 *       of FUA writes must not starve it.
 * A failed flush ends every sequence it covered with its error; a failed
 * data step ends its own sequence.  The bios of a sequenced request are
 * advanced by the data step but ended only with the sequence, so a FUA
 * write completes only after its post-flush.  All under the queue lock.
 */
#include "block/blk.h"
#include "block/blk-mq-priv.h"
#include "kernel/errno.h"
#include "kernel/time.h"

#define FLUSH_STEPS	(BLK_FLUSH_STEP_PREFLUSH | BLK_FLUSH_STEP_DATA | BLK_FLUSH_STEP_POSTFLUSH)

/* Which steps a request needs (BLK_FLUSH_STEP_*); 0 means none at all. */
u32 blk_flush_policy(u32 q_flush_flags, u32 rw_flags, bool has_data)
{
	u32 policy = has_data ? BLK_FLUSH_STEP_DATA : 0;

	if (q_flush_flags & BLK_FLUSH_CACHE) {
		if (rw_flags & REQ_PREFLUSH)
			policy |= BLK_FLUSH_STEP_PREFLUSH;
		if (has_data && (rw_flags & REQ_FUA) && !(q_flush_flags & BLK_FLUSH_FUA))
			policy |= BLK_FLUSH_STEP_POSTFLUSH;
	}
	return policy;
}

void blk_flush_init(struct request_queue *q)
{
	struct blk_flush_queue *fq = &q->q_flush;

	INIT_LIST_HEAD(&fq->fq_list[0]);
	INIT_LIST_HEAD(&fq->fq_list[1]);
	fq->fq_rq = &fq->fq_flush_rq;
	fq->fq_pending_idx = fq->fq_running_idx = 0;
	fq->fq_data_in_flight = 0;
}

/* Is a sequence waiting for a flush, or covered by the one in flight?  Queue lock held. */
bool blk_flush_busy(const struct request_queue *q)
{
	const struct blk_flush_queue *fq = &q->q_flush;

	return !list_empty(&fq->fq_list[0]) || !list_empty(&fq->fq_list[1]);
}

/* The step rq is at: its lowest step not done, BLK_FLUSH_STEP_DONE after the last. */
static u32 flush_cur_step(const struct request *rq)
{
	u32 left = ~rq->rq_flush_seq;

	return left & -left;
}

/* The sequence of rq is over: end its bios, then rq itself.  Queue lock held. */
static void flush_end_seq(struct request_queue *q, struct request *rq, int error)
{
	struct bio *bio;

	rq->rq_state &= ~RQF_FLUSH_SEQ;
	rq->rq_end_io = rq->rq_flush_saved_end_io;
	if (error && !rq->rq_errors)
		rq->rq_errors = error;
	while ((bio = rq->rq_bio)) {
		rq->rq_bio = bio->bi_next;
		bio->bi_next = NULL;
		bio_endio(bio, bio->bi_iter.bi_size && !rq->rq_errors ? -EIO : rq->rq_errors);
	}
	rq->rq_biotail = NULL;
	blk_stat_rq_done(q, rq);
	if (rq->rq_end_io)
		rq->rq_end_io(rq, rq->rq_errors);
	else
		__blk_put_request(q, rq);
}

/*
 * rq has done step (0 at the start) with error: send it on to its next
 * step -- the pending list for a flush, the dispatch list for its data,
 * or the end of its sequence (at once on an error).  Queue lock held.
 */
static void flush_advance(struct request_queue *q, struct request *rq, u32 step, int error)
{
	struct blk_flush_queue *fq = &q->q_flush;
	struct list_head *pending = &fq->fq_list[fq->fq_pending_idx];

	KASSERT(!(rq->rq_flush_seq & step));
	rq->rq_flush_seq |= step;
	step = error ? BLK_FLUSH_STEP_DONE : flush_cur_step(rq);
	__blk_trace(q, BLK_TA_FLUSH, blk_rq_pos(rq), blk_rq_bytes(rq), rq->rq_cmd_flags, (s32)step);
	switch (step) {
	case BLK_FLUSH_STEP_PREFLUSH:
	case BLK_FLUSH_STEP_POSTFLUSH:
		if (list_empty(pending))
			fq->fq_pending_since = ktime_ms();
		list_move_tail(&rq->rq_flush_list, pending);
		break;
	case BLK_FLUSH_STEP_DATA:
		list_del_init(&rq->rq_flush_list);
		fq->fq_data_in_flight++;
		__blk_insert_request(q, rq, true);
		break;
	default:
		list_del_init(&rq->rq_flush_list);
		flush_end_seq(q, rq, error);
	}
}

static void flush_end_io(struct request *f, int error);

/* Issue one flush for the whole pending list, if C1-C3 allow.  Queue lock held. */
static void flush_kick(struct request_queue *q)
{
	struct blk_flush_queue *fq = &q->q_flush;
	struct list_head *pending = &fq->fq_list[fq->fq_pending_idx];
	struct request *f = fq->fq_rq;

	if (fq->fq_pending_idx != fq->fq_running_idx || list_empty(pending))
		return;
	if (fq->fq_data_in_flight && ktime_ms() - fq->fq_pending_since < BLK_FLUSH_PENDING_MS)
		return;
	blk_rq_init(q, f);
	if (queue_is_mq(q))	/* the driver needs a tag: the first waiter's is idle */
		blk_mq_flush_borrow_tag(f, list_first_entry(pending, struct request, rq_flush_list));
	f->rq_cmd_flags = REQ_WRITE | REQ_PREFLUSH;
	f->rq_state = RQF_FLUSH_SEQ;
	f->rq_end_io = flush_end_io;
	fq->fq_pending_idx ^= 1;	/* the pending list is now the running one */
	q->q_stats.st_flushes++;
	__blk_insert_request(q, f, false);
}

/* The flush ended: every sequence it covered has done its flush step. */
static void flush_end_io(struct request *f, int error)
{
	struct request_queue *q = f->rq_q;
	struct blk_flush_queue *fq = &q->q_flush;
	struct list_head *running = &fq->fq_list[fq->fq_running_idx];
	struct request *rq, *n;
	u32 step;

	KASSERT(fq->fq_pending_idx != fq->fq_running_idx);
	if (queue_is_mq(q))
		blk_mq_flush_return_tag(f);
	fq->fq_running_idx ^= 1;
	list_for_each_entry_safe(rq, n, running, rq_flush_list) {
		step = flush_cur_step(rq);
		KASSERT(step == BLK_FLUSH_STEP_PREFLUSH || step == BLK_FLUSH_STEP_POSTFLUSH);
		flush_advance(q, rq, step, error);
	}
	flush_kick(q);
	__blk_run_queue(q);
}

/* The data step ended (its bios advanced, not ended). */
static void flush_data_end_io(struct request *rq, int error)
{
	struct request_queue *q = rq->rq_q;

	KASSERT(q->q_flush.fq_data_in_flight);
	q->q_flush.fq_data_in_flight--;
	flush_advance(q, rq, BLK_FLUSH_STEP_DATA, error);
	flush_kick(q);
	__blk_run_queue(q);
}

/**
 * blk_insert_flush - queue a request built from a PREFLUSH/FUA bio.
 * Strips the flags the device must not see and starts its sequence, or
 * sends it on as a plain request when it needs no flush.  The caller runs
 * the queue.  Queue lock held.
 */
void blk_insert_flush(struct request *rq)
{
	struct request_queue *q = rq->rq_q;
	u32 policy = blk_flush_policy(q->q_flush_flags, rq->rq_cmd_flags, rq->rq_data_len != 0);

	assert_spin_locked(q->q_lock);
	rq->rq_cmd_flags &= ~REQ_PREFLUSH;
	if (!(q->q_flush_flags & BLK_FLUSH_FUA))
		rq->rq_cmd_flags &= ~REQ_FUA;
	if (!policy) {
		__blk_end_request_all(rq, 0);	/* a flush with no cache to flush */
		return;
	}
	if (policy == BLK_FLUSH_STEP_DATA) {
		__blk_insert_request(q, rq, false);
		return;
	}
	rq->rq_flush_seq = FLUSH_STEPS & ~policy;	/* steps not needed count as done */
	rq->rq_state |= RQF_FLUSH_SEQ;
	rq->rq_flush_saved_end_io = rq->rq_end_io;
	rq->rq_end_io = flush_data_end_io;
	flush_advance(q, rq, 0, 0);
	flush_kick(q);
}
