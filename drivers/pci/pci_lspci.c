/*
 * The lspci shell command: every function of the system's PCI host, one
 * line each (format in pci_class.c), followed by one line per BAR.
 */
#include "drivers/pci/pci.h"
#include "kernel/errno.h"
#include "kernel/console.h"
#include "kernel/shell.h"

static int cmd_lspci(int argc, char **argv)
{
	struct pci_dev *dev;
	char line[160];
	unsigned i;

	if (argc != 1)
		return -EINVAL;
	/* Functions are only added at boot, so the list is stable here. */
	list_for_each_entry(dev, &pci_sys.ph_devices, pd_link) {
		pci_format_dev(dev, line, sizeof(line));
		kprintf("%s\n", line);
		for (i = 0; i < ARRAY_SIZE(dev->pd_bar); i++)
			if (pci_format_bar(&dev->pd_bar[i], i, line, sizeof(line)))
				kprintf("%s\n", line);
	}
	return 0;
}
SHELL_COMMAND("lspci", cmd_lspci, "lspci",
	      "list PCI functions: address, IDs, class, IRQ, driver, BARs");
