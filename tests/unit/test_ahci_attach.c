/*
 * Host test of the AHCI unwind (ahci_detach, drivers/ahci/ahci.c): what
 * ahci_pci_probe does when the controller's interrupt cannot be had
 * after ahci_attach.  The HBA is a block of memory standing in for ABAR:
 * registers keep what is written and change on nobody's account, so a
 * port whose PHY shows a disk gets started (ST, FRE) and then fails its
 * IDENTIFY (PxCI never clears) -- a port left running, with its DMA
 * memory, as a failed attach leaves it.  The unwind must stop both
 * engines of every port, mask its interrupts and give all memory back,
 * and the disk names too.
 */
#include "tests/unit/unit.h"
#include "tests/unit/fakes/page_fake.h"
#include "tests/unit/fakes/sched_fake.h"
#include "tests/unit/host/shim.h"
#include "block/bdev.h"
#include "block/genhd.h"
#include "drivers/ahci/ahci_priv.h"
#include "drivers/ata/atareg.h"
#include "kernel/errno.h"
#include "kernel/time.h"

#define NPORTS		4

static u32 abar[AHCI_ABAR_MIN_SIZE(NPORTS) / 4];

void udelay(u32 us) { host_now_ns += (u64)us * NSEC_PER_USEC; }
void mdelay(u32 ms) { host_now_ns += (u64)ms * NSEC_PER_MSEC; }

static u32 *preg(unsigned port, unsigned reg)
{
	return &abar[(AHCI_PORT_OFFSET(port) + reg) / 4];
}

static void test_detach_stops_ports(void)
{
	struct ahci_softc sc;
	long pages = host_pages_live;
	char name[DISK_NAME_LEN];
	unsigned i;

	memset(abar, 0, sizeof(abar));
	memset(&sc, 0, sizeof(sc));
	sc.sc_regs = (volatile u8 *)abar;
	strcpy(sc.sc_name, "ahci9");
	sc.sc_pi = (1u << NPORTS) - 1;
	sc.sc_ncs = 32;
	/* Port 1: a disk on the link (DET=3, ready, ATA signature); the rest empty. */
	*preg(1, AHCI_PREG_SSTS) = 0x113;
	*preg(1, AHCI_PREG_TFD) = ATA_STATUS_DRDY;
	*preg(1, AHCI_PREG_SIG) = AHCI_SIG_ATA;

	ahci_attach(&sc);
	CHECK_EQ(sc.sc_ports[1]->ap_state, AHCI_PORT_FAILED);	/* IDENTIFY never ends */
	CHECK(*preg(1, AHCI_PREG_CMD) & AHCI_PREG_CMD_ST);
	CHECK(*preg(1, AHCI_PREG_CMD) & AHCI_PREG_CMD_FRE);
	CHECK(host_pages_live > pages);

	/*
	 * Port 3 as a port with a disk leaves attach: named.  (A fake HBA
	 * that answers IDENTIFY is more than this test needs.)
	 */
	CHECK_EQ(disk_sd_get(sc.sc_ports[3]->ap_dname, sizeof(sc.sc_ports[3]->ap_dname)), 0);
	sc.sc_ports[3]->ap_disk_index = 0;

	*preg(1, AHCI_PREG_IE) = ~0u;		/* as if interrupts had been enabled */
	ahci_detach(&sc);
	for (i = 0; i < NPORTS; i++) {
		CHECK(sc.sc_ports[i] == NULL);
		CHECK_EQ(*preg(i, AHCI_PREG_CMD) & (AHCI_PREG_CMD_ST | AHCI_PREG_CMD_FRE), 0);
		CHECK_EQ(*preg(i, AHCI_PREG_IE), 0);
	}
	CHECK_EQ(host_pages_live, pages);	/* command lists, FIS areas: given back */
	CHECK_EQ(disk_sd_get(name, sizeof(name)), 0);	/* and sda, for the next controller */
	CHECK_STR(name, "sda");
	disk_sd_put(0);
}

/*
 * The disk's block_device_operations (ahci_disk.c) on a port filled in
 * by hand: open refuses a failed port, getgeo synthesizes 255/63 for a
 * disk without CHS words, revalidate follows IDENTIFY's capacity, and
 * report says what the port runs.
 */
static void test_disk_ops(void)
{
	static struct ahci_port ap;
	struct ahci_softc sc;
	struct gendisk disk;
	struct block_device bdev;
	struct hd_geometry geo;
	char buf[256];
	int n;

	memset(abar, 0, sizeof(abar));
	memset(&sc, 0, sizeof(sc));
	memset(&ap, 0, sizeof(ap));
	memset(&disk, 0, sizeof(disk));
	memset(&bdev, 0, sizeof(bdev));
	sc.sc_regs = (volatile u8 *)abar;
	strcpy(sc.sc_name, "ahci9");
	ap.ap_sc = &sc;
	ap.ap_regs = (volatile u8 *)abar + AHCI_PORT_OFFSET(2);
	ap.ap_num = 2;
	ap.ap_state = AHCI_PORT_READY;
	ap.ap_ncq = true;
	ap.ap_depth = 31;
	ap.ap_id.ai_sectors = 1ull << 24;		/* 8 GiB */
	ap.ap_id.ai_logical_size = 512;
	ap.ap_id.ai_wcache_on = true;
	*preg(2, AHCI_PREG_SSTS) = 0x123;		/* Gen 2 link up */
	disk.gd_private_data = &ap;
	disk.gd_fops = &ahci_disk_ops;
	bdev.bd_disk = &disk;

	CHECK_EQ(ahci_disk_ops.bdo_open(&bdev, FMODE_READ), 0);
	CHECK_EQ(ahci_disk_ops.bdo_getgeo(&bdev, &geo), 0);
	CHECK_EQ(geo.hg_heads, 255);
	CHECK_EQ(geo.hg_sectors, 63);
	CHECK_EQ(geo.hg_cylinders, (1u << 24) / (255 * 63));
	CHECK_EQ(ahci_disk_ops.bdo_revalidate_disk(&disk), 0);
	CHECK_EQ(disk.gd_capacity, 1ull << 24);
	n = ahci_disk_ops.bdo_report(&disk, buf, sizeof(buf));
	CHECK_EQ(n, (int)strlen(buf));
	CHECK_STR(buf, "controller ahci9 port 2\nstate ready\nlink 3.0 Gbps\n"
		       "queue ncq depth 31\nwrite cache on\nfua no\ntrim no\n");
	CHECK_EQ(ahci_disk_ops.bdo_report(&disk, buf, 8), 7);	/* cut short, NUL kept */
	CHECK_STR(buf, "control");

	ap.ap_state = AHCI_PORT_FAILED;			/* recovery gave up on it */
	CHECK_EQ(ahci_disk_ops.bdo_open(&bdev, FMODE_READ), -ENXIO);
	CHECK_EQ(ahci_disk_ops.bdo_revalidate_disk(&disk), -ENXIO);
}

/* A fresh fake HBA with NPORTS ports, all empty (DET=0). */
static void fake_hba(struct ahci_softc *sc)
{
	memset(abar, 0, sizeof(abar));
	memset(sc, 0, sizeof(*sc));
	sc->sc_regs = (volatile u8 *)abar;
	strcpy(sc->sc_name, "ahci9");
	sc->sc_pi = (1u << NPORTS) - 1;
	sc->sc_ncs = 32;
}

/*
 * Bring-up of ports without a link: every port's COMRESET shares one
 * DET=1 hold (each still holds it AHCI_COMRESET_HOLD_MS or more, 10.4.2),
 * a port whose link is up is not reset, and attach does not sit out the
 * silent ports' presence window: they are left watched in sc_late.
 */
static void test_attach_shares_comreset(void)
{
	struct ahci_softc sc;
	u64 t0;
	unsigned i;

	fake_hba(&sc);
	*preg(1, AHCI_PREG_SSTS) = 0x113;		/* link up, no device behind */
	*preg(1, AHCI_PREG_TFD) = 0x7f;
	*preg(1, AHCI_PREG_SCTL) = 0x300;
	t0 = host_now_ns;
	ahci_attach(&sc);
	CHECK(host_now_ns - t0 >= (AHCI_COMRESET_HOLD_MS + 1) * NSEC_PER_MSEC);
	CHECK(host_now_ns - t0 < 2 * (AHCI_COMRESET_HOLD_MS + 1) * NSEC_PER_MSEC);
	CHECK(host_now_ns - t0 < AHCI_PRESENCE_MS * NSEC_PER_MSEC);
	CHECK_EQ(*preg(1, AHCI_PREG_SCTL), 0x300);	/* left alone */
	for (i = 0; i < NPORTS; i++) {
		if (i == 1)
			continue;
		CHECK_EQ(*preg(i, AHCI_PREG_SCTL) & AHCI_PREG_SCTL_DET_MASK, AHCI_PREG_SCTL_DET_NONE);
		CHECK_EQ(*preg(i, AHCI_PREG_SCTL) & AHCI_PREG_SCTL_IPM_MASK,
			 AHCI_PREG_SCTL_IPM_NOPARTIAL | AHCI_PREG_SCTL_IPM_NOSLUMBER);
	}
	CHECK_EQ(sc.sc_ports[1]->ap_state, AHCI_PORT_EMPTY);
	CHECK_EQ(sc.sc_late, 0xdu);
	ahci_detach(&sc);
}

/*
 * The watched ports after boot (ahci_late.c): looked at again while
 * their windows run; a silent port is given up at AHCI_PRESENCE_MS, not
 * before; one that shows a device (DET=1) is waited for to AHCI_LINK_MS;
 * one whose link comes up is probed (here: a link with nothing behind
 * it, PxTFD 7Fh, so EMPTY).  The looking stops when no port is left.
 */
static void test_late_ports_keep_their_window(void)
{
	struct ahci_softc sc;
	u64 t0;

	fake_hba(&sc);
	ahci_attach(&sc);
	t0 = sc.sc_late_reset_ms;
	CHECK_EQ(sc.sc_late, 0xfu);
	ahci_late_start(&sc);
	run_deferred_work();
	CHECK_EQ(sc.sc_late, 0xfu);			/* nothing given up early */
	CHECK(timer_pending(&sc.sc_late_timer));

	*preg(2, AHCI_PREG_SSTS) = 0x001;		/* a device answered: DET=1 */
	*preg(3, AHCI_PREG_SSTS) = 0x113;		/* a link, nothing behind it */
	*preg(3, AHCI_PREG_TFD) = 0x7f;
	while (ktime_ms() <= t0 + AHCI_PRESENCE_MS) {
		CHECK_EQ(sc.sc_late & 0x3u, 0x3u);	/* silent ports: still inside */
		host_advance_ns(NSEC_PER_MSEC);
		run_deferred_work();
	}
	host_advance_ns(AHCI_LATE_POLL_MS * NSEC_PER_MSEC);
	run_deferred_work();
	CHECK_EQ(sc.sc_late, 0x4u);			/* port 2 (DET=1) still waited for */
	CHECK_EQ(sc.sc_ports[3]->ap_state, AHCI_PORT_EMPTY);
	while (ktime_ms() <= t0 + AHCI_LINK_MS + AHCI_LATE_POLL_MS) {
		host_advance_ns(NSEC_PER_MSEC);
		run_deferred_work();
	}
	CHECK_EQ(sc.sc_late, 0u);
	CHECK(!timer_pending(&sc.sc_late_timer));
	ahci_detach(&sc);
}

static const struct unit_case cases[] = {
	{ "ahci/attach/detach_stops_ports", test_detach_stops_ports },
	{ "ahci/attach/shares_comreset", test_attach_shares_comreset },
	{ "ahci/attach/late_ports_keep_their_window", test_late_ports_keep_their_window },
	{ "ahci/disk/ops", test_disk_ops },
};
UNIT_MAIN("ahci_attach", cases)
