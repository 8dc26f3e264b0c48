/*
 * drivers/usb/xhci_ring.c: producer rings with their Link TRB and cycle
 * bit, TDs held back until committed, the free count, index <-> address,
 * the event ring consumer, and 64 KiB splitting, checked against a
 * model of what the controller would see.
 */
#include "tests/unit/unit.h"
#include "drivers/usb/xhci_ring.h"

#define N	8
#define BASE	0x10000

static struct xhci_trb trbs[N];

static unsigned cyc(unsigned i) { return trbs[i].trb_control & XHCI_TRB_C; }

static void test_init(void)
{
	struct xhci_ring r;

	xhci_ring_init(&r, trbs, BASE, N, true);
	CHECK_EQ(XHCI_TRB_GET_TYPE(trbs[N - 1].trb_control), XHCI_TRB_LINK);
	CHECK(trbs[N - 1].trb_control & XHCI_TRB_TC);
	CHECK_EQ(trbs[N - 1].trb_param, BASE);
	CHECK_EQ(xhci_ring_free(&r), N - 2);
	CHECK_EQ(r.xr_cycle, 1);
}

static void test_td_held_back(void)
{
	struct xhci_ring r;
	unsigned a, b;

	xhci_ring_init(&r, trbs, BASE, N, true);
	a = xhci_ring_put(&r, 1, 0, XHCI_TRB_TYPE(XHCI_TRB_NORMAL) | XHCI_TRB_CH);
	b = xhci_ring_put(&r, 2, 0, XHCI_TRB_TYPE(XHCI_TRB_NORMAL) | XHCI_TRB_IOC);
	CHECK_EQ(a, 0);
	CHECK_EQ(b, 1);
	CHECK_EQ(cyc(0), 0);	/* the controller must not start yet */
	CHECK_EQ(cyc(1), 1);
	xhci_ring_commit(&r);
	CHECK_EQ(cyc(0), 1);
	CHECK_EQ(xhci_ring_free(&r), N - 4);
}

static void test_wrap_toggles_cycle(void)
{
	struct xhci_ring r;
	unsigned i, idx = 0;

	xhci_ring_init(&r, trbs, BASE, N, true);
	/* Fill, complete, and go round three times: one TRB per TD. */
	for (i = 0; i < 3 * (N - 1); i++) {
		u32 want = r.xr_cycle;

		idx = xhci_ring_put(&r, i, 0, XHCI_TRB_TYPE(XHCI_TRB_NORMAL));
		xhci_ring_commit(&r);
		CHECK_EQ(cyc(idx), want);
		r.xr_deq = xhci_ring_next(&r, idx);	/* the controller completed it */
		if (idx == N - 2) {
			CHECK_EQ(trbs[N - 1].trb_control & XHCI_TRB_C, want);
			CHECK_EQ(r.xr_cycle, want ^ 1);
			CHECK_EQ(r.xr_enq, 0);
		}
	}
	CHECK_EQ(r.xr_cycle, 0);	/* 3 wraps: odd */
}

static void test_chain_across_link(void)
{
	struct xhci_ring r;
	unsigned i;

	xhci_ring_init(&r, trbs, BASE, N, true);
	for (i = 0; i < N - 3; i++) {
		xhci_ring_put(&r, i, 0, XHCI_TRB_TYPE(XHCI_TRB_NORMAL));
		xhci_ring_commit(&r);
	}
	r.xr_deq = r.xr_enq;
	/* A TD of 3 TRBs from index N-3 wraps: the link must carry CH. */
	xhci_ring_put(&r, 0, 0, XHCI_TRB_TYPE(XHCI_TRB_NORMAL) | XHCI_TRB_CH);
	xhci_ring_put(&r, 0, 0, XHCI_TRB_TYPE(XHCI_TRB_NORMAL) | XHCI_TRB_CH);
	CHECK(trbs[N - 1].trb_control & XHCI_TRB_CH);
	xhci_ring_put(&r, 0, 0, XHCI_TRB_TYPE(XHCI_TRB_NORMAL) | XHCI_TRB_IOC);
	CHECK_EQ(cyc(N - 3), 1 ^ 1);	/* held */
	xhci_ring_commit(&r);
	CHECK_EQ(cyc(N - 3), 1);
	CHECK_EQ(cyc(0), 0);		/* written after the toggle */
}

static void test_free_never_overruns(void)
{
	struct xhci_ring r;
	unsigned n = 0;

	xhci_ring_init(&r, trbs, BASE, N, true);
	while (xhci_ring_free(&r) > 0) {
		xhci_ring_put(&r, n, 0, XHCI_TRB_TYPE(XHCI_TRB_NORMAL));
		xhci_ring_commit(&r);
		n++;
	}
	CHECK_EQ(n, N - 2);
	CHECK(r.xr_enq != r.xr_deq);	/* full is not mistaken for empty */
}

static void test_index(void)
{
	struct xhci_ring r;

	xhci_ring_init(&r, trbs, BASE, N, true);
	CHECK_EQ(xhci_ring_index(&r, BASE), 0);
	CHECK_EQ(xhci_ring_index(&r, BASE + 16 * 5), 5);
	CHECK_EQ(xhci_ring_index(&r, BASE + 16 * N), -1);
	CHECK_EQ(xhci_ring_index(&r, BASE + 8), -1);
	CHECK_EQ(xhci_ring_index(&r, BASE - 16), -1);
	CHECK_EQ(xhci_ring_dma(&r, 3), BASE + 48);
}

static void test_event_consumer(void)
{
	struct xhci_ring r;
	unsigned i, seen = 0;

	xhci_ring_init(&r, trbs, BASE, N, false);
	CHECK(xhci_event_peek(&r) == NULL);
	/* The controller writes N + 3 events: a full pass with cycle 1, then 3 with 0. */
	for (i = 0; i < N + 3; i++) {
		struct xhci_trb *t = &trbs[i % N];

		t->trb_param = i;
		t->trb_control = XHCI_TRB_TYPE(XHCI_TRB_EV_TRANSFER) | (i < N ? 1 : 0);
		while (xhci_event_peek(&r)) {
			CHECK_EQ(xhci_event_peek(&r)->trb_param, seen);
			xhci_event_pop(&r);
			seen++;
		}
	}
	CHECK_EQ(seen, N + 3);
	CHECK_EQ(r.xr_cycle, 0);
	CHECK(xhci_event_peek(&r) == NULL);	/* the stale entry 3 has cycle 1 */
}

static void test_64k_split(void)
{
	unsigned big;

	CHECK_EQ(xhci_td_trbs(0x1000, 4096, &big), 1);
	CHECK_EQ(big, 4096);
	CHECK_EQ(xhci_td_trbs(0xff00, 512, &big), 2);
	CHECK_EQ(big, 256);
	CHECK_EQ(xhci_td_trbs(0x20000, 0x20000, NULL), 2);
	CHECK_EQ(xhci_td_trbs(0x2ffff, 0x10002, NULL), 3);
	CHECK_EQ(xhci_td_trbs(0, 0, NULL), 1);	/* a zero-length TD still has a TRB */
}

static const struct unit_case cases[] = {
	{ "init", test_init },
	{ "td_held_back", test_td_held_back },
	{ "wrap_toggles_cycle", test_wrap_toggles_cycle },
	{ "chain_across_link", test_chain_across_link },
	{ "free_never_overruns", test_free_never_overruns },
	{ "index", test_index },
	{ "event_consumer", test_event_consumer },
	{ "64k_split", test_64k_split },
};

UNIT_MAIN("usb_ring", cases)
