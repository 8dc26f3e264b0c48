/*
 * Interrupts for PCI functions: the one place that decides how a
 * function's INTx pin reaches an IRQ, and MSI set-up.
 *
 * INTx without an AML interpreter.  The true map from (device, pin) to an
 * interrupt input is the DSDT's _PRT, which needs AML.  What firmware
 * leaves us instead is the Interrupt Line register: in PIC mode it is the
 * ISA IRQ the chipset's PIRQ router sends the pin to (BIOS boot
 * specification; PCI 3.0 6.2.4), and the firmware has marked that IRQ
 * level-triggered in the ELCR.  So:
 *
 *   8259 mode      IRQ = Interrupt Line (0 and 255 mean "none").
 *   I/O APIC mode  IRQ = Interrupt Line as well, delivered at the I/O APIC
 *                  input that ISA IRQ maps to, reprogrammed to PCI's
 *                  level/active-low unless the MADT has an override for
 *                  it (then the override's signalling stands).
 *
 * That works wherever the PIRQ router's output also reaches the I/O APIC
 * input of the ISA IRQ it drives, which includes both QEMU machines:
 * on pc the PIIX3 routes PIRQA-D to IRQs 10/11 (SeaBIOS: 10, 10, 11, 11)
 * and the ISA IRQ lines feed the I/O APIC's pins 0-15; on q35 SeaBIOS
 * programs the ICH9 PIRQA-H routes to 10/11 as well, and QEMU's LPC
 * drives both the ISA IRQ and I/O APIC inputs 16-23 (PIRQA-H).  QEMU's
 * MADT declares IRQs 5, 9, 10 and 11 level/active-high by override.
 *
 * Real ICH/PCH chipsets in APIC mode deliver PIRQs on inputs 16-23 only.
 * There the lasting answers are MSI (every AHCI controller of the last
 * fifteen years has it: pci_enable_msi) or, next step, reading the Intel
 * chipset's D31IR..D20IR interrupt route registers and PIRQ mapping to
 * use inputs 16-23 through ioapic_route_gsi(); both changes stay here.
 */
#include "drivers/pci/pci.h"
#include "drivers/pci/pcireg.h"
#include "kernel/apic.h"
#include "kernel/errno.h"
#include "kernel/irqchip.h"

/**
 * pci_intx_irq - the IRQ a function's INTx pin arrives on
 * @dev: the function
 *
 * Returns the IRQ (also kept in dev->pd_irq) for request_irq(), shared
 * with other functions on the same line; -ENODEV when the function has no
 * pin or the firmware routed it nowhere.  Call from probe.
 */
int pci_intx_irq(struct pci_dev *dev)
{
	unsigned line = dev->pd_irq_line;
	int err;

	if (!dev->pd_irq_pin || line == 0 || line >= NR_ISA_IRQS)
		return -ENODEV;
	if (ioapic_active()) {
		err = ioapic_isa_irq_pci(line);
		if (err && err != -ENODEV)
			return err;
		/* -ENODEV: this ISA line stayed on the 8259, where ELCR covers it. */
	}
	dev->pd_irq = (int)line;
	return dev->pd_irq;
}

/**
 * pci_enable_msi - switch a function to one MSI message
 * @dev: a function with an MSI capability
 *
 * Allocates an IRQ, programs the capability, disables INTx.  Returns the
 * IRQ (also in dev->pd_irq), -ENODEV without a capability or without a
 * local APIC, -ENOSPC without a free vector.  The caller then does
 * request_irq(); on failure it falls back to pci_intx_irq().
 */
int pci_enable_msi(struct pci_dev *dev)
{
	u64 addr;
	u32 data;
	int irq, err;

	if (!dev->pd_msi_cap)
		return -ENODEV;
	irq = msi_irq_alloc(&addr, &data);
	if (irq < 0)
		return irq;
	err = pci_msi_program(dev, addr, (u16)data);
	if (err)
		return err;	/* the vector stays allocated: irqchip.h cannot free one */
	dev->pd_msi_on = true;
	dev->pd_irq = irq;
	return irq;
}

/* Back to INTx: MSI off, INTx enabled; pd_irq is forgotten. */
void pci_disable_msi(struct pci_dev *dev)
{
	if (!dev->pd_msi_on)
		return;
	pci_msi_disable(dev);
	dev->pd_msi_on = false;
	dev->pd_irq = -1;
}
