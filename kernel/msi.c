/*
 * Message Signalled Interrupts, the CPU side: an IRQ number (and so a
 * vector) from irq_alloc(), and the address/data pair a device writes to
 * raise it (kernel/apic_encode.c msi_compose).  The PCI side that
 * programs the capability is drivers/pci (pci_enable_msi).
 *
 * An MSI is edge-triggered and goes straight to the local APIC, so its
 * chip's EOI is the local APIC's.  There is no line to mask at this end:
 * mask and unmask do nothing, and a device is quiet until its driver
 * enables interrupts in it (and after pci_disable_msi).
 */
#include "kernel/apic.h"
#include "kernel/errno.h"
#include "kernel/irqchip.h"

static void msi_nop(unsigned irq)
{
}

static void msi_eoi(unsigned irq)
{
	lapic_eoi();
}

static const struct irq_chip msi_chip = {
	.name = "msi",
	.mask = msi_nop,
	.unmask = msi_nop,
	.eoi = msi_eoi,
};

/**
 * msi_irq_alloc - a new IRQ delivered by message
 * @addr, @data: what the device must write to raise it
 *
 * Returns the IRQ, -ENODEV while the local APIC is off (PIC-only
 * machines, noapic), or -ENOSPC when no vector is left.
 */
int msi_irq_alloc(u64 *addr, u32 *data)
{
	int irq;

	if (!lapic_enabled())
		return -ENODEV;
	irq = irq_alloc(&msi_chip);
	if (irq < 0)
		return irq;
	msi_compose(lapic_id(), (u8)(IRQ_VECTOR_BASE + irq), addr, data);
	return irq;
}
