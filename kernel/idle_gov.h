/*
 * Whether an idle CPU should spin before it halts: measured, not assumed.
 *
 * A spin before HLT saves the wake-up from it, which under a hypervisor
 * costs tens of microseconds per interrupt, and far more, now and then,
 * when the host is busy and the virtual CPU's thread waits for a core to
 * be woken on.  But the spin is not free where that thread shares host
 * cores with the threads that emulate the devices (QEMU's TCG on a small
 * host, an overcommitted KVM host): they run less while it spins, and
 * the wait it meant to shorten grows instead.  Linux turns its haltpoll
 * governor on only when KVM promises the virtual CPU a core of its own
 * (KVM_HINTS_REALTIME); TCG and real hardware promise nothing, so this
 * asks the waits.
 *
 * Waits are counted in epochs of IDLE_GOV_EPOCH.  Every IDLE_GOV_TRIAL-th
 * epoch waits the other way and is compared with the epoch just before
 * it, the chosen way's.  Spinning is chosen back as soon as its mean wait
 * is the shorter; halting only when its mean beats spinning's by an
 * eighth, since a mean hides the halt's rare long wake-ups (on a host
 * busy writing back, reads at depth 1 had a p99 of 1 ms halting against
 * 0.1 ms spinning, at about the same mean).  Neighbouring epochs are
 * milliseconds apart under I/O, so a change of workload or of host is
 * judged again within a fraction of a second, and one epoch in
 * IDLE_GOV_TRIAL pays for the way not taken.
 *
 * A zeroed struct spins.  Pure arithmetic on one CPU's struct, which only
 * that CPU touches (kernel/idle.c); it builds on the host for the unit
 * tests too.
 */
#ifndef KERNEL_IDLE_GOV_H
#define KERNEL_IDLE_GOV_H

#include "kernel/types.h"

#define IDLE_GOV_EPOCH	256u	/* waits one epoch measures */
#define IDLE_GOV_TRIAL	8u	/* one epoch in this many tries the other way */

struct idle_gov {
	u64	ig_sum;		/* cycles waited in this epoch */
	u32	ig_n;		/* waits in this epoch */
	u32	ig_epoch;	/* epochs since the last trial; IDLE_GOV_TRIAL - 1 is one */
	bool	ig_halt;	/* the chosen way: halt at once, or spin first */
	u64	ig_mean[2];	/* the last epoch's mean wait each way, [0] spin, [1] halt */
	u32	ig_changes;	/* times the choice changed */
};

/* Does the next wait spin first? */
bool idle_gov_poll(const struct idle_gov *g);

/* Count a wait of 'cycles', entered the way idle_gov_poll() said. */
void idle_gov_note(struct idle_gov *g, u64 cycles);

#endif
