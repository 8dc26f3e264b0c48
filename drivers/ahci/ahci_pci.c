/*
 * AHCI on PCI: match any function of class 01:06 prog-if 01 (AHCI 1.3.1
 * section 2.1), map ABAR (BAR5) with ioremap wherever firmware put it,
 * enable memory decoding, pick MSI when the function offers it and INTx
 * (a shared, level-triggered line) otherwise, and hand over to the
 * bus-independent core (ahci.c): ahci_init takes the HBA from the
 * firmware and resets it; only then are the chipset quirks of the table
 * below applied and bus mastering enabled (AHCI 1.3.1 10.4.3); ahci_attach
 * finds the disks, the interrupt handler goes in, and ahci_start.  If
 * the HBA cannot be brought up, or its interrupt not installed, the steps
 * are undone in reverse (ports stopped and freed by ahci_detach, bus
 * mastering back as the firmware had it, MSI off, ABAR unmapped) and the
 * function is left unbound.
 */
#include "drivers/ahci/ahci_priv.h"
#include "drivers/pci/pci.h"
#include "drivers/pci/pcireg.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/mm/slab.h"
#include "kernel/mm/vmap.h"
#include "kernel/param.h"
#include "kernel/printk.h"

#define PCI_VENDOR_INTEL	0x8086
#define PCI_VENDOR_ATI		0x1002
#define PCI_VENDOR_VIA		0x1106

/*
 * Known chipset needs, matched before the class entry;
 * the non-Intel ones are Linux's (ahci.c board_ahci_sb600, _vt8251).
 */
static const struct pci_device_id ahci_pci_ids[] = {
	{ PCI_DEVICE(PCI_VENDOR_INTEL, 0x2681), .pid_data = AHCI_Q_INTEL_PCS },	/* ESB2 */
	{ PCI_DEVICE(PCI_VENDOR_INTEL, 0x27c1), .pid_data = AHCI_Q_INTEL_PCS },	/* ICH7 */
	{ PCI_DEVICE(PCI_VENDOR_INTEL, 0x27c5), .pid_data = AHCI_Q_INTEL_PCS },	/* ICH7-M */
	{ PCI_DEVICE(PCI_VENDOR_INTEL, 0x2821), .pid_data = AHCI_Q_INTEL_PCS },	/* ICH8 */
	{ PCI_DEVICE(PCI_VENDOR_INTEL, 0x2829), .pid_data = AHCI_Q_INTEL_PCS },	/* ICH8-M */
	{ PCI_DEVICE(PCI_VENDOR_INTEL, 0x2922), .pid_data = AHCI_Q_INTEL_PCS },	/* ICH9, QEMU q35 */
	{ PCI_DEVICE(PCI_VENDOR_INTEL, 0x3a22), .pid_data = AHCI_Q_INTEL_PCS },	/* ICH10 */
	{ PCI_DEVICE(PCI_VENDOR_ATI, 0x4380),				/* SB600 */
	  .pid_data = AHCI_Q_NO64 | AHCI_Q_NOMSI | AHCI_Q_SECT255 },
	{ PCI_DEVICE(PCI_VENDOR_VIA, 0x3349), .pid_data = AHCI_Q_NONCQ },	/* VT8251 */
	{ PCI_DEVICE(PCI_VENDOR_VIA, 0x6287), .pid_data = AHCI_Q_NONCQ },	/* VT8251 */
	{ PCI_DEVICE_CLASS(PCI_CLASS_STORAGE, PCI_SUBCLASS_STORAGE_SATA, PCI_SATA_PROGIF_AHCI) },
	{ 0 }
};

static unsigned ahci_pci_units;

static bool ahci_param_msi = true;
PARAM_BOOL("ahci.msi", ahci_param_msi, "use MSI when the HBA offers it (0: the shared INTx line)");

/*
 * Intel ICH/PCH: a port is only usable when its enable bit in PCS (PCI
 * config 0x92, bits 5:0) is set; firmware may leave them clear in AHCI
 * mode.  Set one per implemented port.
 */
static void ahci_pci_intel_pcs(struct pci_dev *dev, u32 pi)
{
	u16 pcs = pci_read16(dev, AHCI_PCI_INTEL_PCS);

	if ((pcs & AHCI_PCI_INTEL_PCS_PE_MASK) != (pi & AHCI_PCI_INTEL_PCS_PE_MASK))
		pci_write16(dev, AHCI_PCI_INTEL_PCS,
			    (u16)(pcs | (pi & AHCI_PCI_INTEL_PCS_PE_MASK)));
}

/* MSI when the function offers it and it works, else INTx.  The IRQ or -errno. */
static int ahci_pci_irq(struct pci_dev *dev, u32 quirks)
{
	int irq;

	if (dev->pd_msi_cap && ahci_param_msi && !(quirks & AHCI_Q_NOMSI)) {
		irq = pci_enable_msi(dev);
		if (irq >= 0)
			return irq;
	}
	return pci_intx_irq(dev);
}

static int ahci_pci_probe(struct pci_dev *dev, const struct pci_device_id *id)
{
	const struct pci_bar *bar = &dev->pd_bar[AHCI_PCI_ABAR];
	struct ahci_softc *sc;
	u16 command;		/* as the firmware left it */
	u64 size;
	int irq, ret;

	if (bar->pb_type != PCI_BAR_MEM32 && bar->pb_type != PCI_BAR_MEM64) {
		pr_err("ahci %02x:%02x.%u: BAR5 is not a memory BAR\n", PCI_BDF_BUS(dev->pd_bdf),
		       PCI_BDF_DEV(dev->pd_bdf), PCI_BDF_FN(dev->pd_bdf));
		return -ENXIO;
	}
	sc = kzalloc(sizeof(*sc), GFP_KERNEL);
	if (!sc)
		return -ENOMEM;
	command = pci_read16(dev, PCI_COMMAND);
	sc->sc_unit = ahci_pci_units;
	sc->sc_quirks = (u32)id->pid_data;
	size = bar->pb_size < AHCI_ABAR_MIN_SIZE(AHCI_MAX_PORTS) ?
	       bar->pb_size : AHCI_ABAR_MIN_SIZE(AHCI_MAX_PORTS);
	sc->sc_regs = ioremap(bar->pb_base, (size_t)size);
	if (!sc->sc_regs) {
		ret = -ENOMEM;
		goto free_sc;
	}
	/* Memory decoding now; bus mastering only once the core owns the HBA. */
	pci_set_command(dev, PCI_COMMAND_MEMORY, 0);

	irq = ahci_pci_irq(dev, sc->sc_quirks);
	if (irq < 0) {
		pr_err("ahci%u: no interrupt (%d)\n", sc->sc_unit, irq);
		ret = irq;
		goto unmap;
	}
	ret = ahci_init(sc);
	if (ret)
		goto no_msi;			/* error already printed */
	/* After the reset, as Linux does, with PI as read under GHC.AE (10.1.2). */
	if (sc->sc_quirks & AHCI_Q_INTEL_PCS)
		ahci_pci_intel_pcs(dev, sc->sc_pi);
	pci_set_command(dev, PCI_COMMAND_MASTER, 0);
	ahci_attach(sc);
	if (!dev->pd_msi_on)
		pci_set_command(dev, 0, PCI_COMMAND_INTX_DISABLE);
	ret = request_irq((unsigned)irq, ahci_intr, sc, sc->sc_name);
	if (ret) {
		pr_err("%s: cannot get IRQ %d (%s)\n", sc->sc_name, irq, errstr(ret));
		goto detach;
	}
	sc->sc_irq = irq;
	dev->pd_irq = irq;
	dev->pd_drvdata = sc;
	ahci_pci_units++;
	return ahci_start(sc);

detach:
	ahci_detach(sc);
	if (!(command & PCI_COMMAND_MASTER))
		pci_set_command(dev, 0, PCI_COMMAND_MASTER);
no_msi:
	if (dev->pd_msi_on)
		pci_disable_msi(dev);
unmap:
	iounmap((void *)sc->sc_regs);
free_sc:
	kfree(sc);
	return ret;
}

static const struct pci_driver ahci_pci_driver = {
	.name = "ahci",
	.id_table = ahci_pci_ids,
	.probe = ahci_pci_probe,
};

static int ahci_pci_init(void)
{
	return pci_register_driver(&ahci_pci_driver);
}
device_initcall(ahci_pci_init);
