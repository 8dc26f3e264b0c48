/*
 * sd: the SCSI disk driver.  A transport (USB mass storage, a test
 * target) that found a logical unit calls sd_probe with its ops table
 * (drivers/scsi/scsi.h); sd asks the unit what it is (INQUIRY, TEST UNIT
 * READY, READ CAPACITY (10), then (16) past 2 TiB, MODE SENSE for write
 * protect), gives it the next sd name (sda, sdb, ... shared with the SATA
 * disks), a request queue with the transport's limits, and adds the disk.
 * When the device goes away the transport calls sd_remove.
 *
 * Each disk runs one command at a time (Bulk-Only Transport is
 * single-threaded), through a request_fn queue: the block layer merges,
 * sorts and bounces; sd maps the request's pages straight into the
 * command's scatter/gather list.
 */
#ifndef DRIVERS_SCSI_SD_H
#define DRIVERS_SCSI_SD_H

#include "drivers/scsi/scsi.h"

struct sd_disk;
struct gendisk;

/**
 * sd_probe - find out what the logical unit is and add it as a disk
 * @ops, @host: the transport and its context (handed back to every hook)
 * @lim: what the transport can move in one command
 * @lun: the logical unit number (goes into every command's sc_lun)
 * @where: a short label for logs and lsblk ("usb 1-2"), copied
 * @out: the disk, for sd_remove
 *
 * Sleeps (commands are waited for, each bounded by SD_PROBE_TIMEOUT_MS).
 * Returns 0; -ENODEV when the unit is not a disk (reported in one line);
 * -ENOMEDIUM for a reader without a card; -EIO, -ETIMEDOUT, -ENOMEM.
 */
int sd_probe(const struct scsi_host_ops *ops, void *host, const struct scsi_host_limits *lim,
	     u8 lun, const char *where, struct sd_disk **out);

/**
 * sd_remove - the device is gone (unplugged, or its transport gave up)
 * @sd: from sd_probe
 * Fails the requests still queued with -ENODEV, takes the disk and its
 * partitions away (del_gendisk: open partitions fail new I/O), tears the
 * queue down, gives the name back and frees sd.  Sleeps.  Before calling
 * it the transport has returned every command it held (sc_done, with
 * -ENODEV) and answers sho_queuecommand with -ENODEV; afterwards it calls
 * nothing of sd's.
 */
void sd_remove(struct sd_disk *sd);

/*
 * sd_run_queue - the transport, which answered sho_queuecommand with
 * -EBUSY (busy with another logical unit), can take a command again.
 * Any context; not with the transport's own lock held.
 */
void sd_run_queue(struct sd_disk *sd);

/* The gendisk, or NULL (for the transport's lsusb line). */
struct gendisk *sd_gendisk(struct sd_disk *sd);

#endif
