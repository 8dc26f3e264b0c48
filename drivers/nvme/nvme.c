/*
 * NVMe controller core (NVMe 2.0 base, 3.5 and 7.6): bring-up, the reset
 * that error recovery ends in, and the shutdown notification at poweroff.
 * Bus-independent: the PCI glue maps BAR0, sets up the vectors and calls
 * nvme_ctrl_start().
 *
 * Bring-up (3.5.1): read CAP and VS; disable (CC.EN = 0, wait CSTS.RDY =
 * 0); program the admin queue (AQA, ASQ, ACQ) and CC (NVM command set,
 * 4 KiB pages, 64/16-byte entries); enable and wait CSTS.RDY = 1.  Every
 * wait is bounded by CAP.TO (500 ms units) and gives up early on
 * CSTS.CFS.  Then Identify Controller, Number of Queues, the I/O queue
 * pairs (depth from CAP.MQES), the tag set and the namespaces.
 *
 * Recovery runs as deferred work (c_reset_work), never in interrupt
 * context: a request past its deadline is first aborted (5.1); when the
 * abort fails, is declined, or the controller reports fatal status, the
 * controller is reset: hardware queues stopped, CC.EN cleared (which
 * ends every command), started requests requeued (those out of retries
 * fail with -EIO), the controller brought up again with the same queues,
 * and the hardware queues restarted.  If that fails the controller is
 * dead and its I/O fails.
 */
#include "block/blk.h"
#include "drivers/nvme/nvme_priv.h"
#include "kernel/cpu.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/mm/page.h"
#include "kernel/param.h"
#include "kernel/power.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/time.h"
#include "lib/string.h"

const char *const nvme_ctrl_state_names[] = {
	[NVME_CTRL_NEW] = "new",
	[NVME_CTRL_LIVE] = "live",
	[NVME_CTRL_RESETTING] = "resetting",
	[NVME_CTRL_DEAD] = "dead",
};

/* Controllers to notify at poweroff (the hook has no other context). */
static LIST_HEAD(nvme_ctrls);

bool nvme_ctrl_fatal(struct nvme_ctrl *c)
{
	u32 csts = nvme_read(c, NVME_REG_CSTS);

	return csts == 0xffffffff || (csts & NVME_CSTS_CFS);
}

/* Wait for CSTS.RDY == want, bounded by CAP.TO.  0, -ETIMEDOUT or -EIO (CFS). */
static int wait_ready(struct nvme_ctrl *c, bool want)
{
	u64 deadline = ktime_ms() + c->c_ready_ms;

	for (;;) {
		u32 csts = nvme_read(c, NVME_REG_CSTS);

		if (csts == 0xffffffff)
			return -ENODEV;
		if (!!(csts & NVME_CSTS_RDY) == want)
			return 0;
		if (want && (csts & NVME_CSTS_CFS))
			return -EIO;
		if (ktime_ms() > deadline)
			return -ETIMEDOUT;
		mdelay(1);
	}
}

/**
 * nvme_ctrl_disable - CC.EN = 0 and wait for CSTS.RDY = 0 (3.5.2)
 * @c: the controller
 *
 * Every queue and outstanding command is gone afterwards.  Returns 0 or
 * -ETIMEDOUT after CAP.TO (printed here).
 */
int nvme_ctrl_disable(struct nvme_ctrl *c)
{
	u32 cc = nvme_read(c, NVME_REG_CC);
	int err;

	if (cc & NVME_CC_EN)
		nvme_write(c, NVME_REG_CC, cc & ~NVME_CC_EN);
	err = wait_ready(c, false);
	if (err)
		pr_err("%s: still ready %u ms after CC.EN = 0 (CSTS %08x)\n", c->c_name,
		       c->c_ready_ms, nvme_read(c, NVME_REG_CSTS));
	return err;
}

/* Admin queue registers and CC, then enable (3.5.1 steps 2-6). */
static int ctrl_enable(struct nvme_ctrl *c)
{
	struct nvme_queue *aq = &c->c_adminq;
	u32 cc;
	int err;

	nvme_write(c, NVME_REG_AQA, (u32)(aq->nq_depth - 1) << 16 | (aq->nq_depth - 1));
	nvme_write64(c, NVME_REG_ASQ, aq->nq_sq_dma);
	nvme_write64(c, NVME_REG_ACQ, aq->nq_cq_dma);
	cc = NVME_CC_CSS_NVM | NVME_CC_MPS(0) | NVME_CC_AMS_RR | NVME_CC_IOSQES(6) |
	     NVME_CC_IOCQES(4);
	nvme_write(c, NVME_REG_CC, cc);
	nvme_write(c, NVME_REG_CC, cc | NVME_CC_EN);
	err = wait_ready(c, true);
	if (err)
		pr_err("%s: not ready %u ms after CC.EN = 1 (CSTS %08x%s)\n", c->c_name,
		       c->c_ready_ms, nvme_read(c, NVME_REG_CSTS),
		       err == -EIO ? ", controller fatal status" : "");
	return err;
}

/* Identify Controller: names, limits, optional commands. */
static int ctrl_identify(struct nvme_ctrl *c)
{
	struct nvme_id_ctrl *id = get_zeroed_page(GFP_KERNEL);
	u32 mpsmin = 1u << (12 + NVME_CAP_MPSMIN(c->c_cap));
	int err;

	if (!id)
		return -ENOMEM;
	err = nvme_identify(c, 0, NVME_ID_CNS_CTRL, id);
	if (err)
		goto out;
	nvme_id_string(c->c_model, sizeof(c->c_model), id->mn, sizeof(id->mn));
	nvme_id_string(c->c_serial, sizeof(c->c_serial), id->sn, sizeof(id->sn));
	nvme_id_string(c->c_fw, sizeof(c->c_fw), id->fr, sizeof(id->fr));
	c->c_max_xfer = nvme_mdts_bytes(id->mdts, mpsmin, NVME_MAX_XFER);
	c->c_oncs = id->oncs;
	c->c_oacs = id->oacs;
	c->c_vwc = id->vwc & NVME_VWC_PRESENT;
	c->c_sgls = id->sgls & NVME_SGLS_MASK;
	if (c->c_sgls == NVME_SGLS_MASK)
		c->c_sgls = 0;		/* 11b is reserved */
	c->c_acl = id->acl;
	c->c_nn = id->nn;
out:
	free_pages(id, 0);
	return err;
}

static bool nvme_param_dbbuf = true;
PARAM_BOOL("nvme.dbbuf", nvme_param_dbbuf,
	   "use the controller's shadow doorbell buffer when it has one");

static void ctrl_dbbuf_free(struct nvme_ctrl *c)
{
	if (c->c_dbs)
		free_pages(c->c_dbs, 0);
	if (c->c_eis)
		free_pages(c->c_eis, 0);
	c->c_dbs = NULL;
	c->c_eis = NULL;
}

/*
 * The shadow doorbell and EventIdx pages (5.11), taken when the
 * controller offers them, nvme.dbbuf allows and every I/O queue's words
 * fit in one page.  Without them every doorbell is a register write.
 */
static void ctrl_dbbuf_alloc(struct nvme_ctrl *c)
{
	if (!(c->c_oacs & NVME_OACS_DBBUF) || !nvme_param_dbbuf ||
	    2u * (c->c_nr_ioq + 1) * c->c_db_stride > PAGE_SIZE)
		return;
	c->c_dbs = get_zeroed_page(GFP_KERNEL);
	c->c_eis = get_zeroed_page(GFP_KERNEL);
	if (!c->c_dbs || !c->c_eis)
		ctrl_dbbuf_free(c);
}

/*
 * Hand the shadow pages to the controller, zeroed as the rings are, after
 * every enable (a reset forgets them), and point the I/O queues at them.
 * A controller that refuses costs only the register writes they save.
 */
static void ctrl_dbbuf_setup(struct nvme_ctrl *c)
{
	bool ok = false;
	u32 i;

	if (c->c_dbs) {
		memset(c->c_dbs, 0, PAGE_SIZE);
		memset(c->c_eis, 0, PAGE_SIZE);
		ok = !nvme_dbbuf_config(c, __pa(c->c_dbs), __pa(c->c_eis));
		if (!ok)
			pr_warn("%s: shadow doorbells refused: ringing the registers\n", c->c_name);
	}
	for (i = 0; i < c->c_nr_ioq; i++)
		nvme_queue_dbbuf(c->c_ioq[i], ok ? c->c_dbs : NULL, c->c_eis,
				 c->c_irq_mode == NVME_IRQ_INTX);
	if (!ok)
		ctrl_dbbuf_free(c);
}

/* Number of Queues, shadow doorbells, then create each I/O queue pair on the device. */
static int ctrl_setup_io_queues(struct nvme_ctrl *c)
{
	u32 granted, i;
	int err;

	err = nvme_set_queues(c, c->c_nr_ioq, &granted);
	if (err)
		return err;
	if (granted < c->c_nr_ioq) {
		pr_err("%s: %u I/O queues granted, %u needed\n", c->c_name, granted, c->c_nr_ioq);
		return -ENOSPC;
	}
	ctrl_dbbuf_setup(c);
	for (i = 0; i < c->c_nr_ioq; i++) {
		err = nvme_create_io_queue(c, c->c_ioq[i]);
		if (err)
			return err;
	}
	return 0;
}

static void nvme_reset_work(struct work *w);

/*
 * nvme.poll: no interrupt ever comes.  Waiters that know the queue is
 * polled (BLK_MQ_F_POLLED: submit_bio_wait, aio) spin in ops->poll; for
 * the rest a timer reaps every queue each tick, so nothing waits longer
 * than that for a completion.  What the tick found is counted: were it
 * most of them, the waiters would not be polling.
 */
static void nvme_poll_tick(struct timer_list *t)
{
	struct nvme_ctrl *c = container_of(t, struct nvme_ctrl, c_poll_timer);
	u32 i;

	for (i = 0; i < c->c_nr_ioq; i++)
		c->c_tick_reaped += (u64)nvme_reap(&c->c_ioqs[i]);
	if (c->c_state != NVME_CTRL_DEAD)
		mod_timer(&c->c_poll_timer, get_jiffies_64() + 1);
}

/**
 * nvme_ctrl_start - bring the controller up and add its disks
 * @c: c_regs, c_name, c_pdev and the vectors set by the glue
 *
 * Returns 0 or a negative errno (printed here); on failure nothing is
 * left allocated but @c itself.  Sleeps.
 */
int nvme_ctrl_start(struct nvme_ctrl *c)
{
	u32 i, vs, depth, granted;
	int err;

	INIT_LIST_HEAD(&c->c_namespaces);
	spin_lock_init(&c->c_admin_lock, "nvme_admin");
	work_init(&c->c_reset_work, nvme_reset_work);
	c->c_cap = nvme_read64(c, NVME_REG_CAP);
	c->c_vs = vs = nvme_read(c, NVME_REG_VS);
	c->c_db_stride = 4u << NVME_CAP_DSTRD(c->c_cap);
	c->c_ready_ms = (NVME_CAP_TO(c->c_cap) ? NVME_CAP_TO(c->c_cap) : 1) * 500u;
	c->c_page_size = 4096;
	if (!(c->c_cap & NVME_CAP_CSS_NVM) || NVME_CAP_MPSMIN(c->c_cap) > 0) {
		pr_err("%s: no NVM command set or no 4 KiB pages (CAP %016llx)\n", c->c_name,
		       (unsigned long long)c->c_cap);
		return -ENODEV;
	}
	depth = NVME_CAP_MQES(c->c_cap) + 1;
	c->c_io_depth = depth < NVME_IO_DEPTH_MAX ? depth : NVME_IO_DEPTH_MAX;
	c->c_max_xfer = NVME_MAX_XFER;
	pr_info("%s: NVMe %u.%u.%u, CAP %016llx: %u entries per queue, ready timeout %u ms, "
		"doorbell stride %u\n", c->c_name, NVME_VS_MJR(vs), NVME_VS_MNR(vs),
		NVME_VS_TER(vs), (unsigned long long)c->c_cap, c->c_io_depth, c->c_ready_ms,
		c->c_db_stride);

	err = nvme_ctrl_disable(c);
	if (err)
		return err;
	err = nvme_queue_alloc(c, &c->c_adminq, 0, NVME_ADMIN_DEPTH, 0, false);
	if (err)
		return err;
	err = ctrl_enable(c);
	if (err)
		goto free_admin;
	err = ctrl_identify(c);
	if (err)
		goto disable;

	/* As many queue pairs as the vectors allow and the controller grants (5.27.1.5). */
	err = nvme_set_queues(c, c->c_want_ioq ? c->c_want_ioq : 1, &granted);
	if (err)
		goto disable;
	c->c_nr_ioq = granted ? granted : 1;
	if (c->c_nr_ioq > 1 && c->c_io_depth > NVME_IO_DEPTH_MQ)
		c->c_io_depth = NVME_IO_DEPTH_MQ;
	for (i = 0; i < c->c_nr_ioq; i++) {
		err = nvme_queue_alloc(c, &c->c_ioqs[i], (u16)(i + 1), (u16)c->c_io_depth,
				       (u16)(c->c_nvec > 1 ? i + 1 : 0), true);
		if (err)
			goto free_ioq;
		c->c_ioq[i] = &c->c_ioqs[i];
	}
	ctrl_dbbuf_alloc(c);
	err = ctrl_setup_io_queues(c);
	if (err)
		goto free_ioq;
	pr_info("%s: %u I/O queue%s (%u wanted, %u CPU%s online), %u entries each%s\n",
		c->c_name, c->c_nr_ioq, c->c_nr_ioq == 1 ? "" : "s", c->c_want_ioq,
		num_online_cpus(), num_online_cpus() == 1 ? "" : "s", c->c_io_depth,
		c->c_dbs ? ", shadow doorbells" : "");
	err = nvme_io_init_set(c);
	if (err)
		goto free_ioq;
	c->c_state = NVME_CTRL_LIVE;
	if (c->c_irq_mode == NVME_IRQ_POLL) {
		timer_setup(&c->c_poll_timer, nvme_poll_tick);
		mod_timer(&c->c_poll_timer, get_jiffies_64() + 1);
	}
	pr_info("%s: %s, serial %s, firmware %s; namespace IDs up to %u, max transfer %u KiB%s%s%s%s\n",
		c->c_name, c->c_model, c->c_serial, c->c_fw, c->c_nn,
		c->c_max_xfer / 1024, c->c_vwc ? ", write cache" : "",
		(c->c_oncs & NVME_ONCS_DSM) ? ", deallocate" : "",
		(c->c_oncs & NVME_ONCS_WRITE_ZEROES) ? ", write zeroes" : "",
		c->c_sgls ? ", SGLs" : "");
	list_add_tail(&c->c_link, &nvme_ctrls);
	nvme_ns_scan(c);	/* errors already printed; a controller without disks stays */
	return 0;

free_ioq:
	ctrl_dbbuf_free(c);
	for (i = 0; i < c->c_nr_ioq; i++) {
		nvme_queue_free(&c->c_ioqs[i]);
		c->c_ioq[i] = NULL;
	}
disable:
	nvme_ctrl_disable(c);
free_admin:
	nvme_queue_free(&c->c_adminq);
	return err;
}

/**
 * nvme_schedule_reset - ask the reset work to look at the controller
 * @c: the controller
 * @why: NULL for "some request timed out" (abort first), or the reason
 *	 for a full reset (printed)
 *
 * Any context.
 */
void nvme_schedule_reset(struct nvme_ctrl *c, const char *why)
{
	if (why) {
		pr_warn("%s: %s: resetting\n", c->c_name, why);
		c->c_reset_wanted = true;
	}
	schedule_work(&c->c_reset_work);
}

static void stop_queues(struct nvme_ctrl *c)
{
	struct nvme_ns *ns;

	list_for_each_entry(ns, &c->c_namespaces, ns_link) {
		blk_mq_stop_hw_queues(ns->ns_queue);
		blk_mq_quiesce_queue(ns->ns_queue);
	}
}

static void start_queues(struct nvme_ctrl *c)
{
	struct nvme_ns *ns;

	list_for_each_entry(ns, &c->c_namespaces, ns_link) {
		blk_mq_start_hw_queues(ns->ns_queue);
		blk_mq_run_hw_queues(ns->ns_queue, true);
	}
}

#define ABORT_MAX	16	/* timed-out commands aborted per pass */

struct abort_pass {
	struct request	*ap_rq[ABORT_MAX];
	u32		ap_n;
	bool		ap_more;	/* some left for a reset to handle */
};

/* Collect the timed-out requests; the aborts are sent outside the walk. */
static bool collect_timed_out(struct request *rq, void *data)
{
	struct abort_pass *p = data;
	struct nvme_iod *iod = blk_mq_rq_to_pdu(rq);

	if (!iod->iod_timed_out)
		return true;
	iod->iod_timed_out = false;
	if (p->ap_n < ABORT_MAX)
		p->ap_rq[p->ap_n++] = rq;
	else
		p->ap_more = true;
	return true;
}

/* Abort each collected request (5.1).  True when every abort was accepted. */
static bool abort_timed_out(struct nvme_ctrl *c, struct abort_pass *p)
{
	bool ok = !p->ap_more;
	u32 i;

	for (i = 0; i < p->ap_n && ok; i++) {
		struct request *rq = p->ap_rq[i];
		struct nvme_iod *iod = blk_mq_rq_to_pdu(rq);
		struct nvme_ns *ns = iod->iod_ns;
		bool aborted = false;
		int err;

		err = nvme_abort(c, (u16)(rq->rq_mq_hctx->queue_num + 1), (u16)rq->rq_tag,
				 &aborted);
		pr_warn("%s: %s lba %llu timed out: abort %s\n", ns->ns_name,
			nvme_opcode_name(iod->iod_opc, false),
			(unsigned long long)(blk_rq_pos(rq) >> (ns->ns_lba_shift - 9)),
			err ? "failed" : aborted ? "accepted" : "declined");
		if (err || !aborted)
			ok = false;
	}
	return ok;
}

/* After CC.EN = 0: put every started request back, or fail it when out of retries. */
static bool requeue_one(struct request *rq, void *data)
{
	struct nvme_iod *iod = blk_mq_rq_to_pdu(rq);
	struct nvme_ctrl *c = data;
	struct nvme_queue *q = c->c_ioq[rq->rq_mq_hctx->queue_num];
	bool dead = c->c_state == NVME_CTRL_DEAD;

	if (iod->iod_bounced) {
		iod->iod_bounced = false;
		q->nq_bounce_busy = false;
	}
	iod->iod_timed_out = false;
	if (dead || ++iod->iod_retries > NVME_MAX_RETRIES) {
		iod->iod_retries = 0;
		blk_mq_end_request(rq, -EIO);
	} else {
		blk_mq_requeue_request(rq, false);
	}
	return true;
}

/* CC.EN off and on again, keeping the queues' memory and the disks. */
static int ctrl_reset(struct nvme_ctrl *c)
{
	u32 i;
	int err;

	c->c_resets++;
	c->c_state = NVME_CTRL_RESETTING;
	stop_queues(c);
	nvme_ctrl_disable(c);	/* error printed; the enable below decides */
	nvme_queue_reset(&c->c_adminq);
	for (i = 0; i < c->c_nr_ioq; i++)
		nvme_queue_reset(c->c_ioq[i]);
	blk_mq_tagset_busy_iter(&c->c_set, requeue_one, c);
	err = ctrl_enable(c);
	if (!err)
		err = ctrl_setup_io_queues(c);
	if (err) {
		pr_err("%s: reset failed (%d): controller dead, its I/O fails\n", c->c_name, err);
		c->c_state = NVME_CTRL_DEAD;
		nvme_ctrl_disable(c);
		blk_mq_tagset_busy_iter(&c->c_set, requeue_one, c);
	} else {
		c->c_state = NVME_CTRL_LIVE;
		pr_info("%s: reset done (%u so far)\n", c->c_name, c->c_resets);
	}
	start_queues(c);
	return err;
}

/* The recovery work: abort timed-out commands, reset when that is not enough. */
static void nvme_reset_work(struct work *w)
{
	struct nvme_ctrl *c = container_of(w, struct nvme_ctrl, c_reset_work);
	struct abort_pass p = { .ap_n = 0, .ap_more = false };

	if (c->c_state != NVME_CTRL_LIVE)
		return;
	if (nvme_ctrl_fatal(c)) {
		pr_warn("%s: controller fatal status (CSTS %08x): resetting\n", c->c_name,
			nvme_read(c, NVME_REG_CSTS));
		c->c_reset_wanted = true;
	}
	if (!c->c_reset_wanted) {
		blk_mq_tagset_busy_iter(&c->c_set, collect_timed_out, &p);
		if (!abort_timed_out(c, &p))
			c->c_reset_wanted = true;
	}
	if (c->c_reset_wanted) {
		c->c_reset_wanted = false;
		ctrl_reset(c);
	}
}

/* CC.SHN normal, wait for CSTS.SHST complete (3.6.1), bounded. */
static void ctrl_shutdown(struct nvme_ctrl *c)
{
	u64 deadline = ktime_ms() + NVME_SHUTDOWN_MS;
	u32 cc = nvme_read(c, NVME_REG_CC);

	nvme_write(c, NVME_REG_CC, (cc & ~NVME_CC_SHN_MASK) | NVME_CC_SHN_NORMAL);
	while ((nvme_read(c, NVME_REG_CSTS) & NVME_CSTS_SHST_MASK) != NVME_CSTS_SHST_DONE) {
		if (ktime_ms() > deadline) {
			pr_warn("%s: shutdown not complete after %u ms\n", c->c_name,
				NVME_SHUTDOWN_MS);
			return;
		}
		mdelay(1);
	}
	pr_info("%s: shutdown complete\n", c->c_name);
}

static void nvme_shutdown_all(void)
{
	struct nvme_ctrl *c;

	list_for_each_entry(c, &nvme_ctrls, c_link)
		if (c->c_state == NVME_CTRL_LIVE)
			ctrl_shutdown(c);
}

static struct shutdown_hook nvme_shutdown_hook = {
	.sh_name = "nvme",
	.sh_fn = nvme_shutdown_all,
};

/*
 * Hooks run last-registered first: registered before the block layer's
 * cache flush (subsys_initcall), the notification comes after it.
 */
static int nvme_shutdown_init(void)
{
	register_shutdown_hook(&nvme_shutdown_hook);
	return 0;
}
arch_initcall(nvme_shutdown_init);
