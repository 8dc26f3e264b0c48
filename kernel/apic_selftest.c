/*
 * In-kernel self-tests of interrupt routing (selftest=kernel/apic/...), on
 * whatever controller apic_init chose: the PIT tick (ISA IRQ 0, GSI 2 by
 * the usual override) arrives through that chip, and masking the line at
 * the chip really stops it.
 *
 * An emulator on a busy host delivers ticks late and in bursts, so "the
 * tick arrives" is checked as a few ticks within a generous bound, never
 * as a rate over a short window; "masked means silent" is checked over a
 * short window, since late delivery cannot create ticks.
 */
#include "kernel/apic.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/irq.h"
#include "kernel/irqchip.h"
#include "kernel/selftest.h"
#include "kernel/time.h"
#include "lib/string.h"

#define APIC_ST_MASKED_MS	20	/* ms a masked line must stay silent */
#define APIC_ST_SETTLE_MS	2	/* ms for a tick already in flight to land */
#define APIC_ST_MIN_TICKS	3	/* ticks that prove the line delivers */
#define APIC_ST_WAIT_MS		1000	/* ms allowed for them, at HZ=1000 */

/* Ticks of IRQ 0 during ms milliseconds. */
static u64 ticks_over(u32 ms)
{
	u64 n0 = irq_count(0);

	mdelay(ms);
	return irq_count(0) - n0;
}

/* Wait until want ticks of IRQ 0 arrived or ms passed; the ticks seen. */
static u64 wait_ticks(u64 want, u32 ms)
{
	u64 n0 = irq_count(0), deadline = ktime_ms() + ms;

	while (irq_count(0) - n0 < want && ktime_ms() < deadline)
		cpu_relax();
	return irq_count(0) - n0;
}

static int test_timer_chip(void)
{
	const struct irq_chip *chip = irq_get_chip(0);
	u64 n;

	if (!time_tick_is_pit()) {
		kprintf("apic: the tick is not the PIT's IRQ 0 here (nopit); nothing to check\n");
		return 0;
	}
	ST_ASSERT(chip != NULL);
	if (ioapic_active())
		ST_ASSERT(strcmp(chip->name, "ioapic") == 0);
	n = wait_ticks(APIC_ST_MIN_TICKS, APIC_ST_WAIT_MS);
	if (n < APIC_ST_MIN_TICKS)
		return st_fail("%llu ticks in %u ms through %s", (unsigned long long)n,
			       APIC_ST_WAIT_MS, chip->name);
	return 0;
}
SELFTEST("kernel/apic/timer_through_chip", test_timer_chip);

/* Mask IRQ 0 at its chip: no tick may arrive; unmask: ticks resume. */
static int test_mask(void)
{
	const struct irq_chip *chip = irq_get_chip(0);
	u64 n;

	if (!time_tick_is_pit()) {
		kprintf("apic: the tick is not the PIT's IRQ 0 here (nopit); nothing to check\n");
		return 0;
	}
	ST_ASSERT(chip && chip->mask && chip->unmask);
	chip->mask(0);
	ticks_over(APIC_ST_SETTLE_MS);
	n = ticks_over(APIC_ST_MASKED_MS);
	chip->unmask(0);
	if (n != 0)
		return st_fail("%llu ticks arrived while IRQ 0 was masked at %s",
			       (unsigned long long)n, chip->name);
	n = wait_ticks(APIC_ST_MIN_TICKS, APIC_ST_WAIT_MS);
	if (n < APIC_ST_MIN_TICKS)
		return st_fail("only %llu ticks in %u ms after unmasking", (unsigned long long)n,
			       APIC_ST_WAIT_MS);
	return 0;
}
SELFTEST("kernel/apic/mask_unmask", test_mask);
