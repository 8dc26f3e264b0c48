/*
 * AHCI request path: the block layer's request_fn driver style with
 * queue-time command generation and tagged queueing.
 *
 *   prep (ahci_prep_rq, at dispatch time, once per request): take a CCB,
 *     map the request's memory with blk_rq_map_sg, write the PRD table
 *     and the command FIS into the CCB's command table.
 *   issue (ahci_request_fn): take a tag from the block layer's map -- the
 *     tag is the command slot -- point the slot's command header at the
 *     table, put the tag into an NCQ FIS, set PxSACT (NCQ) and PxCI.
 *   complete (ahci_port_intr, interrupt context): PxIS is read and
 *     cleared; every issued slot no longer in PxSACT or PxCI is done.
 *     Errors stop issuing and hand the port to recovery (ahci_eh.c).
 *
 * Commands: READ/WRITE FPDMA QUEUED with the FUA bit for FUA writes when
 * NCQ is on (depth min(CAP.NCS, IDENTIFY depth, 32)); otherwise READ/WRITE
 * DMA (EXT) and WRITE DMA FUA EXT, several slots deep, which the HBA runs
 * in turn (a disk without 48-bit addressing gets the 28-bit forms only).
 * DISCARD (and WRITE ZEROES where IDENTIFY word 69 promises zeroes after
 * TRIM) become a non-queued DSM TRIM (ACS-3 7.5) with one range list.
 * Commands that must go alone -- the non-queued FLUSH CACHE (EXT), TRIM, and
 * those recovery wants isolated -- wait until nothing else is out, and
 * nothing is issued while one runs.
 *
 * Locking: the port's ap_lock is the queue lock; every function here
 * runs with it held except the queue setup.
 */
#include "block/bdev.h"
#include "block/genhd.h"
#include "drivers/ahci/ahci_priv.h"
#include "drivers/ata/atareg.h"
#include "kernel/completion.h"
#include "kernel/errno.h"
#include "kernel/mm/page.h"
#include "kernel/printk.h"
#include "lib/string.h"

/* Soft cap on a request, in 512-byte sectors: 2 MiB. */
#define AHCI_MAX_SECTORS	4096u
/* Cap on one TRIM, in 512-byte sectors (4 GiB): bounds a command's time. */
#define AHCI_MAX_TRIM_SECTORS	(8u * 1024 * 1024)

static struct ahci_ccb *ahci_ccb_get(struct ahci_port *ap)
{
	struct ahci_ccb *ccb;

	if (list_empty(&ap->ap_ccb_free))
		return NULL;
	ccb = list_first_entry(&ap->ap_ccb_free, struct ahci_ccb, ccb_free);
	list_del_init(&ccb->ccb_free);
	return ccb;
}

/* Return a CCB to the port's pool.  Port lock held. */
void ahci_ccb_put(struct ahci_port *ap, struct ahci_ccb *ccb)
{
	ccb->ccb_rq = NULL;
	list_add(&ccb->ccb_free, &ap->ap_ccb_free);
}

/*
 * Write the command FIS for ccb into its table: NCQ (the tag is patched
 * in at issue, when the slot is known) or the non-queued form.  Returns 0
 * or the ata_rw error.
 */
static int ahci_build_fis(struct ahci_port *ap, struct ahci_ccb *ccb, bool ncq)
{
	struct ata_taskfile tf;
	unsigned flags = ATA_RW_DMA;
	int ret;

	if (ccb->ccb_flags & AHCI_CCB_FLUSH) {
		ata_flush(&tf, &ap->ap_id);
		ncq = false;
	} else if (ccb->ccb_flags & AHCI_CCB_TRIM) {
		/* Queued TRIM (SEND FPDMA QUEUED) is unsafe on most disks (libata). */
		ret = ata_dsm_trim(&tf, &ap->ap_id, ccb->ccb_bytes / ATA_DSM_BLOCK_BYTES);
		if (ret)
			return ret;
		ncq = false;
	} else {
		if (ccb->ccb_flags & AHCI_CCB_WRITE)
			flags |= ATA_RW_WRITE;
		if (ccb->ccb_flags & AHCI_CCB_FUA)
			flags |= ATA_RW_FUA;
		if (ncq)
			flags |= ATA_RW_NCQ;
		ret = ata_rw(&tf, &ap->ap_id, ccb->ccb_lba, ccb->ccb_nsect, flags, 0);
		if (ret)
			return ret;
	}
	ata_tf_to_fis(&tf, 0, (struct sata_fis_h2d *)ccb->ccb_table->ct_cfis);
	if (ncq)
		ccb->ccb_flags |= AHCI_CCB_NCQ;
	else
		ccb->ccb_flags &= ~AHCI_CCB_NCQ;
	return 0;
}

/*
 * A DISCARD, or a WRITE ZEROES on a disk whose trimmed sectors read as
 * zeroes: one DSM TRIM whose payload (ap_trim_buf, filled at issue) lists
 * the range.  0, or -EOPNOTSUPP / -EINVAL for what the disk cannot do.
 */
static int ahci_prep_trim(struct ahci_port *ap, struct request *rq, struct ahci_ccb *ccb)
{
	u32 lsize = ap->ap_id.ai_logical_size, bytes = 0, blocks;
	struct scatterlist sg;
	u64 nsect;
	int n;

	if (!ap->ap_trim_buf || (blk_rq_is_write_zeroes(rq) && !ap->ap_id.ai_trim_rzat))
		return -EOPNOTSUPP;
	if (!blk_rq_bytes(rq) || blk_rq_bytes(rq) % lsize || blk_rq_pos(rq) % ap->ap_lsect)
		return -EINVAL;
	nsect = blk_rq_bytes(rq) / lsize;
	blocks = (u32)DIV_ROUND_UP(DIV_ROUND_UP(nsect, (u64)ATA_DSM_RANGE_MAX),
				   (u64)ATA_DSM_RANGES_PER_BLOCK);
	if (blocks > ap->ap_trim_blocks)
		return -EINVAL;
	sg.sg_addr = ap->ap_trim_dma;
	sg.sg_len = blocks * ATA_DSM_BLOCK_BYTES;
	n = ahci_fill_prdt(ccb->ccb_table->ct_prdt, AHCI_TABLE_PRDS, &sg, 1,
			   ap->ap_sc->sc_dma64, &bytes);
	if (n < 0)
		return n;
	ccb->ccb_prdtl = (u32)n;
	ccb->ccb_bytes = bytes;
	ccb->ccb_lba = blk_rq_pos(rq) / ap->ap_lsect;
	ccb->ccb_nsect = (u32)nsect;
	ccb->ccb_flags = AHCI_CCB_TRIM | AHCI_CCB_WRITE;
	return 0;
}

/*
 * prep_rq_fn: build the command table for rq once, when it reaches the
 * head of the dispatch list.  BLKPREP_DEFER when every CCB is taken (a
 * completion runs the queue again), BLKPREP_KILL for a request the
 * hardware cannot describe.  Queue lock held.
 */
static int ahci_prep_rq(struct request_queue *q, struct request *rq)
{
	struct ahci_port *ap = q->q_queuedata;
	u32 lsize = ap->ap_id.ai_logical_size, bytes = 0;
	struct ahci_ccb *ccb;
	int nsg, n;

	ccb = ahci_ccb_get(ap);
	if (!ccb)
		return BLKPREP_DEFER;
	ccb->ccb_rq = rq;
	ccb->ccb_flags = 0;
	ccb->ccb_prdtl = 0;
	ccb->ccb_bytes = 0;
	if (blk_rq_is_flush(rq)) {
		ccb->ccb_flags = AHCI_CCB_FLUSH;
		goto build;
	}
	if (rq->rq_cmd_flags & REQ_NODATA) {		/* DISCARD or WRITE ZEROES */
		if (ahci_prep_trim(ap, rq, ccb))
			goto kill;
		goto build;
	}
	if (!blk_rq_bytes(rq) || blk_rq_bytes(rq) % lsize || blk_rq_pos(rq) % ap->ap_lsect)
		goto kill;
	nsg = blk_rq_map_sg(q, rq, ap->ap_sg, AHCI_TABLE_PRDS);
	if (nsg <= 0)
		goto kill;
	n = ahci_fill_prdt(ccb->ccb_table->ct_prdt, AHCI_TABLE_PRDS, ap->ap_sg, (u32)nsg,
			   ap->ap_sc->sc_dma64, &bytes);
	if (n < 0 || bytes != blk_rq_bytes(rq))
		goto kill;
	ccb->ccb_prdtl = (u32)n;
	ccb->ccb_bytes = bytes;
	ccb->ccb_lba = blk_rq_pos(rq) / ap->ap_lsect;
	ccb->ccb_nsect = bytes / lsize;
	if (rq_is_write(rq))
		ccb->ccb_flags |= AHCI_CCB_WRITE;
	if (rq_is_write(rq) && (rq->rq_cmd_flags & REQ_FUA))
		ccb->ccb_flags |= AHCI_CCB_FUA;
build:
	if (ahci_build_fis(ap, ccb, ap->ap_ncq))
		goto kill;
	rq->rq_special = ccb;
	return BLKPREP_OK;

kill:
	pr_err("%s: cannot build a command for sector %llu (+%u bytes)\n", ap->ap_name,
	       (unsigned long long)blk_rq_pos(rq), blk_rq_bytes(rq));
	ahci_ccb_put(ap, ccb);
	return BLKPREP_KILL;
}

/*
 * Put a prepared command into slot: an NCQ command gets the slot as its
 * tag.  The doorbells are rung by the caller (ahci_ring), once for all
 * the commands of one pass.  Port lock held; the slot is free (the tag
 * map says so) and the port running.
 */
static void ahci_issue(struct ahci_port *ap, struct ahci_ccb *ccb, unsigned slot,
		       u32 *sact, u32 *ci)
{
	u32 bit = 1u << slot;
	bool ncq = ccb->ccb_flags & AHCI_CCB_NCQ;

	if (ncq)
		ahci_fis_set_tag(ccb->ccb_table->ct_cfis, slot);
	/* Alone on the port (see request_fn), so the one payload page is ours. */
	if (ccb->ccb_flags & AHCI_CCB_TRIM)
		ata_trim_fill(ap->ap_trim_buf, ccb->ccb_bytes / ATA_DSM_BLOCK_BYTES,
			      ccb->ccb_lba, ccb->ccb_nsect);
	ahci_fill_hdr(&ap->ap_cmd_list[slot], ccb->ccb_table_dma, ccb->ccb_prdtl,
		      ccb->ccb_flags & AHCI_CCB_WRITE);
	ap->ap_issued |= bit;
	if (ncq) {
		ap->ap_sactive |= bit;
		*sact |= bit;
	}
	*ci |= bit;
	DPRINTF(AHCI_D_IO, "%s: slot %u %s lba %llu n %u\n", ap->ap_name, slot,
		ncq ? "ncq" : "dma", (unsigned long long)ccb->ccb_lba, ccb->ccb_nsect);
}

/*
 * Start the commands just put into their slots: PxSACT before PxCI for
 * NCQ (5.3.2.2), one register write each for the whole batch -- under
 * emulation each write is an exit to the hypervisor.
 */
static void ahci_ring(struct ahci_port *ap, u32 sact, u32 ci)
{
	barrier();	/* tables and headers in memory before the HBA is told */
	if (sact)
		ahci_pwrite(ap, AHCI_PREG_SACT, sact);
	if (ci)
		ahci_pwrite(ap, AHCI_PREG_CI, ci);
}

/* End a request the port no longer holds: its CCB goes back first. */
void __ahci_end_request(struct ahci_port *ap, struct request *rq, int error)
{
	struct ahci_ccb *ccb = rq->rq_special;

	assert_spin_locked(&ap->ap_lock);
	if (ccb) {
		rq->rq_special = NULL;
		ahci_ccb_put(ap, ccb);
	}
	rq->rq_state &= ~RQF_PREPPED;
	if (error) {
		ap->ap_errors++;
		if (blk_ratelimit_ok(rq->rq_q))
			pr_err("%s: %s error %d at sector %llu (%u bytes)\n",
			       ap->ap_disk ? ap->ap_disk->gd_name : ap->ap_name,
			       blk_rq_is_flush(rq) ? "flush" : rq_is_write(rq) ? "write" : "read",
			       error, (unsigned long long)blk_rq_pos(rq), blk_rq_bytes(rq));
	}
	__blk_end_request_all(rq, error);
}

/*
 * request_fn: issue what the tag map and the non-queued rule allow.
 * Queue lock (the port lock) held.
 */
void ahci_request_fn(struct request_queue *q)
{
	struct ahci_port *ap = q->q_queuedata;
	u32 sact = 0, ci = 0;
	struct request *rq;
	struct ahci_ccb *ccb;
	bool alone;

	if (ap->ap_eh_active)
		return;
	while ((rq = blk_peek_request(q))) {
		if (ap->ap_state != AHCI_PORT_READY) {
			blk_start_request(rq);
			__ahci_end_request(ap, rq, -EIO);
			continue;
		}
		ccb = rq->rq_special;
		alone = (ccb->ccb_flags & (AHCI_CCB_FLUSH | AHCI_CCB_TRIM)) || ap->ap_isolate;
		if (ap->ap_nonq_busy || (alone && ap->ap_issued))
			break;		/* the queue drains first; a completion reruns us */
		if (blk_queue_start_tag(q, rq))
			break;		/* every slot busy */
		ahci_issue(ap, ccb, (unsigned)rq->rq_tag, &sact, &ci);
		if (alone) {
			ap->ap_nonq_busy = true;
			if (ap->ap_isolate)
				ap->ap_isolate--;
		}
	}
	ahci_ring(ap, sact, ci);
}

/* Complete the requests in the done slots without error.  Port lock held. */
static void ahci_complete_slots(struct ahci_port *ap, u32 done)
{
	struct request *rq;
	unsigned slot;

	while (done) {
		slot = (unsigned)__builtin_ctz(done);
		done &= done - 1;
		ap->ap_issued &= ~(1u << slot);
		ap->ap_sactive &= ~(1u << slot);
		ap->ap_nonq_busy = false;
		rq = blk_queue_find_tag(ap->ap_queue, (int)slot);
		if (!rq) {
			pr_warn("%s: completion for idle slot %u\n", ap->ap_name, slot);
			continue;
		}
		__ahci_end_request(ap, rq, 0);
	}
}

/*
 * One port's share of the HBA interrupt (interrupts off): read and clear
 * PxIS, complete what finished, hand errors to recovery.  A command that
 * failed stays set in PxSACT (NCQ) or PxCI (non-queued) on real HBAs,
 * but QEMU clears PxCI of a failed non-queued command, so after a
 * non-queued error nothing finished in this interrupt is trusted:
 * recovery reissues it.
 */
void ahci_port_intr(struct ahci_port *ap)
{
	struct request_queue *q = ap->ap_queue;
	u32 is, active, done;
	bool error;

	spin_lock(&ap->ap_lock);
	is = ahci_pread(ap, AHCI_PREG_IS);
	ahci_pwrite(ap, AHCI_PREG_IS, is);
	if (ap->ap_eh_active)
		goto out;
	error = is & (AHCI_PREG_IS_ERRORS | AHCI_PREG_IS_PCS | AHCI_PREG_IS_PRCS);
	/*
	 * An NCQ command's PxSACT bit is set before its PxCI bit and cleared
	 * only after it (by the device's Set Device Bits FIS), so with only
	 * NCQ commands out PxSACT alone says what is active; each register
	 * read is an exit to the hypervisor under emulation.
	 */
	if (ap->ap_sactive == ap->ap_issued)
		active = ahci_pread(ap, AHCI_PREG_SACT);
	else if (!ap->ap_sactive)
		active = ahci_pread(ap, AHCI_PREG_CI);
	else
		active = ahci_pread(ap, AHCI_PREG_SACT) | ahci_pread(ap, AHCI_PREG_CI);
	done = ap->ap_issued & ~active;
	if (error && ap->ap_sactive == 0)
		done = 0;
	ahci_complete_slots(ap, done);
	if (error)
		ahci_eh_schedule(ap, is);
	else if (done)
		__blk_run_queue(q);
out:
	spin_unlock(&ap->ap_lock);
}

/**
 * ahci_port_setup_queue - the port's request queue, limits from the HBA
 * and the disk, and its tag map.  Returns 0 or -ENOMEM.
 */
int ahci_port_setup_queue(struct ahci_port *ap)
{
	struct ata_id *ai = &ap->ap_id;
	struct request_queue *q;
	u32 flush = 0, hw_sectors;

	q = blk_init_queue(ahci_request_fn, &ap->ap_lock, ap->ap_dname);
	if (!q)
		return -ENOMEM;
	q->q_queuedata = ap;
	q->q_nr_sectors = ata_id_capacity512(ai);
	blk_queue_logical_block_size(q, ai->ai_logical_size);
	blk_queue_physical_block_size(q, ai->ai_physical_size);
	/* A 48-bit command moves at most 65536 logical sectors, a 28-bit one 256. */
	hw_sectors = ai->ai_lba48 ? ATA_MAX_SECTORS_48 : ATA_MAX_SECTORS_28;
	if (ap->ap_sc->sc_quirks & AHCI_Q_SECT255)
		hw_sectors = min(hw_sectors, 255u);
	blk_queue_max_hw_sectors(q, hw_sectors * ap->ap_lsect);
	blk_queue_max_sectors(q, AHCI_MAX_SECTORS);
	blk_queue_max_segments(q, AHCI_TABLE_PRDS);
	blk_queue_max_segment_size(q, AHCI_PRD_MAX_BYTES);
	blk_queue_segment_boundary(q, BLK_SEG_BOUNDARY_NONE);
	blk_queue_dma_alignment(q, 1);			/* PRD: word aligned, even count */
	blk_queue_bounce_limit(q, ap->ap_sc->sc_dma64 ? BLK_BOUNCE_NONE : BLK_BOUNCE_4G, false);
	if (ai->ai_wcache_on)
		flush |= BLK_FLUSH_CACHE;
	if (ap->ap_ncq || ai->ai_fua)
		flush |= BLK_FLUSH_FUA;
	blk_queue_flush(q, flush);
	if (ap->ap_trim_buf) {
		u64 max = ata_trim_max_sectors(ap->ap_trim_blocks) * ap->ap_lsect;
		u32 cap = (u32)min(max, (u64)(AHCI_MAX_TRIM_SECTORS));

		blk_queue_max_discard_sectors(q, cap);
		blk_queue_discard_granularity(q, ai->ai_physical_size,
					      ata_id_alignment_offset(ai));
		if (ai->ai_trim_rzat)
			blk_queue_max_write_zeroes_sectors(q, cap);
	}
	blk_queue_prep_rq(q, ahci_prep_rq);
	blk_queue_rq_timed_out(q, ahci_timed_out);
	blk_queue_rq_timeout(q, ahci_param_timeout_ms ? ahci_param_timeout_ms : AHCI_RQ_TIMEOUT_MS);
	if (blk_queue_init_tags(q, ap->ap_depth, NULL)) {
		blk_cleanup_queue(q);
		return -ENOMEM;
	}
	ap->ap_queue = q;
	return 0;
}
