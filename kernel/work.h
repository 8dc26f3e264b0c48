/*
 * Deferred work: what an interrupt handler must not do itself (long
 * copies, new submissions that may wait for memory) it queues here, and
 * what one CPU gives another to do; each CPU's list is drained by that
 * CPU's waiters and idle loop, with interrupts on (kernel/completion.c).
 */
#ifndef KERNEL_WORK_H
#define KERNEL_WORK_H

#include "lib/list.h"

struct work {
	struct list_head	w_entry;
	void			(*w_fn)(struct work *);
	bool			w_queued;	/* [a] on a CPU's list */
};

static inline void work_init(struct work *w, void (*fn)(struct work *))
{
	INIT_LIST_HEAD(&w->w_entry);
	w->w_fn = fn;
	w->w_queued = false;
}

/*
 * Queue w once on CPU cpu's list and wake that CPU (a second call before
 * it runs is a no-op, whichever CPU it names).  IRQ-safe.  w may be queued
 * again while it runs, and then runs again, perhaps on another CPU at the
 * same time: work queued on several CPUs serializes itself.
 */
void queue_work_on(u32 cpu, struct work *w);
/* queue_work_on() this CPU: what an interrupt handler defers. */
void schedule_work(struct work *w);
/* Set up every CPU's list: in kmain, before anything can queue work. */
void work_lists_init(void);
/* Run everything queued on this CPU; returns how many ran. Not from interrupt context. */
int run_deferred_work(void);

#endif
