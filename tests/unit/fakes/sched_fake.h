/*
 * Controls of sched_fake.c: completions, timers, deferred work and the
 * idle loop on the host.  There is no concurrency: "waiting" runs
 * host_idle_hook (the test's stand-in for interrupts: it completes I/O),
 * or, without one, advances the fake clock by a millisecond and fires
 * due timers.  A wait that makes no progress in HOST_WAIT_SPINS rounds
 * aborts the test instead of hanging.
 */
#ifndef TESTS_UNIT_FAKES_SCHED_FAKE_H
#define TESTS_UNIT_FAKES_SCHED_FAKE_H

#include "kernel/types.h"

#define HOST_WAIT_SPINS	100000

extern long host_mempool_live;		/* mempool_fake.c */

/* Elements out of the mempools once the bios this CPU keeps are given back. */
static inline long host_bios_live(void)
{
	void bio_cache_drain(void);

	bio_cache_drain();
	return host_mempool_live;
}
extern bool host_in_interrupt;		/* what in_interrupt() returns */
extern void (*host_idle_hook)(void);	/* run by cpu_idle_once() */
extern long host_idle_calls;

/* Advance the fake clock by ns and fire the timers now due. */
void host_advance_ns(u64 ns);
/* Fire due timers; returns how many ran. */
int host_run_timers(void);

#endif
