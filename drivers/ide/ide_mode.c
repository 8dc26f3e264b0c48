/*
 * IDE device configuration and what follows a reset: polled commands, the
 * choice of a drive's transfer mode, and revalidation after every soft
 * reset (libata's ata_eh_revalidate_and_attach and ata_set_mode).
 *
 * Modes (ide_pick_mode, at attach): the mode the firmware selected, or the
 * drive's best multiword DMA mode when it selected none; no Ultra DMA
 * above mode 2 on a 40-wire cable, as the chipset (ICH IDE_CONFIG)
 * or, when the chipset cannot say, the drives (IDENTIFY word 93) report
 * it; libata's cable_is_40wire rule for the drives: one drive reporting
 * 80 wires is enough.  Repeated interface CRC errors (ide_speed_down)
 * lower the mode one step, as libata's ata_down_xfermask_limit does.  A
 * lower Ultra DMA mode needs the controller's timing changed too, since
 * the host drives the strobe on writes: only chipsets with a cs_set_mode
 * hook get one; elsewhere the drive falls back to PIO.
 *
 * After a reset (ide_eh.c's reset timer saw BSY drop), the channel is in
 * IDE_CH_REVALIDATE and this file's deferred work owns it: interrupts on,
 * no lock held while it polls, the device interrupt still masked (nIEN
 * from the reset).  For each disk, ata_dev_revalidate: the same disk
 * (else it is failed: its requests end with -EIO and nothing more is
 * written to it), its mode and cache setting told again, the chipset
 * timed for the mode.  A disk that does not answer gets another reset, up
 * to IDE_EH_TRIES in a row, then it is failed.  Then the channel is idle
 * and its queues run.
 */
#include "block/genhd.h"
#include "drivers/ata/atareg.h"
#include "drivers/ide/ide_priv.h"
#include "kernel/errno.h"
#include "kernel/printk.h"

#define IDE_POLL_CMD_MS		5000	/* polled IDENTIFY, SET FEATURES, ms */
#define IDE_EH_TRIES		3	/* resets in a row that fail to revalidate a disk */
#define IDE_CABLE40_UDMA	2	/* the fastest Ultra DMA mode on a 40-wire cable */

/* One polled command (idevar.h).  The channel is the caller's. */
int ide_exec_polled(struct ide_channel *ch, unsigned unit, const struct ata_taskfile *tf,
		    u16 *buf)
{
	int st, err = 0;

	ide_select(ch, unit);
	st = ide_wait_not_busy(ch, IDE_POLL_CMD_MS);
	if (st < 0)
		return st;
	ide_load_tf(ch, tf, unit);
	st = ide_wait_not_busy(ch, IDE_POLL_CMD_MS);
	if (st < 0)
		err = st;
	else if (buf ? (st & ATA_STATUS_ERR) || !(st & ATA_STATUS_DRQ)
		     : (st & (ATA_STATUS_ERR | ATA_STATUS_DF)))
		err = -EIO;
	else if (buf)
		ide_data_in(ch, buf, ATA_ID_WORDS);
	(void)ide_read(ch, IDE_REG_STATUS);	/* the command is over: clear INTRQ */
	return err;
}

static int ide_dev_exec(struct ata_dev *ad, const struct ata_taskfile *tf, u16 *buf)
{
	struct ide_drive *d = container_of(ad, struct ide_drive, dr_ad);

	return ide_exec_polled(d->dr_chan, d->dr_unit, tf, buf);
}

/* Point d's struct ata_dev at the drive: its name and polled commands. */
void ide_dev_init(struct ide_drive *d)
{
	d->dr_ad.ad_name = d->dr_name;
	d->dr_ad.ad_exec = ide_dev_exec;
	d->dr_ad.ad_xfer = -1;
}

/* Time the controller for d's mode, where the chipset lets us.  0 or -errno. */
int ide_set_chipset_mode(struct ide_drive *d)
{
	const struct ide_chipset *cs = d->dr_chan->ch_sc->sc_chipset;

	if (!cs || !cs->cs_set_mode)
		return 0;
	return cs->cs_set_mode(d->dr_chan, d->dr_unit, d->dr_ad.ad_xfer);
}

/* An 80-conductor cable on the channel: the chipset's word, else the drives'. */
static bool ide_cable80(struct ide_channel *ch)
{
	const struct ide_chipset *cs = ch->ch_sc->sc_chipset;
	unsigned u;

	if (cs && cs->cs_cable80)
		return cs->cs_cable80(ch);
	for (u = 0; u < IDE_UNITS; u++)
		if (ch->ch_drive[u].dr_kind == ATA_DEV_ATA && ch->ch_drive[u].dr_id.ai_cable80)
			return true;
	return false;
}

/**
 * ide_pick_mode - the DMA mode d is to run in, into d->dr_ad.ad_xfer
 * (-1: PIO).  The caller has ruled out DMA already where the controller
 * or the drive has none.  Boot context.
 */
void ide_pick_mode(struct ide_drive *d)
{
	struct ide_channel *ch = d->dr_chan;
	const struct ide_chipset *cs = ch->ch_sc->sc_chipset;
	int mode = ata_xfer_active(&d->dr_id);
	char was[16], now[16];

	/* MWDMA works at the controller's power-on timing: UDMA would not. */
	if (mode < 0)
		mode = ata_xfer_mode(&d->dr_id, 0, d->dr_id.ai_mwdma_modes);
	if (mode >= 0 && (mode & ATA_XFER_TYPE_MASK) == ATA_XFER_UDMA &&
	    (mode & ATA_XFER_MODE_MASK) > IDE_CABLE40_UDMA && !ide_cable80(ch)) {
		ata_xfer_name(mode, was, sizeof(was));
		mode = cs && cs->cs_set_mode ? ATA_XFER_UDMA | IDE_CABLE40_UDMA : -1;
		ata_xfer_name(mode, now, sizeof(now));
		pr_warn("%s: 40-wire cable: %s set by the firmware limited to %s\n", d->dr_name,
			was, now);
	}
	d->dr_ad.ad_xfer = mode < 0 ? -1 : mode;
}

/**
 * ide_speed_down - repeated interface CRC errors: one mode slower (PIO
 * when nothing slower is left or the chipset cannot be retimed), with a
 * log line.  The reset the caller starts next applies it.  ch_lock held.
 */
void ide_speed_down(struct ide_drive *d)
{
	const struct ide_chipset *cs = d->dr_chan->ch_sc->sc_chipset;
	int old = d->dr_ad.ad_xfer, mode = -1;
	char was[16], now[16];

	assert_spin_locked(&d->dr_chan->ch_lock);
	if (cs && cs->cs_set_mode)
		mode = ata_xfer_down(&d->dr_id, old, 0);	/* no MWDMA retiming: UDMA/0 -> PIO */
	d->dr_ad.ad_xfer = mode < 0 ? -1 : mode;
	ata_xfer_name(old, was, sizeof(was));
	ata_xfer_name(d->dr_ad.ad_xfer, now, sizeof(now));
	pr_warn("%s: %u interface CRC errors at %s: limiting to %s\n", d->dr_name,
		d->dr_icrc, was, now);
	d->dr_icrc = 0;
}

/* Revalidate d after the reset: 0, or -errno with the disk failed (reported). */
static int ide_revalidate_drive(struct ide_drive *d)
{
	int err = ata_dev_revalidate(&d->dr_ad, &d->dr_id);

	if (!err)
		err = ide_set_chipset_mode(d);
	if (err && err != -ENODEV)
		pr_err("%s: no answer after the reset (%s)\n", d->dr_name, errstr(err));
	return err;
}

/**
 * ide_eh_work - revalidate the disks of a channel that came out of a
 * reset, then hand it back to the I/O path.  Deferred work, interrupts
 * on; the channel is the work's while ch_state is IDE_CH_REVALIDATE.
 */
void ide_eh_work(struct work *w)
{
	struct ide_channel *ch = container_of(w, struct ide_channel, ch_eh_work);
	bool again = false, dead[IDE_UNITS] = { false };
	unsigned long flags;
	unsigned u;
	int err;

	KASSERT(ch->ch_state == IDE_CH_REVALIDATE);
	for (u = 0; u < IDE_UNITS; u++) {
		struct ide_drive *d = &ch->ch_drive[u];

		if (!d->dr_queue || d->dr_gone)
			continue;
		err = ide_revalidate_drive(d);
		if (!err && d->dr_disk)	/* IDENTIFY was read again: the disk's view follows */
			ide_disk_ops.bdo_revalidate_disk(d->dr_disk);
		if (err == -ENODEV || (err && ch->ch_eh_tries + 1 >= IDE_EH_TRIES))
			dead[u] = true;
		else if (err)
			again = true;
	}

	spin_lock_irqsave(&ch->ch_lock, flags);
	for (u = 0; u < IDE_UNITS; u++) {
		struct ide_drive *d = &ch->ch_drive[u];

		if (dead[u]) {
			pr_err("%s: disk failed: its I/O ends with errors\n", d->dr_name);
			d->dr_gone = true;
		} else if (d->dr_queue) {
			d->dr_dma = d->dr_ad.ad_xfer >= 0;
		}
	}
	if (again) {
		ch->ch_eh_tries++;
		ide_begin_reset(ch);
	} else {
		ch->ch_eh_tries = 0;
		ide_devctl(ch, 0);		/* interrupts on again: nIEN off */
		ch->ch_state = IDE_CH_IDLE;
		ide_kick(ch);
	}
	spin_unlock_irqrestore(&ch->ch_lock, flags);
}
