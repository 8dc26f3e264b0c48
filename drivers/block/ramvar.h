/*
 * The memory-backed disks of drivers/block: ram (request_fn style, pages
 * taken at creation), mem (make_request style, pages on demand) and nullb
 * (no data at all).  Boot creates the disks named on the command line;
 * the self-tests create their own with these calls.
 *
 * Lock legend: [I] immutable after creation, [l] the disk's lock.
 */
#ifndef DRIVERS_BLOCK_RAMVAR_H
#define DRIVERS_BLOCK_RAMVAR_H

#include "kernel/spinlock.h"
#include "kernel/mm/page.h"

struct request_queue;

struct ramdisk {
	spinlock_t		rd_lock;	/* the queue lock */
	struct request_queue	*rd_queue;	/* [I] */
	struct page		**rd_pages;	/* [I] the store, any zone */
	u64			rd_nr_pages;	/* [I] */
	sector_t		rd_nr_sectors;	/* [I] */
};

struct ramdisk *ramdisk_create(const char *name, u64 bytes);
void ramdisk_destroy(struct ramdisk *rd);

#define MEMDISK_LEAF_PAGES	1024u	/* pages per second-level table: 4 MiB */

struct memdisk {
	spinlock_t		md_lock;	/* guards [l] */
	struct request_queue	*md_queue;	/* [I] */
	struct page		***md_dir;	/* [l] leaf tables, allocated on demand */
	u64			md_nr_leaves;	/* [I] */
	sector_t		md_nr_sectors;	/* [I] */
	u64			md_pages;	/* [l] pages allocated so far */
};

struct memdisk *memdisk_create(const char *name, u64 bytes);
void memdisk_destroy(struct memdisk *md);

/* Name a memory disk's queue in the gendisk registry (memdisk_genhd.c). */
int memdisk_add_disk(struct request_queue *q, const char *name, sector_t sectors, bool scan);

#endif
