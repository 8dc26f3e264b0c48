/*
 * Spinlocks: the slow paths of kernel/spinlock.h.  A lock that is busy is
 * waited for in ticket order; with SPINLOCK_DEBUG a lock this CPU holds
 * already is a bug (recursion, or a handler taking a lock its interrupted
 * code holds without irqsave) and panics with the lock's name and both
 * callers instead of spinning forever.
 */
#include "kernel/spinlock.h"
#include "kernel/printk.h"
#include "kernel/cpu.h"

void spin_lock_init(spinlock_t *l, const char *name)
{
	l->sl_ticket = 0;
	l->sl_name = name;
	l->sl_owner = NULL;
	l->sl_owner_cpu = NULL;
}

/*
 * Wait for our ticket.  sl_owner_cpu is this CPU only while this CPU holds
 * the lock: every release clears it before handing the lock on.
 */
void spin_lock_contended(spinlock_t *l, u16 ticket, const char *where)
{
	u64 t0;

	if (SPINLOCK_DEBUG && READ_ONCE(l->sl_owner_cpu) == this_cpu())
		panic("spin_lock: %s already held by this CPU (taken at %s, again at %s)",
		      l->sl_name ? l->sl_name : "?", l->sl_owner, where);
	t0 = rdtsc();
	while ((u16)READ_ONCE(l->sl_ticket) != ticket)
		cpu_relax();
	lockstat_contended(l, rdtsc() - t0);
}

void spin_unlock_unheld(spinlock_t *l, const char *where)
{
	panic("spin_unlock: %s is not held (at %s)", l->sl_name ? l->sl_name : "?", where);
}
