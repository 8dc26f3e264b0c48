/*
 * Host tests of the PCI core (drivers/pci/pci.c, pci_class.c) over a fake
 * configuration space: topologies shaped like QEMU's q35 and pc machines,
 * bridges, 64-bit and 16-bit-I/O BARs, capability lists that loop, MSI
 * programming, and driver matching.
 */
#include "tests/unit/unit.h"
#include "tests/unit/fakes/pci_fake.h"
#include "tests/unit/fakes/fakes.h"
#include "drivers/pci/pci.h"
#include "drivers/pci/pcireg.h"
#include "kernel/errno.h"

static struct pci_fake fake;
static struct pci_host host;

static void reset(void)
{
	memset(&fake, 0, sizeof(fake));
	pci_host_init(&host, &pci_fake_ops, &fake);
}

static void teardown(void)
{
	pci_host_destroy(&host);
	CHECK_EQ(host_slab_live, 0);
}

/* QEMU q35 as SeaBIOS leaves it (-machine q35, default devices). */
static void build_q35(void)
{
	struct pci_fake_fn *fn;

	pci_fake_add(&fake, PCI_BDF(0, 0, 0), 0x8086, 0x29c0, 0x060000, 0);
	fn = pci_fake_add(&fake, PCI_BDF(0, 1, 0), 0x1234, 0x1111, 0x030000, 0);
	pci_fake_bar(fn, 0, PCI_BAR_MEM_PREFETCH, 16 * MiB, 0xfd000000);
	pci_fake_bar(fn, 2, 0, 4 * KiB, 0xfebf0000);
	fn = pci_fake_add(&fake, PCI_BDF(0, 2, 0), 0x8086, 0x10d3, 0x020000, 0);
	pci_fake_bar(fn, 0, 0, 128 * KiB, 0xfeb80000);
	pci_fake_bar(fn, 2, PCI_BAR_SPACE_IO, 32, 0xc080);
	pci_fake_irq(fn, 1, 10);
	pci_fake_add(&fake, PCI_BDF(0, 31, 0), 0x8086, 0x2918, 0x060100,
		     PCI_HEADER_TYPE_MULTIFN);
	fn = pci_fake_add(&fake, PCI_BDF(0, 31, 2), 0x8086, 0x2922, 0x010601,
			  PCI_HEADER_TYPE_MULTIFN);
	pci_fake_bar(fn, 4, PCI_BAR_SPACE_IO, 32, 0xc0a0);
	pci_fake_bar(fn, 5, 0, 4 * KiB, 0xfebf1000);
	pci_fake_irq(fn, 1, 10);
	pci_fake_msi(fn, 0x80, true, false);
	pci_fake_cap(fn, 0xa8, PCI_CAP_ID_SATA);
	pci_fake_set(fn, PCI_COMMAND, 2, PCI_COMMAND_IO | PCI_COMMAND_MEMORY);
	fn = pci_fake_add(&fake, PCI_BDF(0, 31, 3), 0x8086, 0x2930, 0x0c0500,
			  PCI_HEADER_TYPE_MULTIFN);
	pci_fake_bar(fn, 4, PCI_BAR_SPACE_IO, 64, 0x0700);
	pci_fake_irq(fn, 1, 10);
}

/* QEMU pc (i440FX + PIIX3). */
static void build_pc(void)
{
	struct pci_fake_fn *fn;

	pci_fake_add(&fake, PCI_BDF(0, 0, 0), 0x8086, 0x1237, 0x060000, 0);
	pci_fake_add(&fake, PCI_BDF(0, 1, 0), 0x8086, 0x7000, 0x060100,
		     PCI_HEADER_TYPE_MULTIFN);
	fn = pci_fake_add(&fake, PCI_BDF(0, 1, 1), 0x8086, 0x7010, 0x010180, 0);
	pci_fake_bar(fn, 4, PCI_BAR_SPACE_IO, 16, 0xc040);
	pci_fake_set(fn, PCI_COMMAND, 2, PCI_COMMAND_IO);
	fn = pci_fake_add(&fake, PCI_BDF(0, 1, 3), 0x8086, 0x7113, 0x068000, 0);
	pci_fake_irq(fn, 1, 9);
	fn = pci_fake_add(&fake, PCI_BDF(0, 2, 0), 0x1234, 0x1111, 0x030000, 0);
	pci_fake_bar(fn, 0, PCI_BAR_MEM_PREFETCH, 16 * MiB, 0xfd000000);
	fn = pci_fake_add(&fake, PCI_BDF(0, 3, 0), 0x8086, 0x100e, 0x020000, 0);
	pci_fake_bar(fn, 0, 0, 128 * KiB, 0xfebc0000);
	pci_fake_bar(fn, 1, PCI_BAR_SPACE_IO, 64, 0xc000);
	pci_fake_irq(fn, 1, 11);
}

static void test_q35_enumeration(void)
{
	struct pci_dev *d;
	static const u16 order[] = {
		PCI_BDF(0, 0, 0), PCI_BDF(0, 1, 0), PCI_BDF(0, 2, 0),
		PCI_BDF(0, 31, 0), PCI_BDF(0, 31, 2), PCI_BDF(0, 31, 3),
	};
	unsigned i = 0;

	reset();
	build_q35();
	CHECK_EQ(pci_scan(&host), 6);
	list_for_each_entry(d, &host.ph_devices, pd_link) {
		CHECK(i < ARRAY_SIZE(order));
		if (i < ARRAY_SIZE(order))
			CHECK_EQ(d->pd_bdf, order[i]);
		i++;
	}
	d = pci_find_bdf(&host, PCI_BDF(0, 31, 2));
	CHECK(d != NULL);
	if (d) {
		CHECK_EQ(d->pd_vendor, 0x8086);
		CHECK_EQ(d->pd_device, 0x2922);
		CHECK_EQ(d->pd_class, 0x01);
		CHECK_EQ(d->pd_subclass, 0x06);
		CHECK_EQ(d->pd_progif, 0x01);
		CHECK_EQ(d->pd_bar[5].pb_type, PCI_BAR_MEM32);
		CHECK_EQ(d->pd_bar[5].pb_base, 0xfebf1000);
		CHECK_EQ(d->pd_bar[5].pb_size, 4096);
		CHECK_EQ(d->pd_bar[4].pb_type, PCI_BAR_IO);
		CHECK_EQ(d->pd_bar[4].pb_base, 0xc0a0);
		CHECK_EQ(d->pd_bar[4].pb_size, 32);
		CHECK_EQ(d->pd_bar[0].pb_type, PCI_BAR_NONE);
		CHECK_EQ(d->pd_irq_pin, 1);
		CHECK_EQ(d->pd_irq_line, 10);
		CHECK_EQ(d->pd_msi_cap, 0x80);
		CHECK_EQ(pci_find_cap(d, PCI_CAP_ID_SATA), 0xa8);
		CHECK_EQ(pci_find_cap(d, PCI_CAP_ID_PM), 0);
		/* Decode was on: the probe turned it off and put it back. */
		CHECK_EQ(pci_read16(d, PCI_COMMAND), PCI_COMMAND_IO | PCI_COMMAND_MEMORY);
		CHECK_EQ(pci_read32(d, PCI_BAR0 + 5 * 4), 0xfebf1000);
	}
	d = pci_find_bdf(&host, PCI_BDF(0, 1, 0));
	CHECK(d && d->pd_bar[0].pb_prefetch && d->pd_bar[0].pb_size == 16 * MiB);
	d = pci_find_bdf(&host, PCI_BDF(0, 31, 2));
	if (d) {
		u16 port = 0;
		u32 len = 0;

		CHECK_EQ(pci_bar_ioport(d, 4, &port, &len), 0);
		CHECK_EQ(port, 0xc0a0);
		CHECK_EQ(len, 32);
		CHECK_EQ(pci_bar_ioport(d, 5, &port, &len), -EINVAL);
		CHECK_EQ(pci_bar_ioport(d, 0, &port, &len), -EINVAL);
		CHECK_EQ(pci_bar_ioport(d, 6, &port, &len), -EINVAL);
		d->pd_bar[4].pb_base = 0;	/* firmware left it unassigned */
		CHECK_EQ(pci_bar_ioport(d, 4, &port, &len), -ENXIO);
	}
	CHECK(pci_find_bdf(&host, PCI_BDF(0, 31, 1)) == NULL);
	CHECK_EQ(fake.pf_hot_probes, 0);
	teardown();
}

static void test_pc_enumeration(void)
{
	struct pci_dev *d;

	reset();
	build_pc();
	CHECK_EQ(pci_scan(&host), 6);
	d = pci_find_bdf(&host, PCI_BDF(0, 1, 1));
	CHECK(d != NULL);
	if (d) {
		CHECK_EQ(d->pd_progif, 0x80);
		CHECK_EQ(d->pd_bar[4].pb_type, PCI_BAR_IO);
		CHECK_EQ(d->pd_bar[4].pb_base, 0xc040);
		CHECK_EQ(d->pd_bar[4].pb_size, 16);
		CHECK_EQ(d->pd_irq_pin, 0);
		CHECK_EQ(d->pd_msi_cap, 0);
		CHECK_EQ(pci_read16(d, PCI_COMMAND), PCI_COMMAND_IO);
	}
	d = pci_find_bdf(&host, PCI_BDF(0, 3, 0));
	CHECK(d && d->pd_irq_line == 11 && d->pd_bar[1].pb_size == 64);
	CHECK_EQ(fake.pf_hot_probes, 0);
	teardown();
}

/* A single-function device that also answers for functions 1..7. */
static void test_phantom_functions(void)
{
	reset();
	pci_fake_add(&fake, PCI_BDF(0, 5, 0), 0x1af4, 0x1001, 0x010000, 0);
	pci_fake_add(&fake, PCI_BDF(0, 5, 1), 0x1af4, 0x1001, 0x010000, 0);
	/* A function-0-less device is not there at all (PCI 3.0 6.2.1). */
	pci_fake_add(&fake, PCI_BDF(0, 6, 1), 0x1af4, 0x1001, 0x010000, 0);
	CHECK_EQ(pci_scan(&host), 1);
	CHECK_EQ(pci_scan(&host), -EBUSY);
	teardown();
}

static void test_bridges(void)
{
	struct pci_fake_fn *fn;
	struct pci_dev *d;

	reset();
	pci_fake_add(&fake, PCI_BDF(0, 0, 0), 0x8086, 0x29c0, 0x060000, 0);
	fn = pci_fake_add(&fake, PCI_BDF(0, 0x1e, 0), 0x8086, 0x244e, 0x060401,
			  PCI_HEADER_TYPE_BRIDGE);
	pci_fake_bridge(fn, 0, 1, 3);
	fn = pci_fake_add(&fake, PCI_BDF(1, 0, 0), 0x1b36, 0x0001, 0x060400,
			  PCI_HEADER_TYPE_BRIDGE);
	pci_fake_bridge(fn, 1, 3, 3);
	pci_fake_bar(fn, 0, 0, 4 * KiB, 0xfe800000);
	/* A bridge pointing back at bus 0, and one at its own bus: not followed. */
	fn = pci_fake_add(&fake, PCI_BDF(1, 2, 0), 0x1b36, 0x0001, 0x060400,
			  PCI_HEADER_TYPE_BRIDGE);
	pci_fake_bridge(fn, 1, 0, 0);
	fn = pci_fake_add(&fake, PCI_BDF(1, 3, 0), 0x1b36, 0x0001, 0x060400,
			  PCI_HEADER_TYPE_BRIDGE);
	pci_fake_bridge(fn, 1, 1, 1);
	/* Bus 3, two bridges down: a 64-bit prefetchable BAR above 4 GiB. */
	fn = pci_fake_add(&fake, PCI_BDF(3, 4, 0), 0x1b36, 0x0010, 0x010802, 0);
	pci_fake_bar(fn, 0, PCI_BAR_MEM_TYPE_64 | PCI_BAR_MEM_PREFETCH, 8 * GiB,
		     0x800000000ull);
	pci_fake_bar(fn, 2, PCI_BAR_MEM_TYPE_64, 16 * KiB, 0xfe600000);
	pci_fake_bar(fn, 4, PCI_BAR_SPACE_IO, 256, 0xd000);
	pci_fake_set(fn, PCI_COMMAND, 2, PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
	/* A 64-bit BAR whose device decodes only 36 address bits. */
	fn = pci_fake_add(&fake, PCI_BDF(3, 5, 0), 0x8086, 0x10d3, 0x020000, 0);
	pci_fake_bar(fn, 0, PCI_BAR_MEM_TYPE_64, 128 * KiB, 0x4fe000000ull);
	fn->ff_wmask[PCI_BAR0 + 4] = 0x0f;
	fn->ff_wmask[PCI_BAR0 + 5] = fn->ff_wmask[PCI_BAR0 + 6] = fn->ff_wmask[PCI_BAR0 + 7] = 0;
	/* A 64-bit BAR in the last slot has no upper half: not decoded. */
	pci_fake_bar(fn, 5, PCI_BAR_MEM_TYPE_64, 4 * KiB, 0xfe700000);
	/* Bus 2 exists but no bridge leads there: never scanned. */
	pci_fake_add(&fake, PCI_BDF(2, 0, 0), 0x8086, 0x100e, 0x020000, 0);

	CHECK_EQ(pci_scan(&host), 7);
	CHECK(pci_find_bdf(&host, PCI_BDF(2, 0, 0)) == NULL);
	d = pci_find_bdf(&host, PCI_BDF(3, 5, 0));
	CHECK(d && d->pd_bar[0].pb_type == PCI_BAR_MEM64);
	CHECK(d && d->pd_bar[0].pb_size == 128 * KiB);
	CHECK(d && d->pd_bar[0].pb_base == 0x4fe000000ull);
	CHECK(d && d->pd_bar[5].pb_type == PCI_BAR_NONE);
	d = pci_find_bdf(&host, PCI_BDF(1, 0, 0));
	CHECK(d && d->pd_secondary == 3 && d->pd_subordinate == 3);
	CHECK(d && d->pd_bar[0].pb_size == 4096);
	CHECK(d && d->pd_parent && d->pd_parent->pd_bdf == PCI_BDF(0, 0x1e, 0));
	d = pci_find_bdf(&host, PCI_BDF(3, 4, 0));
	CHECK(d != NULL);
	if (d) {
		CHECK(d->pd_parent && d->pd_parent->pd_bdf == PCI_BDF(1, 0, 0));
		CHECK_EQ(d->pd_bar[0].pb_type, PCI_BAR_MEM64);
		CHECK(d->pd_bar[0].pb_base == 0x800000000ull);
		CHECK(d->pd_bar[0].pb_size == 8 * GiB);
		CHECK(d->pd_bar[0].pb_prefetch);
		CHECK_EQ(d->pd_bar[1].pb_type, PCI_BAR_NONE);
		CHECK_EQ(d->pd_bar[2].pb_type, PCI_BAR_MEM64);
		CHECK_EQ(d->pd_bar[2].pb_size, 16 * KiB);
		CHECK_EQ(d->pd_bar[2].pb_base, 0xfe600000);
		CHECK_EQ(d->pd_bar[4].pb_size, 256);
		CHECK_EQ(pci_read32(d, PCI_BAR0 + 4), 0x8);
		CHECK_EQ(pci_read16(d, PCI_COMMAND), PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
	}
	CHECK_EQ(fake.pf_hot_probes, 0);
	teardown();
}

static void test_cap_loop(void)
{
	struct pci_fake_fn *fn;
	struct pci_dev *d;

	reset();
	fn = pci_fake_add(&fake, PCI_BDF(0, 4, 0), 0x8086, 0x2922, 0x010601, 0);
	pci_fake_cap(fn, 0x40, PCI_CAP_ID_PM);
	pci_fake_cap(fn, 0x50, PCI_CAP_ID_VNDR);
	fn->ff_cfg[0x50 + PCI_CAP_LIST_NEXT] = 0x40;	/* 0x40 -> 0x50 -> 0x40 ... */
	fn = pci_fake_add(&fake, PCI_BDF(0, 5, 0), 0x8086, 0x2922, 0x010601, 0);
	pci_fake_cap(fn, 0x60, PCI_CAP_ID_PM);
	fn->ff_cfg[0x60 + PCI_CAP_LIST_NEXT] = 0x10;	/* into the header */
	fn = pci_fake_add(&fake, PCI_BDF(0, 6, 0), 0x8086, 0x2922, 0x010601, 0);
	pci_fake_cap(fn, 0x60, PCI_CAP_ID_PM);
	fn->ff_cfg[0x60 + PCI_CAP_LIST_NEXT] = 0x63;	/* unaligned: low bits ignored */
	CHECK_EQ(pci_scan(&host), 3);
	d = pci_find_bdf(&host, PCI_BDF(0, 4, 0));
	CHECK(d && d->pd_msi_cap == 0);
	fake.pf_reads = 0;
	CHECK(d && pci_find_cap(d, PCI_CAP_ID_VNDR) == 0x50);
	CHECK(d && pci_find_cap(d, PCI_CAP_ID_MSI) == 0);
	CHECK(fake.pf_reads < 200);
	d = pci_find_bdf(&host, PCI_BDF(0, 5, 0));
	CHECK(d && pci_find_cap(d, PCI_CAP_ID_MSI) == 0);
	d = pci_find_bdf(&host, PCI_BDF(0, 6, 0));
	CHECK(d && pci_find_cap(d, PCI_CAP_ID_PM) == 0x60);
	CHECK(d && pci_find_cap(d, PCI_CAP_ID_MSI) == 0);
	teardown();
}

static void test_msi(void)
{
	struct pci_fake_fn *f64, *f32;
	struct pci_dev *d;

	reset();
	f64 = pci_fake_add(&fake, PCI_BDF(0, 4, 0), 0x8086, 0x2922, 0x010601, 0);
	pci_fake_cap(f64, 0x40, PCI_CAP_ID_PM);
	pci_fake_msi(f64, 0x80, true, true);
	f32 = pci_fake_add(&fake, PCI_BDF(0, 5, 0), 0x8086, 0x2922, 0x010601, 0);
	pci_fake_msi(f32, 0x50, false, false);
	pci_fake_add(&fake, PCI_BDF(0, 6, 0), 0x8086, 0x7010, 0x010180, 0);
	pci_fake_set(f64, 0x80 + PCI_MSI_FLAGS, 2,
		     pci_fake_get(f64, 0x80 + PCI_MSI_FLAGS, 2) | 0x20);	/* MME=2 left over */
	CHECK_EQ(pci_scan(&host), 3);

	d = pci_find_bdf(&host, PCI_BDF(0, 4, 0));
	CHECK(d && d->pd_msi_cap == 0x80);
	CHECK_EQ(pci_msi_program(d, 0xfee01000ull, 0x0041), 0);
	CHECK_EQ(pci_fake_get(f64, 0x80 + PCI_MSI_ADDRESS_LO, 4), 0xfee01000);
	CHECK_EQ(pci_fake_get(f64, 0x80 + PCI_MSI_ADDRESS_HI, 4), 0);
	CHECK_EQ(pci_fake_get(f64, 0x80 + PCI_MSI_DATA_64, 2), 0x0041);
	CHECK_EQ(pci_fake_get(f64, 0x80 + PCI_MSI_MASK_64, 4), 0);
	CHECK_EQ(pci_fake_get(f64, 0x80 + PCI_MSI_FLAGS, 2) &
		 (PCI_MSI_FLAGS_ENABLE | PCI_MSI_FLAGS_QSIZE), PCI_MSI_FLAGS_ENABLE);
	CHECK(pci_fake_get(f64, PCI_COMMAND, 2) & PCI_COMMAND_INTX_DISABLE);
	pci_msi_disable(d);
	CHECK_EQ(pci_fake_get(f64, 0x80 + PCI_MSI_FLAGS, 2) & PCI_MSI_FLAGS_ENABLE, 0);
	CHECK_EQ(pci_fake_get(f64, PCI_COMMAND, 2) & PCI_COMMAND_INTX_DISABLE, 0);

	d = pci_find_bdf(&host, PCI_BDF(0, 5, 0));
	CHECK(d && d->pd_msi_cap == 0x50);
	CHECK_EQ(pci_msi_program(d, 0x1fee00000ull, 0x30), -ERANGE);
	CHECK_EQ(pci_fake_get(f32, 0x50 + PCI_MSI_FLAGS, 2) & PCI_MSI_FLAGS_ENABLE, 0);
	CHECK_EQ(pci_msi_program(d, 0xfee00000ull, 0x30), 0);
	CHECK_EQ(pci_fake_get(f32, 0x50 + PCI_MSI_DATA_32, 2), 0x30);
	CHECK_EQ(pci_fake_get(f32, 0x50 + PCI_MSI_ADDRESS_LO, 4), 0xfee00000);

	d = pci_find_bdf(&host, PCI_BDF(0, 6, 0));
	CHECK(d && pci_msi_program(d, 0xfee00000ull, 0x30) == -ENODEV);
	teardown();
}

/* Status error bits are RW1C: a Command update must not clear them. */
static void test_command_keeps_status(void)
{
	struct pci_fake_fn *fn;
	struct pci_dev *d;

	reset();
	fn = pci_fake_add(&fake, PCI_BDF(0, 4, 0), 0x8086, 0x2922, 0x010601, 0);
	pci_fake_set(fn, PCI_STATUS, 2, PCI_STATUS_REC_MASTER_ABORT);
	CHECK_EQ(pci_scan(&host), 1);
	d = pci_find_bdf(&host, PCI_BDF(0, 4, 0));
	pci_set_command(d, PCI_COMMAND_MASTER | PCI_COMMAND_MEMORY, 0);
	CHECK_EQ(pci_read16(d, PCI_COMMAND), PCI_COMMAND_MASTER | PCI_COMMAND_MEMORY);
	CHECK_EQ(pci_read16(d, PCI_STATUS), PCI_STATUS_REC_MASTER_ABORT);
	pci_set_command(d, 0, PCI_COMMAND_MEMORY);
	CHECK_EQ(pci_read16(d, PCI_COMMAND), PCI_COMMAND_MASTER);
	pci_write16(d, PCI_STATUS, PCI_STATUS_REC_MASTER_ABORT);
	CHECK_EQ(pci_read16(d, PCI_STATUS), 0);
	teardown();
}

/* Drivers for the matching tests: record what they were offered. */
static unsigned probes_ahci, probes_ide, probes_decline, probes_fail;
static unsigned long last_data;

static int probe_ahci(struct pci_dev *dev, const struct pci_device_id *id)
{
	probes_ahci++;
	last_data = id->pid_data;
	dev->pd_drvdata = &probes_ahci;
	return 0;
}

static int probe_ide(struct pci_dev *dev, const struct pci_device_id *id)
{
	probes_ide++;
	return 0;
}

static int probe_decline(struct pci_dev *dev, const struct pci_device_id *id)
{
	probes_decline++;
	return -ENODEV;
}

static int probe_fail(struct pci_dev *dev, const struct pci_device_id *id)
{
	probes_fail++;
	return -EIO;
}

static const struct pci_device_id ahci_ids[] = {
	{ PCI_DEVICE(0x8086, 0x2922), .pid_data = 7 },
	{ PCI_DEVICE_CLASS(0x01, 0x06, 0x01), .pid_data = 1 },
	{ 0 }
};
static const struct pci_device_id ide_ids[] = {
	{ PCI_DEVICE_CLASS(0x01, 0x01, PCI_ANY_ID) },
	{ 0 }
};
static const struct pci_device_id storage_ids[] = {
	{ PCI_DEVICE_CLASS(0x01, PCI_ANY_ID, PCI_ANY_ID) },
	{ 0 }
};
static const struct pci_driver drv_ahci = { "ahci", ahci_ids, probe_ahci, NULL };
static const struct pci_driver drv_ide = { "ide", ide_ids, probe_ide, NULL };
static const struct pci_driver drv_decline = { "decline", storage_ids, probe_decline, NULL };
static const struct pci_driver drv_fail = { "fail", storage_ids, probe_fail, NULL };

static void test_match_table(void)
{
	struct pci_dev dev = { .pd_vendor = 0x1b4b, .pd_device = 0x9230,
			       .pd_class = 1, .pd_subclass = 6, .pd_progif = 1 };

	CHECK(pci_match_id(ahci_ids, &dev) == &ahci_ids[1]);
	dev.pd_vendor = 0x8086;
	dev.pd_device = 0x2922;
	CHECK(pci_match_id(ahci_ids, &dev) == &ahci_ids[0]);
	dev.pd_progif = 0;	/* vendor/device match whatever the class */
	dev.pd_device = 0x2829;
	CHECK(pci_match_id(ahci_ids, &dev) == NULL);
	CHECK(pci_match_id(ide_ids, &dev) == NULL);
	dev.pd_subclass = 1;
	dev.pd_progif = 0x8f;
	CHECK(pci_match_id(ide_ids, &dev) == &ide_ids[0]);
	CHECK(pci_match_id(NULL, &dev) == NULL);
}

static void test_driver_binding(void)
{
	struct pci_dev *d;

	reset();
	build_pc();
	/* The second AHCI of the tests: -device ich9-ahci on pc, at 00:04.0. */
	pci_fake_add(&fake, PCI_BDF(0, 4, 0), 0x8086, 0x2922, 0x010601, 0);
	probes_ahci = probes_ide = probes_decline = probes_fail = 0;
	/* Registered before the scan: bound by the scan itself. */
	CHECK_EQ(pci_host_add_driver(&host, &drv_decline), 0);
	CHECK_EQ(pci_host_add_driver(&host, &drv_ahci), 0);
	CHECK_EQ(pci_host_add_driver(&host, &drv_ahci), -EEXIST);
	CHECK(pci_scan(&host) > 0);
	d = pci_find_bdf(&host, PCI_BDF(0, 4, 0));
	CHECK(d && d->pd_driver == &drv_ahci && d->pd_drvdata == &probes_ahci);
	CHECK_EQ(probes_ahci, 1);
	CHECK_EQ(last_data, 7);
	/* The decliner saw both storage functions (AHCI and IDE) first. */
	CHECK_EQ(probes_decline, 2);
	d = pci_find_bdf(&host, PCI_BDF(0, 1, 1));
	CHECK(d && d->pd_driver == NULL);
	/* A failing driver leaves the function free for the next one. */
	CHECK_EQ(pci_host_add_driver(&host, &drv_fail), 0);
	CHECK_EQ(probes_fail, 1);
	CHECK(d && d->pd_driver == NULL);
	/* Registered after the scan: bound at registration. */
	CHECK_EQ(pci_host_add_driver(&host, &drv_ide), 0);
	CHECK_EQ(probes_ide, 1);
	CHECK(d && d->pd_driver == &drv_ide);
	CHECK_EQ(probes_ahci, 1);
	teardown();
}

static void test_driver_table_full(void)
{
	static struct pci_driver many[PCI_MAX_DRIVERS + 1];
	unsigned i;

	reset();
	for (i = 0; i < ARRAY_SIZE(many); i++) {
		many[i].name = "x";
		many[i].id_table = ide_ids;
		many[i].probe = probe_decline;
		CHECK_EQ(pci_host_add_driver(&host, &many[i]),
			 i < PCI_MAX_DRIVERS ? 0 : -ENOSPC);
	}
	teardown();
}

static void test_out_of_memory(void)
{
	reset();
	build_q35();
	host_slab_fail_after = 3;
	CHECK_EQ(pci_scan(&host), -ENOMEM);
	CHECK_EQ(host.ph_ndevs, 3);
	host_slab_fail_after = -1;
	teardown();
}

static void test_lspci_format(void)
{
	struct pci_dev *d;
	char buf[160];

	reset();
	build_q35();
	CHECK_EQ(pci_scan(&host), 6);
	CHECK_EQ(pci_host_add_driver(&host, &drv_ahci), 0);
	d = pci_find_bdf(&host, PCI_BDF(0, 31, 2));
	pci_format_dev(d, buf, sizeof(buf));
	CHECK_STR(buf, "00:1f.2 8086:2922 0106.01 SATA controller (AHCI)   irq 10  ahci");
	d->pd_irq = 24;
	d->pd_msi_on = true;
	pci_format_dev(d, buf, sizeof(buf));
	CHECK_STR(buf, "00:1f.2 8086:2922 0106.01 SATA controller (AHCI)   irq 24 msi  ahci");
	CHECK(pci_format_bar(&d->pd_bar[5], 5, buf, sizeof(buf)) > 0);
	CHECK_STR(buf, "        BAR5 mem32 0x00000000febf1000 size 0x1000");
	CHECK_EQ(pci_format_bar(&d->pd_bar[0], 0, buf, sizeof(buf)), 0);
	d = pci_find_bdf(&host, PCI_BDF(0, 0, 0));
	pci_format_dev(d, buf, sizeof(buf));
	CHECK_STR(buf, "00:00.0 8086:29c0 0600.00 host bridge              irq -  -");
	CHECK_STR(pci_class_name(0x01, 0x01, 0x80), "IDE controller");
	CHECK_STR(pci_class_name(0x0c, 0x03, 0x30), "USB controller (xHCI)");
	CHECK_STR(pci_class_name(0x0c, 0x03, 0x40), "USB controller");
	CHECK_STR(pci_class_name(0x01, 0x08, 0x02), "NVM controller (NVMe)");
	CHECK_STR(pci_class_name(0x01, 0x42, 0x00), "storage controller");
	CHECK_STR(pci_class_name(0x42, 0x00, 0x00), "unknown class");
	teardown();
}

static const struct unit_case cases[] = {
	{ "q35_enumeration", test_q35_enumeration },
	{ "pc_enumeration", test_pc_enumeration },
	{ "phantom_functions", test_phantom_functions },
	{ "bridges", test_bridges },
	{ "cap_loop", test_cap_loop },
	{ "msi", test_msi },
	{ "command_keeps_status", test_command_keeps_status },
	{ "match_table", test_match_table },
	{ "driver_binding", test_driver_binding },
	{ "driver_table_full", test_driver_table_full },
	{ "out_of_memory", test_out_of_memory },
	{ "lspci_format", test_lspci_format },
};

UNIT_MAIN("pci", cases)
