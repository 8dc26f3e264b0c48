/*
 * Sleeping locks (kernel/mutex.h): a word naming the holder CPU and a
 * bitmap of the CPUs waiting.
 *
 * A waiter sets its bit, then tries the lock again, then idles; the
 * holder clears the owner word, then looks at the bitmap and wakes every
 * CPU set there (cpu_wake: an IPI only to a halted one).  Both steps are
 * sequentially consistent, so either the waiter's retry sees the lock free
 * or the holder's look sees the waiter's bit: a release between a waiter's
 * try and its halt is never lost (cpu_idle_once halts only when no wake-up
 * came since the CPU last woke, kernel/idle.c).  Woken waiters race for
 * the lock; the losers wait again.
 *
 * The wait runs deferred work (completion work an interrupt on this CPU
 * queued may be what the holder's I/O waits for), and that work may take
 * the same lock: harmless while this CPU only waits, fatal if it holds
 * the lock, hence the re-entry panic.
 */
#include "kernel/mutex.h"
#include "kernel/completion.h"
#include "kernel/irq.h"
#include "kernel/smp.h"

static void mutex_waiting(struct mutex *m, u32 cpu, bool on)
{
	u32 bit = 1u << (cpu % 32), *w = &m->m_waiters[cpu / 32];

	if (on)
		__atomic_fetch_or(w, bit, __ATOMIC_SEQ_CST);
	else
		__atomic_fetch_and(w, ~bit, __ATOMIC_SEQ_CST);
}

bool __mutex_trylock(struct mutex *m, const char *where)
{
	u32 free = 0;

	if (!__atomic_compare_exchange_n(&m->m_owner, &free, smp_processor_id() + 1, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		return false;
	m->m_where = where;
	return true;
}

void __mutex_lock(struct mutex *m, const char *where)
{
	u32 me = smp_processor_id();
	bool waited = false;

	KASSERT(!in_interrupt());
	while (!__mutex_trylock(m, where)) {
		if (__atomic_load_n(&m->m_owner, __ATOMIC_ACQUIRE) == me + 1)
			panic("mutex %s: CPU %u re-entered it at %s, holding it since %s "
			      "(deferred work that takes the lock ran in the holder's wait)",
			      m->m_name, me, where, m->m_where);
		mutex_waiting(m, me, true);
		if (__mutex_trylock(m, where))
			break;
		cpu_idle_once();
		waited = true;
	}
	mutex_waiting(m, me, false);
	if (waited)
		m->m_contended++;
}

void mutex_unlock(struct mutex *m)
{
	u32 me = smp_processor_id(), i, w, bit;

	if (__atomic_load_n(&m->m_owner, __ATOMIC_RELAXED) != me + 1)
		panic("mutex %s: CPU %u released it, held by %d", m->m_name, me,
		      (int)m->m_owner - 1);
	m->m_where = NULL;
	__atomic_store_n(&m->m_owner, 0, __ATOMIC_SEQ_CST);
	for (i = 0; i < MUTEX_WAIT_WORDS; i++) {
		w = __atomic_load_n(&m->m_waiters[i], __ATOMIC_SEQ_CST);
		while (w) {
			bit = (u32)__builtin_ctz(w);
			w &= w - 1;
			if (cpu_table[i * 32 + bit])
				cpu_wake(cpu_table[i * 32 + bit]);
		}
	}
}
