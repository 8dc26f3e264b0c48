/*
 * The virtio-blk driver's private declarations (virtio 1.1, 5.2): the
 * softc, the per-request command that lives in the blk-mq request's
 * driver bytes, and the calls between virtio_blk.c (probe, disk, report)
 * and virtio_blk_io.c (the request path).
 *
 * Locks: [I] immutable after probe; [v] the queue's vbq_lock (taken with
 * interrupts off: the completion side runs in the interrupt handler);
 * [a] single-word flags read without a lock.
 */
#ifndef DRIVERS_VIRTIO_VIRTIO_BLK_PRIV_H
#define DRIVERS_VIRTIO_VIRTIO_BLK_PRIV_H

#include "block/blk-mq.h"
#include "block/genhd.h"
#include "drivers/virtio/virtioreg.h"
#include "drivers/virtio/virtiovar.h"
#include "kernel/spinlock.h"
#include "kernel/work.h"

#define VBLK_MAX_SEGS		128	/* data s/g entries per request */
#define VBLK_QUEUE_MAX		256	/* ring entries we ask for per queue */
#define VBLK_MINORS		16	/* vda + 15 partitions, as Linux */
#define VBLK_MAX_SECTORS	4096u	/* 512-byte sectors per request: 2 MiB */
#define VBLK_TIMEOUT_MS		30000	/* ms before a request is called lost */
#define VBLK_ID_TIMEOUT_MS	2000	/* ms for GET_ID at probe */
#define VBLK_MAX_RANGE		0x7ffff8u	/* sectors per DISCARD / WRITE_ZEROES */

struct gendisk;
struct virtio_blk;

/* One virtqueue and what its lock covers. */
struct vblk_queue {
	spinlock_t		vbq_lock;
	struct virtio_pci_vq	*vbq_vq;	/* [I] ring, [v] its state */
	struct virtio_blk	*vbq_vb;	/* [I] */
	bool			vbq_kick;	/* [v] added since the last notify */
	u64			vbq_reqs;	/* [v] requests posted */
	u64			vbq_notifies;	/* [v] notifications sent */
	u32			vbq_inflight;	/* [v] requests on the ring */
	u32			vbq_max_inflight; /* [v] the most at once */
};

/* The driver bytes of each request (tag set cmd_size): lowmem, DMA'd. */
struct vblk_req {
	struct virtio_blk_outhdr	vr_hdr;		/* device-readable */
	struct virtio_blk_discard_write_zeroes vr_range;	/* device-readable */
	u8				vr_status;	/* device-writable */
	struct vblk_req			*vr_next;	/* [v] completion batch */
	struct virtq_desc		vr_indir[VBLK_MAX_SEGS + 3];	/* indirect table */
	struct scatterlist		vr_sg[VBLK_MAX_SEGS];
};

struct virtio_blk {
	struct virtio_pci	vb_vp;		/* [I] transport */
	char			vb_name[DISK_NAME_LEN];	/* [I] "vda" */
	unsigned		vb_index;	/* [I] 0 for vda */
	u64			vb_capacity;	/* [a] 512-byte sectors */
	u32			vb_lbs;		/* [I] logical block bytes */
	u32			vb_pbs;		/* [I] physical block bytes */
	u32			vb_seg_max;	/* [I] data segments per request */
	u32			vb_size_max;	/* [I] bytes per segment */
	u32			vb_max_discard;	/* [I] sectors, 0: no DISCARD */
	u32			vb_discard_align; /* [I] sectors */
	u32			vb_max_wz;	/* [I] sectors, 0: no WRITE_ZEROES */
	char			vb_serial[VIRTIO_BLK_ID_BYTES + 1];	/* [I] GET_ID */
	u16			vb_nqueues;	/* [I] in use */
	u16			vb_dev_queues;	/* [I] the device offers */
	struct vblk_queue	vb_queues[VIRTIO_PCI_MAX_VQS];
	struct blk_mq_tag_set	vb_set;		/* [I] */
	struct request_queue	*vb_queue;	/* [I] */
	struct gendisk		*vb_disk;	/* [I] */
	bool			vb_broken;	/* [a] NEEDS_RESET or a broken ring: I/O fails */
	struct work		vb_reset_work;	/* fails what is in flight after NEEDS_RESET */
	/* GET_ID at probe, before the disk exists: */
	struct vblk_req		*vb_id_req;	/* [v] its command, polled */
	bool			vb_id_done;	/* [v] */
	u64			vb_errors;	/* [a] requests the device failed */
};

/* virtio_blk_io.c */
extern const struct blk_mq_ops vblk_mq_ops;
extern const struct virtio_pci_ops vblk_vp_ops;
int vblk_get_id(struct virtio_blk *vb);
void vblk_io_init(struct virtio_blk *vb);

/* virtio_blk.c */
extern const struct block_device_operations vblk_disk_ops;

#endif
