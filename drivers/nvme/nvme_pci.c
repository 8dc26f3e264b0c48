/*
 * NVMe PCI glue: match class 01h/08h/02h (NVM Express I/O controller),
 * map BAR0, choose the interrupts, start the controller.
 *
 * Interrupts, best first (the order real machines need, including ones
 * with no working MSI): MSI-X with one vector for the admin queue and one
 * per I/O queue, up to one I/O queue per online CPU, each handler given
 * its own queue and vector k (queue k) steered to CPU k - 1, the CPUs
 * whose requests that queue carries (blk-mq maps CPU c to hardware queue
 * c % n); MSI-X with a single vector, MSI, or INTx, with one handler
 * that reaps every queue, and one I/O queue; or none at all with
 * nvme.poll=1, where completions are reaped by polling (one queue).
 * nvme.msix=0 and nvme.msi=0 skip those steps (for tests of the
 * fallbacks).
 *
 * Intel VMD ("RAID" mode on laptops) hides the NVMe controllers behind a
 * bridge of its own; such a function is named in one line so that a user
 * who sees no disk knows why.
 */
#include "drivers/nvme/nvme_priv.h"
#include "drivers/pci/pci.h"
#include "drivers/pci/pcireg.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/mm/slab.h"
#include "kernel/mm/vmap.h"
#include "kernel/param.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "lib/string.h"

#define NVME_BAR_MAP_MAX	0x4000	/* registers and the first doorbells */

static bool nvme_param_poll;
PARAM_BOOL("nvme.poll", nvme_param_poll, "poll NVMe completions instead of taking interrupts");
static bool nvme_param_msix = true;
PARAM_BOOL("nvme.msix", nvme_param_msix, "use MSI-X when the controller offers it");
static bool nvme_param_msi = true;
PARAM_BOOL("nvme.msi", nvme_param_msi, "use MSI when MSI-X is not used");

static unsigned nvme_units;

#define BDF_ARGS(d)	PCI_BDF_BUS((d)->pd_bdf), PCI_BDF_DEV((d)->pd_bdf), PCI_BDF_FN((d)->pd_bdf)

/* Vectors and handlers (top of this file).  0 or an errno (printed). */
static int nvme_pci_irqs(struct nvme_ctrl *c)
{
	struct pci_dev *dev = c->c_pdev;
	int irqs[NVME_MAX_VECTORS], n, irq, err;
	u32 i, want = num_online_cpus();

	if (want > NVME_MAX_IO_QUEUES)
		want = NVME_MAX_IO_QUEUES;
	if (!want)
		want = 1;
	c->c_want_ioq = 1;
	for (i = 0; i < NVME_MAX_VECTORS; i++) {
		c->c_irq[i] = -1;
		snprintf(c->c_irq_name[i], sizeof(c->c_irq_name[i]), "%sq%u", c->c_name, i);
	}
	if (nvme_param_poll) {
		c->c_irq_mode = NVME_IRQ_POLL;
		c->c_nvec = 0;
		return 0;
	}
	n = nvme_param_msix ? pci_enable_msix(dev, irqs, 1 + want) : -ENODEV;
	if (n >= 2) {
		c->c_irq_mode = NVME_IRQ_MSIX;
		c->c_nvec = (u32)n;
		c->c_want_ioq = (u32)n - 1;
		err = request_irq((unsigned)irqs[0], nvme_queue_intr, &c->c_adminq,
				  c->c_irq_name[0]);
		for (i = 1; !err && i < c->c_nvec; i++) {
			/* Queue i's vector to the CPU its requests come from. */
			if (irq_cpu_online(i - 1))
				irq_set_affinity((unsigned)irqs[i], i - 1);
			err = request_irq((unsigned)irqs[i], nvme_queue_intr, &c->c_ioqs[i - 1],
					  c->c_irq_name[i]);
		}
		if (err)
			goto fail;
		for (i = 0; i < c->c_nvec; i++)
			c->c_irq[i] = irqs[i];
		return 0;
	}
	if (n > 0) {
		c->c_irq_mode = NVME_IRQ_MSIX;
		irq = irqs[0];
	} else if (nvme_param_msi && dev->pd_msi_cap && (irq = pci_enable_msi(dev)) >= 0) {
		c->c_irq_mode = NVME_IRQ_MSI;
	} else {
		c->c_irq_mode = NVME_IRQ_INTX;
		irq = pci_intx_irq(dev);
		if (irq < 0) {
			err = irq;
			goto fail;
		}
		pci_set_command(dev, 0, PCI_COMMAND_INTX_DISABLE);
	}
	c->c_nvec = 1;
	err = request_irq((unsigned)irq, nvme_intr, c, c->c_name);
	if (err)
		goto fail;
	c->c_irq[0] = irq;
	return 0;

fail:
	pr_err("%s: no interrupt (%s); try nvme.poll=1\n", c->c_name, errstr(err));
	return err;
}

static void nvme_pci_free_irqs(struct nvme_ctrl *c)
{
	u32 i;

	for (i = 0; i < NVME_MAX_VECTORS; i++)
		if (c->c_irq[i] >= 0)
			free_irq((unsigned)c->c_irq[i],
				 c->c_nvec > 1 ? (i ? (void *)&c->c_ioqs[i - 1] : (void *)&c->c_adminq)
					       : (void *)c);
	pci_disable_msix(c->c_pdev);
	pci_disable_msi(c->c_pdev);
}

static int nvme_pci_probe(struct pci_dev *dev, const struct pci_device_id *id)
{
	const struct pci_bar *bar = &dev->pd_bar[0];
	struct nvme_ctrl *c;
	size_t size;
	int err;

	(void)id;
	if (bar->pb_type != PCI_BAR_MEM32 && bar->pb_type != PCI_BAR_MEM64) {
		pr_err("nvme %02x:%02x.%u: BAR0 is not a memory BAR\n", BDF_ARGS(dev));
		return -ENXIO;
	}
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->c_unit = nvme_units;
	c->c_pdev = dev;
	snprintf(c->c_name, sizeof(c->c_name), "nvme%u", c->c_unit);
	size = bar->pb_size < NVME_BAR_MAP_MAX ? (size_t)bar->pb_size : NVME_BAR_MAP_MAX;
	c->c_regs = ioremap(bar->pb_base, size);
	if (!c->c_regs) {
		err = -ENOMEM;
		goto free_c;
	}
	pci_set_command(dev, PCI_COMMAND_MEMORY, 0);
	pr_info("%s: %02x:%02x.%u %04x:%04x, BAR0 %#llx\n", c->c_name, BDF_ARGS(dev),
		dev->pd_vendor, dev->pd_device, (unsigned long long)bar->pb_base);
	err = nvme_pci_irqs(c);
	if (err)
		goto unmap;
	pci_set_command(dev, PCI_COMMAND_MASTER, 0);
	err = nvme_ctrl_start(c);
	if (err)
		goto no_irq;		/* error already printed */
	dev->pd_drvdata = c;
	nvme_units++;
	return 0;

no_irq:
	pci_set_command(dev, 0, PCI_COMMAND_MASTER);
	nvme_pci_free_irqs(c);
unmap:
	iounmap((void *)c->c_regs);
free_c:
	kfree(c);
	return err;
}

static const struct pci_device_id nvme_ids[] = {
	{ PCI_DEVICE_CLASS(0x01, 0x08, 0x02) },
	{ 0 }
};

static const struct pci_driver nvme_driver = {
	.name = "nvme", .id_table = nvme_ids, .probe = nvme_pci_probe,
};

/* Intel Volume Management Device: NVMe behind it is invisible here. */
static int vmd_probe(struct pci_dev *dev, const struct pci_device_id *id)
{
	(void)id;
	pr_warn("pci %02x:%02x.%u: Intel VMD controller %04x:%04x: NVMe disks behind it are "
		"not supported; set the firmware's storage mode to AHCI/NVMe instead of RAID\n",
		BDF_ARGS(dev), dev->pd_vendor, dev->pd_device);
	return -ENODEV;
}

static const struct pci_device_id vmd_ids[] = {
	{ PCI_DEVICE(0x8086, 0x201d) },
	{ PCI_DEVICE(0x8086, 0x28c0) },
	{ PCI_DEVICE(0x8086, 0x467f) },
	{ PCI_DEVICE(0x8086, 0x4c3d) },
	{ PCI_DEVICE(0x8086, 0x7d0b) },
	{ PCI_DEVICE(0x8086, 0x9a0b) },
	{ PCI_DEVICE(0x8086, 0xa77f) },
	{ PCI_DEVICE(0x8086, 0xad0b) },
	{ 0 }
};

static const struct pci_driver vmd_driver = {
	.name = "vmd", .id_table = vmd_ids, .probe = vmd_probe,
};

static int nvme_pci_init(void)
{
	int err = pci_register_driver(&vmd_driver);

	if (err)
		return err;
	return pci_register_driver(&nvme_driver);
}
device_initcall(nvme_pci_init);
