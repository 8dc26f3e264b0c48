/*
 * NVMe namespaces: one gendisk each, named as Linux names them
 * (nvme<controller>n<nsid>; partitions nvme0n1p1, the registry adds the
 * 'p').  The active namespace ID list (Identify CNS 02h, NVMe 2.0 base
 * 5.17.2.2) says which exist; before NVMe 1.1 every ID up to NN is tried.
 * A namespace is used when its formatted LBA size is 512 or 4096 bytes
 * without metadata; others are skipped with one line.
 *
 * Each namespace gets a request_queue on the controller's tag set, with
 * the controller's limits: transfers up to MDTS, FLUSH and FUA when the
 * volatile write cache is there, discard and write zeroes when ONCS says
 * so.  Device numbers: a dynamic major, 16 minors per namespace, later
 * partitions on the extended major (GENHD_FL_EXT_DEVT).
 *
 * The block_device_operations: bdo_open fails once the controller is
 * dead; bdo_report gives model, serial, firmware, queue and cache facts.
 */
#include "block/bdev.h"
#include "block/genhd.h"
#include "drivers/nvme/nvme_priv.h"
#include "kernel/errno.h"
#include "kernel/mm/page.h"
#include "kernel/mm/slab.h"
#include "kernel/printk.h"
#include "lib/string.h"

#define NVME_MINORS		16
#define NVME_MAX_NSID_TRY	1024	/* IDs tried without an active list */
#define NVME_DISCARD_MAX	(1u << 22)	/* sectors per DSM range: 2 GiB */

static int nvme_major;
static unsigned nvme_disks;	/* minors handed out, in NVME_MINORS steps */

static int nvme_disk_open(struct block_device *bdev, fmode_t mode)
{
	struct nvme_ns *ns = bdev->bd_disk->gd_private_data;

	(void)mode;
	return ns->ns_ctrl->c_state == NVME_CTRL_DEAD ? -ENXIO : 0;
}

static int nvme_disk_report(struct gendisk *disk, char *buf, size_t len)
{
	struct nvme_ns *ns = disk->gd_private_data;
	struct nvme_ctrl *c = ns->ns_ctrl;
	static const char *const irq_modes[] = { "msi-x", "msi", "intx", "polled" };
	int n;

	if (!len)
		return -EINVAL;
	n = snprintf(buf, len,
		     "controller %s namespace %u\n"
		     "model %s\n"
		     "serial %s\n"
		     "firmware %s\n"
		     "state %s\n"
		     "block %u bytes, %llu blocks\n"
		     "queues %u depth %u, %s\n"
		     "doorbells %s\n"
		     "max transfer %u KiB, data pointers %s\n"
		     "write cache %s\n"
		     "discard %s, write zeroes %s\n"
		     "resets %u aborts %u\n",
		     c->c_name, ns->ns_id, c->c_model, c->c_serial, c->c_fw,
		     nvme_ctrl_state_names[c->c_state], 1u << ns->ns_lba_shift,
		     (unsigned long long)ns->ns_nsze, c->c_nr_ioq, c->c_io_depth,
		     irq_modes[c->c_irq_mode], c->c_dbs ? "shadow" : "registers",
		     c->c_max_xfer / 1024, c->c_sgls ? "SGL and PRP" : "PRP", c->c_vwc ? "on" : "off",
		     (c->c_oncs & NVME_ONCS_DSM) ? "yes" : "no",
		     (c->c_oncs & NVME_ONCS_WRITE_ZEROES) ? "yes" : "no", c->c_resets, c->c_aborts);
	if (n >= 0 && (size_t)n < len && c->c_irq_mode == NVME_IRQ_POLL) {
		u64 done = 0;
		u32 i;

		for (i = 0; i < c->c_nr_ioq; i++)
			done += c->c_ioqs[i].nq_completed;
		n += snprintf(buf + n, len - (size_t)n, "poll tick reaped %llu of %llu\n",
			      (unsigned long long)c->c_tick_reaped, (unsigned long long)done);
	}
	if (n < 0)
		return -EINVAL;
	return (size_t)n < len ? n : (int)len - 1;
}

const struct block_device_operations nvme_disk_ops = {
	.bdo_open	= nvme_disk_open,
	.bdo_report	= nvme_disk_report,
};

/* The queue limits of a namespace (see the top of this file). */
static void ns_set_limits(struct nvme_ns *ns, struct request_queue *q)
{
	struct nvme_ctrl *c = ns->ns_ctrl;
	u32 bs = 1u << ns->ns_lba_shift;
	u32 wz = 0x10000u << (ns->ns_lba_shift - 9);	/* NLB is 16 bits */

	q->q_queuedata = ns;
	q->q_nr_sectors = ns->ns_nsze << (ns->ns_lba_shift - 9);
	blk_queue_logical_block_size(q, bs);
	blk_queue_physical_block_size(q, bs);
	blk_queue_max_hw_sectors(q, c->c_max_xfer >> 9);
	blk_queue_max_sectors(q, c->c_max_xfer >> 9);
	blk_queue_max_segments(q, c->c_max_xfer / PAGE_SIZE + 1);
	blk_queue_max_segment_size(q, c->c_max_xfer);
	blk_queue_segment_boundary(q, BLK_SEG_BOUNDARY_NONE);
	blk_queue_dma_alignment(q, 3);		/* PRP entries are dword aligned (4.1.1) */
	blk_queue_bounce_limit(q, BLK_BOUNCE_NONE, false);
	blk_queue_flush(q, c->c_vwc ? BLK_FLUSH_CACHE | BLK_FLUSH_FUA : 0);
	if (c->c_oncs & NVME_ONCS_DSM) {
		blk_queue_max_discard_sectors(q, NVME_DISCARD_MAX);
		blk_queue_discard_granularity(q, bs, 0);
	}
	if (c->c_oncs & NVME_ONCS_WRITE_ZEROES)
		blk_queue_max_write_zeroes_sectors(q, wz);
}

/* Identify one namespace and add its disk.  0, -ENODEV (skipped, said why) or an errno. */
static int ns_add(struct nvme_ctrl *c, u32 nsid)
{
	struct nvme_id_ns *id = get_zeroed_page(GFP_KERNEL);
	struct request_queue *q = NULL;
	struct gendisk *disk = NULL;
	struct nvme_ns *ns = NULL;
	int shift, err;

	if (!id)
		return -ENOMEM;
	err = nvme_identify(c, nsid, NVME_ID_CNS_NS, id);
	if (err)
		goto out;
	if (!id->nsze) {
		err = -ENODEV;		/* inactive */
		goto out;
	}
	shift = nvme_ns_lba_shift(id);
	if (shift < 0) {
		unsigned idx = NVME_NS_FLBAS_INDEX(id->flbas);

		pr_warn("%s: namespace %u skipped: LBA format %u (%u-byte blocks, %u metadata "
			"bytes) not supported\n", c->c_name, nsid, idx,
			idx < 64 ? 1u << (id->lbaf[idx].lbads & 31) : 0,
			idx < 64 ? id->lbaf[idx].ms : 0);
		err = -ENODEV;
		goto out;
	}
	ns = kzalloc(sizeof(*ns), GFP_KERNEL);
	if (!ns) {
		err = -ENOMEM;
		goto out;
	}
	ns->ns_ctrl = c;
	ns->ns_id = nsid;
	ns->ns_lba_shift = (u32)shift;
	ns->ns_nsze = id->nsze;
	ns->ns_zeroes = (id->dlfeat & 0x7) == NVME_NS_DLFEAT_ZEROES;
	snprintf(ns->ns_name, sizeof(ns->ns_name), "%sn%u", c->c_name, nsid);

	q = blk_mq_init_queue(&c->c_set, ns->ns_name);
	if (IS_ERR(q)) {
		err = (int)(long)q;
		q = NULL;
		goto free_ns;
	}
	ns->ns_queue = q;
	ns_set_limits(ns, q);

	disk = alloc_disk(NVME_MINORS);
	if (!disk) {
		err = -ENOMEM;
		goto cleanup_queue;
	}
	str_copy(disk->gd_name, ns->ns_name, sizeof(disk->gd_name));
	str_copy(disk->gd_model, c->c_model, sizeof(disk->gd_model));
	disk->gd_major = nvme_major;
	disk->gd_first_minor = (int)nvme_disks;
	disk->gd_flags = GENHD_FL_EXT_DEVT;
	disk->gd_fops = &nvme_disk_ops;
	disk->gd_queue = q;
	disk->gd_private_data = ns;
	disk->gd_logical_block_size = 1u << shift;
	disk->gd_physical_block_size = 1u << shift;
	set_capacity(disk, q->q_nr_sectors);
	if (id->nsattr & NVME_NS_ATTR_WP)
		set_disk_ro(disk, true);
	ns->ns_disk = disk;
	list_add_tail(&ns->ns_link, &c->c_namespaces);
	pr_info("%s: %s, %llu sectors (%llu MiB), %u-byte blocks%s%s\n", ns->ns_name, c->c_model,
		(unsigned long long)q->q_nr_sectors,
		(unsigned long long)(q->q_nr_sectors >> 11), 1u << shift,
		ns->ns_zeroes ? ", deallocated blocks read as zeroes" : "",
		(id->nsattr & NVME_NS_ATTR_WP) ? ", write protected" : "");
	err = add_disk(disk);
	if (err) {
		list_del(&ns->ns_link);
		goto put_disk;
	}
	nvme_disks += NVME_MINORS;
	err = 0;
	goto out;

put_disk:
	put_disk(disk);
cleanup_queue:
	blk_cleanup_queue(q);
free_ns:
	kfree(ns);
	pr_warn("%s: namespace %u: cannot add disk (%d)\n", c->c_name, nsid, err);
out:
	free_pages(id, 0);
	return err;
}

/**
 * nvme_ns_scan - add a disk for every usable active namespace
 * @c: a live controller
 *
 * Returns the number of disks added, or a negative errno when none could
 * be listed.  Failures of single namespaces are printed and skipped.
 */
int nvme_ns_scan(struct nvme_ctrl *c)
{
	u32 *list, i, n = 0, max;
	int err;

	if (!nvme_major) {
		err = register_blkdev(0, "nvme");
		if (err < 0) {
			pr_err("%s: no block major (%d)\n", c->c_name, err);
			return err;
		}
		nvme_major = err;
	}
	list = get_zeroed_page(GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	if (c->c_vs >= 0x10100 && !nvme_identify(c, 0, NVME_ID_CNS_NS_ACTIVE, list)) {
		/* 1024 IDs in increasing order, ended by a zero (5.17.2.2). */
		for (i = 0; i < PAGE_SIZE / 4 && list[i]; i++)
			if (!ns_add(c, list[i]))
				n++;
	} else {
		max = c->c_nn < NVME_MAX_NSID_TRY ? c->c_nn : NVME_MAX_NSID_TRY;
		for (i = 1; i <= max; i++)
			if (!ns_add(c, i))
				n++;
	}
	free_pages(list, 0);
	if (!n)
		pr_warn("%s: no usable namespace\n", c->c_name);
	return (int)n;
}
