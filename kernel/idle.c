/*
 * The idle halt, polling first (the policy of Linux's cpuidle-haltpoll
 * governor).
 *
 * Halting is what an idle CPU should do, but waking from HLT can be slow
 * exactly where I/O latency matters: under a hypervisor the virtual CPU's
 * thread goes to sleep on HLT, and the thread that raises the disk's
 * interrupt must wake it, which costs tens of microseconds per I/O at
 * queue depth 1.  So before halting, the CPU spins for a short window with
 * interrupts on, watching this CPU's interrupt count; an interrupt that arrives within the
 * window is taken at once, with no halt.
 *
 * The window follows the waits seen so far.  A wait that ends during the
 * poll keeps it.  A wait that needed the halt but was no longer than the
 * longest window doubles it: a longer poll would have caught it.  A wait
 * longer than that halves it: the poll was wasted.  An idle shell, woken
 * only by the tick every millisecond, soon stops polling at all.
 *
 * idle_poll_us= sets the longest window; 0 halts at once.  The state is
 * this CPU's and only idle_halt() touches it, never from an interrupt.
 */
#include "kernel/idle.h"
#include "kernel/compiler.h"
#include "kernel/cpu.h"
#include "kernel/irq.h"
#include "kernel/param.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"

#define POLL_START_US	25	/* the first window after none */

static unsigned idle_poll_us = 200;
PARAM_UINT("idle_poll_us", idle_poll_us,
	   "spin up to this many microseconds for an interrupt before halting (default 200, 0: never)");

static u64 poll_window;		/* TSC cycles; 0: halt at once */
static u64 poll_max, poll_start;	/* TSC cycles: idle_poll_us, POLL_START_US */
static volatile bool polling;	/* in poll_for_irq() */

bool idle_polling(void)
{
	return polling;
}

/* Spin with interrupts on until an interrupt after 'seen' or t0 + window. */
static bool poll_for_irq(u32 seen, u64 t0)
{
	bool got;

	polling = true;
	local_irq_enable();
	while (!(got = irq_seq_this_cpu() != seen) && rdtsc() - t0 < poll_window)
		cpu_relax();
	local_irq_disable();
	polling = false;
	return got || irq_seq_this_cpu() != seen;
}

/* Grow or shrink the window after a wait of 'waited' cycles that halted. */
static void poll_adjust(u64 waited)
{
	if (waited > poll_max)
		poll_window = poll_window / 2 < poll_start ? 0 : poll_window / 2;
	else if (!poll_window)
		poll_window = min(poll_start, poll_max);
	else
		poll_window = min(poll_window * 2, poll_max);
}

void idle_halt(void)
{
	u32 seen = irq_seq_this_cpu();
	u64 t0;

	if (!poll_max) {		/* the TSC's rate is known from time_init() on */
		poll_max = (u64)idle_poll_us * tsc_khz() / 1000;
		poll_start = (u64)POLL_START_US * tsc_khz() / 1000;
		if (!poll_max) {
			safe_halt();
			return;
		}
	}
	t0 = rdtsc();
	if (poll_window && poll_for_irq(seen, t0)) {
		local_irq_enable();
		return;
	}
	safe_halt();
	poll_adjust(rdtsc() - t0);
}
