/*
 * NVMe queue pairs (NVMe 2.0 base 3.3.1, 4.1): the rings in memory, the
 * doorbells, submission and reaping.
 *
 * A submission queue is a ring of 64-byte commands; the host writes at
 * its tail and tells the controller through the SQ tail doorbell.  A
 * completion queue is a ring of 16-byte entries the controller writes,
 * each with a phase tag that flips every pass, so a new entry is one
 * whose phase is the one expected (4.6.1).  The host consumes at the head
 * and gives room back through the CQ head doorbell.
 *
 * Reaping copies new entries out under the queue lock, rings the CQ head
 * doorbell, then hands them on with the lock dropped: ending a request
 * may dispatch the next one, whose queue_rq takes the lock again.
 *
 * A doorbell register write is a trap into an emulated controller, so
 * where the controller offers a shadow doorbell buffer (nvme.c) every
 * I/O queue's doorbell value goes to memory first and the register is
 * written only when the controller's EventIdx asks for it (NVMe 1.4
 * 7.13): an emulator that is still working through the ring picks the
 * new tail up from memory, and one that reads the CQ head from memory
 * never needs it rung.
 *
 * Ring memory is lowmem and physically contiguous (CAP.CQR or not), so
 * one PRP per ring is enough (PC = 1 in Create I/O CQ/SQ).
 */
#include "drivers/nvme/nvme_priv.h"
#include "kernel/cpu.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/mm/page.h"
#include "kernel/mm/slab.h"
#include "lib/event_idx.h"
#include "lib/string.h"

#define REAP_BATCH	32	/* entries copied out per lock hold */

static unsigned order_of(size_t bytes)
{
	unsigned o = 0;

	while (((size_t)PAGE_SIZE << o) < bytes)
		o++;
	return o;
}

/**
 * nvme_queue_alloc - memory for a queue pair
 * @c, @q: the controller and the (zeroed) queue to fill
 * @qid: 0 for admin; @depth: entries; @vector: its interrupt vector
 * @io: also a PRP list page per entry and the aligned copy buffer
 *
 * Returns 0 or -ENOMEM (everything taken is given back).  Sleeps.
 */
int nvme_queue_alloc(struct nvme_ctrl *c, struct nvme_queue *q, u16 qid, u16 depth,
		     u16 vector, bool io)
{
	unsigned i;

	q->nq_ctrl = c;
	q->nq_qid = qid;
	q->nq_depth = depth;
	q->nq_vector = vector;
	spin_lock_init(&q->nq_lock, qid ? "nvme_ioq" : "nvme_adminq");
	q->nq_sq = get_free_pages(GFP_KERNEL | __GFP_ZERO, order_of(depth * sizeof(struct nvme_sqe)));
	q->nq_cq = get_free_pages(GFP_KERNEL | __GFP_ZERO, order_of(depth * sizeof(struct nvme_cqe)));
	if (!q->nq_sq || !q->nq_cq)
		goto fail;
	q->nq_sq_dma = __pa(q->nq_sq);
	q->nq_cq_dma = __pa((void *)q->nq_cq);
	/* 3.1.3.21: SQ y tail at 0x1000 + (2y) stride, CQ y head at (2y + 1). */
	q->nq_sq_db = (volatile u32 *)(c->c_regs + NVME_REG_DBS + (2u * qid) * c->c_db_stride);
	q->nq_cq_db = (volatile u32 *)(c->c_regs + NVME_REG_DBS + (2u * qid + 1) * c->c_db_stride);
	nvme_queue_reset(q);
	if (!io)
		return 0;
	q->nq_prp = kcalloc(depth, sizeof(*q->nq_prp), GFP_KERNEL);
	if (!q->nq_prp)
		goto fail;
	for (i = 0; i < depth; i++) {
		q->nq_prp[i] = get_zeroed_page(GFP_KERNEL);
		if (!q->nq_prp[i])
			goto fail;
	}
	q->nq_bounce = get_free_pages(GFP_KERNEL, order_of(c->c_max_xfer));
	if (!q->nq_bounce)
		goto fail;
	return 0;

fail:
	nvme_queue_free(q);
	return -ENOMEM;
}

/* Give back what nvme_queue_alloc took, all or some. */
void nvme_queue_free(struct nvme_queue *q)
{
	struct nvme_ctrl *c = q->nq_ctrl;
	unsigned i;

	if (q->nq_prp) {
		for (i = 0; i < q->nq_depth; i++)
			if (q->nq_prp[i])
				free_pages(q->nq_prp[i], 0);
		kfree(q->nq_prp);
		q->nq_prp = NULL;
	}
	if (q->nq_bounce)
		free_pages(q->nq_bounce, order_of(c->c_max_xfer));
	if (q->nq_sq)
		free_pages(q->nq_sq, order_of(q->nq_depth * sizeof(struct nvme_sqe)));
	if (q->nq_cq)
		free_pages((void *)q->nq_cq, order_of(q->nq_depth * sizeof(struct nvme_cqe)));
	q->nq_bounce = NULL;
	q->nq_sq = NULL;
	q->nq_cq = NULL;
}

/* Empty rings, as after the controller was disabled (7.6.2: the queues are gone). */
void nvme_queue_reset(struct nvme_queue *q)
{
	unsigned long flags;

	spin_lock_irqsave(&q->nq_lock, flags);
	memset(q->nq_sq, 0, q->nq_depth * sizeof(struct nvme_sqe));
	memset((void *)q->nq_cq, 0, q->nq_depth * sizeof(struct nvme_cqe));
	q->nq_sq_tail = 0;
	q->nq_sq_told = 0;
	q->nq_cq_head = 0;
	q->nq_phase = NVME_CQE_PHASE;
	q->nq_inflight = 0;
	q->nq_live = false;
	q->nq_bounce_busy = false;
	spin_unlock_irqrestore(&q->nq_lock, flags);
}

/**
 * nvme_queue_dbbuf - use shadow doorbells for a queue, or stop
 * @q: an I/O queue, its rings empty (allocated, or just reset)
 * @dbs, @eis: the controller's shadow doorbell and EventIdx pages, or
 *	NULL for register writes only
 * @intx: the queue's interrupt is a level-triggered INTx line
 *
 * The words sit where the registers do in BAR0's doorbell array (1.4
 * 7.13), so at the same stride.  The controller may read any shadow word
 * at any time, so each is kept current; with INTx the CQ head register
 * is written every time as well, since only that write lowers the line.
 */
void nvme_queue_dbbuf(struct nvme_queue *q, u32 *dbs, u32 *eis, bool intx)
{
	u32 stride = q->nq_ctrl->c_db_stride / sizeof(u32);
	u32 sq_off = 2u * q->nq_qid * stride, cq_off = sq_off + stride;
	unsigned long flags;

	spin_lock_irqsave(&q->nq_lock, flags);
	q->nq_sq_shadow = dbs ? &dbs[sq_off] : NULL;
	q->nq_sq_ei = dbs ? &eis[sq_off] : NULL;
	q->nq_cq_shadow = dbs ? &dbs[cq_off] : NULL;
	q->nq_cq_ei = dbs && !intx ? &eis[cq_off] : NULL;
	spin_unlock_irqrestore(&q->nq_lock, flags);
}

/*
 * Move a doorbell from old to new: the shadow word when there is one,
 * and the register unless an EventIdx says the controller need not be
 * told.  The shadow store must be visible before the EventIdx is read
 * (the controller writes EventIdx, then reads the shadow), hence the
 * full fence: x86 lets a load pass an earlier store.
 */
static void ring(volatile u32 *reg, volatile u32 *shadow, volatile u32 *ei, u16 old, u16 new)
{
	if (shadow)
		*shadow = new;
	if (ei) {
		device_mb();
		if (!event_idx_passed((u16)*ei, new, old))
			return;
	}
	writel(reg, new);
}

/* Tell the controller about everything up to the tail.  Queue lock held. */
void __nvme_ring(struct nvme_queue *q)
{
	if (q->nq_sq_told == q->nq_sq_tail)
		return;
	ring(q->nq_sq_db, q->nq_sq_shadow, q->nq_sq_ei, q->nq_sq_told, q->nq_sq_tail);
	q->nq_sq_told = q->nq_sq_tail;
}

/*
 * Put cmd at the tail; ring the doorbell when ring.  Queue lock held; the
 * caller made sure there is room (tags never exceed depth - 1).
 */
void __nvme_submit(struct nvme_queue *q, const struct nvme_sqe *cmd, bool ring)
{
	memcpy(&q->nq_sq[q->nq_sq_tail], cmd, sizeof(*cmd));
	if (++q->nq_sq_tail == q->nq_depth)
		q->nq_sq_tail = 0;
	q->nq_inflight++;
	if (ring)
		__nvme_ring(q);
}

/**
 * nvme_reap - hand on every new completion of a queue
 * @q: the queue (admin or I/O)
 *
 * Any context.  Returns the number of entries consumed.
 */
int nvme_reap(struct nvme_queue *q)
{
	struct nvme_cqe batch[REAP_BATCH];
	int total = 0;

	if (!q->nq_cq)
		return 0;	/* not allocated yet (a vector shared before bring-up) */

	for (;;) {
		struct request *rqs[REAP_BATCH], *rq;
		int errs[REAP_BATCH];
		unsigned long flags;
		unsigned n = 0, i, m = 0;
		u16 head;

		spin_lock_irqsave(&q->nq_lock, flags);
		head = q->nq_cq_head;
		while (n < REAP_BATCH) {
			volatile struct nvme_cqe *e = &q->nq_cq[q->nq_cq_head];

			if ((e->status & NVME_CQE_PHASE) != q->nq_phase)
				break;
			barrier();	/* the rest of the entry after its phase */
			memcpy(&batch[n++], (const void *)e, sizeof(batch[0]));
			if (++q->nq_cq_head == q->nq_depth) {
				q->nq_cq_head = 0;
				q->nq_phase ^= NVME_CQE_PHASE;
			}
		}
		if (n) {
			ring(q->nq_cq_db, q->nq_cq_shadow, q->nq_cq_ei, head, q->nq_cq_head);
			q->nq_inflight = (u16)(q->nq_inflight > n ? q->nq_inflight - n : 0);
			q->nq_completed += n;
		}
		spin_unlock_irqrestore(&q->nq_lock, flags);

		for (i = 0; i < n; i++) {
			if (q->nq_qid == 0)
				nvme_admin_complete(q->nq_ctrl, &batch[i]);
			else if ((rq = nvme_io_complete(q, &batch[i], &errs[m])))
				rqs[m++] = rq;
		}
		blk_mq_end_requests(rqs, errs, m);	/* one block-layer lock round */
		total += (int)n;
		if (n < REAP_BATCH)
			return total;
	}
}

/* One vector per queue (MSI-X): data is the queue. */
irqreturn_t nvme_queue_intr(unsigned irq, void *data)
{
	(void)irq;
	return nvme_reap(data) ? IRQ_HANDLED : IRQ_NONE;
}

/* One vector for everything (MSI, INTx): data is the controller. */
irqreturn_t nvme_intr(unsigned irq, void *data)
{
	struct nvme_ctrl *c = data;
	int n;
	u32 i;

	(void)irq;
	n = nvme_reap(&c->c_adminq);
	for (i = 0; i < c->c_nr_ioq; i++)
		n += nvme_reap(&c->c_ioqs[i]);
	return n ? IRQ_HANDLED : IRQ_NONE;
}
