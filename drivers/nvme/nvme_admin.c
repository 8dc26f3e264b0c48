/*
 * NVMe admin commands (NVMe 2.0 base, 5): Identify, Set Features, Create
 * I/O Completion/Submission Queue, Abort, Doorbell Buffer Config.
 *
 * One admin command is outstanding at a time and its issuer polls for it
 * with a bound: probe, the reset work and the abort path all run outside
 * interrupt context and wait for nothing else meanwhile.  The completion
 * may be reaped by the poller or by the interrupt handler (MSI and INTx
 * share one vector with the I/O queue); either way it lands in
 * c_admin_cqe, matched by command identifier, so an answer that comes
 * after its issuer gave up is dropped.
 */
#include "drivers/nvme/nvme_priv.h"
#include "kernel/errno.h"
#include "kernel/mm/page.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "lib/string.h"

/* Record the CQE of the outstanding admin command.  Any context. */
void nvme_admin_complete(struct nvme_ctrl *c, const struct nvme_cqe *cqe)
{
	unsigned long flags;

	spin_lock_irqsave(&c->c_admin_lock, flags);
	if (cqe->cid == c->c_admin_cid && !c->c_admin_done) {
		c->c_admin_cqe = *cqe;
		c->c_admin_done = true;
	}
	spin_unlock_irqrestore(&c->c_admin_lock, flags);
}

/**
 * nvme_admin_exec - run one admin command and wait for it
 * @c: the controller; @cmd: the command (cid is set here)
 * @result: DW0 of the completion, or NULL
 * @ms: how long to wait
 *
 * Returns 0; the errno of a failed status (printed here, one line);
 * -ETIMEDOUT when no answer came (the caller decides whether to reset);
 * -EIO when the controller reports a fatal status meanwhile.  Not from
 * interrupt context.
 */
int nvme_admin_exec(struct nvme_ctrl *c, struct nvme_sqe *cmd, u32 *result, u32 ms)
{
	struct nvme_queue *q = &c->c_adminq;
	unsigned long flags;
	u64 deadline = ktime_ms() + ms;
	char line[160];
	bool done;
	u16 status;

	spin_lock_irqsave(&c->c_admin_lock, flags);
	c->c_admin_cid = (u16)((c->c_admin_cid + 1) & 0x7fff);
	c->c_admin_done = false;
	cmd->cid = c->c_admin_cid;
	spin_unlock_irqrestore(&c->c_admin_lock, flags);

	spin_lock_irqsave(&q->nq_lock, flags);
	__nvme_submit(q, cmd, true);
	spin_unlock_irqrestore(&q->nq_lock, flags);

	for (;;) {
		nvme_reap(q);
		spin_lock_irqsave(&c->c_admin_lock, flags);
		done = c->c_admin_done;
		spin_unlock_irqrestore(&c->c_admin_lock, flags);
		if (done)
			break;
		if (nvme_read(c, NVME_REG_CSTS) & NVME_CSTS_CFS)
			return -EIO;
		if (ktime_ms() > deadline) {
			pr_warn("%s: %s: no answer in %u ms\n", c->c_name,
				nvme_opcode_name(cmd->opc, true), ms);
			return -ETIMEDOUT;
		}
		udelay(20);
	}
	status = nvme_status_field(c->c_admin_cqe.status);
	if (result)
		*result = c->c_admin_cqe.result;
	if (!status)
		return 0;
	nvme_format_status(line, sizeof(line), c->c_name, cmd->opc, true, 0, 0, status);
	pr_warn("%s\n", line);
	return nvme_status_errno(status);
}

/* Identify into buf, one lowmem page (5.17). */
int nvme_identify(struct nvme_ctrl *c, u32 nsid, u32 cns, void *buf)
{
	struct nvme_sqe cmd = {
		.opc = NVME_ADMIN_IDENTIFY,
		.nsid = nsid,
		.prp1 = __pa(buf),
		.cdw10 = cns,
	};

	return nvme_admin_exec(c, &cmd, NULL, NVME_ADMIN_TIMEOUT_MS);
}

/* Number of Queues (5.27.1.5): ask for want pairs, learn how many were granted. */
int nvme_set_queues(struct nvme_ctrl *c, u32 want, u32 *granted)
{
	struct nvme_sqe cmd = {
		.opc = NVME_ADMIN_SET_FEATURES,
		.cdw10 = NVME_FEAT_NUM_QUEUES,
		.cdw11 = (want - 1) | (want - 1) << 16,
	};
	u32 res, nsq, ncq;
	int err;

	err = nvme_admin_exec(c, &cmd, &res, NVME_ADMIN_TIMEOUT_MS);
	if (err)
		return err;
	nsq = (res & 0xffff) + 1;
	ncq = (res >> 16) + 1;
	*granted = nsq < ncq ? nsq : ncq;
	if (*granted > want)
		*granted = want;
	return 0;
}

/* Create I/O CQ then SQ for q (5.4, 5.5), physically contiguous rings. */
int nvme_create_io_queue(struct nvme_ctrl *c, struct nvme_queue *q)
{
	struct nvme_sqe cq = {
		.opc = NVME_ADMIN_CREATE_CQ,
		.prp1 = q->nq_cq_dma,
		.cdw10 = (u32)(q->nq_depth - 1) << 16 | q->nq_qid,
		.cdw11 = (u32)q->nq_vector << 16 | NVME_QUEUE_PHYS_CONTIG |
			 (c->c_irq_mode == NVME_IRQ_POLL ? 0 : NVME_CQ_IRQ_ENABLED),
	};
	struct nvme_sqe sq = {
		.opc = NVME_ADMIN_CREATE_SQ,
		.prp1 = q->nq_sq_dma,
		.cdw10 = (u32)(q->nq_depth - 1) << 16 | q->nq_qid,
		.cdw11 = (u32)q->nq_qid << 16 | NVME_SQ_PRIO_MEDIUM | NVME_QUEUE_PHYS_CONTIG,
	};
	unsigned long flags;
	int err;

	err = nvme_admin_exec(c, &cq, NULL, NVME_ADMIN_TIMEOUT_MS);
	if (err)
		return err;
	err = nvme_admin_exec(c, &sq, NULL, NVME_ADMIN_TIMEOUT_MS);
	if (err)
		return err;
	spin_lock_irqsave(&q->nq_lock, flags);
	q->nq_live = true;
	spin_unlock_irqrestore(&q->nq_lock, flags);
	return 0;
}

/*
 * Abort (5.1) command cid of queue sqid.  *aborted says whether the
 * controller will end it (with Command Abort Requested); a controller may
 * always decline (DW0 bit 0 set).  Returns 0 or an errno.
 */
int nvme_abort(struct nvme_ctrl *c, u16 sqid, u16 cid, bool *aborted)
{
	struct nvme_sqe cmd = {
		.opc = NVME_ADMIN_ABORT,
		.cdw10 = (u32)cid << 16 | sqid,
	};
	u32 res = 1;
	int err;

	c->c_aborts++;
	err = nvme_admin_exec(c, &cmd, &res, NVME_ADMIN_TIMEOUT_MS);
	*aborted = !err && !(res & 1);
	return err;
}

/*
 * Doorbell Buffer Config (5.11): the shadow doorbell page (PRP1) and the
 * EventIdx page (PRP2), each one memory page.  Returns 0 or an errno.
 */
int nvme_dbbuf_config(struct nvme_ctrl *c, u64 dbs_dma, u64 eis_dma)
{
	struct nvme_sqe cmd = {
		.opc = NVME_ADMIN_DBBUF_CONFIG,
		.prp1 = dbs_dma,
		.prp2 = eis_dma,
	};

	return nvme_admin_exec(c, &cmd, NULL, NVME_ADMIN_TIMEOUT_MS);
}
