/*
 * Self-tests of the kernel core: clocks, timers, waiting, deferred work
 * and caught exceptions.  All are named kernel/..., so that a command
 * line of selftest=kernel/STAR (a glob, STAR being *) runs them.
 */
#include "kernel/selftest.h"
#include "kernel/console.h"
#include "kernel/completion.h"
#include "kernel/timer.h"
#include "kernel/time.h"
#include "kernel/work.h"
#include "kernel/irq.h"
#include "kernel/errno.h"
#include "kernel/spinlock.h"
#include "kernel/cpu.h"

/*
 * The TSC against the PIT: measuring again against PIT channel 2 must give
 * the boot calibration within a factor of two.  That catches a wrong scale
 * (a unit error, a misread counter), which is what this test is for; it
 * cannot be tighter, because a nested emulator on a loaded host was seen
 * to put the two clocks 40% apart at boot and not later.
 */
static int test_tsc_vs_pit(void)
{
	u32 boot = tsc_khz(), now;

	if (!time_pit_counts()) {
		kprintf("time: the PIT does not count here; nothing to compare\n");
		return 0;
	}
	if (!boot)
		return st_fail("no TSC calibration at boot");
	now = tsc_calibrate_khz();
	if (!now) {
		kprintf("time: no PIT window could be trusted (a busy host); nothing to compare\n");
		return 0;
	}
	if (now < boot / 2 || now > boot * 2)
		return st_fail("TSC measured %u kHz against the PIT, %u kHz at boot", now, boot);
	return 0;
}
SELFTEST("kernel/time/tsc_vs_pit", test_tsc_vs_pit);

/*
 * ns_to_jiffies against the division it replaces: never above it, and
 * below it by no more than one plus 2^-51 of v (0.3 ppb of the time).
 */
static int test_ns_to_jiffies(void)
{
	static const u64 ns[] = {
		0, 1, 999999, 1000000, 1000001, 0xffffffffULL, 0x100000000ULL,
		123456789012345ULL, 3283200000000000ULL, 1ULL << 52, (1ULL << 62) + 987654321,
	};
	u64 x = 0x9e3779b97f4a7c15ULL, want, got, v;
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(ns) + 1000; i++) {
		v = i < ARRAY_SIZE(ns) ? ns[i] : (x = x * 6364136223846793005ULL + 1) >> 2;
		want = v / (NSEC_PER_SEC / HZ);
		got = ns_to_jiffies(v);
		if (got > want || want - got > 1 + (v >> 51))
			return st_fail("ns_to_jiffies(%llu) = %llu, not %llu", (unsigned long long)v,
				       (unsigned long long)got, (unsigned long long)want);
	}
	return 0;
}
SELFTEST("kernel/time/ns_to_jiffies", test_ns_to_jiffies);

/* The tick runs: 100 ms by the TSC sees timer interrupts. */
static int test_tick(void)
{
	u64 t0 = ktime_ns(), n0 = time_tick_count();

	while (ktime_ns() - t0 < 100 * NSEC_PER_MSEC)
		cpu_idle_once();
	if (time_tick_count() == n0)
		return st_fail("no timer interrupt in 100 ms");
	return 0;
}
SELFTEST("kernel/time/tick", test_tick);

static int test_udelay(void)
{
	u64 t0 = ktime_ns(), d;

	udelay(5000);
	d = ktime_ns() - t0;
	if (d < 5000 * NSEC_PER_USEC)
		return st_fail("udelay(5000) returned after %llu ns", (unsigned long long)d);
	return 0;
}
SELFTEST("kernel/time/udelay", test_udelay);

struct timer_probe {
	struct timer_list	t;
	struct completion	done;
	u64			fired_ns;
	bool			in_irq;
};

static void probe_fire(struct timer_list *t)
{
	struct timer_probe *p = container_of(t, struct timer_probe, t);

	p->fired_ns = ktime_ns();
	p->in_irq = in_interrupt();
	complete(&p->done);
}

static int test_timer_oneshot(void)
{
	struct timer_probe p;
	u64 t0;

	timer_setup(&p.t, probe_fire);
	init_completion(&p.done);
	t0 = ktime_ns();
	mod_timer(&p.t, get_jiffies_64() + msecs_to_jiffies(20));
	ST_EQ(wait_for_completion_timeout(&p.done, 2000), 0);
	ST_ASSERT(p.in_irq);
	ST_ASSERT(!timer_pending(&p.t));
	if (p.fired_ns - t0 < 19 * NSEC_PER_MSEC)
		return st_fail("a 20 ms timer fired after %llu us",
			       (unsigned long long)(p.fired_ns - t0) / 1000);
	return 0;
}
SELFTEST("kernel/timer/oneshot", test_timer_oneshot);

static int test_timer_cancel(void)
{
	struct timer_probe p, q;

	timer_setup(&p.t, probe_fire);
	timer_setup(&q.t, probe_fire);
	init_completion(&p.done);
	init_completion(&q.done);
	mod_timer(&p.t, get_jiffies_64() + msecs_to_jiffies(10));
	mod_timer(&q.t, get_jiffies_64() + msecs_to_jiffies(40));
	ST_ASSERT(del_timer(&p.t));
	ST_ASSERT(!del_timer(&p.t));
	/* q firing at 40 ms proves time passed beyond p's expiry. */
	ST_EQ(wait_for_completion_timeout(&q.done, 2000), 0);
	ST_ASSERT(!completion_done(&p.done));
	return 0;
}
SELFTEST("kernel/timer/cancel", test_timer_cancel);

static int test_completion_timeout(void)
{
	struct completion c;
	u64 t0 = ktime_ns();

	init_completion(&c);
	ST_EQ(wait_for_completion_timeout(&c, 30), -ETIMEDOUT);
	ST_ASSERT(ktime_ns() - t0 >= 30 * NSEC_PER_MSEC);
	return 0;
}
SELFTEST("kernel/completion/timeout", test_completion_timeout);

/* Work queued from an interrupt handler runs later outside interrupt context. */
struct work_probe {
	struct timer_list	t;
	struct work		w;
	struct completion	done;
	bool			ran_in_irq;
};

static void work_fn(struct work *w)
{
	struct work_probe *p = container_of(w, struct work_probe, w);

	p->ran_in_irq = in_interrupt();
	complete(&p->done);
}

static void work_timer(struct timer_list *t)
{
	struct work_probe *p = container_of(t, struct work_probe, t);

	schedule_work(&p->w);
	schedule_work(&p->w);	/* queued once only */
}

static int test_deferred_work(void)
{
	struct work_probe p;

	timer_setup(&p.t, work_timer);
	work_init(&p.w, work_fn);
	init_completion(&p.done);
	mod_timer(&p.t, get_jiffies_64() + 1);
	ST_EQ(wait_for_completion_timeout(&p.done, 2000), 0);
	ST_ASSERT(!p.ran_in_irq);
	ST_EQ(run_deferred_work(), 0);
	return 0;
}
SELFTEST("kernel/work/from_irq", test_deferred_work);

static int test_irqsave_nesting(void)
{
	unsigned long a, b;

	local_irq_save(a);
	local_irq_save(b);
	ST_ASSERT(!(read_eflags() & X86_EFLAGS_IF));
	local_irq_restore(b);
	ST_ASSERT(!(read_eflags() & X86_EFLAGS_IF));
	local_irq_restore(a);
	ST_ASSERT(read_eflags() & X86_EFLAGS_IF);
	return 0;
}
SELFTEST("kernel/irq/save_restore", test_irqsave_nesting);

static void read_null(void *arg)
{
	(void)*(volatile u32 *)arg;
}

static void divide_by_zero(void *arg)
{
	volatile u32 divisor = (u32)(uintptr_t)arg;
	volatile u32 quotient;

	quotient = 100 / divisor;
	(void)quotient;
}

static void invalid_opcode(void *arg)
{
	__asm__ __volatile__("ud2");
}

static int test_faults_caught(void)
{
	u32 cr2 = 1;

	ST_EQ(selftest_catch_fault(read_null, NULL, &cr2), 14);
	ST_EQ(cr2, 0);
	ST_EQ(selftest_catch_fault(divide_by_zero, NULL, NULL), 0);
	ST_EQ(selftest_catch_fault(invalid_opcode, NULL, NULL), 6);
	ST_EQ(selftest_catch_fault(divide_by_zero, (void *)1, NULL), -1);
	ST_ASSERT(read_eflags() & X86_EFLAGS_IF);
	return 0;
}
SELFTEST("kernel/traps/caught", test_faults_caught);

static int test_rtc(void)
{
	struct rtc_time t;

	ST_EQ(rtc_read(&t), 0);
	if (t.year < 2020 || t.year > 2199)
		return st_fail("RTC year %u", t.year);
	ST_ASSERT(wallclock_unix() > 1577836800ULL);	/* after 2020-01-01 */
	return 0;
}
SELFTEST("kernel/time/rtc", test_rtc);
