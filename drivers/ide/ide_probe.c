/*
 * IDE discovery and attachment: what sits on each channel, and a request
 * queue and gendisk for every ATA disk found.  Bus-independent: the bus
 * glue (ide_pci.c) hands over a softc with the ports and IRQs filled in.
 *
 * Probing runs at boot with the device interrupt masked (nIEN) and polls,
 * every wait bounded (ATA8-APT, "Software reset protocol" and "PIO
 * data-in"): a channel reading all ones has nothing on it; after a soft
 * reset each position is checked for a device that keeps what is written
 * to its registers, then classified by its signature and asked IDENTIFY
 * (DEVICE for ATA, PACKET for ATAPI, which is only named and left alone).
 * A floating bus, a missing slave or a device that stays BSY costs at
 * most IDE_PROBE_BSY_MS per channel, never a hang; the channels are reset
 * together and share one settle time.  Drives use DMA in the
 * mode the firmware selected (else multiword DMA), limited by the cable
 * (ide_mode.c); on a simplex controller only the first channel with a DMA
 * drive gets the bus master.  Each drive is then configured as after
 * every reset (ata_dev_setup): its mode and write-cache setting sent.
 *
 * Names follow Linux: hda/hdb on the first controller's primary channel,
 * hdc/hdd on its secondary (majors 3 and 22, 64 minors per drive), the
 * next controller from hde on.  Capacity, model and cache come from
 * IDENTIFY; the queue (ide_init_queue, ide.c) takes only what a PRD table
 * can describe.  A disk with a write cache on says so in its queue, and
 * the block layer flushes it at shutdown (block/genhd_flush.c).
 *
 * Parameters: ide.nodma (PIO only), ide.timeout_ms (per command).
 */
#include "block/genhd.h"
#include "drivers/ata/atareg.h"
#include "drivers/ide/ide_priv.h"
#include "kernel/errno.h"
#include "kernel/param.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "kernel/mm/page.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

#define IDE_D_PROBE		0x04

#define IDE_PROBE_BSY_MS	10000	/* BSY after SRST at boot: the drive spun up in POST */
#define IDE_DEF_TIMEOUT_MS	30000	/* a command without an interrupt, ms */
#define IDE_MINORS		64	/* per drive: the disk and 63 partitions */

/* Linux's majors for the first four channels (IDE0..IDE3). */
static const unsigned ide_majors[] = { 3, 22, 33, 34 };

static bool ide_nodma;
PARAM_BOOL("ide.nodma", ide_nodma, "IDE: PIO only, no bus-master DMA");
static unsigned ide_timeout_ms = IDE_DEF_TIMEOUT_MS;
PARAM_UINT("ide.timeout_ms", ide_timeout_ms, "IDE: ms a command may take before a reset");

/*
 * Attached controllers, for the ide command.  Changed only by
 * ide_attach/ide_detach at boot or removal, never concurrently.
 */
static LIST_HEAD(ide_controllers);

/*
 * Soft reset with interrupts masked (ATA8-APT, software reset protocol):
 * SRST held IDE_SRST_HOLD_US.  The IDE_SRST_SETTLE_MS before the first
 * look at Status is the caller's, so that every channel of the
 * controller can settle under one wait.
 */
static void ide_probe_reset_begin(struct ide_channel *ch)
{
	/* Device 0 selected for the reset: not every device clears DEV itself. */
	ch->ch_selected = 0xff;
	ide_select(ch, 0);
	ide_devctl(ch, ATA_CTL_SRST | ATA_CTL_NIEN);
	udelay(IDE_SRST_HOLD_US);
	ide_devctl(ch, ATA_CTL_NIEN);
}

/* After the settle time: wait for device 0 (bounded).  0 or -errno. */
static int ide_probe_reset_wait(struct ide_channel *ch)
{
	int st;

	st = ide_altstatus(ch);
	if (st == 0xff)
		return -ENODEV;		/* floating: no device 0 to wait for */
	st = ide_wait_not_busy(ch, IDE_PROBE_BSY_MS);
	ch->ch_selected = 0xff;
	return st < 0 ? st : 0;
}

/* Does any position of the channel answer (not the bus float, FFh)? */
static bool ide_probe_answers(struct ide_channel *ch)
{
	bool answers = false;
	unsigned u;

	for (u = 0; u < IDE_UNITS; u++) {
		ch->ch_selected = 0xff;
		ide_select(ch, u);
		if (ide_altstatus(ch) != 0xff)
			answers = true;
	}
	return answers;
}

/*
 * Is a device at unit?  Its registers keep what we write (Linux's
 * devchk): an absent one reads back the bus float or the other device's
 * zeros.  Select first, so writes and reads reach the right device.
 */
static bool ide_probe_present(struct ide_channel *ch, unsigned unit)
{
	static const u8 pat[][2] = { { 0x55, 0xaa }, { 0xaa, 0x55 }, { 0x55, 0xaa } };
	unsigned i;

	ide_select(ch, unit);
	for (i = 0; i < ARRAY_SIZE(pat); i++) {
		ide_write(ch, IDE_REG_COUNT, pat[i][0]);
		ide_write(ch, IDE_REG_LBA_LOW, pat[i][1]);
	}
	return ide_read(ch, IDE_REG_COUNT) == 0x55 && ide_read(ch, IDE_REG_LBA_LOW) == 0xaa;
}

/*
 * Configure an identified ATA drive: DMA when there is a bus master, no
 * ide.nodma, a drive that has DMA, and on a simplex controller (SFF-8038i,
 * Bus Master IDE Status bit 7: the channels cannot both do DMA) a bus
 * master no other channel has taken; its mode (ide_pick_mode, ide_mode.c),
 * the chipset timed for it, then ata_dev_setup: the mode selected with
 * SET FEATURES, the write-cache policy, IDENTIFY read back.  Returns 0, or
 * -errno for a drive that stopped answering (reported).
 */
static int ide_probe_config(struct ide_drive *d)
{
	struct ide_channel *ch = d->dr_chan;
	struct ide_softc *sc = ch->ch_sc;
	bool dma = ch->ch_bm && !sc->sc_nodma && d->dr_id.ai_dma;
	int err;

	ide_dev_init(d);
	if (dma && sc->sc_simplex && sc->sc_dma_chan && sc->sc_dma_chan != ch) {
		pr_info("%s: simplex bus master, in use by %s: using PIO\n", d->dr_name,
			sc->sc_dma_chan->ch_name);
		dma = false;
	}
	if (dma)
		ide_pick_mode(d);	/* else PIO: the firmware's PIO mode and timing stay */
	err = ide_set_chipset_mode(d);
	if (!err)
		err = ata_dev_setup(&d->dr_ad, &d->dr_id);
	if (!err && dma && d->dr_ad.ad_xfer < 0)
		err = ide_set_chipset_mode(d);	/* the drive refused its mode: PIO */
	if (err) {
		pr_warn("%s: cannot be configured (%s): drive ignored\n", d->dr_name, errstr(err));
		return err;
	}
	d->dr_dma = d->dr_ad.ad_xfer >= 0;
	if (d->dr_dma && sc->sc_simplex)
		sc->sc_dma_chan = ch;
	return 0;
}

/*
 * Identify the device at unit, given the kind its reset signature
 * suggests (read for both units before any register is written: a write
 * reaches both devices).  Fills d; 0 or -errno.
 */
static int ide_probe_unit(struct ide_channel *ch, unsigned unit, enum ata_dev_class kind, u16 *buf)
{
	struct ide_drive *d = &ch->ch_drive[unit];
	struct ata_taskfile tf;
	char model[ATA_MODEL_LEN + 1];
	int err;

	d->dr_kind = ATA_DEV_NONE;
	if (kind == ATA_DEV_NONE)
		return 0;
	if (!ide_probe_present(ch, unit))
		return 0;
	d->dr_kind = (u8)kind;
	if (d->dr_kind == ATA_DEV_ATAPI) {
		ata_identify(&tf, true);
		model[0] = '\0';
		if (!ide_exec_polled(ch, unit, &tf, buf))
			ata_id_string(buf, ATA_ID_MODEL, ATA_ID_MODEL_WORDS, model);
		pr_info("%s: ATAPI device \"%s\": not handled by this driver, left alone\n",
			d->dr_name, model);
		return 0;
	}
	if (d->dr_kind == ATA_DEV_NONE)
		return 0;
	ata_identify(&tf, false);
	err = ide_exec_polled(ch, unit, &tf, buf);
	if (!err)
		err = ata_id_parse(buf, &d->dr_id);
	if (err) {
		if (d->dr_kind == ATA_DEV_ATA)
			pr_warn("%s: IDENTIFY DEVICE failed: %s; drive ignored\n", d->dr_name,
				errstr(err));
		d->dr_kind = ATA_DEV_NONE;
		return 0;
	}
	d->dr_kind = ATA_DEV_ATA;
	d->dr_lbs = d->dr_id.ai_logical_size;
	if (!is_power_of_2(d->dr_lbs) || d->dr_lbs < SECTOR_SIZE || d->dr_lbs > IDE_PIO_BUF_SIZE ||
	    !d->dr_id.ai_sectors) {
		pr_warn("%s: %u-byte sectors, %llu of them: not supported, drive ignored\n",
			d->dr_name, d->dr_lbs, (unsigned long long)d->dr_id.ai_sectors);
		d->dr_kind = ATA_DEV_UNKNOWN;
	}
	return 0;
}

/*
 * Select unit after the reset and return its Status once BSY is clear
 * (bounded), or -ETIMEDOUT.  While a device is busy every command block
 * register reads as its Status, so its signature is not there yet;
 * ide_probe_reset_wait waited for device 0 only, and device 1 may still be in
 * its own reset.  A floating position (FFh) is not waited for.
 */
static int ide_probe_settle(struct ide_channel *ch, unsigned unit)
{
	u8 st;

	ide_select(ch, unit);
	st = ide_altstatus(ch);
	if (st == 0xff || !(st & ATA_STATUS_BSY))
		return st;
	return ide_wait_not_busy(ch, IDE_PROBE_BSY_MS);
}

/*
 * Find what is on a channel that answered and was reset (ide_attach,
 * settle time passed).  Returns the number of ATA drives.
 */
static unsigned ide_probe_channel(struct ide_channel *ch, u16 *buf)
{
	enum ata_dev_class kind[IDE_UNITS];
	u8 count, low, mid, high;
	unsigned u, n = 0;
	int err, st;

	err = ide_probe_reset_wait(ch);
	if (err == -ETIMEDOUT) {
		pr_warn("%s: still busy %u ms after a reset: channel ignored\n", ch->ch_name,
			IDE_PROBE_BSY_MS);
		return 0;
	}
	for (u = 0; u < IDE_UNITS; u++) {
		st = ide_probe_settle(ch, u);
		if (st < 0) {
			pr_warn("%s: still busy %u ms after a reset: ignored\n",
				ch->ch_drive[u].dr_name, IDE_PROBE_BSY_MS);
			kind[u] = ATA_DEV_NONE;
			continue;
		}
		count = ide_read(ch, IDE_REG_COUNT);
		low = ide_read(ch, IDE_REG_LBA_LOW);
		mid = ide_read(ch, IDE_REG_LBA_MID);
		high = ide_read(ch, IDE_REG_LBA_HIGH);
		kind[u] = ide_sig_class((u8)st, count, low, mid, high);
		DPRINTF(IDE_D_PROBE, "%s: status %02x signature %02x %02x %02x %02x: %s\n",
			ch->ch_drive[u].dr_name, st, count, low, mid, high, ata_dev_class_names[kind[u]]);
	}
	for (u = 0; u < IDE_UNITS; u++)
		ide_probe_unit(ch, u, kind[u], buf);
	/* Modes once both drives are known: the cable is theirs to report. */
	for (u = 0; u < IDE_UNITS; u++) {
		struct ide_drive *d = &ch->ch_drive[u];

		if (d->dr_kind != ATA_DEV_ATA)
			continue;
		if (ide_probe_config(d))
			d->dr_kind = ATA_DEV_UNKNOWN;
		else
			n++;
	}
	return n;
}

/* Queue and gendisk for an identified ATA drive, then add_disk (which scans). */
static int ide_attach_drive(struct ide_drive *d)
{
	struct ide_channel *ch = d->dr_chan;
	const struct ata_id *ai = &d->dr_id;
	sector_t cap = ata_id_capacity512(ai);
	struct gendisk *disk;
	char mode[16], media[64];
	int err;

	d->dr_queue = ide_init_queue(d, ide_timeout_ms);
	if (!d->dr_queue)
		return -ENOMEM;
	disk = alloc_disk(IDE_MINORS);
	if (!disk) {
		err = -ENOMEM;
		goto cleanup_queue;
	}
	disk->gd_major = ch->ch_major;
	disk->gd_first_minor = d->dr_unit * IDE_MINORS;
	str_copy(disk->gd_name, d->dr_name, sizeof(disk->gd_name));
	str_copy(disk->gd_model, ai->ai_model, sizeof(disk->gd_model));
	disk->gd_fops = &ide_disk_ops;
	disk->gd_queue = d->dr_queue;
	disk->gd_private_data = d;
	disk->gd_flags = GENHD_FL_EXT_DEVT;
	disk->gd_logical_block_size = d->dr_lbs;
	disk->gd_physical_block_size = ai->ai_physical_size;
	disk->gd_alignment_offset = ata_id_alignment_offset(ai);
	set_capacity(disk, cap);
	d->dr_disk = disk;

	ata_xfer_name(d->dr_dma ? d->dr_ad.ad_xfer : -1, mode, sizeof(mode));
	ata_id_media_str(ai, media, sizeof(media));
	pr_info("%s: %s, %llu MiB (%llu sectors)%s, %s, %s%s\n", d->dr_name,
		ai->ai_model[0] ? ai->ai_model : "(no model)",
		(unsigned long long)(cap >> (20 - SECTOR_SHIFT)), (unsigned long long)cap, media,
		ai->ai_lba48 ? "LBA48" : "LBA28", mode,
		ai->ai_wcache_on ? ", write cache" : "");
	err = add_disk(disk);
	if (err) {
		pr_err("%s: add_disk failed: %s\n", d->dr_name, errstr(err));
		goto put_disk;
	}
	return 0;

put_disk:
	d->dr_disk = NULL;
	put_disk(disk);
cleanup_queue:
	blk_cleanup_queue(d->dr_queue);
	d->dr_queue = NULL;
	return err;
}

/* The per-channel DMA and PIO buffers; 0 or -ENOMEM (nothing kept). */
static int ide_alloc_buffers(struct ide_channel *ch)
{
	ch->ch_prdt = get_zeroed_page(GFP_KERNEL);
	ch->ch_sg = kcalloc(IDE_MAX_SG, sizeof(*ch->ch_sg), GFP_KERNEL);
	ch->ch_pio_buf = kmalloc(IDE_PIO_BUF_SIZE, GFP_KERNEL);
	if (!ch->ch_prdt || !ch->ch_sg || !ch->ch_pio_buf) {
		if (ch->ch_prdt)
			free_pages(ch->ch_prdt, 0);
		kfree(ch->ch_sg);
		kfree(ch->ch_pio_buf);
		ch->ch_prdt = NULL;
		ch->ch_sg = NULL;
		ch->ch_pio_buf = NULL;
		return -ENOMEM;
	}
	/* A lowmem page: below 896 MiB, so 32-bit, and inside one 64 KiB block. */
	ch->ch_prdt_phys = __pa(ch->ch_prdt);
	ch->ch_bm_cmd = IDE_BM_CMD_START;	/* unknown: the first stop writes it */
	_Static_assert(IDE_PRDT_ENTRIES * sizeof(struct ide_prd) <= PAGE_SIZE,
		       "the PRD table fits its page");
	return 0;
}

static void ide_free_buffers(struct ide_channel *ch)
{
	free_pages(ch->ch_prdt, 0);
	kfree(ch->ch_sg);
	kfree(ch->ch_pio_buf);
	ch->ch_prdt = NULL;
	ch->ch_sg = NULL;
	ch->ch_pio_buf = NULL;
}

/*
 * Bring up one channel: probe, buffers, major, IRQ, then the disks.
 * Returns the number of disks added, or -errno with the channel's
 * resources released.
 */
static int ide_attach_channel(struct ide_channel *ch, u16 *idbuf, bool reset)
{
	struct ide_softc *sc = ch->ch_sc;
	unsigned chan_no = sc->sc_index * IDE_CHANNELS + ch->ch_index, u, found;
	int err, added = 0;

	snprintf(ch->ch_name, sizeof(ch->ch_name), "ide%u", chan_no);
	spin_lock_init(&ch->ch_lock, "ide_channel");
	timer_setup(&ch->ch_poll_timer, ide_poll_timer_fn);
	work_init(&ch->ch_eh_work, ide_eh_work);
	ch->ch_state = IDE_CH_IDLE;
	ch->ch_selected = 0xff;
	for (u = 0; u < IDE_UNITS; u++) {
		struct ide_drive *d = &ch->ch_drive[u];

		d->dr_chan = ch;
		d->dr_unit = (u8)u;
		err = disk_name_letters(d->dr_name, sizeof(d->dr_name), "hd",
					chan_no * IDE_UNITS + u);
		if (err)
			return err;
	}
	found = reset ? ide_probe_channel(ch, idbuf) : 0;
	if (!found)
		return 0;

	err = ide_alloc_buffers(ch);
	if (err)
		return err;
	err = register_blkdev(chan_no < ARRAY_SIZE(ide_majors) ? ide_majors[chan_no] : 0,
			      ch->ch_name);
	if (err < 0)
		goto free_buffers;
	ch->ch_major = err;
	err = request_irq((unsigned)ch->ch_irq, ide_intr, ch, ch->ch_name);
	if (err)
		goto unregister;
	/* Interrupts on at the device: nIEN off (ATA8-APT, Device Control). */
	ide_devctl(ch, 0);

	for (u = 0; u < IDE_UNITS; u++) {
		if (ch->ch_drive[u].dr_kind != ATA_DEV_ATA)
			continue;
		if (ide_attach_drive(&ch->ch_drive[u]) == 0)
			added++;
		else
			ch->ch_drive[u].dr_kind = ATA_DEV_UNKNOWN;	/* error already printed */
	}
	if (added)
		return added;
	err = -ENODEV;

	ide_devctl(ch, ATA_CTL_NIEN);
	free_irq((unsigned)ch->ch_irq, ch);
unregister:
	unregister_blkdev((unsigned)ch->ch_major, ch->ch_name);
free_buffers:
	ide_free_buffers(ch);
	return err;
}

int ide_attach(struct ide_softc *sc)
{
	bool reset[IDE_CHANNELS] = { false }, any = false;
	unsigned i;
	int n, total = 0, err = -ENODEV;
	u16 *idbuf;

	INIT_LIST_HEAD(&sc->sc_list);
	idbuf = kmalloc(ATA_ID_WORDS * sizeof(u16), GFP_KERNEL);
	if (!idbuf)
		return -ENOMEM;
	if (ide_nodma)
		sc->sc_nodma = true;
	for (i = 0; i < IDE_CHANNELS; i++) {
		struct ide_channel *ch = &sc->sc_chan[i];

		ch->ch_sc = sc;
		ch->ch_index = (u8)i;
		if (ch->ch_cmd && ch->ch_bm &&
		    (ide_bm_read(ch, IDE_BM_STATUS) & IDE_BM_STATUS_SIMPLEX))
			sc->sc_simplex = true;
	}
	/*
	 * Every channel that answers is soft-reset first and all settle
	 * under one IDE_SRST_SETTLE_MS (each gets its full 2 ms, ATA8-APT),
	 * so a second channel costs no settle of its own and its devices
	 * come out of reset while the first channel is probed.
	 */
	for (i = 0; i < IDE_CHANNELS; i++) {
		struct ide_channel *ch = &sc->sc_chan[i];

		if (ch->ch_cmd && ide_probe_answers(ch)) {
			ide_probe_reset_begin(ch);
			reset[i] = any = true;
		}
	}
	if (any)
		mdelay(IDE_SRST_SETTLE_MS);
	for (i = 0; i < IDE_CHANNELS; i++) {
		struct ide_channel *ch = &sc->sc_chan[i];

		if (!ch->ch_cmd)
			continue;
		n = ide_attach_channel(ch, idbuf, reset[i]);
		if (n < 0) {
			pr_err("%s: channel %u: %s\n", sc->sc_name, i, errstr(n));
			err = n;
			continue;
		}
		total += n;
		err = 0;
	}
	kfree(idbuf);
	DPRINTF(IDE_D_PROBE, "%s: %d disks\n", sc->sc_name, total);
	if (err)
		return err;
	list_add_tail(&sc->sc_list, &ide_controllers);
	return 0;
}

/*
 * Take every disk of the controller away and release what ide_attach
 * took: disks, queues (their I/O drained), IRQs, majors, buffers.
 */
void ide_detach(struct ide_softc *sc)
{
	unsigned i, u;

	list_del_init(&sc->sc_list);
	for (i = 0; i < IDE_CHANNELS; i++) {
		struct ide_channel *ch = &sc->sc_chan[i];

		if (!ch->ch_prdt)
			continue;	/* never set up, or nothing found on it */
		for (u = 0; u < IDE_UNITS; u++) {
			struct ide_drive *d = &ch->ch_drive[u];

			if (!d->dr_disk)
				continue;
			del_gendisk(d->dr_disk);
			blk_cleanup_queue(d->dr_queue);
			put_disk(d->dr_disk);
			d->dr_disk = NULL;
			d->dr_queue = NULL;
		}
		del_timer(&ch->ch_poll_timer);
		ide_devctl(ch, ATA_CTL_NIEN);
		free_irq((unsigned)ch->ch_irq, ch);
		unregister_blkdev((unsigned)ch->ch_major, ch->ch_name);
		ide_free_buffers(ch);
	}
}

/* The attached controller after prev (the first for NULL), or NULL at the end. */
struct ide_softc *ide_next_controller(struct ide_softc *prev)
{
	struct list_head *n = prev ? prev->sc_list.next : ide_controllers.next;

	return n == &ide_controllers ? NULL : list_entry(n, struct ide_softc, sc_list);
}
