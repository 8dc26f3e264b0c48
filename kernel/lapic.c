/*
 * The local APIC of the (one) CPU, in xAPIC mode (Intel SDM 3A chapter
 * 11).  lapic_init() enables it through the global enable in
 * IA32_APIC_BASE and the software enable in the spurious-interrupt vector
 * register (11.4.3, 11.9), sets up LINT0 as ExtINT so the 8259 keeps
 * working through it ("virtual wire", until the I/O APIC takes the lines
 * and lapic_mask_extint() is called), LINT1 and any LINT the MADT names
 * as NMI, masks the error LVT, and leaves the timer LVT alone.
 *
 * Spurious interrupts (vector APIC_SPURIOUS_VECTOR) need no EOI: their
 * IRQ gets a chip whose spurious() hook swallows them.
 *
 * A CPU handed over in x2APIC mode cannot be driven through MMIO; it is
 * reported and left alone, and the 8259 stays in charge.
 *
 * Locks: the state is written once at boot (arch_initcall, one CPU) and
 * read-only afterwards; the registers are per-CPU, so EOI needs no lock.
 */
#include "kernel/apic.h"
#include "kernel/apicreg.h"
#include "kernel/acpi.h"
#include "kernel/cpu.h"
#include "kernel/errno.h"
#include "kernel/io.h"
#include "kernel/irqchip.h"
#include "kernel/printk.h"
#include "kernel/mm/vmap.h"

struct lapic {
	volatile u8	*la_base;	/* [I] mapped registers, NULL while off */
	u8		la_id;		/* [I] physical APIC ID */
};

static struct lapic lapic;

static u32 lapic_read(unsigned reg)
{
	return readl(lapic.la_base + reg);
}

static void lapic_write(unsigned reg, u32 v)
{
	writel(lapic.la_base + reg, v);
}

static void spurious_nop(unsigned irq)
{
}

/* Vector 0xff: the APIC's spurious interrupt.  Never acknowledged (11.9). */
static bool spurious_swallow(unsigned irq)
{
	return true;
}

static const struct irq_chip lapic_spurious_chip = {
	.name = "lapic-spurious",
	.mask = spurious_nop,
	.unmask = spurious_nop,
	.eoi = spurious_nop,
	.spurious = spurious_swallow,
};

/* LINT0 and LINT1 as the MADT's NMI entries say; one CPU, so every entry applies. */
static void setup_lints(const struct acpi_madt_info *mi)
{
	u32 lint[2] = { LAPIC_LVT_DM_EXTINT, LAPIC_LVT_DM_NMI };	/* virtual wire */
	unsigned i;

	for (i = 0; i < mi->mi_nlapic_nmi; i++)
		lint[mi->mi_lapic_nmi[i].ln_lint] = lapic_lvt_nmi(mi->mi_lapic_nmi[i].ln_flags);
	lapic_write(LAPIC_LVT_LINT0, lint[0]);
	lapic_write(LAPIC_LVT_LINT1, lint[1]);
}

/**
 * lapic_init - turn on this CPU's local APIC
 * @mi: the MADT (its local APIC address and NMI entries)
 *
 * Returns 0; -ENODEV without an APIC; -EOPNOTSUPP in x2APIC mode;
 * -ENOMEM when the registers cannot be mapped.  Boot only, interrupts
 * may be on: the 8259's path through LINT0 is kept throughout.
 */
int lapic_init(const struct acpi_madt_info *mi)
{
	u32 a, b, c, d;
	u64 base_msr;
	phys_addr_t base;

	cpuid(1, &a, &b, &c, &d);
	if (!(d & CPUID_1_EDX_APIC))
		return -ENODEV;
	base_msr = rdmsr(MSR_IA32_APIC_BASE);
	if (base_msr & APIC_BASE_EXTD)
		return -EOPNOTSUPP;
	/* The MSR is what the CPU decodes; the MADT should agree. */
	base = base_msr & APIC_BASE_ADDR_MASK;
	if (mi->mi_lapic_addr && mi->mi_lapic_addr != base)
		pr_warn("lapic: MADT says %#llx, IA32_APIC_BASE says %#llx; using the MSR\n",
			(unsigned long long)mi->mi_lapic_addr, (unsigned long long)base);
	if (!(base_msr & APIC_BASE_ENABLE))
		wrmsr(MSR_IA32_APIC_BASE, base_msr | APIC_BASE_ENABLE);

	lapic.la_base = ioremap(base, LAPIC_MMIO_SIZE);
	if (!lapic.la_base)
		return -ENOMEM;
	lapic.la_id = (u8)(lapic_read(LAPIC_ID) >> LAPIC_ID_SHIFT);

	lapic_write(LAPIC_TPR, 0);			/* accept every priority */
	lapic_write(LAPIC_LVT_ERROR, LAPIC_LVT_MASKED);
	lapic_write(LAPIC_ESR, 0);			/* ESR is cleared by two writes */
	lapic_write(LAPIC_ESR, 0);
	setup_lints(mi);
	irq_set_chip(APIC_SPURIOUS_VECTOR - IRQ_VECTOR_BASE, &lapic_spurious_chip);
	lapic_write(LAPIC_SVR, LAPIC_SVR_ENABLE | APIC_SPURIOUS_VECTOR);
	return 0;
}

/* The I/O APIC has the ISA lines now: stop taking the 8259's INTR on LINT0. */
void lapic_mask_extint(void)
{
	u32 v = lapic_read(LAPIC_LVT_LINT0);

	if ((v & LAPIC_LVT_DM_MASK) == LAPIC_LVT_DM_EXTINT)
		lapic_write(LAPIC_LVT_LINT0, v | LAPIC_LVT_MASKED);
}

/* True once lapic_init() succeeded: MSI and I/O APIC delivery are possible. */
bool lapic_enabled(void)
{
	return lapic.la_base != NULL;
}

/* This CPU's physical APIC ID, the destination of every I/O APIC entry and MSI. */
u8 lapic_id(void)
{
	return lapic.la_id;
}

/* End of interrupt for whatever the I/O APIC or an MSI delivered (11.8.5). */
void lapic_eoi(void)
{
	lapic_write(LAPIC_EOI, 0);
}
