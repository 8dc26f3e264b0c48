/*
 * xHCI device slots (xHCI 1.2, 4.3 USB Device Initialization, 4.6.3-4.6.11
 * the slot and endpoint commands, 6.2 contexts): the usb_bus ops that give
 * a new device a slot and an address (Enable Slot, Address Device), update
 * ep0's max packet size (Evaluate Context), configure the endpoints of the
 * chosen configuration (Configure Endpoint), recover a halted endpoint
 * (Reset Endpoint + Set TR Dequeue Pointer) and release the slot (Disable
 * Slot), failing what is still queued with -ENODEV.
 *
 * Called from the USB core's enumeration and hot-plug paths, or a class
 * driver's usb_clear_halt: never from interrupt context.
 */
#include "drivers/usb/xhci.h"
#include "drivers/usb/usb_desc.h"
#include "kernel/errno.h"
#include "kernel/mm/page.h"
#include "kernel/mm/slab.h"
#include "kernel/printk.h"
#include "lib/string.h"

static const u8 xhci_speed_id[] = {
	[USB_SPEED_LOW] = XHCI_SPEED_LOW, [USB_SPEED_FULL] = XHCI_SPEED_FULL,
	[USB_SPEED_HIGH] = XHCI_SPEED_HIGH, [USB_SPEED_SUPER] = XHCI_SPEED_SUPER,
	[USB_SPEED_SUPER_PLUS] = XHCI_SPEED_SUPER_PLUS,
};

static struct xhci_softc *bus_sc(struct usb_bus *bus)
{
	return bus->ub_hcpriv;
}

/* Device context index of an endpoint address (4.5.1). */
static unsigned xhci_dci(u8 epaddr)
{
	unsigned num = epaddr & USB_ENDPOINT_NUMBER_MASK;

	if (num == 0)
		return 1;
	return num * 2 + ((epaddr & USB_DIR_IN) ? 1 : 0);
}

static int xhci_ep_ring_alloc(struct xhci_ep *ep, unsigned dci)
{
	dma_addr_t dma;
	struct xhci_trb *t = xhci_dma_page(&dma);

	if (!t)
		return -ENOMEM;
	xhci_ring_init(&ep->xe_ring, t, dma, XHCI_RING_TRBS, true);
	INIT_LIST_HEAD(&ep->xe_urbs);
	ep->xe_dci = (u8)dci;
	ep->xe_halted = false;
	return 0;
}

/* Slot context of the input context (its index 1), from the device's tree position. */
static void xhci_fill_slot_ctx(struct xhci_softc *sc, struct xhci_slot *s, unsigned entries)
{
	struct usb_device *dev = s->xs_dev;
	u32 *slot = xhci_ctx(sc, s->xs_in, 1);

	slot[0] = XHCI_SLOT0_ROUTE(dev->ud_route) | XHCI_SLOT0_SPEED(xhci_speed_id[dev->ud_speed]) |
		  XHCI_SLOT0_ENTRIES(entries);
	slot[1] = XHCI_SLOT1_ROOT_PORT(dev->ud_root_port);
	slot[2] = 0;
	if (dev->ud_tt_hub && dev->ud_tt_hub->ud_hcpriv) {
		struct xhci_slot *hub = dev->ud_tt_hub->ud_hcpriv;

		slot[2] = XHCI_SLOT2_TT_SLOT(hub->xs_id) | XHCI_SLOT2_TT_PORT(dev->ud_tt_port);
		if (dev->ud_tt_hub->ud_hub_mtt)
			slot[0] |= XHCI_SLOT0_MTT;
	}
	if (dev->ud_nports) {
		slot[0] |= XHCI_SLOT0_HUB;
		slot[1] |= XHCI_SLOT1_NPORTS(dev->ud_nports);
		if (dev->ud_speed == USB_SPEED_HIGH) {
			slot[2] |= XHCI_SLOT2_TTT(dev->ud_hub_ttt);
			if (dev->ud_hub_mtt)
				slot[0] |= XHCI_SLOT0_MTT;
		}
	}
	slot[3] = 0;
}

static void xhci_fill_ep0_ctx(struct xhci_softc *sc, struct xhci_slot *s, u16 maxp)
{
	u32 *ep = xhci_ctx(sc, s->xs_in, 2);
	struct xhci_ep *e = &s->xs_ep[1];

	memset(ep, 0, XHCI_CTX_DWORDS * 4);
	ep[1] = XHCI_EP1_CERR(3) | XHCI_EP1_TYPE(XHCI_EPT_CONTROL) | XHCI_EP1_MAXP(maxp);
	ep[2] = (u32)xhci_ring_dma(&e->xe_ring, e->xe_ring.xr_enq) | e->xe_ring.xr_cycle;
	ep[3] = (u32)(xhci_ring_dma(&e->xe_ring, e->xe_ring.xr_enq) >> 32);
	ep[4] = XHCI_EP4_AVG_TRB(8);
}

/* 4.3.2-4.3.4: Enable Slot, then Address Device with slot and ep0 contexts. */
int xhci_dev_alloc(struct usb_bus *bus, struct usb_device *dev)
{
	struct xhci_softc *sc = bus_sc(bus);
	struct xhci_slot *s;
	unsigned long flags;
	u32 id = 0;
	int ret;

	ret = xhci_cmd_run(sc, 0, 0, XHCI_TRB_TYPE(XHCI_TRB_ENABLE_SLOT), &id);
	if (ret)
		return ret;
	if (id == 0 || id > sc->sc_maxslots)
		return -EIO;
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s) {
		ret = -ENOMEM;
		goto disable;
	}
	s->xs_id = (u8)id;
	s->xs_dev = dev;
	s->xs_in = xhci_dma_page(&s->xs_in_dma);
	s->xs_out = xhci_dma_page(&s->xs_out_dma);
	ret = -ENOMEM;
	if (!s->xs_in || !s->xs_out)
		goto free;
	ret = xhci_ep_ring_alloc(&s->xs_ep[1], 1);
	if (ret)
		goto free;
	s->xs_ep[1].xe_on = true;
	s->xs_ep[1].xe_maxp = usb_ep0_default_maxp(dev->ud_speed);

	spin_lock_irqsave(&sc->sc_lock, flags);
	sc->sc_dcbaa[id] = s->xs_out_dma;
	sc->sc_slot[id] = s;
	spin_unlock_irqrestore(&sc->sc_lock, flags);
	dev->ud_hcpriv = s;

	memset(s->xs_in, 0, PAGE_SIZE);
	s->xs_in[XHCI_ICC_ADD] = (1u << 0) | (1u << 1);
	xhci_fill_slot_ctx(sc, s, 1);
	xhci_fill_ep0_ctx(sc, s, usb_ep0_default_maxp(dev->ud_speed));
	ret = xhci_cmd_run(sc, s->xs_in_dma, 0, XHCI_TRB_TYPE(XHCI_TRB_ADDRESS_DEVICE) |
			   XHCI_TRB_SLOT(id), NULL);
	if (ret) {
		pr_err("%s: port %s: Address Device failed (%s)\n", sc->sc_name, dev->ud_path,
		       errstr(ret));
		goto unhook;
	}
	dev->ud_addr = (u8)XHCI_SLOT3_ADDR(xhci_ctx(sc, s->xs_out, 0)[3]);
	return 0;
unhook:
	spin_lock_irqsave(&sc->sc_lock, flags);
	sc->sc_dcbaa[id] = 0;
	sc->sc_slot[id] = NULL;
	spin_unlock_irqrestore(&sc->sc_lock, flags);
	dev->ud_hcpriv = NULL;
	xhci_dma_free(s->xs_ep[1].xe_ring.xr_trbs);
free:
	xhci_dma_free(s->xs_in);
	xhci_dma_free(s->xs_out);
	kfree(s);
disable:
	xhci_cmd_run(sc, 0, 0, XHCI_TRB_TYPE(XHCI_TRB_DISABLE_SLOT) | XHCI_TRB_SLOT(id), NULL);
	return ret;
}

/* 4.6.7 Evaluate Context: ep0's max packet size once the descriptor says it. */
int xhci_dev_set_ep0(struct usb_bus *bus, struct usb_device *dev, u16 maxp)
{
	struct xhci_softc *sc = bus_sc(bus);
	struct xhci_slot *s = dev->ud_hcpriv;
	u32 *ep;

	memset(s->xs_in, 0, PAGE_SIZE);
	s->xs_in[XHCI_ICC_ADD] = 1u << 1;
	ep = xhci_ctx(sc, s->xs_in, 2);
	ep[1] = XHCI_EP1_CERR(3) | XHCI_EP1_TYPE(XHCI_EPT_CONTROL) | XHCI_EP1_MAXP(maxp);
	s->xs_ep[1].xe_maxp = maxp;
	return xhci_cmd_run(sc, s->xs_in_dma, 0, XHCI_TRB_TYPE(XHCI_TRB_EVALUATE_CTX) |
			    XHCI_TRB_SLOT(s->xs_id), NULL);
}

/*
 * The Interval field (6.2.3.6): 2^Interval x 125 us.  High/SuperSpeed
 * give an exponent + 1; full/low-speed interrupt endpoints give frames.
 */
static u32 xhci_interval(const struct usb_device *dev, const struct usb_host_endpoint *e)
{
	unsigned v = e->ep_interval, i;

	if (e->ep_type != USB_ENDPOINT_XFER_INT && e->ep_type != USB_ENDPOINT_XFER_ISOC)
		return 0;
	if (dev->ud_speed >= USB_SPEED_HIGH || e->ep_type == USB_ENDPOINT_XFER_ISOC) {
		v = v < 1 ? 1 : v > 16 ? 16 : v;
		return v - 1 + (dev->ud_speed >= USB_SPEED_HIGH ? 0 : 3);
	}
	if (v < 1)
		v = 1;
	for (i = 3; i < 10 && (1u << (i + 1)) <= v * 8; i++)
		;
	return i;
}

static u32 xhci_ep_type(const struct usb_host_endpoint *e)
{
	bool in = e->ep_addr & USB_DIR_IN;

	switch (e->ep_type) {
	case USB_ENDPOINT_XFER_BULK:
		return in ? XHCI_EPT_BULK_IN : XHCI_EPT_BULK_OUT;
	case USB_ENDPOINT_XFER_INT:
		return in ? XHCI_EPT_INT_IN : XHCI_EPT_INT_OUT;
	default:
		return in ? XHCI_EPT_ISOC_IN : XHCI_EPT_ISOC_OUT;
	}
}

/* 4.3.5 / 4.6.6 Configure Endpoint: every endpoint of every interface kept. */
int xhci_dev_configure(struct usb_bus *bus, struct usb_device *dev)
{
	struct xhci_softc *sc = bus_sc(bus);
	struct xhci_slot *s = dev->ud_hcpriv;
	unsigned i, j, maxdci = s->xs_maxdci ? s->xs_maxdci : 1;
	int ret;

	memset(s->xs_in, 0, PAGE_SIZE);
	s->xs_in[XHCI_ICC_ADD] = 1u << 0;
	for (i = 0; i < dev->ud_nintf; i++) {
		struct usb_interface *intf = &dev->ud_intf[i];

		for (j = 0; j < intf->intf_nep; j++) {
			struct usb_host_endpoint *e = intf->intf_ep[j];
			unsigned dci = xhci_dci(e->ep_addr);
			struct xhci_ep *xe = &s->xs_ep[dci];
			u32 *ctx = xhci_ctx(sc, s->xs_in, dci + 1);
			u32 esit = (u32)e->ep_maxp * (e->ep_mult + 1u) * (e->ep_burst + 1u);

			if (e->ep_type == USB_ENDPOINT_XFER_ISOC)
				continue;	/* no isochronous class driver */
			if (xe->xe_on)
				continue;	/* a second call (hub fields): slot context only */
			if (!xe->xe_ring.xr_trbs) {
				ret = xhci_ep_ring_alloc(xe, dci);
				if (ret)
					return ret;
			}
			ctx[0] = XHCI_EP0_INTERVAL(xhci_interval(dev, e)) | XHCI_EP0_MULT(0);
			ctx[1] = XHCI_EP1_CERR(3) | XHCI_EP1_TYPE(xhci_ep_type(e)) |
				 XHCI_EP1_BURST(e->ep_burst) | XHCI_EP1_MAXP(e->ep_maxp);
			ctx[2] = (u32)xe->xe_ring.xr_dma | xe->xe_ring.xr_cycle;
			ctx[3] = (u32)(xe->xe_ring.xr_dma >> 32);
			ctx[4] = e->ep_type == USB_ENDPOINT_XFER_INT ?
				 XHCI_EP4_AVG_TRB(esit) | XHCI_EP4_MAX_ESIT(esit) : XHCI_EP4_AVG_TRB(3072);
			s->xs_in[XHCI_ICC_ADD] |= 1u << dci;
			if (dci > maxdci)
				maxdci = dci;
			e->ep_hcpriv = xe;
			xe->xe_maxp = e->ep_maxp;
		}
	}
	xhci_fill_slot_ctx(sc, s, maxdci);
	ret = xhci_cmd_run(sc, s->xs_in_dma, 0, XHCI_TRB_TYPE(XHCI_TRB_CONFIGURE_EP) |
			   XHCI_TRB_SLOT(s->xs_id), NULL);
	if (ret) {
		pr_err("%s: port %s: Configure Endpoint failed (%s)\n", sc->sc_name, dev->ud_path,
		       errstr(ret));
		return ret;
	}
	for (i = 2; i <= XHCI_MAX_DCI; i++)
		if (s->xs_in[XHCI_ICC_ADD] & (1u << i))
			s->xs_ep[i].xe_on = true;
	s->xs_maxdci = maxdci;
	return 0;
}

/* 4.6.4 Disable Slot after failing everything still queued with -ENODEV. */
void xhci_dev_free(struct usb_bus *bus, struct usb_device *dev)
{
	struct xhci_softc *sc = bus_sc(bus);
	struct xhci_slot *s = dev->ud_hcpriv;
	struct list_head done;
	unsigned long flags;
	unsigned i;

	if (!s)
		return;
	INIT_LIST_HEAD(&done);
	spin_lock_irqsave(&sc->sc_lock, flags);
	for (i = 1; i <= XHCI_MAX_DCI; i++)
		if (s->xs_ep[i].xe_ring.xr_trbs) {
			xhci_ep_fail(sc, &s->xs_ep[i], -ENODEV, &done);
			s->xs_ep[i].xe_on = false;
		}
	spin_unlock_irqrestore(&sc->sc_lock, flags);
	xhci_urbs_complete(&done);

	xhci_cmd_run(sc, 0, 0, XHCI_TRB_TYPE(XHCI_TRB_DISABLE_SLOT) | XHCI_TRB_SLOT(s->xs_id), NULL);
	spin_lock_irqsave(&sc->sc_lock, flags);
	sc->sc_dcbaa[s->xs_id] = 0;
	sc->sc_slot[s->xs_id] = NULL;
	spin_unlock_irqrestore(&sc->sc_lock, flags);
	dev->ud_hcpriv = NULL;
	for (i = 1; i <= XHCI_MAX_DCI; i++)
		xhci_dma_free(s->xs_ep[i].xe_ring.xr_trbs);
	xhci_dma_free(s->xs_in);
	xhci_dma_free(s->xs_out);
	kfree(s);
}

/* 4.6.10 Set TR Dequeue Pointer to the enqueue point: the ring is empty after. */
int xhci_set_deq(struct xhci_softc *sc, struct xhci_slot *s, struct xhci_ep *ep)
{
	unsigned long flags;
	u64 ptr;
	int ret;

	spin_lock_irqsave(&sc->sc_lock, flags);
	ptr = xhci_ring_dma(&ep->xe_ring, ep->xe_ring.xr_enq) | ep->xe_ring.xr_cycle;
	spin_unlock_irqrestore(&sc->sc_lock, flags);
	ret = xhci_cmd_run(sc, ptr, 0, XHCI_TRB_TYPE(XHCI_TRB_SET_TR_DEQ) |
			   XHCI_TRB_EP(ep->xe_dci) | XHCI_TRB_SLOT(s->xs_id), NULL);
	if (!ret) {
		spin_lock_irqsave(&sc->sc_lock, flags);
		ep->xe_ring.xr_deq = ep->xe_ring.xr_enq;
		spin_unlock_irqrestore(&sc->sc_lock, flags);
	}
	return ret;
}

/*
 * 4.6.8 Reset Endpoint (a halted endpoint back to Stopped), fail what was
 * queued behind the stall with -EPIPE, then Set TR Dequeue past it.
 */
int xhci_ep_reset(struct usb_bus *bus, struct usb_device *dev, u8 epaddr)
{
	struct xhci_softc *sc = bus_sc(bus);
	struct xhci_slot *s = dev->ud_hcpriv;
	struct list_head done;
	struct xhci_ep *ep;
	unsigned long flags;
	u32 state;
	int ret;

	if (!s || usb_device_gone(dev))
		return -ENODEV;
	ep = &s->xs_ep[xhci_dci(epaddr)];
	if (!ep->xe_on)
		return -EINVAL;
	state = XHCI_EP0_STATE(xhci_ctx(sc, s->xs_out, ep->xe_dci)[0]);
	if (state == XHCI_EP_STATE_HALTED) {
		ret = xhci_cmd_run(sc, 0, 0, XHCI_TRB_TYPE(XHCI_TRB_RESET_EP) |
				   XHCI_TRB_EP(ep->xe_dci) | XHCI_TRB_SLOT(s->xs_id), NULL);
		if (ret)
			return ret;
	} else if (state == XHCI_EP_STATE_RUNNING) {
		ret = xhci_cmd_run(sc, 0, 0, XHCI_TRB_TYPE(XHCI_TRB_STOP_EP) |
				   XHCI_TRB_EP(ep->xe_dci) | XHCI_TRB_SLOT(s->xs_id), NULL);
		if (ret && ret != -EIO)
			return ret;
	}
	INIT_LIST_HEAD(&done);
	spin_lock_irqsave(&sc->sc_lock, flags);
	xhci_ep_fail(sc, ep, -EPIPE, &done);
	spin_unlock_irqrestore(&sc->sc_lock, flags);
	xhci_urbs_complete(&done);
	ret = xhci_set_deq(sc, s, ep);
	spin_lock_irqsave(&sc->sc_lock, flags);
	ep->xe_halted = false;
	spin_unlock_irqrestore(&sc->sc_lock, flags);
	return ret;
}
