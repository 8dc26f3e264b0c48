/*
 * One-shot timers on the tick.  Pending timers sit on one list sorted by
 * expiry, so the tick looks only at the head.  A timer function runs in
 * the tick interrupt with the lock dropped, so it may re-arm itself or
 * arm others.
 *
 * Lock legend: [t] timer_lock (irqsave): the list, t_pending, t_expires.
 */
#include "kernel/timer.h"
#include "kernel/time.h"
#include "kernel/spinlock.h"

static DEFINE_SPINLOCK(timer_lock);
static LIST_HEAD(timer_list);		/* [t] sorted by t_expires */

void timer_setup(struct timer_list *t, void (*fn)(struct timer_list *))
{
	INIT_LIST_HEAD(&t->t_entry);
	t->t_fn = fn;
	t->t_expires = 0;
	t->t_pending = false;
}

static void __del_timer(struct timer_list *t)
{
	list_del_init(&t->t_entry);
	t->t_pending = false;
}

void mod_timer(struct timer_list *t, u64 expires)
{
	struct timer_list *pos;
	unsigned long flags;

	spin_lock_irqsave(&timer_lock, flags);
	if (t->t_pending)
		__del_timer(t);
	t->t_expires = expires;
	t->t_pending = true;
	list_for_each_entry(pos, &timer_list, t_entry)
		if (pos->t_expires > expires)
			break;
	list_add_tail(&t->t_entry, &pos->t_entry);	/* before pos */
	spin_unlock_irqrestore(&timer_lock, flags);
}

bool del_timer(struct timer_list *t)
{
	unsigned long flags;
	bool was;

	spin_lock_irqsave(&timer_lock, flags);
	was = t->t_pending;
	if (was)
		__del_timer(t);
	spin_unlock_irqrestore(&timer_lock, flags);
	return was;
}

bool timer_pending(const struct timer_list *t)
{
	return t->t_pending;
}

/* From the tick interrupt: run every timer that is due. */
void timer_tick(void)
{
	u64 now = get_jiffies_64();
	struct timer_list *t;

	spin_lock(&timer_lock);
	while (!list_empty(&timer_list)) {
		t = list_first_entry(&timer_list, struct timer_list, t_entry);
		if (t->t_expires > now)
			break;
		__del_timer(t);
		spin_unlock(&timer_lock);
		t->t_fn(t);
		spin_lock(&timer_lock);
	}
	spin_unlock(&timer_lock);
}
