/*
 * Lock debugging beyond the spinlock's own recursion check:
 *
 *  - lockstat: for every lock class (the name a lock was given), how often
 *    a CPU found it busy and how long it waited, counted per CPU on the
 *    slow path only, summed by the `lockstat` shell command;
 *  - the lock-order checker (`lockdep=1` on the command line, off by
 *    default): every "B taken while A is held" is remembered with its call
 *    site, and the first time some CPU takes them the other way round both
 *    sites are reported.  Only direct inversions (A->B against B->A) are
 *    looked for, and locks of one class nested in each other are not
 *    ordered (queue locks, say).
 *
 * Hooks for kernel/spinlock.h; none of this takes a spinlock_t.
 */
#ifndef KERNEL_LOCKDEP_H
#define KERNEL_LOCKDEP_H

#include "kernel/compiler.h"

struct spinlock;

#define LOCKSTAT_SLOTS		128	/* lock classes counted per CPU */
#define LOCKDEP_HELD_MAX	16	/* locks one CPU holds at once */

struct lockstat_entry {
	const char	*ls_name;	/* the class; NULL: free slot */
	u32		ls_contended;	/* acquisitions that found it busy */
	u64		ls_wait_cycles;	/* TSC cycles spent waiting for it */
	u64		ls_max_cycles;	/* the longest single wait */
};

struct lockdep_held {
	const char	*lh_name;
	const char	*lh_where;
	const struct spinlock *lh_lock;
};

extern bool lockdep_on;
extern u32 lockdep_inversions;		/* [a] reported since boot */
extern struct lockstat_entry lockstat_boot_table[LOCKSTAT_SLOTS];

void lockstat_contended(struct spinlock *l, u64 cycles);
void lockstat_reset(void);
void lockdep_acquire(struct spinlock *l, const char *where);
void lockdep_release(struct spinlock *l);

#endif
