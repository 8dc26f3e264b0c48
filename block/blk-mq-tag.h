/*
 * The tag allocator of blk-mq: one per hardware queue, of set->queue_depth
 * tags, the first set->reserved_tags of which are kept for a driver's own
 * commands (blk_mq_alloc_request(..., reserved)).  A tag names one
 * preallocated request and can be the device's command identifier.
 *
 * The free map is an array of 32-bit words changed only with atomic
 * operations, so taking and giving back a tag needs no lock and is safe
 * from interrupt context; a "next word" hint makes finding a free tag
 * O(1) when the map is not nearly full.  Portable: built on the host for
 * tests/unit/test_blk_mq_tag.c.
 *
 * Lock legend: [I] immutable after blk_mq_init_tags(), [t] atomic.
 */
#ifndef BLOCK_BLK_MQ_TAG_H
#define BLOCK_BLK_MQ_TAG_H

#include "kernel/types.h"

struct request;

#define BLK_MQ_NO_TAG	(-1)

/* One range of tags: the reserved ones or the normal ones. */
struct blk_mq_bitmap {
	u32		bm_first;	/* [I] first tag of the range */
	u32		bm_nr;		/* [I] tags in the range */
	u32		bm_words;	/* [I] words of bm_map */
	u32		*bm_map;	/* [t] bit set: tag in use */
	u32		bm_hint;	/* [t] word to look at first (a hint: races are harmless) */
};

struct blk_mq_tags {
	u32			nr_tags;	/* [I] reserved + normal */
	u32			nr_reserved;	/* [I] */
	struct blk_mq_bitmap	reserved;	/* [t] tags 0 .. nr_reserved - 1 */
	struct blk_mq_bitmap	normal;		/* [t] tags nr_reserved .. nr_tags - 1 */
	u32			busy;		/* [t] tags in use */
	/* The request a tag names now (the flush command borrows one): NULL when free. */
	struct request		**rqs;		/* [t] */
	struct request		**static_rqs;	/* [I] the preallocated request of each tag */
	void			*rq_mem;	/* [I] their storage */
};

/**
 * blk_mq_init_tags - a tag space of depth tags, reserved of them reserved.
 * Return: the tags, or NULL (no memory, or depth not in 1..BLK_MQ_MAX_DEPTH,
 * or reserved >= depth).  Requests are the caller's (blk-mq.c).
 */
struct blk_mq_tags *blk_mq_init_tags(u32 depth, u32 reserved);
void blk_mq_free_tags(struct blk_mq_tags *tags);
/* A free tag of the range asked for, or BLK_MQ_NO_TAG.  Any context. */
int blk_mq_get_tag(struct blk_mq_tags *tags, bool reserved);
/* Give tag back.  Any context; the tag must be in use. */
void blk_mq_put_tag(struct blk_mq_tags *tags, u32 tag);
/* Is tag in use now?  (A snapshot.) */
bool blk_mq_tag_busy(const struct blk_mq_tags *tags, u32 tag);

#endif
