/*
 * Sleeping locks: a lock held across waits for I/O.  There are no
 * threads, so "sleeping" is what a completion waiter does: a CPU that
 * finds the lock taken runs its deferred work and idles (cpu_idle_once)
 * until the holder's mutex_unlock wakes it, instead of spinning with
 * interrupts off for as long as the holder's disk takes.
 *
 * The holder is a CPU, not a context: a CPU that already holds the lock
 * and asks again -- deferred work its own I/O wait ran (an smp_run share,
 * an `on` command) that enters the same code -- would wait for itself for
 * ever, so that panics with the lock's name and both call sites.  A CPU
 * that only waits for the lock may run such work, and the work may take
 * the lock and release it before the outer wait goes on: the lock is taken
 * by compare-and-swap, not in ticket order, so a nested waiter never
 * waits behind its own outer ticket.  Not fair: a CPU that releases and
 * asks again at once may win; the waiters it woke try again.
 *
 * Not from interrupt context.  The host build (HOST_TEST) is one CPU: a
 * second mutex_lock panics there too.
 */
#ifndef KERNEL_MUTEX_H
#define KERNEL_MUTEX_H

#include "kernel/compiler.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"

#define MUTEX_WAIT_WORDS	((NR_CPUS + 31) / 32)

/* Lock legend: [a] atomic; [h] written by the holder only. */
struct mutex {
	u32		m_owner;		/* [a] 0 free, else the holder CPU + 1 */
	u32		m_waiters[MUTEX_WAIT_WORDS];	/* [a] CPUs waiting, one bit each */
	const char	*m_name;		/* [I] */
	const char	*m_where;		/* [h] "file:line" where the holder took it */
	u32		m_contended;		/* [h] acquisitions that had to wait */
};

#define MUTEX_INIT(name)	{ 0, { 0 }, name, NULL, 0 }
#define DEFINE_MUTEX(x)		struct mutex x = MUTEX_INIT(#x)

#define MUTEX_WHERE		__FILE__ ":" __stringify(__LINE__)
#define mutex_lock(m)		__mutex_lock(m, MUTEX_WHERE)
#define mutex_trylock(m)	__mutex_trylock(m, MUTEX_WHERE)

#ifdef HOST_TEST
/* One CPU and no waiting: the lock is a flag, a second take is a re-entry. */
static inline bool __mutex_trylock(struct mutex *m, const char *where)
{
	if (m->m_owner)
		return false;
	m->m_owner = 1;
	m->m_where = where;
	return true;
}

static inline void __mutex_lock(struct mutex *m, const char *where)
{
	if (!__mutex_trylock(m, where))
		panic("mutex %s: re-entered at %s, held since %s", m->m_name, where, m->m_where);
}

static inline void mutex_unlock(struct mutex *m)
{
	if (!m->m_owner)
		panic("mutex %s: released but not held", m->m_name);
	m->m_owner = 0;
}
#else
/**
 * __mutex_lock - take @m, waiting (running deferred work) while another CPU holds it
 * @where: the caller, for the report of a same-CPU re-entry (which panics)
 */
void __mutex_lock(struct mutex *m, const char *where);
/* Take @m if it is free; true if taken.  Never waits, never panics on a re-entry. */
bool __mutex_trylock(struct mutex *m, const char *where);
/* Release @m, which this CPU holds (panics otherwise), and wake its waiters. */
void mutex_unlock(struct mutex *m);
#endif

/* Does this CPU hold @m? */
static inline bool mutex_held(const struct mutex *m)
{
	return __atomic_load_n(&m->m_owner, __ATOMIC_ACQUIRE) == smp_processor_id() + 1;
}

#define assert_mutex_held(m)	KASSERT(mutex_held(m))

#endif
