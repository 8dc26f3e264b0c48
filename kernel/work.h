/*
 * Deferred work: what an interrupt handler must not do itself (long
 * copies, new submissions that may wait for memory) it queues here; the
 * list is drained by waiters and the idle loop, with interrupts on.
 */
#ifndef KERNEL_WORK_H
#define KERNEL_WORK_H

#include "lib/list.h"

struct work {
	struct list_head	w_entry;
	void			(*w_fn)(struct work *);
	bool			w_queued;
};

static inline void work_init(struct work *w, void (*fn)(struct work *))
{
	INIT_LIST_HEAD(&w->w_entry);
	w->w_fn = fn;
	w->w_queued = false;
}

/* Queue w once (a second call before it runs is a no-op). IRQ-safe. */
void schedule_work(struct work *w);
/* Run everything queued; returns how many ran. Not from interrupt context. */
int run_deferred_work(void);

#endif
