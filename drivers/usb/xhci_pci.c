/*
 * xHCI on PCI: match class 0c:03 prog-if 30 (xHCI 1.2, 5.2.1), map the
 * MMIO BAR (BAR0, 64-bit on every controller), enable memory decoding and
 * bus mastering, take MSI-X (entry 0 for interrupter 0), else MSI, else the
 * shared INTx line, install the handler, and hand over to the core
 * (xhci_attach), which takes the controller from the firmware, resets it
 * and enumerates its ports.  On failure every step is undone in reverse
 * and the function is left unbound.
 */
#include "drivers/usb/xhci.h"
#include "drivers/pci/pci.h"
#include "drivers/pci/pcireg.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/mm/slab.h"
#include "kernel/mm/vmap.h"
#include "kernel/param.h"
#include "kernel/printk.h"
#include "lib/string.h"

#define PCI_CLASS_SERIAL	0x0c
#define PCI_SUBCLASS_SERIAL_USB	0x03
#define PCI_USB_PROGIF_XHCI	0x30
#define XHCI_PCI_BAR		0
#define XHCI_MMIO_MAX		(64 * 1024)	/* capability, operational, runtime, doorbells */

static const struct pci_device_id xhci_pci_ids[] = {
	{ PCI_DEVICE_CLASS(PCI_CLASS_SERIAL, PCI_SUBCLASS_SERIAL_USB, PCI_USB_PROGIF_XHCI) },
	{ 0 }
};

static unsigned xhci_pci_units;
static bool xhci_param_msi = true;
PARAM_BOOL("xhci.msi", xhci_param_msi, "use MSI-X or MSI when the controller offers it (0: INTx)");

/*
 * Interrupter 0's vector: MSI-X entry 0 (xHCI 1.2, 5.2.8), else MSI,
 * else the shared INTx line.  The IRQ or -errno.
 */
static int xhci_pci_irq(struct pci_dev *dev)
{
	int irq;

	if (xhci_param_msi && dev->pd_msix_cap && pci_enable_msix(dev, &irq, 1) == 1)
		return irq;
	if (xhci_param_msi && dev->pd_msi_cap) {
		irq = pci_enable_msi(dev);
		if (irq >= 0)
			return irq;
	}
	return pci_intx_irq(dev);
}

/* Undo xhci_pci_irq. */
static void xhci_pci_irq_off(struct pci_dev *dev)
{
	if (dev->pd_msix_nvec)
		pci_disable_msix(dev);
	else if (dev->pd_msi_on)
		pci_disable_msi(dev);
}

static int xhci_pci_probe(struct pci_dev *dev, const struct pci_device_id *id)
{
	const struct pci_bar *bar = &dev->pd_bar[XHCI_PCI_BAR];
	struct xhci_softc *sc;
	u16 command = pci_read16(dev, PCI_COMMAND);
	int irq, ret;

	if (bar->pb_type != PCI_BAR_MEM32 && bar->pb_type != PCI_BAR_MEM64) {
		pr_err("xhci %02x:%02x.%u: BAR0 is not a memory BAR\n", PCI_BDF_BUS(dev->pd_bdf),
		       PCI_BDF_DEV(dev->pd_bdf), PCI_BDF_FN(dev->pd_bdf));
		return -ENXIO;
	}
	sc = kzalloc(sizeof(*sc), GFP_KERNEL);
	if (!sc)
		return -ENOMEM;
	sc->sc_unit = xhci_pci_units;
	snprintf(sc->sc_name, sizeof(sc->sc_name), "xhci%u", sc->sc_unit);
	sc->sc_pci = dev;
	sc->sc_cap = ioremap(bar->pb_base, (size_t)(bar->pb_size < XHCI_MMIO_MAX ?
						     bar->pb_size : XHCI_MMIO_MAX));
	if (!sc->sc_cap) {
		ret = -ENOMEM;
		goto free_sc;
	}
	pci_set_command(dev, PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER, 0);
	irq = xhci_pci_irq(dev);
	if (irq < 0) {
		pr_err("%s: no interrupt (%s)\n", sc->sc_name, errstr(irq));
		ret = irq;
		goto unmap;
	}
	if (!dev->pd_msi_on && !dev->pd_msix_nvec)
		pci_set_command(dev, 0, PCI_COMMAND_INTX_DISABLE);
	sc->sc_irq = irq;
	ret = request_irq((unsigned)irq, xhci_intr, sc, sc->sc_name);
	if (ret) {
		pr_err("%s: cannot get IRQ %d (%s)\n", sc->sc_name, irq, errstr(ret));
		goto no_msi;
	}
	dev->pd_irq = irq;
	dev->pd_drvdata = sc;
	xhci_pci_units++;
	ret = xhci_attach(sc);
	if (ret)
		goto free_irq;		/* error already printed */
	return 0;
free_irq:
	xhci_pci_units--;
	dev->pd_drvdata = NULL;
	free_irq((unsigned)irq, sc);
no_msi:
	xhci_pci_irq_off(dev);
unmap:
	pci_write16(dev, PCI_COMMAND, command);
	iounmap((void *)sc->sc_cap);
free_sc:
	kfree(sc);
	return ret;
}

static const struct pci_driver xhci_pci_driver = {
	.name = "xhci",
	.id_table = xhci_pci_ids,
	.probe = xhci_pci_probe,
};

static int xhci_pci_init(void)
{
	return pci_register_driver(&xhci_pci_driver);
}
device_initcall(xhci_pci_init);
