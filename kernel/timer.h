/*
 * One-shot kernel timers, for I/O timeouts and the block layer's unplug.
 * A timer's function runs from the tick interrupt, with interrupts off.
 */
#ifndef KERNEL_TIMER_H
#define KERNEL_TIMER_H

#include "lib/list.h"

struct timer_list {
	struct list_head	t_entry;	/* [timer lock] on the pending list */
	u64			t_expires;	/* [timer lock] in jiffies */
	void			(*t_fn)(struct timer_list *);
	bool			t_pending;	/* [timer lock] */
};

void timer_setup(struct timer_list *t, void (*fn)(struct timer_list *));
/* Arm (or re-arm) t to fire at jiffies >= expires. */
void mod_timer(struct timer_list *t, u64 expires);
/* Disarm t; returns true if it was pending. Safe from its own function. */
bool del_timer(struct timer_list *t);
bool timer_pending(const struct timer_list *t);
/* From the tick interrupt (time.c): run every timer that is due. */
void timer_tick(void);

#endif
