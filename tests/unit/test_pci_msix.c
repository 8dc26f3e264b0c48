/*
 * Host tests of drivers/pci/pci_msix.c over the fake configuration space,
 * the fake MSI allocator and a fake ioremap that hands out a memory
 * array standing for the BAR: the table is found through Table BIR and
 * offset, every entry gets the address/data of its own IRQ and ends
 * unmasked, the function is enabled with Function Mask clear and INTx
 * off, fewer vectors than asked come back when the table is small,
 * masking touches one entry, and the failures (no capability, MSI on, no
 * vectors, table past the BAR, an I/O BAR) leave the function as it was.
 */
#include "tests/unit/unit.h"
#include "tests/unit/fakes/apic_fake.h"
#include "tests/unit/fakes/pci_fake.h"
#include "tests/unit/fakes/fakes.h"
#include "drivers/pci/pci.h"
#include "drivers/pci/pcireg.h"
#include "kernel/apic.h"
#include "kernel/irqchip.h"
#include "kernel/errno.h"
#include "kernel/mm/vmap.h"

#define BAR_BASE	0xfebf0000u
#define BAR_SIZE	0x4000u
#define TBL_OFF		0x2000u
#define CAP		0x40

static struct pci_fake fake;
static struct pci_host host;
static u8 bar_mem[BAR_SIZE];
static int mapped;		/* ioremap calls not yet undone */
static u64 last_phys;

void *ioremap(phys_addr_t phys, size_t size)
{
	if (phys < BAR_BASE || phys + size > BAR_BASE + BAR_SIZE)
		return NULL;
	mapped++;
	last_phys = phys;
	return bar_mem + (phys - BAR_BASE);
}

void iounmap(void *addr)
{
	CHECK((u8 *)addr >= bar_mem && (u8 *)addr < bar_mem + BAR_SIZE);
	mapped--;
}

static u32 entry32(unsigned i, unsigned off)
{
	u32 v;

	memcpy(&v, bar_mem + TBL_OFF + i * PCI_MSIX_ENTRY_SIZE + off, 4);
	return v;
}

/* One function: 8-entry table in BAR0 at TBL_OFF, MSI too; bir picks the BAR. */
static struct pci_dev *setup(unsigned tsize, unsigned bir)
{
	struct pci_fake_fn *fn;
	unsigned i;

	memset(&fake, 0, sizeof(fake));
	memset(bar_mem, 0, sizeof(bar_mem));
	for (i = 0; i < tsize && TBL_OFF + (i + 1) * PCI_MSIX_ENTRY_SIZE <= BAR_SIZE; i++)
		bar_mem[TBL_OFF + i * PCI_MSIX_ENTRY_SIZE + PCI_MSIX_ENTRY_VECTOR_CTRL] = 1;
	mapped = 0;
	pci_host_init(&host, &pci_fake_ops, &fake);
	fn = pci_fake_add(&fake, PCI_BDF(0, 4, 0), 0x1b36, 0x0010, 0x010802, 0);
	pci_fake_irq(fn, 1, 11);
	pci_fake_bar(fn, 0, PCI_BAR_MEM_TYPE_64, BAR_SIZE, BAR_BASE);
	pci_fake_bar(fn, 2, PCI_BAR_SPACE_IO, 0x20, 0xc000);
	pci_fake_msi(fn, 0x80, true, false);
	pci_fake_cap(fn, CAP, PCI_CAP_ID_MSIX);
	pci_fake_set(fn, CAP + PCI_MSIX_FLAGS, 2, (u16)(tsize - 1));
	pci_fake_wmask(fn, CAP + PCI_MSIX_FLAGS, 2,
		       PCI_MSIX_FLAGS_ENABLE | PCI_MSIX_FLAGS_MASKALL);
	pci_fake_set(fn, CAP + PCI_MSIX_TABLE, 4, TBL_OFF | bir);
	pci_fake_set(fn, CAP + PCI_MSIX_PBA, 4, 0x3000 | bir);
	CHECK_EQ(pci_scan(&host), 1);
	host_msi_next = 40;
	return pci_find_bdf(&host, PCI_BDF(0, 4, 0));
}

static void teardown(void)
{
	pci_host_destroy(&host);
	CHECK_EQ(host_slab_live, 0);
	CHECK_EQ(mapped, 0);
}

static void test_enable(void)
{
	struct pci_dev *d = setup(8, 0);
	int irqs[3];
	unsigned i;
	u16 ctl;

	CHECK_EQ(d->pd_msix_cap, CAP);
	CHECK_EQ(pci_msix_count(d), 8);
	CHECK_EQ(pci_enable_msix(d, irqs, 3), 3);
	CHECK_EQ(last_phys, (u64)BAR_BASE + TBL_OFF);
	for (i = 0; i < 3; i++) {
		u64 addr;
		u32 data;

		CHECK_EQ(irqs[i], 40 + (int)i);
		msi_compose(0, (u8)(IRQ_VECTOR_BASE + irqs[i]), &addr, &data);
		CHECK_EQ(entry32(i, PCI_MSIX_ENTRY_ADDR_LO), (u32)addr);
		CHECK_EQ(entry32(i, PCI_MSIX_ENTRY_ADDR_HI), (u32)(addr >> 32));
		CHECK_EQ(entry32(i, PCI_MSIX_ENTRY_DATA), data);
		CHECK_EQ(entry32(i, PCI_MSIX_ENTRY_VECTOR_CTRL), 0);
	}
	CHECK_EQ(entry32(3, PCI_MSIX_ENTRY_VECTOR_CTRL), 1);	/* unused: untouched */
	ctl = pci_read16(d, CAP + PCI_MSIX_FLAGS);
	CHECK(ctl & PCI_MSIX_FLAGS_ENABLE);
	CHECK(!(ctl & PCI_MSIX_FLAGS_MASKALL));
	CHECK(pci_read16(d, PCI_COMMAND) & PCI_COMMAND_INTX_DISABLE);
	CHECK(pci_read16(d, PCI_COMMAND) & PCI_COMMAND_MEMORY);
	CHECK_EQ(d->pd_msix_nvec, 3);
	CHECK_EQ(d->pd_irq, 40);

	/* Already on: MSI-X twice, or MSI beside it. */
	CHECK_EQ(pci_enable_msix(d, irqs, 1), -EBUSY);
	CHECK_EQ(pci_enable_msi(d), -EBUSY);
	CHECK(!d->pd_msi_on);

	pci_msix_mask(d, 1);
	CHECK_EQ(entry32(1, PCI_MSIX_ENTRY_VECTOR_CTRL), 1);
	CHECK_EQ(entry32(0, PCI_MSIX_ENTRY_VECTOR_CTRL), 0);
	pci_msix_mask(d, 5);	/* beyond what is enabled: ignored */
	CHECK_EQ(entry32(5, PCI_MSIX_ENTRY_VECTOR_CTRL), 1);
	pci_msix_unmask(d, 1);
	CHECK_EQ(entry32(1, PCI_MSIX_ENTRY_VECTOR_CTRL), 0);

	pci_disable_msix(d);
	CHECK_EQ(d->pd_msix_nvec, 0);
	CHECK_EQ(d->pd_irq, -1);
	CHECK(!(pci_read16(d, CAP + PCI_MSIX_FLAGS) & PCI_MSIX_FLAGS_ENABLE));
	CHECK(!(pci_read16(d, PCI_COMMAND) & PCI_COMMAND_INTX_DISABLE));
	for (i = 0; i < 3; i++)
		CHECK_EQ(entry32(i, PCI_MSIX_ENTRY_VECTOR_CTRL), 1);
	pci_disable_msix(d);	/* twice is harmless */
	teardown();
}

static void test_small_table(void)
{
	struct pci_dev *d = setup(2, 0);
	int irqs[4] = { 7, 7, 7, 7 };

	CHECK_EQ(pci_enable_msix(d, irqs, 4), 2);
	CHECK_EQ(irqs[0], 40);
	CHECK_EQ(irqs[1], 41);
	CHECK_EQ(irqs[2], 7);	/* beyond n: not written */
	pci_disable_msix(d);
	teardown();
}

static void test_failures(void)
{
	static int many[1024];
	struct pci_dev *d;
	int irqs[2];

	/* MSI on already. */
	d = setup(4, 0);
	CHECK_EQ(pci_enable_msi(d), 40);
	CHECK_EQ(pci_enable_msix(d, irqs, 2), -EBUSY);
	pci_disable_msi(d);
	teardown();

	/* No vector left on the CPU side: off again, table unmapped. */
	d = setup(4, 0);
	host_msi_next = -ENOSPC;
	CHECK_EQ(pci_enable_msix(d, irqs, 2), -ENOSPC);
	CHECK(!(pci_read16(d, CAP + PCI_MSIX_FLAGS) &
		(PCI_MSIX_FLAGS_ENABLE | PCI_MSIX_FLAGS_MASKALL)));
	CHECK(!(pci_read16(d, PCI_COMMAND) & PCI_COMMAND_INTX_DISABLE));
	CHECK_EQ(d->pd_msix_nvec, 0);
	teardown();

	/* The table names an I/O BAR, or an empty one. */
	d = setup(4, 2);
	CHECK_EQ(pci_enable_msix(d, irqs, 2), -ENODEV);
	teardown();
	d = setup(4, 5);
	CHECK_EQ(pci_enable_msix(d, irqs, 2), -ENODEV);
	teardown();

	/* A table that runs past the end of its BAR. */
	d = setup(0x7ff + 1, 0);
	CHECK_EQ(pci_enable_msix(d, irqs, 2), 2);	/* 2 entries fit */
	pci_disable_msix(d);
	CHECK_EQ(pci_enable_msix(d, many, 1024), -ERANGE);
	teardown();

	/* No capability, or zero vectors asked. */
	d = setup(4, 0);
	d->pd_msix_cap = 0;
	CHECK_EQ(pci_msix_count(d), 0);
	CHECK_EQ(pci_enable_msix(d, irqs, 2), -ENODEV);
	d->pd_msix_cap = CAP;
	CHECK_EQ(pci_enable_msix(d, irqs, 0), -ENODEV);
	teardown();
}

/* Steering a live vector: the entry gets the new message, its mask as it was. */
static void test_steer(void)
{
	struct pci_dev *d = setup(8, 0);
	int irqs[3];
	u64 addr;
	u32 data;

	CHECK_EQ(pci_enable_msix(d, irqs, 3), 3);
	CHECK(host_msi_writers[41].write != NULL);
	CHECK_EQ(host_msi_writers[41].cookie, 1);
	CHECK_EQ(host_msi_steer(41, 3), 0);
	msi_compose(3, (u8)(IRQ_VECTOR_BASE + 41), &addr, &data);
	CHECK_EQ(entry32(1, PCI_MSIX_ENTRY_ADDR_LO), (u32)addr);
	CHECK_EQ((entry32(1, PCI_MSIX_ENTRY_ADDR_LO) >> 12) & 0xff, 3);	/* SDM 11.11.1 */
	CHECK_EQ(entry32(1, PCI_MSIX_ENTRY_DATA), data);
	CHECK_EQ(entry32(1, PCI_MSIX_ENTRY_VECTOR_CTRL), 0);		/* unmasked again */
	msi_compose(0, (u8)(IRQ_VECTOR_BASE + 40), &addr, &data);
	CHECK_EQ(entry32(0, PCI_MSIX_ENTRY_ADDR_LO), (u32)addr);	/* others untouched */

	/* A vector the driver masked stays masked after the rewrite. */
	pci_msix_mask(d, 2);
	CHECK_EQ(host_msi_steer(42, 1), 0);
	CHECK_EQ((entry32(2, PCI_MSIX_ENTRY_ADDR_LO) >> 12) & 0xff, 1);
	CHECK_EQ(entry32(2, PCI_MSIX_ENTRY_VECTOR_CTRL), 1);

	pci_disable_msix(d);
	CHECK_EQ(host_msi_steer(41, 2), -ENODEV);	/* MSI-X off: refused */
	teardown();
}

/* A single MSI is rewritten only with per-vector masking. */
static void test_steer_msi(void)
{
	struct pci_dev *d = setup(4, 0);	/* its MSI has no mask bits */
	int irq = pci_enable_msi(d);

	CHECK_EQ(irq, 40);
	CHECK_EQ(host_msi_steer(40, 2), -EBUSY);
	pci_disable_msi(d);
	CHECK_EQ(host_msi_steer(40, 2), -ENODEV);
	teardown();
}

static const struct unit_case cases[] = {
	{ "enable", test_enable },
	{ "steer", test_steer },
	{ "steer_msi", test_steer_msi },
	{ "small_table", test_small_table },
	{ "failures", test_failures },
};

UNIT_MAIN("pci_msix", cases)
