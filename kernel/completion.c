/*
 * Waiting without processes, and deferred work.
 *
 * A waiter lets go of what its CPU holds back (wait_prepare: the block
 * layer's batch, which may hold the I/O it waits for) and runs its CPU's
 * deferred work, then checks its condition with interrupts off and, if
 * it does not hold, waits for an interrupt or a wake-up from another CPU
 * (kernel/idle.h), so a change between the check and the halt still
 * wakes it.  The tick guarantees a wake-up at least every 1/HZ on the
 * boot CPU (AP_TIMER_HZ on the others), which bounds timeouts.
 *
 * Deferred work is a FIFO of struct work per CPU, queued from anywhere
 * (interrupt handlers included) and run by that CPU's waiters and idle
 * loop with interrupts on: schedule_work() queues on this CPU,
 * queue_work_on() on another, which it wakes.  An application processor
 * does nothing else: its idle loop is where work sent to it runs, and
 * work there may wait like any other code.
 *
 * A completion is one word: 0, COMPLETION_DONE, or the waiting CPU.
 * complete() swaps in DONE and wakes the CPU it found there; it touches
 * nothing after the swap, so the waiter may free the completion as soon
 * as it sees DONE.
 *
 * Lock legend: [w] the CPU's cw_lock (irqsave): its list and w_queued
 * transitions to false; [a] atomic.
 */
#include "kernel/completion.h"
#include "kernel/work.h"
#include "kernel/spinlock.h"
#include "kernel/cpu.h"
#include "kernel/idle.h"
#include "kernel/irq.h"
#include "kernel/smp.h"
#include "kernel/time.h"
#include "kernel/errno.h"
#include "kernel/printk.h"

#define COMPLETION_DONE		1u
#define COMPLETION_WAITER	2u	/* + the waiting CPU's number */

struct cpu_work {
	spinlock_t		cw_lock;
	struct list_head	cw_list;	/* [w] */
};

static struct cpu_work cpu_work[NR_CPUS];

void work_lists_init(void)
{
	u32 i;

	for (i = 0; i < NR_CPUS; i++) {
		spin_lock_init(&cpu_work[i].cw_lock, "work");
		INIT_LIST_HEAD(&cpu_work[i].cw_list);
	}
}

void queue_work_on(u32 cpu, struct work *w)
{
	struct cpu_work *cw = &cpu_work[cpu];
	unsigned long flags;

	if (__atomic_exchange_n(&w->w_queued, true, __ATOMIC_ACQ_REL))
		return;
	spin_lock_irqsave(&cw->cw_lock, flags);
	list_add_tail(&w->w_entry, &cw->cw_list);
	spin_unlock_irqrestore(&cw->cw_lock, flags);
	if (cpu_table[cpu])
		cpu_wake(cpu_table[cpu]);
}

void schedule_work(struct work *w)
{
	queue_work_on(smp_processor_id(), w);
}

int run_deferred_work(void)
{
	struct cpu_work *cw = &cpu_work[smp_processor_id()];
	unsigned long flags;
	struct work *w;
	int n = 0;

	KASSERT(!in_interrupt());
	for (;;) {
		if (list_empty(&cw->cw_list))
			return n;
		spin_lock_irqsave(&cw->cw_lock, flags);
		if (list_empty(&cw->cw_list)) {
			spin_unlock_irqrestore(&cw->cw_lock, flags);
			return n;
		}
		w = list_first_entry(&cw->cw_list, struct work, w_entry);
		list_del_init(&w->w_entry);
		spin_unlock_irqrestore(&cw->cw_lock, flags);
		__atomic_store_n(&w->w_queued, false, __ATOMIC_RELEASE);
		w->w_fn(w);
		n++;
	}
}

static bool work_pending_here(void)
{
	return !list_empty(&cpu_work[smp_processor_id()].cw_list);
}

static void (*wait_prepare)(void);	/* [I] wait_prepare_register() */

void wait_prepare_register(void (*fn)(void))
{
	wait_prepare = fn;
}

void cpu_idle_once(void)
{
	unsigned long flags;

	if (wait_prepare)
		wait_prepare();
	run_deferred_work();
	local_irq_save(flags);
	if (!work_pending_here())
		idle_halt();
	local_irq_restore(flags);
}

void __noreturn cpu_idle_loop(void)
{
	for (;;)
		cpu_idle_once();
}

void complete(struct completion *c)
{
	u32 old = __atomic_exchange_n(&c->c_state, COMPLETION_DONE, __ATOMIC_ACQ_REL);

	if (old >= COMPLETION_WAITER && old - COMPLETION_WAITER < NR_CPUS)
		cpu_wake(cpu_table[old - COMPLETION_WAITER]);
}

/* Say this CPU waits on c; false if c is done already. */
static bool completion_register(struct completion *c)
{
	u32 me = COMPLETION_WAITER + smp_processor_id();
	u32 old = __atomic_load_n(&c->c_state, __ATOMIC_ACQUIRE);

	while (old != COMPLETION_DONE && old != me)
		if (__atomic_compare_exchange_n(&c->c_state, &old, me, false, __ATOMIC_SEQ_CST,
						__ATOMIC_ACQUIRE))
			return true;
	return old != COMPLETION_DONE;
}

/* Wait until c is done or deadline_ns (0: none) passes. */
static int wait_until(struct completion *c, u64 deadline_ns)
{
	unsigned long flags;

	KASSERT(!in_interrupt());
	if (wait_prepare)
		wait_prepare();
	for (;;) {
		run_deferred_work();
		local_irq_save(flags);
		if (!completion_register(c)) {
			local_irq_restore(flags);
			return 0;
		}
		if (deadline_ns && ktime_ns() >= deadline_ns) {
			local_irq_restore(flags);
			return -ETIMEDOUT;
		}
		if (!work_pending_here())
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
