/*
 * nullb in multi-queue mode (nullb.queue_mode=2, the default): the
 * device that tests and measures blk-mq without hardware, as Linux's
 * null_blk does.  nullb.hw_queues hardware queues share one tag set of
 * nullb.depth tags each; queue_rq takes every request (never BUSY: the
 * tags are the only limit) and ends it
 *   irqmode=0  at once, inside queue_rq;
 *   irqmode=1  from a per-queue timer, nullb.completion_us later (tick
 *              resolution), as a device interrupt would;
 *   irqmode=2  from deferred work ("soft" context);
 *   poll=1     only when blk_poll() reaps it: the queue has no interrupt.
 * With nullb.memory_backed=1 the data is kept (a memdisk store, pages on
 * demand), so the LBA-stamped stress can verify what it wrote.
 * Each request's driver bytes (blk_mq_rq_to_pdu) hold its place in the
 * per-queue FIFO of held requests and its due time.
 *
 * Lock legend: [I] immutable after creation, [h] hq_lock.
 */
#include "drivers/block/ramvar.h"
#include "block/blk-mq.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "kernel/timer.h"
#include "kernel/work.h"
#include "kernel/mm/slab.h"

struct nullb_hq {
	spinlock_t		hq_lock;	/* guards [h] */
	struct nullb		*hq_nb;		/* [I] */
	struct list_head	hq_held;	/* [h] started, not ended: FIFO */
	struct timer_list	hq_timer;	/* [h] irqmode=1 */
	struct work		hq_work;	/* [I] irqmode=2 */
};

/* The driver bytes of each request. */
struct nullb_cmd {
	struct list_head	nc_entry;	/* [h] on hq_held */
	u64			nc_due_ns;	/* when it may end */
};

/* End the held requests that are due (all: every one); the number ended. */
static int nullb_hq_reap(struct nullb_hq *hq, bool all)
{
	struct nullb_cmd *cmd, *n;
	LIST_HEAD(done);
	unsigned long flags;
	u64 now = ktime_ns();
	int nr = 0;

	spin_lock_irqsave(&hq->hq_lock, flags);
	list_for_each_entry_safe(cmd, n, &hq->hq_held, nc_entry) {
		if (!all && cmd->nc_due_ns > now)
			break;		/* FIFO with one delay: the rest are later */
		list_move_tail(&cmd->nc_entry, &done);
	}
	if (!list_empty(&hq->hq_held) && hq->hq_nb->nb_irqmode == 1 && !hq->hq_nb->nb_poll)
		mod_timer(&hq->hq_timer, get_jiffies_64() + 1);
	spin_unlock_irqrestore(&hq->hq_lock, flags);
	list_for_each_entry_safe(cmd, n, &done, nc_entry) {
		list_del_init(&cmd->nc_entry);
		blk_mq_end_request(blk_mq_rq_from_pdu(cmd), 0);
		nr++;
	}
	return nr;
}

static void nullb_hq_timer(struct timer_list *t)
{
	nullb_hq_reap(container_of(t, struct nullb_hq, hq_timer), false);
}

static void nullb_hq_work(struct work *w)
{
	nullb_hq_reap(container_of(w, struct nullb_hq, hq_work), true);
}

/* memory_backed: move rq's data now; when it ends is up to irqmode. */
static int nullb_transfer(struct nullb *nb, struct request *rq)
{
	struct bio *bio;
	int err = 0;

	for (bio = rq->rq_bio; bio && !err; bio = bio->bi_next)
		err = memdisk_transfer(nb->nb_store, bio);
	return err;
}

static int nullb_queue_rq(struct blk_mq_hw_ctx *hctx, const struct blk_mq_queue_data *bd)
{
	struct nullb_hq *hq = hctx->driver_data;
	struct nullb *nb = hq->hq_nb;
	struct nullb_cmd *cmd = blk_mq_rq_to_pdu(bd->rq);
	unsigned long flags;

	int err = 0;

	blk_mq_start_request(bd->rq);
	if (nb->nb_store)
		err = nullb_transfer(nb, bd->rq);
	if (err || (!nb->nb_irqmode && !nb->nb_poll)) {
		blk_mq_end_request(bd->rq, err);
		return BLK_MQ_RQ_OK;
	}
	cmd->nc_due_ns = ktime_ns() + (u64)nb->nb_completion_us * NSEC_PER_USEC;
	spin_lock_irqsave(&hq->hq_lock, flags);
	list_add_tail(&cmd->nc_entry, &hq->hq_held);
	if (!nb->nb_poll && nb->nb_irqmode == 1 && !timer_pending(&hq->hq_timer))
		mod_timer(&hq->hq_timer, get_jiffies_64() + 1);
	spin_unlock_irqrestore(&hq->hq_lock, flags);
	if (!nb->nb_poll && nb->nb_irqmode == 2)
		schedule_work(&hq->hq_work);
	return BLK_MQ_RQ_OK;
}

static int nullb_poll(struct blk_mq_hw_ctx *hctx)
{
	return nullb_hq_reap(hctx->driver_data, true);
}

static int nullb_init_hctx(struct blk_mq_hw_ctx *hctx, void *data, u32 idx)
{
	struct nullb *nb = data;

	hctx->driver_data = &nb->nb_hq[idx];
	return 0;
}

static int nullb_init_request(struct blk_mq_tag_set *set, struct request *rq, u32 hctx_idx)
{
	struct nullb_cmd *cmd = blk_mq_rq_to_pdu(rq);

	INIT_LIST_HEAD(&cmd->nc_entry);
	return 0;
}

static const struct blk_mq_ops nullb_mq_ops = {
	.queue_rq	= nullb_queue_rq,
	.init_hctx	= nullb_init_hctx,
	.init_request	= nullb_init_request,
	.poll		= nullb_poll,
};

int nullb_mq_init(struct nullb *nb, const char *name, const struct nullb_config *cfg)
{
	struct blk_mq_tag_set *set;
	struct request_queue *q;
	u32 i;
	int err = -ENOMEM;

	nb->nb_nr_hq = clamp(cfg->nc_hw_queues, 1u, BLK_MQ_MAX_HW_QUEUES);
	nb->nb_poll = cfg->nc_poll;
	nb->nb_depth = clamp(cfg->nc_depth, 1u, BLK_MQ_MAX_DEPTH);
	nb->nb_hq = kcalloc(nb->nb_nr_hq, sizeof(*nb->nb_hq), GFP_KERNEL);
	set = kzalloc(sizeof(*set), GFP_KERNEL);
	if (!nb->nb_hq || !set)
		goto free;
	if (cfg->nc_memory_backed) {
		nb->nb_store = kzalloc(sizeof(*nb->nb_store), GFP_KERNEL);
		if (!nb->nb_store || memdisk_store_init(nb->nb_store, cfg->nc_bytes))
			goto free;
	}
	for (i = 0; i < nb->nb_nr_hq; i++) {
		spin_lock_init(&nb->nb_hq[i].hq_lock, "nullb_hq");
		nb->nb_hq[i].hq_nb = nb;
		INIT_LIST_HEAD(&nb->nb_hq[i].hq_held);
		timer_setup(&nb->nb_hq[i].hq_timer, nullb_hq_timer);
		work_init(&nb->nb_hq[i].hq_work, nullb_hq_work);
	}
	set->ops = &nullb_mq_ops;
	set->nr_hw_queues = nb->nb_nr_hq;
	set->queue_depth = nb->nb_depth;
	set->cmd_size = sizeof(struct nullb_cmd);
	set->flags = BLK_MQ_F_SHOULD_MERGE | (nb->nb_poll ? BLK_MQ_F_POLLED : 0);
	set->driver_data = nb;
	err = blk_mq_alloc_tag_set(set);
	if (err)
		goto free;
	q = blk_mq_init_queue(set, name);
	if (IS_ERR(q)) {
		err = (int)PTR_ERR(q);
		blk_mq_free_tag_set(set);
		goto free;
	}
	nb->nb_set = set;
	nb->nb_queue = q;
	return 0;

free:
	if (nb->nb_store) {
		memdisk_store_free(nb->nb_store);
		kfree(nb->nb_store);
		nb->nb_store = NULL;
	}
	kfree(set);
	kfree(nb->nb_hq);
	nb->nb_hq = NULL;
	pr_err("%s: cannot set up %u hardware queues of depth %u: %d\n", name, nb->nb_nr_hq,
	       nb->nb_depth, err);
	return err;
}

/* After blk_cleanup_queue(): nothing is held any more. */
void nullb_mq_exit(struct nullb *nb)
{
	u32 i;

	for (i = 0; i < nb->nb_nr_hq; i++)
		del_timer(&nb->nb_hq[i].hq_timer);
	if (!in_interrupt())
		run_deferred_work();	/* an hq_work still queued */
	blk_mq_free_tag_set(nb->nb_set);
	kfree(nb->nb_set);
	if (nb->nb_store) {
		memdisk_store_free(nb->nb_store);
		kfree(nb->nb_store);
		nb->nb_store = NULL;
	}
	kfree(nb->nb_hq);
	nb->nb_set = NULL;
	nb->nb_hq = NULL;
}
