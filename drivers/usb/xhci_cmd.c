/*
 * xHCI command ring (xHCI 1.2, 4.6 Command Interface, 4.9.3 Command Ring
 * Management): one synchronous call that places a command TRB, rings
 * doorbell 0 and waits (bounded) for its Command Completion Event.
 *
 * Several commands may be outstanding (a waiter runs deferred work that
 * may issue its own): each waiter is found again by the index of its TRB
 * on the ring.  A command that does not complete in XHCI_CMD_MS is
 * aborted (CRCR.CA, 4.6.1.2) and returns -ETIMEDOUT; its late event, if
 * any, finds no waiter and is dropped.  Not callable from interrupt
 * context.
 */
#include "drivers/usb/xhci.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/printk.h"

/* Completion code to the errno a URB or caller sees. */
int xhci_cc_errno(u32 cc)
{
	switch (cc) {
	case XHCI_CC_SUCCESS:
	case XHCI_CC_SHORT_PACKET:
		return 0;
	case XHCI_CC_STALL:
		return -EPIPE;
	case XHCI_CC_BABBLE:
		return -EOVERFLOW;
	case XHCI_CC_TRANSACTION:
		return -EPROTO;
	case XHCI_CC_SLOT_NOT_ENABLED:
	case XHCI_CC_EP_NOT_ENABLED:
		return -ENODEV;
	case XHCI_CC_NO_SLOTS:
	case XHCI_CC_RESOURCE:
	case XHCI_CC_BANDWIDTH:
		return -ENOSPC;
	case XHCI_CC_STOPPED:
	case XHCI_CC_STOPPED_LEN_INVALID:
	case XHCI_CC_STOPPED_SHORT:
	case XHCI_CC_CMD_ABORTED:
		return -ECONNRESET;
	default:
		return -EIO;
	}
}

/* Interrupt context, sc_lock held: wake the command's waiter. */
void xhci_cmd_event(struct xhci_softc *sc, const struct xhci_trb *ev)
{
	int idx = xhci_ring_index(&sc->sc_cmdr, ev->trb_param);
	struct xhci_cmd *c;

	if (idx < 0 || idx >= XHCI_RING_TRBS - 1)
		return;			/* a stopped-ring event (CRR) or garbage */
	/* The controller consumed everything up to this TRB. */
	sc->sc_cmdr.xr_deq = xhci_ring_next(&sc->sc_cmdr, (unsigned)idx);
	c = sc->sc_cmd_wait[idx];
	if (!c)
		return;
	sc->sc_cmd_wait[idx] = NULL;
	c->xc_cc = XHCI_EVT_CC(ev->trb_status);
	c->xc_slot = XHCI_TRB_GET_SLOT(ev->trb_control);
	complete(&c->xc_done);
}

/* The controller died: every waiter gets -ENODEV at once. */
void xhci_cmd_fail_all(struct xhci_softc *sc)
{
	unsigned long flags;
	unsigned i;

	spin_lock_irqsave(&sc->sc_lock, flags);
	for (i = 0; i < XHCI_RING_TRBS; i++) {
		struct xhci_cmd *c = sc->sc_cmd_wait[i];

		if (c) {
			sc->sc_cmd_wait[i] = NULL;
			c->xc_cc = XHCI_CC_SLOT_NOT_ENABLED;
			complete(&c->xc_done);
		}
	}
	spin_unlock_irqrestore(&sc->sc_lock, flags);
}

/**
 * xhci_cmd_run - issue one command and wait for its completion
 * @sc: the controller
 * @param, @status, @control: the TRB (control without the cycle bit)
 * @slot: if not NULL, the Slot ID of the completion event
 *
 * Returns 0 for Success, -errno from the completion code, -ETIMEDOUT,
 * -ENODEV when the controller is dead, -EBUSY when the ring is full.
 */
int xhci_cmd_run(struct xhci_softc *sc, u64 param, u32 status, u32 control, u32 *slot)
{
	struct xhci_cmd c;
	unsigned long flags;
	unsigned idx;
	int ret;

	KASSERT(!in_interrupt());
	init_completion(&c.xc_done);
	c.xc_cc = XHCI_CC_INVALID;
	c.xc_slot = 0;
	spin_lock_irqsave(&sc->sc_lock, flags);
	if (sc->sc_dead) {
		spin_unlock_irqrestore(&sc->sc_lock, flags);
		return -ENODEV;
	}
	if (xhci_ring_free(&sc->sc_cmdr) < 1) {
		spin_unlock_irqrestore(&sc->sc_lock, flags);
		return -EBUSY;
	}
	idx = xhci_ring_put(&sc->sc_cmdr, param, status, control);
	xhci_ring_commit(&sc->sc_cmdr);
	sc->sc_cmd_wait[idx] = &c;
	xhci_ring_doorbell(sc, 0, 0);
	spin_unlock_irqrestore(&sc->sc_lock, flags);

	ret = wait_for_completion_timeout(&c.xc_done, XHCI_CMD_MS);
	if (ret) {
		spin_lock_irqsave(&sc->sc_lock, flags);
		if (sc->sc_cmd_wait[idx] == &c)
			sc->sc_cmd_wait[idx] = NULL;
		spin_unlock_irqrestore(&sc->sc_lock, flags);
		if (!completion_done(&c.xc_done)) {
			pr_err("%s: command %u timed out; aborting it\n", sc->sc_name,
			       XHCI_TRB_GET_TYPE(control));
			xhci_op_write64(sc, XHCI_CRCR, XHCI_CRCR_CA);
			return -ETIMEDOUT;
		}
	}
	if (slot)
		*slot = c.xc_slot;
	if (c.xc_cc == XHCI_CC_SUCCESS)
		return 0;
	ret = xhci_cc_errno(c.xc_cc);
	return ret ? ret : -EIO;
}
