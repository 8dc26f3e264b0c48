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
 * Sequences run one at a time, in submission order, through one flush
 * command embedded in the queue; the driver sees an ordinary request for
 * which blk_rq_is_flush() is true.  The bios of a sequenced request are
 * advanced by the data step but ended only when the whole sequence ends,
 * so a FUA write completes only after its post-flush.  An error in any
 * step ends the sequence with that error.  All under the queue lock.
 */
#include "block/blk.h"
#include "kernel/errno.h"

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
	INIT_LIST_HEAD(&q->q_flush.fq_pending);
	q->q_flush.fq_flush_busy = false;
}

/* The lowest step rq still needs, or 0 when it has done them all. */
static u32 flush_next_step(const struct request *rq)
{
	u32 left = rq->rq_flush_policy & ~rq->rq_flush_seq;

	return left & -left;
}

/* End the sequence of rq (the head of the pending list). */
static void flush_complete_seq(struct request_queue *q, struct request *rq, int error)
{
	struct bio *bio;

	list_del_init(&rq->rq_flush_list);
	rq->rq_state &= ~RQF_FLUSH_SEQ;
	rq->rq_end_io = rq->rq_flush_saved_end_io;
	rq->rq_flush_seq |= BLK_FLUSH_STEP_DONE;
	if (error && !rq->rq_errors)
		rq->rq_errors = error;
	__blk_trace(q, BLK_TA_FLUSH, blk_rq_pos(rq), 0, rq->rq_cmd_flags, BLK_FLUSH_STEP_DONE);
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

static void flush_end_io(struct request *f, int error);
static void flush_data_end_io(struct request *rq, int error);

/* Start the next step of the head sequence, if nothing is in flight. */
static void blk_flush_kick(struct request_queue *q)
{
	struct blk_flush_queue *fq = &q->q_flush;
	struct request *rq, *f = &fq->fq_flush_rq;
	u32 step;

	while (!fq->fq_flush_busy && !(q->q_flags & QUEUE_FLAG_FLUSH_BUSY) &&
	       !list_empty(&fq->fq_pending)) {
		rq = list_first_entry(&fq->fq_pending, struct request, rq_flush_list);
		step = flush_next_step(rq);
		if (!step) {
			flush_complete_seq(q, rq, 0);
			continue;
		}
		__blk_trace(q, BLK_TA_FLUSH, blk_rq_pos(rq), blk_rq_bytes(rq), rq->rq_cmd_flags,
			    (s32)step);
		if (step == BLK_FLUSH_STEP_DATA) {
			q->q_flags |= QUEUE_FLAG_FLUSH_BUSY;
			__blk_insert_request(q, rq, false);
		} else {
			blk_rq_init(q, f);
			f->rq_cmd_flags = REQ_WRITE | REQ_PREFLUSH | REQ_SYNC;
			f->rq_state = RQF_FLUSH_SEQ;
			f->rq_end_io = flush_end_io;
			fq->fq_flush_busy = true;
			q->q_stats.st_flushes++;
			__blk_insert_request(q, f, false);
		}
		__blk_run_queue(q);
	}
}

/* The flush command ended: the head sequence's flush step is done. */
static void flush_end_io(struct request *f, int error)
{
	struct request_queue *q = f->rq_q;
	struct request *rq;

	q->q_flush.fq_flush_busy = false;
	KASSERT(!list_empty(&q->q_flush.fq_pending));
	rq = list_first_entry(&q->q_flush.fq_pending, struct request, rq_flush_list);
	if (error)
		flush_complete_seq(q, rq, error);
	else
		rq->rq_flush_seq |= flush_next_step(rq);
	blk_flush_kick(q);
}

/* The data step ended (its bios advanced, not ended). */
static void flush_data_end_io(struct request *rq, int error)
{
	struct request_queue *q = rq->rq_q;

	q->q_flags &= ~QUEUE_FLAG_FLUSH_BUSY;
	rq->rq_flush_seq |= BLK_FLUSH_STEP_DATA;
	if (error)
		flush_complete_seq(q, rq, error);
	blk_flush_kick(q);
}

/**
 * blk_insert_flush - queue a request built from a PREFLUSH/FUA bio.
 * Strips the flags the device must not see and starts its sequence, or
 * sends it on as a plain request when it needs no flush.  Queue lock held.
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
	rq->rq_flush_policy = policy;
	rq->rq_flush_seq = 0;
	rq->rq_state |= RQF_FLUSH_SEQ;
	rq->rq_flush_saved_end_io = rq->rq_end_io;
	rq->rq_end_io = flush_data_end_io;
	list_add_tail(&rq->rq_flush_list, &q->q_flush.fq_pending);
	blk_flush_kick(q);
}
