/*
 * Spinlocks on an atomic exchange.  One CPU today: a lock that is taken
 * is a bug (recursion, or a handler taking a lock its interrupted code
 * holds without irqsave), so with SPINLOCK_DEBUG that panics with the
 * lock's name and both callers instead of spinning forever.
 */
#include "kernel/spinlock.h"
#include "kernel/printk.h"
#include "kernel/cpu.h"

void spin_lock_init(spinlock_t *l, const char *name)
{
	l->sl_locked = 0;
	l->sl_name = name;
	l->sl_owner = NULL;
}

/* The lock was taken: with one CPU that is a bug; with several, spin. */
void spin_lock_contended(spinlock_t *l, const char *where)
{
	do {
		if (SPINLOCK_DEBUG)
			panic("spin_lock: %s already held (taken at %s, again at %s)",
			      l->sl_name ? l->sl_name : "?", l->sl_owner, where);
		while (l->sl_locked)
			cpu_relax();
	} while (spin_xchg(&l->sl_locked, 1) != 0);
}

void spin_unlock_unheld(spinlock_t *l, const char *where)
{
	panic("spin_unlock: %s is not held (at %s)", l->sl_name ? l->sl_name : "?", where);
}
