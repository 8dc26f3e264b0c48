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

typedef struct spinlock {
	volatile u32	sl_locked;
	const char	*sl_name;
	void		*sl_owner;	/* return address of the holder, for reports */
} spinlock_t;

#define SPINLOCK_INIT(name)	{ 0, name, NULL }
#define DEFINE_SPINLOCK(x)	spinlock_t x = SPINLOCK_INIT(#x)

void spin_lock_init(spinlock_t *l, const char *name);
void spin_lock(spinlock_t *l);
void spin_unlock(spinlock_t *l);
bool spin_trylock(spinlock_t *l);
bool spin_is_locked(const spinlock_t *l);

/* Assert that the caller holds l (STYLE rule 20). */
#define assert_spin_locked(l)	KASSERT(spin_is_locked(l))

#ifdef HOST_TEST
/* The host build keeps a simulated flag: tests/unit/host/kernel_shim.c. */
unsigned long arch_irq_save(void);
void arch_irq_restore(unsigned long flags);
void arch_irq_enable(void);
void arch_irq_disable(void);
#else
#include "kernel/cpu.h"

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
