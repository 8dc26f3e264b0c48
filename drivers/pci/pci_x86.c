/*
 * The system's PCI host on x86: configuration mechanism #1 (PCI 3.0
 * 3.2.2.3.2), the one pci_host the kernel has (pci_sys), its scan at
 * arch_initcall time, and pci_register_driver() for drivers.
 *
 * Mechanism #1 is two ports: a 32-bit CONFIG_ADDRESS at 0xCF8 selecting
 * bus/device/function/dword, and CONFIG_DATA at 0xCFC, where byte and
 * word accesses pick their lanes by the low address bits.  The pair is one
 * critical section, so every access holds conf1_lock with interrupts off.
 * Extended (PCIe ECAM) space is not used: nothing here needs offsets past
 * 255.
 */
#include "drivers/pci/ichreg.h"
#include "drivers/pci/pci.h"
#include "drivers/pci/pcireg.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/io.h"
#include "kernel/printk.h"
#include "kernel/mm/vmap.h"

struct conf1 {
	spinlock_t	c1_lock;	/* the CONFIG_ADDRESS/CONFIG_DATA pair */
};

static struct conf1 conf1 = { .c1_lock = SPINLOCK_INIT("pci_conf1") };
struct pci_host pci_sys;

static u32 conf1_address(u16 bdf, unsigned off)
{
	return PCI_CONF1_ENABLE | ((u32)bdf << PCI_CONF1_FN_SHIFT) | (off & PCI_CONF1_REG_MASK);
}

static u32 conf1_read(void *ctx, u16 bdf, unsigned off, unsigned size)
{
	struct conf1 *c = ctx;
	unsigned long flags;
	u16 port = (u16)(PCI_CONF1_DATA + (off & 3));
	u32 v;

	spin_lock_irqsave(&c->c1_lock, flags);
	outl(PCI_CONF1_ADDRESS, conf1_address(bdf, off));
	if (size == 1)
		v = inb(port);
	else if (size == 2)
		v = inw(port);
	else
		v = inl(port);
	spin_unlock_irqrestore(&c->c1_lock, flags);
	return v;
}

static void conf1_write(void *ctx, u16 bdf, unsigned off, unsigned size, u32 val)
{
	struct conf1 *c = ctx;
	unsigned long flags;
	u16 port = (u16)(PCI_CONF1_DATA + (off & 3));

	spin_lock_irqsave(&c->c1_lock, flags);
	outl(PCI_CONF1_ADDRESS, conf1_address(bdf, off));
	if (size == 1)
		outb(port, (u8)val);
	else if (size == 2)
		outw(port, (u16)val);
	else
		outl(port, val);
	spin_unlock_irqrestore(&c->c1_lock, flags);
}

static const struct pci_cfg_ops conf1_ops = {
	.name = "conf1",
	.read = conf1_read,
	.write = conf1_write,
};

/*
 * Mechanism #1 is there when CONFIG_ADDRESS keeps the Enable bit written
 * to it (a 32-bit register; with no PCI the port floats or is byte-wide).
 */
static bool conf1_present(void)
{
	unsigned long flags;
	u32 saved, back;

	spin_lock_irqsave(&conf1.c1_lock, flags);
	saved = inl(PCI_CONF1_ADDRESS);
	outl(PCI_CONF1_ADDRESS, PCI_CONF1_ENABLE);
	back = inl(PCI_CONF1_ADDRESS);
	outl(PCI_CONF1_ADDRESS, saved);
	spin_unlock_irqrestore(&conf1.c1_lock, flags);
	return back == PCI_CONF1_ENABLE;
}

/*
 * The chipset's INTx route registers, read once, before any driver
 * probes (pci_ich.c): map the DxxIR window of the Chipset Configuration
 * block, decode it, unmap.  Without them pci_intx_irq() keeps to the
 * Interrupt Line.
 */
static void pci_x86_intx_routes(struct pci_host *host)
{
	struct pci_dev *lpc;
	phys_addr_t rcba;
	void *dir;
	int n;

	lpc = pci_ich_router(host, &rcba);
	if (!lpc) {
		pr_info("pci: no chipset INTx routes (%s)\n", host->ph_intx.ir_why);
		return;
	}
	dir = ioremap(rcba + ICH_RCRB_DIR_FIRST, ICH_RCRB_DIR_LEN);
	if (!dir) {
		host->ph_intx.ir_why = "RCBA not mapped";
		pr_warn("pci: cannot map RCBA %#llx\n", (unsigned long long)rcba);
		return;
	}
	n = pci_ich_read_routes(host, lpc, dir);
	iounmap(dir);
	if (n)
		pr_info("pci: chipset INTx routes for %d bus-0 devices (RCBA %#llx)\n", n,
			(unsigned long long)rcba);
	else
		pr_info("pci: no chipset INTx routes (%s)\n", host->ph_intx.ir_why);
}

static int pci_x86_init(void)
{
	int n;

	pci_host_init(&pci_sys, &conf1_ops, &conf1);
	if (!conf1_present()) {
		pr_warn("pci: no configuration mechanism #1, no PCI devices\n");
		return -ENODEV;
	}
	n = pci_scan(&pci_sys);
	if (n < 0) {
		pr_err("pci: scan failed: %s\n", errstr(n));
		return n;
	}
	pr_info("pci: %d functions\n", n);
	pci_x86_intx_routes(&pci_sys);
	return 0;
}
arch_initcall(pci_x86_init);

/**
 * pci_register_driver - make a driver known to the system's PCI host
 * @drv: static, lives forever
 *
 * Binds every matching function already found; returns 0 or -EEXIST,
 * -ENOSPC.  Call from an initcall (device_initcall for disk drivers).
 */
int pci_register_driver(const struct pci_driver *drv)
{
	return pci_host_add_driver(&pci_sys, drv);
}

/**
 * pci_map_bar - map a memory BAR (AHCI's ABAR, say) wherever it sits
 * @dev: the function; @bar: BAR index of a 32- or 64-bit memory BAR
 *
 * Returns the uncached mapping of the whole BAR (iounmap() it), or NULL
 * for an I/O or unused BAR, one firmware left unassigned, one larger than
 * the address space, or no space.
 * Memory decode is the caller's to enable (pci_set_command).
 */
void *pci_map_bar(struct pci_dev *dev, unsigned bar)
{
	const struct pci_bar *b;

	if (bar >= ARRAY_SIZE(dev->pd_bar))
		return NULL;
	b = &dev->pd_bar[bar];
	if ((b->pb_type != PCI_BAR_MEM32 && b->pb_type != PCI_BAR_MEM64) || !b->pb_base)
		return NULL;
	/* A 64-bit BAR may decode 4 GiB or more: no size_t holds that here. */
	if (b->pb_size > (size_t)-1)
		return NULL;
	return ioremap(b->pb_base, (size_t)b->pb_size);
}
