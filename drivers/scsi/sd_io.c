/*
 * sd request path: the block layer's request_fn style, one command at a
 * time per disk (the depth a Bulk-Only transport has).
 *
 *   issue (sd_request_fn, queue lock held): take the next request, map
 *     its pages straight into the disk's scatter/gather list
 *     (blk_rq_map_sg: the block layer has split it to the transport's
 *     limits and bounced what the transport cannot reach), build READ or
 *     WRITE (10)/(16) -- SYNCHRONIZE CACHE (10) for a flush -- and hand
 *     it to the transport's sho_queuecommand.
 *   complete (sd_done, any context): the status and sense decide: GOOD
 *     ends the request (a residue ends only what arrived and fails the
 *     rest); UNIT ATTENTION, BUSY and "becoming ready" requeue it up to
 *     SD_MAX_RETRIES times; anything else fails it with the errno of
 *     scsi_cmd_errno, after one readable line in the log.
 *   timeout (sd_timed_out, the block layer's request timer): the request
 *     fails with -ETIMEDOUT at once and the transport is told to abort
 *     and recover; the disk issues nothing until the transport gives the
 *     command back, so a stick that stops answering costs its own
 *     requests only.
 *
 * Locking: sd_lock is the queue lock; every function here but the queue
 * setup runs with it held.
 */
#include "block/bdev.h"
#include "drivers/scsi/sd_priv.h"
#include "kernel/errno.h"
#include "kernel/mm/slab.h"
#include "kernel/printk.h"
#include "lib/string.h"

static const char *sd_rq_what(const struct request *rq)
{
	return blk_rq_is_flush(rq) ? "flush" : rq_is_write(rq) ? "write" : "read";
}

/* End rq (the whole of it) with error, counting and reporting failures once. */
static void __sd_end_request(struct sd_disk *sd, struct request *rq, int error)
{
	assert_spin_locked(&sd->sd_lock);
	if (error)
		sd->sd_errors++;
	if (error == -ENODEV && sd->sd_gone_logged) {
		/* the device is gone: one line said so; the rest would flood the log */
	} else if (error) {
		sd->sd_gone_logged = error == -ENODEV;
		if (blk_ratelimit_ok(rq->rq_q))
			pr_err("%s: %s error %d at sector %llu (%u bytes)\n", sd->sd_name,
			       sd_rq_what(rq), error, (unsigned long long)blk_rq_pos(rq),
			       blk_rq_bytes(rq));
		if (error == -ENODEV)
			pr_err("%s: the device is gone; its further I/O fails with -ENODEV\n",
			       sd->sd_name);
	}
	__blk_end_request_all(rq, error);
}

/*
 * Build the command for rq into sd_cmd.  0, or -EIO for a request the
 * device cannot be given (misaligned to its blocks, too many pieces).
 */
static int sd_build(struct sd_disk *sd, struct request *rq)
{
	struct scsi_cmnd *cmd = &sd->sd_cmd;
	u32 bsize = sd->sd_cap.cap_block_len, bytes = 0;
	int nsg, i;

	cmd->sc_sg = NULL;
	cmd->sc_nsg = 0;
	if (blk_rq_is_flush(rq)) {
		scsi_build_sync_cache10(cmd);
		goto out;
	}
	if (!blk_rq_bytes(rq) || blk_rq_bytes(rq) % bsize || blk_rq_pos(rq) % sd->sd_lsect)
		return -EIO;
	nsg = blk_rq_map_sg(sd->sd_queue, rq, sd->sd_sg, sd->sd_lim.shl_max_segments);
	if (nsg <= 0)
		return -EIO;
	for (i = 0; i < nsg; i++)
		bytes += sd->sd_sg[i].sg_len;
	if (bytes != blk_rq_bytes(rq))
		return -EIO;
	if (scsi_build_rw(cmd, blk_rq_pos(rq) / sd->sd_lsect, bytes / bsize, bsize,
			  rq_is_write(rq), rq_is_write(rq) && (rq->rq_cmd_flags & REQ_FUA),
			  sd->sd_use16))
		return -EIO;
	cmd->sc_sg = sd->sd_sg;
	cmd->sc_nsg = (u32)nsg;
out:
	cmd->sc_lun = sd->sd_lun;
	cmd->sc_timeout_ms = sd->sd_queue->q_rq_timeout_ms;
	return 0;
}

/* request_fn: start the next request if the transport is free.  Queue lock held. */
static void sd_request_fn(struct request_queue *q)
{
	struct sd_disk *sd = q->q_queuedata;
	struct request *rq;
	int ret;

	while (!sd->sd_busy && (rq = blk_peek_request(q))) {
		blk_start_request(rq);
		if (sd->sd_gone) {
			__sd_end_request(sd, rq, -ENODEV);
			continue;
		}
		if (sd_build(sd, rq)) {
			pr_err("%s: cannot build a command for sector %llu (+%u bytes)\n",
			       sd->sd_name, (unsigned long long)blk_rq_pos(rq), blk_rq_bytes(rq));
			__sd_end_request(sd, rq, -EIO);
			continue;
		}
		if (rq != sd->sd_retry_rq) {
			sd->sd_retry_rq = rq;
			sd->sd_retries = 0;
		}
		sd->sd_rq = rq;
		sd->sd_busy = true;
		DPRINTF(SD_D_IO, "%s: op %02x sector %llu bytes %u\n", sd->sd_name,
			sd->sd_cmd.sc_cdb[0], (unsigned long long)blk_rq_pos(rq), blk_rq_bytes(rq));
		ret = sd->sd_ops->sho_queuecommand(sd->sd_host, &sd->sd_cmd);
		if (ret == 0)
			break;
		sd->sd_busy = false;
		sd->sd_rq = NULL;
		if (ret == -EBUSY) {
			blk_requeue_request(q, rq);
			break;		/* the transport runs the queue when it frees up */
		}
		if (ret == -ENODEV)
			sd->sd_gone = true;
		__sd_end_request(sd, rq, ret);
	}
}

/*
 * The transport finished sd_cmd: end or retry its request, start the
 * next.  Any context.
 */
static void sd_done(struct scsi_cmnd *cmd)
{
	struct sd_disk *sd = cmd->sc_priv;
	struct scsi_sense_hdr ss;
	struct request *rq;
	unsigned long flags;
	char line[128];
	u32 done;
	int err;

	spin_lock_irqsave(&sd->sd_lock, flags);
	KASSERT(sd->sd_busy);
	sd->sd_busy = false;
	rq = sd->sd_rq;
	sd->sd_rq = NULL;
	sd->sd_ios++;
	if (!rq)
		goto run;		/* ended by the timeout already */
	scsi_sense_decode(cmd->sc_sense, cmd->sc_sense_len, &ss);
	err = scsi_cmd_errno(cmd, &ss);
	if (err == -ENODEV)
		sd->sd_gone = true;
	if (err == -EAGAIN && !sd->sd_gone && sd->sd_retries++ < SD_MAX_RETRIES) {
		DPRINTF(SD_D_IO, "%s: retry %u\n", sd->sd_name, sd->sd_retries);
		blk_requeue_request(sd->sd_queue, rq);
		goto run;
	}
	if (err == -EAGAIN)
		err = -EIO;
	if (cmd->sc_status == SAM_STAT_CHECK_CONDITION && ss.ss_response) {
		scsi_sense_str(&ss, line, sizeof(line));
		pr_err("%s: %s at sector %llu: %s\n", sd->sd_name, sd_rq_what(rq),
		       (unsigned long long)blk_rq_pos(rq), line);
	} else if (!cmd->sc_result && cmd->sc_status != SAM_STAT_GOOD) {
		pr_err("%s: status %02x (%s)\n", sd->sd_name, cmd->sc_status,
		       scsi_status_name(cmd->sc_status) ? scsi_status_name(cmd->sc_status) : "?");
	}
	if (!err && cmd->sc_resid) {
		/* Short transfer: what arrived is good, the rest is not. */
		done = cmd->sc_resid < cmd->sc_len ? cmd->sc_len - cmd->sc_resid : 0;
		done -= done % sd->sd_cap.cap_block_len;
		pr_err("%s: %s at sector %llu: %u of %u bytes moved\n", sd->sd_name,
		       sd_rq_what(rq), (unsigned long long)blk_rq_pos(rq), done, cmd->sc_len);
		if (done && !__blk_end_request(rq, 0, done))
			goto run;
		err = -EIO;
	}
	__sd_end_request(sd, rq, err);
run:
	__blk_run_queue(sd->sd_queue);
	spin_unlock_irqrestore(&sd->sd_lock, flags);
}

/*
 * The block layer's timer: rq took too long.  Fail it now; the transport
 * aborts the command and recovers, and the queue waits for it to give
 * the command back.  Queue lock held.
 */
static enum blk_eh_timer_return sd_timed_out(struct request *rq)
{
	struct sd_disk *sd = rq->rq_q->q_queuedata;

	assert_spin_locked(&sd->sd_lock);
	if (rq != sd->sd_rq || !sd->sd_ops->sho_abort)
		return BLK_EH_RESET_TIMER;
	sd->sd_timeouts++;
	pr_err("%s: %s at sector %llu timed out; resetting the device\n", sd->sd_name,
	       sd_rq_what(rq), (unsigned long long)blk_rq_pos(rq));
	sd->sd_rq = NULL;
	sd->sd_ops->sho_abort(sd->sd_host, &sd->sd_cmd);
	__sd_end_request(sd, rq, -ETIMEDOUT);
	return BLK_EH_HANDLED;
}

void sd_io_kill(struct sd_disk *sd)
{
	unsigned long flags;

	spin_lock_irqsave(&sd->sd_lock, flags);
	sd->sd_gone = true;
	if (sd->sd_queue)
		__blk_run_queue(sd->sd_queue);
	spin_unlock_irqrestore(&sd->sd_lock, flags);
}

void sd_run_queue(struct sd_disk *sd)
{
	unsigned long flags;

	spin_lock_irqsave(&sd->sd_lock, flags);
	if (sd->sd_queue)
		__blk_run_queue(sd->sd_queue);
	spin_unlock_irqrestore(&sd->sd_lock, flags);
}

/**
 * sd_setup_queue - the disk's request queue, limits from the transport
 * and the unit.  Returns 0 or -ENOMEM.
 */
int sd_setup_queue(struct sd_disk *sd)
{
	const struct scsi_host_limits *lim = &sd->sd_lim;
	u32 bsize = sd->sd_cap.cap_block_len;
	struct request_queue *q;
	u32 hw;

	sd->sd_sg = kzalloc(lim->shl_max_segments * sizeof(*sd->sd_sg), GFP_KERNEL);
	if (!sd->sd_sg)
		return -ENOMEM;
	q = blk_init_queue(sd_request_fn, &sd->sd_lock, sd->sd_name);
	if (!q) {
		kfree(sd->sd_sg);
		sd->sd_sg = NULL;
		return -ENOMEM;
	}
	q->q_queuedata = sd;
	q->q_nr_sectors = sd->sd_cap.cap_blocks * sd->sd_lsect;
	blk_queue_logical_block_size(q, bsize);
	blk_queue_physical_block_size(q, bsize << sd->sd_cap.cap_phys_exp);
	/* A (10) CDB moves at most 65535 blocks; (16) more, but the transport caps it. */
	hw = min(lim->shl_max_sectors, 0xffffu * sd->sd_lsect);
	hw -= hw % sd->sd_lsect;
	blk_queue_max_hw_sectors(q, hw);
	blk_queue_max_sectors(q, min(hw, SD_MAX_SECTORS));
	blk_queue_max_segments(q, lim->shl_max_segments);
	blk_queue_max_segment_size(q, lim->shl_max_segment_size);
	blk_queue_segment_boundary(q, lim->shl_seg_boundary ? lim->shl_seg_boundary :
				   BLK_SEG_BOUNDARY_NONE);
	blk_queue_dma_alignment(q, lim->shl_dma_alignment);
	blk_queue_bounce_limit(q, lim->shl_dma_limit, false);
	/*
	 * A stick's write cache state is rarely reported right (Linux
	 * assumes write-through for USB); SYNCHRONIZE CACHE is cheap and
	 * harmless there, so every flush is sent.  No FUA: emulated with a
	 * post-flush.
	 */
	blk_queue_flush(q, BLK_FLUSH_CACHE);
	blk_queue_rq_timed_out(q, sd_timed_out);
	blk_queue_rq_timeout(q, SD_RQ_TIMEOUT_MS);
	sd->sd_cmd.sc_done = sd_done;
	sd->sd_cmd.sc_priv = sd;
	sd->sd_queue = q;
	return 0;
}
