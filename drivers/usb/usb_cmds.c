/*
 * The lsusb shell command: every USB device on every bus, one line each
 * (bus, port path, speed, vendor:product, class, bound drivers, product
 * string); `lsusb -t` draws the same devices as a tree under each bus's
 * root ports, indented two spaces per hub tier:
 *
 *	Bus 1 Port 1.2: ID 0627:0001 full class 03 (hid) driver usbkbd "QEMU USB Keyboard"
 *
 *	Bus 1: xhci0
 *	  Port 1: 0409:55aa full hub (hub)
 *	    Port 2: 0627:0001 full hid (usbkbd)
 *
 * The class is the device's, or its first interface's when the device
 * defers to its interfaces (class 0).
 */
#include "drivers/usb/usb_hcd.h"
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/shell.h"
#include "lib/string.h"

static u8 lsusb_class(const struct usb_device *dev)
{
	if (dev->ud_desc.bDeviceClass || !dev->ud_nintf)
		return dev->ud_desc.bDeviceClass;
	return dev->ud_intf[0].intf_class;
}

static const char *lsusb_class_name(u8 c)
{
	switch (c) {
	case USB_CLASS_HID:
		return "hid";
	case USB_CLASS_MASS_STORAGE:
		return "storage";
	case USB_CLASS_HUB:
		return "hub";
	case USB_CLASS_VENDOR_SPEC:
		return "vendor";
	default:
		return "other";
	}
}

/* The drivers bound to dev's interfaces, comma-separated, or "-". */
static void lsusb_drivers(const struct usb_device *dev, char *buf, size_t size)
{
	size_t n = 0;
	unsigned i;

	buf[0] = 0;
	for (i = 0; i < dev->ud_nintf && n + 1 < size; i++) {
		const struct usb_driver *drv = dev->ud_intf[i].intf_driver;

		if (drv)
			n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? "," : "", drv->name);
	}
	if (!buf[0])
		snprintf(buf, size, "-");
}

static void lsusb_line(const struct usb_device *dev)
{
	char drv[64];
	u8 c = lsusb_class(dev);

	lsusb_drivers(dev, drv, sizeof(drv));
	kprintf("Bus %u Port %s: ID %04x:%04x %s class %02x (%s) driver %s \"%s\"\n",
		dev->ud_busnum, dev->ud_path, le16_to_cpu(dev->ud_desc.idVendor),
		le16_to_cpu(dev->ud_desc.idProduct), usb_speed_name(dev->ud_speed), c,
		lsusb_class_name(c), drv, dev->ud_product);
}

static void lsusb_tree(const struct usb_device *dev, unsigned depth)
{
	char drv[64];
	unsigned i;

	lsusb_drivers(dev, drv, sizeof(drv));
	kprintf("%*sPort %u: %04x:%04x %s %s (%s)\n", (int)(2 * depth + 2), "", dev->ud_port,
		le16_to_cpu(dev->ud_desc.idVendor), le16_to_cpu(dev->ud_desc.idProduct),
		usb_speed_name(dev->ud_speed), lsusb_class_name(lsusb_class(dev)), drv);
	for (i = 0; i < USB_MAX_HUB_PORTS; i++)
		if (dev->ud_child[i])
			lsusb_tree(dev->ud_child[i], depth + 1);
}

static int cmd_lsusb(int argc, char **argv)
{
	bool tree = false;
	struct usb_bus *bus;
	struct usb_device *dev;
	unsigned p;

	if (argc == 2 && strcmp(argv[1], "-t") == 0) {
		tree = true;
	} else if (argc != 1) {
		return -EINVAL;
	}
	/* The shell runs between hot-plug work items, so the tree is stable here. */
	for (bus = usb_bus_first(); bus; bus = usb_bus_next(bus)) {
		if (!tree) {
			list_for_each_entry(dev, &bus->ub_devices, ud_link)
				lsusb_line(dev);
			continue;
		}
		kprintf("Bus %u: %s\n", bus->ub_num, bus->ub_name);
		for (p = 0; p < bus->ub_nports; p++)
			if (bus->ub_root[p])
				lsusb_tree(bus->ub_root[p], 0);
	}
	return 0;
}
SHELL_COMMAND("lsusb", cmd_lsusb, "lsusb [-t]",
	      "list USB devices: bus, port path, speed, ID, class, driver (-t: as a tree)");
