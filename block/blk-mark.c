/*
 * Marks in a device's write stream (block/blk-mark.h): a small table of
 * {queue, hook} pairs.  The block core never calls it; a recording
 * driver fills it in and a workload asks it.  Several recorders may run
 * at once (one per stacked device), each found by its own queue.
 *
 * Lock legend: [m] blk_marks_lock (irqsave): the table.
 */
#include "block/blk-mark.h"
#include "kernel/errno.h"
#include "kernel/spinlock.h"

struct blk_mark_hook {
	struct request_queue	*mh_queue;	/* [m] NULL: free slot */
	blk_mark_fn		*mh_fn;		/* [m] */
};

static DEFINE_SPINLOCK(blk_marks_lock);
static struct blk_mark_hook blk_marks[BLK_MARK_MAX_HOOKS];	/* [m] */

/* The slot of q, or NULL.  blk_marks_lock held. */
static struct blk_mark_hook *__blk_mark_find(struct request_queue *q)
{
	unsigned i;

	for (i = 0; i < BLK_MARK_MAX_HOOKS; i++)
		if (blk_marks[i].mh_queue == q)
			return &blk_marks[i];
	return NULL;
}

int blk_mark_register(struct request_queue *q, blk_mark_fn *fn)
{
	struct blk_mark_hook *h;
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&blk_marks_lock, flags);
	if (__blk_mark_find(q)) {
		err = -EBUSY;
		goto unlock;
	}
	h = __blk_mark_find(NULL);
	if (!h) {
		err = -ENOSPC;
		goto unlock;
	}
	h->mh_queue = q;
	h->mh_fn = fn;
unlock:
	spin_unlock_irqrestore(&blk_marks_lock, flags);
	return err;
}

void blk_mark_unregister(struct request_queue *q)
{
	struct blk_mark_hook *h;
	unsigned long flags;

	spin_lock_irqsave(&blk_marks_lock, flags);
	h = q ? __blk_mark_find(q) : NULL;
	if (h) {
		h->mh_queue = NULL;
		h->mh_fn = NULL;
	}
	spin_unlock_irqrestore(&blk_marks_lock, flags);
}

int blk_mark(struct request_queue *q, const char *text, u64 *pos)
{
	struct blk_mark_hook *h;
	blk_mark_fn *fn = NULL;
	unsigned long flags;

	spin_lock_irqsave(&blk_marks_lock, flags);
	h = q ? __blk_mark_find(q) : NULL;
	if (h)
		fn = h->mh_fn;
	spin_unlock_irqrestore(&blk_marks_lock, flags);
	/* The hook runs unlocked: it writes its log and sleeps. */
	return fn ? fn(q, text, pos) : -EOPNOTSUPP;
}
