/*
 * logw: a stacking block device that records every write, flush and FUA
 * it passes down, for the power-cut simulator (tools/crashsim).
 *
 * logwN sits over a data disk and writes its record to a second disk in
 * the format of Linux's dm-log-writes (Documentation/admin-guide/
 * device-mapper/log-writes.rst), so that the host tool also reads the
 * logs QEMU's blklogwrites driver makes:
 *
 *   sector 0        struct logw_super (written last, at logw_stop)
 *   sector 1...     entries: one sector of struct logw_entry (a mark's
 *                   text follows the struct inside that sector), then
 *                   le_nr_sectors sectors of data for a write
 *
 * Entries are in completion order.  A FLUSH entry stands where its flush
 * was submitted: every write logged before it is durable once it ends
 * (a write that ends while a flush is in flight is logged after the
 * flush's entry and counted as an overlap).  A write that carried FUA
 * has LOGW_FL_FUA; one that carried PREFLUSH is a FLUSH entry followed
 * later by the write.  logw_create() first records the data disk's
 * non-zero contents and a FLUSH, so the log alone rebuilds every state
 * from an image of zeroes.
 *
 * Lock legend: [I] immutable after creation, [l] lw_lock (irqsave),
 * [p] the process-context caller (shell thread) only.
 */
#ifndef DRIVERS_BLOCK_LOGWVAR_H
#define DRIVERS_BLOCK_LOGWVAR_H

#include "block/blk-mark.h"
#include "kernel/spinlock.h"
#include "lib/list.h"

struct block_device;
struct gendisk;
struct request_queue;

/* dm-log-writes' on-disk format, version 1 (drivers/md/dm-log-writes.c). */
#define LOGW_MAGIC		0x6A736677736872ULL
#define LOGW_VERSION		1ULL
#define LOGW_SUPER_SECTOR	0

#define LOGW_FL_FLUSH		0x01u	/* every earlier entry is durable */
#define LOGW_FL_FUA		0x02u	/* this write is durable at once */
#define LOGW_FL_DISCARD		0x04u
#define LOGW_FL_MARK		0x08u	/* no data: text inline after the entry */
#define LOGW_FL_METADATA	0x10u

struct logw_super {
	u64	lws_magic;		/* LOGW_MAGIC, little-endian */
	u64	lws_version;		/* LOGW_VERSION */
	u64	lws_nr_entries;
	u32	lws_sectorsize;		/* 512 here */
	u32	lws_reserved_28;
} __packed;
_Static_assert(sizeof(struct logw_super) == 32, "logw_super is 32 bytes");

struct logw_entry {
	u64	le_sector;		/* first sector written, in lws_sectorsize units */
	u64	le_nr_sectors;		/* data sectors following this one */
	u64	le_flags;		/* LOGW_FL_* */
	u64	le_data_len;		/* a mark's text length, else 0 */
} __packed;
_Static_assert(sizeof(struct logw_entry) == 32, "logw_entry is 32 bytes");

#define LOGW_SECTOR_SIZE	512u
#define LOGW_STAGE_BYTES	(64u * 1024)	/* log writes are gathered this large */
#define LOGW_MAX_DEVICES	4u

/* logw_create flags */
#define LOGW_DROP_FLUSH		0x1u	/* test only: swallow FLUSH and FUA, log none */

/* A write waiting to be logged: its data copied at submission. */
struct logw_rec {
	struct list_head	lr_link;	/* [l] on lw_done */
	u64			lr_sector;	/* [I] */
	u32			lr_nr_sectors;	/* [I] */
	u32			lr_flags;	/* [I] LOGW_FL_* */
	u32			lr_text_len;	/* [I] marks */
	char			lr_text[BLK_MARK_TEXT_MAX]; /* [I] marks */
	u32			lr_nr_pages;	/* [I] */
	struct page		*lr_pages[];	/* [I] the data, any zone */
};

struct logw {
	spinlock_t		lw_lock;
	char			lw_name[16];		/* [I] "logw0" */
	unsigned		lw_index;		/* [I] N of logwN */
	unsigned		lw_flags;		/* [I] LOGW_* */
	struct request_queue	*lw_queue;		/* [I] */
	struct gendisk		*lw_disk;		/* [I] */
	struct block_device	*lw_dev;		/* [I] the data disk, open */
	struct block_device	*lw_log;		/* [I] the log disk, open */
	sector_t		lw_nr_sectors;		/* [I] of the data disk */
	sector_t		lw_log_sectors;		/* [I] of the log disk */
	struct list_head	lw_done;		/* [l] records, completion order */
	u64			lw_nr_entries;		/* [l] entries numbered so far */
	u32			lw_inflight;		/* [l] bios below, not ended */
	u32			lw_flushes_inflight;	/* [l] */
	u64			lw_overlaps;		/* [l] writes ended under a flush */
	u64			lw_lost;		/* [l] writes not recorded (memory) */
	u64			lw_errors;		/* [l] failed I/O below */
	bool			lw_stopped;		/* [l] the log is final */
	u64			lw_written;		/* [p] entries on the log disk */
	u64			lw_next_sector;		/* [p] where the next entry goes */
	u8			*lw_stage;		/* [p] LOGW_STAGE_BYTES, lowmem */
	u32			lw_stage_len;		/* [p] bytes gathered */
	u64			lw_stage_sector;	/* [p] where they go */
	int			lw_log_err;		/* [p] first log-disk error */
};

/**
 * logw_create - stack a recorder over @dev, logging to @log
 * @dev: name of the data disk (opened for writing, claimed)
 * @log: name of the log disk (opened for writing, claimed; overwritten)
 * @flags: LOGW_*
 * Context: process context; reads all of @dev and sleeps.
 * Return: the device (registered as logwN), or an ERR_PTR (reported).
 */
struct logw *logw_create(const char *dev, const char *log, unsigned flags);

/**
 * logw_stop - finish the log: write what is left, flush, write the super
 * sector, flush again.  Later writes to the device fail with -EROFS.
 * Return: 0, or -EIO if any write went unrecorded or the log disk failed.
 */
int logw_stop(struct logw *lw);

/* The device named @name ("logw0"), or NULL. */
struct logw *logw_find(const char *name);

#endif
