/*
 * Host tests of IDE discovery (drivers/ide/ide_probe.c) through
 * ide_attach()/ide_detach(), against the simulated channel of ide_sim.c
 * with the registry and IRQ calls faked (gendisk_fake.c): master and
 * slave disks (also a slave slower out of reset), an ATAPI device left
 * alone, a floating bus, a missing slave (QEMU's way and a real bus's),
 * and a device that never drops BSY, each found (or not) within a
 * bounded time; the bus master of a simplex controller; the queue
 * limits a disk gets; and its configuration: a bad IDENTIFY checksum
 * tolerated, Ultra DMA limited by a 40-wire cable, a write cache without
 * FLUSH CACHE turned off.
 */
#include "tests/unit/unit.h"
#include "tests/unit/ide_sim.h"
#include "tests/unit/fakes/gendisk_fake.h"
#include "tests/unit/fakes/page_fake.h"
#include "tests/unit/fakes/sched_fake.h"
#include "tests/unit/host/shim.h"
#include "block/bdev.h"
#include "block/genhd.h"
#include "kernel/errno.h"
#include "kernel/time.h"

#define SECTORS		(200ULL << 21)		/* 200 GiB */

static struct ide_sim sim;
static struct ide_softc sc;

void udelay(u32 us) { host_now_ns += (u64)us * NSEC_PER_USEC; }
void mdelay(u32 ms) { host_now_ns += (u64)ms * NSEC_PER_MSEC; }

/* A controller whose primary channel is the simulator; the secondary is off. */
static void setup(void)
{
	bio_init_pools();
	memset(&sc, 0, sizeof(sc));
	strcpy(sc.sc_name, "pciide0");
	ide_sim_init(&sim, &sc.sc_chan[0]);
	sc.sc_chan[0].ch_irq = IDE_PRI_IRQ;
}

/* Attach; returns how long it took, in fake milliseconds. */
static u64 attach(int *err)
{
	u64 t0 = host_now_ns;

	*err = ide_attach(&sc);
	return (host_now_ns - t0) / NSEC_PER_MSEC;
}

static void teardown(void)
{
	ide_detach(&sc);
	CHECK_EQ(host_nr_disks, 0);
	CHECK_EQ(host_nr_irqs, 0);
	CHECK_EQ(host_majors_live, 0);
	host_gendisk_reset();
	ide_sim_free(&sim);
}

static void test_master_and_slave(void)
{
	struct request_queue *q;
	int err;

	setup();
	ide_sim_add_disk(&sim, 0, SECTORS);
	ide_sim_add_disk(&sim, 1, 1 << 20);
	CHECK(attach(&err) < 100);
	CHECK_EQ(err, 0);
	CHECK_EQ(host_nr_disks, 2);
	CHECK_STR(host_disks[0]->gd_name, "hda");
	CHECK_STR(host_disks[1]->gd_name, "hdb");
	CHECK_EQ(host_disks[0]->gd_capacity, SECTORS);
	CHECK_EQ(host_disks[1]->gd_capacity, 1 << 20);
	CHECK_STR(host_disks[0]->gd_model, "SIM HARDDISK");
	CHECK_EQ(host_disks[0]->gd_major, 3);
	CHECK_EQ(host_disks[1]->gd_first_minor, 64);
	CHECK_EQ(host_nr_irqs, 1);
	CHECK_EQ(host_irqs[0].hi_irq, IDE_PRI_IRQ);
	CHECK(sc.sc_chan[0].ch_drive[0].dr_dma);
	/* The limits that make the block layer build PRD-sized requests. */
	q = host_disks[0]->gd_queue;
	CHECK_EQ(q->q_limits.lim_max_hw_sectors, 65535);
	CHECK_EQ(q->q_limits.lim_seg_boundary_mask, 0xffff);
	CHECK_EQ(q->q_limits.lim_max_segment_size, 65536);
	CHECK_EQ(q->q_limits.lim_max_segments, IDE_MAX_SG);
	CHECK_EQ(q->q_limits.lim_bounce_limit, BLK_BOUNCE_4G);
	CHECK_EQ(q->q_flush_flags, BLK_FLUSH_CACHE);	/* FUA emulated by a post-flush */
	CHECK_EQ(q->q_nr_sectors, SECTORS);
	teardown();
}

/*
 * The disks' block_device_operations (ide_disk.c): open, a synthesized
 * geometry, revalidate and report; a drive that failed revalidation is
 * refused.
 */
static void test_disk_ops(void)
{
	const struct block_device_operations *ops;
	struct block_device bdev;
	struct hd_geometry geo;
	char buf[256];
	int err, n;

	setup();
	ide_sim_add_disk(&sim, 0, SECTORS);
	ide_sim_add_disk(&sim, 1, 1 << 20);
	attach(&err);
	CHECK_EQ(err, 0);
	CHECK_EQ(host_nr_disks, 2);
	ops = host_disks[1]->gd_fops;
	memset(&bdev, 0, sizeof(bdev));
	bdev.bd_disk = host_disks[1];
	CHECK_EQ(ops->bdo_open(&bdev, FMODE_READ), 0);
	CHECK_EQ(ops->bdo_getgeo(&bdev, &geo), 0);
	CHECK_EQ(geo.hg_heads, 255);
	CHECK_EQ(geo.hg_sectors, 63);
	CHECK_EQ(geo.hg_cylinders, (1u << 20) / (255 * 63));
	CHECK_EQ(ops->bdo_revalidate_disk(host_disks[1]), 0);
	CHECK_EQ(host_disks[1]->gd_capacity, 1 << 20);
	n = ops->bdo_report(host_disks[1], buf, sizeof(buf));
	CHECK_EQ(n, (int)strlen(buf));
	CHECK_STR(buf, "channel ide0 (primary)\nunit slave\nstate idle\nmode UDMA/5\n"
		       "transfer dma\n");

	sc.sc_chan[0].ch_drive[1].dr_gone = true;	/* failed revalidation */
	CHECK_EQ(ops->bdo_open(&bdev, FMODE_READ), -ENXIO);
	CHECK_EQ(ops->bdo_revalidate_disk(host_disks[1]), -ENXIO);
	bdev.bd_disk = host_disks[0];
	CHECK_EQ(ops->bdo_open(&bdev, FMODE_READ), 0);	/* the master is fine */
	sc.sc_chan[0].ch_drive[1].dr_gone = false;
	teardown();
}

/*
 * Device 0 ready after the reset while device 1 is still in its own:
 * until it drops BSY its registers read as Status, so the probe waits
 * for it before reading its signature.
 */
static void test_slow_slave(void)
{
	int err;

	setup();
	ide_sim_add_disk(&sim, 0, 1 << 20);
	ide_sim_add_disk(&sim, 1, 1 << 20);
	sim.s_slave_reset_polls = 200;
	CHECK(attach(&err) < 100);
	CHECK_EQ(host_nr_disks, 2);
	CHECK_EQ(sc.sc_chan[0].ch_drive[1].dr_kind, ATA_DEV_ATA);
	teardown();
}

static void test_atapi_left_alone(void)
{
	int err;

	setup();
	ide_sim_add_disk(&sim, 0, 1 << 20);
	ide_sim_add_atapi(&sim, 1);
	attach(&err);
	CHECK_EQ(err, 0);
	CHECK_EQ(host_nr_disks, 1);
	CHECK_STR(host_disks[0]->gd_name, "hda");
	CHECK_EQ(sc.sc_chan[0].ch_drive[1].dr_kind, ATA_DEV_ATAPI);
	teardown();
}

static void test_floating_bus(void)
{
	int err;

	setup();
	CHECK(attach(&err) < 10);
	CHECK_EQ(err, 0);
	CHECK_EQ(host_nr_disks, 0);
	CHECK_EQ(host_nr_irqs, 0);
	teardown();
}

static void test_missing_slave(void)
{
	int err;

	setup();
	ide_sim_add_disk(&sim, 0, 1 << 20);
	CHECK(attach(&err) < 100);
	CHECK_EQ(host_nr_disks, 1);
	CHECK_EQ(sc.sc_chan[0].ch_drive[1].dr_kind, ATA_DEV_NONE);
	teardown();
}

/*
 * On a real bus device 0 answers for an absent device 1: its own
 * registers (an ATA signature, and the test patterns stick) but Status
 * 00h.  That is no drive: no IDENTIFY goes to it, nothing is reported.
 */
static void test_missing_slave_real_bus(void)
{
	int err;

	setup();
	ide_sim_add_disk(&sim, 0, 1 << 20);
	sim.s_dev0_answers = true;
	CHECK(attach(&err) < 100);
	CHECK_EQ(host_nr_disks, 1);
	CHECK_EQ(sc.sc_chan[0].ch_drive[1].dr_kind, ATA_DEV_NONE);
	CHECK_EQ(sim.s_absent_cmds, 0);
	teardown();
}

static void test_never_ready(void)
{
	u64 ms;
	int err;

	setup();
	ide_sim_add_disk(&sim, 0, 1 << 20);
	sim.s_stuck_busy = true;
	ms = attach(&err);
	CHECK(ms >= 10000 && ms < 11000);	/* IDE_PROBE_BSY_MS, then given up */
	CHECK_EQ(host_nr_disks, 0);
	CHECK_EQ(host_nr_irqs, 0);
	teardown();
}

/*
 * A simplex controller (BM status bit 7): its one bus master goes to the
 * first channel with a DMA drive; a drive on the other channel uses PIO.
 */
static void test_simplex(void)
{
	int err;

	setup();
	sim.s_bm_status = IDE_BM_STATUS_SIMPLEX;
	ide_sim_add_disk(&sim, 0, 1 << 20);
	attach(&err);
	CHECK(sc.sc_simplex);
	CHECK(sc.sc_chan[0].ch_drive[0].dr_dma);
	CHECK(sc.sc_dma_chan == &sc.sc_chan[0]);
	teardown();

	setup();
	sim.s_bm_status = IDE_BM_STATUS_SIMPLEX;
	strcpy(sc.sc_chan[1].ch_name, "ide1");
	sc.sc_dma_chan = &sc.sc_chan[1];	/* the secondary took it first */
	ide_sim_add_disk(&sim, 0, 1 << 20);
	attach(&err);
	CHECK_EQ(host_nr_disks, 1);
	CHECK(!sc.sc_chan[0].ch_drive[0].dr_dma);
	CHECK_EQ(host_disks[0]->gd_queue->q_limits.lim_bounce_limit, BLK_BOUNCE_NONE);
	teardown();
}

static void test_nodma(void)
{
	int err;

	setup();
	sc.sc_nodma = true;
	ide_sim_add_disk(&sim, 0, 1 << 20);
	attach(&err);
	CHECK_EQ(host_nr_disks, 1);
	CHECK(!sc.sc_chan[0].ch_drive[0].dr_dma);
	CHECK_EQ(host_disks[0]->gd_queue->q_limits.lim_bounce_limit, BLK_BOUNCE_NONE);
	teardown();
}

/* The integrity byte of IDENTIFY word 255 for the data as it is. */
static void sim_checksum(u16 *id)
{
	u8 sum = 0xa5;
	unsigned i;

	for (i = 0; i < ATA_ID_WORDS - 1; i++)
		sum = (u8)(sum + (id[i] & 0xff) + (id[i] >> 8));
	id[ATA_ID_INTEGRITY] = (u16)((u8)(0x100 - sum) << 8 | 0xa5);
}

/* A wrong IDENTIFY checksum is warned about, not a reason to ignore the disk. */
static void test_bad_checksum_attaches(void)
{
	int err;

	setup();
	ide_sim_add_disk(&sim, 0, 1 << 20);
	sim_checksum(sim.s_id[0]);
	sim.s_id[0][ATA_ID_INTEGRITY] ^= 0x0100;
	attach(&err);
	CHECK_EQ(host_nr_disks, 1);
	CHECK(sc.sc_chan[0].ch_drive[0].dr_id.ai_csum_bad);
	teardown();
}

static int chip_mode[IDE_UNITS];

static int fake_set_mode(struct ide_channel *ch, unsigned unit, int mode)
{
	chip_mode[unit] = mode;
	return 0;
}

static bool chip_cable80;

static bool fake_cable80(struct ide_channel *ch)
{
	return chip_cable80;
}

static const struct ide_chipset fake_chipset = {
	.cs_cable80 = fake_cable80,
	.cs_set_mode = fake_set_mode,
};

/*
 * A 40-wire cable under a firmware-selected UDMA/5: UDMA/2 where the
 * chipset can be retimed (and it is), PIO where it cannot.  The cable is
 * the chipset's to report when it can, else the drives' (word 93), and
 * one drive seeing 80 wires is enough (libata's cable_is_40wire).
 */
static void test_cable_limits_udma(void)
{
	struct ide_drive *d0 = &sc.sc_chan[0].ch_drive[0], *d1 = &sc.sc_chan[0].ch_drive[1];
	int err;

	setup();
	ide_sim_add_disk(&sim, 0, 1 << 20);
	sim.s_id[0][ATA_ID_HW_RESET] = 0x4001;	/* the drive saw 40 wires */
	attach(&err);
	CHECK_EQ(host_nr_disks, 1);
	CHECK(!d0->dr_dma);
	CHECK_EQ(sim.s_xfer[0], -1);
	teardown();

	setup();
	sc.sc_chipset = &fake_chipset;
	chip_cable80 = false;			/* the chipset says 40, whatever the drive says */
	ide_sim_add_disk(&sim, 0, 1 << 20);
	attach(&err);
	CHECK(d0->dr_dma);
	CHECK_EQ(sim.s_xfer[0], ATA_XFER_UDMA | 2);
	CHECK_EQ(chip_mode[0], ATA_XFER_UDMA | 2);
	CHECK_EQ(d0->dr_id.ai_udma_active, 2);
	teardown();

	setup();
	chip_cable80 = true;
	sc.sc_chipset = &fake_chipset;
	ide_sim_add_disk(&sim, 0, 1 << 20);
	attach(&err);
	CHECK_EQ(sim.s_xfer[0], ATA_XFER_UDMA | 5);	/* told again, as after a reset */
	CHECK_EQ(chip_mode[0], ATA_XFER_UDMA | 5);
	teardown();

	setup();
	ide_sim_add_disk(&sim, 0, 1 << 20);
	ide_sim_add_disk(&sim, 1, 1 << 20);
	sim.s_id[0][ATA_ID_HW_RESET] = 0x4001;	/* only the slave detects the cable */
	attach(&err);
	CHECK(d0->dr_dma && d1->dr_dma);
	CHECK_EQ(sim.s_xfer[0], ATA_XFER_UDMA | 5);
	teardown();
}

/*
 * A write cache and no FLUSH CACHE: turned off at attach, and the queue
 * has nothing to flush.  With FLUSH CACHE the cache stays and is flushed.
 */
static void test_wcache_without_flush(void)
{
	int err;

	setup();
	ide_sim_add_disk(&sim, 0, 1 << 20);
	sim.s_id[0][ATA_ID_CMDSET_2] &= (u16)~(ATA_ID_CMDSET_2_FLUSH | ATA_ID_CMDSET_2_FLUSH_EXT);
	attach(&err);
	CHECK_EQ(host_nr_disks, 1);
	CHECK_EQ(sim.s_wcache_off, 1);
	CHECK_EQ(host_disks[0]->gd_queue->q_flush_flags, 0);
	teardown();
}

/*
 * The secondary channel as QEMU shows an empty one: every register reads
 * 0 (not the bus float, so it is reset and probed, and nothing is
 * found).  It notes when SRST was released and when Status was first
 * read after that.
 */
static u64 empty_srst_off_ns, empty_first_status_ns;
static u8 empty_devctl;

static u8 empty_in8(struct ide_channel *ch, u16 port)
{
	if (port == ch->ch_ctl + IDE_REG_ALTSTATUS && empty_srst_off_ns && !empty_first_status_ns)
		empty_first_status_ns = host_now_ns;
	return 0;
}

static void empty_out8(struct ide_channel *ch, u16 port, u8 v)
{
	if (port == ch->ch_ctl + IDE_REG_DEVCTL) {
		if ((empty_devctl & ATA_CTL_SRST) && !(v & ATA_CTL_SRST))
			empty_srst_off_ns = host_now_ns;
		empty_devctl = v;
	}
}

static void empty_out32(struct ide_channel *ch, u16 port, u32 v) { }
static void empty_in16s(struct ide_channel *ch, u16 port, void *buf, u32 words) { }
static void empty_out16s(struct ide_channel *ch, u16 port, const void *buf, u32 words) { }

static const struct ide_io_ops empty_io = {
	.io_in8 = empty_in8,
	.io_out8 = empty_out8,
	.io_out32 = empty_out32,
	.io_in16s = empty_in16s,
	.io_out16s = empty_out16s,
};

/*
 * Both channels are reset before either is probed and settle under one
 * IDE_SRST_SETTLE_MS: the second channel adds no settle time of its own,
 * yet its Status is not read before its own 2 ms have passed (ATA8-APT).
 */
static void test_channels_settle_together(void)
{
	u64 one, two;
	int err;

	setup();
	ide_sim_add_disk(&sim, 0, 1 << 20);
	one = host_now_ns;
	attach(&err);
	one = host_now_ns - one;
	CHECK_EQ(host_nr_disks, 1);
	teardown();

	setup();
	ide_sim_add_disk(&sim, 0, 1 << 20);
	sc.sc_chan[1].ch_io = &empty_io;
	sc.sc_chan[1].ch_cmd = 0x170;
	sc.sc_chan[1].ch_ctl = 0x374;
	sc.sc_chan[1].ch_irq = IDE_PRI_IRQ + 1;
	empty_srst_off_ns = empty_first_status_ns = 0;
	empty_devctl = 0;
	two = host_now_ns;
	attach(&err);
	two = host_now_ns - two;
	CHECK_EQ(err, 0);
	CHECK_EQ(host_nr_disks, 1);
	CHECK(empty_srst_off_ns != 0);
	CHECK(empty_first_status_ns - empty_srst_off_ns >= IDE_SRST_SETTLE_MS * NSEC_PER_MSEC);
	CHECK(two < one + IDE_SRST_SETTLE_MS * NSEC_PER_MSEC);
	teardown();
}

static const struct unit_case cases[] = {
	{ "ide/probe/channels_settle_together", test_channels_settle_together },
	{ "ide/probe/master_and_slave", test_master_and_slave },
	{ "ide/probe/disk_ops", test_disk_ops },
	{ "ide/probe/slow_slave", test_slow_slave },
	{ "ide/probe/atapi_left_alone", test_atapi_left_alone },
	{ "ide/probe/floating_bus", test_floating_bus },
	{ "ide/probe/missing_slave", test_missing_slave },
	{ "ide/probe/missing_slave_real_bus", test_missing_slave_real_bus },
	{ "ide/probe/never_ready_is_bounded", test_never_ready },
	{ "ide/probe/nodma", test_nodma },
	{ "ide/probe/simplex", test_simplex },
	{ "ide/probe/bad_checksum_attaches", test_bad_checksum_attaches },
	{ "ide/probe/cable_limits_udma", test_cable_limits_udma },
	{ "ide/probe/wcache_without_flush", test_wcache_without_flush },
};
UNIT_MAIN("ide_probe", cases)
