/*
 * Split virtqueue, driver side (virtio 1.1, 2.6): the descriptor free
 * list, chains direct and indirect, publishing to the available ring,
 * notification suppression (flags or event indices) and reaping the
 * used ring.
 *
 * The free list and the chains are kept in vq_next[], our own copy: the
 * descriptor table is shared memory and the driver never reads back what
 * it wrote there.  What the device writes (used ring entries) is checked
 * before use: a head out of range or not in flight marks the queue
 * broken, and it accepts nothing more.
 *
 * Ordering (2.6.13.3.1, 2.6.13.4): the descriptors and the ring slot are
 * written before avail->idx (a store barrier), and avail->idx before the
 * read of the device's suppression state (a full barrier, the device may
 * be updating it at the same moment).  x86 orders plain stores, so the
 * store barrier is a compiler barrier; the full one is a locked
 * instruction in both the kernel and the host build.
 *
 * Portable: no allocation, no locks, no transport (see virtqueue.h).
 */
#include "drivers/virtio/virtqueue.h"
#include "kernel/errno.h"
#include "lib/byteorder.h"
#include "lib/event_idx.h"
#include "lib/string.h"

#define vq_wmb()	barrier()		/* x86: stores stay in order */
#define vq_rmb()	barrier()		/* x86: loads stay in order */

/* Store -> load needs a full fence: the transport's, which knows the machine. */
static void vq_mb(const struct virtq *vq)
{
	if (vq->vq_fence)
		vq->vq_fence();
	else
		smp_mb();
}

#define VQ_END		0xffffu		/* end of the free list */

static size_t desc_bytes(u16 num) { return (size_t)num * sizeof(struct virtq_desc); }
/* flags, idx, ring[num], used_event */
static size_t avail_bytes(u16 num) { return sizeof(struct virtq_avail) + 2u * num + 2u; }

static size_t used_off(u16 num)
{
	return ALIGN_UP(desc_bytes(num) + avail_bytes(num), (size_t)VIRTQ_USED_ALIGN);
}

size_t virtq_ring_bytes(u16 num)
{
	/* flags, idx, ring[num], avail_event */
	return used_off(num) + sizeof(struct virtq_used) +
	       num * sizeof(struct virtq_used_elem) + 2u;
}

size_t virtq_state_bytes(u16 num)
{
	return (size_t)num * (sizeof(u16) * 2 + sizeof(void *));
}

/* used_event sits after avail->ring[num]; avail_event after used->ring[num]. */
static u16 *used_event(const struct virtq *vq) { return &vq->vq_avail->ring[vq->vq_num]; }
static u16 *avail_event(const struct virtq *vq)
{
	return (u16 *)(void *)&vq->vq_used->ring[vq->vq_num];
}

int virtq_init(struct virtq *vq, u16 num, void *ring, dma_addr_t ring_dma,
	       void *state, bool event_idx)
{
	u8 *st = state;
	u16 i;

	if (!is_power_of_2(num) || num > VIRTQ_MAX_SIZE || !ring || !state ||
	    !IS_ALIGNED((uintptr_t)ring, VIRTQ_DESC_ALIGN) || !IS_ALIGNED(ring_dma, VIRTQ_DESC_ALIGN))
		return -EINVAL;
	memset(vq, 0, sizeof(*vq));
	vq->vq_num = num;
	vq->vq_event_idx = event_idx;
	vq->vq_desc = ring;
	vq->vq_avail = (struct virtq_avail *)(void *)((u8 *)ring + desc_bytes(num));
	vq->vq_used = (struct virtq_used *)(void *)((u8 *)ring + used_off(num));
	vq->vq_dma = ring_dma;
	vq->vq_cookie = (void **)(void *)st;
	vq->vq_next = (u16 *)(void *)(st + (size_t)num * sizeof(void *));
	vq->vq_chain = vq->vq_next + num;
	for (i = 0; i < num; i++) {
		vq->vq_cookie[i] = NULL;
		vq->vq_chain[i] = 0;
		vq->vq_next[i] = (u16)(i + 1u < num ? i + 1u : VQ_END);
	}
	vq->vq_free_head = 0;
	vq->vq_num_free = num;
	return 0;
}

dma_addr_t virtq_desc_dma(const struct virtq *vq) { return vq->vq_dma; }
dma_addr_t virtq_avail_dma(const struct virtq *vq) { return vq->vq_dma + desc_bytes(vq->vq_num); }
dma_addr_t virtq_used_dma(const struct virtq *vq) { return vq->vq_dma + used_off(vq->vq_num); }

static void fill_desc(struct virtq_desc *d, const struct virtq_buf *b, u16 flags, u16 next)
{
	d->addr = cpu_to_le64(b->vb_addr);
	d->len = cpu_to_le32(b->vb_len);
	d->flags = cpu_to_le16((u16)(flags | (b->vb_write ? VIRTQ_DESC_F_WRITE : 0)));
	d->next = cpu_to_le16(next);
}

/* A readable buffer after a writable one is not allowed (2.6.4.2). */
static bool chain_ok(const struct virtq_buf *bufs, unsigned n)
{
	bool seen_write = false;
	unsigned i;

	for (i = 0; i < n; i++) {
		if (bufs[i].vb_len == 0)
			return false;
		if (bufs[i].vb_write)
			seen_write = true;
		else if (seen_write)
			return false;
	}
	return true;
}

int virtq_add(struct virtq *vq, const struct virtq_buf *bufs, unsigned n, void *cookie,
	      struct virtq_desc *indir, dma_addr_t indir_dma)
{
	unsigned need = indir && n > 1 ? 1 : n;
	u16 head, d, last = VQ_END;
	unsigned i;

	if (vq->vq_broken)
		return -EIO;
	if (!cookie || n == 0 || !chain_ok(bufs, n))
		return -EINVAL;
	/* 2.6.5.3.1: an indirect table holds at most Queue Size entries. */
	if (need == 1 && n > vq->vq_num)
		return -EINVAL;
	if (need > vq->vq_num_free)
		return -ENOSPC;

	head = vq->vq_free_head;
	if (need == 1 && n > 1) {
		struct virtq_buf tb = { .vb_addr = indir_dma,
					.vb_len = (u32)(n * sizeof(struct virtq_desc)) };

		for (i = 0; i < n; i++)
			fill_desc(&indir[i], &bufs[i], i + 1 < n ? VIRTQ_DESC_F_NEXT : 0,
				  (u16)(i + 1 < n ? i + 1 : 0));
		fill_desc(&vq->vq_desc[head], &tb, VIRTQ_DESC_F_INDIRECT, 0);
		last = head;
	} else {
		d = head;
		for (i = 0; i < n; i++) {
			u16 next = vq->vq_next[d];

			fill_desc(&vq->vq_desc[d], &bufs[i], i + 1 < n ? VIRTQ_DESC_F_NEXT : 0,
				  i + 1 < n ? next : 0);
			last = d;
			d = next;
		}
	}
	vq->vq_free_head = vq->vq_next[last];
	vq->vq_next[last] = VQ_END;
	vq->vq_num_free = (u16)(vq->vq_num_free - need);
	vq->vq_chain[head] = (u16)need;
	vq->vq_cookie[head] = cookie;

	/* 2.6.13.2: the head into the next ring slot, then (2.6.13.3) the index. */
	vq->vq_avail->ring[vq->vq_avail_idx & (vq->vq_num - 1)] = cpu_to_le16(head);
	vq_wmb();
	vq->vq_avail_idx++;
	WRITE_ONCE(vq->vq_avail->idx, cpu_to_le16(vq->vq_avail_idx));
	return 0;
}

bool virtq_kick_prepare(struct virtq *vq)
{
	u16 old = vq->vq_kicked_idx, new_idx = vq->vq_avail_idx;
	bool kick;

	/* The index must be visible before we read what the device asked for. */
	vq_mb(vq);
	if (vq->vq_event_idx)
		kick = event_idx_passed(le16_to_cpu(READ_ONCE(*avail_event(vq))), new_idx, old);
	else
		kick = !(le16_to_cpu(READ_ONCE(vq->vq_used->flags)) & VIRTQ_USED_F_NO_NOTIFY);
	vq->vq_kicked_idx = new_idx;
	return kick && old != new_idx;
}

bool virtq_more_used(const struct virtq *vq)
{
	return le16_to_cpu(READ_ONCE(vq->vq_used->idx)) != vq->vq_last_used;
}

/* Put the chain starting at head back on the free list. */
static void free_chain(struct virtq *vq, u16 head)
{
	u16 d = head, n = vq->vq_chain[head];

	while (--n)
		d = vq->vq_next[d];
	vq->vq_next[d] = vq->vq_free_head;
	vq->vq_free_head = head;
	vq->vq_num_free = (u16)(vq->vq_num_free + vq->vq_chain[head]);
	vq->vq_chain[head] = 0;
	vq->vq_cookie[head] = NULL;
}

void *virtq_get_buf(struct virtq *vq, u32 *len)
{
	const struct virtq_used_elem *e;
	void *cookie;
	u32 id;

	if (vq->vq_broken || !virtq_more_used(vq))
		return NULL;
	/* 2.6.8: the entry is valid once idx says so; read it after idx. */
	vq_rmb();
	e = &vq->vq_used->ring[vq->vq_last_used & (vq->vq_num - 1)];
	id = le32_to_cpu(READ_ONCE(e->id));
	if (id >= vq->vq_num || !vq->vq_chain[id]) {
		vq->vq_broken = true;
		return NULL;
	}
	if (len)
		*len = le32_to_cpu(READ_ONCE(e->len));
	cookie = vq->vq_cookie[id];
	free_chain(vq, (u16)id);
	vq->vq_last_used++;
	/* 2.6.8.1 with event index: interrupt again at the next one we reap. */
	if (vq->vq_event_idx && !vq->vq_cb_off)
		WRITE_ONCE(*used_event(vq), cpu_to_le16(vq->vq_last_used));
	return cookie;
}

void virtq_disable_cb(struct virtq *vq)
{
	/*
	 * Without event index the flag is the hint.  With it the flags must
	 * stay 0 (2.6.7.2): used_event is left one behind what we reaped, so
	 * the device only interrupts again once the index wraps around.
	 */
	vq->vq_cb_off = true;
	if (vq->vq_event_idx)
		WRITE_ONCE(*used_event(vq), cpu_to_le16((u16)(vq->vq_last_used - 1)));
	else
		WRITE_ONCE(vq->vq_avail->flags, cpu_to_le16(VIRTQ_AVAIL_F_NO_INTERRUPT));
}

bool virtq_enable_cb(struct virtq *vq)
{
	vq->vq_cb_off = false;
	if (vq->vq_event_idx)
		WRITE_ONCE(*used_event(vq), cpu_to_le16(vq->vq_last_used));
	else
		WRITE_ONCE(vq->vq_avail->flags, 0);
	/* The write must be visible before we look at used->idx (2.6.7.1). */
	vq_mb(vq);
	return virtq_more_used(vq);
}
