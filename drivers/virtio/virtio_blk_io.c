/*
 * virtio-blk request path (virtio 1.1, 5.2.6) on blk-mq.
 *
 *   queue_rq: one request becomes one chain -- the 16-byte header
 *     (device-readable), the data pages (readable for writes, writable
 *     for reads) or one DISCARD/WRITE_ZEROES range, and the status byte
 *     (device-writable).  Chains of more than one buffer go in the
 *     request's own indirect table when VIRTIO_F_INDIRECT_DESC was
 *     negotiated, so a 256-entry ring holds 256 requests.  A full ring
 *     answers BLK_MQ_RQ_BUSY; the core retries at the next completion.
 *     The device is notified at the end of a batch (bd->last or
 *     commit_rqs), and only when the suppression rules say it listens.
 *   interrupt: the queue's vector (or INTx) reaps the used ring with
 *     callbacks off, re-enables them and reaps again if the device got
 *     ahead (2.6.7.1), then ends the reaped requests outside the lock.
 *   status: OK -> 0, UNSUPP -> -EOPNOTSUPP, IOERR and anything else ->
 *     -EIO, for that request only.
 *
 * The device configuration can change under us: NEEDS_RESET (2.1.2)
 * fails everything in flight and everything after (the disk stays, its
 * I/O ends in -EIO) from a work item; a capacity change is printed and
 * applied.
 *
 * Locking: vbq_lock per virtqueue, with interrupts off, around the ring.
 */
#include "block/bio.h"
#include "block/genhd.h"
#include "drivers/virtio/virtio_blk_priv.h"
#include "kernel/errno.h"
#include "kernel/mm/page.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "lib/byteorder.h"
#include "lib/string.h"

static int vblk_status_errno(u8 status)
{
	switch (status) {
	case VIRTIO_BLK_S_OK:		return 0;
	case VIRTIO_BLK_S_UNSUPP:	return -EOPNOTSUPP;
	default:			return -EIO;
	}
}

/* The request type (5.2.6) for rq; -EOPNOTSUPP for what was not negotiated. */
static int vblk_type(struct virtio_blk *vb, struct request *rq, u32 *type)
{
	if (blk_rq_is_flush(rq))
		*type = VIRTIO_BLK_T_FLUSH;
	else if (blk_rq_is_discard(rq))
		*type = VIRTIO_BLK_T_DISCARD;
	else if (blk_rq_is_write_zeroes(rq))
		*type = VIRTIO_BLK_T_WRITE_ZEROES;
	else
		*type = rq_is_write(rq) ? VIRTIO_BLK_T_OUT : VIRTIO_BLK_T_IN;
	if ((*type == VIRTIO_BLK_T_DISCARD && !vb->vb_max_discard) ||
	    (*type == VIRTIO_BLK_T_WRITE_ZEROES && !vb->vb_max_wz) ||
	    (*type == VIRTIO_BLK_T_FLUSH && !virtio_has(&vb->vb_vp, VIRTIO_BLK_F_FLUSH)))
		return -EOPNOTSUPP;
	return 0;
}

/*
 * Describe rq as buffers: header, data or range, status.  Returns the
 * buffer count, or -errno for a request the device cannot take.
 */
static int vblk_build(struct virtio_blk *vb, struct request *rq, struct vblk_req *vr,
		      struct virtq_buf *bufs)
{
	u32 type;
	int n = 0, nsg, i, ret;

	ret = vblk_type(vb, rq, &type);
	if (ret)
		return ret;
	vr->vr_hdr.type = cpu_to_le32(type);
	vr->vr_hdr.ioprio = 0;
	/* 5.2.6.1: sector is 0 for FLUSH; in 512-byte units regardless of blk_size. */
	vr->vr_hdr.sector = cpu_to_le64(type == VIRTIO_BLK_T_FLUSH ? 0 : blk_rq_pos(rq));
	vr->vr_status = 0xff;
	bufs[n++] = (struct virtq_buf){ __pa(&vr->vr_hdr), sizeof(vr->vr_hdr), false };
	if (type == VIRTIO_BLK_T_DISCARD || type == VIRTIO_BLK_T_WRITE_ZEROES) {
		vr->vr_range.sector = cpu_to_le64(blk_rq_pos(rq));
		vr->vr_range.num_sectors = cpu_to_le32(blk_rq_sectors(rq));
		/* WRITE_ZEROES may unmap only if we say so; a DISCARD has no flags. */
		vr->vr_range.flags = 0;
		bufs[n++] = (struct virtq_buf){ __pa(&vr->vr_range), sizeof(vr->vr_range), false };
	} else if (type != VIRTIO_BLK_T_FLUSH) {
		nsg = blk_rq_map_sg(rq->rq_q, rq, vr->vr_sg, VBLK_MAX_SEGS);
		if (nsg <= 0)
			return -EIO;
		for (i = 0; i < nsg; i++)
			bufs[n++] = (struct virtq_buf){ vr->vr_sg[i].sg_addr, vr->vr_sg[i].sg_len,
							type == VIRTIO_BLK_T_IN };
	}
	bufs[n++] = (struct virtq_buf){ __pa(&vr->vr_status), 1, true };
	return n;
}

/*
 * vbq_lock held: does the device want a notification for what was added
 * since the last?  The caller notifies (virtio_pci_notify) after
 * unlocking, as Linux's virtio_blk does: the notify is a doorbell the
 * device answers in its own time, and under an emulator it is an exit in
 * which the device may process the whole ring -- long enough, under the
 * lock, to keep the completion interrupt on another CPU spinning.
 */
static bool __vblk_kick_prepare(struct vblk_queue *vbq)
{
	bool notify = vbq->vbq_kick && virtq_kick_prepare(&vbq->vbq_vq->pq_vq);

	vbq->vbq_kick = false;
	if (notify)
		vbq->vbq_notifies++;
	return notify;
}

static int vblk_queue_rq(struct blk_mq_hw_ctx *hctx, const struct blk_mq_queue_data *bd)
{
	struct vblk_queue *vbq = hctx->driver_data;
	struct virtio_blk *vb = vbq->vbq_vb;
	struct request *rq = bd->rq;
	struct vblk_req *vr = blk_mq_rq_to_pdu(rq);
	struct virtq_buf bufs[VBLK_MAX_SEGS + 3];
	unsigned long flags;
	bool notify = false;
	int n, ret;

	if (READ_ONCE(vb->vb_broken))
		return -EIO;
	n = vblk_build(vb, rq, vr, bufs);
	if (n < 0)
		return n;
	spin_lock_irqsave(&vbq->vbq_lock, flags);
	ret = virtq_add(&vbq->vbq_vq->pq_vq, bufs, (unsigned)n, vr,
			virtio_has(&vb->vb_vp, VIRTIO_F_INDIRECT_DESC) ? vr->vr_indir : NULL,
			__pa(vr->vr_indir));
	if (ret == 0) {
		/* Under the lock: its completion cannot be reaped before this. */
		blk_mq_start_request(rq);
		vbq->vbq_reqs++;
		if (++vbq->vbq_inflight > vbq->vbq_max_inflight)
			vbq->vbq_max_inflight = vbq->vbq_inflight;
		vbq->vbq_kick = true;
	}
	if (bd->last || ret)
		notify = __vblk_kick_prepare(vbq);
	spin_unlock_irqrestore(&vbq->vbq_lock, flags);
	if (notify)
		virtio_pci_notify(vbq->vbq_vq);
	if (ret == -ENOSPC)
		return BLK_MQ_RQ_BUSY;
	return ret;
}

static void vblk_commit_rqs(struct blk_mq_hw_ctx *hctx)
{
	struct vblk_queue *vbq = hctx->driver_data;
	unsigned long flags;
	bool notify;

	spin_lock_irqsave(&vbq->vbq_lock, flags);
	notify = __vblk_kick_prepare(vbq);
	spin_unlock_irqrestore(&vbq->vbq_lock, flags);
	if (notify)
		virtio_pci_notify(vbq->vbq_vq);
}

static int vblk_init_hctx(struct blk_mq_hw_ctx *hctx, void *set_data, u32 idx)
{
	struct virtio_blk *vb = set_data;

	if (idx >= vb->vb_nqueues)
		return -EINVAL;
	hctx->driver_data = &vb->vb_queues[idx];
	return 0;
}

/* A request the device has not answered in VBLK_TIMEOUT_MS. */
static enum blk_eh_timer_return vblk_timeout(struct request *rq)
{
	struct virtio_blk *vb = rq->rq_q->q_queuedata;

	/* virtio-blk has no abort (5.2): wait on, unless the device is gone. */
	pr_warn("%s: request at sector %llu (%u bytes) still out after %u ms\n", vb->vb_name,
		(unsigned long long)blk_rq_pos(rq), blk_rq_bytes(rq), VBLK_TIMEOUT_MS);
	return READ_ONCE(vb->vb_broken) ? BLK_EH_FAIL : BLK_EH_RESET_TIMER;
}

/*
 * Reap the used ring of vbq into a list (lock held); the caller ends
 * them after unlocking, since ending may run the queue again.
 */
static struct vblk_req *__vblk_reap(struct virtio_blk *vb, struct vblk_queue *vbq)
{
	struct virtq *vq = &vbq->vbq_vq->pq_vq;
	struct vblk_req *done = NULL, **tail = &done, *vr;
	u32 len;

	do {
		virtq_disable_cb(vq);
		while ((vr = virtq_get_buf(vq, &len))) {
			if (vr == vb->vb_id_req) {
				vb->vb_id_done = true;
				continue;
			}
			vbq->vbq_inflight--;
			vr->vr_next = NULL;
			*tail = vr;
			tail = &vr->vr_next;
		}
	} while (virtq_enable_cb(vq) && !vq->vq_broken);
	if (vq->vq_broken && !vb->vb_broken) {
		pr_err("%s: queue %u: the device broke the ring protocol\n", vb->vb_name,
		       vbq->vbq_vq->pq_index);
		WRITE_ONCE(vb->vb_broken, true);
		schedule_work(&vb->vb_reset_work);
	}
	return done;
}

#define VBLK_END_BATCH	32u	/* requests ended per block-layer lock round */

static void vblk_end_list(struct virtio_blk *vb, struct vblk_req *vr)
{
	struct request *rqs[VBLK_END_BATCH];
	int errs[VBLK_END_BATCH];
	u32 n = 0;

	while (vr) {
		struct vblk_req *next = vr->vr_next;
		struct request *rq = blk_mq_rq_from_pdu(vr);
		int err = vblk_status_errno(vr->vr_status);

		if (err && err != -EOPNOTSUPP) {
			vb->vb_errors++;
			if (blk_ratelimit_ok(rq->rq_q))
				pr_err("%s: %s error (status %u) at sector %llu (%u bytes)\n",
				       vb->vb_name, blk_rq_is_flush(rq) ? "flush" :
				       rq_is_write(rq) ? "write" : "read", vr->vr_status,
				       (unsigned long long)blk_rq_pos(rq), blk_rq_bytes(rq));
		}
		rqs[n] = rq;
		errs[n++] = err;
		if (n == VBLK_END_BATCH) {
			blk_mq_end_requests(rqs, errs, n);
			n = 0;
		}
		vr = next;
	}
	blk_mq_end_requests(rqs, errs, n);
}

/* A queue's interrupt: reap, then end what was reaped.  Interrupt context. */
static void vblk_vq_intr(struct virtio_pci *vp, u16 qidx)
{
	struct virtio_blk *vb = vp->vp_priv;
	struct vblk_queue *vbq;
	struct vblk_req *done;

	if (qidx >= vb->vb_nqueues)
		return;
	vbq = &vb->vb_queues[qidx];
	spin_lock(&vbq->vbq_lock);
	done = __vblk_reap(vb, vbq);
	spin_unlock(&vbq->vbq_lock);
	vblk_end_list(vb, done);
}

/* End every started request with -EIO (after NEEDS_RESET or a broken ring). */
static bool vblk_fail_one(struct request *rq, void *data)
{
	(void)data;
	blk_mq_end_request(rq, -EIO);
	return true;
}

/*
 * Work: the device asked to be reset or broke its ring.  Stop it
 * touching memory (reset), then fail what it held; the disk stays and
 * its I/O fails from now on.
 */
static void vblk_reset_work(struct work *w)
{
	struct virtio_blk *vb = container_of(w, struct virtio_blk, vb_reset_work);

	if (!vb->vb_queue)
		return;
	blk_mq_stop_hw_queues(vb->vb_queue);
	blk_mq_quiesce_queue(vb->vb_queue);
	/* A reset stops all DMA into the requests about to be failed (2.1.2). */
	virtio_pci_reset(&vb->vb_vp);
	virtio_pci_fail(&vb->vb_vp);
	blk_mq_tagset_busy_iter(&vb->vb_set, vblk_fail_one, NULL);
	blk_mq_start_hw_queues(vb->vb_queue);
	pr_err("%s: failed; its I/O now ends in errors\n", vb->vb_name);
}

/* Configuration change (4.1.4.5 / MSI-X config vector).  Interrupt context. */
static void vblk_config(struct virtio_pci *vp)
{
	struct virtio_blk *vb = vp->vp_priv;
	u64 cap;

	if (virtio_pci_status(vp) & VIRTIO_STATUS_NEEDS_RESET) {
		if (!vb->vb_broken) {
			pr_err("%s: device needs a reset (2.1.2)\n", vb->vb_name);
			WRITE_ONCE(vb->vb_broken, true);
			schedule_work(&vb->vb_reset_work);
		}
		return;
	}
	cap = virtio_pci_cfg_read(vp, VIRTIO_BLK_CFG_CAPACITY, 8);
	if (cap != vb->vb_capacity && vb->vb_disk) {
		pr_info("%s: capacity changed: %llu -> %llu sectors\n", vb->vb_name,
			(unsigned long long)vb->vb_capacity, (unsigned long long)cap);
		vb->vb_capacity = cap;
		set_capacity(vb->vb_disk, cap);
	}
}

/**
 * vblk_get_id - ask the device for its serial (VIRTIO_BLK_T_GET_ID)
 * @vb: queues up and DRIVER_OK set, no disk yet
 *
 * Polls queue 0 (the interrupt handler may reap it first; either way
 * vb_id_done says so).  Fills vb_serial (empty when the device does not
 * answer).  Returns 0, -ETIMEDOUT, -ENOMEM or the device's status.
 */
int vblk_get_id(struct virtio_blk *vb)
{
	struct vblk_queue *vbq = &vb->vb_queues[0];
	struct vblk_req *vr;
	struct virtq_buf bufs[3];
	unsigned long flags;
	bool notify = false;
	u8 *id;
	u64 end;
	int ret;

	vr = get_free_pages(GFP_KERNEL, 0);
	if (!vr)
		return -ENOMEM;
	_Static_assert(sizeof(*vr) + VIRTIO_BLK_ID_BYTES <= PAGE_SIZE, "GET_ID page");
	id = (u8 *)(vr + 1);
	memset(vr, 0, sizeof(*vr) + VIRTIO_BLK_ID_BYTES);
	vr->vr_hdr.type = cpu_to_le32(VIRTIO_BLK_T_GET_ID);
	vr->vr_status = 0xff;
	bufs[0] = (struct virtq_buf){ __pa(&vr->vr_hdr), sizeof(vr->vr_hdr), false };
	bufs[1] = (struct virtq_buf){ __pa(id), VIRTIO_BLK_ID_BYTES, true };
	bufs[2] = (struct virtq_buf){ __pa(&vr->vr_status), 1, true };

	spin_lock_irqsave(&vbq->vbq_lock, flags);
	vb->vb_id_req = vr;
	vb->vb_id_done = false;
	ret = virtq_add(&vbq->vbq_vq->pq_vq, bufs, 3, vr, NULL, 0);
	if (!ret) {
		vbq->vbq_kick = true;
		notify = __vblk_kick_prepare(vbq);
	}
	spin_unlock_irqrestore(&vbq->vbq_lock, flags);
	if (notify)
		virtio_pci_notify(vbq->vbq_vq);
	if (ret)
		goto out;
	end = ktime_ms() + VBLK_ID_TIMEOUT_MS;
	for (;;) {
		struct vblk_req *stray;
		bool done;

		spin_lock_irqsave(&vbq->vbq_lock, flags);
		stray = __vblk_reap(vb, vbq);	/* nothing else is out yet */
		done = vb->vb_id_done;
		spin_unlock_irqrestore(&vbq->vbq_lock, flags);
		vblk_end_list(vb, stray);
		if (done)
			break;
		if (ktime_ms() > end) {
			/* The chain stays posted: leak the page rather than let it be reused. */
			pr_warn("%s: GET_ID not answered in %u ms\n", vb->vb_name, VBLK_ID_TIMEOUT_MS);
			return -ETIMEDOUT;
		}
		udelay(50);
	}
	ret = vblk_status_errno(vr->vr_status);
	if (!ret) {
		unsigned i;

		/* 5.2.6: up to 20 bytes, NUL-terminated only if shorter. */
		for (i = 0; i < VIRTIO_BLK_ID_BYTES && id[i]; i++)
			vb->vb_serial[i] = (id[i] >= 0x20 && id[i] < 0x7f) ? (char)id[i] : '?';
		vb->vb_serial[i] = '\0';
	}
out:
	spin_lock_irqsave(&vbq->vbq_lock, flags);
	vb->vb_id_req = NULL;
	spin_unlock_irqrestore(&vbq->vbq_lock, flags);
	free_pages(vr, 0);
	return ret;
}

/* Set up vb_reset_work; called by probe before any interrupt can come. */
void vblk_io_init(struct virtio_blk *vb)
{
	work_init(&vb->vb_reset_work, vblk_reset_work);
}

const struct blk_mq_ops vblk_mq_ops = {
	.queue_rq	= vblk_queue_rq,
	.commit_rqs	= vblk_commit_rqs,
	.init_hctx	= vblk_init_hctx,
	.timeout	= vblk_timeout,
};

const struct virtio_pci_ops vblk_vp_ops = {
	.vo_vq_intr	= vblk_vq_intr,
	.vo_config	= vblk_config,
};
