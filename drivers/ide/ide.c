/*
 * The IDE I/O path: block requests to the channel and back, by
 * bus-master DMA or PIO, with interrupts, errors, timeouts and resets.
 * Bus-independent: ide_pci.c finds the ports, ide_probe.c the drives.
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
 * Interrupt bit (HARDWARE.md item 9).  PIO (ide.nodma, no bus master):
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
 * taskfile (with PIO, the sectors moved before it still succeed).  A
 * timeout soft-resets the channel and the block layer retries a bounded
 * number of times, then fails with -EIO.  A channel that stays BSY dies.
 * After a reset the disks are revalidated before any request goes out
 * (ide_mode.c); a disk that turns out to be another fails its requests.
 * Every wait for the device (ready, first DRQ, end of reset) is polled
 * by one timer, ch_poll_timer: interrupts are never off for more than
 * IDE_SPIN_US.
 */
#include "drivers/ata/atareg.h"
#include "drivers/ide/idevar.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "kernel/mm/highmem.h"
#include "lib/string.h"

#define IDE_D_IO	0x01
#define IDE_D_INTR	0x02

#define IDE_SPIN_US		20	/* the longest busy-wait with interrupts off, us */
#define IDE_DRQ_WAIT_MS		1000	/* PIO write: DRQ for the first block, ms */
#define IDE_POLL_MS		1	/* a busy device and the first DRQ polled this often, ms */
#define IDE_RESET_POLL_MS	10	/* BSY poll period after SRST, ms */
#define IDE_ICRC_RETRIES	2	/* interface CRC errors retried this often */
#define IDE_ICRC_SPEED_DOWN	3	/* ... and after this many on a drive, a slower mode */
#define IDE_MAX_RETRIES		2	/* timeouts retried after a reset */
#define IDE_MAX_HW_SECTORS_48	65535	/* Linux's cap for 48-bit PATA commands */
#define IDE_MAX_SECTORS_SOFT	2560	/* requests up to 1.25 MiB, as Linux 6.1 builds them */
#define IDE_DMA_ALIGN		3	/* dword-aligned PRD addresses and lengths */

/* Bus-master status bits that are configuration, kept when clearing the rest. */
#define IDE_BM_STATUS_KEEP	(IDE_BM_STATUS_DMA0 | IDE_BM_STATUS_DMA1 | IDE_BM_STATUS_SIMPLEX)

const char *const ide_ch_state_names[IDE_CH_NR] = {
	[IDE_CH_IDLE] = "idle",
	[IDE_CH_WAIT_READY] = "wait-ready",
	[IDE_CH_DMA] = "dma",
	[IDE_CH_PIO_IN] = "pio-in",
	[IDE_CH_PIO_OUT] = "pio-out",
	[IDE_CH_NODATA] = "nodata",
	[IDE_CH_RESET] = "reset",
	[IDE_CH_REVALIDATE] = "revalidate",
	[IDE_CH_DEAD] = "dead",
};

/* The 400 ns after a Device write or a command: four Alt Status reads. */
static void ide_delay400(struct ide_channel *ch)
{
	unsigned i;

	for (i = 0; i < 4; i++)
		(void)ide_altstatus(ch);
}

void ide_select(struct ide_channel *ch, unsigned unit)
{
	if (ch->ch_selected == unit)
		return;
	ide_write(ch, IDE_REG_DEVICE, ATA_DEVICE_OBS | (unit ? ATA_DEVICE_DEV : 0));
	ide_delay400(ch);
	ch->ch_selected = (u8)unit;
}

int ide_wait_not_busy(struct ide_channel *ch, u32 ms)
{
	u64 deadline = ktime_ms() + ms;
	u8 st;

	for (;;) {
		st = ide_altstatus(ch);
		if (!(st & ATA_STATUS_BSY))
			return st;
		if (ktime_ms() >= deadline)
			return -ETIMEDOUT;
		udelay(10);
	}
}

/*
 * Poll BSY for at most IDE_SPIN_US: what may be done with interrupts off.
 * Returns the last Status (BSY still set if the device is not done).
 */
static u8 ide_spin_not_busy(struct ide_channel *ch)
{
	unsigned us;
	u8 st;

	for (us = 0;; us++) {
		st = ide_altstatus(ch);
		if (!(st & ATA_STATUS_BSY) || us == IDE_SPIN_US)
			return st;
		udelay(1);
	}
}

/* Have ide_poll_timer_fn look at the channel again in ms milliseconds. */
static void ide_poll_in(struct ide_channel *ch, u32 ms)
{
	mod_timer(&ch->ch_poll_timer, get_jiffies_64() + msecs_to_jiffies(ms) + 1);
}

/* Clear the bus-master Interrupt and Error bits (write 1 to clear). */
static void ide_bm_ack(struct ide_channel *ch, u8 bmst)
{
	ide_bm_write(ch, IDE_BM_STATUS, (u8)((bmst & IDE_BM_STATUS_KEEP) |
					     IDE_BM_STATUS_IRQ | IDE_BM_STATUS_ERROR));
}

/*
 * Bus Master Command holds only bits the driver sets (Start, Read/Write;
 * the rest reserved), so it is written from a copy, never read back: each
 * register access is an exit under emulation.
 */
static void ide_bm_cmd(struct ide_channel *ch, u8 v)
{
	ch->ch_bm_cmd = v;
	ide_bm_write(ch, IDE_BM_CMD, v);
}

static void ide_bm_stop(struct ide_channel *ch)
{
	if (ch->ch_bm && (ch->ch_bm_cmd & IDE_BM_CMD_START))
		ide_bm_cmd(ch, ch->ch_bm_cmd & ~IDE_BM_CMD_START);
}

/*
 * Write a taskfile and its command (ATA8-APT, "Register transfers"): the
 * "previous" bytes of a 48-bit command first, then the current ones, the
 * Device register, and the Command register last.
 */
void ide_load_tf(struct ide_channel *ch, const struct ata_taskfile *tf, unsigned unit)
{
	if (tf->tf_flags & ATA_TF_LBA48) {
		ide_write(ch, IDE_REG_FEATURE, (u8)(tf->tf_feature >> 8));
		ide_write(ch, IDE_REG_COUNT, (u8)(tf->tf_count >> 8));
		ide_write(ch, IDE_REG_LBA_LOW, (u8)(tf->tf_lba >> 24));
		ide_write(ch, IDE_REG_LBA_MID, (u8)(tf->tf_lba >> 32));
		ide_write(ch, IDE_REG_LBA_HIGH, (u8)(tf->tf_lba >> 40));
	}
	ide_write(ch, IDE_REG_FEATURE, (u8)tf->tf_feature);
	ide_write(ch, IDE_REG_COUNT, (u8)tf->tf_count);
	ide_write(ch, IDE_REG_LBA_LOW, (u8)tf->tf_lba);
	ide_write(ch, IDE_REG_LBA_MID, (u8)(tf->tf_lba >> 8));
	ide_write(ch, IDE_REG_LBA_HIGH, (u8)(tf->tf_lba >> 16));
	ide_write(ch, IDE_REG_DEVICE, ATA_DEVICE_OBS | tf->tf_device | (unit ? ATA_DEVICE_DEV : 0));
	ide_write(ch, IDE_REG_COMMAND, tf->tf_command);
}

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

void ide_kick(struct ide_channel *ch)
{
	unsigned i, u;

	for (i = 0; i < IDE_UNITS; i++) {
		u = (ch->ch_next_unit + i) % IDE_UNITS;
		if (ch->ch_drive[u].dr_queue)
			__blk_run_queue(ch->ch_drive[u].dr_queue);
	}
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
	ata_status_str(st, sbuf, sizeof(sbuf));
	ata_error_str(err, ebuf, sizeof(ebuf));
	pr_err("%s: %s %s at sector %llu (request %llu+%u): status 0x%02x <%s> error 0x%02x <%s>"
	       " bm 0x%02x\n", d->dr_name, ata_cmd_name(tf->tf_command), why,
	       (unsigned long long)(lba * (d->dr_lbs >> SECTOR_SHIFT)),
	       (unsigned long long)blk_rq_pos(rq), blk_rq_sectors(rq), st, sbuf, err, ebuf, bmst);
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
static void ide_pio_out_first(struct ide_channel *ch)
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
static void ide_issue(struct ide_channel *ch)
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
static void ide_service(struct ide_channel *ch, u8 st, u8 bmst)
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
 * ide_intr - the channel's interrupt handler (HARDWARE.md item 9 order)
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

/*
 * Soft reset of the channel (ATA8-APT, "Software reset protocol"): SRST
 * held 5 us, then released; the reset timer polls BSY from then on, so
 * the wait (up to 31 s for a disk spinning up) never spins with
 * interrupts off, and then the disks are revalidated (ide_mode.c).
 * Whatever was in flight has been taken off already.  ch_lock held.
 */
void ide_begin_reset(struct ide_channel *ch)
{
	ch->ch_state = IDE_CH_RESET;
	ch->ch_resets++;
	if (ch->ch_bm) {
		ide_bm_cmd(ch, 0);
		ide_bm_ack(ch, ide_bm_read(ch, IDE_BM_STATUS));
	}
	ide_select(ch, 0);
	ch->ch_selected = 0xff;
	ide_devctl(ch, ATA_CTL_SRST | ATA_CTL_NIEN);
	udelay(IDE_SRST_HOLD_US);
	ide_devctl(ch, ATA_CTL_NIEN);
	ch->ch_poll_deadline = ktime_ms() + IDE_BSY_TIMEOUT_MS;
	ide_poll_in(ch, IDE_SRST_SETTLE_MS);
}

/* Every ATA drive of the channel has dropped BSY? */
static bool ide_reset_done(struct ide_channel *ch)
{
	unsigned u;

	for (u = 0; u < IDE_UNITS; u++) {
		if (ch->ch_drive[u].dr_kind != ATA_DEV_ATA)
			continue;
		/* Device 0 is selected after a reset; a write while it is BSY is lost. */
		if (ide_altstatus(ch) & ATA_STATUS_BSY)
			return false;
		ch->ch_selected = 0xff;
		ide_select(ch, u);
		if (ide_altstatus(ch) & ATA_STATUS_BSY)
			return false;
	}
	return true;
}

/*
 * A resetting channel: when BSY drops, hand it to the revalidation work
 * (which brings it back to idle); dead after the spec's 31 s.  ch_lock held.
 */
static void ide_reset_poll(struct ide_channel *ch)
{
	if (ide_reset_done(ch)) {
		ch->ch_state = IDE_CH_REVALIDATE;
		schedule_work(&ch->ch_eh_work);
	} else if (ktime_ms() >= ch->ch_poll_deadline) {
		pr_err("%s: still busy %u ms after a reset: channel dead, its I/O fails\n",
		       ch->ch_name, IDE_BSY_TIMEOUT_MS);
		ch->ch_state = IDE_CH_DEAD;
		ide_kick(ch);
	} else {
		ide_poll_in(ch, IDE_RESET_POLL_MS);
	}
}

/**
 * ide_poll_timer_fn - look again at what the channel waits for: a device
 * busy before its command, a PIO write's first DRQ, the end of a reset.
 * Timer context.  Nothing to do when that wait is over already (the
 * command went out or failed, the first block went, a timeout took over).
 */
void ide_poll_timer_fn(struct timer_list *t)
{
	struct ide_channel *ch = container_of(t, struct ide_channel, ch_poll_timer);
	unsigned long flags;

	spin_lock_irqsave(&ch->ch_lock, flags);
	switch (ch->ch_state) {
	case IDE_CH_WAIT_READY:
		ide_issue(ch);
		break;
	case IDE_CH_PIO_OUT:
		if (ch->ch_pio_left == blk_rq_bytes(ch->ch_rq))
			ide_pio_out_first(ch);
		break;
	case IDE_CH_RESET:
		ide_reset_poll(ch);
		break;
	default:
		break;
	}
	spin_unlock_irqrestore(&ch->ch_lock, flags);
}

/**
 * ide_timed_out - the block layer's hook for a request past its deadline
 * Called with the queue lock (ch_lock) held.  If the command did finish
 * and only its interrupt was lost, the request completes normally;
 * otherwise (or if the command is still held for a busy device) the
 * engine stops, the channel resets, and the block layer requeues the
 * request (q_max_retries times, then -EIO).
 */
enum blk_eh_timer_return ide_timed_out(struct request *rq)
{
	struct ide_drive *d = rq->rq_q->q_queuedata;
	struct ide_channel *ch = d->dr_chan;
	u8 st, bmst;

	assert_spin_locked(&ch->ch_lock);
	if (ch->ch_rq != rq) {
		pr_err("%s: timed-out request %llu is not the one in flight\n", d->dr_name,
		       (unsigned long long)blk_rq_pos(rq));
		return BLK_EH_FAIL;
	}
	st = ide_altstatus(ch);
	bmst = ch->ch_bm ? ide_bm_read(ch, IDE_BM_STATUS) : 0;
	if (ch->ch_state != IDE_CH_WAIT_READY && ch->ch_bm && (bmst & IDE_BM_STATUS_IRQ) &&
	    !(st & ATA_STATUS_BSY)) {
		pr_warn("%s: lost interrupt (status 0x%02x bm 0x%02x): completing\n",
			d->dr_name, st, bmst);
		if (ch->ch_state == IDE_CH_DMA)
			ide_bm_stop(ch);
		st = ide_read(ch, IDE_REG_STATUS);
		ide_bm_ack(ch, bmst);
		ide_service(ch, st, bmst);
		return BLK_EH_HANDLED;
	}
	d->dr_timeouts++;
	if (rq->rq_retries >= rq->rq_q->q_max_retries)
		d->dr_errors++;		/* the block layer fails it now: no retries left */
	pr_warn("%s: %s timed out at sector %llu+%u (%s, status 0x%02x bm 0x%02x, try %u):"
		" resetting the channel\n", d->dr_name, ata_cmd_name(ch->ch_tf.tf_command),
		(unsigned long long)blk_rq_pos(rq), blk_rq_sectors(rq),
		ide_ch_state_names[ch->ch_state], st, bmst, rq->rq_retries + 1);
	ide_bm_stop(ch);
	ch->ch_rq = NULL;
	ch->ch_rq_drive = NULL;
	ide_begin_reset(ch);
	return BLK_EH_RETRY;
}

/**
 * ide_init_queue - the request queue of an identified ATA drive
 * @d: dr_id, dr_lbs and dr_dma set; @timeout_ms: per command
 *
 * Its lock is the channel's; its limits are what a PRD table and the
 * drive's command set can take, so the block layer splits and bounces
 * everything else.  Returns the queue, or NULL when out of memory.
 */
struct request_queue *ide_init_queue(struct ide_drive *d, u32 timeout_ms)
{
	struct request_queue *q;
	u32 hw_sectors;

	q = blk_init_queue(ide_request_fn, &d->dr_chan->ch_lock, d->dr_name);
	if (!q)
		return NULL;
	q->q_queuedata = d;
	q->q_nr_sectors = ata_id_capacity512(&d->dr_id);
	q->q_max_retries = IDE_MAX_RETRIES;
	blk_queue_prep_rq(q, ide_prep_rq);
	blk_queue_rq_timed_out(q, ide_timed_out);
	blk_queue_rq_timeout(q, timeout_ms);
	blk_queue_logical_block_size(q, d->dr_lbs);
	blk_queue_physical_block_size(q, d->dr_id.ai_physical_size);
	hw_sectors = d->dr_id.ai_lba48 ? IDE_MAX_HW_SECTORS_48 : ATA_MAX_SECTORS_28;
	blk_queue_max_hw_sectors(q, hw_sectors * (d->dr_lbs >> SECTOR_SHIFT));
	blk_queue_max_sectors(q, IDE_MAX_SECTORS_SOFT);
	blk_queue_max_segments(q, IDE_MAX_SG);
	blk_queue_max_segment_size(q, IDE_PRD_MAX_BYTES);
	blk_queue_segment_boundary(q, IDE_PRD_BOUNDARY - 1);
	blk_queue_flush(q, d->dr_id.ai_wcache_on ? BLK_FLUSH_CACHE : 0);
	if (d->dr_dma &&
	    (blk_queue_dma_alignment(q, IDE_DMA_ALIGN) ||
	     blk_queue_bounce_limit(q, BLK_BOUNCE_4G, false))) {
		blk_cleanup_queue(q);
		return NULL;
	}
	return q;
}
