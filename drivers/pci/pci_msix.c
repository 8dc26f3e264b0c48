/*
 * MSI-X: several message-signalled interrupts for one function, each
 * with its own address/data pair in a table that lives in one of the
 * function's memory BARs (PCI 3.0 6.8.2).  A driver with a queue per
 * vector (NVMe, virtio, xHCI) asks for as many as it has queues:
 *
 *	int irqs[NQ];
 *	n = pci_enable_msix(dev, irqs, NQ);	-- n vectors, entries 0..n-1
 *	for (i = 0; i < n; i++)
 *		request_irq(irqs[i], my_intr, &my_queue[i], name);
 *
 * Entry i raises IRQ irqs[i]; the context pointer per vector is the
 * request_irq() data.  The CPU side of each vector comes from
 * msi_irq_alloc() (kernel/msi.c), so it is edge-triggered and goes to the
 * local APIC.  Entries are left unmasked; pci_msix_mask()/unmask() quiet
 * one vector (the device then sets its Pending Bit instead of writing,
 * and sends the message at unmask).  MSI-X and MSI are exclusive
 * (6.8.2: software must not enable both), and INTx is disabled while
 * MSI-X is on.
 *
 * Each vector goes to a CPU chosen round robin by msi_irq_alloc(); a
 * driver steers one elsewhere with irq_set_affinity() (kernel/irq.h),
 * which rewrites the entry here with the entry masked (6.8.2.9: a masked
 * entry's address and data may be changed; an event meanwhile sets the
 * Pending Bit and is sent at unmask, so none is lost).
 *
 * Vectors are never freed (irqchip.h cannot free one): a driver that
 * resets its controller keeps its vectors and need not enable again.
 *
 * Locks: the [d] fields of struct pci_dev, the bound driver's.
 */
#include "drivers/pci/pci.h"
#include "drivers/pci/pcireg.h"
#include "kernel/apic.h"
#include "kernel/errno.h"
#include "kernel/io.h"
#include "kernel/mm/vmap.h"

static volatile u8 *msix_entry(struct pci_dev *dev, unsigned entry)
{
	return dev->pd_msix_table + entry * PCI_MSIX_ENTRY_SIZE;
}

static void msix_set_ctl(struct pci_dev *dev, u16 set, u16 clear)
{
	unsigned cap = dev->pd_msix_cap;
	u16 ctl = pci_read16(dev, cap + PCI_MSIX_FLAGS);

	pci_write16(dev, cap + PCI_MSIX_FLAGS, (u16)((ctl & ~clear) | set));
}

/*
 * The steering writer (kernel/msi.c): entry cookie of dev gets a new
 * message.  Masked around the write, then left as it was.
 */
static int msix_rewrite(void *ctx, u32 entry, u64 addr, u32 data)
{
	struct pci_dev *dev = ctx;
	volatile u8 *e;
	u32 ctrl;

	if (entry >= dev->pd_msix_nvec || !dev->pd_msix_table)
		return -ENODEV;
	e = msix_entry(dev, entry);
	ctrl = readl(e + PCI_MSIX_ENTRY_VECTOR_CTRL);
	writel(e + PCI_MSIX_ENTRY_VECTOR_CTRL, ctrl | PCI_MSIX_ENTRY_CTRL_MASKBIT);
	(void)readl(e + PCI_MSIX_ENTRY_VECTOR_CTRL);	/* the mask is in force */
	writel(e + PCI_MSIX_ENTRY_ADDR_LO, (u32)addr);
	writel(e + PCI_MSIX_ENTRY_ADDR_HI, (u32)(addr >> 32));
	writel(e + PCI_MSIX_ENTRY_DATA, data);
	writel(e + PCI_MSIX_ENTRY_VECTOR_CTRL, ctrl);
	return 0;
}

/**
 * pci_msix_count - how many MSI-X vectors a function offers
 * @dev: the function
 *
 * Returns the Table Size (1-2048), or 0 without an MSI-X capability.
 */
int pci_msix_count(const struct pci_dev *dev)
{
	if (!dev->pd_msix_cap)
		return 0;
	return (pci_read16(dev, dev->pd_msix_cap + PCI_MSIX_FLAGS) & PCI_MSIX_FLAGS_QSIZE) + 1;
}

/* Map entries 0..nvec-1 of the table from the BAR the capability names. */
static int msix_map_table(struct pci_dev *dev, unsigned nvec)
{
	u32 tbl = pci_read32(dev, dev->pd_msix_cap + PCI_MSIX_TABLE);
	unsigned bir = tbl & PCI_MSIX_TABLE_BIR;
	u64 off = tbl & PCI_MSIX_TABLE_OFFSET;
	const struct pci_bar *b;

	if (bir >= ARRAY_SIZE(dev->pd_bar))
		return -ENODEV;
	b = &dev->pd_bar[bir];
	if ((b->pb_type != PCI_BAR_MEM32 && b->pb_type != PCI_BAR_MEM64) || !b->pb_base)
		return -ENODEV;
	if (off + (u64)nvec * PCI_MSIX_ENTRY_SIZE > b->pb_size)
		return -ERANGE;
	dev->pd_msix_table = ioremap(b->pb_base + off, nvec * PCI_MSIX_ENTRY_SIZE);
	if (!dev->pd_msix_table)
		return -ENOMEM;
	return 0;
}

/**
 * pci_enable_msix - switch a function to MSI-X with up to @nvec vectors
 * @dev: a function with an MSI-X capability
 * @irqs: filled with the IRQ of entries 0..n-1
 * @nvec: how many the driver would like (at least 1)
 *
 * Maps the vector table, allocates an IRQ per entry, writes each entry
 * while the whole function is masked, then unmasks it, enables MSI-X and
 * disables INTx; memory decode is turned on for the table.  Returns n,
 * the number of vectors enabled (nvec, or fewer when the table is
 * smaller), -ENODEV without the capability, a usable table BAR or a local
 * APIC, -EBUSY when MSI or MSI-X is already on, -ENOSPC without free
 * vectors.  Vectors allocated before a failure stay allocated.  On
 * failure the function is left as it was, and the caller falls back to
 * pci_enable_msi() or pci_intx_irq().
 */
int pci_enable_msix(struct pci_dev *dev, int *irqs, unsigned nvec)
{
	unsigned i, n = (unsigned)pci_msix_count(dev);
	int err;

	if (!n || !nvec)
		return -ENODEV;
	if (dev->pd_msi_on || dev->pd_msix_nvec)
		return -EBUSY;
	if (nvec < n)
		n = nvec;
	for (i = 0; i < n; i++)
		irqs[i] = -1;
	err = msix_map_table(dev, n);
	if (err)
		return err;
	pci_set_command(dev, PCI_COMMAND_MEMORY, 0);

	/* 6.8.2.3: with Function Mask set no entry sends, so each can be written. */
	msix_set_ctl(dev, PCI_MSIX_FLAGS_ENABLE | PCI_MSIX_FLAGS_MASKALL, 0);
	for (i = 0; i < n; i++) {
		volatile u8 *e = msix_entry(dev, i);
		u64 addr;
		u32 data;
		int irq = msi_irq_alloc(&addr, &data);

		if (irq < 0) {
			err = irq;
			goto off;
		}
		irqs[i] = irq;
		writel(e + PCI_MSIX_ENTRY_VECTOR_CTRL, PCI_MSIX_ENTRY_CTRL_MASKBIT);
		writel(e + PCI_MSIX_ENTRY_ADDR_LO, (u32)addr);
		writel(e + PCI_MSIX_ENTRY_ADDR_HI, (u32)(addr >> 32));
		writel(e + PCI_MSIX_ENTRY_DATA, data);
		writel(e + PCI_MSIX_ENTRY_VECTOR_CTRL, 0);
	}
	dev->pd_msix_nvec = (u16)n;
	dev->pd_irq = irqs[0];
	for (i = 0; i < n; i++)
		msi_irq_set_writer((unsigned)irqs[i], msix_rewrite, dev, i);
	pci_set_command(dev, PCI_COMMAND_INTX_DISABLE, 0);
	msix_set_ctl(dev, 0, PCI_MSIX_FLAGS_MASKALL);
	return (int)n;

off:
	msix_set_ctl(dev, 0, PCI_MSIX_FLAGS_ENABLE | PCI_MSIX_FLAGS_MASKALL);
	iounmap((void *)dev->pd_msix_table);
	dev->pd_msix_table = NULL;
	return err;
}

/**
 * pci_msix_mask - stop one MSI-X vector from sending
 * @dev: a function with MSI-X on; @entry: below the count enabled
 *
 * The device keeps the event pending (6.8.2.9) until pci_msix_unmask().
 * Out-of-range entries are ignored.
 */
void pci_msix_mask(struct pci_dev *dev, unsigned entry)
{
	if (entry >= dev->pd_msix_nvec)
		return;
	writel(msix_entry(dev, entry) + PCI_MSIX_ENTRY_VECTOR_CTRL, PCI_MSIX_ENTRY_CTRL_MASKBIT);
	/* Read back: the mask is in force when this returns. */
	(void)readl(msix_entry(dev, entry) + PCI_MSIX_ENTRY_VECTOR_CTRL);
}

/**
 * pci_msix_unmask - let one MSI-X vector send again
 * @dev: a function with MSI-X on; @entry: below the count enabled
 */
void pci_msix_unmask(struct pci_dev *dev, unsigned entry)
{
	if (entry >= dev->pd_msix_nvec)
		return;
	writel(msix_entry(dev, entry) + PCI_MSIX_ENTRY_VECTOR_CTRL, 0);
}

/**
 * pci_disable_msix - back to INTx
 * @dev: the function (nothing happens when MSI-X is off)
 *
 * Masks every entry, turns MSI-X off and INTx on, unmaps the table.  The
 * IRQs stay allocated; the caller frees its handlers first.
 */
void pci_disable_msix(struct pci_dev *dev)
{
	unsigned i;

	if (!dev->pd_msix_nvec)
		return;
	for (i = 0; i < dev->pd_msix_nvec; i++)
		pci_msix_mask(dev, i);
	msix_set_ctl(dev, 0, PCI_MSIX_FLAGS_ENABLE | PCI_MSIX_FLAGS_MASKALL);
	pci_set_command(dev, 0, PCI_COMMAND_INTX_DISABLE);
	iounmap((void *)dev->pd_msix_table);
	dev->pd_msix_table = NULL;
	dev->pd_msix_nvec = 0;
	dev->pd_irq = -1;
}
