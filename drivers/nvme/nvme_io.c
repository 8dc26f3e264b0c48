/*
 * The NVMe blk-mq operations: one NVM command from one request (NVM
 * command set 1.0, 3), and its completion.
 *
 *	read/write	READ/WRITE with FUA when asked (3.2.4, 3.2.6), data by
 *			PRPs or an SGL built from the request's scatter/gather
 *			list, straight from its pages (no highmem bounce: the
 *			controller reaches 64 bits)
 *	flush		FLUSH (3.2.2), sent only with a volatile write cache
 *	discard		DATASET MANAGEMENT, one range, Attribute Deallocate
 *			(3.2.3); the range sits in the tag's PRP list page
 *	write zeroes	WRITE ZEROES (3.2.8)
 *
 * Where the controller offers SGLs (Identify SGLS), a request whose
 * segments average nvme.sgl_kb or more (32 KiB, Linux's threshold too)
 * goes as an SGL: one descriptor per contiguous run instead of one PRP
 * entry per page, which the controller walks one by one.  So does one
 * that PRPs cannot describe (a segment that does not end or start on a
 * page boundary in the middle of the transfer: 1 KiB buffers of a
 * filesystem).  Without SGLs such a request goes through the queue's one
 * aligned copy buffer; while that is taken they answer BUSY.
 *
 * The command identifier is the request's tag.  A completion with a
 * retryable status (DNR clear) is resubmitted up to NVME_MAX_RETRIES
 * times; any other failure is printed as one line and ends the request
 * with the status's errno.  A request past its deadline is marked and
 * handed to the reset work (nvme.c), which aborts it or resets.
 */
#include "drivers/nvme/nvme_priv.h"
#include "kernel/errno.h"
#include "kernel/mm/highmem.h"
#include "kernel/mm/page.h"
#include "kernel/param.h"
#include "kernel/printk.h"
#include "lib/string.h"

#define NVME_MAX_SG	130	/* segments of one request: c_max_xfer / 4 KiB + 2 */

static u32 nvme_param_sgl_kb = 32;
PARAM_UINT("nvme.sgl_kb", nvme_param_sgl_kb,
	   "use an SGL when a request's segments average this many KiB (default 32, 0: PRPs only)");

static u32 nvme_param_timeout_ms;
PARAM_UINT("nvme.timeout_ms", nvme_param_timeout_ms,
	   "I/O command timeout before abort and reset, ms (0: the default, 10000)");

/* The scatter/gather scratch of a queue: used under nq_lock only. */
static struct scatterlist *queue_sg(struct nvme_queue *q)
{
	return (struct scatterlist *)q->nq_prp[q->nq_depth - 1];
}

/* Copy between a request's pages and the bounce buffer. */
static void bounce_copy(struct request *rq, u8 *buf, bool to_buf)
{
	struct req_iterator it;
	struct bio_vec bv;
	u32 off = 0;

	rq_for_each_segment(bv, rq, it) {
		u8 *p = kmap_atomic(bv.bv_page);

		if (to_buf)
			memcpy(buf + off, p + bv.bv_offset, bv.bv_len);
		else
			memcpy(p + bv.bv_offset, buf + off, bv.bv_len);
		kunmap_atomic(p);
		off += bv.bv_len;
	}
}

/* An SGL for the segments into cmd, where the controller has SGLs.  0 or an errno. */
static int map_sgl(struct nvme_ctrl *c, const struct scatterlist *sg, u32 nsg, void *list,
		   struct nvme_sqe *cmd)
{
	int err;

	if (!c->c_sgls)
		return -EOPNOTSUPP;
	err = nvme_sgl_build(sg, nsg, c->c_sgls == NVME_SGLS_DWORD, list,
			     PAGE_SIZE / sizeof(struct nvme_sgl_desc), __pa(list), &cmd->sgl1);
	if (!err)
		cmd->flags |= NVME_SQE_PSDT_SGL;
	return err;
}

/* PRPs or an SGL for rq's data into cmd.  Queue lock held.  0, BLK_MQ_RQ_BUSY or an errno. */
static int __map_data(struct nvme_queue *q, struct request *rq, struct nvme_sqe *cmd)
{
	struct nvme_ctrl *c = q->nq_ctrl;
	struct nvme_iod *iod = blk_mq_rq_to_pdu(rq);
	struct scatterlist *sg = queue_sg(q), one;
	u64 *list = q->nq_prp[rq->rq_tag];
	struct nvme_prp prp;
	bool large;
	int nsg, err;

	nsg = blk_rq_map_sg(rq->rq_q, rq, sg, NVME_MAX_SG);
	if (nsg <= 0)
		return -EIO;
	large = nvme_param_sgl_kb && blk_rq_bytes(rq) / (u32)nsg >= nvme_param_sgl_kb * 1024;
	if (large && !map_sgl(c, sg, (u32)nsg, list, cmd))
		return 0;
	err = nvme_prp_build(sg, (u32)nsg, c->c_page_size, list, PAGE_SIZE / 8, __pa(list), &prp);
	if (err == -EINVAL && !large && !map_sgl(c, sg, (u32)nsg, list, cmd))
		return 0;		/* a shape PRPs cannot take: no copy needed */
	if (err == -EINVAL) {
		if (q->nq_bounce_busy)
			return BLK_MQ_RQ_BUSY;
		if (blk_rq_bytes(rq) > c->c_max_xfer)
			return -EIO;
		q->nq_bounce_busy = true;
		iod->iod_bounced = true;
		if (rq_is_write(rq))
			bounce_copy(rq, q->nq_bounce, true);
		one.sg_addr = __pa(q->nq_bounce);
		one.sg_len = blk_rq_bytes(rq);
		err = nvme_prp_build(&one, 1, c->c_page_size, list, PAGE_SIZE / 8, __pa(list),
				     &prp);
		if (err) {
			q->nq_bounce_busy = false;
			iod->iod_bounced = false;
		}
	}
	if (err)
		return err;
	cmd->prp1 = prp.np_prp1;
	cmd->prp2 = prp.np_prp2;
	return 0;
}

/* Fill cmd for rq.  Queue lock held.  0, BLK_MQ_RQ_BUSY or an errno. */
static int __build_cmd(struct nvme_queue *q, struct request *rq, struct nvme_sqe *cmd)
{
	struct nvme_iod *iod = blk_mq_rq_to_pdu(rq);
	struct nvme_ns *ns = iod->iod_ns;
	u64 slba = blk_rq_pos(rq) >> (ns->ns_lba_shift - 9);
	u32 nlb = blk_rq_bytes(rq) >> ns->ns_lba_shift;

	memset(cmd, 0, sizeof(*cmd));
	cmd->nsid = ns->ns_id;
	cmd->cid = (u16)rq->rq_tag;
	if (blk_rq_is_flush(rq)) {
		cmd->opc = NVME_CMD_FLUSH;
	} else if (blk_rq_is_discard(rq)) {
		struct nvme_dsm_range *r = (struct nvme_dsm_range *)q->nq_prp[rq->rq_tag];

		r->cattr = 0;
		r->nlb = nlb;
		r->slba = slba;
		cmd->opc = NVME_CMD_DSM;
		cmd->prp1 = __pa(r);
		cmd->cdw10 = 0;			/* one range (0's based) */
		cmd->cdw11 = NVME_DSM_AD;
	} else if (blk_rq_is_write_zeroes(rq)) {
		if (!nlb || nlb > 0x10000)
			return -EIO;
		cmd->opc = NVME_CMD_WRITE_ZEROES;
		cmd->cdw10 = (u32)slba;
		cmd->cdw11 = (u32)(slba >> 32);
		cmd->cdw12 = nlb - 1;
	} else {
		int err;

		if (!nlb || nlb > 0x10000)
			return -EIO;
		cmd->opc = rq_is_write(rq) ? NVME_CMD_WRITE : NVME_CMD_READ;
		cmd->cdw10 = (u32)slba;
		cmd->cdw11 = (u32)(slba >> 32);
		cmd->cdw12 = nlb - 1;
		if (rq_is_write(rq) && (rq->rq_cmd_flags & REQ_FUA))
			cmd->cdw12 |= NVME_RW_FUA;
		err = __map_data(q, rq, cmd);
		if (err)
			return err;
	}
	iod->iod_opc = cmd->opc;
	return 0;
}

static int nvme_queue_rq(struct blk_mq_hw_ctx *hctx, const struct blk_mq_queue_data *bd)
{
	struct nvme_queue *q = hctx->driver_data;
	struct nvme_ctrl *c = q->nq_ctrl;
	struct request *rq = bd->rq;
	struct nvme_iod *iod = blk_mq_rq_to_pdu(rq);
	struct nvme_sqe cmd;
	unsigned long flags;
	int ret;

	if (c->c_state == NVME_CTRL_DEAD)
		return -EIO;
	iod->iod_ns = rq->rq_q->q_queuedata;
	iod->iod_bounced = false;
	iod->iod_timed_out = false;
	spin_lock_irqsave(&q->nq_lock, flags);
	if (!q->nq_live || c->c_state != NVME_CTRL_LIVE) {
		ret = BLK_MQ_RQ_BUSY;
		goto out;
	}
	ret = __build_cmd(q, rq, &cmd);
	if (ret)
		goto out;
	blk_mq_start_request(rq);
	__nvme_submit(q, &cmd, bd->last);
out:
	spin_unlock_irqrestore(&q->nq_lock, flags);
	return ret;
}

static void nvme_commit_rqs(struct blk_mq_hw_ctx *hctx)
{
	struct nvme_queue *q = hctx->driver_data;
	unsigned long flags;

	spin_lock_irqsave(&q->nq_lock, flags);
	__nvme_ring(q);
	spin_unlock_irqrestore(&q->nq_lock, flags);
}

/* Give the copy buffer back; for a read that succeeded, copy the data out first. */
static void release_bounce(struct nvme_queue *q, struct request *rq, bool copy_out)
{
	struct nvme_iod *iod = blk_mq_rq_to_pdu(rq);
	unsigned long flags;

	if (!iod->iod_bounced)
		return;
	if (copy_out && !rq_is_write(rq))
		bounce_copy(rq, q->nq_bounce, false);
	iod->iod_bounced = false;
	spin_lock_irqsave(&q->nq_lock, flags);
	q->nq_bounce_busy = false;
	spin_unlock_irqrestore(&q->nq_lock, flags);
}

/**
 * nvme_io_complete - the request of one I/O completion, to be ended
 * @q: its queue; @cqe: the entry, copied out of the ring
 * @err: where its result goes (0 or a negative errno)
 *
 * Any context, no lock held.  A retried request is requeued here.
 * Return: the request for the caller to end (with its batch:
 * blk_mq_end_requests), or NULL when there is nothing to end.
 */
struct request *nvme_io_complete(struct nvme_queue *q, const struct nvme_cqe *cqe, int *err)
{
	struct nvme_ctrl *c = q->nq_ctrl;
	u16 status = nvme_status_field(cqe->status);
	struct nvme_iod *iod;
	struct request *rq;
	char line[160];

	rq = blk_mq_tag_to_rq(&c->c_set, q->nq_qid - 1u, cqe->cid);
	if (!rq) {
		pr_warn("%s: completion for idle command %u on queue %u\n", c->c_name, cqe->cid,
			q->nq_qid);
		return NULL;
	}
	iod = blk_mq_rq_to_pdu(rq);
	iod->iod_status = status;
	release_bounce(q, rq, status == 0);
	if (status && nvme_status_retryable(status) && iod->iod_retries < NVME_MAX_RETRIES &&
	    c->c_state == NVME_CTRL_LIVE) {
		iod->iod_retries++;
		blk_mq_requeue_request(rq, true);
		return NULL;
	}
	*err = nvme_status_errno(status);
	if (status && blk_ratelimit_ok(rq->rq_q)) {
		struct nvme_ns *ns = iod->iod_ns;
		u32 nlb = iod->iod_opc == NVME_CMD_FLUSH ? 0 : blk_rq_bytes(rq) >> ns->ns_lba_shift;

		nvme_format_status(line, sizeof(line), ns->ns_name, iod->iod_opc, false,
				   blk_rq_pos(rq) >> (ns->ns_lba_shift - 9), nlb, status);
		pr_err("%s\n", line);
	}
	iod->iod_retries = 0;
	return rq;
}

static int nvme_init_hctx(struct blk_mq_hw_ctx *hctx, void *set_data, u32 idx)
{
	struct nvme_ctrl *c = set_data;

	if (idx >= c->c_nr_ioq)
		return -EINVAL;
	hctx->driver_data = c->c_ioq[idx];
	if (!c->c_ioq[idx]->nq_hctx)
		c->c_ioq[idx]->nq_hctx = hctx;
	return 0;
}

static int nvme_init_request(struct blk_mq_tag_set *set, struct request *rq, u32 hctx_idx)
{
	struct nvme_iod *iod = blk_mq_rq_to_pdu(rq);

	(void)set;
	(void)hctx_idx;
	memset(iod, 0, sizeof(*iod));
	return 0;
}

/* Past its deadline: the reset work aborts it, or resets the controller. */
static enum blk_eh_timer_return nvme_timeout(struct request *rq)
{
	struct nvme_iod *iod = blk_mq_rq_to_pdu(rq);
	struct nvme_ctrl *c = iod->iod_ns->ns_ctrl;

	if (c->c_state == NVME_CTRL_DEAD)
		return BLK_EH_FAIL;
	iod->iod_timed_out = true;
	nvme_schedule_reset(c, NULL);
	return BLK_EH_RESET_TIMER;
}

static int nvme_poll(struct blk_mq_hw_ctx *hctx)
{
	return nvme_reap(hctx->driver_data);
}

const struct blk_mq_ops nvme_mq_ops = {
	.queue_rq	= nvme_queue_rq,
	.commit_rqs	= nvme_commit_rqs,
	.init_hctx	= nvme_init_hctx,
	.init_request	= nvme_init_request,
	.timeout	= nvme_timeout,
	.poll		= nvme_poll,
};

/* The controller's tag set: one hardware queue per I/O queue pair. */
int nvme_io_init_set(struct nvme_ctrl *c)
{
	struct blk_mq_tag_set *set = &c->c_set;

	memset(set, 0, sizeof(*set));
	set->ops = &nvme_mq_ops;
	set->nr_hw_queues = c->c_nr_ioq;
	/* One entry stays empty (full ring), one PRP page is the sg scratch. */
	set->queue_depth = c->c_io_depth - 2;
	set->cmd_size = sizeof(struct nvme_iod);
	set->timeout_ms = nvme_param_timeout_ms ? nvme_param_timeout_ms : NVME_IO_TIMEOUT_MS;
	set->flags = BLK_MQ_F_SHOULD_MERGE |
		     (c->c_irq_mode == NVME_IRQ_POLL ? BLK_MQ_F_POLLED : 0);
	set->driver_data = c;
	return blk_mq_alloc_tag_set(set);
}
