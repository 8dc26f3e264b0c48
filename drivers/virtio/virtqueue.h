/*
 * Split virtqueues (virtio 1.1, 2.6): the ring layout shared with the
 * device, and the driver side of one queue.  Portable: no transport, no
 * allocation, no locks; it builds on the host for unit tests.
 *
 * The caller gives virtq_init() one physically contiguous, zeroed block
 * of virtq_ring_bytes(num) bytes (the descriptor table, then the
 * available ring, then the used ring, each at its 2.6 alignment) and its
 * bus address; the transport tells the device the three addresses
 * (virtq_desc_dma() etc.).  Then, per request:
 *
 *	virtq_add(vq, bufs, n, cookie, indir, indir_dma)   post a chain
 *	if (virtq_kick_prepare(vq)) notify the device       (2.6.13.3, 2.6.7.2)
 *	...interrupt...
 *	while ((cookie = virtq_get_buf(vq, &len))) done(cookie, len)
 *
 * A chain of more than one buffer goes in an indirect table when the
 * caller passes one (VIRTIO_F_INDIRECT_DESC negotiated, 2.6.5.3): it
 * then takes one ring descriptor.  With VIRTIO_F_EVENT_IDX the
 * notification suppression of 2.6.7/2.6.8 uses the event indices, else
 * the flags.
 *
 * Locking: none inside; the owner serialises every call on one queue
 * (virtio_blk: its hardware queue's lock).  [I] set by virtq_init,
 * [o] the owner's lock.
 */
#ifndef DRIVERS_VIRTIO_VIRTQUEUE_H
#define DRIVERS_VIRTIO_VIRTQUEUE_H

#include "kernel/compiler.h"
#include "kernel/types.h"

/* virtio 1.1, 2.6.5 The Virtqueue Descriptor Table */
struct virtq_desc {
	u64	addr;		/* le64 bus address */
	u32	len;		/* le32 */
	u16	flags;		/* le16 */
#define VIRTQ_DESC_F_NEXT	1	/* next is valid */
#define VIRTQ_DESC_F_WRITE	2	/* device writes (else reads) */
#define VIRTQ_DESC_F_INDIRECT	4	/* addr/len is a table of descriptors */
	u16	next;		/* le16 */
};
_Static_assert(sizeof(struct virtq_desc) == 16, "virtq_desc is 16 bytes (2.6.5)");

/* 2.6.6 The Virtqueue Available Ring; used_event follows ring[num]. */
struct virtq_avail {
	u16	flags;
#define VIRTQ_AVAIL_F_NO_INTERRUPT	1
	u16	idx;
	u16	ring[];
};
_Static_assert(sizeof(struct virtq_avail) == 4, "virtq_avail header (2.6.6)");

/* 2.6.8 The Virtqueue Used Ring; avail_event follows ring[num]. */
struct virtq_used_elem {
	u32	id;		/* head of the used chain */
	u32	len;		/* bytes the device wrote */
};
_Static_assert(sizeof(struct virtq_used_elem) == 8, "virtq_used_elem (2.6.8)");

struct virtq_used {
	u16	flags;
#define VIRTQ_USED_F_NO_NOTIFY		1
	u16	idx;
	struct virtq_used_elem ring[];
};
_Static_assert(sizeof(struct virtq_used) == 4, "virtq_used header (2.6.8)");

#define VIRTQ_MAX_SIZE		32768u	/* 2.6: Queue Size at most 32768 */
#define VIRTQ_DESC_ALIGN	16u	/* 2.6 table: alignment of each part */
#define VIRTQ_AVAIL_ALIGN	2u
#define VIRTQ_USED_ALIGN	4u

/* One buffer of a chain: device-readable unless vb_write. */
struct virtq_buf {
	dma_addr_t	vb_addr;
	u32		vb_len;
	bool		vb_write;
};

struct virtq {
	u16			vq_num;		/* [I] queue size, a power of two */
	bool			vq_event_idx;	/* [I] VIRTIO_F_EVENT_IDX */
	bool			vq_broken;	/* [o] the device broke the protocol */
	bool			vq_cb_off;	/* [o] virtq_disable_cb in force */
	struct virtq_desc	*vq_desc;	/* [I] */
	struct virtq_avail	*vq_avail;	/* [I] */
	struct virtq_used	*vq_used;	/* [I] */
	dma_addr_t		vq_dma;		/* [I] bus address of vq_desc */
	u16			vq_free_head;	/* [o] first free descriptor */
	u16			vq_num_free;	/* [o] descriptors on the free list */
	u16			vq_avail_idx;	/* [o] our copy of avail->idx */
	u16			vq_kicked_idx;	/* [o] avail->idx at the last kick decision */
	u16			vq_last_used;	/* [o] next used->ring entry to reap */
	u16			*vq_next;	/* [o] free-list links and chains, our copy */
	u16			*vq_chain;	/* [o] per head: descriptors it holds, 0 free */
	void			**vq_cookie;	/* [o] per head: the caller's pointer */
	/*
	 * [I] The store-to-load fence of virtq_kick_prepare and
	 * virtq_enable_cb: the transport's (device_mb, which holds where a
	 * fence instruction does not), or NULL for smp_mb().
	 */
	void			(*vq_fence)(void);
};

/* Bytes of the ring block for num entries (desc + avail + used, aligned). */
size_t virtq_ring_bytes(u16 num);
/* Bytes of the bookkeeping array virtq_init wants beside the ring. */
size_t virtq_state_bytes(u16 num);

/**
 * virtq_init - set up the driver side of a queue
 * @vq: the queue
 * @num: queue size, a power of two up to VIRTQ_MAX_SIZE
 * @ring: zeroed ring block of virtq_ring_bytes(num), 16-byte aligned
 * @ring_dma: its bus address
 * @state: virtq_state_bytes(num) bytes of kernel memory (not shared)
 * @event_idx: VIRTIO_F_EVENT_IDX was negotiated
 *
 * Return: 0, or -EINVAL for a bad size.
 */
int virtq_init(struct virtq *vq, u16 num, void *ring, dma_addr_t ring_dma,
	       void *state, bool event_idx);

dma_addr_t virtq_desc_dma(const struct virtq *vq);
dma_addr_t virtq_avail_dma(const struct virtq *vq);
dma_addr_t virtq_used_dma(const struct virtq *vq);

/**
 * virtq_add - make a chain of buffers available to the device
 * @vq: the queue
 * @bufs: the buffers, device-readable ones first (2.6.4.2)
 * @n: how many, at least 1
 * @cookie: non-NULL; virtq_get_buf gives it back
 * @indir: NULL, or a table of at least @n descriptors for an indirect chain
 * @indir_dma: the table's bus address
 *
 * The device may see the chain only after a later notification.
 * Return: 0, -ENOSPC when the ring lacks descriptors (retry after a
 * completion), -EINVAL for a malformed chain, -EIO when the queue is broken.
 */
int virtq_add(struct virtq *vq, const struct virtq_buf *bufs, unsigned n, void *cookie,
	      struct virtq_desc *indir, dma_addr_t indir_dma);

/*
 * After one or more virtq_add: publish nothing new, but decide whether
 * the device needs a notification (2.6.7.2 with or without event index).
 */
bool virtq_kick_prepare(struct virtq *vq);

/*
 * The cookie of the next used chain (its descriptors freed, *len the
 * bytes the device wrote), or NULL when there is none.  A used entry
 * naming a free or out-of-range head marks the queue broken and
 * returns NULL.
 */
void *virtq_get_buf(struct virtq *vq, u32 *len);

/* True when the device has used chains not yet reaped. */
bool virtq_more_used(const struct virtq *vq);

/* Ask the device not to interrupt for this queue (a hint, 2.6.7). */
void virtq_disable_cb(struct virtq *vq);
/*
 * Ask for an interrupt at the next used chain; returns true when chains
 * were used meanwhile, so the caller must reap again (2.6.7.1 race).
 */
bool virtq_enable_cb(struct virtq *vq);

#endif
