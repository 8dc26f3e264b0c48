/*
 * Message Signalled Interrupts, the CPU side: an IRQ number (and so a
 * vector) from irq_alloc_on(), and the address/data pair a device writes
 * to raise it (kernel/apic_encode.c msi_compose), aimed at one CPU's
 * local APIC by its physical APIC ID (Intel SDM 3A 11.11.1, destination
 * ID in address bits 19:12; the kernel drives the APICs in xAPIC mode,
 * so IDs are 8 bits).  The PCI side that programs the capability or the
 * MSI-X table is drivers/pci.
 *
 * A new vector goes to the next online CPU in round-robin order.  To
 * steer it later (irq_set_affinity), the PCI side registers a writer for
 * the IRQ once the message is in the device: msi_set_affinity composes
 * the message for the new CPU and has the writer put it in place
 * (MSI-X: mask the entry, write, unmask).
 *
 * An MSI is edge-triggered and goes straight to the local APIC, so its
 * chip's EOI is the local APIC's.  There is no line to mask at this end:
 * mask and unmask do nothing, and a device is quiet until its driver
 * enables interrupts in it (and after pci_disable_msi).
 *
 * Locks: [A] the affinity lock of kernel/irq.c (set_affinity callers are
 * serialised there); the writer is set once by the PCI side before any
 * steering.
 */
#include "kernel/apic.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/irqchip.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"

struct msi_target {
	msi_write_fn	mt_write;	/* rewrites the message in the device */
	void		*mt_ctx;
	u32		mt_cookie;	/* the writer's: MSI-X entry */
};

static struct msi_target msi_targets[NR_IRQS];

static void msi_nop(unsigned irq)
{
}

static void msi_eoi(unsigned irq)
{
	lapic_eoi();
}

/* The physical APIC ID of logical CPU cpu; the boot CPU's before SMP start. */
static u8 msi_dest(u32 cpu)
{
	struct cpu *c = cpu < NR_CPUS ? cpu_table[cpu] : NULL;

	return c ? (u8)c->c_apic_id : lapic_id();
}

static int msi_set_affinity(unsigned irq, u32 cpu)
{
	struct msi_target *t = &msi_targets[irq];
	u64 addr;
	u32 data;

	if (!t->mt_write)
		return -EOPNOTSUPP;
	msi_compose(msi_dest(cpu), (u8)(IRQ_VECTOR_BASE + irq), &addr, &data);
	return t->mt_write(t->mt_ctx, t->mt_cookie, addr, data);
}

static const struct irq_chip msi_chip = {
	.name = "msi",
	.mask = msi_nop,
	.unmask = msi_nop,
	.eoi = msi_eoi,
	.set_affinity = msi_set_affinity,
};

/**
 * msi_irq_alloc - a new IRQ delivered by message
 * @addr, @data: what the device must write to raise it
 *
 * The message goes to the next online CPU in round-robin order.
 * Returns the IRQ, -ENODEV while the local APIC is off (PIC-only
 * machines, noapic), or -ENOSPC when no vector is left.
 */
int msi_irq_alloc(u64 *addr, u32 *data)
{
	u32 cpu;
	int irq;

	if (!lapic_enabled())
		return -ENODEV;
	cpu = irq_next_cpu();
	irq = irq_alloc_on(&msi_chip, cpu);
	if (irq < 0)
		return irq;
	msi_targets[irq].mt_write = NULL;
	msi_compose(msi_dest(cpu), (u8)(IRQ_VECTOR_BASE + irq), addr, data);
	return irq;
}

/**
 * msi_irq_set_writer - how to rewrite irq's message in its device
 * @irq: from msi_irq_alloc; @write: called with @ctx, @cookie and the new
 *	 message, must leave the device sending it (0 or an errno)
 *
 * Without a writer the IRQ cannot be steered (-EOPNOTSUPP).
 */
void msi_irq_set_writer(unsigned irq, msi_write_fn write, void *ctx, u32 cookie)
{
	if (irq >= NR_IRQS)
		return;
	msi_targets[irq].mt_ctx = ctx;
	msi_targets[irq].mt_cookie = cookie;
	msi_targets[irq].mt_write = write;
}
