/*
 * virtio-blk (virtio 1.1, 5.2) over the modern PCI transport: probe,
 * the disk, and what diskinfo shows.
 *
 * Probe: the transport is brought up (virtio_pci_init), the features
 * this driver understands are negotiated (5.2.3: SIZE_MAX, SEG_MAX,
 * BLK_SIZE, TOPOLOGY, RO, FLUSH, MQ, DISCARD, WRITE_ZEROES, and the ring
 * features INDIRECT_DESC and EVENT_IDX), the configuration is read
 * (5.2.4) into the queue limits, one virtqueue per online CPU is set up,
 * up to what the device offers with MQ (num_queues) and what MSI-X
 * vectors allow (one queue without MSI-X), interrupts are routed (MSI-X
 * per queue, queue i's vector on CPU i, else INTx), DRIVER_OK is set, the serial is
 * asked for (GET_ID), and the disk is added as vdX on a blk-mq queue.
 * Any failure after virtio_pci_init sets FAILED and undoes the steps in
 * reverse.
 *
 * Names and numbers as Linux: vda, vdb, ... with 16 minors each on a
 * dynamic major ("virtblk"); partitions vda1...
 */
#include "block/bdev.h"
#include "block/genhd.h"
#include "drivers/pci/pci.h"
#include "drivers/pci/pcireg.h"
#include "drivers/virtio/virtio_blk_priv.h"
#include "kernel/cpu.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/mm/slab.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "lib/string.h"

/* What this driver understands (5.2.3 and 6). */
#define VBLK_FEATURES	(VIRTIO_BIT(VIRTIO_BLK_F_SIZE_MAX) | VIRTIO_BIT(VIRTIO_BLK_F_SEG_MAX) | \
			 VIRTIO_BIT(VIRTIO_BLK_F_BLK_SIZE) | VIRTIO_BIT(VIRTIO_BLK_F_TOPOLOGY) | \
			 VIRTIO_BIT(VIRTIO_BLK_F_RO) | VIRTIO_BIT(VIRTIO_BLK_F_FLUSH) | \
			 VIRTIO_BIT(VIRTIO_BLK_F_MQ) | VIRTIO_BIT(VIRTIO_BLK_F_DISCARD) | \
			 VIRTIO_BIT(VIRTIO_BLK_F_WRITE_ZEROES) | \
			 VIRTIO_BIT(VIRTIO_F_INDIRECT_DESC) | VIRTIO_BIT(VIRTIO_F_EVENT_IDX))


static const struct pci_device_id vblk_pci_ids[] = {
	{ PCI_DEVICE(VIRTIO_PCI_VENDOR, VIRTIO_PCI_DEVICE_BLK_LEGACY) },
	{ PCI_DEVICE(VIRTIO_PCI_VENDOR, VIRTIO_PCI_DEVICE_MODERN_BASE + VIRTIO_ID_BLOCK) },
	{ 0 }
};

static int vblk_major;		/* dynamic, from the first probe */
static unsigned vblk_units;	/* vda, vdb, ... in probe order */

static u32 cfg32(struct virtio_blk *vb, unsigned off)
{
	return (u32)virtio_pci_cfg_read(&vb->vb_vp, off, 4);
}

/*
 * 5.2.4-5.2.5: the configuration fields, each only when its feature was
 * negotiated, checked against what we can use.  0 or -ENODEV.
 */
static int vblk_read_config(struct virtio_blk *vb)
{
	struct virtio_pci *vp = &vb->vb_vp;
	u32 v;

	vb->vb_capacity = virtio_pci_cfg_read(vp, VIRTIO_BLK_CFG_CAPACITY, 8);
	vb->vb_lbs = SECTOR_SIZE;
	if (virtio_has(vp, VIRTIO_BLK_F_BLK_SIZE)) {
		v = cfg32(vb, VIRTIO_BLK_CFG_BLK_SIZE);
		if (v < SECTOR_SIZE || v > PAGE_SIZE || !is_power_of_2(v)) {
			pr_err("%s: block size %u not usable\n", vb->vb_name, v);
			return -ENODEV;
		}
		vb->vb_lbs = v;
	}
	vb->vb_pbs = vb->vb_lbs;
	if (virtio_has(vp, VIRTIO_BLK_F_TOPOLOGY)) {
		v = (u32)virtio_pci_cfg_read(vp, VIRTIO_BLK_CFG_PHYS_EXP, 1);
		if (v < 8)
			vb->vb_pbs = vb->vb_lbs << v;
	}
	/* The ring takes header and status besides the data (5.2.6). */
	vb->vb_seg_max = VBLK_MAX_SEGS;
	if (virtio_has(vp, VIRTIO_BLK_F_SEG_MAX)) {
		v = cfg32(vb, VIRTIO_BLK_CFG_SEG_MAX);
		if (v)
			vb->vb_seg_max = min(vb->vb_seg_max, v);
	}
	vb->vb_size_max = 0x400000;	/* 4 MiB: no limit of ours */
	if (virtio_has(vp, VIRTIO_BLK_F_SIZE_MAX)) {
		v = cfg32(vb, VIRTIO_BLK_CFG_SIZE_MAX);
		if (v >= PAGE_SIZE)
			vb->vb_size_max = min(vb->vb_size_max, v);
	}
	/* A request's length is a u32 of bytes: ranges stop below 4 GiB. */
	if (virtio_has(vp, VIRTIO_BLK_F_DISCARD)) {
		vb->vb_max_discard = min(cfg32(vb, VIRTIO_BLK_CFG_MAX_DISCARD), VBLK_MAX_RANGE);
		vb->vb_discard_align = cfg32(vb, VIRTIO_BLK_CFG_DISCARD_ALIGN);
		if (!cfg32(vb, VIRTIO_BLK_CFG_MAX_DISCARD_SEG))
			vb->vb_max_discard = 0;		/* no segment allowed: no discard */
	}
	if (virtio_has(vp, VIRTIO_BLK_F_WRITE_ZEROES)) {
		vb->vb_max_wz = min(cfg32(vb, VIRTIO_BLK_CFG_MAX_WZ), VBLK_MAX_RANGE);
		if (!cfg32(vb, VIRTIO_BLK_CFG_MAX_WZ_SEG))
			vb->vb_max_wz = 0;
	}
	vb->vb_dev_queues = 1;
	if (virtio_has(vp, VIRTIO_BLK_F_MQ)) {
		v = (u32)virtio_pci_cfg_read(vp, VIRTIO_BLK_CFG_NUM_QUEUES, 2);
		if (v)
			vb->vb_dev_queues = (u16)v;
	}
	return 0;
}

/* The request queue's limits, from the configuration and the ring size. */
static void vblk_set_limits(struct virtio_blk *vb, struct request_queue *q)
{
	struct virtq *vq0 = &vb->vb_queues[0].vbq_vq->pq_vq;
	u32 segs = vb->vb_seg_max;

	/* Without indirect tables a chain (data + 2) must fit in the ring. */
	if (!virtio_has(&vb->vb_vp, VIRTIO_F_INDIRECT_DESC))
		segs = min(segs, (u32)vq0->vq_num - 2);
	q->q_queuedata = vb;
	q->q_nr_sectors = vb->vb_capacity;
	blk_queue_logical_block_size(q, vb->vb_lbs);
	blk_queue_physical_block_size(q, vb->vb_pbs);
	blk_queue_max_hw_sectors(q, VBLK_MAX_SECTORS);
	blk_queue_max_sectors(q, VBLK_MAX_SECTORS);
	blk_queue_max_segments(q, segs);
	blk_queue_max_segment_size(q, vb->vb_size_max);
	blk_queue_segment_boundary(q, BLK_SEG_BOUNDARY_NONE);
	blk_queue_bounce_limit(q, BLK_BOUNCE_NONE, false);	/* 64-bit descriptors */
	/* 5.2.6.2: without FLUSH the device writes through. */
	blk_queue_flush(q, virtio_has(&vb->vb_vp, VIRTIO_BLK_F_FLUSH) ? BLK_FLUSH_CACHE : 0);
	if (vb->vb_max_discard) {
		blk_queue_max_discard_sectors(q, vb->vb_max_discard);
		blk_queue_discard_granularity(q, vb->vb_discard_align ?
					      vb->vb_discard_align << SECTOR_SHIFT : vb->vb_lbs, 0);
	}
	if (vb->vb_max_wz)
		blk_queue_max_write_zeroes_sectors(q, vb->vb_max_wz);
	blk_queue_rq_timeout(q, VBLK_TIMEOUT_MS);
}

/* Set up vb_nqueues virtqueues.  0 or -errno (reported). */
static int vblk_setup_queues(struct virtio_blk *vb)
{
	u32 n = min(min((u32)vb->vb_dev_queues, num_online_cpus()), (u32)VIRTIO_PCI_MAX_VQS);
	u32 vecs = virtio_pci_msix_queues(&vb->vb_vp);
	u16 i;
	int err = 0;

	/* A vector per queue: fewer queues when vectors are short, one without MSI-X. */
	if (n > vecs)
		n = vecs ? vecs : 1;
	vb->vb_nqueues = (u16)max(n, 1u);
	for (i = 0; i < vb->vb_nqueues; i++) {
		struct vblk_queue *vbq = &vb->vb_queues[i];

		spin_lock_init(&vbq->vbq_lock, "virtio_blk");
		vbq->vbq_vb = vb;
		vbq->vbq_vq = virtio_pci_setup_vq(&vb->vb_vp, i, VBLK_QUEUE_MAX, &err);
		if (!vbq->vbq_vq) {
			pr_err("%s: cannot set up queue %u (%d)\n", vb->vb_name, i, err);
			return err;
		}
	}
	return 0;
}

/* The blk-mq queue and the gendisk.  0 or -errno (reported). */
static int vblk_add_disk(struct virtio_blk *vb)
{
	struct blk_mq_tag_set *set = &vb->vb_set;
	struct gendisk *disk;
	int ret;

	set->ops = &vblk_mq_ops;
	set->nr_hw_queues = vb->vb_nqueues;
	set->queue_depth = vb->vb_queues[0].vbq_vq->pq_vq.vq_num;
	if (!virtio_has(&vb->vb_vp, VIRTIO_F_INDIRECT_DESC))
		set->queue_depth = max(1u, set->queue_depth / 4);	/* chains of ~4 */
	set->cmd_size = sizeof(struct vblk_req);
	set->timeout_ms = VBLK_TIMEOUT_MS;
	set->flags = BLK_MQ_F_SHOULD_MERGE;
	set->driver_data = vb;
	ret = blk_mq_alloc_tag_set(set);
	if (ret)
		goto report;
	vb->vb_queue = blk_mq_init_queue(set, vb->vb_name);
	if (IS_ERR(vb->vb_queue)) {
		ret = (int)PTR_ERR(vb->vb_queue);
		vb->vb_queue = NULL;
		goto free_set;
	}
	vblk_set_limits(vb, vb->vb_queue);
	disk = alloc_disk(VBLK_MINORS);
	if (!disk) {
		ret = -ENOMEM;
		goto cleanup_queue;
	}
	str_copy(disk->gd_name, vb->vb_name, sizeof(disk->gd_name));
	disk->gd_major = vblk_major;
	disk->gd_first_minor = (int)(vb->vb_index * VBLK_MINORS);
	str_copy(disk->gd_model, "virtio-blk", sizeof(disk->gd_model));
	disk->gd_fops = &vblk_disk_ops;
	disk->gd_queue = vb->vb_queue;
	disk->gd_private_data = vb;
	disk->gd_flags = GENHD_FL_EXT_DEVT;
	disk->gd_logical_block_size = vb->vb_lbs;
	disk->gd_physical_block_size = vb->vb_pbs;
	set_capacity(disk, vb->vb_capacity);
	if (virtio_has(&vb->vb_vp, VIRTIO_BLK_F_RO))
		set_disk_ro(disk, true);
	vb->vb_disk = disk;
	pr_info("%s: virtio-blk %s, %llu sectors, %u-byte blocks, %u/%u queues, depth %u, "
		"%s%s%s%s\n", vb->vb_name, vb->vb_serial[0] ? vb->vb_serial : "(no serial)",
		(unsigned long long)vb->vb_capacity, vb->vb_lbs, vb->vb_nqueues, vb->vb_dev_queues,
		set->queue_depth, vb->vb_vp.vp_msix ? "MSI-X" : "INTx",
		virtio_has(&vb->vb_vp, VIRTIO_BLK_F_FLUSH) ? ", flush" : "",
		vb->vb_max_discard ? ", discard" : "",
		virtio_has(&vb->vb_vp, VIRTIO_BLK_F_RO) ? ", read-only" : "");
	ret = add_disk(disk);
	if (ret)
		goto put;
	return 0;

put:
	vb->vb_disk = NULL;
	put_disk(disk);
cleanup_queue:
	blk_cleanup_queue(vb->vb_queue);
	vb->vb_queue = NULL;
free_set:
	blk_mq_free_tag_set(set);
report:
	pr_err("%s: cannot add disk (%d)\n", vb->vb_name, ret);
	return ret;
}

static int vblk_probe(struct pci_dev *dev, const struct pci_device_id *id)
{
	struct virtio_blk *vb;
	int ret;

	(void)id;
	if (vblk_major <= 0) {
		vblk_major = register_blkdev(0, "virtblk");
		if (vblk_major < 0)
			return vblk_major;
	}
	vb = kzalloc(sizeof(*vb), GFP_KERNEL);
	if (!vb)
		return -ENOMEM;
	vb->vb_index = vblk_units;
	ret = disk_name_letters(vb->vb_name, sizeof(vb->vb_name), "vd", vb->vb_index);
	if (ret)
		goto free_vb;
	vblk_io_init(vb);
	ret = virtio_pci_init(&vb->vb_vp, dev, vb->vb_name);
	if (ret) {
		if (ret == -ENODEV)
			pr_info("%s: %02x:%02x.%u has no modern virtio interface; skipped\n",
				vb->vb_name, PCI_BDF_BUS(dev->pd_bdf), PCI_BDF_DEV(dev->pd_bdf),
				PCI_BDF_FN(dev->pd_bdf));
		goto free_vb;
	}
	ret = virtio_pci_negotiate(&vb->vb_vp, VBLK_FEATURES);
	if (ret)
		goto fail;
	ret = vblk_read_config(vb);
	if (ret)
		goto fail;
	pci_set_command(dev, PCI_COMMAND_MASTER, 0);
	ret = vblk_setup_queues(vb);
	if (ret)
		goto fail;
	ret = virtio_pci_setup_irqs(&vb->vb_vp, &vblk_vp_ops, vb);
	if (ret)
		goto fail;
	virtio_pci_driver_ok(&vb->vb_vp);
	if (vblk_get_id(vb))
		vb->vb_serial[0] = '\0';	/* optional: the disk works without */
	ret = vblk_add_disk(vb);
	if (ret)
		goto fail;
	dev->pd_drvdata = vb;
	vblk_units++;
	return 0;

fail:
	virtio_pci_fail(&vb->vb_vp);
	virtio_pci_teardown(&vb->vb_vp);
free_vb:
	kfree(vb);
	return ret;
}

static int vblk_disk_open(struct block_device *bdev, fmode_t mode)
{
	struct virtio_blk *vb = bdev->bd_disk->gd_private_data;

	(void)mode;
	return READ_ONCE(vb->vb_broken) ? -ENXIO : 0;
}

static int vblk_disk_getgeo(struct block_device *bdev, struct hd_geometry *geo)
{
	struct virtio_blk *vb = bdev->bd_disk->gd_private_data;
	u64 cyl;

	/* 5.2.4 geometry is optional and not negotiated: Linux's 255/63 fallback. */
	geo->hg_heads = 255;
	geo->hg_sectors = 63;
	cyl = vb->vb_capacity / (255 * 63);
	geo->hg_cylinders = (u16)(cyl > 65535 ? 65535 : cyl);
	return 0;
}

static int vblk_disk_revalidate(struct gendisk *disk)
{
	struct virtio_blk *vb = disk->gd_private_data;

	if (READ_ONCE(vb->vb_broken))
		return -ENXIO;
	vb->vb_capacity = virtio_pci_cfg_read(&vb->vb_vp, VIRTIO_BLK_CFG_CAPACITY, 8);
	set_capacity(disk, vb->vb_capacity);
	return 0;
}

static int vblk_disk_report(struct gendisk *disk, char *buf, size_t len)
{
	struct virtio_blk *vb = disk->gd_private_data;
	struct virtio_pci *vp = &vb->vb_vp;
	struct vblk_queue *vbq = &vb->vb_queues[0];
	int n;

	if (!len)
		return -EINVAL;
	n = snprintf(buf, len,
		     "serial %s\n"
		     "transport virtio-pci %02x:%02x.%u, %s\n"
		     "status %s\n"
		     "features %#llx\n"
		     "queues %u of %u, %u entries%s%s%s\n"
		     "flush %s\n"
		     "discard %s\n"
		     "write zeroes %s\n"
		     "requests %llu, most in flight %u, notifications %llu, interrupts %u, "
		     "errors %llu\n",
		     vb->vb_serial[0] ? vb->vb_serial : "(none)",
		     PCI_BDF_BUS(vp->vp_pdev->pd_bdf), PCI_BDF_DEV(vp->vp_pdev->pd_bdf),
		     PCI_BDF_FN(vp->vp_pdev->pd_bdf),
		     vp->vp_msix ? (vp->vp_msix_shared ? "MSI-X shared" : "MSI-X per queue") :
				   "INTx",
		     vb->vb_broken ? "failed" : "ok",
		     (unsigned long long)vp->vp_features, vb->vb_nqueues, vb->vb_dev_queues,
		     vbq->vbq_vq->pq_vq.vq_num,
		     virtio_has(vp, VIRTIO_F_INDIRECT_DESC) ? ", indirect" : "",
		     virtio_has(vp, VIRTIO_F_EVENT_IDX) ? ", event-idx" : "",
		     cpu_fences_elided() ? ", fence by TLB flush" : "",
		     virtio_has(vp, VIRTIO_BLK_F_FLUSH) ? "yes" : "no (write-through)",
		     vb->vb_max_discard ? "yes" : "no", vb->vb_max_wz ? "yes" : "no",
		     (unsigned long long)vbq->vbq_reqs, vbq->vbq_max_inflight,
		     (unsigned long long)vbq->vbq_notifies,
		     vp->vp_intr, (unsigned long long)vb->vb_errors);
	if (n < 0)
		return -EINVAL;
	return (size_t)n < len ? n : (int)len - 1;
}

const struct block_device_operations vblk_disk_ops = {
	.bdo_open		= vblk_disk_open,
	.bdo_getgeo		= vblk_disk_getgeo,
	.bdo_revalidate_disk	= vblk_disk_revalidate,
	.bdo_report		= vblk_disk_report,
};

static const struct pci_driver vblk_pci_driver = {
	.name = "virtio_blk",
	.id_table = vblk_pci_ids,
	.probe = vblk_probe,
};

static int vblk_init(void)
{
	return pci_register_driver(&vblk_pci_driver);
}
device_initcall(vblk_init);
