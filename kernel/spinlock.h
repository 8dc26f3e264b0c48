/*
 * Spinlocks: ticket locks, so that CPUs contending for a lock get it in
 * the order they asked (a plain exchange lets one CPU starve the others).
 * The word holds two 16-bit counters: the ticket now served (low half)
 * and the next ticket to hand out (high half).  Taking the lock is one
 * atomic add to the high half; the lock is ours when the low half reaches
 * our ticket; releasing it is a store to the low half by the holder alone.
 * The _irq and _irqsave forms also mask interrupts on this CPU; use them
 * for any lock an interrupt handler takes.
 *
 * With the debug checks (on by default, SPINLOCK_DEBUG=0 to remove) taking
 * a lock this CPU already holds, and releasing a lock that is not held,
 * panic with the lock's name and the callers.
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include "kernel/compiler.h"
#ifndef HOST_TEST
#include "kernel/cpu.h"
#endif
#include "kernel/percpu.h"

#ifndef SPINLOCK_DEBUG
#define SPINLOCK_DEBUG	1
#endif

typedef struct spinlock {
	volatile u32	sl_ticket;	/* 15:0 ticket served, 31:16 next ticket */
	const char	*sl_name;
	const char	*sl_owner;	/* "file:line" where the holder took it */
	struct cpu	*sl_owner_cpu;	/* the holder's CPU; NULL while free */
} spinlock_t;

#define SPINLOCK_INIT(name)	{ 0, name, NULL, NULL }
#define SPIN_TICKET_ONE		0x10000u	/* one ticket, in the high half */
#define DEFINE_SPINLOCK(x)	spinlock_t x = SPINLOCK_INIT(#x)

void spin_lock_init(spinlock_t *l, const char *name);

#ifdef HOST_TEST
/* The host build keeps a simulated lock and flag: tests/unit/host/kernel_shim.c. */
void spin_lock(spinlock_t *l);
void spin_unlock(spinlock_t *l);
bool spin_trylock(spinlock_t *l);
bool spin_is_locked(const spinlock_t *l);
#else
/*
 * The fast paths are inline: a lock is taken and dropped several times
 * per I/O, and under emulation every call is a jump to a new translated
 * block.  What is rare (contention, the debug reports) stays out of line.
 */
void spin_lock_contended(spinlock_t *l, u16 ticket, const char *where);
void __noreturn spin_unlock_unheld(spinlock_t *l, const char *where);

/* "file:line" of the lock operation, for the reports. */
#define SPIN_WHERE	__FILE__ ":" __stringify(__LINE__)

static inline bool spin_word_locked(u32 v) { return (u16)v != (u16)(v >> 16); }

#define spin_lock(l)		__spin_lock(l, SPIN_WHERE)
#define spin_unlock(l)		__spin_unlock(l, SPIN_WHERE)
#define spin_trylock(l)		__spin_trylock(l, SPIN_WHERE)

static inline void __spin_lock(spinlock_t *l, const char *where)
{
	u32 t = __atomic_fetch_add(&l->sl_ticket, SPIN_TICKET_ONE, __ATOMIC_ACQUIRE);

	if (unlikely(spin_word_locked(t)))
		spin_lock_contended(l, (u16)(t >> 16), where);
	l->sl_owner = where;
	l->sl_owner_cpu = this_cpu();
	if (unlikely(lockdep_on))
		lockdep_acquire(l, where);
}

static inline void __spin_unlock(spinlock_t *l, const char *where)
{
	u32 t = l->sl_ticket;

	if (SPINLOCK_DEBUG && unlikely(!spin_word_locked(t)))
		spin_unlock_unheld(l, where);
	if (unlikely(lockdep_on))
		lockdep_release(l);
	l->sl_owner = NULL;
	l->sl_owner_cpu = NULL;
	/* Only the holder writes the low half: a plain release store. */
	__atomic_store_n((volatile u16 *)&l->sl_ticket, (u16)(t + 1), __ATOMIC_RELEASE);
}

static inline bool __spin_trylock(spinlock_t *l, const char *where)
{
	u32 t = l->sl_ticket;

	if (spin_word_locked(t) ||
	    !__atomic_compare_exchange_n(&l->sl_ticket, &t, t + SPIN_TICKET_ONE, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return false;
	l->sl_owner = where;
	l->sl_owner_cpu = this_cpu();
	if (unlikely(lockdep_on))
		lockdep_acquire(l, where);
	return true;
}

static inline bool spin_is_locked(const spinlock_t *l)
{
	return spin_word_locked(l->sl_ticket);
}
#endif

/* Assert that the caller holds l (STYLE rule 20). */
#define assert_spin_locked(l)	KASSERT(spin_is_locked(l))

#ifdef HOST_TEST
unsigned long arch_irq_save(void);
void arch_irq_restore(unsigned long flags);
void arch_irq_enable(void);
void arch_irq_disable(void);
#else
/*
 * Inline, so that a tick held off by a section with interrupts disabled
 * lands in the function that ends the section (what `profile` reports),
 * and the lock paths make no calls.
 */
static inline unsigned long arch_irq_save(void)
{
	unsigned long f;

	__asm__ __volatile__("pushfl; popl %0; cli" : "=r"(f) :: "memory");
	return f;
}

static inline void arch_irq_restore(unsigned long flags)
{
	if (flags & X86_EFLAGS_IF)
		__asm__ __volatile__("sti" ::: "memory");
	else
		__asm__ __volatile__("cli" ::: "memory");
}

static inline void arch_irq_enable(void) { __asm__ __volatile__("sti" ::: "memory"); }
static inline void arch_irq_disable(void) { __asm__ __volatile__("cli" ::: "memory"); }
#endif

#define local_irq_save(flags)		((flags) = arch_irq_save())
#define local_irq_restore(flags)	arch_irq_restore(flags)
#define local_irq_enable()		arch_irq_enable()
#define local_irq_disable()		arch_irq_disable()

#define spin_lock_irqsave(l, flags) \
	do { local_irq_save(flags); spin_lock(l); } while (0)
#define spin_unlock_irqrestore(l, flags) \
	do { spin_unlock(l); local_irq_restore(flags); } while (0)
#define spin_lock_irq(l) \
	do { local_irq_disable(); spin_lock(l); } while (0)
#define spin_unlock_irq(l) \
	do { spin_unlock(l); local_irq_enable(); } while (0)

#endif
