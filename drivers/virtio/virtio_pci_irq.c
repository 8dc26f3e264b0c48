/*
 * Interrupts of the virtio PCI transport (virtio 1.1, 4.1.4.5 and
 * 4.1.5.1.2).  With MSI-X each queue has its own vector and
 * configuration changes another, so a handler knows at once what
 * happened.  Without, the function's INTx line is shared and
 * level-triggered: reading the ISR status both says which of "a queue"
 * and "the configuration" it was and deasserts the line.
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
#include "kernel/printk.h"

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

int virtio_pci_setup_irqs(struct virtio_pci *vp, const struct virtio_pci_ops *ops, void *priv)
{
	int ret;

	vp->vp_ops = ops;
	vp->vp_priv = priv;
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
	if (vp->vp_irq >= 0) {
		free_irq((unsigned)vp->vp_irq, vp);
		vp->vp_irq = -1;
		vp->vp_pdev->pd_irq = -1;
	}
}
