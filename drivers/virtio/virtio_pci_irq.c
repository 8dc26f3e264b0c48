/*
 * Interrupts of the virtio PCI transport (virtio 1.1, 4.1.4.5 and
 * 4.1.5.1.2).  With MSI-X each queue has its own vector and
 * configuration changes another, so a handler knows at once what
 * happened.  Without, the function's INTx line is shared and
 * level-triggered: reading the ISR status both says which of "a queue"
 * and "the configuration" it was and deasserts the line.
 *
 * Queue i's vector is steered to CPU i (kernel/irq.h), the CPU whose
 * requests a driver with a queue per CPU puts on it (blk-mq maps CPU c
 * to hardware queue c % n); the configuration vector goes wherever the
 * round robin put it.  virtio_pci_msix_vectors() tells a driver how many
 * queues can have a vector of their own before it sets them up.
 *
 * Without enough MSI-X entries for one per queue, all queues share one
 * vector (the configuration keeps its own); with fewer than two, or with
 * virtio.msix=0, INTx.
 *
 * The handlers only read and acknowledge, then hand the news to the
 * device driver's ops (vo_vq_intr, vo_config), which reap and wake.
 */
#include "drivers/pci/pci.h"
#include "drivers/pci/pcireg.h"
#include "drivers/virtio/virtio_pci_priv.h"
#include "kernel/errno.h"
#include "kernel/io.h"
#include "kernel/irq.h"
#include "kernel/param.h"
#include "kernel/printk.h"
#include "lib/string.h"

static bool vp_param_msix = true;
PARAM_BOOL("virtio.msix", vp_param_msix, "use MSI-X when the device offers it (0: INTx)");

/* MSI-X, one queue's vector: no ISR read (4.1.4.5.1: MSI-X does not use it). */
static irqreturn_t vp_msix_vq(unsigned irq, void *data)
{
	struct virtio_pci_vq *q = data;

	(void)irq;
	q->pq_vp->vp_intr++;
	q->pq_vp->vp_ops->vo_vq_intr(q->pq_vp, q->pq_index);
	return IRQ_HANDLED;
}

/* MSI-X, the vector every queue shares when the table is too small. */
static irqreturn_t vp_msix_vqs(unsigned irq, void *data)
{
	struct virtio_pci *vp = data;
	u16 i;

	(void)irq;
	vp->vp_intr++;
	for (i = 0; i < vp->vp_nvqs; i++)
		if (vp->vp_vqs[i])
			vp->vp_ops->vo_vq_intr(vp, i);
	return IRQ_HANDLED;
}

/* MSI-X, the configuration vector. */
static irqreturn_t vp_msix_config(unsigned irq, void *data)
{
	struct virtio_pci *vp = data;

	(void)irq;
	vp->vp_intr++;
	if (vp->vp_ops->vo_config)
		vp->vp_ops->vo_config(vp);
	return IRQ_HANDLED;
}

/* INTx: the ISR says what; every queue is looked at on a queue interrupt. */
static irqreturn_t vp_intx(unsigned irq, void *data)
{
	struct virtio_pci *vp = data;
	u8 isr = readb(vp->vp_isr);	/* reading clears it (4.1.4.5) */
	u16 i;

	(void)irq;
	if (!isr)
		return IRQ_NONE;	/* a neighbour on the shared line */
	vp->vp_intr++;
	if (isr & VIRTIO_PCI_ISR_QUEUE)
		for (i = 0; i < vp->vp_nvqs; i++)
			if (vp->vp_vqs[i])
				vp->vp_ops->vo_vq_intr(vp, i);
	if ((isr & VIRTIO_PCI_ISR_CONFIG) && vp->vp_ops->vo_config)
		vp->vp_ops->vo_config(vp);
	return IRQ_HANDLED;
}

static int vp_setup_intx(struct virtio_pci *vp)
{
	int irq = pci_intx_irq(vp->vp_pdev);
	int ret;

	if (irq < 0) {
		pr_err("%s: no interrupt (%d)\n", vp->vp_name, irq);
		return irq;
	}
	pci_set_command(vp->vp_pdev, 0, PCI_COMMAND_INTX_DISABLE);
	ret = request_irq((unsigned)irq, vp_intx, vp, vp->vp_name);
	if (ret) {
		pr_err("%s: cannot get IRQ %d (%d)\n", vp->vp_name, irq, ret);
		return ret;
	}
	vp->vp_irq = irq;
	vp->vp_pdev->pd_irq = irq;
	return 0;
}

/*
 * Tell the device which vector each source uses and check it took it
 * (4.1.5.1.2: it answers VIRTIO_MSI_NO_VECTOR when it cannot).  Config
 * on entry 0; queue i on entry 1 + i, or all on entry 1 when shared.
 */
static int vp_assign_vectors(struct virtio_pci *vp, bool shared)
{
	u16 i;

	vp_write16(vp, VIRTIO_PCI_COMMON_MSIX, 0);
	if (vp_read16(vp, VIRTIO_PCI_COMMON_MSIX) != 0)
		return -EBUSY;
	for (i = 0; i < vp->vp_nvqs; i++) {
		struct virtio_pci_vq *q = vp->vp_vqs[i];

		if (!q)
			continue;
		q->pq_vector = shared ? 1 : (u16)(1 + i);
		vp_write16(vp, VIRTIO_PCI_COMMON_Q_SELECT, i);
		vp_write16(vp, VIRTIO_PCI_COMMON_Q_MSIX, q->pq_vector);
		if (vp_read16(vp, VIRTIO_PCI_COMMON_Q_MSIX) != q->pq_vector)
			return -EBUSY;
	}
	return 0;
}

/* Release what vp_setup_msix got: handlers, then the vectors in the device. */
static void vp_free_msix(struct virtio_pci *vp)
{
	u16 i;

	if (!vp->vp_msix_nvec)
		return;
	free_irq((unsigned)vp->vp_msix_irqs[0], vp);
	for (i = 0; i < vp->vp_nvqs; i++) {
		struct virtio_pci_vq *q = vp->vp_vqs[i];

		if (q && q->pq_vector != VIRTIO_MSI_NO_VECTOR && !vp->vp_msix_shared)
			free_irq((unsigned)vp->vp_msix_irqs[q->pq_vector], q);
		if (q)
			q->pq_vector = VIRTIO_MSI_NO_VECTOR;
	}
	if (vp->vp_msix_shared)
		free_irq((unsigned)vp->vp_msix_irqs[1], vp);
	pci_disable_msix(vp->vp_pdev);
	vp->vp_msix_nvec = 0;
	vp->vp_msix = false;
}

/*
 * MSI-X: one vector for configuration changes and one per queue, or one
 * for all queues when the table is smaller than that.  0, or -errno with
 * nothing left enabled (the caller falls back to INTx).
 */
static int vp_setup_msix(struct virtio_pci *vp)
{
	unsigned want = 1u + vp->vp_nvqs, i;
	int n, ret;

	if (!vp_param_msix || !pci_msix_count(vp->vp_pdev))
		return -ENODEV;
	n = pci_enable_msix(vp->vp_pdev, vp->vp_msix_irqs, want);
	if (n < 2) {
		if (n > 0)
			pci_disable_msix(vp->vp_pdev);
		return n < 0 ? n : -ENOSPC;
	}
	vp->vp_msix_nvec = (u16)n;
	vp->vp_msix_shared = (unsigned)n < want;
	vp->vp_msix = true;
	ret = vp_assign_vectors(vp, vp->vp_msix_shared);
	if (ret)
		goto fail;
	/* Handlers: on failure free_irq of one never requested is harmless. */
	ret = request_irq((unsigned)vp->vp_msix_irqs[0], vp_msix_config, vp, vp->vp_name);
	if (ret)
		goto fail;
	if (vp->vp_msix_shared) {
		ret = request_irq((unsigned)vp->vp_msix_irqs[1], vp_msix_vqs, vp, vp->vp_name);
		if (ret)
			goto fail;
	} else {
		for (i = 0; i < vp->vp_nvqs; i++) {
			struct virtio_pci_vq *q = vp->vp_vqs[i];

			if (!q)
				continue;
			snprintf(vp->vp_irq_names[i], sizeof(vp->vp_irq_names[i]), "%s-q%u",
				 vp->vp_name, i);
			if (irq_cpu_online(i))
				irq_set_affinity((unsigned)vp->vp_msix_irqs[q->pq_vector], i);
			ret = request_irq((unsigned)vp->vp_msix_irqs[q->pq_vector], vp_msix_vq, q,
					  vp->vp_irq_names[i]);
			if (ret)
				goto fail;
		}
	}
	return 0;

fail:
	vp_free_msix(vp);
	/* Back to no vectors, so the ISR and INTx carry everything. */
	vp_write16(vp, VIRTIO_PCI_COMMON_MSIX, VIRTIO_MSI_NO_VECTOR);
	for (i = 0; i < vp->vp_nvqs; i++) {
		vp_write16(vp, VIRTIO_PCI_COMMON_Q_SELECT, (u16)i);
		vp_write16(vp, VIRTIO_PCI_COMMON_Q_MSIX, VIRTIO_MSI_NO_VECTOR);
	}
	return ret;
}

u16 virtio_pci_msix_queues(struct virtio_pci *vp)
{
	int n;

	if (!vp_param_msix)
		return 0;
	n = pci_msix_count(vp->vp_pdev);
	return n >= 2 ? (u16)(n - 1) : 0;
}

int virtio_pci_setup_irqs(struct virtio_pci *vp, const struct virtio_pci_ops *ops, void *priv)
{
	int ret;

	vp->vp_ops = ops;
	vp->vp_priv = priv;
	if (vp_setup_msix(vp) == 0) {
		vp_enable_vqs(vp);
		return 0;
	}
	ret = vp_setup_intx(vp);
	if (ret)
		return ret;
	/* 4.1.5.1.2: no vectors in use; the ISR carries everything. */
	vp_write16(vp, VIRTIO_PCI_COMMON_MSIX, VIRTIO_MSI_NO_VECTOR);
	vp_enable_vqs(vp);
	return 0;
}

void vp_free_irqs(struct virtio_pci *vp)
{
	vp_free_msix(vp);
	if (vp->vp_irq >= 0) {
		free_irq((unsigned)vp->vp_irq, vp);
		vp->vp_irq = -1;
		vp->vp_pdev->pd_irq = -1;
	}
}
