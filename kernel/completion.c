/*
 * Waiting without processes, and deferred work.
 *
 * A waiter runs deferred work, then checks its condition with interrupts
 * off and, if it does not hold, waits for an interrupt (kernel/idle.h),
 * so an interrupt that completes the wait between the check and the halt
 * still wakes it.  The tick guarantees a wake-up at least
 * every 1/HZ, which bounds timeouts.
 *
 * Deferred work is a FIFO of struct work, queued from anywhere (interrupt
 * handlers included) and run by waiters and the idle loop with interrupts
 * on.  Lock legend: [w] work_lock (irqsave): the list and w_queued.
 */
#include "kernel/completion.h"
#include "kernel/work.h"
#include "kernel/spinlock.h"
#include "kernel/cpu.h"
#include "kernel/idle.h"
#include "kernel/irq.h"
#include "kernel/time.h"
#include "kernel/errno.h"
#include "kernel/printk.h"

static DEFINE_SPINLOCK(work_lock);
static LIST_HEAD(work_list);		/* [w] */

void schedule_work(struct work *w)
{
	unsigned long flags;

	spin_lock_irqsave(&work_lock, flags);
	if (!w->w_queued) {
		w->w_queued = true;
		list_add_tail(&w->w_entry, &work_list);
	}
	spin_unlock_irqrestore(&work_lock, flags);
}

int run_deferred_work(void)
{
	unsigned long flags;
	struct work *w;
	int n = 0;

	KASSERT(!in_interrupt());
	for (;;) {
		spin_lock_irqsave(&work_lock, flags);
		if (list_empty(&work_list)) {
			spin_unlock_irqrestore(&work_lock, flags);
			return n;
		}
		w = list_first_entry(&work_list, struct work, w_entry);
		list_del_init(&w->w_entry);
		w->w_queued = false;
		spin_unlock_irqrestore(&work_lock, flags);
		w->w_fn(w);
		n++;
	}
}

static bool work_pending_any(void)
{
	return !list_empty(&work_list);
}

void cpu_idle_once(void)
{
	unsigned long flags;

	run_deferred_work();
	local_irq_save(flags);
	if (!work_pending_any())
		idle_halt();
	local_irq_restore(flags);
}

void complete(struct completion *c)
{
	c->c_done = 1;
}

/* Wait until c is done or deadline_ns (0: none) passes. */
static int wait_until(struct completion *c, u64 deadline_ns)
{
	unsigned long flags;

	KASSERT(!in_interrupt());
	for (;;) {
		run_deferred_work();
		local_irq_save(flags);
		if (c->c_done) {
			local_irq_restore(flags);
			return 0;
		}
		if (deadline_ns && ktime_ns() >= deadline_ns) {
			local_irq_restore(flags);
			return -ETIMEDOUT;
		}
		if (!work_pending_any())
			idle_halt();
		local_irq_restore(flags);
	}
}

void wait_for_completion(struct completion *c)
{
	wait_until(c, 0);
}

int wait_for_completion_timeout(struct completion *c, u32 timeout_ms)
{
	return wait_until(c, ktime_ns() + (u64)timeout_ms * NSEC_PER_MSEC);
}
