/*
 * Host tests of the IDE driver's PCI glue (drivers/ide/ide_pci.c) over
 * the fake configuration space: compatibility vs native mode per channel
 * from the prog-if (PCI IDE 1.0), BAR4 as the bus master, the PCI
 * interrupt in native mode, IDETIM decode on Intel PIIX, the quirk table
 * (PIO-only chips), the command register the driver leaves, and the ICH
 * cable detection and Ultra DMA timing.
 */
#include "tests/unit/unit.h"
#include "tests/unit/fakes/apic_fake.h"
#include "tests/unit/fakes/pci_fake.h"
#include "drivers/ata/atareg.h"
#include "drivers/ide/idevar.h"
#include "drivers/pci/pci.h"
#include "drivers/pci/pcireg.h"
#include "kernel/errno.h"

static struct pci_fake fake;
static struct pci_host host;
static struct ide_softc sc;

#define BDF	PCI_BDF(0, 1, 0)

/* One IDE function; BARs 0-3 as native-mode blocks, BAR4 the bus master. */
static struct pci_fake_fn *add(u16 vendor, u16 device, u8 progif, bool bars)
{
	struct pci_fake_fn *fn;

	memset(&fake, 0, sizeof(fake));
	memset(&sc, 0, sizeof(sc));
	pci_host_init(&host, &pci_fake_ops, &fake);
	fn = pci_fake_add(&fake, BDF, vendor, device, 0x010100 | progif, 0);
	if (bars) {
		pci_fake_bar(fn, 0, PCI_BAR_SPACE_IO, 8, 0xd000);
		pci_fake_bar(fn, 1, PCI_BAR_SPACE_IO, 4, 0xd100);
		pci_fake_bar(fn, 2, PCI_BAR_SPACE_IO, 8, 0xd200);
		pci_fake_bar(fn, 3, PCI_BAR_SPACE_IO, 4, 0xd300);
	}
	pci_fake_bar(fn, 4, PCI_BAR_SPACE_IO, 16, 0xc040);
	pci_fake_irq(fn, 1, 11);
	host_ioapic_on = false;
	return fn;
}

static struct pci_dev *scan(void)
{
	CHECK_EQ(pci_scan(&host), 1);
	return pci_find_bdf(&host, BDF);
}

static u16 command(void)
{
	return (u16)pci_fake_get(pci_fake_find(&fake, BDF), PCI_COMMAND, 2);
}

static int setup_sc(struct pci_dev *d)
{
	const struct pci_device_id *id = ide_pci_match(d);

	return ide_pci_setup(&sc, d, id ? id->pid_data : 0, 0);
}

static void test_piix3_legacy(void)
{
	struct pci_fake_fn *fn = add(0x8086, 0x7010, 0x80, false);
	struct pci_dev *d;

	pci_fake_set(fn, IDE_PIIX_IDETIM_PRI, 2, IDE_PIIX_IDETIM_DECODE);
	pci_fake_set(fn, IDE_PIIX_IDETIM_SEC, 2, IDE_PIIX_IDETIM_DECODE);
	d = scan();
	CHECK_EQ(ide_pci_match(d)->pid_data, IDE_Q_PIIX_DECODE);
	CHECK_EQ(setup_sc(d), 0);
	CHECK_STR(sc.sc_name, "pciide0");
	CHECK(!sc.sc_nodma);
	CHECK(sc.sc_chipset == NULL);		/* no cable detection, no UDMA timing */
	CHECK(!sc.sc_chan[0].ch_native && !sc.sc_chan[1].ch_native);
	CHECK_EQ(sc.sc_chan[0].ch_cmd, 0x1f0);
	CHECK_EQ(sc.sc_chan[0].ch_ctl + IDE_REG_ALTSTATUS, 0x3f6);
	CHECK_EQ(sc.sc_chan[0].ch_irq, 14);
	CHECK_EQ(sc.sc_chan[0].ch_bm, 0xc040);
	CHECK_EQ(sc.sc_chan[1].ch_cmd, 0x170);
	CHECK_EQ(sc.sc_chan[1].ch_ctl + IDE_REG_ALTSTATUS, 0x376);
	CHECK_EQ(sc.sc_chan[1].ch_irq, 15);
	CHECK_EQ(sc.sc_chan[1].ch_bm, 0xc048);
	CHECK_EQ(command() & (PCI_COMMAND_IO | PCI_COMMAND_MASTER), PCI_COMMAND_IO | PCI_COMMAND_MASTER);
	pci_host_destroy(&host);
}

static void test_piix_channel_off(void)
{
	struct pci_fake_fn *fn = add(0x8086, 0x7111, 0x80, false);

	pci_fake_set(fn, IDE_PIIX_IDETIM_PRI, 2, IDE_PIIX_IDETIM_DECODE);
	pci_fake_set(fn, IDE_PIIX_IDETIM_SEC, 2, 0);	/* the BIOS switched it off */
	CHECK_EQ(setup_sc(scan()), 0);
	CHECK_EQ(sc.sc_chan[0].ch_cmd, 0x1f0);
	CHECK_EQ(sc.sc_chan[1].ch_cmd, 0);
	pci_host_destroy(&host);
}

static void test_native_both(void)
{
	add(0x1234, 0x5678, 0x8f, true);
	CHECK_EQ(setup_sc(scan()), 0);
	CHECK(sc.sc_chan[0].ch_native && sc.sc_chan[1].ch_native);
	CHECK_EQ(sc.sc_chan[0].ch_cmd, 0xd000);
	CHECK_EQ(sc.sc_chan[0].ch_ctl, 0xd100);
	CHECK_EQ(sc.sc_chan[1].ch_cmd, 0xd200);
	CHECK_EQ(sc.sc_chan[1].ch_ctl, 0xd300);
	CHECK_EQ(sc.sc_chan[0].ch_irq, 11);	/* the PCI interrupt, shared by both */
	CHECK_EQ(sc.sc_chan[1].ch_irq, 11);
	CHECK_EQ(sc.sc_chan[1].ch_bm, 0xc048);
	pci_host_destroy(&host);
}

static void test_native_primary_only(void)
{
	add(0x1234, 0x5678, 0x80 | PCI_IDE_PROGIF_PRI_NATIVE, true);
	CHECK_EQ(setup_sc(scan()), 0);
	CHECK(sc.sc_chan[0].ch_native && !sc.sc_chan[1].ch_native);
	CHECK_EQ(sc.sc_chan[0].ch_cmd, 0xd000);
	CHECK_EQ(sc.sc_chan[1].ch_cmd, 0x170);
	CHECK_EQ(sc.sc_chan[1].ch_irq, 15);
	pci_host_destroy(&host);
}

static void test_native_without_interrupt(void)
{
	struct pci_fake_fn *fn = add(0x1234, 0x5678, 0x85, true);

	pci_fake_irq(fn, 0, 0);
	CHECK_EQ(setup_sc(scan()), 0);
	CHECK_EQ(sc.sc_chan[0].ch_cmd, 0);	/* no way to hear it: skipped */
	CHECK_EQ(sc.sc_chan[1].ch_cmd, 0);
	pci_host_destroy(&host);
}

static void test_no_bus_master(void)
{
	add(0x1234, 0x5678, 0x00, false);
	CHECK_EQ(setup_sc(scan()), 0);
	CHECK(sc.sc_nodma);
	CHECK_EQ(sc.sc_chan[0].ch_bm, 0);
	CHECK_EQ(command() & PCI_COMMAND_MASTER, 0);
	CHECK_EQ(command() & PCI_COMMAND_IO, PCI_COMMAND_IO);
	pci_host_destroy(&host);
}

static void test_blacklisted(void)
{
	struct pci_dev *d;

	add(0x1095, 0x0640, 0x80, false);	/* CMD640 */
	d = scan();
	CHECK_EQ(ide_pci_match(d)->pid_data, IDE_Q_NODMA);
	CHECK_EQ(setup_sc(d), 0);
	CHECK(sc.sc_nodma);
	CHECK_EQ(sc.sc_chan[0].ch_bm, 0);
	CHECK_EQ(command() & PCI_COMMAND_MASTER, 0);
	pci_host_destroy(&host);
}

static void test_not_ide(void)
{
	struct pci_dev *d;

	memset(&fake, 0, sizeof(fake));
	pci_host_init(&host, &pci_fake_ops, &fake);
	pci_fake_add(&fake, BDF, 0x8086, 0x2922, 0x010601, 0);	/* AHCI */
	d = scan();
	CHECK(ide_pci_match(d) == NULL);
	CHECK_EQ(ide_pci_setup(&sc, d, 0, 0), -ENODEV);
	pci_host_destroy(&host);
}

/*
 * ICH: the BIOS's cable detection per channel (IDE_CONFIG bits 5:4, 7:6)
 * and Ultra DMA timing per drive (SDMA_CNT, SDMA_TIM, IDE_CONFIG clocks),
 * with the values of Linux's ata_piix; PIIX3 has neither.
 */
static void test_ich_cable_and_udma(void)
{
	struct pci_fake_fn *fn = add(0x8086, 0x24db, 0x8a, false);	/* ICH5 */
	const struct ide_chipset *cs;
	struct pci_dev *d;

	pci_fake_set(fn, IDE_PIIX_IDETIM_PRI, 2, IDE_PIIX_IDETIM_DECODE);
	pci_fake_set(fn, IDE_PIIX_IDETIM_SEC, 2, IDE_PIIX_IDETIM_DECODE);
	pci_fake_set(fn, IDE_ICH_CONFIG, 2, 0x0020 | 0x0001);	/* 80 wires on the primary */
	pci_fake_wmask(fn, IDE_ICH_SDMA_CNT, 1, 0x0f);
	pci_fake_wmask(fn, IDE_ICH_SDMA_TIM, 2, 0x3333);
	pci_fake_wmask(fn, IDE_ICH_CONFIG, 2, 0xf0ff);
	d = scan();
	CHECK_EQ(setup_sc(d), 0);
	cs = sc.sc_chipset;
	CHECK(cs != NULL);
	if (!cs)
		return;
	CHECK(cs->cs_cable80(&sc.sc_chan[0]));
	CHECK(!cs->cs_cable80(&sc.sc_chan[1]));

	CHECK_EQ(cs->cs_set_mode(&sc.sc_chan[0], 0, ATA_XFER_UDMA | 5), 0);
	CHECK_EQ(pci_fake_get(fn, IDE_ICH_SDMA_CNT, 1), 0x01);
	CHECK_EQ(pci_fake_get(fn, IDE_ICH_SDMA_TIM, 2), 0x0001);
	CHECK_EQ(pci_fake_get(fn, IDE_ICH_CONFIG, 2), 0x1020);	/* 100 MHz, not 66 */
	CHECK_EQ(cs->cs_set_mode(&sc.sc_chan[1], 1, ATA_XFER_UDMA | 4), 0);	/* drive 3 */
	CHECK_EQ(pci_fake_get(fn, IDE_ICH_SDMA_CNT, 1), 0x09);
	CHECK_EQ(pci_fake_get(fn, IDE_ICH_SDMA_TIM, 2), 0x2001);
	CHECK_EQ(pci_fake_get(fn, IDE_ICH_CONFIG, 2), 0x1028);
	CHECK_EQ(cs->cs_set_mode(&sc.sc_chan[0], 0, ATA_XFER_UDMA | 2), 0);
	CHECK_EQ(pci_fake_get(fn, IDE_ICH_SDMA_TIM, 2), 0x2002);
	CHECK_EQ(pci_fake_get(fn, IDE_ICH_CONFIG, 2), 0x0028);	/* 33 MHz */
	CHECK_EQ(cs->cs_set_mode(&sc.sc_chan[0], 0, -1), 0);		/* PIO: Ultra DMA off */
	CHECK_EQ(pci_fake_get(fn, IDE_ICH_SDMA_CNT, 1), 0x08);
	CHECK_EQ(cs->cs_set_mode(&sc.sc_chan[0], 0, ATA_XFER_UDMA | 6), -EINVAL);
}

static const struct unit_case cases[] = {
	{ "ide/pci/piix3_legacy", test_piix3_legacy },
	{ "ide/pci/piix_channel_off", test_piix_channel_off },
	{ "ide/pci/native_both", test_native_both },
	{ "ide/pci/native_primary_only", test_native_primary_only },
	{ "ide/pci/native_without_interrupt", test_native_without_interrupt },
	{ "ide/pci/no_bus_master", test_no_bus_master },
	{ "ide/pci/blacklisted_pio_only", test_blacklisted },
	{ "ide/pci/not_ide", test_not_ide },
	{ "ide/pci/ich_cable_and_udma", test_ich_cable_and_udma },
};
UNIT_MAIN("ide_pci", cases)
