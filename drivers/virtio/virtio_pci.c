/*
 * The virtio modern PCI transport (virtio 1.1, 4.1), driver side: the
 * vendor-specific capabilities that locate the common configuration,
 * notification, ISR and device configuration structures in the BARs
 * (4.1.4), the initialisation sequence of 3.1.1 (reset, ACKNOWLEDGE,
 * DRIVER, features, FEATURES_OK read back, queues, DRIVER_OK), queue
 * set-up through the common configuration (4.1.5.1.3), notifications
 * (4.1.5.2) and interrupts.
 *
 * Only the modern interface is used.  A transitional device (QEMU's
 * default virtio-blk-pci, 1af4:1001) offers both; a legacy-only one is
 * declined with -ENODEV.
 *
 * Contract: see virtiovar.h.  Everything here runs at probe time except
 * virtio_pci_notify (the I/O path, any context) and the interrupt
 * handlers (virtio_pci_irq.c).  Registers are reached only through the
 * vp_* accessors below.
 */
#include "drivers/pci/pci.h"
#include "drivers/pci/pcireg.h"
#include "drivers/virtio/virtio_pci_priv.h"
#include "kernel/cpu.h"
#include "kernel/errno.h"
#include "kernel/io.h"
#include "kernel/mm/page.h"
#include "kernel/mm/slab.h"
#include "kernel/mm/vmap.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "lib/string.h"

#define VIRTIO_RESET_TIMEOUT_MS	1000	/* ms: device_status back to 0 (4.1.4.3.2) */
#define VIRTIO_CAP_TTL		48	/* capabilities walked at most */

u8 vp_read8(struct virtio_pci *vp, unsigned off) { return readb(vp->vp_common + off); }
u16 vp_read16(struct virtio_pci *vp, unsigned off) { return readw(vp->vp_common + off); }
u32 vp_read32(struct virtio_pci *vp, unsigned off) { return readl(vp->vp_common + off); }
void vp_write8(struct virtio_pci *vp, unsigned off, u8 v) { writeb(vp->vp_common + off, v); }
void vp_write16(struct virtio_pci *vp, unsigned off, u16 v) { writew(vp->vp_common + off, v); }
void vp_write32(struct virtio_pci *vp, unsigned off, u32 v) { writel(vp->vp_common + off, v); }

static void vp_write64(struct virtio_pci *vp, unsigned lo, u64 v)
{
	vp_write32(vp, lo, (u32)v);
	vp_write32(vp, lo + 4, (u32)(v >> 32));
}

u8 virtio_pci_status(struct virtio_pci *vp)
{
	return vp_read8(vp, VIRTIO_PCI_COMMON_STATUS);
}

static void vp_add_status(struct virtio_pci *vp, u8 bits)
{
	vp_write8(vp, VIRTIO_PCI_COMMON_STATUS, (u8)(virtio_pci_status(vp) | bits));
}

/* 4.1.4.3.2: writing 0 resets; the device says done by reading back 0. */
int virtio_pci_reset(struct virtio_pci *vp)
{
	u64 end = ktime_ms() + VIRTIO_RESET_TIMEOUT_MS;

	vp_write8(vp, VIRTIO_PCI_COMMON_STATUS, 0);
	while (virtio_pci_status(vp) != 0) {
		if (ktime_ms() > end) {
			pr_err("%s: reset did not complete in %u ms\n", vp->vp_name,
			       VIRTIO_RESET_TIMEOUT_MS);
			return -ETIMEDOUT;
		}
		udelay(100);
	}
	return 0;
}

/*
 * Map BAR @bar once and return the structure at @off of @len bytes in
 * it, or NULL when it does not fit or cannot be mapped.
 */
static volatile u8 *vp_map(struct virtio_pci *vp, unsigned bar, u32 off, u32 len)
{
	const struct pci_bar *b;

	if (bar >= ARRAY_SIZE(vp->vp_bars))
		return NULL;
	b = &vp->vp_pdev->pd_bar[bar];
	if ((u64)off + len > b->pb_size)
		return NULL;
	if (!vp->vp_bars[bar])
		vp->vp_bars[bar] = pci_map_bar(vp->vp_pdev, bar);
	if (!vp->vp_bars[bar])
		return NULL;
	return (volatile u8 *)vp->vp_bars[bar] + off;
}

/*
 * 4.1.4: walk the vendor-specific capabilities; the first of each type
 * whose BAR is a memory BAR wins (4.1.4.1: the driver SHOULD use the
 * first it can).  Return: 0, or -ENODEV when one of the needed is absent.
 */
static int vp_find_caps(struct virtio_pci *vp)
{
	struct pci_dev *dev = vp->vp_pdev;
	unsigned pos, ttl;

	if (!(pci_read16(dev, PCI_STATUS) & PCI_STATUS_CAP_LIST))
		return -ENODEV;
	pos = pci_read8(dev, PCI_CAPABILITY_LIST);
	for (ttl = 0; ttl < VIRTIO_CAP_TTL && pos >= PCI_STD_HEADER_END; ttl++) {
		u8 type, bar;
		u32 off, len;
		volatile u8 *p;

		pos &= ~3u;
		if (pci_read8(dev, pos + PCI_CAP_LIST_ID) != PCI_CAP_ID_VNDR)
			goto next;
		type = pci_read8(dev, pos + VIRTIO_PCI_CAP_CFG_TYPE);
		bar = pci_read8(dev, pos + VIRTIO_PCI_CAP_BAR);
		off = pci_read32(dev, pos + VIRTIO_PCI_CAP_OFFSET);
		len = pci_read32(dev, pos + VIRTIO_PCI_CAP_LENGTH);
		if (bar > 5 || (dev->pd_bar[bar].pb_type != PCI_BAR_MEM32 &&
				dev->pd_bar[bar].pb_type != PCI_BAR_MEM64))
			goto next;
		switch (type) {
		case VIRTIO_PCI_CAP_COMMON_CFG:
			if (vp->vp_common || len < VIRTIO_PCI_COMMON_LEN)
				break;
			vp->vp_common = vp_map(vp, bar, off, VIRTIO_PCI_COMMON_LEN);
			break;
		case VIRTIO_PCI_CAP_NOTIFY_CFG:
			if (vp->vp_notify || len < 2)
				break;
			p = vp_map(vp, bar, off, len);
			if (p) {
				vp->vp_notify = p;
				vp->vp_notify_len = len;
				vp->vp_notify_mult = pci_read32(dev, pos + VIRTIO_PCI_NOTIFY_CAP_MULT);
			}
			break;
		case VIRTIO_PCI_CAP_ISR_CFG:
			if (!vp->vp_isr && len >= 1)
				vp->vp_isr = vp_map(vp, bar, off, 1);
			break;
		case VIRTIO_PCI_CAP_DEVICE_CFG:
			if (vp->vp_devcfg || len == 0)
				break;
			p = vp_map(vp, bar, off, len);
			if (p) {
				vp->vp_devcfg = p;
				vp->vp_devcfg_len = len;
			}
			break;
		default:
			break;
		}
next:
		pos = pci_read8(dev, pos + PCI_CAP_LIST_NEXT);
	}
	return vp->vp_common && vp->vp_notify && vp->vp_isr ? 0 : -ENODEV;
}

static void vp_unmap(struct virtio_pci *vp)
{
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(vp->vp_bars); i++) {
		if (vp->vp_bars[i])
			iounmap(vp->vp_bars[i]);
		vp->vp_bars[i] = NULL;
	}
}

int virtio_pci_init(struct virtio_pci *vp, struct pci_dev *dev, const char *name)
{
	int ret;

	vp->vp_pdev = dev;
	vp->vp_irq = -1;
	str_copy(vp->vp_name, name, sizeof(vp->vp_name));
	ret = vp_find_caps(vp);
	if (ret)
		goto unmap;
	pci_set_command(dev, PCI_COMMAND_MEMORY, 0);
	/* 3.1.1: 1 reset, 2 ACKNOWLEDGE, 3 DRIVER. */
	ret = virtio_pci_reset(vp);
	if (ret)
		goto unmap;
	vp_add_status(vp, VIRTIO_STATUS_ACKNOWLEDGE);
	vp_add_status(vp, VIRTIO_STATUS_DRIVER);
	vp->vp_max_vqs = vp_read16(vp, VIRTIO_PCI_COMMON_NUMQ);
	return 0;

unmap:
	vp_unmap(vp);
	return ret;
}

int virtio_pci_negotiate(struct virtio_pci *vp, u64 wanted)
{
	u64 offered;

	vp_write32(vp, VIRTIO_PCI_COMMON_DFSELECT, 0);
	offered = vp_read32(vp, VIRTIO_PCI_COMMON_DF);
	vp_write32(vp, VIRTIO_PCI_COMMON_DFSELECT, 1);
	offered |= (u64)vp_read32(vp, VIRTIO_PCI_COMMON_DF) << 32;
	if (!(offered & VIRTIO_BIT(VIRTIO_F_VERSION_1))) {
		pr_err("%s: device does not offer VERSION_1 (features %#llx)\n", vp->vp_name,
		       (unsigned long long)offered);
		return -ENODEV;
	}
	vp->vp_features = offered & (wanted | VIRTIO_BIT(VIRTIO_F_VERSION_1));
	vp_write32(vp, VIRTIO_PCI_COMMON_GFSELECT, 0);
	vp_write32(vp, VIRTIO_PCI_COMMON_GF, (u32)vp->vp_features);
	vp_write32(vp, VIRTIO_PCI_COMMON_GFSELECT, 1);
	vp_write32(vp, VIRTIO_PCI_COMMON_GF, (u32)(vp->vp_features >> 32));
	/* 3.1.1 steps 5-6: FEATURES_OK, then read it back. */
	vp_add_status(vp, VIRTIO_STATUS_FEATURES_OK);
	if (!(virtio_pci_status(vp) & VIRTIO_STATUS_FEATURES_OK)) {
		pr_err("%s: device refused features %#llx\n", vp->vp_name,
		       (unsigned long long)vp->vp_features);
		return -ENODEV;
	}
	return 0;
}

struct virtio_pci_vq *virtio_pci_setup_vq(struct virtio_pci *vp, u16 index, u16 max, int *err)
{
	struct virtio_pci_vq *q;
	u16 num, noff;
	u32 noff_bytes;
	size_t bytes;
	int ret;

	if (index >= vp->vp_max_vqs || index >= VIRTIO_PCI_MAX_VQS || vp->vp_vqs[index]) {
		ret = -ENOENT;
		goto out;
	}
	vp_write16(vp, VIRTIO_PCI_COMMON_Q_SELECT, index);
	num = vp_read16(vp, VIRTIO_PCI_COMMON_Q_SIZE);
	/* 4.1.4.3.2: the device may offer any size; a split ring needs 2^n. */
	if (num == 0 || vp_read16(vp, VIRTIO_PCI_COMMON_Q_ENABLE)) {
		ret = -ENOENT;
		goto out;
	}
	while (num > max || !is_power_of_2(num))
		num = (u16)(1u << (31 - __builtin_clz((u32)num - 1u)));	/* next power below */
	noff = vp_read16(vp, VIRTIO_PCI_COMMON_Q_NOFF);
	noff_bytes = (u32)noff * vp->vp_notify_mult;
	if (noff_bytes + 2 > vp->vp_notify_len) {
		pr_err("%s: queue %u notify offset %u outside the notify area\n", vp->vp_name,
		       index, noff_bytes);
		ret = -ENXIO;
		goto out;
	}
	q = kzalloc(sizeof(*q), GFP_KERNEL);
	if (!q) {
		ret = -ENOMEM;
		goto out;
	}
	bytes = virtq_ring_bytes(num);
	q->pq_order = 0;
	while (((size_t)PAGE_SIZE << q->pq_order) < bytes)
		q->pq_order++;
	q->pq_ring = get_free_pages(GFP_KERNEL, q->pq_order);
	q->pq_state = kmalloc(virtq_state_bytes(num), GFP_KERNEL);
	if (!q->pq_ring || !q->pq_state) {
		ret = -ENOMEM;
		goto free_q;
	}
	memset(q->pq_ring, 0, (size_t)PAGE_SIZE << q->pq_order);
	ret = virtq_init(&q->pq_vq, num, q->pq_ring, __pa(q->pq_ring), q->pq_state,
			 virtio_has(vp, VIRTIO_F_EVENT_IDX));
	if (ret)
		goto free_q;
	q->pq_vq.vq_fence = device_mb;
	q->pq_vp = vp;
	q->pq_index = index;
	q->pq_vector = VIRTIO_MSI_NO_VECTOR;
	q->pq_notify = (volatile u16 *)(void *)(vp->vp_notify + noff_bytes);
	/* 4.1.5.1.3: size, then the three addresses; enabled by setup_irqs. */
	vp_write16(vp, VIRTIO_PCI_COMMON_Q_SIZE, num);
	vp_write64(vp, VIRTIO_PCI_COMMON_Q_DESCLO, virtq_desc_dma(&q->pq_vq));
	vp_write64(vp, VIRTIO_PCI_COMMON_Q_AVAILLO, virtq_avail_dma(&q->pq_vq));
	vp_write64(vp, VIRTIO_PCI_COMMON_Q_USEDLO, virtq_used_dma(&q->pq_vq));
	vp->vp_vqs[index] = q;
	if (index >= vp->vp_nvqs)
		vp->vp_nvqs = (u16)(index + 1);
	return q;

free_q:
	if (q->pq_ring)
		free_pages(q->pq_ring, q->pq_order);
	kfree(q->pq_state);
	kfree(q);
out:
	*err = ret;
	return NULL;
}

/* Enable every queue set up (4.1.5.1.3 last step), after its vector is set. */
void vp_enable_vqs(struct virtio_pci *vp)
{
	u16 i;

	for (i = 0; i < vp->vp_nvqs; i++) {
		if (!vp->vp_vqs[i])
			continue;
		vp_write16(vp, VIRTIO_PCI_COMMON_Q_SELECT, i);
		vp_write16(vp, VIRTIO_PCI_COMMON_Q_ENABLE, 1);
	}
}

void virtio_pci_driver_ok(struct virtio_pci *vp)
{
	vp_add_status(vp, VIRTIO_STATUS_DRIVER_OK);
}

void virtio_pci_fail(struct virtio_pci *vp)
{
	vp_add_status(vp, VIRTIO_STATUS_FAILED);
}

void virtio_pci_notify(struct virtio_pci_vq *q)
{
	/* 4.1.5.2: the queue index, 16 bits, at its notify address. */
	writew(q->pq_notify, q->pq_index);
}

u64 virtio_pci_cfg_read(struct virtio_pci *vp, unsigned off, unsigned len)
{
	u8 gen;
	u64 v;

	if (!vp->vp_devcfg || off + len > vp->vp_devcfg_len)
		return 0;
	/* 2.4.1: re-read while config_generation moves under us. */
	do {
		gen = vp_read8(vp, VIRTIO_PCI_COMMON_CFGGEN);
		switch (len) {
		case 1: v = readb(vp->vp_devcfg + off); break;
		case 2: v = readw(vp->vp_devcfg + off); break;
		case 4: v = readl(vp->vp_devcfg + off); break;
		default:
			v = readl(vp->vp_devcfg + off) |
			    (u64)readl(vp->vp_devcfg + off + 4) << 32;
			break;
		}
	} while (gen != vp_read8(vp, VIRTIO_PCI_COMMON_CFGGEN));
	return v;
}

void virtio_pci_teardown(struct virtio_pci *vp)
{
	u16 i;

	/* The device must stop touching the rings before they are freed. */
	virtio_pci_reset(vp);
	vp_free_irqs(vp);
	for (i = 0; i < vp->vp_nvqs; i++) {
		struct virtio_pci_vq *q = vp->vp_vqs[i];

		if (!q)
			continue;
		free_pages(q->pq_ring, q->pq_order);
		kfree(q->pq_state);
		kfree(q);
		vp->vp_vqs[i] = NULL;
	}
	vp->vp_nvqs = 0;
	vp_unmap(vp);
}
