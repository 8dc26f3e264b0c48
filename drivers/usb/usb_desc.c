/*
 * USB descriptors: the device descriptor and a configuration's descriptor
 * set (USB 2.0, 9.6; USB 3.2, 9.6.7 for the SuperSpeed companion), parsed
 * into struct usb_device (ud_desc, ud_intf[], ud_ep[][]).
 *
 * The bytes come from a device and are treated as hostile: every
 * descriptor's bLength must be at least 2 and fit in what is left of
 * min(wTotalLength, bytes read); a descriptor shorter than its type needs
 * is skipped; endpoint 0, a zero max packet size, a repeated endpoint
 * address and entries past the table sizes are ignored.  Only alternate
 * setting 0 of each interface is kept (what boot-protocol HID, hubs and
 * bulk-only storage use).  The walk visits each byte once, so it ends.
 *
 * Returns 0, or -EINVAL when the header itself is malformed.  Portable:
 * built on the host for unit tests and the fuzz target.
 */
#include "drivers/usb/usb_desc.h"
#include "lib/string.h"

/* Checks and copies the 18-byte device descriptor. */
int usb_parse_device_desc(struct usb_device *dev, const void *buf, size_t len)
{
	const struct usb_device_descriptor *d = buf;

	if (len < sizeof(*d) || d->bLength < sizeof(*d) || d->bDescriptorType != USB_DT_DEVICE)
		return -EINVAL;
	memcpy(&dev->ud_desc, d, sizeof(*d));
	return 0;
}

/* ep0's max packet size before the device descriptor is read (USB 2.0, 5.5.3). */
u16 usb_ep0_default_maxp(enum usb_speed speed)
{
	switch (speed) {
	case USB_SPEED_SUPER:
	case USB_SPEED_SUPER_PLUS:
		return 512;
	case USB_SPEED_HIGH:
		return 64;
	default:
		return 8;
	}
}

/*
 * ep0's max packet size from the first 8 bytes of the device descriptor
 * (USB 2.0, 9.6.1; USB 3.2: 2^bMaxPacketSize0), or the speed's default
 * when the value is not one the speed allows.
 */
u16 usb_ep0_maxp(const struct usb_device_descriptor *d, enum usb_speed speed)
{
	u8 v = d->bMaxPacketSize0;

	switch (speed) {
	case USB_SPEED_SUPER:
	case USB_SPEED_SUPER_PLUS:
		return 512;
	case USB_SPEED_HIGH:
		return 64;
	case USB_SPEED_LOW:
		return 8;
	default:
		return (v == 8 || v == 16 || v == 32 || v == 64) ? v : 8;
	}
}

/* "parent.port", or "port" on a root port; truncated safely. */
void usb_make_path(char *buf, size_t size, const char *parent_path, unsigned port)
{
	if (parent_path && parent_path[0])
		snprintf(buf, size, "%s.%u", parent_path, port);
	else
		snprintf(buf, size, "%u", port);
}

static void usb_fill_ep(struct usb_host_endpoint *ep, const struct usb_endpoint_descriptor *d)
{
	u16 w = le16_to_cpu(d->wMaxPacketSize);

	memcpy(&ep->ep_desc, d, sizeof(*d));
	ep->ep_addr = d->bEndpointAddress & (USB_DIR_IN | USB_ENDPOINT_NUMBER_MASK);
	ep->ep_type = d->bmAttributes & USB_ENDPOINT_XFERTYPE_MASK;
	ep->ep_maxp = w & 0x7ff;
	ep->ep_mult = (w >> 11) & 3;
	ep->ep_burst = 0;
	ep->ep_interval = d->bInterval;
}

/* Parses a configuration's descriptor set into dev; see the file comment. */
int usb_parse_config(struct usb_device *dev, const void *buf, size_t len)
{
	const u8 *p = buf;
	const struct usb_config_descriptor *c = buf;
	struct usb_interface *cur = NULL;
	struct usb_host_endpoint *last_ep = NULL;
	size_t total, off;
	unsigned i;

	if (len < sizeof(*c) || c->bLength < sizeof(*c) || c->bDescriptorType != USB_DT_CONFIG)
		return -EINVAL;
	total = le16_to_cpu(c->wTotalLength);
	if (total < sizeof(*c))
		return -EINVAL;
	if (total > len)
		total = len;

	dev->ud_config = c->bConfigurationValue;
	dev->ud_nintf = 0;
	memset(dev->ud_intf, 0, sizeof(dev->ud_intf));
	for (i = 0; i < 16; i++) {
		memset(&dev->ud_ep[0][i], 0, sizeof(dev->ud_ep[0][i]));
		memset(&dev->ud_ep[1][i], 0, sizeof(dev->ud_ep[1][i]));
	}

	for (off = c->bLength; off + 2 <= total; ) {
		u8 blen = p[off], type = p[off + 1];

		if (blen < 2 || blen > total - off)
			break;		/* the rest cannot be trusted */
		switch (type) {
		case USB_DT_INTERFACE: {
			const struct usb_interface_descriptor *id = (const void *)(p + off);

			cur = NULL;
			last_ep = NULL;
			if (blen < sizeof(*id) || id->bAlternateSetting != 0)
				break;
			for (i = 0; i < dev->ud_nintf; i++)
				if (dev->ud_intf[i].intf_number == id->bInterfaceNumber)
					break;
			if (i < dev->ud_nintf || dev->ud_nintf >= USB_MAX_INTERFACES)
				break;
			cur = &dev->ud_intf[dev->ud_nintf++];
			memcpy(&cur->intf_desc, id, sizeof(*id));
			cur->intf_dev = dev;
			cur->intf_number = id->bInterfaceNumber;
			cur->intf_class = id->bInterfaceClass;
			cur->intf_subclass = id->bInterfaceSubClass;
			cur->intf_protocol = id->bInterfaceProtocol;
			break;
		}
		case USB_DT_ENDPOINT: {
			const struct usb_endpoint_descriptor *ed = (const void *)(p + off);
			struct usb_host_endpoint *ep;
			unsigned num, in;

			last_ep = NULL;
			if (!cur || blen < sizeof(*ed) || cur->intf_nep >= USB_MAX_ENDPOINTS)
				break;
			num = ed->bEndpointAddress & USB_ENDPOINT_NUMBER_MASK;
			in = !!(ed->bEndpointAddress & USB_DIR_IN);
			if (num == 0 || (le16_to_cpu(ed->wMaxPacketSize) & 0x7ff) == 0)
				break;
			if ((ed->bmAttributes & USB_ENDPOINT_XFERTYPE_MASK) == USB_ENDPOINT_XFER_CONTROL)
				break;
			ep = &dev->ud_ep[in][num];
			if (ep->ep_addr)
				break;		/* claimed by an earlier descriptor */
			usb_fill_ep(ep, ed);
			cur->intf_ep[cur->intf_nep++] = ep;
			last_ep = ep;
			break;
		}
		case USB_DT_SS_EP_COMP: {
			const struct usb_ss_ep_comp_descriptor *sc = (const void *)(p + off);

			if (last_ep && blen >= sizeof(*sc))
				last_ep->ep_burst = sc->bMaxBurst > 15 ? 15 : sc->bMaxBurst;
			last_ep = NULL;
			break;
		}
		default:
			break;		/* class-specific (HID, hub): the class driver's */
		}
		off += blen;
	}
	return 0;
}

/* The first endpoint of intf with the given type and direction, or NULL. */
struct usb_host_endpoint *usb_find_endpoint(struct usb_interface *intf, u8 type, u8 dir)
{
	unsigned i;

	for (i = 0; i < intf->intf_nep; i++) {
		struct usb_host_endpoint *ep = intf->intf_ep[i];

		if (ep->ep_type == type && (ep->ep_addr & USB_DIR_IN) == (dir & USB_DIR_IN))
			return ep;
	}
	return NULL;
}

const char *usb_speed_name(enum usb_speed speed)
{
	static const char *const names[] = {
		[USB_SPEED_UNKNOWN] = "?", [USB_SPEED_LOW] = "low", [USB_SPEED_FULL] = "full",
		[USB_SPEED_HIGH] = "high", [USB_SPEED_SUPER] = "super",
		[USB_SPEED_SUPER_PLUS] = "super+",
	};

	return (unsigned)speed < ARRAY_SIZE(names) ? names[speed] : "?";
}
