/*
 * PCI class names and the text form of a function, for lspci and logs.
 * Portable (host-tested).
 *
 * Names follow the PCI Code and ID Assignment Specification; the table is
 * searched for the most specific entry: class+subclass+prog-if, then
 * class+subclass, then the class alone.
 *
 * Line format (stable: tests and people read it):
 *
 *	00:1f.2 8086:2922 0106.01 SATA controller (AHCI)  irq 16 msi  ahci
 *	        BAR5 mem32 0x00000000febf1000 size 0x1000
 *
 * bus:dev.fn, vendor:device, class subclass.prog-if, class name, the IRQ
 * in use (else the firmware's Interrupt Line, "-" without a pin), "msi"
 * when MSI is on, and the bound driver ("-" when none).
 */
#include "drivers/pci/pci.h"
#include "drivers/pci/pcireg.h"
#include "lib/string.h"

#define ANY	0x100	/* wildcard in the table below; real codes are 8-bit */

struct pci_class_name {
	u16		cn_class;
	u16		cn_subclass;
	u16		cn_progif;
	const char	*cn_name;
};

static const struct pci_class_name class_names[] = {
	{ PCI_CLASS_OLD, 0x01, ANY, "VGA-compatible device" },
	{ PCI_CLASS_OLD, ANY, ANY, "unclassified device" },
	{ PCI_CLASS_STORAGE, PCI_SUBCLASS_STORAGE_SCSI, ANY, "SCSI controller" },
	{ PCI_CLASS_STORAGE, PCI_SUBCLASS_STORAGE_IDE, ANY, "IDE controller" },
	{ PCI_CLASS_STORAGE, 0x02, ANY, "floppy controller" },
	{ PCI_CLASS_STORAGE, 0x04, ANY, "RAID controller" },
	{ PCI_CLASS_STORAGE, PCI_SUBCLASS_STORAGE_ATA, ANY, "ATA controller" },
	{ PCI_CLASS_STORAGE, PCI_SUBCLASS_STORAGE_SATA, PCI_SATA_PROGIF_AHCI,
	  "SATA controller (AHCI)" },
	{ PCI_CLASS_STORAGE, PCI_SUBCLASS_STORAGE_SATA, ANY, "SATA controller" },
	{ PCI_CLASS_STORAGE, 0x07, ANY, "SAS controller" },
	{ PCI_CLASS_STORAGE, PCI_SUBCLASS_STORAGE_NVM, 0x02, "NVM controller (NVMe)" },
	{ PCI_CLASS_STORAGE, PCI_SUBCLASS_STORAGE_NVM, ANY, "NVM controller" },
	{ PCI_CLASS_STORAGE, ANY, ANY, "storage controller" },
	{ PCI_CLASS_NETWORK, 0x00, ANY, "Ethernet controller" },
	{ PCI_CLASS_NETWORK, ANY, ANY, "network controller" },
	{ PCI_CLASS_DISPLAY, 0x00, ANY, "VGA controller" },
	{ PCI_CLASS_DISPLAY, ANY, ANY, "display controller" },
	{ PCI_CLASS_MULTIMEDIA, 0x03, ANY, "audio device" },
	{ PCI_CLASS_MULTIMEDIA, ANY, ANY, "multimedia controller" },
	{ PCI_CLASS_MEMORY, ANY, ANY, "memory controller" },
	{ PCI_CLASS_BRIDGE, PCI_SUBCLASS_BRIDGE_HOST, ANY, "host bridge" },
	{ PCI_CLASS_BRIDGE, PCI_SUBCLASS_BRIDGE_ISA, ANY, "ISA bridge" },
	{ PCI_CLASS_BRIDGE, PCI_SUBCLASS_BRIDGE_PCI, ANY, "PCI bridge" },
	{ PCI_CLASS_BRIDGE, ANY, ANY, "bridge" },
	{ PCI_CLASS_COMMUNICATION, 0x00, ANY, "serial controller" },
	{ PCI_CLASS_COMMUNICATION, ANY, ANY, "communication controller" },
	{ PCI_CLASS_SYSTEM, 0x00, ANY, "interrupt controller" },
	{ PCI_CLASS_SYSTEM, ANY, ANY, "system peripheral" },
	{ PCI_CLASS_INPUT, ANY, ANY, "input device controller" },
	{ PCI_CLASS_DOCKING, ANY, ANY, "docking station" },
	{ PCI_CLASS_PROCESSOR, ANY, ANY, "processor" },
	{ PCI_CLASS_SERIAL, 0x03, 0x00, "USB controller (UHCI)" },
	{ PCI_CLASS_SERIAL, 0x03, 0x10, "USB controller (OHCI)" },
	{ PCI_CLASS_SERIAL, 0x03, 0x20, "USB controller (EHCI)" },
	{ PCI_CLASS_SERIAL, 0x03, 0x30, "USB controller (xHCI)" },
	{ PCI_CLASS_SERIAL, 0x03, ANY, "USB controller" },
	{ PCI_CLASS_SERIAL, 0x05, ANY, "SMBus" },
	{ PCI_CLASS_SERIAL, ANY, ANY, "serial bus controller" },
	{ PCI_CLASS_WIRELESS, ANY, ANY, "wireless controller" },
	{ PCI_CLASS_INTELLIGENT, ANY, ANY, "intelligent controller" },
	{ PCI_CLASS_SATELLITE, ANY, ANY, "satellite controller" },
	{ PCI_CLASS_CRYPT, ANY, ANY, "encryption controller" },
	{ PCI_CLASS_SIGNAL, ANY, ANY, "signal processing controller" },
	{ PCI_CLASS_ACCELERATOR, ANY, ANY, "processing accelerator" },
};

static bool field_matches(u16 want, u8 have)
{
	return want == ANY || want == have;
}

/* The most specific name for a class code; never NULL. */
const char *pci_class_name(u8 cls, u8 subclass, u8 progif)
{
	const struct pci_class_name *best = NULL;
	int best_score = -1;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(class_names); i++) {
		const struct pci_class_name *c = &class_names[i];
		int score;

		if (c->cn_class != cls || !field_matches(c->cn_subclass, subclass) ||
		    !field_matches(c->cn_progif, progif))
			continue;
		score = (c->cn_subclass != ANY) * 2 + (c->cn_progif != ANY);
		if (score > best_score) {
			best = c;
			best_score = score;
		}
	}
	return best ? best->cn_name : "unknown class";
}

/* One lspci line for dev, without a newline; returns snprintf's count. */
int pci_format_dev(const struct pci_dev *dev, char *buf, size_t size)
{
	char irq[12];

	if (dev->pd_irq >= 0)
		snprintf(irq, sizeof(irq), "%d", dev->pd_irq);
	else if (dev->pd_irq_pin && dev->pd_irq_line != PCI_INTERRUPT_LINE_NONE)
		snprintf(irq, sizeof(irq), "%u", dev->pd_irq_line);
	else
		str_copy(irq, "-", sizeof(irq));
	return snprintf(buf, size, "%02x:%02x.%u %04x:%04x %02x%02x.%02x %-24s irq %s%s  %s",
			PCI_BDF_BUS(dev->pd_bdf), PCI_BDF_DEV(dev->pd_bdf),
			PCI_BDF_FN(dev->pd_bdf), dev->pd_vendor, dev->pd_device,
			dev->pd_class, dev->pd_subclass, dev->pd_progif,
			pci_class_name(dev->pd_class, dev->pd_subclass, dev->pd_progif),
			irq, dev->pd_msi_on ? " msi" : "",
			dev->pd_driver ? dev->pd_driver->name : "-");
}

/* One BAR line (indented), or "" with 0 for an unused slot. */
int pci_format_bar(const struct pci_bar *bar, unsigned idx, char *buf, size_t size)
{
	static const char *const type_names[] = {
		[PCI_BAR_NONE] = "none", [PCI_BAR_IO] = "io",
		[PCI_BAR_MEM32] = "mem32", [PCI_BAR_MEM64] = "mem64",
	};

	if (bar->pb_type == PCI_BAR_NONE || bar->pb_type >= ARRAY_SIZE(type_names)) {
		if (size)
			buf[0] = '\0';
		return 0;
	}
	return snprintf(buf, size, "        BAR%u %-5s 0x%016llx size 0x%llx%s", idx,
			type_names[bar->pb_type], (unsigned long long)bar->pb_base,
			(unsigned long long)bar->pb_size, bar->pb_prefetch ? " prefetch" : "");
}
