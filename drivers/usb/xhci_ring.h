/*
 * xHCI ring arithmetic (xHCI 1.2, 4.9): producer rings (command and
 * transfer rings, one segment closed by a Link TRB with Toggle Cycle) and
 * the consumer side of the event ring.  Portable: no allocation and no
 * registers, so the host unit tests run it on a plain array.
 *
 * A producer ring of n TRBs has n - 1 usable slots (the last is the
 * Link TRB) and keeps one of them empty so that full and empty differ.
 * The first TRB of a transfer descriptor is written with the wrong cycle
 * bit and flipped by xhci_ring_commit() once the rest is in place, so the
 * controller never sees half a TD (4.11.1).
 *
 * Locks: the ring's owner serialises every call (the controller's lock).
 */
#ifndef DRIVERS_USB_XHCI_RING_H
#define DRIVERS_USB_XHCI_RING_H

#include "drivers/usb/xhcireg.h"

struct xhci_ring {
	struct xhci_trb	*xr_trbs;	/* ring memory, xr_n entries */
	dma_addr_t	xr_dma;		/* its bus address */
	unsigned	xr_n;		/* entries, Link TRB included (producer) */
	unsigned	xr_enq;		/* producer: next TRB to write */
	unsigned	xr_deq;		/* producer: oldest TRB not yet completed;
					   consumer: next event to read */
	u32		xr_cycle;	/* producer cycle / consumer cycle state */
	unsigned	xr_td_first;	/* index of the open TD's first TRB */
	bool		xr_td_open;
};

void xhci_ring_init(struct xhci_ring *r, struct xhci_trb *trbs, dma_addr_t dma,
		    unsigned n, bool producer);
unsigned xhci_ring_free(const struct xhci_ring *r);
unsigned xhci_ring_put(struct xhci_ring *r, u64 param, u32 status, u32 control);
void xhci_ring_commit(struct xhci_ring *r);
dma_addr_t xhci_ring_dma(const struct xhci_ring *r, unsigned idx);
int xhci_ring_index(const struct xhci_ring *r, dma_addr_t addr);
unsigned xhci_ring_next(const struct xhci_ring *r, unsigned idx);
const struct xhci_trb *xhci_event_peek(const struct xhci_ring *r);
void xhci_event_pop(struct xhci_ring *r);
unsigned xhci_td_trbs(dma_addr_t addr, u32 len, unsigned *max_chunk);

#endif
