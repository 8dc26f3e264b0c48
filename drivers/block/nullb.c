/*
 * nullb: a block device that moves no data, the benchmark target for the
 * block layer's own cost (Linux's null_blk).  Requests complete either
 * inside request_fn (nullb.irqmode=0) or from a timer, as an interrupt
 * would (irqmode=1, after nullb.completion_us, at tick resolution).
 * nullb.depth bounds the requests it holds and, with nullb.tags=1, is the
 * depth of a tag map; nullb.bio=1 takes bios directly (make_request).
 * nullb.queue_mode picks the style as Linux's null_blk does: 0 bio, 1
 * request_fn (this file), 2 multi-queue (nullb_mq.c, the default), with
 * nullb.hw_queues queues of nullb.depth tags and nullb.poll.
 * Reads return whatever the buffers held: verify cannot pass on it.
 *
 * Parameters: nullb.count (default 1), nullb.size (default 1G),
 * nullb.irqmode, nullb.completion_us (10), nullb.depth (32), nullb.tags
 * (1), nullb.bio (0), nullb.queue_mode (2), nullb.hw_queues (1),
 * nullb.poll (0), nullb.memory_backed (0).  Disks are nullb0, nullb1, ...
 */
#include "drivers/block/ramvar.h"
#include "block/blkdev.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/param.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "kernel/timer.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

static unsigned nullb_count = 1;
static u64 nullb_size = GiB;
static unsigned nullb_irqmode;
static unsigned nullb_completion_us = 10;
static unsigned nullb_depth = 32;
static bool nullb_tags = true;
static bool nullb_bio;
static unsigned nullb_queue_mode = NULLB_Q_MQ;
static unsigned nullb_hw_queues = 1;
static bool nullb_poll;
static bool nullb_memory_backed;
PARAM_UINT("nullb.count", nullb_count, "number of null block devices");
PARAM_SIZE("nullb.size", nullb_size, "capacity of each null device, bytes");
PARAM_UINT("nullb.irqmode", nullb_irqmode,
	   "0: complete in request_fn / queue_rq, 1: from a timer, 2: deferred work (mq)");
PARAM_UINT("nullb.completion_us", nullb_completion_us, "timer completion delay, us");
PARAM_UINT("nullb.depth", nullb_depth,
	   "requests held at once (1..32 with tags; tags per hardware queue on mq, 1..1024)");
PARAM_BOOL("nullb.tags", nullb_tags, "use a tag map of nullb.depth");
PARAM_BOOL("nullb.bio", nullb_bio, "make_request style instead of request_fn");
PARAM_UINT("nullb.queue_mode", nullb_queue_mode, "0: bio, 1: request_fn, 2: multi-queue");
PARAM_UINT("nullb.hw_queues", nullb_hw_queues, "hardware queues in multi-queue mode (1..64)");
PARAM_BOOL("nullb.poll", nullb_poll, "multi-queue: no interrupt, completions by polling");
PARAM_BOOL("nullb.memory_backed", nullb_memory_backed, "multi-queue: keep the data written");

static void nullb_request_fn(struct request_queue *q)
{
	struct nullb *nb = q->q_queuedata;
	struct request *rq;
	u32 slot;

	while (nb->nb_held < nb->nb_depth && (rq = blk_peek_request(q))) {
		if (blk_queue_tagged(q)) {
			if (blk_queue_start_tag(q, rq))
				return;
		} else {
			blk_start_request(rq);
		}
		if (!nb->nb_irqmode) {
			__blk_end_request_all(rq, 0);
			continue;
		}
		slot = (nb->nb_head + nb->nb_held++) % NULLB_MAX_DEPTH;
		nb->nb_ring[slot] = rq;
		nb->nb_due[slot] = ktime_ns() + nb->nb_completion_us * NSEC_PER_USEC;
		if (!timer_pending(&nb->nb_timer))
			mod_timer(&nb->nb_timer, get_jiffies_64() + 1);
	}
}

/* The "interrupt": end every held request that is due. */
static void nullb_timer_fn(struct timer_list *t)
{
	struct nullb *nb = container_of(t, struct nullb, nb_timer);
	unsigned long flags;
	u64 now = ktime_ns();

	spin_lock_irqsave(&nb->nb_lock, flags);
	while (nb->nb_held && nb->nb_due[nb->nb_head] <= now) {
		struct request *rq = nb->nb_ring[nb->nb_head];

		nb->nb_head = (nb->nb_head + 1) % NULLB_MAX_DEPTH;
		nb->nb_held--;
		__blk_end_request_all(rq, 0);
	}
	__blk_run_queue(nb->nb_queue);
	if (nb->nb_held && !timer_pending(&nb->nb_timer))
		mod_timer(&nb->nb_timer, get_jiffies_64() + 1);
	spin_unlock_irqrestore(&nb->nb_lock, flags);
}

#define NULLB_MAX_RANGE_SECTORS	(1u << 22)	/* 2 GiB per range request */

static void nullb_make_request(struct request_queue *q, struct bio *bio)
{
	bio_endio(bio, 0);
}

/**
 * nullb_create - a null device as cfg says.
 * Return: the device, or NULL (already reported).
 */
struct nullb *nullb_create(const char *name, const struct nullb_config *cfg)
{
	struct nullb *nb = kzalloc(sizeof(*nb), GFP_KERNEL);

	if (!nb)
		goto fail;
	spin_lock_init(&nb->nb_lock, "nullb");
	timer_setup(&nb->nb_timer, nullb_timer_fn);
	nb->nb_irqmode = cfg->nc_irqmode;
	nb->nb_completion_us = cfg->nc_completion_us;
	if (cfg->nc_mq && !cfg->nc_bio) {
		if (nullb_mq_init(nb, name, cfg))
			goto free_nb;		/* error already printed */
		goto limits;
	}
	nb->nb_depth = clamp(cfg->nc_depth, 1u, cfg->nc_tags ? BLK_TAG_MAX_DEPTH : NULLB_MAX_DEPTH);
	if (cfg->nc_bio) {
		nb->nb_queue = blk_alloc_queue(name);
		if (nb->nb_queue)
			blk_queue_make_request(nb->nb_queue, nullb_make_request);
	} else {
		nb->nb_queue = blk_init_queue(nullb_request_fn, &nb->nb_lock, name);
	}
	if (!nb->nb_queue)
		goto free_nb;
limits:
	nb->nb_queue->q_queuedata = nb;
	nb->nb_queue->q_nr_sectors = cfg->nc_bytes >> SECTOR_SHIFT;
	blk_queue_max_hw_sectors(nb->nb_queue, 2048);
	blk_queue_max_sectors(nb->nb_queue, 2048);
	/* Nothing is stored: DISCARD and WRITE ZEROES end like any write. */
	blk_queue_max_discard_sectors(nb->nb_queue, NULLB_MAX_RANGE_SECTORS);
	blk_queue_max_write_zeroes_sectors(nb->nb_queue, NULLB_MAX_RANGE_SECTORS);
	if (!cfg->nc_bio && !nb->nb_set && cfg->nc_tags && blk_queue_init_tags(nb->nb_queue, nb->nb_depth, NULL))
		goto free_queue;
	return nb;

free_queue:
	blk_cleanup_queue(nb->nb_queue);
	if (nb->nb_set)
		nullb_mq_exit(nb);
free_nb:
	kfree(nb);
fail:
	pr_err("%s: cannot create\n", name);
	return NULL;
}

/* Tear down a null device; waits (bounded) for what it holds. */
void nullb_destroy(struct nullb *nb)
{
	blk_cleanup_queue(nb->nb_queue);
	if (nb->nb_set)
		nullb_mq_exit(nb);
	del_timer(&nb->nb_timer);
	kfree(nb);
}

static int nullb_init(void)
{
	struct nullb_config cfg = {
		.nc_bytes = nullb_size, .nc_irqmode = nullb_irqmode,
		.nc_completion_us = nullb_completion_us, .nc_depth = nullb_depth,
		.nc_tags = nullb_tags, .nc_bio = nullb_bio || nullb_queue_mode == NULLB_Q_BIO,
		.nc_mq = nullb_queue_mode == NULLB_Q_MQ, .nc_hw_queues = nullb_hw_queues,
		.nc_poll = nullb_poll, .nc_memory_backed = nullb_memory_backed,
	};
	struct nullb *nb;
	char name[16];
	unsigned i;

	for (i = 0; i < nullb_count; i++) {
		snprintf(name, sizeof(name), "nullb%u", i);
		nb = nullb_create(name, &cfg);
		if (!nb)
			return -ENOMEM;	/* error already printed */
		memdisk_add_disk(nb->nb_queue, name, nb->nb_queue->q_nr_sectors, false);
	}
	return 0;
}
device_initcall(nullb_init);
