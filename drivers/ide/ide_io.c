/*
 * The IDE I/O path: block requests to the channel and back, by
 * bus-master DMA or PIO, with the interrupt that ends each command.
 * Resets and timeouts are ide_eh.c's; the channel helpers ide.c's.
 *
 * One command per channel.  Both drives' queues use ch_lock as their
 * queue lock, so ide_request_fn() holds the whole channel: idle, it
 * fetches and starts a request; busy, it leaves it queued.  Completion
 * (interrupt or timeout) ends the request and runs both queues, the
 * other drive's first, so master and slave take turns.
 *
 * DMA (SFF-8038i 3.1, "Standard Programming Sequence"): PRD table from
 * blk_rq_map_sg(), table pointer, direction, clear Interrupt and Error,
 * the ATA command, then Start.  The handler reads BM status first (its
 * Interrupt bit says whose interrupt it is, even on a shared line), stops
 * the engine, reads Status (dropping INTRQ), then writes 1 to the BM
 * Interrupt bit (SFF-8038i 3.1).  PIO (ide.nodma, no bus master):
 * READ/WRITE SECTORS (EXT), one interrupt per sector, copied through a
 * sector buffer and kmap_atomic(), so highmem needs no bounce.
 *
 * A command goes out only to a ready device: BSY and DRQ clear.  A drive
 * may stay busy for seconds after a flush or on its own housekeeping, so
 * a busy one is waited for, by timer, up to IDE_READY_WAIT_MS; DRQ set
 * before a command (a device that wants data nobody will send) is a
 * protocol error.  Both, and a wait that runs out, reset the channel.
 *
 * A device error fails the request with -EIO, naming the sector from the
 * taskfile (with PIO, the sectors moved before it still succeed).
 */
#include "drivers/ata/atareg.h"
#include "drivers/ide/ide_priv.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "kernel/mm/highmem.h"
#include "lib/string.h"

#define IDE_D_IO	0x01
#define IDE_D_INTR	0x02

#define IDE_DRQ_WAIT_MS		1000	/* PIO write: DRQ for the first block, ms */
#define IDE_ICRC_RETRIES	2	/* interface CRC errors retried this often */
#define IDE_ICRC_SPEED_DOWN	3	/* ... and after this many on a drive, a slower mode */

/*
 * The LBA a failed command reports (ACS: the address of the first
 * unrecoverable error), from the taskfile: for a 48-bit command the high
 * bytes are read with HOB set in Device Control.
 */
static u64 ide_read_error_lba(struct ide_channel *ch, bool lba48)
{
	u64 lba = (u64)ide_read(ch, IDE_REG_LBA_LOW) | (u64)ide_read(ch, IDE_REG_LBA_MID) << 8 |
		  (u64)ide_read(ch, IDE_REG_LBA_HIGH) << 16;

	if (!lba48)
		return lba | (u64)(ide_read(ch, IDE_REG_DEVICE) & ATA_DEVICE_LBA28_MASK) << 24;
	ide_devctl(ch, ATA_CTL_HOB);
	lba |= (u64)ide_read(ch, IDE_REG_LBA_LOW) << 24 | (u64)ide_read(ch, IDE_REG_LBA_MID) << 32 |
	       (u64)ide_read(ch, IDE_REG_LBA_HIGH) << 40;
	ide_devctl(ch, 0);
	return lba;
}

/*
 * Give the request in flight back to its queue, to go out again later
 * (after a reset, or at once).  ch_lock held.
 */
static void ide_requeue(struct ide_channel *ch)
{
	struct request *rq = ch->ch_rq;

	ch->ch_rq = NULL;
	ch->ch_rq_drive = NULL;
	blk_requeue_request(rq->rq_q, rq);
}

/*
 * End the request in flight, its first good bytes successfully and the
 * rest with err, and let the next one start.  ch_lock held.
 */
static void ide_complete_partial(struct ide_channel *ch, u32 good, int err)
{
	struct request *rq = ch->ch_rq;
	struct ide_drive *d = ch->ch_rq_drive;

	ch->ch_rq = NULL;
	ch->ch_rq_drive = NULL;
	if (ch->ch_state != IDE_CH_RESET && ch->ch_state != IDE_CH_DEAD)
		ch->ch_state = IDE_CH_IDLE;
	if (err)
		d->dr_errors++;
	DPRINTF(IDE_D_IO, "%s: done sector %llu, %u bytes good, err %d\n", d->dr_name,
		(unsigned long long)blk_rq_pos(rq), good, err);
	if (good && good < blk_rq_bytes(rq))
		__blk_end_request(rq, 0, good);
	__blk_end_request_all(rq, err);
	ide_kick(ch);
}

static void ide_complete(struct ide_channel *ch, int err)
{
	ide_complete_partial(ch, 0, err);
}

/*
 * How much of a failing request is known good: with PIO, the logical
 * sectors moved before the block that failed.  The data of a failed DMA
 * command is indeterminate (ACS, READ DMA: "Error Outputs"), so none.
 */
static u32 ide_good_bytes(struct ide_channel *ch)
{
	u32 moved;

	if (ch->ch_state != IDE_CH_PIO_IN && ch->ch_state != IDE_CH_PIO_OUT)
		return 0;
	moved = blk_rq_bytes(ch->ch_rq) - ch->ch_pio_left;
	if (moved && (ch->ch_state == IDE_CH_PIO_OUT || !ch->ch_pio_left))
		moved -= ch->ch_rq_drive->dr_lbs;	/* the block in flight failed */
	return moved;
}

/*
 * A command ended with ERR or DF in Status, or the bus master reported an
 * error: say what and where, once, and end the request with -EIO.  An
 * interface CRC error is worth another try: that request is requeued;
 * after IDE_ICRC_SPEED_DOWN of them the drive gets a slower mode, through
 * a reset, and the request a fresh try in it.
 */
static void ide_fail(struct ide_channel *ch, u8 st, u8 bmst, const char *why)
{
	struct ide_drive *d = ch->ch_rq_drive;
	struct request *rq = ch->ch_rq;
	const struct ata_taskfile *tf = &ch->ch_tf;
	char sbuf[48], ebuf[48];
	u8 err = (st & ATA_STATUS_ERR) ? ide_read(ch, IDE_REG_ERROR) : 0;
	u64 lba = ide_read_error_lba(ch, tf->tf_flags & ATA_TF_LBA48);

	if ((err & ATA_ERROR_ICRC) && d->dr_dma && ++d->dr_icrc >= IDE_ICRC_SPEED_DOWN) {
		ide_requeue(ch);
		ide_speed_down(d);
		ide_begin_reset(ch);
		return;
	}
	if ((err & ATA_ERROR_ICRC) && rq->rq_retries < IDE_ICRC_RETRIES) {
		rq->rq_retries++;
		ide_requeue(ch);
		ch->ch_state = IDE_CH_IDLE;
		ide_kick(ch);
		return;
	}
	if (blk_ratelimit_ok(rq->rq_q)) {
		ata_status_str(st, sbuf, sizeof(sbuf));
		ata_error_str(err, ebuf, sizeof(ebuf));
		pr_err("%s: %s %s at sector %llu (request %llu+%u): status 0x%02x <%s> "
		       "error 0x%02x <%s> bm 0x%02x\n", d->dr_name, ata_cmd_name(tf->tf_command),
		       why, (unsigned long long)(lba * (d->dr_lbs >> SECTOR_SHIFT)),
		       (unsigned long long)blk_rq_pos(rq), blk_rq_sectors(rq), st, sbuf, err, ebuf,
		       bmst);
	}
	ide_complete_partial(ch, ide_good_bytes(ch), -EIO);
}

/*
 * The device is stuck in the middle of a command (BSY or DRQ where it
 * should be done): fail the request and reset the channel, which stays
 * busy (IDE_CH_RESET) until the reset timer sees the drives ready.
 */
static void ide_fail_reset(struct ide_channel *ch, u8 st, const char *why)
{
	struct ide_drive *d = ch->ch_rq_drive;
	struct request *rq = ch->ch_rq;

	pr_err("%s: %s %s at sector %llu+%u (status 0x%02x): resetting the channel\n",
	       d->dr_name, ata_cmd_name(ch->ch_tf.tf_command), why,
	       (unsigned long long)blk_rq_pos(rq), blk_rq_sectors(rq), st);
	ide_bm_stop(ch);
	ide_begin_reset(ch);
	ide_complete(ch, -EIO);
}

/*
 * Copy len bytes between the PIO sector buffer and the request's memory
 * at the PIO cursor, through atomic mappings (highmem included).
 */
static void ide_pio_copy(struct ide_channel *ch, u8 *buf, u32 len, bool to_mem)
{
	while (len) {
		struct bio *bio = ch->ch_pio_bio;
		struct bio_vec bv;
		struct page *page;
		u32 off, n;
		u8 *va;

		KASSERT(bio);
		if (!ch->ch_pio_iter.bi_size) {
			ch->ch_pio_bio = bio->bi_next;
			KASSERT(ch->ch_pio_bio);
			ch->ch_pio_iter = ch->ch_pio_bio->bi_iter;
			continue;
		}
		bv = bvec_iter_bvec(bio->bi_io_vec, ch->ch_pio_iter);
		page = pfn_to_page(page_to_pfn(bv.bv_page) + (bv.bv_offset >> PAGE_SHIFT));
		off = bv.bv_offset & (PAGE_SIZE - 1);
		n = min(min(bv.bv_len, len), (u32)PAGE_SIZE - off);
		va = kmap_atomic(page);
		if (to_mem)
			memcpy(va + off, buf, n);
		else
			memcpy(buf, va + off, n);
		kunmap_atomic(va);
		bvec_iter_advance(bio->bi_io_vec, &ch->ch_pio_iter, n);
		buf += n;
		len -= n;
	}
}

/* PIO write: hand the device the next logical sector.  DRQ is set. */
static void ide_pio_write_block(struct ide_channel *ch)
{
	u32 lbs = ch->ch_rq_drive->dr_lbs;

	ide_pio_copy(ch, ch->ch_pio_buf, lbs, false);
	ide_data_out(ch, ch->ch_pio_buf, lbs / 2);
	ch->ch_pio_left -= lbs;
}

/*
 * PIO write: the first block goes without an interrupt (ATA8-APT, PIO
 * data-out): the device raises DRQ when it is ready for it.  Poll a few
 * microseconds here (ide_spin_not_busy); if it is still busy, the poll
 * timer looks again every IDE_POLL_MS until ch_poll_deadline, so that
 * interrupts are never off for long (a disk spinning up takes seconds).
 * ch_lock held.
 */
void ide_pio_out_first(struct ide_channel *ch)
{
	u8 st = ide_spin_not_busy(ch);

	if (st & ATA_STATUS_BSY) {
		if (ktime_ms() >= ch->ch_poll_deadline)
			ide_fail_reset(ch, st, "never asked for data");
		else
			ide_poll_in(ch, IDE_POLL_MS);
		return;
	}
	if ((st & (ATA_STATUS_ERR | ATA_STATUS_DF)) || !(st & ATA_STATUS_DRQ)) {
		ide_fail(ch, st, 0, "refused the write");
		return;
	}
	ide_pio_write_block(ch);
}

/* Build the command for rq into ch_tf.  0 or -errno. */
static int ide_build_cmd(struct ide_channel *ch, struct ide_drive *d, struct request *rq)
{
	u32 per = d->dr_lbs >> SECTOR_SHIFT;
	unsigned flags = 0;

	if (blk_rq_is_flush(rq)) {
		ata_flush(&ch->ch_tf, &d->dr_id);
		return 0;
	}
	if (rq_is_write(rq))
		flags |= ATA_RW_WRITE;
	if (d->dr_dma)
		flags |= ATA_RW_DMA;
	return ata_rw(&ch->ch_tf, &d->dr_id, blk_rq_pos(rq) / per, blk_rq_bytes(rq) / d->dr_lbs,
		      flags, 0);
}

/* The state the channel is in while rq's command runs. */
static enum ide_ch_state ide_cmd_state(const struct ide_drive *d, struct request *rq)
{
	if (blk_rq_is_flush(rq))
		return IDE_CH_NODATA;
	if (d->dr_dma)
		return IDE_CH_DMA;
	return rq_is_write(rq) ? IDE_CH_PIO_OUT : IDE_CH_PIO_IN;
}

/* Point the bus master at rq's memory (SFF-8038i 3.1 steps 1-2).  Returns 0 or -errno. */
static int ide_dma_setup(struct ide_channel *ch, struct request *rq)
{
	int nsg, n;
	u32 total;
	u8 dir;

	nsg = blk_rq_map_sg(rq->rq_q, rq, ch->ch_sg, IDE_MAX_SG);
	if (nsg < 0)
		return nsg;
	n = ide_prd_build(ch->ch_prdt, IDE_PRDT_ENTRIES, ch->ch_sg, (u32)nsg, &total);
	if (n < 0)
		return n;
	if (total != blk_rq_bytes(rq))
		return -EINVAL;	/* the PRD total must equal the ATA transfer */
	ide_bm_stop(ch);		/* stopped already, unless something went wrong */
	if (!ch->ch_bm_prdt_set) {	/* the table never moves: point at it once */
		ide_bm_set_prdt(ch, (u32)ch->ch_prdt_phys);
		ch->ch_bm_prdt_set = true;
	}
	dir = rq_is_write(rq) ? 0 : IDE_BM_CMD_READ;
	if (ch->ch_bm_cmd != dir)	/* the engine is stopped: only the direction */
		ide_bm_cmd(ch, dir);
	ide_bm_ack(ch, ide_bm_read(ch, IDE_BM_STATUS));
	return 0;
}

/*
 * Status for a command to unit, after the device selection protocol
 * (ATA8-APT): Device is written only while the device selected so far
 * has BSY and DRQ clear; a busy one's Status is returned instead.  Then
 * unit's Status, polled for at most IDE_SPIN_US.  ch_lock held.
 */
static u8 ide_select_status(struct ide_channel *ch, unsigned unit)
{
	u8 st;

	if (ch->ch_selected != unit) {
		st = ide_altstatus(ch);
		if (st & (ATA_STATUS_BSY | ATA_STATUS_DRQ))
			return st;
		ide_select(ch, unit);
	}
	return ide_spin_not_busy(ch);
}

/*
 * A device was not ready for the held command: BSY past
 * ch_poll_deadline, or DRQ set (with BSY clear: while BSY is set the
 * other Status bits mean nothing).  Say which device (the one selected:
 * it may be the other one on the channel), reset the channel and give
 * the request back to the queue (it goes out again after revalidation),
 * or fail it once it has been through q_max_retries of these.  ch_lock
 * held.
 */
static void ide_not_ready(struct ide_channel *ch, u8 st)
{
	const char *who = ch->ch_selected < IDE_UNITS ? ch->ch_drive[ch->ch_selected].dr_name
						      : ch->ch_name;
	struct request *rq = ch->ch_rq;

	if (st & ATA_STATUS_BSY)
		pr_warn("%s: still busy %u ms before a command (status %#x):"
			" resetting the channel\n", who, IDE_READY_WAIT_MS, st);
	else
		pr_warn("%s: DRQ set before a command (status %#x): resetting the channel\n",
			who, st);
	ide_begin_reset(ch);
	if (++rq->rq_retries > rq->rq_q->q_max_retries)
		ide_complete(ch, -EIO);
	else
		ide_requeue(ch);
}

/*
 * Issue the command held in IDE_CH_WAIT_READY if its device is ready
 * (BSY and DRQ clear); while it is busy, the poll timer calls again every
 * IDE_POLL_MS until ch_poll_deadline.  On a failure before the command
 * goes out the request ends, or is requeued behind a reset
 * (ide_not_ready), and the channel is left idle or resetting.  ch_lock held.
 */
void ide_issue(struct ide_channel *ch)
{
	struct ide_drive *d = ch->ch_rq_drive;
	struct request *rq = ch->ch_rq;
	enum ide_ch_state state;
	int err;
	u8 st;

	st = ide_select_status(ch, d->dr_unit);
	if ((st & ATA_STATUS_BSY) && ktime_ms() < ch->ch_poll_deadline) {
		ide_poll_in(ch, IDE_POLL_MS);
		return;
	}
	if (st & (ATA_STATUS_BSY | ATA_STATUS_DRQ)) {
		ide_not_ready(ch, st);
		return;
	}
	state = ide_cmd_state(d, rq);
	if (state == IDE_CH_DMA) {
		err = ide_dma_setup(ch, rq);
		if (err) {
			pr_err("%s: no DMA table for sector %llu+%u: %s\n", d->dr_name,
			       (unsigned long long)blk_rq_pos(rq), blk_rq_sectors(rq), errstr(err));
			ide_complete(ch, -EIO);
			return;
		}
	} else if (state != IDE_CH_NODATA) {
		ch->ch_pio_left = blk_rq_bytes(rq);
		ch->ch_pio_bio = rq->rq_bio;
		ch->ch_pio_iter = rq->rq_bio->bi_iter;
	}
	ch->ch_state = (u8)state;
	DPRINTF(IDE_D_IO, "%s: %s sector %llu+%u\n", d->dr_name, ata_cmd_name(ch->ch_tf.tf_command),
		(unsigned long long)blk_rq_pos(rq), blk_rq_sectors(rq));
	ide_load_tf(ch, &ch->ch_tf, d->dr_unit);
	if (state == IDE_CH_DMA) {
		ide_bm_cmd(ch, ch->ch_bm_cmd | IDE_BM_CMD_START);
	} else if (state == IDE_CH_PIO_OUT) {
		ide_delay400(ch);
		ch->ch_poll_deadline = ktime_ms() + IDE_DRQ_WAIT_MS;
		ide_pio_out_first(ch);
	}
}

/*
 * Start rq on the idle channel: build its command and issue it, now or
 * when the device is ready (ide_issue).  ch_lock held.
 */
static void ide_start(struct ide_channel *ch, struct ide_drive *d, struct request *rq)
{
	int err;

	ch->ch_rq = rq;
	ch->ch_rq_drive = d;
	ch->ch_next_unit = (u8)(d->dr_unit ^ 1);
	err = ide_build_cmd(ch, d, rq);
	if (err) {
		pr_err("%s: cannot build a command for sector %llu+%u: %s\n", d->dr_name,
		       (unsigned long long)blk_rq_pos(rq), blk_rq_sectors(rq), errstr(err));
		ide_complete(ch, -EIO);
		return;
	}
	ch->ch_state = IDE_CH_WAIT_READY;
	ch->ch_poll_deadline = ktime_ms() + IDE_READY_WAIT_MS;
	ide_issue(ch);
	if (ch->ch_state == IDE_CH_WAIT_READY) {
		ch->ch_busy++;
		DPRINTF(IDE_D_IO, "%s: busy before a command: waiting\n", d->dr_name);
	}
}

/**
 * ide_request_fn - the queue's request_fn: start the next request if the
 * channel is free.  Called by the block layer with the queue lock, which
 * is ch_lock, held.
 */
void ide_request_fn(struct request_queue *q)
{
	struct ide_drive *d = q->q_queuedata;
	struct ide_channel *ch = d->dr_chan;
	struct request *rq;

	assert_spin_locked(&ch->ch_lock);
	while (ch->ch_state == IDE_CH_IDLE && !d->dr_gone && (rq = blk_fetch_request(q)))
		ide_start(ch, d, rq);
	if (ch->ch_state == IDE_CH_DEAD || d->dr_gone)
		while ((rq = blk_fetch_request(q)))
			__blk_end_request_all(rq, -EIO);
}

/**
 * ide_prep_rq - check a request once, before it is dispatched: whole
 * logical sectors inside the disk, and no longer than the queue allows.
 * Returns BLKPREP_OK or BLKPREP_KILL (ended with -EIO).  ch_lock held.
 */
int ide_prep_rq(struct request_queue *q, struct request *rq)
{
	struct ide_drive *d = q->q_queuedata;
	u32 per = d->dr_lbs >> SECTOR_SHIFT;
	sector_t cap = ata_id_capacity512(&d->dr_id);

	if (blk_rq_is_flush(rq))
		return BLKPREP_OK;
	if (!blk_rq_bytes(rq) || blk_rq_bytes(rq) % d->dr_lbs || blk_rq_pos(rq) % per ||
	    blk_rq_pos(rq) >= cap || blk_rq_sectors(rq) > cap - blk_rq_pos(rq) ||
	    blk_rq_sectors(rq) > q->q_limits.lim_max_hw_sectors) {
		pr_err("%s: refusing request %llu+%u (capacity %llu, %u-byte sectors)\n",
		       d->dr_name, (unsigned long long)blk_rq_pos(rq), blk_rq_sectors(rq),
		       (unsigned long long)cap, d->dr_lbs);
		return BLKPREP_KILL;
	}
	return BLKPREP_OK;
}

/* DMA ended (the engine is stopped): judge it by Status and BM status. */
static void ide_dma_done(struct ide_channel *ch, u8 st, u8 bmst)
{
	if (st & (ATA_STATUS_ERR | ATA_STATUS_DF))
		ide_fail(ch, st, bmst, "failed");
	else if (bmst & IDE_BM_STATUS_ERROR)
		ide_fail(ch, st, bmst, "bus-master error");
	else if (st & (ATA_STATUS_BSY | ATA_STATUS_DRQ))
		ide_fail_reset(ch, st, "ended with the device busy");
	else if (bmst & IDE_BM_STATUS_ACTIVE)
		ide_fail(ch, st, bmst, "moved fewer bytes than the PRD table");
	else
		ide_complete(ch, 0);
}

/* PIO read: the device has the next logical sector ready (or an error). */
static void ide_pio_in(struct ide_channel *ch, u8 st)
{
	u32 lbs = ch->ch_rq_drive->dr_lbs;

	if (st & (ATA_STATUS_ERR | ATA_STATUS_DF)) {
		ide_fail(ch, st, 0, "failed");
		return;
	}
	if (!(st & ATA_STATUS_DRQ)) {
		ide_fail(ch, st, 0, "has no data");
		return;
	}
	ide_data_in(ch, ch->ch_pio_buf, lbs / 2);
	ide_pio_copy(ch, ch->ch_pio_buf, lbs, true);
	ch->ch_pio_left -= lbs;
	if (ch->ch_pio_left)
		return;
	ide_delay400(ch);
	st = ide_altstatus(ch);
	if (st & (ATA_STATUS_ERR | ATA_STATUS_DF | ATA_STATUS_DRQ))
		ide_fail(ch, st, 0, "failed after the data");
	else
		ide_complete(ch, 0);
}

/* PIO write: the device took a block; give it the next, or finish. */
static void ide_pio_out(struct ide_channel *ch, u8 st)
{
	if (st & (ATA_STATUS_ERR | ATA_STATUS_DF)) {
		ide_fail(ch, st, 0, "failed");
		return;
	}
	if (!ch->ch_pio_left) {
		ide_complete(ch, 0);
		return;
	}
	if (!(st & ATA_STATUS_DRQ)) {
		ide_fail(ch, st, 0, "stopped asking for data");
		return;
	}
	ide_pio_write_block(ch);
}

/* Act on an interrupt that is the channel's, already acknowledged.  ch_lock held. */
void ide_service(struct ide_channel *ch, u8 st, u8 bmst)
{
	DPRINTF(IDE_D_INTR, "%s: intr state %s status %#x bm %#x\n", ch->ch_name,
		ide_ch_state_names[ch->ch_state], st, bmst);
	switch (ch->ch_state) {
	case IDE_CH_DMA:
		ide_dma_done(ch, st, bmst);
		break;
	case IDE_CH_PIO_IN:
		ide_pio_in(ch, st);
		break;
	case IDE_CH_PIO_OUT:
		ide_pio_out(ch, st);
		break;
	case IDE_CH_NODATA:
		if (st & (ATA_STATUS_ERR | ATA_STATUS_DF))
			ide_fail(ch, st, bmst, "failed");
		else
			ide_complete(ch, 0);
		break;
	default:
		break;	/* late or spurious: acknowledged, nothing waits for it */
	}
}

/**
 * ide_intr - the channel's interrupt handler (SFF-8038i 3.1 order)
 * @data: the struct ide_channel
 *
 * BM status first: without its Interrupt bit the interrupt is not ours
 * (a shared native-mode line).  Then stop the engine, read Status (which
 * drops INTRQ), and write 1 to the BM Interrupt bit.  Returns IRQ_HANDLED
 * for an interrupt of this channel.
 */
irqreturn_t ide_intr(unsigned irq, void *data)
{
	struct ide_channel *ch = data;
	unsigned long flags;
	u8 st, bmst = 0;

	spin_lock_irqsave(&ch->ch_lock, flags);
	if (ch->ch_bm) {
		bmst = ide_bm_read(ch, IDE_BM_STATUS);
		if (!(bmst & IDE_BM_STATUS_IRQ) &&
		    (ch->ch_state == IDE_CH_DMA || ch->ch_state == IDE_CH_IDLE ||
		     (ide_altstatus(ch) & ATA_STATUS_BSY))) {
			spin_unlock_irqrestore(&ch->ch_lock, flags);
			return IRQ_NONE;
		}
		if (ch->ch_state == IDE_CH_DMA)
			ide_bm_stop(ch);
	} else if (ch->ch_state == IDE_CH_IDLE || (ide_altstatus(ch) & ATA_STATUS_BSY)) {
		spin_unlock_irqrestore(&ch->ch_lock, flags);
		return IRQ_NONE;
	}
	st = ide_read(ch, IDE_REG_STATUS);
	if (ch->ch_bm)
		ide_bm_ack(ch, bmst);
	ch->ch_irqs++;
	ide_service(ch, st, bmst);
	spin_unlock_irqrestore(&ch->ch_lock, flags);
	return IRQ_HANDLED;
}
