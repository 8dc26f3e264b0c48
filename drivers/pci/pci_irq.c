/*
 * Interrupts for PCI functions: the one place that decides how a
 * function's INTx pin reaches an IRQ, and MSI set-up.
 *
 * INTx without an AML interpreter.  The true map from (device, pin) to an
 * interrupt input is the DSDT's _PRT, which needs AML.  Two things stand
 * in for it, and each INTx user gets one of two rules, said in one boot
 * line ("pci 00:1f.2: INTA# -> ..."):
 *
 *   chipset route  I/O APIC mode on an Intel ICH6-or-later chipset whose
 *                  route registers cover the device (pci_ich.c): the pin
 *                  is swizzled up through every PCI-to-PCI bridge to bus
 *                  0 (PCI-to-PCI Bridge Architecture 1.2, 9.1: a pin on a
 *                  bridge's secondary side arrives on its primary side as
 *                  INT[(device + pin) mod 4]), the chipset's DxxIR
 *                  register of that bus-0 device names PIRQA-H, and PIRQ
 *                  n is GSI 16 + n, level-triggered, active low
 *                  (ichreg.h).  The PIRQ is then taken off the 8259
 *                  (IRQEN), where the firmware had routed it.
 *
 *   Interrupt Line everywhere else: 8259 mode, other chipsets (QEMU's pc:
 *                  PIIX3), no RCBA, or a device the registers do not
 *                  cover (QEMU q35 puts its default devices at 00:01-
 *                  00:18; real boards wire the slots behind the DMI-to-PCI
 *                  bridge as they like).  The firmware's Interrupt Line
 *                  is the ISA IRQ its PIRQ router sends the pin to (BIOS
 *                  boot specification; PCI 3.0 6.2.4), marked level in
 *                  the ELCR.  In I/O APIC mode it is delivered at the
 *                  input of that ISA IRQ, made level/active low unless
 *                  the MADT has an override for it (QEMU declares IRQs 5,
 *                  9, 10 and 11 level/active high, and that stands).
 *
 * The second rule in I/O APIC mode only works where the PIRQ router's
 * output also reaches the I/O APIC input of its ISA IRQ.  QEMU's do (the
 * PIIX3, and the ICH9 LPC, which drives the ISA line and inputs 16-23);
 * real ICH/PCH chipsets do not: in APIC mode their PIRQs arrive on inputs
 * 16-23 only, which is why the first rule exists.  On chipsets neither
 * rule covers, MSI is the answer (pci_enable_msi: every AHCI controller of
 * the last fifteen years has it).
 */
#include "drivers/pci/pci.h"
#include "drivers/pci/pcireg.h"
#include "kernel/apic.h"
#include "kernel/errno.h"
#include "kernel/irqchip.h"
#include "kernel/printk.h"
#include "lib/string.h"

/* What the chipset says about one INTx pin. */
struct intx_route {
	const struct pci_dev	*r_top;		/* the bus-0 device the pin arrives through */
	unsigned		r_pin;		/* 1-4: INTA#-INTD# at r_top */
	unsigned		r_pirq;		/* 0-7: PIRQA-H, when r_why is NULL */
	const char		*r_why;		/* NULL, or why the chipset rule does not apply */
};

/* Swizzle dev's pin up to bus 0 and look it up in the host's route table. */
static void chipset_route(const struct pci_dev *dev, struct intx_route *r)
{
	const struct pci_intx_routes *rt = &dev->pd_host->ph_intx;
	unsigned pin = dev->pd_irq_pin - 1u;

	for (; dev->pd_parent; dev = dev->pd_parent)
		pin = (pin + PCI_BDF_DEV(dev->pd_bdf)) % 4;
	r->r_top = dev;
	r->r_pin = pin + 1;
	r->r_why = NULL;
	if (!rt->ir_router)
		r->r_why = rt->ir_why ? rt->ir_why : "no chipset route table";
	else if (PCI_BDF_BUS(dev->pd_bdf) != 0 || !(rt->ir_known & (1u << PCI_BDF_DEV(dev->pd_bdf))))
		r->r_why = "no route register for its bus-0 device";
	else
		r->r_pirq = rt->ir_pirq[PCI_BDF_DEV(dev->pd_bdf)][pin];
}

#define BDF_ARGS(d)	PCI_BDF_BUS((d)->pd_bdf), PCI_BDF_DEV((d)->pd_bdf), PCI_BDF_FN((d)->pd_bdf)

/* The boot line: which rule dev got, and where its pin ends up. */
static void say_route(const struct pci_dev *dev, const struct intx_route *r, int irq)
{
	char via[24] = "";

	if (r->r_top != dev)
		snprintf(via, sizeof(via), " -> %02x:%02x.%u INT%c#", BDF_ARGS(r->r_top),
			 'A' + r->r_pin - 1);
	if (r->r_why)
		pr_info("pci %02x:%02x.%u: INT%c#%s -> IRQ %d (Interrupt Line; %s)\n",
			BDF_ARGS(dev), 'A' + dev->pd_irq_pin - 1, via, irq, r->r_why);
	else
		pr_info("pci %02x:%02x.%u: INT%c#%s -> PIRQ%c -> GSI %u, IRQ %d (chipset route, D%uIR)\n",
			BDF_ARGS(dev), 'A' + dev->pd_irq_pin - 1, via, 'A' + r->r_pirq,
			dev->pd_host->ph_intx.ir_gsi_base + r->r_pirq, irq,
			PCI_BDF_DEV(r->r_top->pd_bdf));
}

/* The Interrupt Line rule: the firmware's ISA IRQ, made PCI-shaped on the I/O APIC. */
static int line_irq(struct pci_dev *dev)
{
	unsigned line = dev->pd_irq_line;
	int err;

	if (line == 0 || line >= NR_ISA_IRQS)
		return -ENODEV;
	if (ioapic_active()) {
		err = ioapic_isa_irq_pci(line);
		if (err && err != -ENODEV)
			return err;
		/* -ENODEV: this ISA line stayed on the 8259, where ELCR covers it. */
	}
	return (int)line;
}

/**
 * pci_intx_irq - the IRQ a function's INTx pin arrives on
 * @dev: the function
 *
 * Picks the chipset route or the Interrupt Line rule (top of this file)
 * and says which in one boot line.  Returns the IRQ (also kept in
 * dev->pd_irq) for request_irq(), shared with other functions on the
 * same line; -ENODEV when the function has no pin or the firmware routed
 * it nowhere.  Call from probe.
 */
int pci_intx_irq(struct pci_dev *dev)
{
	struct intx_route r = { .r_top = dev, .r_pin = dev->pd_irq_pin, .r_why = "8259 mode" };
	int irq;

	if (dev->pd_irq_pin < 1 || dev->pd_irq_pin > 4)
		return -ENODEV;
	if (ioapic_active())
		chipset_route(dev, &r);
	if (!r.r_why) {
		const struct pci_intx_routes *rt = &dev->pd_host->ph_intx;

		irq = ioapic_route_gsi(rt->ir_gsi_base + r.r_pirq, true, true);
		if (irq >= 0)
			rt->ir_apic_only(rt->ir_router, r.r_pirq);
		else
			r.r_why = "its GSI cannot be routed";
	}
	if (r.r_why) {
		irq = line_irq(dev);
		if (irq < 0)
			return irq;
	}
	say_route(dev, &r, irq);
	dev->pd_irq = irq;
	return irq;
}

/*
 * The steering writer for a single MSI (kernel/msi.c): only with
 * per-vector masking (PCI 3.0 6.8.1.7), where the message can be
 * rewritten masked and an event meanwhile stays pending.  Without it a
 * live rewrite could tear or lose an interrupt: -EBUSY.
 */
static int msi_rewrite(void *ctx, u32 cookie, u64 addr, u32 data)
{
	struct pci_dev *dev = ctx;
	unsigned cap = dev->pd_msi_cap;
	unsigned mask_reg;
	u16 ctl;
	bool is64;
	u32 mask;

	(void)cookie;
	if (!cap || !dev->pd_msi_on)
		return -ENODEV;
	ctl = pci_read16(dev, cap + PCI_MSI_FLAGS);
	if (!(ctl & PCI_MSI_FLAGS_MASKBIT))
		return -EBUSY;
	is64 = ctl & PCI_MSI_FLAGS_64BIT;
	if ((addr >> 32) && !is64)
		return -ERANGE;
	mask_reg = cap + (is64 ? PCI_MSI_MASK_64 : PCI_MSI_MASK_32);
	mask = pci_read32(dev, mask_reg);
	pci_write32(dev, mask_reg, mask | 1);
	pci_write32(dev, cap + PCI_MSI_ADDRESS_LO, (u32)addr);
	if (is64) {
		pci_write32(dev, cap + PCI_MSI_ADDRESS_HI, (u32)(addr >> 32));
		pci_write16(dev, cap + PCI_MSI_DATA_64, (u16)data);
	} else {
		pci_write16(dev, cap + PCI_MSI_DATA_32, (u16)data);
	}
	pci_write32(dev, mask_reg, mask);
	return 0;
}

/**
 * pci_enable_msi - switch a function to one MSI message
 * @dev: a function with an MSI capability
 *
 * Allocates an IRQ, programs the capability, disables INTx.  Returns the
 * IRQ (also in dev->pd_irq), -ENODEV without a capability or without a
 * local APIC, -EBUSY while MSI-X is on (PCI 3.0 6.8.2: never both),
 * -ENOSPC without a free vector.  The caller then does request_irq(); on
 * failure it falls back to pci_intx_irq().
 */
int pci_enable_msi(struct pci_dev *dev)
{
	u64 addr;
	u32 data;
	int irq, err;

	if (!dev->pd_msi_cap)
		return -ENODEV;
	if (dev->pd_msix_nvec)
		return -EBUSY;
	irq = msi_irq_alloc(&addr, &data);
	if (irq < 0)
		return irq;
	err = pci_msi_program(dev, addr, (u16)data);
	if (err)
		return err;	/* the vector stays allocated: irqchip.h cannot free one */
	dev->pd_msi_on = true;
	dev->pd_irq = irq;
	msi_irq_set_writer((unsigned)irq, msi_rewrite, dev, 0);
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
