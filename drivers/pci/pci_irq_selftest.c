/*
 * End-to-end interrupt self-tests through a real (emulated) PCI function:
 * an Intel 8254x/82574 NIC (QEMU e1000, e1000e) can raise an interrupt on
 * demand by writing its Interrupt Cause Set register, which makes it a
 * probe for the routing decided in pci_irq.c:
 *
 *   pci/irq_intx   the INTx pin, through pci_intx_irq(): level-triggered,
 *                  shared, via the 8259 or the I/O APIC input of the ISA
 *                  IRQ the firmware routed it to
 *   pci/irq_msi    an MSI, through pci_enable_msi() (e1000e only)
 *
 * Machines without such a NIC pass trivially; tests/qemu/hw.sh adds them.
 * Register offsets: Intel 8254x Family SDM, 13.4.17-13.4.21.
 */
#include "drivers/pci/pci.h"
#include "drivers/pci/pcireg.h"
#include "kernel/apic.h"
#include "kernel/completion.h"
#include "kernel/errno.h"
#include "kernel/io.h"
#include "kernel/irq.h"
#include "kernel/selftest.h"
#include "kernel/mm/vmap.h"

#define E1000_ICR	0x00c0	/* Interrupt Cause Read: reading clears */
#define E1000_ICS	0x00c8	/* Interrupt Cause Set */
#define E1000_IMS	0x00d0	/* Interrupt Mask Set */
#define E1000_IMC	0x00d8	/* Interrupt Mask Clear */
#define   E1000_INT_TXDW	0x00000001	/* the cause we fake */
#define E1000_WAIT_MS	500

struct nic_probe {
	struct pci_dev		*np_dev;
	volatile u8		*np_regs;
	struct completion	np_done;
	unsigned		np_hits;
};

static irqreturn_t nic_intr(unsigned irq, void *data)
{
	struct nic_probe *np = data;

	if (!(readl(np->np_regs + E1000_ICR) & E1000_INT_TXDW))
		return IRQ_NONE;	/* a shared line: someone else's */
	np->np_hits++;
	complete(&np->np_done);
	return IRQ_HANDLED;
}

/* A NIC we can poke: e1000 (82540EM, INTx only) or e1000e (82574L, MSI too). */
static bool is_probe_nic(const struct pci_dev *dev, bool need_msi)
{
	if (dev->pd_vendor != 0x8086 || dev->pd_driver)
		return false;
	return dev->pd_device == 0x10d3 || (!need_msi && dev->pd_device == 0x100e);
}

/* Raise the cause twice, expect two interrupts; leaves the NIC masked. */
static int fire(struct nic_probe *np, unsigned irq)
{
	int round, err = 0;

	writel(np->np_regs + E1000_IMS, E1000_INT_TXDW);
	for (round = 1; round <= 2 && !err; round++) {
		init_completion(&np->np_done);
		writel(np->np_regs + E1000_ICS, E1000_INT_TXDW);
		if (wait_for_completion_timeout(&np->np_done, E1000_WAIT_MS))
			err = st_fail("%04x:%04x: no interrupt %d on IRQ %u within %u ms",
				      np->np_dev->pd_vendor, np->np_dev->pd_device, round, irq,
				      E1000_WAIT_MS);
	}
	writel(np->np_regs + E1000_IMC, ~0u);
	readl(np->np_regs + E1000_ICR);
	return err;
}

static int run_probe(struct pci_dev *dev, bool msi)
{
	struct nic_probe np = { .np_dev = dev };
	int irq, err;

	np.np_regs = pci_map_bar(dev, 0);
	ST_ASSERT(np.np_regs != NULL);
	pci_set_command(dev, PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER, 0);
	writel(np.np_regs + E1000_IMC, ~0u);
	readl(np.np_regs + E1000_ICR);
	irq = msi ? pci_enable_msi(dev) : pci_intx_irq(dev);
	if (msi && irq == -ENODEV && !lapic_enabled()) {
		err = 0;	/* no local APIC (noapic, no MADT): no MSI, as promised */
		goto unmap;
	}
	if (irq < 0) {
		err = st_fail("no %s IRQ: %d", msi ? "MSI" : "INTx", irq);
		goto unmap;
	}
	err = request_irq((unsigned)irq, nic_intr, &np, "selftest-nic");
	if (err) {
		err = st_fail("request_irq(%d): %d", irq, err);
		goto disable;
	}
	err = fire(&np, (unsigned)irq);
	if (!err && np.np_hits != 2)
		err = st_fail("%u interrupts for 2 causes", np.np_hits);
	free_irq((unsigned)irq, &np);
disable:
	if (msi)
		pci_disable_msi(dev);
	dev->pd_irq = -1;
	pci_set_command(dev, 0, PCI_COMMAND_MASTER);
unmap:
	iounmap((void *)np.np_regs);
	return err;
}

static int probe_all(bool msi)
{
	struct pci_dev *dev;
	int err;

	list_for_each_entry(dev, &pci_sys.ph_devices, pd_link) {
		if (!is_probe_nic(dev, msi))
			continue;
		err = run_probe(dev, msi);
		if (err)
			return err;
	}
	return 0;
}

static int test_intx(void)
{
	return probe_all(false);
}
SELFTEST("pci/irq_intx", test_intx);

static int test_msi(void)
{
	return probe_all(true);
}
SELFTEST("pci/irq_msi", test_msi);
