/*
 * The lspci shell command: every function of the system's PCI host, one
 * line each (format in pci_class.c), followed by one line per BAR.
 *
 * -d [VENDOR]:[DEVICE][:CLASS] keeps the functions that match, as
 * pciutils' lspci does: hexadecimal IDs, an empty field matches anything.
 * CLASS is four digits (base class and subclass, 0106 for AHCI) or, as an
 * extension, two (the base class alone: 01 for every storage controller).
 */
#include "drivers/pci/pci.h"
#include "kernel/errno.h"
#include "kernel/console.h"
#include "kernel/shell.h"
#include "lib/string.h"

struct lspci_filter {
	int	f_vendor;	/* -1: any */
	int	f_device;	/* -1: any */
	int	f_class;	/* -1: any; else (base << 8 | subclass) or base */
	bool	f_base_only;	/* f_class is a base class */
};

/*
 * One hexadecimal field of -d, ending at *end: empty (any) or 1 to
 * 'max_digits' digits.  Returns the value, -1 for any, or -EINVAL.
 */
static int lspci_hex(const char *s, const char *end, unsigned max_digits, unsigned *ndigits)
{
	unsigned v = 0, n = 0;
	int d;

	for (; s < end; s++, n++) {
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if ((*s | 0x20) >= 'a' && (*s | 0x20) <= 'f')
			d = (*s | 0x20) - 'a' + 10;
		else
			return -EINVAL;
		if (n == max_digits)
			return -EINVAL;
		v = v << 4 | (unsigned)d;
	}
	*ndigits = n;
	return n ? (int)v : -1;
}

static int lspci_parse(const char *arg, struct lspci_filter *f)
{
	const char *c1 = strchr(arg, ':'), *c2, *end = arg + strlen(arg);
	unsigned n;

	if (!c1)
		return -EINVAL;
	c2 = strchr(c1 + 1, ':');
	f->f_vendor = lspci_hex(arg, c1, 4, &n);
	f->f_device = lspci_hex(c1 + 1, c2 ? c2 : end, 4, &n);
	f->f_class = c2 ? lspci_hex(c2 + 1, end, 4, &n) : -1;
	if (f->f_vendor == -EINVAL || f->f_device == -EINVAL || f->f_class == -EINVAL)
		return -EINVAL;
	if (f->f_class >= 0 && n != 2 && n != 4)
		return -EINVAL;
	f->f_base_only = f->f_class >= 0 && n == 2;
	return 0;
}

static bool lspci_match(const struct lspci_filter *f, const struct pci_dev *dev)
{
	int class = f->f_base_only ? dev->pd_class : dev->pd_class << 8 | dev->pd_subclass;

	return (f->f_vendor < 0 || f->f_vendor == dev->pd_vendor) &&
	       (f->f_device < 0 || f->f_device == dev->pd_device) &&
	       (f->f_class < 0 || f->f_class == class);
}

static int cmd_lspci(int argc, char **argv)
{
	struct lspci_filter f = { -1, -1, -1, false };
	struct pci_dev *dev;
	char line[160];
	unsigned i;

	if (argc == 3 && strcmp(argv[1], "-d") == 0) {
		if (lspci_parse(argv[2], &f)) {
			kprintf("lspci: bad -d %s: want [VENDOR]:[DEVICE][:CLASS] in hex\n", argv[2]);
			return -EINVAL;
		}
	} else if (argc != 1) {
		return -EINVAL;
	}
	/* Functions are only added at boot, so the list is stable here. */
	list_for_each_entry(dev, &pci_sys.ph_devices, pd_link) {
		if (!lspci_match(&f, dev))
			continue;
		pci_format_dev(dev, line, sizeof(line));
		kprintf("%s\n", line);
		for (i = 0; i < ARRAY_SIZE(dev->pd_bar); i++)
			if (pci_format_bar(&dev->pd_bar[i], i, line, sizeof(line)))
				kprintf("%s\n", line);
	}
	return 0;
}
SHELL_COMMAND("lspci", cmd_lspci, "lspci [-d [VENDOR]:[DEVICE][:CLASS]]",
	      "list PCI functions (-d: only those with these hex IDs; CLASS 01: storage)");
