/*
 * Spinlocks on an atomic exchange.  One CPU today: a lock that is taken
 * is a bug (recursion, or a handler taking a lock its interrupted code
 * holds without irqsave), so with SPINLOCK_DEBUG that panics with the
 * lock's name and both callers instead of spinning forever.
 */
#include "kernel/spinlock.h"
#include "kernel/printk.h"
#include "kernel/cpu.h"

#ifndef SPINLOCK_DEBUG
#define SPINLOCK_DEBUG	1
#endif

void spin_lock_init(spinlock_t *l, const char *name)
{
	l->sl_locked = 0;
	l->sl_name = name;
	l->sl_owner = NULL;
}

static inline u32 xchg(volatile u32 *p, u32 v)
{
	__asm__ __volatile__("xchgl %0, %1" : "+r"(v), "+m"(*p) :: "memory");
	return v;
}

void spin_lock(spinlock_t *l)
{
	void *caller = __builtin_return_address(0);

	while (xchg(&l->sl_locked, 1) != 0) {
		if (SPINLOCK_DEBUG)
			panic("spin_lock: %s already held (by %p, again from %p)",
			      l->sl_name ? l->sl_name : "?", l->sl_owner, caller);
		while (l->sl_locked)
			cpu_relax();
	}
	l->sl_owner = caller;
}

void spin_unlock(spinlock_t *l)
{
	if (SPINLOCK_DEBUG && !l->sl_locked)
		panic("spin_unlock: %s is not held (from %p)",
		      l->sl_name ? l->sl_name : "?", __builtin_return_address(0));
	l->sl_owner = NULL;
	barrier();
	l->sl_locked = 0;
}

bool spin_trylock(spinlock_t *l)
{
	if (xchg(&l->sl_locked, 1) != 0)
		return false;
	l->sl_owner = __builtin_return_address(0);
	return true;
}

bool spin_is_locked(const spinlock_t *l)
{
	return l->sl_locked != 0;
}
