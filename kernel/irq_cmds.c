/*
 * Shell commands for interrupt routing: `irqs` (every line in use, its
 * chip, its count and its handlers; kernel/irq.h; with several CPUs a
 * second line per IRQ says where it is steered and how many were taken
 * on each CPU), `apic` (the local APIC, the I/O APICs the MADT lists and
 * each input in use, with its destination; kernel/apic.h, kernel/acpi.h)
 * and `irqcpu IRQ|HANDLER CPU` (steer a line to another CPU, live).  The views
 * take no lock, so a count may move while it is printed.
 */
#include "kernel/acpi.h"
#include "kernel/apic.h"
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/irqchip.h"
#include "kernel/shell.h"
#include "kernel/smp.h"
#include "lib/string.h"

/* "       to cpu 1, taken on cpu0:3 cpu1:1234": the CPUs that took any. */
static void print_per_cpu(unsigned irq)
{
	u32 to = irq_get_affinity(irq), cpu, n, any = 0;

	if (to == IRQ_CPU_EACH)
		kprintf("       to each cpu, taken on");
	else
		kprintf("       to cpu %u, taken on", to);
	for (cpu = 0; cpu < nr_cpu_ids && cpu < NR_CPUS; cpu++) {
		n = irq_count_cpu(irq, cpu);
		if (n)
			kprintf(" cpu%u:%u", cpu, n);
		any += n;
	}
	kprintf("%s\n", any ? "" : " none yet");
}

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
		if (nr_cpu_ids > 1)
			print_per_cpu(irq);
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
	kprintf("IRQ  GSI  VECTOR  TRIGGER  POLARITY  MASK  DEST\n");
	for (irq = 0; irq < NR_IRQS; irq++) {
		if (ioapic_irq_line(irq, &l))
			continue;
		kprintf("%3u  %3u  %6u  %-7s  %-8s  %-4s  apic %u\n", irq, l.il_gsi, l.il_vector,
			l.il_level ? "level" : "edge", l.il_active_low ? "low" : "high",
			l.il_masked ? "yes" : "no", l.il_dest);
	}
	return 0;
}
SHELL_COMMAND("apic", cmd_apic, "apic",	      "interrupt routing: local APIC, I/O APICs and each I/O APIC input in use");

/* The IRQ named by number or by one of its handlers' names; NR_IRQS if none. */
static u64 irq_by_arg(const char *arg)
{
	const char *name;
	u64 irq;
	unsigned i;

	if (!str_to_u64(arg, &irq, false))
		return irq;
	for (irq = 0; irq < NR_IRQS; irq++)
		for (i = 0; (name = irq_handler_name((unsigned)irq, i)) != NULL; i++)
			if (!strcmp(name, arg))
				return irq;
	return NR_IRQS;
}

/* irqcpu IRQ|HANDLER CPU: steer a line to an online CPU while it runs. */
static int cmd_irqcpu(int argc, char **argv)
{
	u64 irq, cpu;
	int err;

	if (argc != 3 || str_to_u64(argv[2], &cpu, false))
		return -EINVAL;
	irq = irq_by_arg(argv[1]);
	if (irq >= NR_IRQS || (!irq_handler_name((unsigned)irq, 0) && !irq_count((unsigned)irq))) {
		kprintf("irqcpu: IRQ %s is not in use (see irqs)\n", argv[1]);
		return -ECANCELED;
	}
	if (!irq_cpu_online(cpu > NR_CPUS ? NR_CPUS : (u32)cpu)) {
		kprintf("irqcpu: CPU %s is not online (see cpus)\n", argv[2]);
		return -ECANCELED;
	}
	err = irq_set_affinity((unsigned)irq, (u32)cpu);
	if (err) {
		kprintf("irqcpu: IRQ %s cannot be steered: %s\n", argv[1], errstr(err));
		return -ECANCELED;
	}
	kprintf("irq %u: to cpu %u\n", (unsigned)irq, (u32)cpu);
	return 0;
}
SHELL_COMMAND("irqcpu", cmd_irqcpu, "irqcpu IRQ|HANDLER CPU",
	      "steer an interrupt line (by number or handler name) to another CPU");
