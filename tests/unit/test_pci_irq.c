/*
 * Host tests of drivers/pci/pci_irq.c, the INTx routing policy and MSI
 * enabling, and of drivers/pci/pci_ich.c, the Intel route registers,
 * over the fake configuration space and a fake of the APIC calls: PIC
 * mode uses the firmware's Interrupt Line as is; I/O APIC mode asks the
 * I/O APIC to make that ISA line PCI-shaped, unless an ICH's DxxIR
 * registers (a memory window here) route the pin, swizzled through
 * bridges, to PIRQ n and so GSI 16 + n; functions without a pin or a
 * routed line get none; MSI programs the capability with what the CPU
 * side allocated and falls back cleanly.
 */
#include "tests/unit/unit.h"
#include "tests/unit/fakes/apic_fake.h"
#include "tests/unit/fakes/pci_fake.h"
#include "tests/unit/fakes/fakes.h"
#include "drivers/pci/ichreg.h"
#include "drivers/pci/pci.h"
#include "drivers/pci/pcireg.h"
#include "kernel/errno.h"
#include "lib/byteorder.h"

static struct pci_fake fake;
static struct pci_host host;

/* Five functions: AHCI with MSI on INTA/10, e1000 INTA/11, no pin, unrouted, line 0. */
static void setup(void)
{
	struct pci_fake_fn *fn;

	memset(&fake, 0, sizeof(fake));
	pci_host_init(&host, &pci_fake_ops, &fake);
	fn = pci_fake_add(&fake, PCI_BDF(0, 4, 0), 0x8086, 0x2922, 0x010601, 0);
	pci_fake_irq(fn, 1, 10);
	pci_fake_msi(fn, 0x80, true, false);
	fn = pci_fake_add(&fake, PCI_BDF(0, 3, 0), 0x8086, 0x100e, 0x020000, 0);
	pci_fake_irq(fn, 1, 11);
	fn = pci_fake_add(&fake, PCI_BDF(0, 1, 0), 0x8086, 0x7000, 0x060100, 0);
	pci_fake_irq(fn, 0, 0);
	fn = pci_fake_add(&fake, PCI_BDF(0, 5, 0), 0x1af4, 0x1001, 0x010000, 0);
	pci_fake_irq(fn, 2, 0xff);
	fn = pci_fake_add(&fake, PCI_BDF(0, 6, 0), 0x1af4, 0x1001, 0x010000, 0);
	pci_fake_irq(fn, 1, 0);
	CHECK_EQ(pci_scan(&host), 5);
	host_ioapic_on = false;
	host_ioapic_pci_ret = 0;
	host_ioapic_pci_last = -1;
	host_ioapic_gsi_ret = 0;
	host_ioapic_gsi_last = -1;
	host_msi_next = 40;
}

static void teardown(void)
{
	pci_host_destroy(&host);
	CHECK_EQ(host_slab_live, 0);
}

static void test_pic_mode(void)
{
	struct pci_dev *d;

	setup();
	d = pci_find_bdf(&host, PCI_BDF(0, 3, 0));
	CHECK_EQ(pci_intx_irq(d), 11);
	CHECK_EQ(d->pd_irq, 11);
	CHECK_EQ(host_ioapic_pci_last, -1);
	d = pci_find_bdf(&host, PCI_BDF(0, 1, 0));
	CHECK_EQ(pci_intx_irq(d), -ENODEV);
	CHECK_EQ(d->pd_irq, -1);
	d = pci_find_bdf(&host, PCI_BDF(0, 5, 0));
	CHECK_EQ(pci_intx_irq(d), -ENODEV);
	d = pci_find_bdf(&host, PCI_BDF(0, 6, 0));
	CHECK_EQ(pci_intx_irq(d), -ENODEV);
	teardown();
}

static void test_ioapic_mode(void)
{
	struct pci_dev *d;

	setup();
	host_ioapic_on = true;
	d = pci_find_bdf(&host, PCI_BDF(0, 4, 0));
	CHECK_EQ(pci_intx_irq(d), 10);
	CHECK_EQ(host_ioapic_pci_last, 10);
	/* The ISA line stayed on the 8259: still usable there. */
	host_ioapic_pci_ret = -ENODEV;
	d = pci_find_bdf(&host, PCI_BDF(0, 3, 0));
	CHECK_EQ(pci_intx_irq(d), 11);
	CHECK_EQ(host_ioapic_pci_last, 11);
	/* A real failure is passed on, and no IRQ is recorded. */
	host_ioapic_pci_ret = -EBUSY;
	d->pd_irq = -1;
	CHECK_EQ(pci_intx_irq(d), -EBUSY);
	CHECK_EQ(d->pd_irq, -1);
	teardown();
}

static void test_msi(void)
{
	struct pci_fake_fn *fn;
	struct pci_dev *d;

	setup();
	d = pci_find_bdf(&host, PCI_BDF(0, 4, 0));
	fn = pci_fake_find(&fake, PCI_BDF(0, 4, 0));
	CHECK_EQ(pci_enable_msi(d), 40);
	CHECK_EQ(d->pd_irq, 40);
	CHECK(d->pd_msi_on);
	CHECK_EQ(pci_fake_get(fn, 0x80 + PCI_MSI_ADDRESS_LO, 4), 0xfee00000);
	CHECK_EQ(pci_fake_get(fn, 0x80 + PCI_MSI_DATA_64, 2), 32 + 40);
	CHECK(pci_fake_get(fn, 0x80 + PCI_MSI_FLAGS, 2) & PCI_MSI_FLAGS_ENABLE);
	CHECK(pci_fake_get(fn, PCI_COMMAND, 2) & PCI_COMMAND_INTX_DISABLE);
	pci_disable_msi(d);
	CHECK(!d->pd_msi_on);
	CHECK_EQ(d->pd_irq, -1);
	CHECK_EQ(pci_fake_get(fn, 0x80 + PCI_MSI_FLAGS, 2) & PCI_MSI_FLAGS_ENABLE, 0);
	CHECK_EQ(pci_fake_get(fn, PCI_COMMAND, 2) & PCI_COMMAND_INTX_DISABLE, 0);
	pci_disable_msi(d);	/* twice is harmless */

	/* No local APIC (PIC-only machine): nothing programmed, INTx next. */
	host_msi_next = -ENODEV;
	CHECK_EQ(pci_enable_msi(d), -ENODEV);
	CHECK(!d->pd_msi_on);
	CHECK_EQ(pci_fake_get(fn, 0x80 + PCI_MSI_FLAGS, 2) & PCI_MSI_FLAGS_ENABLE, 0);
	CHECK_EQ(pci_intx_irq(d), 10);

	/* No capability at all. */
	d = pci_find_bdf(&host, PCI_BDF(0, 3, 0));
	host_msi_next = 41;
	CHECK_EQ(pci_enable_msi(d), -ENODEV);
	CHECK_EQ(host_msi_next, 41);
	teardown();
}

/*
 * An ICH9 as QEMU's q35 has it, on top of setup()'s functions: the LPC
 * bridge at 00:1f.0 with RCBA on, AHCI at 00:1f.2 (INTA#, line 10), a
 * root port at 00:1c.0 and, behind it, a PCI bridge at 01:00.0 with a
 * NIC in its slot 3 (INTA#, line 11).  dir[] is the DxxIR window.
 */
static u8 dir[ICH_RCRB_DIR_LEN];

static struct pci_fake_fn *setup_ich(u32 rcba)
{
	struct pci_fake_fn *lpc, *fn;

	setup();
	pci_host_destroy(&host);
	lpc = pci_fake_add(&fake, PCI_BDF(0, 31, 0), 0x8086, 0x2918, 0x060100, 0x80);
	pci_fake_set(lpc, ICH_LPC_RCBA, 4, rcba);
	pci_fake_set(lpc, ICH_LPC_PIRQA_ROUT, 4, 0x0b0b0a0a);
	memset(lpc->ff_wmask + ICH_LPC_PIRQA_ROUT, 0xff, 4);
	memset(lpc->ff_wmask + ICH_LPC_PIRQE_ROUT, 0xff, 4);
	fn = pci_fake_add(&fake, PCI_BDF(0, 31, 2), 0x8086, 0x2922, 0x010601, 0);
	pci_fake_irq(fn, 1, 10);
	fn = pci_fake_add(&fake, PCI_BDF(0, 28, 0), 0x8086, 0x2940, 0x060400, 1);
	pci_fake_bridge(fn, 0, 1, 2);
	fn = pci_fake_add(&fake, PCI_BDF(1, 0, 0), 0x1b36, 0x000e, 0x060400, 1);
	pci_fake_bridge(fn, 1, 2, 2);
	fn = pci_fake_add(&fake, PCI_BDF(2, 3, 0), 0x8086, 0x100e, 0x020000, 0);
	pci_fake_irq(fn, 1, 11);
	CHECK_EQ(pci_scan(&host), 10);
	memset(dir, 0, sizeof(dir));
	put_le16(dir + ICH_D31IR - ICH_RCRB_DIR_FIRST, 0x3212);	/* INTA# -> PIRQC */
	put_le16(dir + ICH_D28IR - ICH_RCRB_DIR_FIRST, 0x7654);	/* INTD# -> PIRQH */
	put_le16(dir + ICH_D25IR - ICH_RCRB_DIR_FIRST, 0x3210);	/* no device 25 */
	return lpc;
}

/* Find the router and read the routes, as pci_x86.c does. */
static struct pci_dev *read_routes(int want)
{
	struct pci_dev *lpc;
	phys_addr_t rcba = 0;

	lpc = pci_ich_router(&host, &rcba);
	CHECK(lpc != NULL);
	CHECK_EQ(rcba, 0xfed1c000);
	CHECK_EQ(pci_ich_read_routes(&host, lpc, dir), want);
	return lpc;
}

static void test_chipset_route(void)
{
	struct pci_fake_fn *lpc = setup_ich(0xfed1c001);
	struct pci_dev *d;

	read_routes(2);
	CHECK_EQ(host.ph_intx.ir_known, (1u << 31) | (1u << 28));
	host_ioapic_on = true;
	host_ioapic_gsi_ret = 100;
	d = pci_find_bdf(&host, PCI_BDF(0, 31, 2));
	CHECK_EQ(pci_intx_irq(d), 118);		/* PIRQC: GSI 18 */
	CHECK_EQ(host_ioapic_gsi_last, 18);
	CHECK(host_ioapic_gsi_level_low);
	CHECK_EQ(d->pd_irq, 118);
	CHECK_EQ(host_ioapic_pci_last, -1);	/* the ISA line was not touched */
	/* PIRQC leaves the 8259; the other PIRQs stay where firmware put them. */
	CHECK_EQ(pci_fake_get(lpc, ICH_LPC_PIRQA_ROUT, 4), 0x0b8b0a0a);

	/* Slot 3, INTA#, through two bridges: INTD# at 01:00.0, INTD# at 00:1c.0. */
	d = pci_find_bdf(&host, PCI_BDF(2, 3, 0));
	CHECK_EQ(pci_intx_irq(d), 123);		/* D28IR INTD#: PIRQH, GSI 23 */
	CHECK_EQ(host_ioapic_gsi_last, 23);
	CHECK_EQ(pci_fake_get(lpc, ICH_LPC_PIRQE_ROUT + 3, 1) & ICH_PIRQ_ROUT_IRQEN,
		 ICH_PIRQ_ROUT_IRQEN);

	/* 8259 mode: the registers do not apply. */
	host_ioapic_on = false;
	host_ioapic_gsi_last = -1;
	CHECK_EQ(pci_intx_irq(d), 11);
	CHECK_EQ(host_ioapic_gsi_last, -1);
	teardown();
}

/* Where the chipset says nothing, the Interrupt Line rule stands. */
static void test_chipset_fallback(void)
{
	struct pci_fake_fn *lpc;
	struct pci_dev *d;
	phys_addr_t rcba;

	/* A device no route register covers (00:03.0). */
	setup_ich(0xfed1c001);
	read_routes(2);
	host_ioapic_on = true;
	d = pci_find_bdf(&host, PCI_BDF(0, 3, 0));
	CHECK_EQ(pci_intx_irq(d), 11);
	CHECK_EQ(host_ioapic_pci_last, 11);
	CHECK_EQ(host_ioapic_gsi_last, -1);
	/* The I/O APIC cannot take the GSI. */
	host_ioapic_gsi_ret = -ENXIO;
	d = pci_find_bdf(&host, PCI_BDF(0, 31, 2));
	CHECK_EQ(pci_intx_irq(d), 10);
	CHECK_EQ(host_ioapic_gsi_last, 18);
	teardown();

	/* A register reading all ones: nothing decodes there. */
	setup_ich(0xfed1c001);
	put_le16(dir + ICH_D31IR - ICH_RCRB_DIR_FIRST, 0xffff);
	read_routes(1);
	host_ioapic_on = true;
	CHECK_EQ(pci_intx_irq(pci_find_bdf(&host, PCI_BDF(0, 31, 2))), 10);
	CHECK_EQ(host_ioapic_gsi_last, -1);
	teardown();

	/* RCBA off, then an LPC bridge that has none (ICH5). */
	lpc = setup_ich(0xfed1c000);
	CHECK(pci_ich_router(&host, &rcba) == NULL);
	CHECK_STR(host.ph_intx.ir_why, "RCBA disabled");
	teardown();
	lpc = setup_ich(0xfed1c001);
	pci_fake_set(lpc, PCI_DEVICE_ID, 2, 0x24d0);
	pci_host_destroy(&host);
	CHECK_EQ(pci_scan(&host), 10);
	CHECK(pci_ich_router(&host, &rcba) == NULL);
	host_ioapic_on = true;
	CHECK_EQ(pci_intx_irq(pci_find_bdf(&host, PCI_BDF(0, 31, 2))), 10);
	CHECK_EQ(host_ioapic_gsi_last, -1);
	teardown();
}

static const struct unit_case cases[] = {
	{ "chipset_route", test_chipset_route },
	{ "chipset_fallback", test_chipset_fallback },
	{ "pic_mode", test_pic_mode },
	{ "ioapic_mode", test_ioapic_mode },
	{ "msi", test_msi },
};

UNIT_MAIN("pci_irq", cases)
