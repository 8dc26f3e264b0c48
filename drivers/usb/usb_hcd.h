/*
 * The contract between the USB core (usb_core.c, usb_hub.c) and a host
 * controller driver (xhci*.c).  Class drivers never include this.
 *
 * A host controller driver fills a struct usb_bus (its ops and root port
 * count) and calls usb_bus_register(), then reports root port changes
 * with usb_bus_port_event() from any context.  The core owns the device
 * tree: it resets ports (root ones through ops, hub ports through hub
 * requests), creates the struct usb_device with its route and TT fields
 * set, and asks the controller to address and configure it.
 *
 * Lock legend: [I] immutable after usb_bus_register; [b] ub_lock (irqsave).
 */
#ifndef DRIVERS_USB_USB_HCD_H
#define DRIVERS_USB_USB_HCD_H

#include "drivers/usb/usb.h"
#include "kernel/spinlock.h"
#include "kernel/work.h"

#define USB_MAX_ROOT_PORTS	32	/* root ports the core tracks per bus */

/* Root port status as the core reads it (hub-class wPortStatus subset). */
struct usb_port_status {
	bool		ps_connected;
	bool		ps_enabled;
	bool		ps_changed;		/* connect change seen since last read */
	enum usb_speed	ps_speed;		/* valid when enabled */
};

struct usb_hcd_ops {
	/* Root port @port (1-based): status, clearing its change bits. */
	int	(*port_status)(struct usb_bus *bus, unsigned port, struct usb_port_status *ps);
	/* Reset and enable root port @port; its speed into *speed. Bounded. */
	int	(*port_reset)(struct usb_bus *bus, unsigned port, enum usb_speed *speed);
	/*
	 * A new device (ud_speed, route, root port, TT fields set): give it
	 * a slot and an address, ep0 ready with the default max packet size.
	 */
	int	(*dev_alloc)(struct usb_bus *bus, struct usb_device *dev);
	/* ep0's max packet size changed (read from the device descriptor). */
	int	(*dev_set_ep0)(struct usb_bus *bus, struct usb_device *dev, u16 maxp);
	/* Configure every endpoint of dev's interfaces (and hub fields). */
	int	(*dev_configure)(struct usb_bus *bus, struct usb_device *dev);
	/* Gone or done: fail its URBs with -ENODEV and release the slot. */
	void	(*dev_free)(struct usb_bus *bus, struct usb_device *dev);
	/*
	 * Queue a transfer; @setup non-NULL for a control transfer on ep0.
	 * Any context.  0 or -errno as usb_submit_urb.
	 */
	int	(*submit)(struct usb_bus *bus, struct urb *urb, const struct usb_ctrlrequest *setup);
	/* Cancel, asynchronously: the URB completes -ECONNRESET. Any context. */
	int	(*unlink)(struct usb_bus *bus, struct urb *urb);
	/* The host side of a halted endpoint: reset it and skip what is queued. */
	int	(*ep_reset)(struct usb_bus *bus, struct usb_device *dev, u8 ep);
};

struct usb_bus {
	unsigned			ub_num;		/* [I] bus number, 1-based */
	const char			*ub_name;	/* [I] the controller, "xhci0" */
	const struct usb_hcd_ops	*ub_ops;	/* [I] */
	void				*ub_hcpriv;	/* [I] the controller's softc */
	unsigned			ub_nports;	/* [I] root ports */
	spinlock_t			ub_lock;
	struct usb_device		*ub_root[USB_MAX_ROOT_PORTS];	/* [b] per root port */
	u32				ub_port_events;	/* [b] bit p-1: root port p changed */
	u32				ub_hub_events;	/* [b] bumped by hub status URBs */
	struct list_head		ub_devices;	/* [b] every usb_device */
	struct list_head		ub_link;	/* [b] on the list of buses */
	struct work			ub_work;	/* hot plug: ports and hubs */
	bool				ub_work_running;	/* [b] */
	bool				ub_dead;	/* [b] controller died */
};

/* usb_core.c, for host controller drivers. */
int usb_bus_register(struct usb_bus *bus);
void usb_bus_port_event(struct usb_bus *bus, unsigned port);
/* Complete an URB: status and actual set; called without HC locks. */
void usb_urb_done(struct urb *urb, int status, u32 actual);

/* usb_core.c, for usb_hub.c and lsusb. */
struct usb_device *usb_enumerate(struct usb_bus *bus, struct usb_device *parent,
				 unsigned port, enum usb_speed speed);
void usb_disconnect(struct usb_device *dev);
void usb_hub_event(struct usb_bus *bus);
struct usb_bus *usb_bus_first(void);
struct usb_bus *usb_bus_next(struct usb_bus *bus);

/* usb_hub.c: handle one hub's port changes (from the bus work). */
void usb_hub_poll(struct usb_device *hub);

#endif
