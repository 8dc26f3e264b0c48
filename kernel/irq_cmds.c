/*
 * Shell commands that show interrupt routing: `irqs` (every line in use,
 * its chip, its count and its handlers; kernel/irq.h) and `apic` (the
 * local APIC, the I/O APICs the MADT lists and each input in use;
 * kernel/apic.h, kernel/acpi.h).  Read-only views: they take no lock, so
 * a count may move while it is printed.
 */
#include "kernel/acpi.h"
#include "kernel/apic.h"
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/irqchip.h"
#include "kernel/shell.h"

static int cmd_irqs(int argc, char **argv)
{
	const struct irq_chip *chip;
	const char *name;
	unsigned irq, i;

	if (argc != 1)
		return -EINVAL;
	kprintf("IRQ  CHIP      COUNT  HANDLERS\n");
	for (irq = 0; irq < NR_IRQS; irq++) {
		if (!irq_handler_name(irq, 0) && !irq_count(irq))
			continue;
		chip = irq_get_chip(irq);
		kprintf("%3u  %-8s %6llu ", irq, chip ? chip->name : "-",
			(unsigned long long)irq_count(irq));
		for (i = 0; (name = irq_handler_name(irq, i)) != NULL; i++)
			kprintf(" %s", name);
		kprintf("\n");
	}
	return 0;
}
SHELL_COMMAND("irqs", cmd_irqs, "irqs", "interrupt lines, counts and handlers");

static int cmd_apic(int argc, char **argv)
{
	const struct acpi_madt_info *mi = acpi_madt();
	struct ioapic_line l;
	unsigned irq, i;

	if (argc != 1)
		return -EINVAL;
	if (!lapic_enabled() || !mi) {
		kprintf("no local APIC in use: every interrupt goes through the 8259\n");
		return 0;
	}
	kprintf("local APIC %u, MADT: %u CPU%s, %u I/O APIC%s, %u override%s%s\n",
		lapic_id(), mi->mi_ncpus, mi->mi_ncpus == 1 ? "" : "s", mi->mi_nioapic,
		mi->mi_nioapic == 1 ? "" : "s", mi->mi_niso, mi->mi_niso == 1 ? "" : "s",
		mi->mi_pcat_compat ? ", 8259s present" : "");
	for (i = 0; i < mi->mi_nioapic; i++)
		kprintf("I/O APIC %u at %#x: GSI base %u\n", mi->mi_ioapic[i].io_id,
			mi->mi_ioapic[i].io_addr, mi->mi_ioapic[i].io_gsi_base);
	if (!ioapic_active()) {
		kprintf("ISA lines on the 8259\n");
		return 0;
	}
	kprintf("IRQ  GSI  VECTOR  TRIGGER  POLARITY  MASK\n");
	for (irq = 0; irq < NR_IRQS; irq++) {
		if (ioapic_irq_line(irq, &l))
			continue;
		kprintf("%3u  %3u  %6u  %-7s  %-8s  %s\n", irq, l.il_gsi, l.il_vector,
			l.il_level ? "level" : "edge", l.il_active_low ? "low" : "high",
			l.il_masked ? "yes" : "no");
	}
	return 0;
}
SHELL_COMMAND("apic", cmd_apic, "apic",	      "interrupt routing: local APIC, I/O APICs and each I/O APIC input in use");
