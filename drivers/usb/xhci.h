/*
 * The xHCI driver's shared state: the controller softc, its device slots
 * and their endpoint rings, and the calls its files make into each other
 * (xhci.c bring-up and interrupt, xhci_cmd.c command ring, xhci_xfer.c
 * transfers, xhci_port.c root ports and the usb_bus ops, xhci_pci.c the
 * PCI glue).  Nothing outside drivers/usb/xhci*.c includes this.
 *
 * Lock legend:
 *	[I] set at attach, immutable afterwards
 *	[x] sc_lock (irqsave): rings, slots' endpoint state, command waits
 *	[w] the bus work (hot plug) or the probe path, never concurrently
 */
#ifndef DRIVERS_USB_XHCI_H
#define DRIVERS_USB_XHCI_H

#include "drivers/usb/usb_hcd.h"
#include "drivers/usb/xhci_ring.h"
#include "kernel/completion.h"
#include "kernel/io.h"
#include "kernel/irq.h"
#include "kernel/spinlock.h"
#include "kernel/work.h"

struct pci_dev;

/* Tunables, ms unless said otherwise. */
#define XHCI_HANDOFF_MS		1000	/* BIOS lets go of USBLEGSUP (7.1.1) */
#define XHCI_HALT_MS		100	/* USBSTS.HCH after RS = 0 (16 ms by 5.4.1) */
#define XHCI_RESET_MS		1000	/* HCRST and CNR clear */
#define XHCI_CMD_MS		2000	/* one command's completion event */
#define XHCI_PORT_RESET_MS	500	/* PORTSC.PRC after PR */
#define XHCI_RING_TRBS		256	/* one page per ring, Link TRB included */
#define XHCI_EVENT_TRBS		256	/* one page of event ring */
#define XHCI_MAX_PORTS		USB_MAX_ROOT_PORTS

struct xhci_softc;

struct xhci_cmd {
	struct completion	xc_done;
	u32			xc_cc;		/* completion code */
	u32			xc_slot;	/* slot id from the event */
};

struct xhci_ep {
	struct xhci_ring	xe_ring;	/* [x] */
	struct list_head	xe_urbs;	/* [x] submitted URBs, ring order */
	u8			xe_dci;		/* [I] device context index */
	u16			xe_maxp;	/* [x] max packet size */
	bool			xe_on;		/* [x] ring allocated and configured */
	bool			xe_halted;	/* [x] stalled: refuse until ep_reset */
	bool			xe_stopping;	/* [x] cancel in progress */
};

struct xhci_slot {
	u8			xs_id;		/* [I] */
	struct usb_device	*xs_dev;	/* [I] */
	u32			*xs_in;		/* [w] input context page */
	dma_addr_t		xs_in_dma;
	u32			*xs_out;	/* [I] output device context page */
	unsigned		xs_maxdci;	/* [w] highest DCI configured */
	dma_addr_t		xs_out_dma;
	struct xhci_ep		xs_ep[XHCI_MAX_DCI + 1];	/* [x] by DCI */
};

struct xhci_softc {
	char			sc_name[12];	/* [I] "xhci0" */
	unsigned		sc_unit;	/* [I] */
	struct pci_dev		*sc_pci;	/* [I] */
	int			sc_irq;		/* [I] */
	volatile u8		*sc_cap;	/* [I] capability registers */
	volatile u8		*sc_op;		/* [I] operational */
	volatile u8		*sc_rt;		/* [I] runtime */
	volatile u8		*sc_db;		/* [I] doorbells */
	u32			sc_hcs1, sc_hcs2, sc_hcc1;	/* [I] */
	unsigned		sc_maxslots;	/* [I] slots enabled */
	unsigned		sc_nports;	/* [I] */
	unsigned		sc_ctxsize;	/* [I] 32 or 64 bytes (CSZ) */
	u8			sc_port_major[XHCI_MAX_PORTS + 1];	/* [I] 2 or 3 */
	spinlock_t		sc_lock;
	u64			*sc_dcbaa;	/* [x] device context base array */
	dma_addr_t		sc_dcbaa_dma;
	u64			*sc_spad;	/* [I] scratchpad array */
	unsigned		sc_nspad;	/* [I] */
	struct xhci_ring	sc_cmdr;	/* [x] command ring */
	struct xhci_cmd		*sc_cmd_wait[XHCI_RING_TRBS];	/* [x] by command TRB index */
	struct xhci_ring	sc_evr;		/* [x] event ring (interrupter 0) */
	struct xhci_erst_entry	*sc_erst;	/* [I] one segment */
	dma_addr_t		sc_erst_dma;
	struct xhci_slot	*sc_slot[256];	/* [x] by slot id */
	struct usb_bus		sc_bus;		/* [I] what the USB core sees */
	struct work		sc_hse_work;	/* controller died: reset it */
	struct work		sc_cancel_work;	/* usb_unlink_urb from interrupt context */
	bool			sc_dead;	/* [x] HSE seen, reset pending */
	u64			sc_events;	/* [x] events handled, for lsusb -v */
};

static inline u32 xhci_cap_read(struct xhci_softc *sc, unsigned reg)
{
	return readl(sc->sc_cap + reg);
}

static inline u32 xhci_op_read(struct xhci_softc *sc, unsigned reg)
{
	return readl(sc->sc_op + reg);
}

static inline void xhci_op_write(struct xhci_softc *sc, unsigned reg, u32 v)
{
	writel(sc->sc_op + reg, v);
}

/* 64-bit registers as two dwords, low first (5.1). */
static inline void xhci_op_write64(struct xhci_softc *sc, unsigned reg, u64 v)
{
	writel(sc->sc_op + reg, (u32)v);
	writel(sc->sc_op + reg + 4, (u32)(v >> 32));
}

static inline u32 xhci_ir_read(struct xhci_softc *sc, unsigned reg)
{
	return readl(sc->sc_rt + XHCI_IR(0) + reg);
}

static inline void xhci_ir_write(struct xhci_softc *sc, unsigned reg, u32 v)
{
	writel(sc->sc_rt + XHCI_IR(0) + reg, v);
}

static inline void xhci_ir_write64(struct xhci_softc *sc, unsigned reg, u64 v)
{
	writel(sc->sc_rt + XHCI_IR(0) + reg, (u32)v);
	writel(sc->sc_rt + XHCI_IR(0) + reg + 4, (u32)(v >> 32));
}

static inline void xhci_ring_doorbell(struct xhci_softc *sc, unsigned slot, unsigned target)
{
	writel(sc->sc_db + XHCI_DB(slot), target);
}

/* Context i (0 = slot, DCI n = n) of a device context, or of an input context + 1. */
static inline u32 *xhci_ctx(struct xhci_softc *sc, u32 *base, unsigned i)
{
	return (u32 *)((u8 *)base + i * sc->sc_ctxsize);
}

/* xhci.c */
int xhci_attach(struct xhci_softc *sc);
void xhci_detach(struct xhci_softc *sc);
irqreturn_t xhci_intr(unsigned irq, void *data);
void *xhci_dma_page(dma_addr_t *dma);
void xhci_dma_free(void *p);

/* xhci_cmd.c */
int xhci_cmd_run(struct xhci_softc *sc, u64 param, u32 status, u32 control, u32 *slot);
void xhci_cmd_event(struct xhci_softc *sc, const struct xhci_trb *ev);
void xhci_cmd_fail_all(struct xhci_softc *sc);
int xhci_cc_errno(u32 cc);

/* xhci_xfer.c */
extern const struct usb_hcd_ops xhci_bus_ops;
void xhci_xfer_event(struct xhci_softc *sc, const struct xhci_trb *ev, struct list_head *done);
void xhci_ep_fail(struct xhci_softc *sc, struct xhci_ep *ep, int status, struct list_head *done);
void xhci_urbs_complete(struct list_head *done);
void xhci_cancel_work(struct work *w);

/* xhci_dev.c */
int xhci_dev_alloc(struct usb_bus *bus, struct usb_device *dev);
int xhci_dev_set_ep0(struct usb_bus *bus, struct usb_device *dev, u16 maxp);
int xhci_dev_configure(struct usb_bus *bus, struct usb_device *dev);
void xhci_dev_free(struct usb_bus *bus, struct usb_device *dev);
int xhci_ep_reset(struct usb_bus *bus, struct usb_device *dev, u8 epaddr);
int xhci_set_deq(struct xhci_softc *sc, struct xhci_slot *s, struct xhci_ep *ep);

/* xhci_port.c */
int xhci_port_status(struct usb_bus *bus, unsigned port, struct usb_port_status *ps);
int xhci_port_reset(struct usb_bus *bus, unsigned port, enum usb_speed *speed);
void xhci_port_power(struct xhci_softc *sc);
int xhci_read_protocols(struct xhci_softc *sc);

#endif
