/*
 * The hard-lockup watchdog: a CPU whose local tick stands still for
 * watchdog_ms has had its interrupts off that long (or is halted with
 * them off), which on this kernel is always a bug -- a lost unlock, a
 * spin on a device that never answers.  It is reported once per stall,
 * with the stuck CPU's backtrace taken by NMI (kernel/nmi.c).
 *
 * Each CPU watches the next one in number order, from its own tick, at
 * most every WATCHDOG_LOOK_MS; the last watches CPU 0.  With one CPU
 * nobody watches.  An emulated CPU the host does not schedule also stops
 * ticking, so the default threshold is long (10 s, as Linux's).
 */
#include "kernel/ksyms.h"
#include "kernel/param.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/time.h"

#define WATCHDOG_LOOK_MS	100

unsigned watchdog_ms = 10000;
PARAM_UINT("watchdog_ms", watchdog_ms,
	   "report a CPU whose interrupts stay off this long (default 10000; 0: off)");

u32 watchdog_reports;		/* [a] stalls reported since boot */

/* The CPU this one watches: the next online one, wrapping; NULL if alone. */
static struct cpu *watched_by(struct cpu *me)
{
	u32 i, n;

	for (n = 1; n < NR_CPUS; n++) {
		struct cpu *c;

		i = (me->c_id + n) % NR_CPUS;
		c = cpu_table[i];
		if (c == me)
			return NULL;
		if (c && READ_ONCE(c->c_state) == CPU_ONLINE)
			return c;
	}
	return NULL;
}

static void report(struct cpu *c, u64 stalled_ms)
{
	u32 pcs[NMI_BACKTRACE_MAX];
	int n;

	__atomic_add_fetch(&watchdog_reports, 1, __ATOMIC_RELAXED);
	pr_err("watchdog: CPU %u stuck with interrupts off for %llu ms\n", c->c_id,
	       (unsigned long long)stalled_ms);
	n = nmi_sample(c, pcs, NMI_BACKTRACE_MAX);
	if (n > 0)
		backtrace_print_pcs(pcs, n);
	else
		pr_err("watchdog: CPU %u did not answer an NMI either\n", c->c_id);
}

void watchdog_tick(void)
{
	static u64 last_look[NR_CPUS];	/* [c] by the looking CPU's number */
	struct cpu *me = this_cpu(), *c;
	u64 now, ticks;

	if (!watchdog_ms || num_online_cpus() < 2)
		return;
	now = ktime_ms();
	if (now - last_look[me->c_id] < WATCHDOG_LOOK_MS)
		return;
	last_look[me->c_id] = now;
	c = watched_by(me);
	if (!c)
		return;
	ticks = READ_ONCE(c->c_ticks);
	if (ticks != c->c_wd_ticks || !c->c_wd_since_ms) {
		c->c_wd_ticks = ticks;
		c->c_wd_since_ms = now;
		c->c_wd_reported = false;
	} else if (!c->c_wd_reported && now - c->c_wd_since_ms >= watchdog_ms) {
		c->c_wd_reported = true;
		report(c, now - c->c_wd_since_ms);
	}
}
