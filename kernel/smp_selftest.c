/*
 * In-kernel self-tests of the other CPUs (selftest=kernel/smp/...): their
 * local timers tick, a cross-CPU call reaches each of them exactly once,
 * and every CPU hammering one ticket lock at once keeps the data it
 * guards consistent.  With one CPU they check what there is to check.
 *
 * Emulated CPUs run when the host schedules them: waits are bounded
 * generously and never measure rates.
 */
#include "kernel/console.h"
#include "kernel/lockdep.h"
#include "kernel/cpu.h"
#include "kernel/selftest.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"
#include "lib/string.h"

#define SMP_ST_TICK_WAIT_MS	3000	/* for every AP's timer to tick twice */
#define SMP_ST_TORTURE_ITERS	20000	/* lock rounds per CPU, at most */
#define SMP_ST_TORTURE_MS	300	/* and for at most this long */
#define SMP_ST_TORTURE_START_MS	2000	/* for every CPU to reach the start line */

static int test_ap_timers(void)
{
	u64 before[NR_CPUS], deadline = ktime_ms() + SMP_ST_TICK_WAIT_MS;
	struct cpu *c;
	u32 i, behind;

	for_each_cpu(c, i)
		before[i] = READ_ONCE(c->c_ticks);
	do {
		behind = 0;
		for_each_cpu(c, i)
			if (c != this_cpu() && READ_ONCE(c->c_state) == CPU_ONLINE &&
			    READ_ONCE(c->c_ticks) < before[i] + 2)
				behind++;
	} while (behind && ktime_ms() < deadline);
	if (behind)
		return st_fail("%u CPUs' local timers did not tick twice in %u ms", behind,
			       SMP_ST_TICK_WAIT_MS);
	kprintf("smp: %u CPUs online, every other CPU's timer ticks\n", num_online_cpus());
	return 0;
}
SELFTEST("kernel/smp/ap_timers", test_ap_timers);

struct call_record {
	u32	ran[NR_CPUS];		/* times fn ran, by the CPU it ran on */
};

static void record_call(void *data)
{
	struct call_record *r = data;

	__atomic_add_fetch(&r->ran[smp_processor_id()], 1, __ATOMIC_RELAXED);
}

static int test_call(void)
{
	struct call_record r;
	struct cpu *c;
	u32 i, round;

	for (round = 0; round < 3; round++) {
		memset(&r, 0, sizeof(r));
		ST_EQ(smp_call_function(record_call, &r), 0);
		for_each_cpu(c, i) {
			bool target = c != this_cpu() && READ_ONCE(c->c_state) == CPU_ONLINE;

			if (r.ran[i] != (target ? 1u : 0u))
				return st_fail("round %u: CPU %u ran the call %u times, expected %u",
					       round, i, r.ran[i], target ? 1 : 0);
		}
	}
	return 0;
}
SELFTEST("kernel/smp/call_each_once", test_call);

/*
 * Lock torture: a and b move together under the lock, with the other
 * CPUs spinning on it meanwhile; a CPU that ever sees them differ entered
 * the section while another was inside.  Bounded in time as well as in
 * rounds: with more virtual CPUs than host CPUs, a ticket lock waits for
 * each preempted waiter in line, and a round can take milliseconds.
 */
struct torture {
	spinlock_t	lock;
	volatile u32	a, b;		/* [lock] equal outside the section */
	u32		broken;		/* [a] times a != b was seen */
	u32		waited;		/* [a] acquisitions that found the lock busy */
	u32		arrived;	/* [a] CPUs at the start line */
	u32		cpus;		/* [I] CPUs taking part */
	u64		deadline_ms;	/* [I] give up waiting at the start line after this */
	u32		done[NR_CPUS];	/* rounds each CPU completed */
};

static void torture_run(void *data)
{
	struct torture *t = data;
	unsigned long flags;
	u32 n, me = smp_processor_id();
	u64 end;

	/*
	 * All start together: on a loaded host a virtual CPU may run late,
	 * and one that raced through its rounds alone would contend nothing.
	 */
	__atomic_add_fetch(&t->arrived, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&t->arrived, __ATOMIC_ACQUIRE) < t->cpus &&
	       ktime_ms() < t->deadline_ms)
		cpu_relax();
	end = ktime_ms() + SMP_ST_TORTURE_MS;
	for (n = 0; n < SMP_ST_TORTURE_ITERS && ktime_ms() < end; n++) {
		local_irq_save(flags);
		if (!spin_trylock(&t->lock)) {
			__atomic_add_fetch(&t->waited, 1, __ATOMIC_RELAXED);
			spin_lock(&t->lock);
		}
		if (t->a != t->b)
			__atomic_add_fetch(&t->broken, 1, __ATOMIC_RELAXED);
		t->a++;
		cpu_relax();
		t->b++;
		spin_unlock(&t->lock);
		local_irq_restore(flags);
	}
	t->done[me] = n;
}

static int test_lock_torture(void)
{
	static struct torture t;
	u32 i, total = 0, cpus = 0;
	struct cpu *c;
	int err;

	memset(&t, 0, sizeof(t));
	spin_lock_init(&t.lock, "torture");
	t.cpus = num_online_cpus();
	t.deadline_ms = ktime_ms() + SMP_ST_TORTURE_START_MS;
	err = smp_call_start(torture_run, &t);
	torture_run(&t);
	if (smp_call_finish() || err)
		return st_fail("the other CPUs did not all run the torture");
	for_each_cpu(c, i) {
		if (READ_ONCE(c->c_state) != CPU_ONLINE)
			continue;
		if (!t.done[i])
			return st_fail("CPU %u never got the lock", i);
		total += t.done[i];
		cpus++;
	}
	ST_EQ(t.broken, 0);
	ST_EQ(t.a, total);
	ST_EQ(t.b, total);
	ST_ASSERT(!spin_is_locked(&t.lock));
	kprintf("smp: lock torture: %u CPUs, %u rounds, %u found the lock busy\n", cpus, total,
		t.waited);
	return 0;
}
SELFTEST("kernel/smp/lock_torture", test_lock_torture);

/*
 * The watchdog: the other CPUs spin with interrupts off (inside the
 * cross-CPU call) longer than a threshold lowered for the test; the CPU
 * that watches CPU 1 -- this one, CPU 0 -- must report it.
 */
#define SMP_ST_STALL_MS		1200
#define SMP_ST_WATCHDOG_MS	300

static void stall(void *unused)
{
	u64 end = ktime_ms() + SMP_ST_STALL_MS;

	while (ktime_ms() < end)
		cpu_relax();
}

static int test_watchdog(void)
{
	unsigned saved = watchdog_ms;
	u32 before = READ_ONCE(watchdog_reports);
	int err;

	if (num_online_cpus() < 2) {
		kprintf("smp: one CPU: nobody to watch\n");
		return 0;
	}
	watchdog_ms = SMP_ST_WATCHDOG_MS;
	err = smp_call_function(stall, NULL);
	watchdog_ms = saved;
	ST_EQ(err, 0);
	if (READ_ONCE(watchdog_reports) == before)
		return st_fail("CPUs spun %u ms with interrupts off, the watchdog (%u ms) said nothing",
			       SMP_ST_STALL_MS, SMP_ST_WATCHDOG_MS);
	return 0;
}
SELFTEST("kernel/smp/watchdog", test_watchdog);

/*
 * The lock-order checker sees a deliberate inversion: A then B, later B
 * then A (one after the other, so nothing deadlocks).  Runs with
 * lockdep=1 only: the checker is off otherwise.
 */
static int test_lockdep(void)
{
	static DEFINE_SPINLOCK(lockdep_test_a);
	static DEFINE_SPINLOCK(lockdep_test_b);
	u32 before = READ_ONCE(lockdep_inversions);
	unsigned long flags;

	if (!lockdep_on) {
		kprintf("smp: lockdep off (boot with lockdep=1 to check lock order)\n");
		return 0;
	}
	spin_lock_irqsave(&lockdep_test_a, flags);
	spin_lock(&lockdep_test_b);
	spin_unlock(&lockdep_test_b);
	spin_unlock_irqrestore(&lockdep_test_a, flags);
	ST_EQ(READ_ONCE(lockdep_inversions), before);

	spin_lock_irqsave(&lockdep_test_b, flags);
	spin_lock(&lockdep_test_a);
	spin_unlock(&lockdep_test_a);
	spin_unlock_irqrestore(&lockdep_test_b, flags);
	ST_EQ(READ_ONCE(lockdep_inversions), before + 1);
	return 0;
}
SELFTEST("kernel/smp/lockdep_inversion", test_lockdep);
