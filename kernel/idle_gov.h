/*
 * Whether an idle CPU should spin before it halts: measured, not assumed.
 *
 * A spin before HLT saves the wake-up from it, which under a hypervisor
 * costs tens of microseconds per interrupt.  But the spin is not free
 * where the virtual CPU's host thread shares host cores with the threads
 * that emulate the devices (QEMU's TCG on a small host, an overcommitted
 * KVM host): they run less while it spins, and the wait it meant to
 * shorten grows instead.  Linux turns its haltpoll governor on only when
 * KVM promises the virtual CPU a core of its own (KVM_HINTS_REALTIME);
 * TCG and real hardware promise nothing, so this asks the waits.
 *
 * Waits are counted in epochs of IDLE_GOV_EPOCH.  Every IDLE_GOV_TRIAL-th
 * epoch waits the other way; if its mean wait beats the epoch just before
 * it (the chosen way's) by more than a sixteenth, that way is chosen.
 * Neighbouring epochs are milliseconds apart under I/O, so a change of
 * workload or of host is judged again within a fraction of a second, and
 * one epoch in IDLE_GOV_TRIAL pays for the way not taken.
 *
 * A zeroed struct halts at once until a trial shows that the spin pays.
 * Pure arithmetic on one CPU's struct, which only that CPU touches
 * (kernel/idle.c); it builds on the host for the unit tests too.
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
	bool	ig_poll;	/* the chosen way: spin first, or halt at once */
	u64	ig_mean[2];	/* the last epoch's mean wait each way, [0] halt, [1] poll */
	u32	ig_changes;	/* times the choice changed */
};

/* Does the next wait spin first? */
bool idle_gov_poll(const struct idle_gov *g);

/* Count a wait of 'cycles', entered the way idle_gov_poll() said. */
void idle_gov_note(struct idle_gov *g, u64 cycles);

#endif
