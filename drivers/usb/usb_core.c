/*
 * USB core: buses, the device tree, enumeration, driver binding and hot
 * plug (USB 2.0, 9.1 device states; 9.4 standard requests).
 *
 * Enumeration of a device on a port that was reset and enabled (root
 * ports by the host controller, hub ports by usb_hub.c): a struct
 * usb_device with its path, route string (xHCI 1.2, 8.9) and TT hub set,
 * a slot and address from the controller, the first 8 bytes of the
 * device descriptor (ep0's max packet size), the whole descriptor, the
 * first configuration (header, then wTotalLength bytes, capped), parsed
 * by usb_desc.c; SET_CONFIGURATION; the endpoints configured at the
 * controller; then each interface offered to the registered drivers.
 *
 * Hot plug runs in the bus's deferred work (never in interrupt context):
 * root port events from the controller, and hub status changes (usb_hub.c
 * asks for the work from its interrupt URB).  Unplug: the device and all
 * below it are marked gone, their URBs fail with -ENODEV (the controller's
 * dev_free), then their drivers' disconnect runs, children first.
 *
 * Lock legend: [u] usb_lock (irqsave): the bus list, the driver table,
 * reference counts; a bus's device list and ports are [b] ub_lock.
 */
#include "drivers/usb/usb_hcd.h"
#include "drivers/usb/usb_desc.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/mm/slab.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "lib/string.h"

#define USB_MAX_DRIVERS		8
#define USB_CONFIG_MAX		4096	/* bytes of configuration descriptors read */
#define USB_ENUM_TRIES		3	/* first descriptor read, tries */
#define USB_POLL_HUBS		32	/* hubs one bus work pass visits */

static DEFINE_SPINLOCK(usb_lock);
static LIST_HEAD(usb_buses);					/* [u] */
static const struct usb_driver *usb_drivers[USB_MAX_DRIVERS];	/* [u] */
static unsigned usb_ndrivers;					/* [u] */
static unsigned usb_nbuses;					/* [u] */

struct usb_bus *usb_bus_first(void)
{
	return list_empty(&usb_buses) ? NULL : list_first_entry(&usb_buses, struct usb_bus, ub_link);
}

struct usb_bus *usb_bus_next(struct usb_bus *bus)
{
	return bus->ub_link.next == &usb_buses ? NULL :
	       list_entry(bus->ub_link.next, struct usb_bus, ub_link);
}

struct usb_device *usb_get_dev(struct usb_device *dev)
{
	unsigned long flags;

	spin_lock_irqsave(&usb_lock, flags);
	dev->ud_refs++;
	spin_unlock_irqrestore(&usb_lock, flags);
	return dev;
}

void usb_put_dev(struct usb_device *dev)
{
	unsigned long flags;
	bool last;

	spin_lock_irqsave(&usb_lock, flags);
	KASSERT(dev->ud_refs > 0);
	last = --dev->ud_refs == 0;
	spin_unlock_irqrestore(&usb_lock, flags);
	if (last)
		kfree(dev);
}

static bool usb_match_one(const struct usb_device_id *id, const struct usb_interface *intf)
{
	const struct usb_device *dev = intf->intf_dev;

	if ((id->match_flags & USB_MATCH_VENDOR) && id->idVendor != le16_to_cpu(dev->ud_desc.idVendor))
		return false;
	if ((id->match_flags & USB_MATCH_PRODUCT) &&
	    id->idProduct != le16_to_cpu(dev->ud_desc.idProduct))
		return false;
	if ((id->match_flags & USB_MATCH_INT_CLASS) && id->bInterfaceClass != intf->intf_class)
		return false;
	if ((id->match_flags & USB_MATCH_INT_SUBCLASS) &&
	    id->bInterfaceSubClass != intf->intf_subclass)
		return false;
	if ((id->match_flags & USB_MATCH_INT_PROTOCOL) &&
	    id->bInterfaceProtocol != intf->intf_protocol)
		return false;
	return true;
}

/* Offer intf to drv; true when drv bound it. */
static bool usb_try_driver(const struct usb_driver *drv, struct usb_interface *intf)
{
	const struct usb_device_id *id;
	int ret;

	for (id = drv->id_table; id && id->match_flags; id++) {
		if (!usb_match_one(id, intf))
			continue;
		intf->intf_driver = drv;
		ret = drv->probe(intf, id);
		if (ret == 0)
			return true;
		intf->intf_driver = NULL;
		if (ret != -ENODEV)
			pr_err("usb %u-%s: %s: probe failed (%s)\n", intf->intf_dev->ud_bus->ub_num,
			       intf->intf_dev->ud_path, drv->name, errstr(ret));
		return false;
	}
	return false;
}

static void usb_bind_device(struct usb_device *dev)
{
	unsigned i, d;

	for (i = 0; i < dev->ud_nintf && !usb_device_gone(dev); i++) {
		struct usb_interface *intf = &dev->ud_intf[i];

		for (d = 0; d < usb_ndrivers && !intf->intf_driver; d++)
			usb_try_driver(usb_drivers[d], intf);
	}
}

int usb_register_driver(const struct usb_driver *drv)
{
	struct usb_bus *bus;
	struct usb_device *dev;
	unsigned long flags;
	unsigned i;

	KASSERT(drv->probe && drv->disconnect);
	spin_lock_irqsave(&usb_lock, flags);
	if (usb_ndrivers == USB_MAX_DRIVERS) {
		spin_unlock_irqrestore(&usb_lock, flags);
		return -ENOSPC;
	}
	usb_drivers[usb_ndrivers++] = drv;
	spin_unlock_irqrestore(&usb_lock, flags);
	for (bus = usb_bus_first(); bus; bus = usb_bus_next(bus))
		list_for_each_entry(dev, &bus->ub_devices, ud_link)
			for (i = 0; i < dev->ud_nintf && !usb_device_gone(dev); i++)
				if (!dev->ud_intf[i].intf_driver)
					usb_try_driver(drv, &dev->ud_intf[i]);
	return 0;
}

/* Route string, root port and TT hub of a device on parent's port (xHCI 1.2, 8.9). */
static void usb_place(struct usb_device *dev, struct usb_device *parent, unsigned port)
{
	dev->ud_parent = parent;
	dev->ud_port = (u8)port;
	if (!parent) {
		dev->ud_depth = 0;
		dev->ud_root_port = (u8)port;
		dev->ud_route = 0;
		usb_make_path(dev->ud_path, sizeof(dev->ud_path), NULL, port);
		return;
	}
	dev->ud_depth = parent->ud_depth + 1;
	dev->ud_root_port = parent->ud_root_port;
	dev->ud_route = parent->ud_route | ((port > 15 ? 15u : port) << (4 * (dev->ud_depth - 1)));
	usb_make_path(dev->ud_path, sizeof(dev->ud_path), parent->ud_path, port);
	if (dev->ud_speed <= USB_SPEED_FULL) {
		if (parent->ud_speed == USB_SPEED_HIGH) {
			dev->ud_tt_hub = parent;
			dev->ud_tt_port = (u8)port;
		} else {
			dev->ud_tt_hub = parent->ud_tt_hub;
			dev->ud_tt_port = parent->ud_tt_port;
		}
	}
}

/* Descriptors, configuration, endpoints; see the file comment. */
static int usb_setup_device(struct usb_device *dev)
{
	const struct usb_hcd_ops *ops = dev->ud_bus->ub_ops;
	u8 *buf = kmalloc(USB_CONFIG_MAX, GFP_KERNEL);
	u16 total, maxp;
	int ret, tries;

	if (!buf)
		return -ENOMEM;
	for (tries = 0; tries < USB_ENUM_TRIES; tries++) {
		ret = usb_get_descriptor(dev, USB_DT_DEVICE, 0, buf, 8);
		if (ret == 8)
			break;
		mdelay(20);
	}
	if (ret != 8) {
		ret = ret < 0 ? ret : -EIO;
		goto out;
	}
	maxp = usb_ep0_maxp((const struct usb_device_descriptor *)buf, dev->ud_speed);
	dev->ud_ep0.ep_maxp = maxp;
	if (maxp != usb_ep0_default_maxp(dev->ud_speed)) {
		ret = ops->dev_set_ep0(dev->ud_bus, dev, maxp);
		if (ret)
			goto out;
	}
	ret = usb_get_descriptor(dev, USB_DT_DEVICE, 0, buf, sizeof(struct usb_device_descriptor));
	if (ret >= 0)
		ret = usb_parse_device_desc(dev, buf, (size_t)ret);
	if (ret)
		goto out;
	ret = usb_get_descriptor(dev, USB_DT_CONFIG, 0, buf, sizeof(struct usb_config_descriptor));
	if (ret < (int)sizeof(struct usb_config_descriptor)) {
		ret = ret < 0 ? ret : -EIO;
		goto out;
	}
	total = le16_to_cpu(((struct usb_config_descriptor *)buf)->wTotalLength);
	if (total > USB_CONFIG_MAX)
		total = USB_CONFIG_MAX;
	ret = usb_get_descriptor(dev, USB_DT_CONFIG, 0, buf, total);
	if (ret < 0)
		goto out;
	ret = usb_parse_config(dev, buf, (size_t)ret);
	if (ret)
		goto out;
	if (dev->ud_desc.iProduct)
		usb_string(dev, dev->ud_desc.iProduct, dev->ud_product, sizeof(dev->ud_product));
	ret = usb_control_msg(dev, USB_DIR_OUT | USB_TYPE_STANDARD | USB_RECIP_DEVICE,
			      USB_REQ_SET_CONFIGURATION, dev->ud_config, 0, NULL, 0,
			      USB_CTRL_TIMEOUT_MS);
	if (ret < 0)
		goto out;
	ret = ops->dev_configure(dev->ud_bus, dev);
out:
	kfree(buf);
	return ret;
}

/**
 * usb_enumerate - bring up the device on an enabled port and bind drivers
 * @bus: its bus
 * @parent: the hub it hangs from, NULL for a root port
 * @port: 1-based port number
 * @speed: the speed the port reported
 *
 * Returns the device (in the tree, one reference held by the tree) or
 * NULL after printing why.  Not in interrupt context.
 */
struct usb_device *usb_enumerate(struct usb_bus *bus, struct usb_device *parent,
				 unsigned port, enum usb_speed speed)
{
	struct usb_device *dev;
	unsigned long flags;
	int ret;

	if (parent && parent->ud_depth + 1 >= USB_MAX_DEPTH) {
		pr_err("usb %u-%s.%u: too deep a hub chain\n", bus->ub_num, parent->ud_path, port);
		return NULL;
	}
	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return NULL;
	dev->ud_bus = bus;
	dev->ud_busnum = bus->ub_num;
	dev->ud_speed = speed;
	dev->ud_refs = 1;
	dev->ud_ep0.ep_maxp = usb_ep0_default_maxp(speed);
	INIT_LIST_HEAD(&dev->ud_link);
	usb_place(dev, parent, port);

	ret = bus->ub_ops->dev_alloc(bus, dev);
	if (ret)
		goto free;			/* error already printed */
	ret = usb_setup_device(dev);
	if (ret) {
		pr_err("usb %u-%s: cannot enumerate the %s-speed device (%s)\n", bus->ub_num,
		       dev->ud_path, usb_speed_name(speed), errstr(ret));
		goto hc_free;
	}
	spin_lock_irqsave(&bus->ub_lock, flags);
	list_add_tail(&dev->ud_link, &bus->ub_devices);
	if (parent)
		parent->ud_child[port - 1] = dev;
	else
		bus->ub_root[port - 1] = dev;
	spin_unlock_irqrestore(&bus->ub_lock, flags);
	pr_info("usb %u-%s: %s-speed device %04x:%04x %s (addr %u)\n", bus->ub_num, dev->ud_path,
		usb_speed_name(speed), le16_to_cpu(dev->ud_desc.idVendor),
		le16_to_cpu(dev->ud_desc.idProduct), dev->ud_product, dev->ud_addr);
	usb_bind_device(dev);
	return dev;
hc_free:
	bus->ub_ops->dev_free(bus, dev);
free:
	kfree(dev);
	return NULL;
}

/**
 * usb_disconnect - a device (and everything below it) is gone
 * @dev: the device, in the tree
 *
 * Children first; then its URBs fail with -ENODEV, its drivers'
 * disconnect runs, and the tree's reference is dropped.  Not in
 * interrupt context.
 */
void usb_disconnect(struct usb_device *dev)
{
	struct usb_bus *bus = dev->ud_bus;
	unsigned long flags;
	unsigned i;

	WRITE_ONCE(dev->ud_gone, true);
	for (i = 0; i < USB_MAX_HUB_PORTS; i++)
		if (dev->ud_child[i])
			usb_disconnect(dev->ud_child[i]);
	bus->ub_ops->dev_free(bus, dev);
	for (i = 0; i < dev->ud_nintf; i++) {
		struct usb_interface *intf = &dev->ud_intf[i];

		if (intf->intf_driver) {
			intf->intf_driver->disconnect(intf);
			intf->intf_driver = NULL;
		}
	}
	spin_lock_irqsave(&bus->ub_lock, flags);
	list_del_init(&dev->ud_link);
	if (dev->ud_parent)
		dev->ud_parent->ud_child[dev->ud_port - 1] = NULL;
	else if (bus->ub_root[dev->ud_port - 1] == dev)
		bus->ub_root[dev->ud_port - 1] = NULL;
	spin_unlock_irqrestore(&bus->ub_lock, flags);
	pr_info("usb %u-%s: device %04x:%04x gone\n", bus->ub_num, dev->ud_path,
		le16_to_cpu(dev->ud_desc.idVendor), le16_to_cpu(dev->ud_desc.idProduct));
	usb_put_dev(dev);
}

/* One root port: drop what was there if it changed, enumerate what is there now. */
static void usb_root_port(struct usb_bus *bus, unsigned port)
{
	struct usb_device *old = bus->ub_root[port - 1];
	struct usb_port_status ps;
	enum usb_speed speed;
	int ret;

	if (bus->ub_ops->port_status(bus, port, &ps))
		return;
	if (old && (!ps.ps_connected || ps.ps_changed)) {
		usb_disconnect(old);
		old = NULL;
	}
	if (!ps.ps_connected || old)
		return;
	mdelay(10);		/* USB 2.0 7.1.7.3: debounce before reset */
	ret = bus->ub_ops->port_reset(bus, port, &speed);
	if (ret) {
		if (ret != -ENODEV)
			pr_err("usb %u-%u: port reset failed (%s)\n", bus->ub_num, port, errstr(ret));
		return;
	}
	usb_enumerate(bus, NULL, port, speed);
}

/*
 * Every hub on the bus polls its ports.  A poll may unplug devices (and
 * hubs), so the walk takes references on a snapshot first.
 */
static void usb_poll_hubs(struct usb_bus *bus)
{
	struct usb_device *hubs[USB_POLL_HUBS], *dev;
	unsigned long flags;
	unsigned n = 0, i;

	spin_lock_irqsave(&bus->ub_lock, flags);
	list_for_each_entry(dev, &bus->ub_devices, ud_link)
		if (dev->ud_nports && !usb_device_gone(dev) && n < USB_POLL_HUBS)
			hubs[n++] = usb_get_dev(dev);
	spin_unlock_irqrestore(&bus->ub_lock, flags);
	for (i = 0; i < n; i++) {
		if (!usb_device_gone(hubs[i]))
			usb_hub_poll(hubs[i]);
		usb_put_dev(hubs[i]);
	}
}

/* Deferred work: root port events, then hubs with pending changes. */
static void usb_bus_work(struct work *w)
{
	struct usb_bus *bus = container_of(w, struct usb_bus, ub_work);
	unsigned long flags;
	unsigned p;
	u32 ev, hubs;

	spin_lock_irqsave(&bus->ub_lock, flags);
	if (bus->ub_work_running) {
		spin_unlock_irqrestore(&bus->ub_lock, flags);
		return;		/* nested in a wait of the running one: it loops */
	}
	bus->ub_work_running = true;
	for (;;) {
		ev = bus->ub_port_events;
		hubs = bus->ub_hub_events;
		bus->ub_port_events = 0;
		bus->ub_hub_events = 0;
		if (!ev && !hubs)
			break;
		spin_unlock_irqrestore(&bus->ub_lock, flags);
		for (p = 1; p <= bus->ub_nports; p++)
			if (ev & (1u << (p - 1)))
				usb_root_port(bus, p);
		if (hubs)
			usb_poll_hubs(bus);
		spin_lock_irqsave(&bus->ub_lock, flags);
	}
	bus->ub_work_running = false;
	spin_unlock_irqrestore(&bus->ub_lock, flags);
}

void usb_bus_port_event(struct usb_bus *bus, unsigned port)
{
	unsigned long flags;

	spin_lock_irqsave(&bus->ub_lock, flags);
	if (port >= 1 && port <= bus->ub_nports)
		bus->ub_port_events |= 1u << (port - 1);
	spin_unlock_irqrestore(&bus->ub_lock, flags);
	schedule_work(&bus->ub_work);
}

/* A hub's status URB saw a change: poll hubs from the bus work. Any context. */
void usb_hub_event(struct usb_bus *bus)
{
	unsigned long flags;

	spin_lock_irqsave(&bus->ub_lock, flags);
	bus->ub_hub_events++;
	spin_unlock_irqrestore(&bus->ub_lock, flags);
	schedule_work(&bus->ub_work);
}

/**
 * usb_bus_register - add a host controller's bus and enumerate its ports
 * @bus: ub_ops, ub_hcpriv, ub_nports, ub_name filled
 *
 * Enumerates every connected root port (and hubs below) before
 * returning, so boot sees the devices.  Returns 0 or -EINVAL.
 */
int usb_bus_register(struct usb_bus *bus)
{
	unsigned long flags;
	unsigned p;

	if (bus->ub_nports > USB_MAX_ROOT_PORTS)
		return -EINVAL;
	spin_lock_init(&bus->ub_lock, "usb_bus");
	INIT_LIST_HEAD(&bus->ub_devices);
	work_init(&bus->ub_work, usb_bus_work);
	spin_lock_irqsave(&usb_lock, flags);
	bus->ub_num = ++usb_nbuses;
	list_add_tail(&bus->ub_link, &usb_buses);
	spin_unlock_irqrestore(&usb_lock, flags);
	for (p = 1; p <= bus->ub_nports; p++)
		bus->ub_port_events |= 1u << (p - 1);
	usb_bus_work(&bus->ub_work);
	/* Hubs found at boot report their ports through their status URBs. */
	run_deferred_work();
	return 0;
}
