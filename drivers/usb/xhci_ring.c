/*
 * xHCI rings: the index and cycle-bit arithmetic of producer rings
 * (command ring, transfer rings) and of the event ring's consumer
 * (xHCI 1.2, 4.9.2 Transfer Ring Management, 4.9.4 Event Ring
 * Management, 4.11.5.1 Link TRB).  Interface in xhci_ring.h.
 *
 * Producer: TRBs go in at xr_enq with the producer cycle state in bit 0;
 * reaching the Link TRB at the last index hands it the current cycle
 * (and the chain bit of the TRB before it, so a TD may wrap: 4.11.5.1),
 * then the cycle state toggles and xr_enq goes back to 0.  xr_deq moves
 * when the controller reports a TD complete.
 *
 * Consumer: an event is valid while its cycle bit equals the consumer
 * cycle state; the state toggles each time the index wraps.
 */
#include "drivers/usb/xhci_ring.h"
#include "kernel/printk.h"
#include "lib/string.h"

void xhci_ring_init(struct xhci_ring *r, struct xhci_trb *trbs, dma_addr_t dma,
		    unsigned n, bool producer)
{
	KASSERT(n >= 4);
	memset(trbs, 0, n * sizeof(*trbs));
	r->xr_trbs = trbs;
	r->xr_dma = dma;
	r->xr_n = n;
	r->xr_enq = 0;
	r->xr_deq = 0;
	r->xr_cycle = 1;
	r->xr_td_open = false;
	r->xr_td_first = 0;
	if (producer) {
		struct xhci_trb *link = &trbs[n - 1];

		link->trb_param = dma;
		link->trb_status = 0;
		link->trb_control = XHCI_TRB_TYPE(XHCI_TRB_LINK) | XHCI_TRB_TC;
	}
}

/* TRBs that can still be written before the ring is full. */
unsigned xhci_ring_free(const struct xhci_ring *r)
{
	unsigned usable = r->xr_n - 1;
	unsigned used = (r->xr_enq + usable - r->xr_deq) % usable;

	return usable - 1 - used;
}

/* The index after idx on a producer ring, skipping the Link TRB. */
unsigned xhci_ring_next(const struct xhci_ring *r, unsigned idx)
{
	idx++;
	return idx >= r->xr_n - 1 ? 0 : idx;
}

/*
 * Write one TRB (control without the cycle bit) and return its index.
 * The first TRB after a commit opens a TD and is held back (wrong cycle)
 * until xhci_ring_commit().  The caller checked xhci_ring_free().
 */
unsigned xhci_ring_put(struct xhci_ring *r, u64 param, u32 status, u32 control)
{
	struct xhci_trb *t = &r->xr_trbs[r->xr_enq];
	unsigned idx = r->xr_enq;
	u32 cycle = r->xr_cycle;

	KASSERT(xhci_ring_free(r) > 0);
	if (!r->xr_td_open) {
		r->xr_td_open = true;
		r->xr_td_first = idx;
		cycle ^= 1;
	}
	t->trb_param = param;
	t->trb_status = status;
	barrier();
	t->trb_control = (control & ~XHCI_TRB_C) | cycle;
	r->xr_enq++;
	if (r->xr_enq == r->xr_n - 1) {
		struct xhci_trb *link = &r->xr_trbs[r->xr_enq];
		u32 c = XHCI_TRB_TYPE(XHCI_TRB_LINK) | XHCI_TRB_TC | (control & XHCI_TRB_CH);

		/*
		 * Valid at once: the controller reaches it only after the
		 * open TD's first TRB, which is still held back.
		 */
		link->trb_control = c | r->xr_cycle;
		r->xr_enq = 0;
		r->xr_cycle ^= 1;
	}
	return idx;
}

/* Hand the open TD to the controller: flip its first TRB's cycle bit. */
void xhci_ring_commit(struct xhci_ring *r)
{
	struct xhci_trb *t;

	if (!r->xr_td_open)
		return;
	t = &r->xr_trbs[r->xr_td_first];
	barrier();
	t->trb_control ^= XHCI_TRB_C;
	r->xr_td_open = false;
}

dma_addr_t xhci_ring_dma(const struct xhci_ring *r, unsigned idx)
{
	return r->xr_dma + (dma_addr_t)idx * sizeof(struct xhci_trb);
}

/* The index of the TRB at bus address addr, or -1 if it is not on the ring. */
int xhci_ring_index(const struct xhci_ring *r, dma_addr_t addr)
{
	u64 off;

	if (addr < r->xr_dma)
		return -1;
	off = addr - r->xr_dma;
	if (off % sizeof(struct xhci_trb) || off / sizeof(struct xhci_trb) >= r->xr_n)
		return -1;
	return (int)(off / sizeof(struct xhci_trb));
}

/* The next event on a consumer ring, or NULL when the controller has not written one. */
const struct xhci_trb *xhci_event_peek(const struct xhci_ring *r)
{
	const struct xhci_trb *t = &r->xr_trbs[r->xr_deq];

	if ((READ_ONCE(t->trb_control) & XHCI_TRB_C) != r->xr_cycle)
		return NULL;
	return t;
}

void xhci_event_pop(struct xhci_ring *r)
{
	if (++r->xr_deq == r->xr_n) {
		r->xr_deq = 0;
		r->xr_cycle ^= 1;
	}
}

/*
 * TRBs needed for len bytes at addr: one per 64 KiB-aligned piece, since
 * a transfer TRB's buffer may not cross a 64 KiB boundary (6.4.1.1).
 * *max_chunk (optional) gets the largest piece.
 */
unsigned xhci_td_trbs(dma_addr_t addr, u32 len, unsigned *max_chunk)
{
	unsigned n = 0, big = 0;

	while (len) {
		u32 room = (u32)(0x10000 - (addr & 0xffff));
		u32 chunk = len < room ? len : room;

		if (chunk > big)
			big = chunk;
		addr += chunk;
		len -= chunk;
		n++;
	}
	if (max_chunk)
		*max_chunk = big;
	return n ? n : 1;
}
