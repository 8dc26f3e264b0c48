/*
 * The IDE driver's private declarations: register access and the calls
 * between its files.  Included only by the .c files of drivers/ide and
 * the driver's host tests; everything other code may use is in idevar.h.
 *
 *	ide.c		channel core: selection, waits, bus master, taskfile, queue
 *	ide_io.c	request path and interrupt
 *	ide_eh.c	soft reset, poll timer, timeouts
 *	ide_mode.c	polled commands, transfer modes, revalidation
 *	ide_disk.c	the gendisk operations (open, geometry, report)
 *	ide_prd.c	PRD tables and signatures (pure)
 *
 * Registers are reached through a const ide_io_ops table, port I/O in the
 * kernel, so that the host tests run the same code against a simulated
 * channel (tests/unit/ide_sim.c).
 */
#ifndef DRIVERS_IDE_IDE_PRIV_H
#define DRIVERS_IDE_IDE_PRIV_H

#include "drivers/ide/idevar.h"

#define IDE_SPIN_US		20	/* the longest busy-wait with interrupts off, us */
#define IDE_POLL_MS		1	/* a busy device and the first DRQ polled this often, ms */

/*
 * How a channel's registers are reached: x86 port I/O (ide_port_io,
 * ide_pci.c), or a simulated controller in the host tests.  port is the
 * absolute address: ch_cmd, ch_ctl or ch_bm plus a register offset.
 */
struct ide_io_ops {
	u8	(*io_in8)(struct ide_channel *ch, u16 port);
	void	(*io_out8)(struct ide_channel *ch, u16 port, u8 v);
	void	(*io_out32)(struct ide_channel *ch, u16 port, u32 v);
	void	(*io_in16s)(struct ide_channel *ch, u16 port, void *buf, u32 words);
	void	(*io_out16s)(struct ide_channel *ch, u16 port, const void *buf, u32 words);
};
extern const struct ide_io_ops ide_port_io;

/* Register access (STYLE rule 22): every register access of the driver. */
static inline u8 ide_read(struct ide_channel *ch, unsigned reg)
{
	return ch->ch_io->io_in8(ch, (u16)(ch->ch_cmd + reg));
}
static inline void ide_write(struct ide_channel *ch, unsigned reg, u8 v)
{
	ch->ch_io->io_out8(ch, (u16)(ch->ch_cmd + reg), v);
}
static inline u8 ide_altstatus(struct ide_channel *ch)
{
	return ch->ch_io->io_in8(ch, (u16)(ch->ch_ctl + IDE_REG_ALTSTATUS));
}
static inline void ide_devctl(struct ide_channel *ch, u8 v)
{
	ch->ch_io->io_out8(ch, (u16)(ch->ch_ctl + IDE_REG_DEVCTL), v);
}
static inline u8 ide_bm_read(struct ide_channel *ch, unsigned reg)
{
	return ch->ch_io->io_in8(ch, (u16)(ch->ch_bm + reg));
}
static inline void ide_bm_write(struct ide_channel *ch, unsigned reg, u8 v)
{
	ch->ch_io->io_out8(ch, (u16)(ch->ch_bm + reg), v);
}
static inline void ide_bm_set_prdt(struct ide_channel *ch, u32 phys)
{
	ch->ch_io->io_out32(ch, (u16)(ch->ch_bm + IDE_BM_PRDT), phys);
}
static inline void ide_data_in(struct ide_channel *ch, void *buf, u32 words)
{
	ch->ch_io->io_in16s(ch, (u16)(ch->ch_cmd + IDE_REG_DATA), buf, words);
}
static inline void ide_data_out(struct ide_channel *ch, const void *buf, u32 words)
{
	ch->ch_io->io_out16s(ch, (u16)(ch->ch_cmd + IDE_REG_DATA), buf, words);
}

/* ide.c: the channel core. */
struct request_queue *ide_init_queue(struct ide_drive *d, u32 timeout_ms);
/* Run both queues of the channel, the one whose turn it is first.  ch_lock held. */
void ide_kick(struct ide_channel *ch);
/* Wait (bounded) for BSY to drop; returns the Status, or -ETIMEDOUT. */
int ide_wait_not_busy(struct ide_channel *ch, u32 ms);
/* Poll BSY for at most IDE_SPIN_US; the last Status (BSY set: not done yet). */
u8 ide_spin_not_busy(struct ide_channel *ch);
/* Write a taskfile and its command to unit (48-bit "previous" bytes first). */
void ide_load_tf(struct ide_channel *ch, const struct ata_taskfile *tf, unsigned unit);
/* Select unit and wait the 400 ns the Status needs (ATA8-APT, device selection). */
void ide_select(struct ide_channel *ch, unsigned unit);
/* The 400 ns after a Device write or a command: four Alt Status reads. */
void ide_delay400(struct ide_channel *ch);
/* Have the poll timer look at the channel again in ms milliseconds. */
void ide_poll_in(struct ide_channel *ch, u32 ms);
/* Bus master: clear Interrupt and Error, write Command, stop the engine. */
void ide_bm_ack(struct ide_channel *ch, u8 bmst);
void ide_bm_cmd(struct ide_channel *ch, u8 v);
void ide_bm_stop(struct ide_channel *ch);

/* ide_io.c: the request path and the interrupt.  ch_lock held unless said. */
void ide_request_fn(struct request_queue *q);
int ide_prep_rq(struct request_queue *q, struct request *rq);
irqreturn_t ide_intr(unsigned irq, void *data);
/* Issue the command held in IDE_CH_WAIT_READY if its device is ready. */
void ide_issue(struct ide_channel *ch);
/* PIO write: the first block, when the device asks for it. */
void ide_pio_out_first(struct ide_channel *ch);
/* Act on an interrupt that is the channel's, already acknowledged. */
void ide_service(struct ide_channel *ch, u8 st, u8 bmst);

/* ide_eh.c: resets and timeouts. */
/* Soft-reset the channel; revalidation follows.  ch_lock held. */
void ide_begin_reset(struct ide_channel *ch);
void ide_poll_timer_fn(struct timer_list *t);
enum blk_eh_timer_return ide_timed_out(struct request *rq);

/* ide_mode.c: transfer modes, revalidation after a reset. */
void ide_dev_init(struct ide_drive *d);
void ide_pick_mode(struct ide_drive *d);
int ide_set_chipset_mode(struct ide_drive *d);
void ide_speed_down(struct ide_drive *d);
void ide_eh_work(struct work *w);

/* ide_disk.c: the gendisk operations of an IDE disk (block/genhd.h). */
extern const struct block_device_operations ide_disk_ops;

/* ide_prd.c: pure, host-tested. */
/*
 * ide_prd_build - turn a mapped scatterlist into a PRD table
 * @prd: the table, max entries; @sg, @nsg: the request's segments
 * @total: set to the bytes the table describes
 * Every entry stays inside a 64 KiB block, a full 64 KiB piece becomes
 * two 32 KiB entries, the last one carries EOT.  Returns the entry count,
 * -EINVAL for an odd address or length or an empty list, -ERANGE for
 * memory above 4 GiB, -ENOSPC when the table is too small.
 */
int ide_prd_build(struct ide_prd *prd, u32 max, const struct scatterlist *sg, u32 nsg,
		  u32 *total);

/*
 * Classify a drive by what it shows after reset, selected: the parallel
 * bus's own cases (FFh: a floating bus; Status 00h with an ATA signature:
 * device 0 answering for an absent device 1; an ATA signature without
 * Count and LBA Low 01h: confused), then ata_classify() of the signature.
 */
enum ata_dev_class ide_sig_class(u8 status, u8 count, u8 lba_low, u8 lba_mid, u8 lba_high);

#endif
