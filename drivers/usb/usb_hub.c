/*
 * USB hubs (class 9; USB 2.0, 11.23-11.24 and USB 3.2, 10.15-10.16): the
 * hub descriptor, port power, the status-change interrupt endpoint, and
 * enumeration of what is plugged into each port, hubs behind hubs
 * included (usb_core.c computes route strings and TT for the children).
 *
 * probe: read the hub descriptor, tell the host controller the device is
 * a hub (ports, TT think time, multi-TT), power the ports, enumerate
 * what is already connected, then start the status URB.  Its completion
 * (interrupt context) only marks the hub and asks the bus work to run;
 * usb_hub_poll() (the bus work) reads each port's status, clears the
 * change bits, drops a device that left, resets and enumerates one that
 * arrived.  A USB 3 hub also gets SET_HUB_DEPTH; its ports are
 * SuperSpeed.
 */
#include "drivers/usb/usb_hcd.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/mm/slab.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "lib/string.h"

/* Class requests and features (USB 2.0, 11.24.2 Table 11-15/11-17). */
#define HUB_REQ_GET_STATUS	0x00
#define HUB_REQ_CLEAR_FEATURE	0x01
#define HUB_REQ_SET_FEATURE	0x03
#define HUB_REQ_SET_HUB_DEPTH	0x0c	/* USB 3.2, 10.16.2.9 */
#define HUB_PORT_RESET		4
#define HUB_PORT_POWER		8
#define HUB_C_PORT_CONNECTION	16
#define HUB_C_PORT_ENABLE	17
#define HUB_C_PORT_SUSPEND	18
#define HUB_C_PORT_OVER_CURRENT	19
#define HUB_C_PORT_RESET	20
#define HUB_C_PORT_LINK_STATE	25	/* USB 3 */
#define HUB_C_PORT_CONFIG_ERROR	26
#define HUB_C_BH_PORT_RESET	29
/* wPortStatus (11.24.2.7.1) */
#define HUB_PS_CONNECTION	(1u << 0)
#define HUB_PS_ENABLE		(1u << 1)
#define HUB_PS_RESET		(1u << 4)
#define HUB_PS_LOW_SPEED	(1u << 9)
#define HUB_PS_HIGH_SPEED	(1u << 10)
/* wPortChange */
#define HUB_PC_CONNECTION	(1u << 0)
#define HUB_PC_RESET		(1u << 4)

#define HUB_RESET_MS		500	/* C_PORT_RESET after SET_FEATURE(PORT_RESET) */
#define HUB_DEBOUNCE_MS		100	/* USB 2.0 7.1.7.3 TATTDB */

/* USB 2.0, 11.23.2.1 hub descriptor (the fixed part) */
struct usb_hub_descriptor {
	u8	bDescLength;
	u8	bDescriptorType;
	u8	bNbrPorts;
	le16	wHubCharacteristics;
#define HUB_CHAR_TTTT(v)	(((v) >> 5) & 3)
	u8	bPwrOn2PwrGood;		/* 2 ms units */
	u8	bHubContrCurrent;
} __packed;
_Static_assert(sizeof(struct usb_hub_descriptor) == 7, "hub descriptor");

struct usb_hub {
	struct usb_device	*h_dev;		/* [I] */
	struct usb_interface	*h_intf;	/* [I] */
	bool			h_ss;		/* [I] a USB 3 hub */
	struct urb		h_urb;		/* the status-change URB */
	u8			h_bits[4];	/* its buffer: bit p = port p changed */
	volatile bool		h_pending;	/* a change to look at */
	volatile bool		h_stopping;	/* disconnect: do not resubmit */
	u8			*h_buf;		/* lowmem: hub descriptor, then port status */
	le16			*h_status;	/* h_buf + 32: wPortStatus, wPortChange */
};

static const struct usb_driver usb_hub_driver;

static int hub_port_req(struct usb_hub *h, u8 req, u16 feature, unsigned port)
{
	int ret = usb_control_msg(h->h_dev, USB_DIR_OUT | USB_TYPE_CLASS | USB_RECIP_OTHER, req,
				  feature, (u16)port, NULL, 0, USB_CTRL_TIMEOUT_MS);

	return ret < 0 ? ret : 0;
}

static int hub_port_status(struct usb_hub *h, unsigned port, u16 *status, u16 *change)
{
	int ret = usb_control_msg(h->h_dev, USB_DIR_IN | USB_TYPE_CLASS | USB_RECIP_OTHER,
				  HUB_REQ_GET_STATUS, 0, (u16)port, h->h_status, 4,
				  USB_CTRL_TIMEOUT_MS);

	if (ret < 0)
		return ret;
	if (ret < 4)
		return -EIO;
	*status = le16_to_cpu(h->h_status[0]);
	*change = le16_to_cpu(h->h_status[1]);
	return 0;
}

/* 11.24.2.7.1.5: reset the port, wait (bounded) for C_PORT_RESET, read the speed. */
static int hub_port_reset(struct usb_hub *h, unsigned port, enum usb_speed *speed)
{
	u64 end = ktime_ms() + HUB_RESET_MS;
	u16 st, ch;
	int ret;

	ret = hub_port_req(h, HUB_REQ_SET_FEATURE, HUB_PORT_RESET, port);
	if (ret)
		return ret;
	for (;;) {
		mdelay(10);
		ret = hub_port_status(h, port, &st, &ch);
		if (ret)
			return ret;
		if (!(st & HUB_PS_CONNECTION))
			return -ENODEV;
		if ((ch & HUB_PC_RESET) && !(st & HUB_PS_RESET))
			break;
		if (ktime_ms() > end)
			return -ETIMEDOUT;
	}
	hub_port_req(h, HUB_REQ_CLEAR_FEATURE, HUB_C_PORT_RESET, port);
	if (!(st & HUB_PS_ENABLE))
		return -EIO;
	if (h->h_ss)
		*speed = USB_SPEED_SUPER;
	else if (st & HUB_PS_LOW_SPEED)
		*speed = USB_SPEED_LOW;
	else if (st & HUB_PS_HIGH_SPEED)
		*speed = USB_SPEED_HIGH;
	else
		*speed = USB_SPEED_FULL;
	mdelay(10);		/* TRSTRCY */
	return 0;
}

/* One port: clear its changes, drop a departed child, enumerate a new one. */
static void hub_port(struct usb_hub *h, unsigned port, bool initial)
{
	struct usb_device *hub = h->h_dev, *child = hub->ud_child[port - 1];
	enum usb_speed speed;
	u16 st, ch;
	int ret;

	if (hub_port_status(h, port, &st, &ch))
		return;
	if (ch & HUB_PC_CONNECTION)
		hub_port_req(h, HUB_REQ_CLEAR_FEATURE, HUB_C_PORT_CONNECTION, port);
	if (ch & (1u << 1))
		hub_port_req(h, HUB_REQ_CLEAR_FEATURE, HUB_C_PORT_ENABLE, port);
	if (ch & (1u << 3))
		hub_port_req(h, HUB_REQ_CLEAR_FEATURE, HUB_C_PORT_OVER_CURRENT, port);
	if (ch & HUB_PC_RESET)
		hub_port_req(h, HUB_REQ_CLEAR_FEATURE, HUB_C_PORT_RESET, port);
	if (h->h_ss && (ch & (7u << 5))) {
		hub_port_req(h, HUB_REQ_CLEAR_FEATURE, HUB_C_BH_PORT_RESET, port);
		hub_port_req(h, HUB_REQ_CLEAR_FEATURE, HUB_C_PORT_LINK_STATE, port);
		hub_port_req(h, HUB_REQ_CLEAR_FEATURE, HUB_C_PORT_CONFIG_ERROR, port);
	}
	if (child && (!(st & HUB_PS_CONNECTION) || (ch & HUB_PC_CONNECTION))) {
		usb_disconnect(child);
		child = NULL;
	}
	if (child || !(st & HUB_PS_CONNECTION) || (!initial && !(ch & HUB_PC_CONNECTION) &&
						     (st & HUB_PS_ENABLE)))
		return;
	mdelay(HUB_DEBOUNCE_MS);
	ret = hub_port_reset(h, port, &speed);
	if (ret) {
		if (ret != -ENODEV)
			pr_err("usb %u-%s.%u: hub port reset failed (%s)\n", hub->ud_bus->ub_num,
			       hub->ud_path, port, errstr(ret));
		return;
	}
	usb_enumerate(hub->ud_bus, hub, port, speed);
}

static void hub_status_complete(struct urb *urb)
{
	struct usb_hub *h = urb->urb_context;

	if (urb->urb_status == 0) {
		h->h_pending = true;
		usb_hub_event(h->h_dev->ud_bus);
		if (!h->h_stopping)
			usb_submit_urb(urb);	/* an error here: the next poll restarts it */
	}
}

static struct usb_hub *hub_of(struct usb_device *dev)
{
	unsigned i;

	for (i = 0; i < dev->ud_nintf; i++)
		if (dev->ud_intf[i].intf_driver == &usb_hub_driver)
			return usb_get_intfdata(&dev->ud_intf[i]);
	return NULL;
}

/* From the bus work: look at every port of a hub whose status URB fired. */
void usb_hub_poll(struct usb_device *dev)
{
	struct usb_hub *h = hub_of(dev);
	unsigned p;

	if (!h || !h->h_pending)
		return;
	h->h_pending = false;
	for (p = 1; p <= dev->ud_nports && !usb_device_gone(dev); p++)
		hub_port(h, p, false);
	if (!h->h_urb.urb_active && !h->h_stopping && !usb_device_gone(dev))
		usb_submit_urb(&h->h_urb);
}

static int hub_probe(struct usb_interface *intf, const struct usb_device_id *id)
{
	struct usb_device *dev = intf->intf_dev;
	struct usb_host_endpoint *ep = usb_find_endpoint(intf, USB_ENDPOINT_XFER_INT, USB_DIR_IN);
	struct usb_hub_descriptor *d;
	struct usb_hub *h;
	unsigned p, nports;
	int ret;

	if (!ep)
		return -ENODEV;
	h = kzalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	h->h_buf = kzalloc(64, GFP_KERNEL);
	ret = -ENOMEM;
	if (!h->h_buf)
		goto fail;
	d = (struct usb_hub_descriptor *)h->h_buf;
	h->h_status = (le16 *)(h->h_buf + 32);
	h->h_dev = dev;
	h->h_intf = intf;
	h->h_ss = dev->ud_speed >= USB_SPEED_SUPER;
	ret = usb_control_msg(dev, USB_DIR_IN | USB_TYPE_CLASS | USB_RECIP_DEVICE,
			      USB_REQ_GET_DESCRIPTOR,
			      (u16)((h->h_ss ? USB_DT_SS_HUB : USB_DT_HUB) << 8), 0, d, 32,
			      USB_CTRL_TIMEOUT_MS);
	if (ret >= 0 && ret < (int)sizeof(*d))
		ret = -EIO;
	if (ret < 0)
		goto fail;
	nports = d->bNbrPorts;
	if (nports > USB_MAX_HUB_PORTS) {
		pr_warn("usb %u-%s: hub has %u ports; using %u\n", dev->ud_bus->ub_num,
			dev->ud_path, nports, USB_MAX_HUB_PORTS);
		nports = USB_MAX_HUB_PORTS;
	}
	if (!nports) {
		ret = -ENODEV;
		goto fail;
	}
	dev->ud_nports = (u8)nports;
	dev->ud_hub_ttt = (u8)HUB_CHAR_TTTT(le16_to_cpu(d->wHubCharacteristics));
	dev->ud_hub_mtt = dev->ud_speed == USB_SPEED_HIGH && intf->intf_protocol == 2;
	ret = dev->ud_bus->ub_ops->dev_configure(dev->ud_bus, dev);
	if (ret)
		goto not_hub;
	if (h->h_ss) {
		ret = usb_control_msg(dev, USB_DIR_OUT | USB_TYPE_CLASS | USB_RECIP_DEVICE,
				      HUB_REQ_SET_HUB_DEPTH, dev->ud_depth, 0, NULL, 0,
				      USB_CTRL_TIMEOUT_MS);
		if (ret < 0)
			goto not_hub;
	}
	usb_set_intfdata(intf, h);
	pr_info("usb %u-%s: hub, %u ports\n", dev->ud_bus->ub_num, dev->ud_path, nports);
	for (p = 1; p <= nports; p++)
		hub_port_req(h, HUB_REQ_SET_FEATURE, HUB_PORT_POWER, p);
	mdelay(d->bPwrOn2PwrGood * 2u + HUB_DEBOUNCE_MS);
	for (p = 1; p <= nports && !usb_device_gone(dev); p++)
		hub_port(h, p, true);

	usb_fill_urb(&h->h_urb, dev, ep->ep_addr, h->h_bits,
		     (u32)min((nports + 8) / 8, sizeof(h->h_bits)), hub_status_complete, h);
	ret = usb_submit_urb(&h->h_urb);
	if (ret)
		pr_warn("usb %u-%s: hub status endpoint: %s; no hot plug below it\n",
			dev->ud_bus->ub_num, dev->ud_path, errstr(ret));
	return 0;
not_hub:
	dev->ud_nports = 0;
fail:
	kfree(h->h_buf);
	kfree(h);
	return ret;
}

static void hub_disconnect(struct usb_interface *intf)
{
	struct usb_hub *h = usb_get_intfdata(intf);

	if (!h)
		return;
	h->h_stopping = true;
	usb_kill_urb(&h->h_urb);
	usb_set_intfdata(intf, NULL);
	kfree(h->h_buf);
	kfree(h);
}

static const struct usb_device_id usb_hub_ids[] = {
	{ USB_INTERFACE_CLASS(USB_CLASS_HUB) },
	{ 0 }
};

static const struct usb_driver usb_hub_driver = {
	.name = "hub",
	.id_table = usb_hub_ids,
	.probe = hub_probe,
	.disconnect = hub_disconnect,
};

static int usb_hub_init(void)
{
	return usb_register_driver(&usb_hub_driver);
}
device_initcall(usb_hub_init);
