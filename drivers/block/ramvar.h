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
#include "kernel/timer.h"
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
/* The store alone, without a queue (nullb.memory_backed uses it). */
int memdisk_store_init(struct memdisk *md, u64 bytes);
void memdisk_store_free(struct memdisk *md);
struct bio;
int memdisk_transfer(struct memdisk *md, struct bio *bio);

#define NULLB_MAX_DEPTH	256u

/* nullb.queue_mode, as Linux's null_blk. */
#define NULLB_Q_BIO	0u
#define NULLB_Q_RQ	1u
#define NULLB_Q_MQ	2u

struct nullb_config {
	u64	nc_bytes;		/* capacity */
	u32	nc_irqmode;		/* 0: end in request_fn, 1: from a timer */
	u32	nc_completion_us;	/* timer mode: delay before ending */
	u32	nc_depth;		/* requests held at once */
	bool	nc_tags;		/* a tag map of nc_depth (<= 32) */
	bool	nc_bio;			/* make_request style */
	bool	nc_mq;			/* multi-queue (blk-mq), unless nc_bio */
	u32	nc_hw_queues;		/* mq: hardware queues */
	bool	nc_poll;		/* mq: no "interrupt": completions by polling */
	bool	nc_memory_backed;	/* mq: keep the data (a memdisk store) */
};

struct nullb_hq;

/* [l] is nb_lock, the queue lock. */
struct nullb {
	spinlock_t		nb_lock;
	struct request_queue	*nb_queue;		/* [I] */
	struct timer_list	nb_timer;		/* [l] */
	u32			nb_irqmode;		/* [I] */
	u32			nb_completion_us;	/* [I] */
	u32			nb_depth;		/* [I] */
	u32			nb_held;		/* [l] */
	u32			nb_head;		/* [l] */
	struct request		*nb_ring[NULLB_MAX_DEPTH]; /* [l] FIFO of held requests */
	u64			nb_due[NULLB_MAX_DEPTH];   /* [l] when each is ended, ns */
	/* Multi-queue mode (nullb_mq.c); nb_set NULL otherwise. */
	struct blk_mq_tag_set	*nb_set;		/* [I] */
	struct nullb_hq		*nb_hq;			/* [I] one per hardware queue */
	u32			nb_nr_hq;		/* [I] */
	bool			nb_poll;		/* [I] */
	struct memdisk		*nb_store;		/* [I] nullb.memory_backed, or NULL */
};

struct nullb *nullb_create(const char *name, const struct nullb_config *cfg);
/* nullb_mq.c: nb's queue as a multi-queue one; 0 or -errno (reported). */
int nullb_mq_init(struct nullb *nb, const char *name, const struct nullb_config *cfg);
void nullb_mq_exit(struct nullb *nb);
void nullb_destroy(struct nullb *nb);

/* Name a memory disk's queue in the gendisk registry (memdisk_genhd.c). */
int memdisk_add_disk(struct request_queue *q, const char *name, sector_t sectors, bool scan);

#endif
