/*
 * The per-queue trace ring (block/blk-trace.h).  Recording is a few
 * stores under the queue lock the caller already holds; the ring is
 * allocated only when tracing is enabled, so an untraced queue pays one
 * NULL test per event.  Readers copy events out under the lock.
 */
#include "block/blkdev.h"
#include "block/blk-trace.h"
#include "kernel/errno.h"
#include "kernel/time.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

const char *const blk_trace_act_names[BLK_TA_NR] = {
	[BLK_TA_QUEUE]		= "Q",
	[BLK_TA_BACKMERGE]	= "M",
	[BLK_TA_FRONTMERGE]	= "F",
	[BLK_TA_RQMERGE]	= "RM",
	[BLK_TA_SPLIT]		= "X",
	[BLK_TA_BOUNCE]		= "B",
	[BLK_TA_PLUG]		= "P",
	[BLK_TA_UNPLUG]		= "U",
	[BLK_TA_INSERT]		= "I",
	[BLK_TA_DISPATCH]	= "D",
	[BLK_TA_ISSUE]		= "S",
	[BLK_TA_TAG]		= "T",
	[BLK_TA_COMPLETE]	= "C",
	[BLK_TA_REQUEUE]	= "R",
	[BLK_TA_TIMEOUT]	= "TO",
	[BLK_TA_FLUSH]		= "FL",
	[BLK_TA_ERROR]		= "E",
};

/* Start tracing q (keeps an existing ring).  0 or -ENOMEM. */
int blk_trace_enable(struct request_queue *q)
{
	struct blk_trace *bt;
	unsigned long flags;

	if (q->q_trace)
		return 0;
	bt = kzalloc(sizeof(*bt), GFP_KERNEL);
	if (!bt)
		return -ENOMEM;
	spin_lock_irqsave(q->q_lock, flags);
	if (!q->q_trace) {
		q->q_trace = bt;
		bt = NULL;
	}
	spin_unlock_irqrestore(q->q_lock, flags);
	kfree(bt);
	return 0;
}

void blk_trace_disable(struct request_queue *q)
{
	struct blk_trace *bt;
	unsigned long flags;

	spin_lock_irqsave(q->q_lock, flags);
	bt = q->q_trace;
	q->q_trace = NULL;
	spin_unlock_irqrestore(q->q_lock, flags);
	kfree(bt);
}

/* Forget recorded events; sequence numbers keep counting. */
void blk_trace_clear(struct request_queue *q)
{
	unsigned long flags;
	u64 seq;

	spin_lock_irqsave(q->q_lock, flags);
	if (q->q_trace) {
		seq = q->q_trace->bt_seq;
		memset(q->q_trace->bt_ring, 0, sizeof(q->q_trace->bt_ring));
		q->q_trace->bt_seq = seq;
	}
	spin_unlock_irqrestore(q->q_lock, flags);
}

void blk_trace_record(struct blk_trace *bt, enum blk_trace_act act, sector_t sector,
		      u32 bytes, u32 rw, s32 arg)
{
	struct blk_trace_event *e;

	e = &bt->bt_ring[bt->bt_seq % BLK_TRACE_ENTRIES];
	e->te_seq = bt->bt_seq++;
	e->te_time_ns = ktime_ns();
	e->te_sector = sector;
	e->te_bytes = bytes;
	e->te_act = (u16)act;
	e->te_rw = (u16)rw;
	e->te_arg = arg;
}

u64 blk_trace_seq(struct request_queue *q)
{
	unsigned long flags;
	u64 seq;

	spin_lock_irqsave(q->q_lock, flags);
	seq = q->q_trace ? q->q_trace->bt_seq : 0;
	spin_unlock_irqrestore(q->q_lock, flags);
	return seq;
}

u32 blk_trace_read(struct request_queue *q, u64 from, struct blk_trace_event *out, u32 max)
{
	struct blk_trace *bt;
	unsigned long flags;
	u64 s, oldest;
	u32 n = 0;

	spin_lock_irqsave(q->q_lock, flags);
	bt = q->q_trace;
	if (bt) {
		oldest = bt->bt_seq > BLK_TRACE_ENTRIES ? bt->bt_seq - BLK_TRACE_ENTRIES : 0;
		for (s = max(from, oldest); s < bt->bt_seq && n < max; s++)
			out[n++] = bt->bt_ring[s % BLK_TRACE_ENTRIES];
	}
	spin_unlock_irqrestore(q->q_lock, flags);
	return n;
}

u32 blk_trace_count(struct request_queue *q, u64 from, enum blk_trace_act act)
{
	struct blk_trace *bt;
	unsigned long flags;
	u64 s, oldest;
	u32 n = 0;

	spin_lock_irqsave(q->q_lock, flags);
	bt = q->q_trace;
	if (bt) {
		oldest = bt->bt_seq > BLK_TRACE_ENTRIES ? bt->bt_seq - BLK_TRACE_ENTRIES : 0;
		for (s = max(from, oldest); s < bt->bt_seq; s++)
			n += bt->bt_ring[s % BLK_TRACE_ENTRIES].te_act == act;
	}
	spin_unlock_irqrestore(q->q_lock, flags);
	return n;
}
