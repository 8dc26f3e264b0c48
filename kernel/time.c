/*
 * The tick and the clocks.
 *
 * One time base: the TSC, calibrated once against PIT channel 2 (gated
 * through port 0x61) over CALIBRATE_MS.  ktime_ns() is (tsc - tsc_at_boot)
 * scaled by a fixed-point multiplier, a multiply rather than a division.
 * Each tick sets jiffies from it (one division a tick, none a read), so
 * the two never drift apart even when an emulator delivers ticks late or
 * in bursts.  PIT channel 0 (Intel 8254 data sheet) runs in mode 2 at HZ;
 * its IRQ 0 is only the occasion to run due timers.  Without a usable
 * TSC, time is the count of ticks.
 */
#include "kernel/time.h"
#include "kernel/cpu.h"
#include "kernel/io.h"
#include "kernel/irq.h"
#include "kernel/desc.h"
#include "kernel/profile.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "kernel/shell.h"
#include "kernel/console.h"
#include "kernel/errno.h"

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

#define CALIBRATE_MS	10		/* one PIT one-shot */
#define CALIBRATE_RUNS	5		/* median of this many */
#define TSC_SHIFT	24		/* fixed point of the ns multiplier */

void timer_tick(void);

static volatile u64 ticks;		/* IRQ 0 count: the fallback clock */
static u64 tsc_boot;
static u32 tsc_rate_khz;
static u64 tsc_mult;			/* ns per TSC tick << TSC_SHIFT */
static volatile u64 jiffies_now;	/* the clock in jiffies, as of the last tick */

static u64 get_ticks(void)
{
	unsigned long flags;
	u64 t;

	local_irq_save(flags);
	t = ticks;
	local_irq_restore(flags);
	return t;
}

u64 get_jiffies_64(void)
{
	unsigned long flags;
	u64 j;

	if (!tsc_mult)
		return get_ticks();
	local_irq_save(flags);
	j = jiffies_now;
	local_irq_restore(flags);
	return j;
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

static irqreturn_t pit_interrupt(unsigned irq, void *data)
{
	ticks++;
	if (tsc_mult)
		jiffies_now = ktime_ns() / (NSEC_PER_SEC / HZ);
	profile_tick(get_irq_regs()->eip);
	timer_tick();
	return IRQ_HANDLED;
}

/* TSC ticks across one CALIBRATE_MS one-shot on PIT channel 2; 0 if stuck. */
static u32 calibrate_once(void)
{
	u32 count = PIT_HZ / 1000 * CALIBRATE_MS, loops = 0;
	u64 t0, t1;
	u8 b;

	b = inb(PORT_B);
	outb(PORT_B, (u8)((b & ~PORT_B_SPKR) | PORT_B_GATE2));
	outb(PIT_CMD, PIT_SEL_CH2 | PIT_LOHI | PIT_MODE0);
	outb(PIT_CH2, count & 0xff);
	outb(PIT_CH2, (u8)(count >> 8));
	t0 = rdtsc();
	/* Bounded: at most ~50x longer than the expected wait. */
	while (!(inb(PORT_B) & PORT_B_OUT2))
		if (++loops > count * 50)
			return 0;
	t1 = rdtsc();
	outb(PORT_B, b);
	return (u32)((t1 - t0) / CALIBRATE_MS);
}

/*
 * The median of CALIBRATE_RUNS one-shots: a host that deschedules the
 * emulator between the PIT's terminal count and our next poll (seen:
 * a 5x error on a loaded machine) spoils one run, not the median.
 */
u32 tsc_calibrate_khz(void)
{
	u32 v[CALIBRATE_RUNS], t;
	int i, j, n = 0;

	for (i = 0; i < CALIBRATE_RUNS; i++) {
		t = calibrate_once();
		if (!t)
			continue;
		for (j = n++; j > 0 && v[j - 1] > t; j--)	/* insertion sort */
			v[j] = v[j - 1];
		v[j] = t;
	}
	return n ? v[n / 2] : 0;
}

void time_init(void);
void time_init(void)
{
	u32 div = (PIT_HZ + HZ / 2) / HZ;

	if (boot_cpu.features_edx & CPUID1_EDX_TSC) {
		tsc_rate_khz = tsc_calibrate_khz();
		if (tsc_rate_khz) {
			tsc_mult = (NSEC_PER_MSEC << TSC_SHIFT) / tsc_rate_khz;
			tsc_boot = rdtsc();
		}
	}
	if (tsc_rate_khz)
		pr_info("time: TSC %u.%03u MHz, tick %u Hz\n",
			tsc_rate_khz / 1000, tsc_rate_khz % 1000, HZ);
	else
		pr_warn("time: no usable TSC; time has tick resolution\n");

	outb(PIT_CMD, PIT_SEL_CH0 | PIT_LOHI | PIT_MODE2);
	outb(PIT_CH0, div & 0xff);
	outb(PIT_CH0, (u8)(div >> 8));
	if (request_irq(0, pit_interrupt, NULL, "timer"))
		panic("time: cannot get IRQ 0");
}

static int cmd_uptime(int argc, char **argv)
{
	u64 ms = ktime_ms();

	if (argc != 1)
		return -EINVAL;
	kprintf("up %llu.%03llu s, %llu ticks\n", ms / 1000, ms % 1000,
		(unsigned long long)get_jiffies_64());
	return 0;
}
SHELL_COMMAND("uptime", cmd_uptime, "uptime", "time since boot");
