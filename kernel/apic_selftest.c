/*
 * In-kernel self-tests of interrupt routing (selftest=kernel/apic/...), on
 * whatever controller apic_init chose: the PIT tick (ISA IRQ 0, GSI 2 by
 * the usual override) arrives through that chip, and masking the line at
 * the chip really stops it.
 */
#include "kernel/apic.h"
#include "kernel/irq.h"
#include "kernel/irqchip.h"
#include "kernel/selftest.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"
#include "lib/string.h"

#define APIC_ST_WINDOW_MS	20	/* about 20 ticks at HZ=1000; jiffies lose as many */

static u64 ticks_over(u32 ms)
{
	u64 n0 = irq_count(0);

	mdelay(ms);
	return irq_count(0) - n0;
}

static int test_timer_chip(void)
{
	const struct irq_chip *chip = irq_get_chip(0);
	u64 n;

	ST_ASSERT(chip != NULL);
	if (ioapic_active())
		ST_ASSERT(strcmp(chip->name, "ioapic") == 0);
	n = ticks_over(APIC_ST_WINDOW_MS);
	if (n < APIC_ST_WINDOW_MS / 2)
		return st_fail("%llu ticks in %u ms through %s", (unsigned long long)n,
			       APIC_ST_WINDOW_MS, chip->name);
	return 0;
}
SELFTEST("kernel/apic/timer_through_chip", test_timer_chip);

/* Mask IRQ 0 at its chip: no tick may arrive; unmask: ticks resume. */
static int test_mask(void)
{
	const struct irq_chip *chip = irq_get_chip(0);
	u64 n;

	ST_ASSERT(chip && chip->mask && chip->unmask);
	chip->mask(0);
	ticks_over(2);		/* one already in flight may still land */
	n = ticks_over(APIC_ST_WINDOW_MS);
	chip->unmask(0);
	if (n != 0)
		return st_fail("%llu ticks arrived while IRQ 0 was masked at %s",
			       (unsigned long long)n, chip->name);
	n = ticks_over(APIC_ST_WINDOW_MS);
	if (n < APIC_ST_WINDOW_MS / 2)
		return st_fail("only %llu ticks after unmasking", (unsigned long long)n);
	return 0;
}
SELFTEST("kernel/apic/mask_unmask", test_mask);
