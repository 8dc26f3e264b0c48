/*
 * In-kernel self-tests of PCI on the machine it runs on (selftest=pci/...):
 * the mechanism #1 scan agrees with a direct read of configuration space,
 * every decoded BAR is a sane size and is back where firmware put it, and
 * MSI capabilities found by the walk really are MSI capabilities, and a
 * memory BAR maps.
 */
#include "drivers/pci/pci.h"
#include "drivers/pci/pcireg.h"
#include "drivers/ahci/ahcireg.h"
#include "kernel/io.h"
#include "kernel/selftest.h"
#include "kernel/mm/vmap.h"

/* Bus 0 has a host bridge at 00:00.0 on every PC chipset we know. */
static int test_scan(void)
{
	struct pci_dev *dev, *hb = pci_find_bdf(&pci_sys, PCI_BDF(0, 0, 0));
	unsigned n = 0;

	ST_ASSERT(hb != NULL);
	ST_EQ(hb->pd_class, PCI_CLASS_BRIDGE);
	ST_EQ(hb->pd_subclass, PCI_SUBCLASS_BRIDGE_HOST);
	list_for_each_entry(dev, &pci_sys.ph_devices, pd_link) {
		ST_EQ(pci_read16(dev, PCI_VENDOR_ID), dev->pd_vendor);
		ST_EQ(pci_read16(dev, PCI_DEVICE_ID), dev->pd_device);
		ST_EQ(pci_read8(dev, PCI_CLASS_CODE), dev->pd_class);
		n++;
	}
	ST_EQ(n, pci_sys.ph_ndevs);
	return 0;
}
SELFTEST("pci/scan", test_scan);

/* BARs: power-of-two sizes, bases aligned to them, registers as firmware left them. */
static int test_bars(void)
{
	struct pci_dev *dev;
	unsigned i;

	list_for_each_entry(dev, &pci_sys.ph_devices, pd_link) {
		for (i = 0; i < ARRAY_SIZE(dev->pd_bar); i++) {
			const struct pci_bar *b = &dev->pd_bar[i];
			u32 reg;

			if (b->pb_type == PCI_BAR_NONE)
				continue;
			ST_ASSERT(is_power_of_2(b->pb_size));
			ST_EQ(b->pb_base & (b->pb_size - 1), 0);
			reg = pci_read32(dev, PCI_BAR0 + 4 * i);
			if (b->pb_type == PCI_BAR_IO)
				ST_EQ(reg & PCI_BAR_IO_MASK, (u32)b->pb_base);
			else
				ST_EQ(reg & PCI_BAR_MEM_MASK, (u32)b->pb_base);
			if (b->pb_type == PCI_BAR_MEM64)
				ST_EQ(pci_read32(dev, PCI_BAR0 + 4 * i + 4), (u32)(b->pb_base >> 32));
		}
	}
	return 0;
}
SELFTEST("pci/bars", test_bars);

static int test_msi_caps(void)
{
	struct pci_dev *dev;

	list_for_each_entry(dev, &pci_sys.ph_devices, pd_link) {
		if (!dev->pd_msi_cap)
			continue;
		ST_ASSERT(dev->pd_msi_cap >= PCI_STD_HEADER_END);
		ST_EQ(pci_read8(dev, dev->pd_msi_cap + PCI_CAP_LIST_ID), PCI_CAP_ID_MSI);
	}
	return 0;
}
SELFTEST("pci/msi_caps", test_msi_caps);

/*
 * pci_map_bar on a live device: an AHCI function's ABAR (BAR5) maps and
 * its Version register reads as AHCI 1.x (AHCI 1.3.1 3.1.5).  Reading VS
 * has no side effects.  Machines without AHCI pass trivially.
 */
static int test_map_bar(void)
{
	struct pci_dev *dev;

	list_for_each_entry(dev, &pci_sys.ph_devices, pd_link) {
		volatile u8 *abar;
		u32 vs;

		if (dev->pd_class != PCI_CLASS_STORAGE ||
		    dev->pd_subclass != PCI_SUBCLASS_STORAGE_SATA ||
		    dev->pd_progif != PCI_SATA_PROGIF_AHCI)
			continue;
		ST_ASSERT(pci_map_bar(dev, 4) == NULL);		/* an I/O BAR on ICH9 */
		abar = pci_map_bar(dev, AHCI_PCI_ABAR);
		ST_ASSERT(abar != NULL);
		pci_set_command(dev, PCI_COMMAND_MEMORY, 0);
		vs = readl(abar + AHCI_REG_VS);
		iounmap((void *)abar);
		if ((vs >> 16) != 1)
			return st_fail("%02x:%02x.%u: AHCI VS reads %#x", PCI_BDF_BUS(dev->pd_bdf),
				       PCI_BDF_DEV(dev->pd_bdf), PCI_BDF_FN(dev->pd_bdf), vs);
	}
	return 0;
}
SELFTEST("pci/map_bar", test_map_bar);
