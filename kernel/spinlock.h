/*
 * Spinlocks.  The machine has one CPU today, but the locks are real
 * (an atomic exchange) so that SMP bring-up changes no caller.  The _irq
 * and _irqsave forms also mask interrupts on this CPU; use them for any
 * lock an interrupt handler takes.
 *
 * With the debug checks (on by default, SPINLOCK_DEBUG=0 to remove) taking
 * a lock this CPU already holds, and releasing a lock that is not held,
 * panic with the lock's name and the caller.
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include "kernel/compiler.h"
#ifndef HOST_TEST
#include "kernel/cpu.h"
#endif

#ifndef SPINLOCK_DEBUG
#define SPINLOCK_DEBUG	1
#endif

typedef struct spinlock {
	volatile u32	sl_locked;
	const char	*sl_name;
	const char	*sl_owner;	/* "file:line" where the holder took it */
} spinlock_t;

#define SPINLOCK_INIT(name)	{ 0, name, NULL }
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
void spin_lock_contended(spinlock_t *l, const char *where);
void __noreturn spin_unlock_unheld(spinlock_t *l, const char *where);

/* "file:line" of the lock operation, for the reports. */
#define SPIN_WHERE	__FILE__ ":" __stringify(__LINE__)

static inline u32 spin_xchg(volatile u32 *p, u32 v)
{
	__asm__ __volatile__("xchgl %0, %1" : "+r"(v), "+m"(*p) :: "memory");
	return v;
}

#define spin_lock(l)		__spin_lock(l, SPIN_WHERE)
#define spin_unlock(l)		__spin_unlock(l, SPIN_WHERE)
#define spin_trylock(l)		__spin_trylock(l, SPIN_WHERE)

static inline void __spin_lock(spinlock_t *l, const char *where)
{
	if (unlikely(spin_xchg(&l->sl_locked, 1) != 0))
		spin_lock_contended(l, where);
	l->sl_owner = where;
}

static inline void __spin_unlock(spinlock_t *l, const char *where)
{
	if (SPINLOCK_DEBUG && unlikely(!l->sl_locked))
		spin_unlock_unheld(l, where);
	l->sl_owner = NULL;
	barrier();
	l->sl_locked = 0;
}

static inline bool __spin_trylock(spinlock_t *l, const char *where)
{
	if (spin_xchg(&l->sl_locked, 1) != 0)
		return false;
	l->sl_owner = where;
	return true;
}

static inline bool spin_is_locked(const spinlock_t *l)
{
	return l->sl_locked != 0;
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
