/*
 * The IDE channel core: what every part of the driver does to a channel.
 * Bus-independent: ide_pci.c finds the ports, ide_probe.c the drives,
 * ide_io.c moves the data, ide_eh.c resets, ide_mode.c picks modes and
 * revalidates.
 *
 * Here: the channel state names, device selection with its 400 ns
 * (ATA8-APT, "Device selection protocol"), bounded waits for BSY, the
 * bus-master engine's Start/Stop and status acknowledgement (SFF-8038i
 * 3.1: the Interrupt and Error bits are write-1-to-clear), taskfile
 * loading, running a channel's two queues in turn, and the request
 * queue of a drive with the limits a PRD table and the ATA command set
 * allow.
 *
 * Locking: everything that touches the registers runs with ch_lock held,
 * except the polled paths (probe, revalidation) that own the channel by
 * its state (idevar.h's legend).
 */
#include "drivers/ata/atareg.h"
#include "drivers/ide/ide_priv.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/time.h"

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
void ide_delay400(struct ide_channel *ch)
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
u8 ide_spin_not_busy(struct ide_channel *ch)
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
void ide_poll_in(struct ide_channel *ch, u32 ms)
{
	mod_timer(&ch->ch_poll_timer, get_jiffies_64() + msecs_to_jiffies(ms) + 1);
}

/* Clear the bus-master Interrupt and Error bits (write 1 to clear). */
void ide_bm_ack(struct ide_channel *ch, u8 bmst)
{
	ide_bm_write(ch, IDE_BM_STATUS, (u8)((bmst & IDE_BM_STATUS_KEEP) |
					     IDE_BM_STATUS_IRQ | IDE_BM_STATUS_ERROR));
}

/*
 * Bus Master Command holds only bits the driver sets (Start, Read/Write;
 * the rest reserved), so it is written from a copy, never read back: each
 * register access is an exit under emulation.
 */
void ide_bm_cmd(struct ide_channel *ch, u8 v)
{
	ch->ch_bm_cmd = v;
	ide_bm_write(ch, IDE_BM_CMD, v);
}

void ide_bm_stop(struct ide_channel *ch)
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

void ide_kick(struct ide_channel *ch)
{
	unsigned i, u;

	for (i = 0; i < IDE_UNITS; i++) {
		u = (ch->ch_next_unit + i) % IDE_UNITS;
		if (ch->ch_drive[u].dr_queue)
			__blk_run_queue(ch->ch_drive[u].dr_queue);
	}
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
