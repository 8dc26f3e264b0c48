/*
 * Host tests for drivers/virtio/virtqueue.c (virtio 1.1, 2.6 split
 * virtqueues).  A small device model in this file plays the device side:
 * it takes heads from the available ring, walks their chains (direct and
 * indirect) as a device would, and puts chosen heads on the used ring in
 * any order.  The cases check the ring layout, chain building, the free
 * list across exhaustion and 16-bit index wrap, the checks on what the
 * device writes, and the notification suppression rules with and
 * without VIRTIO_F_EVENT_IDX.
 */
#include "tests/unit/unit.h"
#include "drivers/virtio/virtqueue.h"
#include "kernel/errno.h"
#include "lib/event_idx.h"

#define RING_DMA	0x100000u	/* pretend bus address: offset + this */

struct vq_fixture {
	struct virtq	vq;
	void		*ring;
	void		*state;
	u16		dev_avail;	/* device: next avail slot to take */
	u16		dev_used;	/* device: used->idx it has published */
};

static void fx_init(struct vq_fixture *f, u16 num, bool event_idx)
{
	memset(f, 0, sizeof(*f));
	f->ring = aligned_alloc(4096, ALIGN_UP(virtq_ring_bytes(num), (size_t)4096));
	memset(f->ring, 0, virtq_ring_bytes(num));
	f->state = malloc(virtq_state_bytes(num));
	CHECK_EQ(virtq_init(&f->vq, num, f->ring, RING_DMA, f->state, event_idx), 0);
}

static void fx_free(struct vq_fixture *f)
{
	free(f->ring);
	free(f->state);
}

/* Device side: the next available head, or -1. */
static int dev_take(struct vq_fixture *f)
{
	struct virtq *vq = &f->vq;

	if (vq->vq_avail->idx == f->dev_avail)
		return -1;
	return vq->vq_avail->ring[f->dev_avail++ & (vq->vq_num - 1)];
}

/* Device side: complete head with len bytes written. */
static void dev_use(struct vq_fixture *f, u32 head, u32 len)
{
	struct virtq *vq = &f->vq;

	vq->vq_used->ring[f->dev_used & (vq->vq_num - 1)].id = head;
	vq->vq_used->ring[f->dev_used & (vq->vq_num - 1)].len = len;
	vq->vq_used->idx = ++f->dev_used;
}

/* Device side: walk head's chain into out[]; the buffer count. */
static int dev_walk(struct vq_fixture *f, u16 head, struct virtq_desc *indir_base,
		    struct virtq_desc *out, int max)
{
	const struct virtq_desc *tab = f->vq.vq_desc;
	u16 d = head;
	int n = 0;

	if (tab[head].flags & VIRTQ_DESC_F_INDIRECT) {
		CHECK_EQ(tab[head].flags, VIRTQ_DESC_F_INDIRECT);	/* 2.6.5.3.1: alone */
		tab = indir_base;
		d = 0;
	}
	for (;;) {
		CHECK(n < max);
		if (n >= max)
			return n;
		out[n++] = tab[d];
		if (!(tab[d].flags & VIRTQ_DESC_F_NEXT))
			return n;
		d = tab[d].next;
	}
}

static void test_layout(void)
{
	struct vq_fixture f;

	fx_init(&f, 256, false);
	/* 2.6: desc 16*Q, avail 6+2*Q, used 6+8*Q, at 16/2/4 alignment. */
	CHECK_EQ(virtq_desc_dma(&f.vq), RING_DMA);
	CHECK_EQ(virtq_avail_dma(&f.vq), RING_DMA + 4096);
	CHECK_EQ(virtq_used_dma(&f.vq), RING_DMA + 4096 + 520);
	CHECK_EQ(virtq_used_dma(&f.vq) % VIRTQ_USED_ALIGN, 0);
	CHECK_EQ(virtq_ring_bytes(256), 4096 + 520 + 6 + 8 * 256);
	CHECK_EQ(f.vq.vq_num_free, 256);
	fx_free(&f);

	fx_init(&f, 1, false);
	CHECK_EQ(virtq_used_dma(&f.vq) % VIRTQ_USED_ALIGN, 0);
	CHECK_EQ(virtq_used_dma(&f.vq), RING_DMA + 16 + 8);
	fx_free(&f);
}

static void test_bad_init(void)
{
	struct virtq vq;
	static u8 ring[8192] __attribute__((aligned(16)));
	static u8 state[8192];

	CHECK_EQ(virtq_init(&vq, 3, ring, RING_DMA, state, false), -EINVAL);
	CHECK_EQ(virtq_init(&vq, 0, ring, RING_DMA, state, false), -EINVAL);
	CHECK_EQ(virtq_init(&vq, 8, ring + 8, RING_DMA, state, false), -EINVAL);
	CHECK_EQ(virtq_init(&vq, 8, ring, RING_DMA + 4, state, false), -EINVAL);
	CHECK_EQ(virtq_init(&vq, 8, ring, RING_DMA, state, false), 0);
}

/* A virtio-blk shaped chain: header out, two data pages in, status in. */
static void test_direct_chain(void)
{
	struct vq_fixture f;
	struct virtq_buf b[4] = {
		{ 0x1000, 16, false }, { 0x2000, 4096, true },
		{ 0x3000, 512, true }, { 0x4000, 1, true },
	};
	struct virtq_desc got[8];
	int cookie, head, n, i;
	u32 len = 0;

	fx_init(&f, 8, false);
	CHECK_EQ(virtq_add(&f.vq, b, 4, &cookie, NULL, 0), 0);
	CHECK_EQ(f.vq.vq_num_free, 4);
	CHECK_EQ(f.vq.vq_avail->idx, 1);
	head = dev_take(&f);
	CHECK(head >= 0);
	n = dev_walk(&f, (u16)head, NULL, got, 8);
	CHECK_EQ(n, 4);
	for (i = 0; i < n; i++) {
		CHECK_EQ(got[i].addr, b[i].vb_addr);
		CHECK_EQ(got[i].len, b[i].vb_len);
		CHECK_EQ(!!(got[i].flags & VIRTQ_DESC_F_WRITE), b[i].vb_write);
		CHECK_EQ(!!(got[i].flags & VIRTQ_DESC_F_NEXT), i < 3);
	}
	CHECK(virtq_get_buf(&f.vq, &len) == NULL);
	dev_use(&f, (u32)head, 4097);
	CHECK(virtq_more_used(&f.vq));
	CHECK(virtq_get_buf(&f.vq, &len) == &cookie);
	CHECK_EQ(len, 4097);
	CHECK_EQ(f.vq.vq_num_free, 8);
	CHECK(virtq_get_buf(&f.vq, &len) == NULL);
	fx_free(&f);
}

static void test_indirect_chain(void)
{
	struct vq_fixture f;
	struct virtq_desc table[5], got[8];
	struct virtq_buf b[5];
	int cookie, head, n, i;

	fx_init(&f, 4, false);
	for (i = 0; i < 5; i++)
		b[i] = (struct virtq_buf){ 0x10000u * (u32)(i + 1), 512u * (u32)(i + 1), i > 0 };
	/* 5 buffers in a 4-entry ring: only possible indirectly, and more than Q is not. */
	CHECK_EQ(virtq_add(&f.vq, b, 5, &cookie, table, 0x9000), -EINVAL);
	CHECK_EQ(virtq_add(&f.vq, b, 4, &cookie, table, 0x9000), 0);
	CHECK_EQ(f.vq.vq_num_free, 3);
	head = dev_take(&f);
	CHECK_EQ(f.vq.vq_desc[head].addr, 0x9000);
	CHECK_EQ(f.vq.vq_desc[head].len, 4 * sizeof(struct virtq_desc));
	n = dev_walk(&f, (u16)head, table, got, 8);
	CHECK_EQ(n, 4);
	for (i = 0; i < n; i++) {
		CHECK_EQ(got[i].addr, b[i].vb_addr);
		CHECK_EQ(got[i].len, b[i].vb_len);
	}
	/* A single buffer never goes indirect. */
	CHECK_EQ(virtq_add(&f.vq, b, 1, &n, table, 0x9000), 0);
	CHECK_EQ(f.vq.vq_desc[dev_take(&f)].flags, 0);
	dev_use(&f, (u32)head, 0);
	CHECK(virtq_get_buf(&f.vq, NULL) == &cookie);
	CHECK_EQ(f.vq.vq_num_free, 3);
	fx_free(&f);
}

static void test_malformed_chain(void)
{
	struct vq_fixture f;
	struct virtq_buf wr_then_rd[2] = { { 0x1000, 8, true }, { 0x2000, 8, false } };
	struct virtq_buf empty[1] = { { 0x1000, 0, false } };
	int cookie;

	fx_init(&f, 8, false);
	CHECK_EQ(virtq_add(&f.vq, wr_then_rd, 2, &cookie, NULL, 0), -EINVAL);
	CHECK_EQ(virtq_add(&f.vq, empty, 1, &cookie, NULL, 0), -EINVAL);
	CHECK_EQ(virtq_add(&f.vq, wr_then_rd, 0, &cookie, NULL, 0), -EINVAL);
	CHECK_EQ(virtq_add(&f.vq, wr_then_rd, 1, NULL, NULL, 0), -EINVAL);
	CHECK_EQ(f.vq.vq_num_free, 8);
	CHECK_EQ(f.vq.vq_avail->idx, 0);
	fx_free(&f);
}

/* Fill the ring, complete out of order, refill: nothing leaks or doubles. */
static void test_exhaust_out_of_order(void)
{
	struct vq_fixture f;
	struct virtq_buf b[3] = { { 0x1000, 16, false }, { 0x2000, 512, true }, { 0x3000, 1, true } };
	int cookies[5], heads[5], i, n = 0;
	void *c;

	fx_init(&f, 16, false);
	for (i = 0; i < 5; i++) {
		CHECK_EQ(virtq_add(&f.vq, b, 3, &cookies[i], NULL, 0), 0);
		heads[i] = dev_take(&f);
	}
	CHECK_EQ(f.vq.vq_num_free, 1);
	CHECK_EQ(virtq_add(&f.vq, b, 3, &n, NULL, 0), -ENOSPC);
	CHECK_EQ(virtq_add(&f.vq, b, 1, &n, NULL, 0), 0);	/* one fits */
	CHECK_EQ(virtq_add(&f.vq, b, 1, &n, NULL, 0), -ENOSPC);
	dev_use(&f, (u32)dev_take(&f), 0);
	CHECK(virtq_get_buf(&f.vq, NULL) == &n);
	dev_use(&f, (u32)heads[3], 0);
	dev_use(&f, (u32)heads[0], 0);
	CHECK(virtq_get_buf(&f.vq, NULL) == &cookies[3]);
	CHECK(virtq_get_buf(&f.vq, NULL) == &cookies[0]);
	CHECK_EQ(f.vq.vq_num_free, 7);
	for (i = 0; i < 2; i++) {
		CHECK_EQ(virtq_add(&f.vq, b, 3, &cookies[i == 0 ? 0 : 3], NULL, 0), 0);
		heads[i == 0 ? 0 : 3] = dev_take(&f);
	}
	for (i = 4; i >= 0; i--)
		dev_use(&f, (u32)heads[i], 0);
	for (i = 4; i >= 0; i--) {
		c = virtq_get_buf(&f.vq, NULL);
		CHECK(c == &cookies[i]);
	}
	CHECK_EQ(f.vq.vq_num_free, 16);
	fx_free(&f);
}

/* Past 65535 both 16-bit indices wrap; the ring must not notice. */
static void test_index_wrap(void)
{
	struct vq_fixture f;
	struct virtq_buf b[2] = { { 0x1000, 16, false }, { 0x2000, 1, true } };
	int cookie[2];
	unsigned i;
	bool ok = true;

	fx_init(&f, 4, false);
	for (i = 0; i < 70000 && ok; i++) {
		ok = virtq_add(&f.vq, b, 2, &cookie[0], NULL, 0) == 0 &&
		     virtq_add(&f.vq, b, 2, &cookie[1], NULL, 0) == 0;
		dev_use(&f, (u32)dev_take(&f), 2);
		dev_use(&f, (u32)dev_take(&f), 2);
		ok = ok && virtq_get_buf(&f.vq, NULL) == &cookie[0] &&
		     virtq_get_buf(&f.vq, NULL) == &cookie[1] && f.vq.vq_num_free == 4;
	}
	CHECK(ok);
	CHECK_EQ(f.vq.vq_avail_idx, (u16)140000);
	CHECK_EQ(f.vq.vq_last_used, (u16)140000);
	fx_free(&f);
}

/* A device that names a free or impossible head breaks the queue. */
static void test_bad_used_id(void)
{
	struct vq_fixture f;
	struct virtq_buf b[1] = { { 0x1000, 16, false } };
	int cookie;

	fx_init(&f, 8, false);
	CHECK_EQ(virtq_add(&f.vq, b, 1, &cookie, NULL, 0), 0);
	dev_use(&f, 5, 0);			/* never posted */
	CHECK(virtq_get_buf(&f.vq, NULL) == NULL);
	CHECK(f.vq.vq_broken);
	CHECK_EQ(virtq_add(&f.vq, b, 1, &cookie, NULL, 0), -EIO);
	fx_free(&f);

	fx_init(&f, 8, false);
	dev_use(&f, 8, 0);			/* out of range */
	CHECK(virtq_get_buf(&f.vq, NULL) == NULL);
	CHECK(f.vq.vq_broken);
	fx_free(&f);

	fx_init(&f, 8, false);
	CHECK_EQ(virtq_add(&f.vq, b, 1, &cookie, NULL, 0), 0);
	dev_use(&f, (u32)dev_take(&f), 0);
	dev_use(&f, f.vq.vq_used->ring[0].id, 0);	/* the same head twice */
	CHECK(virtq_get_buf(&f.vq, NULL) == &cookie);
	CHECK(virtq_get_buf(&f.vq, NULL) == NULL);
	CHECK(f.vq.vq_broken);
	fx_free(&f);
}

/* 2.6.7.2: the event-index comparison, including across the wrap. */
static void test_need_event(void)
{
	CHECK(event_idx_passed(0, 1, 0));		/* stepped onto event+1 */
	CHECK(!event_idx_passed(1, 1, 0));		/* event not yet passed */
	CHECK(event_idx_passed(5, 10, 0));
	CHECK(!event_idx_passed(10, 10, 0));
	CHECK(!event_idx_passed(5, 10, 6));		/* passed before old */
	CHECK(event_idx_passed(0xffff, 2, 0xfffe));	/* across the wrap */
	CHECK(!event_idx_passed(2, 2, 0xfffe));
	CHECK(!event_idx_passed(7, 7, 7));		/* nothing new */
}

static void test_kick_flags(void)
{
	struct vq_fixture f;
	struct virtq_buf b[1] = { { 0x1000, 16, false } };
	int cookie[3];

	fx_init(&f, 8, false);
	CHECK(!virtq_kick_prepare(&f.vq));		/* nothing added */
	CHECK_EQ(virtq_add(&f.vq, b, 1, &cookie[0], NULL, 0), 0);
	CHECK(virtq_kick_prepare(&f.vq));
	CHECK(!virtq_kick_prepare(&f.vq));		/* already told */
	f.vq.vq_used->flags = VIRTQ_USED_F_NO_NOTIFY;
	CHECK_EQ(virtq_add(&f.vq, b, 1, &cookie[1], NULL, 0), 0);
	CHECK(!virtq_kick_prepare(&f.vq));
	f.vq.vq_used->flags = 0;
	CHECK_EQ(virtq_add(&f.vq, b, 1, &cookie[2], NULL, 0), 0);
	CHECK(virtq_kick_prepare(&f.vq));

	/* Interrupt suppression without event index: the avail flag. */
	virtq_disable_cb(&f.vq);
	CHECK_EQ(f.vq.vq_avail->flags, VIRTQ_AVAIL_F_NO_INTERRUPT);
	CHECK(!virtq_enable_cb(&f.vq));
	CHECK_EQ(f.vq.vq_avail->flags, 0);
	dev_use(&f, (u32)dev_take(&f), 0);
	virtq_disable_cb(&f.vq);
	CHECK(virtq_enable_cb(&f.vq));			/* used meanwhile: reap again */
	fx_free(&f);
}

static void test_kick_event_idx(void)
{
	struct vq_fixture f;
	struct virtq_buf b[1] = { { 0x1000, 16, false } };
	u16 *avail_event, *used_event;
	int cookie[4], i;

	fx_init(&f, 8, true);
	avail_event = (u16 *)(void *)&f.vq.vq_used->ring[8];
	used_event = &f.vq.vq_avail->ring[8];
	/* The device wants a kick when avail->idx passes 0 (the reset value). */
	CHECK_EQ(virtq_add(&f.vq, b, 1, &cookie[0], NULL, 0), 0);
	CHECK(virtq_kick_prepare(&f.vq));
	/* It is busy and will look at the ring itself until index 3. */
	*avail_event = 3;
	for (i = 1; i < 3; i++) {
		CHECK_EQ(virtq_add(&f.vq, b, 1, &cookie[i], NULL, 0), 0);
		CHECK(!virtq_kick_prepare(&f.vq));
	}
	CHECK_EQ(virtq_add(&f.vq, b, 1, &cookie[3], NULL, 0), 0);
	CHECK(virtq_kick_prepare(&f.vq));		/* idx 4 passed event 3 */
	CHECK_EQ(f.vq.vq_avail->flags, 0);

	/* Reaping moves used_event; disable_cb parks it behind, flags stay 0. */
	for (i = 0; i < 4; i++)
		dev_take(&f);
	dev_use(&f, 0, 0);
	CHECK(virtq_get_buf(&f.vq, NULL) == &cookie[0]);
	CHECK_EQ(*used_event, 1);
	virtq_disable_cb(&f.vq);
	CHECK_EQ(f.vq.vq_avail->flags, 0);
	CHECK_EQ(*used_event, 0);
	dev_use(&f, 1, 0);
	CHECK(virtq_get_buf(&f.vq, NULL) == &cookie[1]);
	CHECK_EQ(*used_event, 0);			/* still parked */
	CHECK(!virtq_enable_cb(&f.vq));
	CHECK_EQ(*used_event, 2);
	dev_use(&f, 2, 0);
	CHECK(virtq_enable_cb(&f.vq));
	fx_free(&f);
}

static const struct unit_case cases[] = {
	{ "layout", test_layout },
	{ "bad_init", test_bad_init },
	{ "direct_chain", test_direct_chain },
	{ "indirect_chain", test_indirect_chain },
	{ "malformed_chain", test_malformed_chain },
	{ "exhaust_out_of_order", test_exhaust_out_of_order },
	{ "index_wrap", test_index_wrap },
	{ "bad_used_id", test_bad_used_id },
	{ "need_event", test_need_event },
	{ "kick_flags", test_kick_flags },
	{ "kick_event_idx", test_kick_event_idx },
};

UNIT_MAIN("virtqueue", cases)
