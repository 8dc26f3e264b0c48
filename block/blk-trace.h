/*
 * A trace ring per queue: what the block layer did with each I/O, for
 * tests that must prove a merge, an ordering or a tag happened, and for
 * the blktrace shell command.  Fixed size, oldest entries overwritten;
 * te_seq numbers events so a reader can tell it missed some.
 * Every field is [q]: written and read under the queue lock.
 */
#ifndef BLOCK_BLK_TRACE_H
#define BLOCK_BLK_TRACE_H

#include "kernel/types.h"

struct request_queue;

enum blk_trace_act {
	BLK_TA_QUEUE,		/* bio entered the queue */
	BLK_TA_BACKMERGE,	/* bio merged at a request's end */
	BLK_TA_FRONTMERGE,	/* bio merged at a request's start */
	BLK_TA_RQMERGE,		/* two requests became one */
	BLK_TA_SPLIT,		/* bio split to limits; te_arg: sectors in front */
	BLK_TA_BOUNCE,		/* bio bounced; te_arg: pages */
	BLK_TA_PLUG,
	BLK_TA_UNPLUG,		/* te_arg: requests queued at unplug */
	BLK_TA_INSERT,		/* request handed to the elevator */
	BLK_TA_DISPATCH,	/* elevator moved it to the dispatch list */
	BLK_TA_ISSUE,		/* driver started it */
	BLK_TA_TAG,		/* te_arg: the tag */
	BLK_TA_COMPLETE,	/* te_arg: error */
	BLK_TA_REQUEUE,
	BLK_TA_TIMEOUT,
	BLK_TA_FLUSH,		/* flush sequence step; te_arg: step */
	BLK_TA_ERROR,		/* te_arg: error */
	BLK_TA_NR
};
extern const char *const blk_trace_act_names[BLK_TA_NR];

struct blk_trace_event {
	u64	te_seq;
	u64	te_time_ns;
	sector_t te_sector;
	u32	te_bytes;
	u16	te_act;		/* enum blk_trace_act */
	u16	te_rw;		/* REQ_* bits, truncated */
	s32	te_arg;
};

#define BLK_TRACE_ENTRIES	1024u

struct blk_trace {
	u64			bt_seq;			/* next sequence number */
	struct blk_trace_event	bt_ring[BLK_TRACE_ENTRIES];
};

int blk_trace_enable(struct request_queue *q);
void blk_trace_disable(struct request_queue *q);
void blk_trace_clear(struct request_queue *q);
/* Record an event; q lock held; tracing on (see __blk_trace in block/blk.h). */
void blk_trace_record(struct blk_trace *bt, enum blk_trace_act act, sector_t sector,
		      u32 bytes, u32 rw, s32 arg);
/*
 * Copy the events with sequence >= from, oldest first, into out (at most
 * max); returns how many.  Takes the queue lock.
 */
u32 blk_trace_read(struct request_queue *q, u64 from, struct blk_trace_event *out, u32 max);
/* Events of one kind with sequence >= from; takes the queue lock. */
u32 blk_trace_count(struct request_queue *q, u64 from, enum blk_trace_act act);
u64 blk_trace_seq(struct request_queue *q);

#endif
