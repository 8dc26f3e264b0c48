/*
 * Intel ICH/PCH chipsets: where each bus-0 device's INTx pins go.
 *
 * From the ICH6 on, the chipset's own PCI functions (SATA, USB, audio,
 * LAN, the PCI Express root ports and what sits behind them) have their
 * INTA#-INTD# steered to PIRQA-H by the Device Interrupt Route registers
 * (DxxIR) among the Chipset Configuration Registers, a 16 KiB block the
 * LPC bridge (D31:F0) decodes at its Root Complex Base Address.  In APIC
 * mode PIRQ n is I/O APIC input 16 + n, level-triggered, active low.
 * The registers and their sections are in ichreg.h.
 *
 * This file knows which LPC bridges have them, finds RCBA, and decodes
 * the registers of the devices present on bus 0 into the host's
 * pci_intx_routes; the kernel maps the block (pci_x86.c), tests hand in
 * memory.  Everything else, including the swizzle below bridges, is the
 * routing policy's (pci_irq.c).
 *
 * Later PCHs (100-series on) moved these registers behind the sideband
 * interface, and earlier ICHs have no RCBA: both keep the firmware's
 * Interrupt Line rule, as does every non-Intel chipset.
 */
#include "drivers/pci/ichreg.h"
#include "drivers/pci/pci.h"
#include "drivers/pci/pcireg.h"
#include "kernel/errno.h"
#include "kernel/io.h"
#include "kernel/printk.h"

/* LPC bridge device IDs with RCBA and the DxxIR layout (ichreg.h). */
static const struct {
	u16	first, last;
} ich_lpc_ids[] = {
	{ 0x2640, 0x2642 },	/* ICH6 */
	{ 0x2670, 0x267f },	/* 631xESB/632xESB */
	{ 0x27b0, 0x27bd },	/* ICH7, NM10 */
	{ 0x2810, 0x2815 },	/* ICH8 */
	{ 0x2912, 0x2919 },	/* ICH9; QEMU q35's is 2918 */
	{ 0x3a14, 0x3a1a },	/* ICH10 */
	{ 0x3b00, 0x3b16 },	/* 5-series, 3400 */
	{ 0x1c40, 0x1c5f },	/* 6-series */
	{ 0x1d40, 0x1d41 },	/* C600 */
	{ 0x1e40, 0x1e5f },	/* 7-series */
	{ 0x8c40, 0x8c5f },	/* 8-series */
	{ 0x9c40, 0x9c47 },	/* 8-series LP */
};

/* Which device numbers have a route register, and where (ICH9 10.1; PCH adds 19-23). */
static const struct {
	u8	dev;
	u16	reg;
} ich_dir_regs[] = {
	{ 31, ICH_D31IR }, { 29, ICH_D29IR }, { 28, ICH_D28IR }, { 27, ICH_D27IR },
	{ 26, ICH_D26IR }, { 25, ICH_D25IR }, { 23, ICH_D23IR }, { 22, ICH_D22IR },
	{ 21, ICH_D21IR }, { 20, ICH_D20IR }, { 19, ICH_D19IR },
};

static bool ich_has_rcba(const struct pci_dev *lpc)
{
	unsigned i;

	if (lpc->pd_vendor != PCI_VENDOR_INTEL || lpc->pd_class != PCI_CLASS_BRIDGE ||
	    lpc->pd_subclass != PCI_SUBCLASS_BRIDGE_ISA)
		return false;
	for (i = 0; i < ARRAY_SIZE(ich_lpc_ids); i++)
		if (lpc->pd_device >= ich_lpc_ids[i].first && lpc->pd_device <= ich_lpc_ids[i].last)
			return true;
	return false;
}

/**
 * pci_ich_router - the Intel LPC bridge whose route registers can be read
 * @host: a scanned host; @rcba: set to the Chipset Configuration block
 *
 * Returns the LPC bridge (00:1f.0) of an ICH6-or-later chipset that has
 * RCBA enabled, or NULL with host->ph_intx.ir_why saying why not.
 */
struct pci_dev *pci_ich_router(struct pci_host *host, phys_addr_t *rcba)
{
	struct pci_dev *lpc = pci_find_bdf(host, PCI_BDF(0, ICH_LPC_DEV, ICH_LPC_FN));
	u32 v;

	if (!lpc || !ich_has_rcba(lpc)) {
		host->ph_intx.ir_why = "no Intel ICH6+ LPC bridge at 00:1f.0";
		return NULL;
	}
	v = pci_read32(lpc, ICH_LPC_RCBA);
	if (!(v & ICH_RCBA_EN) || !(v & ICH_RCBA_BA)) {
		host->ph_intx.ir_why = "RCBA disabled";
		return NULL;
	}
	*rcba = v & ICH_RCBA_BA;
	return lpc;
}

/*
 * PIRQ pirq now goes to its I/O APIC input only: clear its ISA routing
 * (IRQEN = 1, "not routed to the 8259"), as ICH9 13.1 PIRQx_ROUT
 * foresees for I/O APIC delivery.  Otherwise a chipset that also drives
 * the ISA line (QEMU's does) raises the interrupt twice, once on a line
 * whose other users would count it as theirs and unclaimed.
 */
static void ich_pirq_apic_only(struct pci_dev *lpc, unsigned pirq)
{
	unsigned off = pirq < 4 ? ICH_LPC_PIRQA_ROUT + pirq : ICH_LPC_PIRQE_ROUT + pirq - 4;

	KASSERT(pirq < ICH_NR_PIRQ);
	pci_write8(lpc, off, (u8)(pci_read8(lpc, off) | ICH_PIRQ_ROUT_IRQEN));
}

/**
 * pci_ich_read_routes - decode the DxxIR registers into host->ph_intx
 * @host: a scanned host; @lpc: from pci_ich_router()
 * @dir: the registers from ICH_RCRB_DIR_FIRST on (ICH_RCRB_DIR_LEN bytes)
 *
 * Only devices present on bus 0 are taken, and a register with reserved
 * bits set (all ones: nothing decodes there) is ignored.  Returns the
 * number of devices whose routes are known; boot only.
 */
int pci_ich_read_routes(struct pci_host *host, struct pci_dev *lpc, const volatile void *dir)
{
	struct pci_intx_routes *rt = &host->ph_intx;
	const volatile u8 *base = dir;
	unsigned i, fn, pin;
	int n = 0;

	for (i = 0; i < ARRAY_SIZE(ich_dir_regs); i++) {
		unsigned dev = ich_dir_regs[i].dev;
		bool present = false;
		u16 v;

		for (fn = 0; fn < PCI_MAX_FN; fn++)
			present |= pci_find_bdf(host, PCI_BDF(0, dev, fn)) != NULL;
		if (!present)
			continue;
		v = readw(base + (ich_dir_regs[i].reg - ICH_RCRB_DIR_FIRST));
		if (v & ICH_DIR_RESERVED)
			continue;
		for (pin = 1; pin <= 4; pin++)
			rt->ir_pirq[dev][pin - 1] = (u8)((v >> ICH_DIR_SHIFT(pin)) & ICH_DIR_PIRQ);
		rt->ir_known |= 1u << dev;
		n++;
	}
	if (n) {
		rt->ir_router = lpc;
		rt->ir_gsi_base = ICH_PIRQ_GSI_BASE;
		rt->ir_apic_only = ich_pirq_apic_only;
	} else {
		rt->ir_why = "no readable route register";
	}
	return n;
}
