/*
 * xHCI transfers (xHCI 1.2, 4.11 TRBs, 4.10 Transfer Ring management,
 * 4.11.2.2 control transfers, 4.6.9 Stop Endpoint for cancel): the usb_bus
 * ops that put URBs on endpoint rings, the Transfer Event handler that
 * finishes them, and cancellation.
 *
 * A URB becomes one TD of Normal TRBs (a Setup, Data and Status TD for
 * control), split so that no TRB crosses a 64 KiB boundary, with ISP on
 * every data TRB so a short packet ends the TD with an event, and IOC on
 * the last.  URBs on an endpoint complete in ring order; each remembers
 * its first and last TRB index.  A stall, babble or transaction error
 * halts the endpoint: the URB fails (-EPIPE, -EOVERFLOW, -EPROTO) and
 * the endpoint refuses new URBs until ep_reset (usb_clear_halt).
 *
 * Completions are collected under sc_lock on a local list and run by
 * xhci_urbs_complete() after it is dropped, so a completion may resubmit.
 */
#include "drivers/usb/xhci.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/mm/page.h"
#include "kernel/printk.h"
#include "kernel/time.h"

static unsigned xhci_dci_of(u8 epaddr)
{
	unsigned num = epaddr & USB_ENDPOINT_NUMBER_MASK;

	return num == 0 ? 1 : num * 2 + ((epaddr & USB_DIR_IN) ? 1 : 0);
}

/* TRBs the data of urb needs, or 0 when its list does not add up to urb_len. */
static unsigned xhci_urb_trbs(const struct urb *urb)
{
	unsigned i, n = 0;
	u32 sum = 0;

	if (!urb->urb_len)
		return 1;
	if (!urb->urb_sg)
		return xhci_td_trbs(__pa(urb->urb_buf), urb->urb_len, NULL);
	for (i = 0; i < urb->urb_nsg; i++) {
		const struct usb_sg *sg = &urb->urb_sg[i];

		if (!sg->sg_len || sg->sg_offset >= PAGE_SIZE)
			return 0;
		sum += sg->sg_len;
		n += xhci_td_trbs(page_to_phys(sg->sg_page) + sg->sg_offset, sg->sg_len, NULL);
	}
	return sum == urb->urb_len ? n : 0;
}

/*
 * Put the data TRBs of urb on r: type first_type for the first one
 * (Data for a control transfer, Normal otherwise), chained, ISP on each,
 * TD Size per 4.11.2.4, dir_in for a Data stage.  Returns the last index.
 */
static unsigned xhci_put_data(struct xhci_ring *r, const struct urb *urb, u16 maxp,
			      unsigned first_type, u32 dir_flag, bool last_ioc)
{
	u32 done = 0, total = urb->urb_len;
	unsigned i = 0, nseg = urb->urb_sg ? urb->urb_nsg : 1, idx = 0;
	unsigned type = first_type;

	for (i = 0; i < nseg; i++) {
		dma_addr_t a = urb->urb_sg ? page_to_phys(urb->urb_sg[i].sg_page) +
				urb->urb_sg[i].sg_offset : __pa(urb->urb_buf);
		u32 len = urb->urb_sg ? urb->urb_sg[i].sg_len : total;

		while (len) {
			u32 room = (u32)(0x10000 - (a & 0xffff));
			u32 chunk = len < room ? len : room;
			u32 left, ctl;

			done += chunk;
			left = total - done;
			ctl = XHCI_TRB_TYPE(type) | XHCI_TRB_ISP | dir_flag;
			if (left)
				ctl |= XHCI_TRB_CH;
			else if (last_ioc)
				ctl |= XHCI_TRB_IOC;
			idx = xhci_ring_put(r, a, XHCI_TRB_LEN(chunk) |
					    XHCI_TRB_TDSIZE(left ? DIV_ROUND_UP(left, maxp) : 0), ctl);
			type = XHCI_TRB_NORMAL;
			a += chunk;
			len -= chunk;
		}
	}
	return idx;
}

static int xhci_submit(struct usb_bus *bus, struct urb *urb, const struct usb_ctrlrequest *setup)
{
	struct xhci_softc *sc = bus->ub_hcpriv;
	struct usb_device *dev = urb->urb_dev;
	struct xhci_slot *s = dev->ud_hcpriv;
	bool in = setup ? (setup->bRequestType & USB_DIR_IN) : (urb->urb_ep & USB_DIR_IN);
	struct xhci_ep *ep;
	struct xhci_ring *r;
	unsigned long flags;
	unsigned need, dci;
	int ret = 0;

	if (!s || usb_device_gone(dev))
		return -ENODEV;
	if (urb->urb_len > USB_URB_MAX_LEN || (urb->urb_sg && urb->urb_nsg > USB_URB_MAX_SG) ||
	    (urb->urb_len && !urb->urb_buf && !urb->urb_sg))
		return -EINVAL;
	dci = setup ? 1 : xhci_dci_of(urb->urb_ep);
	ep = &s->xs_ep[dci];
	need = xhci_urb_trbs(urb);
	if (!need)
		return -EINVAL;
	need += (setup ? 2 : 0) + 1;
	r = &ep->xe_ring;

	spin_lock_irqsave(&sc->sc_lock, flags);
	if (sc->sc_dead || usb_device_gone(dev)) {
		ret = -ENODEV;
		goto out;
	}
	if (!ep->xe_on) {
		ret = -EINVAL;
		goto out;
	}
	if (ep->xe_halted) {
		ret = -EPIPE;
		goto out;
	}
	if (urb->urb_active || xhci_ring_free(r) < need) {
		ret = -EBUSY;
		goto out;
	}
	urb->urb_status = 0;
	urb->urb_actual = urb->urb_len;
	urb->urb_hc_cancel = false;
	urb->urb_hc_control = setup != NULL;
	urb->urb_hcpriv = ep;
	if (setup) {
		u64 pkt;
		u32 trt = !urb->urb_len ? XHCI_TRT_NO_DATA : in ? XHCI_TRT_IN : XHCI_TRT_OUT;

		__builtin_memcpy(&pkt, setup, sizeof(pkt));
		urb->urb_hc_first = xhci_ring_put(r, pkt, XHCI_TRB_LEN(8),
						  XHCI_TRB_TYPE(XHCI_TRB_SETUP) | XHCI_TRB_IDT |
						  XHCI_TRB_TRT(trt));
		if (urb->urb_len)
			xhci_put_data(r, urb, ep->xe_maxp, XHCI_TRB_DATA,
				      in ? XHCI_TRB_DIR_IN : 0, false);
		/* Status stage: the opposite direction, IN when there is no data (4.11.2.2). */
		urb->urb_hc_last = xhci_ring_put(r, 0, 0, XHCI_TRB_TYPE(XHCI_TRB_STATUS) |
						 XHCI_TRB_IOC |
						 ((in && urb->urb_len) ? 0 : XHCI_TRB_DIR_IN));
	} else {
		bool zlp = !in && (urb->urb_flags & URB_ZERO_PACKET) && urb->urb_len &&
			   urb->urb_len % ep->xe_maxp == 0;

		urb->urb_hc_first = r->xr_enq;
		if (urb->urb_len)
			urb->urb_hc_last = xhci_put_data(r, urb, ep->xe_maxp, XHCI_TRB_NORMAL, 0, !zlp);
		if (!urb->urb_len || zlp)
			urb->urb_hc_last = xhci_ring_put(r, 0, 0, XHCI_TRB_TYPE(XHCI_TRB_NORMAL) |
							 XHCI_TRB_IOC);
	}
	urb->urb_active = true;
	list_add_tail(&urb->urb_hclink, &ep->xe_urbs);
	xhci_ring_commit(r);
	xhci_ring_doorbell(sc, s->xs_id, dci);
out:
	spin_unlock_irqrestore(&sc->sc_lock, flags);
	return ret;
}

/* Is ring index idx within [first, last] going forward around the ring? */
static bool xhci_in_td(const struct xhci_ring *r, unsigned first, unsigned last, unsigned idx)
{
	unsigned i = first, guard = 0;

	for (;;) {
		if (i == idx)
			return true;
		if (i == last || guard++ > r->xr_n)
			return false;
		i = xhci_ring_next(r, i);
	}
}

/* Bytes of data TRBs from first through idx (Setup and Status have none to count). */
static u32 xhci_td_bytes(const struct xhci_ring *r, unsigned first, unsigned idx)
{
	unsigned i = first, guard = 0;
	u32 sum = 0;

	for (;;) {
		const struct xhci_trb *t = &r->xr_trbs[i];
		unsigned type = XHCI_TRB_GET_TYPE(t->trb_control);

		if (type == XHCI_TRB_NORMAL || type == XHCI_TRB_DATA)
			sum += XHCI_TRB_LEN(t->trb_status);
		if (i == idx || guard++ > r->xr_n)
			return sum;
		i = xhci_ring_next(r, i);
	}
}

/* sc_lock held: take urb off its endpoint, onto done, with this result. */
static void xhci_urb_finish(struct xhci_ep *ep, struct urb *urb, int status, u32 actual,
			    struct list_head *done)
{
	list_del(&urb->urb_hclink);
	ep->xe_ring.xr_deq = xhci_ring_next(&ep->xe_ring, urb->urb_hc_last);
	urb->urb_status = status;
	urb->urb_actual = actual;
	list_add_tail(&urb->urb_hclink, done);
}

/* Interrupt context, sc_lock held: one Transfer Event (6.4.2.1). */
void xhci_xfer_event(struct xhci_softc *sc, const struct xhci_trb *ev, struct list_head *done)
{
	unsigned slot = XHCI_TRB_GET_SLOT(ev->trb_control), dci = XHCI_TRB_GET_EP(ev->trb_control);
	u32 cc = XHCI_EVT_CC(ev->trb_status), residual = XHCI_EVT_LEN(ev->trb_status);
	struct xhci_slot *s = slot ? sc->sc_slot[slot] : NULL;
	struct xhci_ep *ep;
	struct urb *urb, *found = NULL;
	int idx;

	if (!s || dci < 1 || dci > XHCI_MAX_DCI || (ev->trb_control & XHCI_TRB_ED))
		return;
	ep = &s->xs_ep[dci];
	idx = xhci_ring_index(&ep->xe_ring, ev->trb_param);
	if (idx < 0)
		return;
	list_for_each_entry(urb, &ep->xe_urbs, urb_hclink)
		if (xhci_in_td(&ep->xe_ring, urb->urb_hc_first, urb->urb_hc_last, (unsigned)idx)) {
			found = urb;
			break;
		}
	if (!found)
		return;
	urb = found;

	if (cc == XHCI_CC_SUCCESS || cc == XHCI_CC_SHORT_PACKET) {
		u32 bytes = xhci_td_bytes(&ep->xe_ring, urb->urb_hc_first, (unsigned)idx);
		u32 actual = bytes > residual ? bytes - residual : 0;

		if (urb->urb_hc_control) {
			if ((unsigned)idx != urb->urb_hc_last) {
				urb->urb_actual = actual;	/* short Data stage; Status follows */
				return;
			}
			actual = urb->urb_actual;
		} else if ((unsigned)idx != urb->urb_hc_last && cc != XHCI_CC_SHORT_PACKET) {
			return;		/* an intermediate TRB's event: not ours to end */
		}
		xhci_urb_finish(ep, urb, (actual < urb->urb_len && (urb->urb_flags & URB_SHORT_NOT_OK)) ?
				-EREMOTEIO : 0, actual, done);
		return;
	}
	if (cc == XHCI_CC_STOPPED || cc == XHCI_CC_STOPPED_LEN_INVALID ||
	    cc == XHCI_CC_STOPPED_SHORT)
		return;		/* Stop Endpoint for a cancel: the cancel path finishes it */
	/* Stall, babble, transaction error...: the endpoint is Halted (4.10.2). */
	ep->xe_halted = true;
	{
		u32 bytes = xhci_td_bytes(&ep->xe_ring, urb->urb_hc_first, (unsigned)idx);
		int err = xhci_cc_errno(cc);

		/* A device pulled out mid-transfer: say so, not "transaction error". */
		if (err != -EPIPE && s->xs_dev &&
		    !(xhci_op_read(sc, XHCI_PORTSC(s->xs_dev->ud_root_port)) & XHCI_PS_CCS))
			err = -ENODEV;

		xhci_urb_finish(ep, urb, err ? err : -EIO, bytes > residual ? bytes - residual : 0,
				done);
	}
}

/* sc_lock held: every URB on ep to done with status (device gone, reset). */
void xhci_ep_fail(struct xhci_softc *sc, struct xhci_ep *ep, int status, struct list_head *done)
{
	struct urb *urb, *n;

	if (!ep->xe_urbs.next)
		return;		/* never set up */
	list_for_each_entry_safe(urb, n, &ep->xe_urbs, urb_hclink) {
		list_del(&urb->urb_hclink);
		urb->urb_status = status;
		urb->urb_actual = 0;
		list_add_tail(&urb->urb_hclink, done);
	}
	ep->xe_ring.xr_deq = ep->xe_ring.xr_enq;
}

/* Without sc_lock: run each finished URB's completion. */
void xhci_urbs_complete(struct list_head *done)
{
	struct urb *urb, *n;

	list_for_each_entry_safe(urb, n, done, urb_hclink) {
		list_del(&urb->urb_hclink);
		usb_urb_done(urb, urb->urb_status, urb->urb_actual);
	}
}

/* Turn a TD into No-Ops the controller skips (keeping cycle and chain bits). */
static void xhci_td_noop(struct xhci_ring *r, unsigned first, unsigned last)
{
	unsigned i = first, guard = 0;

	for (;;) {
		struct xhci_trb *t = &r->xr_trbs[i];
		u32 keep = t->trb_control & (XHCI_TRB_C | XHCI_TRB_CH);

		t->trb_control = XHCI_TRB_TYPE(XHCI_TRB_NOOP) | keep;
		if (i == last || guard++ > r->xr_n)
			return;
		i = xhci_ring_next(r, i);
	}
}

/*
 * Cancel the URBs marked urb_hc_cancel on one endpoint: Stop Endpoint
 * (4.6.9), then either move the dequeue pointer past an emptied ring or
 * turn the cancelled TDs into No-Ops, complete them -ECONNRESET, restart.
 */
static void xhci_cancel_ep(struct xhci_softc *sc, struct xhci_slot *s, struct xhci_ep *ep)
{
	struct list_head done;
	struct urb *urb, *n;
	unsigned long flags;
	bool any = false, all = true;

	spin_lock_irqsave(&sc->sc_lock, flags);
	list_for_each_entry(urb, &ep->xe_urbs, urb_hclink) {
		if (urb->urb_hc_cancel)
			any = true;
		else
			all = false;
	}
	spin_unlock_irqrestore(&sc->sc_lock, flags);
	if (!any)
		return;
	xhci_cmd_run(sc, 0, 0, XHCI_TRB_TYPE(XHCI_TRB_STOP_EP) | XHCI_TRB_EP(ep->xe_dci) |
		     XHCI_TRB_SLOT(s->xs_id), NULL);
	INIT_LIST_HEAD(&done);
	spin_lock_irqsave(&sc->sc_lock, flags);
	list_for_each_entry_safe(urb, n, &ep->xe_urbs, urb_hclink) {
		if (!urb->urb_hc_cancel)
			continue;
		xhci_td_noop(&ep->xe_ring, urb->urb_hc_first, urb->urb_hc_last);
		list_del(&urb->urb_hclink);
		urb->urb_status = -ECONNRESET;
		list_add_tail(&urb->urb_hclink, &done);
	}
	if (list_empty(&ep->xe_urbs))
		ep->xe_ring.xr_deq = ep->xe_ring.xr_enq;
	spin_unlock_irqrestore(&sc->sc_lock, flags);
	if (all)
		xhci_set_deq(sc, s, ep);
	xhci_urbs_complete(&done);
	spin_lock_irqsave(&sc->sc_lock, flags);
	if (!ep->xe_halted && ep->xe_on)
		xhci_ring_doorbell(sc, s->xs_id, ep->xe_dci);
	spin_unlock_irqrestore(&sc->sc_lock, flags);
}

/* Deferred work: every endpoint with a cancel request. */
void xhci_cancel_work(struct work *w)
{
	struct xhci_softc *sc = container_of(w, struct xhci_softc, sc_cancel_work);
	unsigned i, d;

	for (i = 1; i <= sc->sc_maxslots && i < 256; i++) {
		struct xhci_slot *s = sc->sc_slot[i];

		if (!s)
			continue;
		for (d = 1; d <= XHCI_MAX_DCI; d++)
			if (s->xs_ep[d].xe_on)
				xhci_cancel_ep(sc, s, &s->xs_ep[d]);
	}
}

static int xhci_unlink(struct usb_bus *bus, struct urb *urb)
{
	struct xhci_softc *sc = bus->ub_hcpriv;
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&sc->sc_lock, flags);
	if (!urb->urb_active || urb->urb_status != 0 || !urb->urb_hclink.next)
		ret = -ENOENT;
	else
		urb->urb_hc_cancel = true;
	spin_unlock_irqrestore(&sc->sc_lock, flags);
	if (!ret)
		schedule_work(&sc->sc_cancel_work);
	return ret;
}

const struct usb_hcd_ops xhci_bus_ops = {
	.port_status = xhci_port_status,
	.port_reset = xhci_port_reset,
	.dev_alloc = xhci_dev_alloc,
	.dev_set_ep0 = xhci_dev_set_ep0,
	.dev_configure = xhci_dev_configure,
	.dev_free = xhci_dev_free,
	.submit = xhci_submit,
	.unlink = xhci_unlink,
	.ep_reset = xhci_ep_reset,
};
