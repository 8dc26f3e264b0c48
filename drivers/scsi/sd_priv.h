/*
 * sd's private state: one struct sd_disk per logical unit, shared by
 * sd.c (probe, remove, the block_device_operations) and sd_io.c (the
 * request path).  Not for transports: they see struct sd_disk as opaque.
 *
 * Lock legend: [I] set by sd_probe before the queue exists, immutable
 * afterwards; [q] sd_lock, which is also the request queue's lock.
 */
#ifndef DRIVERS_SCSI_SD_PRIV_H
#define DRIVERS_SCSI_SD_PRIV_H

#include "block/genhd.h"
#include "drivers/scsi/sd.h"
#include "kernel/completion.h"
#include "kernel/spinlock.h"

/* DPRINTF masks (kernel/printk.h). */
#define SD_D_PROBE		0x1000
#define SD_D_IO			0x2000

#define SD_PROBE_TIMEOUT_MS	10000u	/* ms: one command while probing */
#define SD_RQ_TIMEOUT_MS	30000u	/* ms: one I/O, as Linux's SD_TIMEOUT */
#define SD_MAX_RETRIES		5u	/* UNIT ATTENTION, BUSY, becoming ready */
#define SD_MAX_SECTORS		2048u	/* 512-byte sectors: 1 MiB soft cap */
#define SD_BUF_LEN		256u	/* bytes: probe data (INQUIRY, capacity, mode) */

struct sd_disk {
	spinlock_t		sd_lock;		/* the queue lock */
	const struct scsi_host_ops *sd_ops;		/* [I] */
	void			*sd_host;		/* [I] */
	struct scsi_host_limits	sd_lim;			/* [I] */
	u8			sd_lun;			/* [I] */
	char			sd_where[48];		/* [I] "usb 1.2 lun 0" */
	char			sd_name[DISK_NAME_LEN];	/* [I] "sdb" */
	int			sd_index;		/* [I] disk_sd_get's, -1: none */
	struct scsi_inquiry	sd_inq;			/* [I] */
	struct scsi_capacity	sd_cap;			/* [I] */
	u32			sd_lsect;		/* [I] 512-byte sectors per block */
	bool			sd_use16;		/* [I] past 2 TiB: (16) CDBs */
	bool			sd_wp;			/* [I] MODE SENSE said write protected */
	struct request_queue	*sd_queue;		/* [I] */
	struct gendisk		*sd_disk;		/* [I] */
	struct scatterlist	*sd_sg;			/* [I] sd_lim.shl_max_segments */

	struct scsi_cmnd	sd_cmd;			/* [q] the one command */
	struct request		*sd_rq;			/* [q] its request; NULL once ended */
	bool			sd_busy;		/* [q] sd_cmd is with the transport */
	bool			sd_gone;		/* [q] sd_remove ran: fail everything */
	bool			sd_gone_logged;		/* [q] the first -ENODEV was reported */
	struct request		*sd_retry_rq;		/* [q] the request sd_retries counts */
	u32			sd_retries;		/* [q] */
	u64			sd_ios;			/* [q] commands completed */
	u64			sd_errors;		/* [q] requests failed */
	u64			sd_timeouts;		/* [q] */

	/* Probe: synchronous commands, before the queue exists. */
	struct completion	sd_sync_done;
	u8			*sd_buf;		/* one lowmem page (DMA); SD_BUF_LEN used */
	struct scatterlist	sd_buf_sg;
};

/* sd_io.c */
int sd_setup_queue(struct sd_disk *sd);
/* Fail every request sd still has with -ENODEV; sd_gone set.  Takes sd_lock. */
void sd_io_kill(struct sd_disk *sd);

#endif
