/*
 * The AHCI disk's block_device_operations (block/genhd.h): what the
 * block layer asks the driver about one attached disk.
 *
 *	bdo_open		-ENXIO once recovery has failed the port
 *	bdo_getgeo		CHS from IDENTIFY words 1/3/6, or 255/63
 *	bdo_revalidate_disk	the capacity from the IDENTIFY data recovery
 *				read last (every reset re-reads it and fails a
 *				port that answers with another disk)
 *	bdo_report		controller, port, link speed, NCQ depth,
 *				write cache, FUA and TRIM, one fact a line
 *
 * Contract: called without the port lock; reads fields that are
 * immutable after attach ([I]) or single words (ap_state), so a report
 * racing with recovery may show the state just before or after it.
 */
#include "block/bdev.h"
#include "block/genhd.h"
#include "drivers/ahci/ahci_priv.h"
#include "kernel/errno.h"
#include "lib/string.h"

static int ahci_disk_open(struct block_device *bdev, fmode_t mode)
{
	struct ahci_port *ap = bdev->bd_disk->gd_private_data;

	return ap->ap_state == AHCI_PORT_READY ? 0 : -ENXIO;
}

static int ahci_disk_getgeo(struct block_device *bdev, struct hd_geometry *geo)
{
	struct ahci_port *ap = bdev->bd_disk->gd_private_data;
	u32 c, h, s;

	ata_id_geometry(&ap->ap_id, &c, &h, &s);
	geo->hg_cylinders = (u16)c;
	geo->hg_heads = (u8)h;
	geo->hg_sectors = (u8)s;
	return 0;
}

static int ahci_disk_revalidate(struct gendisk *disk)
{
	struct ahci_port *ap = disk->gd_private_data;

	if (ap->ap_state != AHCI_PORT_READY)
		return -ENXIO;
	set_capacity(disk, ata_id_capacity512(&ap->ap_id));
	return 0;
}

static int ahci_disk_report(struct gendisk *disk, char *buf, size_t len)
{
	struct ahci_port *ap = disk->gd_private_data;
	u32 spd = (ahci_pread(ap, AHCI_PREG_SSTS) & AHCI_PREG_SSTS_SPD_MASK) >>
		  AHCI_PREG_SSTS_SPD_SHIFT;
	int n;

	if (!len)
		return -EINVAL;
	n = snprintf(buf, len,
		     "controller %s port %u\n"
		     "state %s\n"
		     "link %s\n"
		     "queue %s depth %u\n"
		     "write cache %s\n"
		     "fua %s\n"
		     "trim %s\n",
		     ap->ap_sc->sc_name, ap->ap_num, ahci_port_state_names[ap->ap_state],
		     ahci_link_speed_name(spd), ap->ap_ncq ? "ncq" : "dma", ap->ap_depth,
		     ap->ap_id.ai_wcache_on ? "on" : "off", ap->ap_id.ai_fua ? "yes" : "no",
		     !ap->ap_trim_buf ? "no" : ap->ap_id.ai_trim_rzat ? "yes, reads zeroes after" :
		     ap->ap_id.ai_trim_drat ? "yes, deterministic after" : "yes");
	if (n < 0)
		return -EINVAL;
	return (size_t)n < len ? n : (int)len - 1;
}

const struct block_device_operations ahci_disk_ops = {
	.bdo_open		= ahci_disk_open,
	.bdo_getgeo		= ahci_disk_getgeo,
	.bdo_revalidate_disk	= ahci_disk_revalidate,
	.bdo_report		= ahci_disk_report,
};
