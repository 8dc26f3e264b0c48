/*
 * Host tests of drivers/pci/pci_irq.c, the INTx routing policy and MSI
 * enabling, over the fake configuration space and a fake of the APIC
 * calls: PIC mode uses the firmware's Interrupt Line as is; I/O APIC mode
 * asks the I/O APIC to make that ISA line PCI-shaped; functions without a
 * pin or a routed line get none; MSI programs the capability with what
 * the CPU side allocated and falls back cleanly.
 */
#include "tests/unit/unit.h"
#include "tests/unit/fakes/apic_fake.h"
#include "tests/unit/fakes/pci_fake.h"
#include "tests/unit/fakes/fakes.h"
#include "drivers/pci/pci.h"
#include "drivers/pci/pcireg.h"
#include "kernel/errno.h"

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

static const struct unit_case cases[] = {
	{ "pic_mode", test_pic_mode },
	{ "ioapic_mode", test_ioapic_mode },
	{ "msi", test_msi },
};

UNIT_MAIN("pci_irq", cases)
