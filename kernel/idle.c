/*
 * The idle halt, polling first (the policy of Linux's cpuidle-haltpoll
 * governor).
 *
 * Halting is what an idle CPU should do, but waking from HLT can be slow
 * exactly where I/O latency matters: under a hypervisor the virtual CPU's
 * thread goes to sleep on HLT, and the thread that raises the disk's
 * interrupt must wake it, which costs tens of microseconds per I/O at
 * queue depth 1.  So before halting, the CPU spins for a short window with
 * interrupts on, watching this CPU's interrupt count; an interrupt that
 * arrives within the window is taken at once, with no halt.
 *
 * The window follows the waits seen so far.  A wait that ends during the
 * poll keeps it.  A wait that needed the halt but was no longer than the
 * longest window doubles it: a longer poll would have caught it.  A wait
 * longer than that halves it: the poll was wasted.  An idle shell, woken
 * only by the tick every millisecond, soon stops polling at all.
 *
 * idle_poll_us= sets the longest window; 0 halts at once.  The window
 * is each CPU's own (struct cpu), and only that CPU's idle_halt() touches
 * it, never from an interrupt.
 *
 * Another CPU that changes what this one waits on (a request it submitted
 * ended there, work was queued for it) wakes it with cpu_wake(), which
 * counts in c_wake_seq and sends an IPI only when the CPU is halted.  The
 * waiter announces each state before it looks at the count, and the waker
 * looks at the state after it counted, so one of the two always sees the
 * other: a wake-up between a waiter's check of its condition and its halt
 * is never lost.  A wake-up since the CPU last woke counts too (its
 * condition may have changed after the check): the caller looks again.
 * That holds for this CPU's own interrupts as well, which count through
 * cpu_wake() without the IPI, for callers that check with interrupts on.
 */
#include "kernel/idle.h"
#include "kernel/compiler.h"
#include "kernel/cpu.h"
#include "kernel/irq.h"
#include "kernel/param.h"
#include "kernel/percpu.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"

#define POLL_START_US	25	/* the first window after none */

static unsigned idle_poll_us = 200;
PARAM_UINT("idle_poll_us", idle_poll_us,
	   "spin up to this many microseconds for an interrupt before halting (default 200, 0: never)");

static u64 poll_max, poll_start;	/* TSC cycles: idle_poll_us, POLL_START_US */

bool idle_polling(void)
{
	return READ_ONCE(this_cpu()->c_idle) == CPU_POLLING;
}

/* Enter state and look for a wake-up since the last; true if there was one. */
static bool idle_enter(struct cpu *me, u32 state)
{
	__atomic_store_n(&me->c_idle, state, __ATOMIC_SEQ_CST);
	return __atomic_load_n(&me->c_wake_seq, __ATOMIC_SEQ_CST) != me->c_wake_seen;
}

/* Spin with interrupts on until an interrupt after 'seen', a wake-up or t0 + window. */
static bool poll_for_irq(struct cpu *me, u32 seen, u64 t0)
{
	bool got;

	local_irq_enable();
	while (!(got = irq_seq_this_cpu() != seen ||
		       READ_ONCE(me->c_wake_seq) != me->c_wake_seen) &&
	       rdtsc() - t0 < me->c_poll_window)
		cpu_relax();
	local_irq_disable();
	return got || irq_seq_this_cpu() != seen;
}

/* Grow or shrink the window after a wait of 'waited' cycles that halted. */
static void poll_adjust(struct cpu *me, u64 waited)
{
	u64 w = me->c_poll_window;

	if (waited > poll_max)
		w = w / 2 < poll_start ? 0 : w / 2;
	else if (!w)
		w = min(poll_start, poll_max);
	else
		w = min(w * 2, poll_max);
	me->c_poll_window = w;
}

void idle_halt(void)
{
	struct cpu *me = this_cpu();
	u32 seen = irq_seq_this_cpu();
	u64 t0;

	if (!poll_max) {		/* the TSC's rate is known from time_init() on */
		poll_max = (u64)idle_poll_us * tsc_khz() / 1000;
		poll_start = (u64)POLL_START_US * tsc_khz() / 1000;
	}
	t0 = rdtsc();
	if (me->c_poll_window && poll_max) {
		if (idle_enter(me, CPU_POLLING) || poll_for_irq(me, seen, t0))
			goto woken;
	}
	if (idle_enter(me, CPU_HALTED))
		goto woken;
	safe_halt();
	if (poll_max)
		poll_adjust(me, rdtsc() - t0);
	local_irq_disable();
woken:
	__atomic_store_n(&me->c_idle, CPU_RUNNING, __ATOMIC_RELEASE);
	me->c_wake_seen = __atomic_load_n(&me->c_wake_seq, __ATOMIC_ACQUIRE);
	local_irq_enable();
}
