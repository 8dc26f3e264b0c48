/*
 * Write caches at shutdown: a drive may acknowledge a write while the
 * data is still in its volatile write cache, and only FLUSH CACHE /
 * FLUSH CACHE EXT (ATA8-ACS 7.14 and 7.15) promise it is on the media.
 * So before power-off or reboot every disk whose queue declares a
 * volatile write cache (blk_queue_flush with BLK_FLUSH_CACHE) is sent
 * one cache flush, so that nothing a drive acknowledged is lost with the
 * power.  One hook for all disk drivers, over the gendisk registry.
 *
 * The hook is registered at subsys_initcall time, before the filesystems'
 * (fs_initcall), and hooks run last-registered first: filesystems are
 * unmounted and written back, then the caches are emptied.
 *
 * A flush waits at most as long as its queue's timeout and retries can
 * take, plus a second, so that a dead disk cannot hang the power-off; the
 * flush goes to the queue directly, whatever writable= says, because
 * emptying a cache changes no data.
 */
#include "block/bdev.h"
#include "block/blkdev.h"
#include "kernel/completion.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/mm/slab.h"
#include "kernel/power.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"

#define DISK_FLUSH_SLACK_MS	1000	/* beyond the queue's own timeouts and retries */

/*
 * The wait of one flush.  Whoever finishes with it last frees it: the
 * waiter, or, when the waiter gave up first, the bio's end.
 */
struct disk_flush_wait {
	spinlock_t		fw_lock;
	struct completion	fw_done;
	int			fw_err;		/* [fw_lock] */
	bool			fw_ended;	/* [fw_lock] the bio ended */
	bool			fw_abandoned;	/* [fw_lock] the waiter timed out */
};

static void disk_flush_end(struct bio *bio, int error)
{
	struct disk_flush_wait *w = bio->bi_private;
	unsigned long flags;
	bool abandoned;

	bio_put(bio);
	spin_lock_irqsave(&w->fw_lock, flags);
	w->fw_err = error;
	w->fw_ended = true;
	abandoned = w->fw_abandoned;
	if (!abandoned)
		complete(&w->fw_done);
	spin_unlock_irqrestore(&w->fw_lock, flags);
	if (abandoned)
		kfree(w);
}

/*
 * One empty flush bio through the disk's queue (behind whatever is
 * queued), waited for with a limit.  Returns 0 or -errno.  Sleeps.
 */
static int disk_flush_cache(struct gendisk *disk)
{
	struct request_queue *q = disk->gd_queue;
	u32 ms = q->q_rq_timeout_ms * (q->q_max_retries + 1) + DISK_FLUSH_SLACK_MS;
	struct disk_flush_wait *w = kzalloc(sizeof(*w), GFP_KERNEL);
	unsigned long flags;
	bool abandoned;
	struct bio *bio;
	int err;

	if (!w)
		return -ENOMEM;
	bio = bio_alloc(GFP_NOIO, 0);
	if (!bio) {
		kfree(w);
		return -ENOMEM;
	}
	spin_lock_init(&w->fw_lock, "disk_flush");
	init_completion(&w->fw_done);
	bio->bi_rw = REQ_WRITE | REQ_PREFLUSH;
	bio->bi_private = w;
	bio->bi_end_io = disk_flush_end;
	blk_queue_submit_bio(q, bio);
	blk_unplug(q);			/* about to sleep on it: block/blkdev.h */
	wait_for_completion_timeout(&w->fw_done, ms);
	spin_lock_irqsave(&w->fw_lock, flags);
	abandoned = w->fw_abandoned = !w->fw_ended;
	err = abandoned ? -ETIMEDOUT : w->fw_err;
	spin_unlock_irqrestore(&w->fw_lock, flags);
	if (!abandoned)
		kfree(w);		/* else the bio's end frees it */
	return err;
}

/**
 * disk_flush_caches - empty the write cache of every disk that has one
 *
 * Each disk's result is printed ("sda: write cache flushed").  Returns 0,
 * or the first error (the other disks are still flushed).  Sleeps.
 */
int disk_flush_caches(void)
{
	struct block_device *bdev = NULL;
	int err, ret = 0;

	while ((bdev = bdev_next(bdev))) {
		struct gendisk *disk = bdev->bd_disk;

		if (bdev->bd_partno || !disk->gd_queue ||
		    !(disk->gd_queue->q_flush_flags & BLK_FLUSH_CACHE))
			continue;
		err = disk_flush_cache(disk);
		if (err)
			pr_err("%s: write cache flush at shutdown failed: %s\n", disk->gd_name,
			       errstr(err));
		else
			pr_info("%s: write cache flushed\n", disk->gd_name);
		if (err && !ret)
			ret = err;
	}
	return ret;
}

static void disk_flush_shutdown(void)
{
	disk_flush_caches();	/* errors already printed */
}

static struct shutdown_hook disk_flush_hook = {
	.sh_name = "disks",
	.sh_fn = disk_flush_shutdown,
};

static int disk_flush_init(void)
{
	register_shutdown_hook(&disk_flush_hook);
	return 0;
}
subsys_initcall(disk_flush_init);
