/*
 * USB: the contract between the USB core (device model, enumeration, host
 * controller drivers) and class drivers (keyboard, hub, mass storage).
 *
 * A class driver registers a struct usb_driver whose id table matches
 * interfaces by class/subclass/protocol (or vendor/product).  The core
 * enumerates every device, reads its descriptors, selects configuration 1
 * (its first), and calls probe() for each interface (alternate setting 0)
 * that a driver matches.  probe() and disconnect() run outside interrupt
 * context (from boot or from the core's deferred hot-plug work); probe may
 * wait (usb_control_msg, usb_bulk_msg).
 *
 *	static const struct usb_device_id bot_ids[] = {
 *		{ USB_INTERFACE_INFO(USB_CLASS_MASS_STORAGE, 0x06, 0x50) },
 *		{ 0 }
 *	};
 *	static const struct usb_driver bot_driver = {
 *		.name = "usb-storage", .id_table = bot_ids,
 *		.probe = bot_probe, .disconnect = bot_disconnect,
 *	};
 *	static int bot_init(void) { return usb_register_driver(&bot_driver); }
 *	device_initcall(bot_init);
 *
 * Data moves in URBs (struct urb): asynchronous, one endpoint, a kernel
 * buffer or a page/offset scatter/gather list, a completion callback run
 * in interrupt context with the status and the byte count actually moved.
 * Status codes a callback or a synchronous call can see:
 *	0		done (a short IN transfer is 0 unless URB_SHORT_NOT_OK)
 *	-EPIPE		the endpoint stalled; usb_clear_halt() before reuse
 *	-ENODEV		the device is gone (unplugged, or its hub is)
 *	-ECONNRESET	cancelled by usb_unlink_urb()
 *	-ETIMEDOUT	a synchronous call's timeout ran out (the URB was cancelled)
 *	-EOVERFLOW	babble: the device sent more than asked
 *	-EREMOTEIO	short IN transfer with URB_SHORT_NOT_OK
 *	-EPROTO		transaction error (CRC, timeout on the wire)
 *	-EIO		anything else the controller reported
 *
 * Unplug: the core marks the device gone, completes every URB in flight
 * on it with -ENODEV, makes every later submission return -ENODEV, then
 * calls each bound driver's disconnect() (outside interrupt context).
 * The struct usb_device (and the interfaces embedded in it) lives until
 * the last usb_put_dev(); a driver that keeps a pointer past disconnect()
 * takes a reference with usb_get_dev() in probe.
 *
 * Lock legend:
 *	[I] set before probe, immutable while the device is bound
 *	[c] the core's (usb_core.c; readers outside call the accessors)
 *	[d] the bound class driver's
 *	[h] the host controller driver's while the URB is submitted
 */
#ifndef DRIVERS_USB_USB_H
#define DRIVERS_USB_USB_H

#include "kernel/types.h"
#include "kernel/compiler.h"
#include "kernel/errno.h"
#include "kernel/mm/gfp.h"
#include "lib/byteorder.h"
#include "lib/list.h"

struct page;
struct usb_bus;
struct usb_device;

/* ---- Standard descriptors (USB 2.0, 9.6; USB 3.2, 9.6) ---- */

#define USB_DT_DEVICE			0x01
#define USB_DT_CONFIG			0x02
#define USB_DT_STRING			0x03
#define USB_DT_INTERFACE		0x04
#define USB_DT_ENDPOINT			0x05
#define USB_DT_DEVICE_QUALIFIER		0x06
#define USB_DT_INTERFACE_ASSOC		0x0b
#define USB_DT_BOS			0x0f
#define USB_DT_HID			0x21
#define USB_DT_HUB			0x29
#define USB_DT_SS_HUB			0x2a
#define USB_DT_SS_EP_COMP		0x30

/* USB 2.0, 9.6.1 Device descriptor */
struct usb_device_descriptor {
	u8	bLength;
	u8	bDescriptorType;
	le16	bcdUSB;
	u8	bDeviceClass;
	u8	bDeviceSubClass;
	u8	bDeviceProtocol;
	u8	bMaxPacketSize0;	/* 8/16/32/64; USB 3: exponent (9 = 512) */
	le16	idVendor;
	le16	idProduct;
	le16	bcdDevice;
	u8	iManufacturer;
	u8	iProduct;
	u8	iSerialNumber;
	u8	bNumConfigurations;
} __packed;
_Static_assert(sizeof(struct usb_device_descriptor) == 18, "usb device descriptor");

/* USB 2.0, 9.6.3 Configuration descriptor (the header of the set) */
struct usb_config_descriptor {
	u8	bLength;
	u8	bDescriptorType;
	le16	wTotalLength;		/* this one plus every descriptor after it */
	u8	bNumInterfaces;
	u8	bConfigurationValue;
	u8	iConfiguration;
	u8	bmAttributes;
#define USB_CONFIG_ATT_SELFPOWER	0x40
#define USB_CONFIG_ATT_WAKEUP		0x20
	u8	bMaxPower;		/* 2 mA units (USB 3: 8 mA) */
} __packed;
_Static_assert(sizeof(struct usb_config_descriptor) == 9, "usb config descriptor");

/* USB 2.0, 9.6.5 Interface descriptor */
struct usb_interface_descriptor {
	u8	bLength;
	u8	bDescriptorType;
	u8	bInterfaceNumber;
	u8	bAlternateSetting;
	u8	bNumEndpoints;
	u8	bInterfaceClass;
	u8	bInterfaceSubClass;
	u8	bInterfaceProtocol;
	u8	iInterface;
} __packed;
_Static_assert(sizeof(struct usb_interface_descriptor) == 9, "usb interface descriptor");

/* USB 2.0, 9.6.6 Endpoint descriptor */
struct usb_endpoint_descriptor {
	u8	bLength;
	u8	bDescriptorType;
	u8	bEndpointAddress;
#define USB_ENDPOINT_NUMBER_MASK	0x0f
#define USB_ENDPOINT_DIR_MASK		0x80	/* USB_DIR_IN */
	u8	bmAttributes;
#define USB_ENDPOINT_XFERTYPE_MASK	0x03
#define USB_ENDPOINT_XFER_CONTROL	0
#define USB_ENDPOINT_XFER_ISOC		1
#define USB_ENDPOINT_XFER_BULK		2
#define USB_ENDPOINT_XFER_INT		3
	le16	wMaxPacketSize;		/* bits 10:0 size, 12:11 extra transactions */
	u8	bInterval;
} __packed;
_Static_assert(sizeof(struct usb_endpoint_descriptor) == 7, "usb endpoint descriptor");

/* USB 3.2, 9.6.7 SuperSpeed Endpoint Companion descriptor */
struct usb_ss_ep_comp_descriptor {
	u8	bLength;
	u8	bDescriptorType;
	u8	bMaxBurst;		/* packets per burst - 1 */
	u8	bmAttributes;		/* bulk: max streams exponent in 4:0 */
	le16	wBytesPerInterval;
} __packed;
_Static_assert(sizeof(struct usb_ss_ep_comp_descriptor) == 6, "usb ss ep companion");

/* ---- Control requests (USB 2.0, 9.3 and 9.4) ---- */

/* bmRequestType */
#define USB_DIR_OUT			0x00
#define USB_DIR_IN			0x80
#define USB_TYPE_STANDARD		(0x00 << 5)
#define USB_TYPE_CLASS			(0x01 << 5)
#define USB_TYPE_VENDOR			(0x02 << 5)
#define USB_RECIP_DEVICE		0x00
#define USB_RECIP_INTERFACE		0x01
#define USB_RECIP_ENDPOINT		0x02
#define USB_RECIP_OTHER			0x03	/* hub class: a port */

/* bRequest, standard (9.4 Table 9-4) */
#define USB_REQ_GET_STATUS		0x00
#define USB_REQ_CLEAR_FEATURE		0x01
#define USB_REQ_SET_FEATURE		0x03
#define USB_REQ_SET_ADDRESS		0x05
#define USB_REQ_GET_DESCRIPTOR		0x06
#define USB_REQ_SET_DESCRIPTOR		0x07
#define USB_REQ_GET_CONFIGURATION	0x08
#define USB_REQ_SET_CONFIGURATION	0x09
#define USB_REQ_GET_INTERFACE		0x0a
#define USB_REQ_SET_INTERFACE		0x0b

/* Feature selectors (9.4 Table 9-6) */
#define USB_ENDPOINT_HALT		0

/* USB 2.0, 9.3 the SETUP packet */
struct usb_ctrlrequest {
	u8	bRequestType;
	u8	bRequest;
	le16	wValue;
	le16	wIndex;
	le16	wLength;
} __packed;
_Static_assert(sizeof(struct usb_ctrlrequest) == 8, "usb setup packet");

/* Class codes (usb.org "Defined Class Codes") */
#define USB_CLASS_PER_INTERFACE		0x00
#define USB_CLASS_HID			0x03
#define USB_CLASS_MASS_STORAGE		0x08
#define USB_CLASS_HUB			0x09
#define USB_CLASS_VENDOR_SPEC		0xff

/* ---- The device model ---- */

enum usb_speed {
	USB_SPEED_UNKNOWN = 0,
	USB_SPEED_LOW,		/* 1.5 Mb/s */
	USB_SPEED_FULL,		/* 12 Mb/s */
	USB_SPEED_HIGH,		/* 480 Mb/s */
	USB_SPEED_SUPER,	/* 5 Gb/s */
	USB_SPEED_SUPER_PLUS,	/* 10 Gb/s and up */
};

#define USB_MAX_INTERFACES	8	/* interfaces bound per device; more are ignored */
#define USB_MAX_ENDPOINTS	16	/* endpoints per interface (besides ep0) */
#define USB_MAX_HUB_PORTS	15	/* ports of a hub we enumerate (route string: 4 bits) */
#define USB_MAX_DEPTH		5	/* hub tiers below the root port (USB 3.2, 10.1.2.1) */
#define USB_PATH_LEN		(USB_MAX_DEPTH * 4 + 4)	/* "3.1.4.2" and a NUL */

/*
 * One endpoint as the core parsed it: the descriptor plus the values
 * decoded from it (and its SuperSpeed companion, if any).
 */
struct usb_host_endpoint {
	struct usb_endpoint_descriptor	ep_desc;	/* [I] as the device gave it */
	u8				ep_addr;	/* [I] bEndpointAddress (USB_DIR_IN | n) */
	u8				ep_type;	/* [I] USB_ENDPOINT_XFER_* */
	u16				ep_maxp;	/* [I] max packet size, bytes */
	u8				ep_mult;	/* [I] extra transactions per microframe */
	u8				ep_burst;	/* [I] SuperSpeed bMaxBurst, else 0 */
	u8				ep_interval;	/* [I] bInterval as given */
	void				*ep_hcpriv;	/* [c] host controller's ring */
};

struct usb_driver;

struct usb_interface {
	struct usb_device		*intf_dev;	/* [I] the device it belongs to */
	struct usb_interface_descriptor	intf_desc;	/* [I] alternate setting 0 */
	u8				intf_number;	/* [I] bInterfaceNumber */
	u8				intf_class;	/* [I] */
	u8				intf_subclass;	/* [I] */
	u8				intf_protocol;	/* [I] */
	unsigned			intf_nep;	/* [I] entries used in intf_ep[] */
	struct usb_host_endpoint	*intf_ep[USB_MAX_ENDPOINTS];	/* [I] into ud_ep */
	const struct usb_driver		*intf_driver;	/* [c] bound driver, NULL none */
	void				*intf_drvdata;	/* [d] the driver's state */
};

struct usb_device {
	struct usb_bus			*ud_bus;	/* [I] the host controller's bus */
	unsigned			ud_busnum;	/* [I] its number, for messages: "usb 1-2.3" */
	struct usb_device		*ud_parent;	/* [I] hub above, NULL for a root port */
	u8				ud_port;	/* [I] port on the parent (or root), 1-based */
	u8				ud_depth;	/* [I] 0 on a root port */
	u8				ud_addr;	/* [I] bus address the controller assigned */
	enum usb_speed			ud_speed;	/* [I] */
	char				ud_path[USB_PATH_LEN];	/* [I] "root.port.port": "2.1.3" */
	struct usb_device_descriptor	ud_desc;	/* [I] */
	u8				ud_config;	/* [I] bConfigurationValue selected */
	unsigned			ud_nintf;	/* [I] interfaces in ud_intf[] */
	struct usb_interface		ud_intf[USB_MAX_INTERFACES];	/* [I] */
	struct usb_host_endpoint	ud_ep0;		/* [I] default control endpoint */
	struct usb_host_endpoint	ud_ep[2][16];	/* [I] [in][number] */
	u32				ud_route;	/* [I] xHCI route string: 4 bits per hub tier */
	u8				ud_root_port;	/* [I] root port the path starts at */
	u8				ud_tt_port;	/* [I] port on ud_tt_hub, 0 if none */
	struct usb_device		*ud_tt_hub;	/* [I] high-speed hub whose TT serves a LS/FS device */
	u8				ud_nports;	/* [I] hubs: downstream ports */
	bool				ud_hub_mtt;	/* [I] hubs: multi-TT */
	u8				ud_hub_ttt;	/* [I] hubs: TT think time (0..3) */
	struct usb_device		*ud_child[USB_MAX_HUB_PORTS];	/* [c] hubs: per port */
	char				ud_product[32];	/* [I] product string, "" if none */
	bool				ud_gone;	/* [c] unplugged: I/O fails -ENODEV */
	unsigned			ud_refs;	/* [c] usb_get_dev/usb_put_dev */
	struct list_head		ud_link;	/* [c] on the bus's device list */
	void				*ud_hcpriv;	/* [c] host controller's slot */
};

/*
 * Interface match entry: each field is compared only when its flag is set
 * in match_flags.  A table ends with an all-zero entry.
 */
struct usb_device_id {
	u16		match_flags;
#define USB_MATCH_VENDOR	0x0001
#define USB_MATCH_PRODUCT	0x0002
#define USB_MATCH_INT_CLASS	0x0080
#define USB_MATCH_INT_SUBCLASS	0x0100
#define USB_MATCH_INT_PROTOCOL	0x0200
	u16		idVendor;
	u16		idProduct;
	u8		bInterfaceClass;
	u8		bInterfaceSubClass;
	u8		bInterfaceProtocol;
	unsigned long	driver_info;	/* for the driver (quirk flags) */
};

#define USB_INTERFACE_INFO(c, s, p) \
	.match_flags = USB_MATCH_INT_CLASS | USB_MATCH_INT_SUBCLASS | \
		       USB_MATCH_INT_PROTOCOL, \
	.bInterfaceClass = (c), .bInterfaceSubClass = (s), .bInterfaceProtocol = (p)
#define USB_INTERFACE_CLASS(c) \
	.match_flags = USB_MATCH_INT_CLASS, .bInterfaceClass = (c)
#define USB_DEVICE_VP(v, p) \
	.match_flags = USB_MATCH_VENDOR | USB_MATCH_PRODUCT, \
	.idVendor = (v), .idProduct = (p)

struct usb_driver {
	const char			*name;
	const struct usb_device_id	*id_table;
	/*
	 * 0: bound; -ENODEV: not mine (the next driver is tried); other:
	 * failed (probe says why, once).  Not in interrupt context; may wait.
	 */
	int				(*probe)(struct usb_interface *intf,
						 const struct usb_device_id *id);
	/*
	 * The device is gone or the driver is being unbound: every URB the
	 * driver submitted has completed (with -ENODEV if it was in flight)
	 * before this runs.  Not in interrupt context.  Required.
	 */
	void				(*disconnect)(struct usb_interface *intf);
};

/* ---- URBs: asynchronous transfers ---- */

/*
 * One piece of a scatter/gather buffer: sg_len bytes of physically
 * contiguous memory from sg_offset into sg_page, running on into the pages
 * after it.  A piece that does not cross a 64 KiB boundary is one TRB on
 * xHCI.  Highmem pages are fine (64-bit DMA).
 */
struct usb_sg {
	struct page	*sg_page;
	u32		sg_offset;	/* < PAGE_SIZE */
	u32		sg_len;
};

#define USB_URB_MAX_SG		128		/* entries in urb_sg; they add up to urb_len */
#define USB_URB_MAX_LEN		(1024 * 1024)	/* bytes in one bulk/interrupt URB */

struct urb;
typedef void (*usb_complete_t)(struct urb *urb);

struct urb {
	/* Filled by the submitter; [d] while not submitted, read-only while it is. */
	struct usb_device	*urb_dev;
	u8			urb_ep;		/* bEndpointAddress: direction from bit 7 */
	unsigned		urb_flags;
#define URB_SHORT_NOT_OK	0x0001	/* a short IN transfer is -EREMOTEIO */
#define URB_ZERO_PACKET		0x0002	/* OUT: end with a zero-length packet if len % maxp == 0 */
	void			*urb_buf;	/* lowmem kernel buffer, or NULL with urb_sg */
	const struct usb_sg	*urb_sg;	/* scatter/gather list, or NULL with urb_buf */
	unsigned		urb_nsg;	/* entries in urb_sg, <= USB_URB_MAX_SG */
	u32			urb_len;	/* bytes to move, <= USB_URB_MAX_LEN */
	usb_complete_t		urb_complete;	/* interrupt context; may resubmit */
	void			*urb_context;	/* for urb_complete */

	/* Results, valid in urb_complete and after it. */
	int			urb_status;	/* 0 or -errno (see the list above) */
	u32			urb_actual;	/* bytes moved */

	/* The core's and the host controller's. */
	struct list_head	urb_hclink;	/* [h] on its endpoint's pending list */
	void			*urb_hcpriv;	/* [h] */
	u32			urb_hc_first;	/* [h] first TRB index of its TD(s) */
	u32			urb_hc_last;	/* [h] last TRB index */
	bool			urb_hc_cancel;	/* [h] usb_unlink_urb asked */
	bool			urb_hc_control;	/* [h] a control transfer (setup + status) */
	bool			urb_active;	/* [h] submitted, not yet completed */
};

/**
 * usb_fill_urb - set up a bulk or interrupt URB on a kernel buffer
 * @urb: zeroed or reused URB (not in flight)
 * @dev: the device
 * @ep: bEndpointAddress of one of its bulk or interrupt endpoints
 * @buf: lowmem buffer (kmalloc or a page in the NORMAL zone)
 * @len: bytes to move
 * @fn: completion, called in interrupt context
 * @ctx: its urb_context
 */
static inline void usb_fill_urb(struct urb *urb, struct usb_device *dev, u8 ep,
				void *buf, u32 len, usb_complete_t fn, void *ctx)
{
	urb->urb_dev = dev;
	urb->urb_ep = ep;
	urb->urb_flags = 0;
	urb->urb_buf = buf;
	urb->urb_sg = NULL;
	urb->urb_nsg = 0;
	urb->urb_len = len;
	urb->urb_complete = fn;
	urb->urb_context = ctx;
	urb->urb_status = 0;
	urb->urb_actual = 0;
	urb->urb_active = false;
}

/**
 * usb_submit_urb - queue a bulk or interrupt transfer
 * @urb: filled URB, not in flight; its buffer must stay valid until completion
 *
 * Returns 0 when queued (urb_complete will run exactly once), or -ENODEV
 * (device gone), -EINVAL (bad endpoint, length or list), -EBUSY (the
 * endpoint's ring is full -- it holds one URB of USB_URB_MAX_SG pages
 * with room to spare -- or the URB is already submitted), -EPIPE (the
 * endpoint is halted: usb_clear_halt first).  On error urb_complete is
 * not called.  Any context, including urb_complete of another URB.
 */
int usb_submit_urb(struct urb *urb);

/**
 * usb_unlink_urb - cancel a submitted URB
 * @urb: the URB
 *
 * Asynchronous: returns 0 if the cancel was started (urb_complete runs
 * later with -ECONNRESET, or with its real status if it finished first),
 * -ENOENT if the URB was not in flight.  Any context.
 */
int usb_unlink_urb(struct urb *urb);

/**
 * usb_kill_urb - cancel a URB and wait until its completion has run
 * @urb: the URB (may be idle: then it returns at once)
 *
 * Not in interrupt context.  Bounded (the controller's command timeout).
 */
void usb_kill_urb(struct urb *urb);

/* ---- Synchronous calls (not in interrupt context; each bounded) ---- */

#define USB_CTRL_TIMEOUT_MS	5000	/* a sensible timeout for usb_control_msg */

/**
 * usb_control_msg - run one control transfer on the default endpoint
 * @dev: the device
 * @request_type: bmRequestType (USB_DIR_* | USB_TYPE_* | USB_RECIP_*)
 * @request: bRequest
 * @value: wValue
 * @index: wIndex
 * @data: lowmem buffer for the data stage, NULL when @len is 0
 * @len: wLength
 * @timeout_ms: give up (and cancel) after this many milliseconds
 *
 * Returns the bytes moved in the data stage (>= 0), or -EPIPE (the device
 * stalled the request; ep0 recovers by itself), -ENODEV, -ETIMEDOUT,
 * -EPROTO, -EIO.
 */
int usb_control_msg(struct usb_device *dev, u8 request_type, u8 request,
		    u16 value, u16 index, void *data, u16 len, u32 timeout_ms);

/**
 * usb_bulk_msg - run one bulk or interrupt transfer and wait for it
 * @dev: the device
 * @ep: bEndpointAddress
 * @data: lowmem buffer
 * @len: bytes
 * @actual: bytes moved, also on error (may be NULL)
 * @timeout_ms: cancel after this many milliseconds
 *
 * Returns 0 or a URB status (-EPIPE, -ENODEV, -ETIMEDOUT, ...).
 */
int usb_bulk_msg(struct usb_device *dev, u8 ep, void *data, u32 len,
		 u32 *actual, u32 timeout_ms);

/**
 * usb_clear_halt - clear a halted (stalled) endpoint
 * @dev: the device
 * @ep: bEndpointAddress of a bulk or interrupt endpoint
 *
 * Sends CLEAR_FEATURE(ENDPOINT_HALT) to the device and resets the
 * host's side of the endpoint (data toggle / sequence number, dequeue
 * pointer past anything left on the ring).  URBs still queued on it
 * complete with -EPIPE first.  Returns 0, -ENODEV, -ETIMEDOUT, -EIO.
 */
int usb_clear_halt(struct usb_device *dev, u8 ep);

/**
 * usb_get_descriptor - GET_DESCRIPTOR(type, index) into buf
 * Returns bytes read or -errno, as usb_control_msg.
 */
int usb_get_descriptor(struct usb_device *dev, u8 type, u8 index,
		       void *buf, u16 len);

/**
 * usb_string - read string descriptor @index as ASCII (other characters
 * become '?'), NUL-terminated in buf[size].  Returns its length or -errno;
 * -ENOENT for index 0.
 */
int usb_string(struct usb_device *dev, u8 index, char *buf, size_t size);

/* ---- Registration, lookup, lifetime ---- */

/**
 * usb_register_driver - add a class driver and probe it against every
 * unbound interface already present.  Returns 0, -ENOSPC (table full).
 * Call from an initcall.
 */
int usb_register_driver(const struct usb_driver *drv);

/**
 * usb_find_endpoint - the first endpoint of @intf with transfer type
 * @type (USB_ENDPOINT_XFER_*) and direction @dir (USB_DIR_IN or
 * USB_DIR_OUT), or NULL.
 */
struct usb_host_endpoint *usb_find_endpoint(struct usb_interface *intf,
					    u8 type, u8 dir);

/** usb_get_dev - take a reference on @dev (any context). Returns @dev. */
struct usb_device *usb_get_dev(struct usb_device *dev);
/** usb_put_dev - drop a reference; the last one frees the device. */
void usb_put_dev(struct usb_device *dev);

/** usb_device_gone - true once @dev was unplugged (any context). */
static inline bool usb_device_gone(const struct usb_device *dev)
{
	return READ_ONCE(dev->ud_gone);
}

static inline void usb_set_intfdata(struct usb_interface *intf, void *p)
{
	intf->intf_drvdata = p;
}

static inline void *usb_get_intfdata(const struct usb_interface *intf)
{
	return intf->intf_drvdata;
}

/* "low", "full", "high", "super", "super+" */
const char *usb_speed_name(enum usb_speed speed);

#endif
