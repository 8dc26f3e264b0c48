/*
 * The IDE disk's block_device_operations (block/genhd.h): what the block
 * layer asks the driver about one attached disk.
 *
 *	bdo_open		-ENXIO once the drive failed revalidation or
 *				its channel died
 *	bdo_getgeo		CHS from IDENTIFY words 1/3/6, or 255/63
 *	bdo_revalidate_disk	the capacity from the IDENTIFY data read last
 *				(every reset re-reads it, ide_mode.c, and
 *				fails a drive that answers as another disk)
 *	bdo_report		channel, master/slave, transfer mode, PIO/DMA,
 *				one fact a line
 *
 * Contract: called without ch_lock; reads fields immutable after attach
 * ([I]) or single bytes and flags, so a report racing with a reset may
 * show the state just before or after it.
 */
#include "block/bdev.h"
#include "block/genhd.h"
#include "drivers/ide/ide_priv.h"
#include "kernel/errno.h"
#include "lib/string.h"

static bool ide_disk_usable(const struct ide_drive *d)
{
	return !d->dr_gone && d->dr_chan->ch_state != IDE_CH_DEAD;
}

static int ide_disk_open(struct block_device *bdev, fmode_t mode)
{
	return ide_disk_usable(bdev->bd_disk->gd_private_data) ? 0 : -ENXIO;
}

static int ide_disk_getgeo(struct block_device *bdev, struct hd_geometry *geo)
{
	struct ide_drive *d = bdev->bd_disk->gd_private_data;
	u32 c, h, s;

	ata_id_geometry(&d->dr_id, &c, &h, &s);
	geo->hg_cylinders = (u16)c;
	geo->hg_heads = (u8)h;
	geo->hg_sectors = (u8)s;
	return 0;
}

static int ide_disk_revalidate(struct gendisk *disk)
{
	struct ide_drive *d = disk->gd_private_data;

	if (!ide_disk_usable(d))
		return -ENXIO;
	set_capacity(disk, ata_id_capacity512(&d->dr_id));
	return 0;
}

static int ide_disk_report(struct gendisk *disk, char *buf, size_t len)
{
	struct ide_drive *d = disk->gd_private_data;
	struct ide_channel *ch = d->dr_chan;
	char mode[16];
	int n;

	if (!len)
		return -EINVAL;
	ata_xfer_name(d->dr_ad.ad_xfer, mode, sizeof(mode));
	n = snprintf(buf, len,
		     "channel %s (%s)\n"
		     "unit %s\n"
		     "state %s\n"
		     "mode %s\n"
		     "transfer %s\n",
		     ch->ch_name, ch->ch_index ? "secondary" : "primary",
		     d->dr_unit ? "slave" : "master",
		     d->dr_gone ? "failed" : ide_ch_state_names[ch->ch_state],
		     mode, d->dr_dma ? "dma" : "pio");
	if (n < 0)
		return -EINVAL;
	return (size_t)n < len ? n : (int)len - 1;
}

const struct block_device_operations ide_disk_ops = {
	.bdo_open		= ide_disk_open,
	.bdo_getgeo		= ide_disk_getgeo,
	.bdo_revalidate_disk	= ide_disk_revalidate,
	.bdo_report		= ide_disk_report,
};
