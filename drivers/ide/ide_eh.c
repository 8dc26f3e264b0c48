/*
 * IDE error handling: the soft-reset state machine, the poll timer that
 * waits for devices without spinning, and the block layer's timeout hook.
 *
 * A timeout soft-resets the channel and the block layer retries a bounded
 * number of times, then fails with -EIO.  A channel that stays BSY dies.
 * After a reset the disks are revalidated before any request goes out
 * (ide_mode.c); a disk that turns out to be another fails its requests.
 * Every wait for the device (ready, first DRQ, end of reset) is polled
 * by one timer, ch_poll_timer: interrupts are never off for more than
 * IDE_SPIN_US.
 *
 * Everything here runs with ch_lock held (the timer and the timeout hook
 * take it, or are called with it); the revalidation that follows a reset
 * runs as deferred work without it (ide_mode.c).
 */
#include "drivers/ata/atareg.h"
#include "drivers/ide/ide_priv.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/time.h"

#define IDE_RESET_POLL_MS	10	/* BSY poll period after SRST, ms */

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
