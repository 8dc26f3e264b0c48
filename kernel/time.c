/*
 * The tick and the clocks.
 *
 * One time base: the TSC, calibrated once against PIT channel 2 (gated
 * through port 0x61) over CALIBRATE_MS.  ktime_ns() is (tsc - tsc_at_boot)
 * scaled by a fixed-point multiplier, a multiply rather than a division,
 * and jiffies are derived from it (by another multiply), so the two never
 * drift apart even when an emulator delivers ticks late or in bursts.
 * PIT channel 0 (Intel 8254 data sheet) runs in mode 2 at HZ; its IRQ 0
 * is only the occasion to run due timers.  Without a usable TSC, time is
 * the count of ticks.
 *
 * Without the PIT -- `nopit', or a PIT whose channel 2 never counts down
 * (chipsets may gate the 8254) -- the TSC is calibrated against the ACPI
 * PM timer or the HPET (kernel/time_ref.c) and, once the local APIC is
 * up, its timer is the tick (time_start_apic_tick, kernel/lapic.c).
 */
#include "kernel/smp.h"
#include "kernel/time.h"
#include "kernel/timer.h"
#include "kernel/cpu.h"
#include "kernel/io.h"
#include "kernel/irq.h"
#include "kernel/desc.h"
#include "kernel/profile.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "kernel/errno.h"
#include "kernel/apic.h"
#include "kernel/param.h"

#define PIT_HZ		1193182		/* input clock, Hz */
#define PIT_CH0		0x40
#define PIT_CH2		0x42
#define PIT_CMD		0x43
#define  PIT_SEL_CH0	0x00
#define  PIT_SEL_CH2	0x80
#define  PIT_LOHI	0x30		/* access low byte then high byte */
#define  PIT_MODE0	0x00		/* interrupt on terminal count */
#define  PIT_MODE2	0x04		/* rate generator */
#define PORT_B		0x61		/* NMI status and control */
#define  PORT_B_GATE2	0x01		/* channel 2 gate */
#define  PORT_B_SPKR	0x02		/* speaker data: keep off */
#define  PORT_B_OUT2	0x20		/* channel 2 output */

#define CALIBRATE_MS	5		/* one PIT one-shot: 5965 counts, so the PIT's
					 * own 1-count uncertainty is 0.02% */
#define CALIBRATE_RUNS	5		/* median of this many ... */
#define CALIBRATE_QUICK	3		/* ... or of the first this many, when they */
#define CALIBRATE_AGREE	1000		/* lie within 1/this (0.1%) of each other */
#define CALIBRATE_TRIES	25		/* one-shots tried for them at most */
#define CALIBRATE_SLACK	100		/* a run's ends known to 1% of it */
#define TSC_SHIFT	24		/* fixed point of the ns multiplier */

static bool nopit;
PARAM_BOOL("nopit", nopit, "leave the 8254 PIT alone: calibrate from ACPI, tick from the local APIC");

static bool pit_ticks;			/* the tick is IRQ 0 from PIT channel 0 */
static bool pit_dead;			/* channel 2 never counted down */
static volatile u64 ticks;		/* tick count: the fallback clock */
static u64 tsc_boot;
static u32 tsc_rate_khz;
static u64 tsc_mult;			/* ns per TSC tick << TSC_SHIFT */

static u64 get_ticks(void)
{
	unsigned long flags;
	u64 t;

	local_irq_save(flags);
	t = ticks;
	local_irq_restore(flags);
	return t;
}

/*
 * ns / (NSEC_PER_SEC / HZ) as a multiply: floor(ns * JIFFY_MULT >> 51),
 * with the 96-bit product kept in two halves.  JIFFY_MULT is rounded
 * down, so jiffies never run ahead of the clock; they run 0.3 ppb slow,
 * a millisecond after 38 days of uptime.
 */
#define JIFFY_SHIFT	51
#define JIFFY_MULT	((1ULL << JIFFY_SHIFT) / (NSEC_PER_SEC / HZ))
_Static_assert(JIFFY_MULT < (1ULL << 32) && JIFFY_SHIFT > 32, "the halves below");

u64 ns_to_jiffies(u64 ns)
{
	u64 hi = (ns >> 32) * JIFFY_MULT, lo = (ns & 0xffffffffu) * JIFFY_MULT;
	u64 mid = lo + ((hi & ((1ULL << (JIFFY_SHIFT - 32)) - 1)) << 32);
	u64 carry = mid < lo;

	return (hi >> (JIFFY_SHIFT - 32)) + (mid >> JIFFY_SHIFT) + (carry << (64 - JIFFY_SHIFT));
}

u64 get_jiffies_64(void)
{
	if (!tsc_mult)
		return get_ticks();
	return ns_to_jiffies(ktime_ns());
}

bool time_pit_counts(void)
{
	return !pit_dead;
}

bool time_tick_is_pit(void)
{
	return pit_ticks;
}

u64 time_tick_count(void)
{
	return get_ticks();
}

u32 tsc_khz(void)
{
	return tsc_rate_khz;
}

u64 ktime_ns(void)
{
	u64 d, hi, lo;

	if (!tsc_mult)
		return get_ticks() * (NSEC_PER_SEC / HZ);
	d = rdtsc() - tsc_boot;
	/* (d * mult) >> SHIFT without overflowing 64 bits: split d in halves. */
	hi = (d >> 32) * tsc_mult;
	lo = (d & 0xffffffffu) * tsc_mult;
	return (hi << (32 - TSC_SHIFT)) + (lo >> TSC_SHIFT);
}

void udelay(u32 us)
{
	u64 end = ktime_ns() + (u64)us * NSEC_PER_USEC;

	if (!tsc_mult) {	/* ~1 us per port write, as good as it gets */
		while (us--)
			io_delay();
		return;
	}
	while (ktime_ns() < end)
		cpu_relax();
}

void mdelay(u32 ms)
{
	while (ms--)
		udelay(1000);
}

/* One tick, from the PIT or the local APIC timer (interrupts off). */
static void time_tick(void)
{
	ticks++;
	this_cpu()->c_ticks++;
	watchdog_tick();
	profile_tick(get_irq_regs()->eip);
	timer_tick();
}

static irqreturn_t pit_interrupt(unsigned irq, void *data)
{
	time_tick();
	return IRQ_HANDLED;
}

/*
 * TSC ticks across one CALIBRATE_MS one-shot on PIT channel 2, or 0 when
 * the PIT never ended or the run cannot be trusted.  The PIT counts from
 * the write of the count's high byte, so its start lies between the TSC
 * reads around that write.  Its end lies between the last poll that saw
 * OUT2 low and the first that saw it high, so between the TSC read just
 * before the former and the one just after the latter: a read taken
 * after a low poll would not bound it, since the emulator may be
 * descheduled between the poll and the read (seen: every run 10% long
 * with 8 virtual CPUs on 2 host cores).  A host that deschedules the
 * emulator at either end makes the bounds wide, and the run is thrown
 * away when they exceed 1/CALIBRATE_SLACK of the window.
 */
static u32 calibrate_once(void)
{
	u32 count = PIT_HZ / 1000 * CALIBRATE_MS, loops = 0;
	u64 s, t0, low = 0, now, t1;
	u8 b;

	b = inb(PORT_B);
	outb(PORT_B, (u8)((b & ~PORT_B_SPKR) | PORT_B_GATE2));
	outb(PIT_CMD, PIT_SEL_CH2 | PIT_LOHI | PIT_MODE0);
	outb(PIT_CH2, count & 0xff);
	s = rdtsc();
	outb(PIT_CH2, (u8)(count >> 8));
	t0 = rdtsc();
	/* Bounded: at most ~50x longer than the expected wait. */
	for (;;) {
		now = rdtsc();
		if (inb(PORT_B) & PORT_B_OUT2)
			break;
		low = now;
		if (++loops > count * 50) {
			outb(PORT_B, b);
			pit_dead = true;
			return 0;
		}
	}
	t1 = rdtsc();
	outb(PORT_B, b);
	if (!loops) {		/* OUT2 high at once: no PIT counting (gated, or absent) */
		pit_dead = true;
		return 0;
	}
	if (((t0 - s) + (t1 - low)) * CALIBRATE_SLACK > t1 - t0)
		return 0;
	/* kHz over the exact length of count PIT clocks, not a rounded CALIBRATE_MS. */
	return (u32)((t1 - t0) * PIT_HZ / ((u64)count * 1000));
}

/*
 * The median of CALIBRATE_RUNS trusted one-shots, trying at most
 * CALIBRATE_TRIES times; 0 if none could be trusted.  When the first
 * CALIBRATE_QUICK trusted runs already agree within 1/CALIBRATE_AGREE
 * (a quiet host: the usual case) their median is taken and the boot is
 * spared the other runs; a disturbed run makes them disagree, and then
 * all CALIBRATE_RUNS are taken as before.
 */
u32 tsc_calibrate_khz(void)
{
	u32 v[CALIBRATE_RUNS], t;
	int i, j, n = 0;

	for (i = 0; i < CALIBRATE_TRIES && n < CALIBRATE_RUNS; i++) {
		t = calibrate_once();
		if (!t)
			continue;
		for (j = n++; j > 0 && v[j - 1] > t; j--)	/* insertion sort */
			v[j] = v[j - 1];
		v[j] = t;
		if (n == CALIBRATE_QUICK && (u64)(v[n - 1] - v[0]) * CALIBRATE_AGREE <= v[0])
			break;
	}
	return n ? v[n / 2] : 0;
}

void time_init(void)
{
	u32 div = (PIT_HZ + HZ / 2) / HZ;
	const char *ref = NULL;
	bool tsc = boot_cpu.features_edx & CPUID1_EDX_TSC;

	if (tsc && !nopit) {
		tsc_rate_khz = tsc_calibrate_khz();
		if (pit_dead)
			tsc_rate_khz = 0;
		if (!tsc_rate_khz)
			pr_warn("time: %s; calibrating from ACPI instead\n", pit_dead ?
				"the PIT does not count" : "no PIT calibration could be trusted");
	}
	if (tsc && !tsc_rate_khz)
		tsc_rate_khz = time_ref_calibrate_khz(TIME_REF_ANY, &ref);
	if (tsc_rate_khz) {
		tsc_mult = (NSEC_PER_MSEC << TSC_SHIFT) / tsc_rate_khz;
		tsc_boot = rdtsc();
	}
	/* A PIT that gave no trusted figure is not trusted with the tick either. */
	pit_ticks = !nopit && !ref;
	if (tsc_rate_khz && !ref)
		pr_info("time: TSC %u.%03u MHz, tick %u Hz\n",
			tsc_rate_khz / 1000, tsc_rate_khz % 1000, HZ);
	else if (tsc_rate_khz)
		pr_info("time: TSC %u.%03u MHz (from the %s), tick %u Hz from the local APIC timer\n",
			tsc_rate_khz / 1000, tsc_rate_khz % 1000, ref, HZ);
	else
		pr_warn("time: no usable TSC; time has tick resolution\n");
	if (!pit_ticks) {
		/* A PIT the firmware left running would still raise IRQ 0: one shot, then quiet. */
		if (!pit_dead) {
			outb(PIT_CMD, PIT_SEL_CH0 | PIT_LOHI | PIT_MODE0);
			outb(PIT_CH0, 0xff);
			outb(PIT_CH0, 0xff);
		}
		return;
	}

	outb(PIT_CMD, PIT_SEL_CH0 | PIT_LOHI | PIT_MODE2);
	outb(PIT_CH0, div & 0xff);
	outb(PIT_CH0, (u8)(div >> 8));
	if (request_irq(0, pit_interrupt, NULL, "timer"))
		panic("time: cannot get IRQ 0");
}

void time_start_apic_tick(void)
{
	int err;

	if (pit_ticks)
		return;
	err = lapic_timer_start(HZ, time_tick);
	if (err)
		pr_err("time: no tick (local APIC timer: %s): timers will not run\n", errstr(err));
}
