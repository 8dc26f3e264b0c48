/*
 * AHCI core, bus-independent: bringing an HBA and its ports up (AHCI
 * 1.3.1 section 10), attaching each ATA disk found as a gendisk, and the
 * controller's interrupt.  The port primitives (stop, start, COMRESET,
 * command list override, a polled command) are ahci_port.c, the request
 * path ahci_io.c, recovery ahci_eh.c, the PCI glue ahci_pci.c.
 *
 * Bring-up order (AHCI 1.3.1 10.1.2, steps 1-7):
 *   GHC.AE; BIOS/OS handoff when CAP2.BOH; save CAP/PI, GHC.HR, AE again,
 *   restore what the reset wipes; then per implemented port: stop the
 *   engines (ST then FRE, each bounded), program the command list and
 *   received-FIS bases, FRE on, spin-up (SUD, staggered when CAP.SSS);
 *   then COMRESET, unless the link is already up, on every port under one
 *   DET=1 hold; one shared deadline for every port's link, PxSERR cleared
 *   as each comes up, silent ports left to ahci_late.c; BSY/DRQ clear; the
 *   signature decides: ATA disks attach, ATAPI devices, port multipliers
 *   and enclosure bridges are named and left alone.  IDENTIFY is polled
 *   with port interrupts masked; PxIE and GHC.IE are set last
 *   (ahci_start), once the handler is installed.
 *
 * Every wait has a limit and a port that misbehaves is reported and
 * skipped: the boot never hangs on a disk.
 */
#include "block/genhd.h"
#include "drivers/ahci/ahci_priv.h"
#include "drivers/ata/atareg.h"
#include "kernel/errno.h"
#include "kernel/mm/slab.h"
#include "kernel/param.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "lib/string.h"

bool ahci_param_ncq = true;
PARAM_BOOL("ahci.ncq", ahci_param_ncq, "use NCQ (READ/WRITE FPDMA QUEUED) when the disk has it");
bool ahci_param_dma64 = true;
PARAM_BOOL("ahci.dma64", ahci_param_dma64, "use 64-bit DMA addresses when CAP.S64A says so");
unsigned int ahci_param_timeout_ms = AHCI_RQ_TIMEOUT_MS;
PARAM_UINT("ahci.timeout_ms", ahci_param_timeout_ms, "per-request timeout before a port reset, ms");

const char *const ahci_port_state_names[AHCI_PORT_NSTATES] = {
	[AHCI_PORT_EMPTY] = "empty",
	[AHCI_PORT_SKIPPED] = "skipped",
	[AHCI_PORT_FAILED] = "failed",
	[AHCI_PORT_READY] = "ready",
};

#define AHCI_TFD_NO_DEVICE	0x7f	/* PxTFD status with nothing attached */

/*
 * Wait for the PHY on every initialised port against one deadline
 * (PxSSTS.DET, 3.3.10), counted from the COMRESET all ports shared.  A
 * port that shows a device (DET=1) is waited for up to AHCI_LINK_MS.  A
 * port where nothing has answered COMRESET yet (DET=0) does not hold the
 * boot: once no other port is pending it is left in sc_late, and
 * ahci_late.c waits out the rest of its AHCI_PRESENCE_MS window in the
 * background.  Sets up[n] for each port whose link came up.
 */
static void ahci_wait_links(struct ahci_softc *sc, bool *up)
{
	u64 now;
	unsigned i, pending;
	u32 det, quiet;

	for (;;) {
		pending = 0;
		quiet = 0;
		now = ktime_ms();
		for (i = 0; i < AHCI_MAX_PORTS; i++) {
			struct ahci_port *ap = sc->sc_ports[i];

			if (!ap || up[i] || ap->ap_state != AHCI_PORT_EMPTY)
				continue;
			det = ahci_pread(ap, AHCI_PREG_SSTS) & AHCI_PREG_SSTS_DET_MASK;
			if (det == AHCI_PREG_SSTS_DET_PHY) {
				ahci_port_link_up(ap);
				up[i] = true;
			} else if (det == AHCI_PREG_SSTS_DET_NONE) {
				if (now - sc->sc_late_reset_ms <= AHCI_PRESENCE_MS)
					quiet |= 1u << i;
			} else {
				pending++;
			}
		}
		if (!pending || now - sc->sc_late_reset_ms > AHCI_LINK_MS)
			break;
		udelay(100);
	}
	sc->sc_late = quiet;
}

/*
 * The model of the ATAPI device on a port (IDENTIFY PACKET DEVICE, polled,
 * the port started just for it and stopped again) into model, "" if it
 * does not answer: the probe names what it leaves alone.
 */
static void ahci_port_atapi_model(struct ahci_port *ap, char *model)
{
	u16 id[ATA_ID_WORDS];
	struct ata_taskfile tf;

	model[0] = '\0';
	if (ahci_port_start(ap))
		return;
	ata_identify(&tf, true);
	if (ahci_port_exec(&ap->ap_ad, &tf, id) == 0)
		ata_id_string(id, ATA_ID_MODEL, ATA_ID_MODEL_WORDS, model);
	if (ahci_port_stop(ap))
		pr_warn("%s: the port does not stop after IDENTIFY PACKET DEVICE\n", ap->ap_name);
}

/*
 * Second half, for a port with a link: BSY clear, signature, and for an
 * ATA disk: start, IDENTIFY, queue depth.  Returns 1 for an ATA disk to
 * attach (the caller makes the port READY once its queue exists), 0
 * (port EMPTY or SKIPPED) or a negative errno (FAILED, reported here).
 */
static int ahci_port_probe(struct ahci_port *ap)
{
	char model[ATA_MODEL_LEN + 1];
	enum ata_dev_class class;
	u32 sig, tfd;
	int ret;

	/* PxTFD.STS 7Fh (3.3.8): a link but no device behind it. */
	if ((ahci_pread(ap, AHCI_PREG_TFD) & AHCI_PREG_TFD_STS_MASK) == AHCI_TFD_NO_DEVICE) {
		ap->ap_state = AHCI_PORT_EMPTY;
		return 0;
	}
	ret = ahci_port_wait_ready(ap, AHCI_BSY_MS);
	tfd = ahci_pread(ap, AHCI_PREG_TFD);
	if (ret) {
		pr_warn("%s: device stays busy (PxTFD %04x); port skipped\n", ap->ap_name, tfd);
		return ret;
	}
	ahci_port_clear_errors(ap);
	/* PxSIG (3.3.9): Count, LBA Low, LBA Mid, LBA High from bit 0 up. */
	sig = ahci_pread(ap, AHCI_PREG_SIG);
	class = ata_classify((u8)(sig >> 16), (u8)(sig >> 24), (u8)tfd);
	if (class == ATA_DEV_ATAPI) {
		ahci_port_atapi_model(ap, model);
		pr_info("%s: ATAPI device \"%s\": not handled by this driver, left alone\n",
			ap->ap_name, model);
		ap->ap_state = AHCI_PORT_SKIPPED;
		return 0;
	}
	if (class != ATA_DEV_ATA) {
		pr_info("%s: %s device (signature %08x), not attached\n", ap->ap_name,
			ata_dev_class_names[class], sig);
		ap->ap_state = AHCI_PORT_SKIPPED;
		return 0;
	}
	ret = ahci_port_start(ap);
	if (ret) {
		pr_warn("%s: cannot start the port; skipped\n", ap->ap_name);
		return ret;
	}
	ap->ap_ad.ad_name = ap->ap_name;
	ap->ap_ad.ad_exec = ahci_port_exec;
	ap->ap_ad.ad_xfer_optional = true;	/* SATA: the link sets the speed */
	ret = ata_dev_identify(&ap->ap_ad, &ap->ap_id);
	if (ret) {
		pr_warn("%s: IDENTIFY DEVICE failed (%s, PxTFD %04x); skipped\n", ap->ap_name,
			errstr(ret), ahci_pread(ap, AHCI_PREG_TFD));
		return ret;
	}
	/* Without 48-bit addressing (small SATA DOMs, CF bridges) READ/WRITE DMA do. */
	if (!ap->ap_id.ai_dma) {
		pr_warn("%s: %s has no DMA; skipped\n", ap->ap_name, ap->ap_id.ai_model);
		return -EOPNOTSUPP;
	}
	/* libata sends SET TRANSFER MODE to SATA disks too; AHCI moves every UDMA mode. */
	ap->ap_ad.ad_xfer = ata_xfer_mode(&ap->ap_id, AHCI_UDMA_MODES, AHCI_MWDMA_MODES);
	ret = ata_dev_setup(&ap->ap_ad, &ap->ap_id);
	if (ret) {
		pr_warn("%s: cannot be configured (%s); skipped\n", ap->ap_name, errstr(ret));
		return ret;
	}
	ap->ap_lsect = ap->ap_id.ai_logical_size >> SECTOR_SHIFT;
	ap->ap_ncq = ap->ap_sc->sc_ncq && ap->ap_id.ai_ncq;
	ap->ap_depth = ap->ap_sc->sc_ncs;
	if (ap->ap_ncq)
		ap->ap_depth = min(ap->ap_depth, (u32)ap->ap_id.ai_ncq_depth);
	ap->ap_depth = min(ap->ap_depth, (u32)AHCI_MAX_SLOTS);
	return 1;
}

/*
 * BIOS/OS handoff (10.6.3): ask for ownership, give the BIOS 25 ms to
 * show it is busy, then up to 2 s to let go.  Waits with interrupts on.
 */
static void ahci_handoff(struct ahci_softc *sc)
{
	u64 deadline;

	if (!(sc->sc_cap2 & AHCI_REG_CAP2_BOH))
		return;
	ahci_write(sc, AHCI_REG_BOHC, ahci_read(sc, AHCI_REG_BOHC) | AHCI_REG_BOHC_OOS);
	mdelay(AHCI_HANDOFF_BB_MS);
	deadline = ktime_ms() + AHCI_HANDOFF_BOS_MS;
	while (ahci_read(sc, AHCI_REG_BOHC) & (AHCI_REG_BOHC_BOS | AHCI_REG_BOHC_BB)) {
		if (ktime_ms() > deadline) {
			pr_warn("%s: BIOS keeps the HBA (BOHC %08x); taking it anyway\n",
				sc->sc_name, ahci_read(sc, AHCI_REG_BOHC));
			return;
		}
		mdelay(1);
	}
}

/*
 * HBA reset (10.4.3): GHC.HR, bounded; AE again (10.1.2); write back CAP,
 * CAP2 and PI as they read before the first reset: some chipsets lose
 * their HwInit bits (3.1.1, 3.1.4) in GHC.HR.  The whole saved value
 * goes back, because those bits are write-once: writing only some would
 * lock the others (NCQ, speed, ...) at 0 where firmware never wrote them.
 * Ports must be stopped by the caller.  Returns 0 or -ETIMEDOUT.
 */
int ahci_hba_reset(struct ahci_softc *sc)
{
	u64 deadline = ktime_ms() + AHCI_RESET_MS;

	ahci_write(sc, AHCI_REG_GHC, AHCI_REG_GHC_AE);
	ahci_write(sc, AHCI_REG_GHC, AHCI_REG_GHC_AE | AHCI_REG_GHC_HR);
	while (ahci_read(sc, AHCI_REG_GHC) & AHCI_REG_GHC_HR) {
		if (ktime_ms() > deadline) {
			pr_err("%s: HBA reset does not complete\n", sc->sc_name);
			return -ETIMEDOUT;
		}
		mdelay(1);
	}
	ahci_write(sc, AHCI_REG_GHC, AHCI_REG_GHC_AE);
	ahci_write(sc, AHCI_REG_CAP, sc->sc_cap);
	if (sc->sc_cap2)
		ahci_write(sc, AHCI_REG_CAP2, sc->sc_cap2);
	if (ahci_read(sc, AHCI_REG_PI) != sc->sc_pi)
		ahci_write(sc, AHCI_REG_PI, sc->sc_pi);
	return 0;
}

/*
 * Name the disk, set it up and add it.  The queue exists already
 * (ahci_port_setup_queue).  Returns 0 or a negative errno (reported).
 */
int ahci_port_add_disk(struct ahci_port *ap)
{
	const struct ata_id *ai = &ap->ap_id;
	dev_t devt = disk_sd_devt(ap->ap_disk_index);
	struct gendisk *disk;
	char media[64];
	int ret;

	disk = alloc_disk(DISK_SD_MINORS);
	if (!disk) {
		ret = -ENOMEM;
		goto report;
	}
	str_copy(disk->gd_name, ap->ap_dname, sizeof(disk->gd_name));
	disk->gd_major = (int)MAJOR(devt);
	disk->gd_first_minor = (int)MINOR(devt);
	str_copy(disk->gd_model, ap->ap_id.ai_model, sizeof(disk->gd_model));
	disk->gd_fops = &ahci_disk_ops;
	disk->gd_queue = ap->ap_queue;
	disk->gd_private_data = ap;
	disk->gd_flags = GENHD_FL_EXT_DEVT;
	disk->gd_logical_block_size = ai->ai_logical_size;
	disk->gd_physical_block_size = ai->ai_physical_size;
	disk->gd_alignment_offset = ata_id_alignment_offset(ai);
	set_capacity(disk, ata_id_capacity512(ai));
	ap->ap_disk = disk;
	ata_id_media_str(ai, media, sizeof(media));
	pr_info("%s: %s: %s, %llu sectors%s, %s depth %u%s, %s\n", ap->ap_name, disk->gd_name,
		ai->ai_model[0] ? ai->ai_model : "(no model)",
		(unsigned long long)ata_id_capacity512(ai), media,
		ap->ap_ncq ? "NCQ" : "DMA", ap->ap_depth, ai->ai_fua ? ", FUA" : "",
		ahci_link_speed_name((ahci_pread(ap, AHCI_PREG_SSTS) & AHCI_PREG_SSTS_SPD_MASK) >>
				     AHCI_PREG_SSTS_SPD_SHIFT));
	ret = add_disk(disk);
	if (ret)
		goto put;
	return 0;

put:
	ap->ap_disk = NULL;
	put_disk(disk);
report:
	pr_warn("%s: cannot add disk (%d)\n", ap->ap_name, ret);
	return ret;
}

/**
 * ahci_init - take the HBA over from the firmware and reset it
 * @sc: sc_regs, sc_unit and sc_quirks set by the glue
 *
 * AE, the BIOS/OS handoff, GHC.HR: afterwards no port runs and nothing
 * the firmware left behind can DMA, so the glue may enable bus mastering
 * (10.4.3).  Returns 0 or a negative errno (reported here).
 */
int ahci_init(struct ahci_softc *sc)
{
	char ver[16];
	u32 vs, pi;
	int ret, n;

	snprintf(sc->sc_name, sizeof(sc->sc_name), "ahci%u", sc->sc_unit);

	/* AE first (10.1.2 step 1); then what the HBA says about itself. */
	ahci_write(sc, AHCI_REG_GHC, ahci_read(sc, AHCI_REG_GHC) | AHCI_REG_GHC_AE);
	vs = ahci_read(sc, AHCI_REG_VS);
	if (vs == AHCI_REG_VS_NONE) {
		pr_err("%s: registers read all ones; HBA not usable\n", sc->sc_name);
		return -ENXIO;
	}
	sc->sc_cap = ahci_read(sc, AHCI_REG_CAP);
	sc->sc_cap2 = vs >= AHCI_REG_VS_1_2 ? ahci_read(sc, AHCI_REG_CAP2) : 0;
	pi = ahci_read(sc, AHCI_REG_PI);
	if (!pi)
		pi = (u32)((1ULL << ((sc->sc_cap & AHCI_REG_CAP_NP_MASK) + 1)) - 1);
	sc->sc_pi = pi;

	ahci_handoff(sc);
	ret = ahci_hba_reset(sc);
	if (ret)
		return ret;

	sc->sc_ncs = ((sc->sc_cap & AHCI_REG_CAP_NCS_MASK) >> AHCI_REG_CAP_NCS_SHIFT) + 1;
	sc->sc_dma64 = (sc->sc_cap & AHCI_REG_CAP_S64A) && ahci_param_dma64 &&
		       !(sc->sc_quirks & AHCI_Q_NO64);
	sc->sc_ncq = (sc->sc_cap & AHCI_REG_CAP_SNCQ) && ahci_param_ncq &&
		     !(sc->sc_quirks & AHCI_Q_NONCQ);
	ahci_write(sc, AHCI_REG_IS, ahci_read(sc, AHCI_REG_IS));
	/* VS (3.1.5): 00010301h is 1.3.1, 00010000h is 1.0. */
	n = snprintf(ver, sizeof(ver), "%x.%x", vs >> 16, (vs >> 8) & 0xff);
	if (vs & 0xff)
		snprintf(ver + n, sizeof(ver) - (size_t)n, ".%x", vs & 0xff);
	pr_info("%s: AHCI %s, %u slots, ports %08x%s%s\n", sc->sc_name, ver, sc->sc_ncs, sc->sc_pi,
		sc->sc_dma64 ? ", 64-bit" : "", sc->sc_ncq ? ", NCQ" : "");
	return 0;
}

/* Give the port's sd name back, if it has one (disk_sd_get). */
static void ahci_port_put_name(struct ahci_port *ap)
{
	if (!ap->ap_dname[0])
		return;
	disk_sd_put(ap->ap_disk_index);
	ap->ap_dname[0] = '\0';
}

/*
 * A port whose link is up: probe it and, for an ATA disk, name it and
 * give it command tables and a queue.  Returns 0 when the port is READY,
 * -ENODEV when it holds no disk for us (EMPTY, SKIPPED), another errno
 * when it FAILED (reported).
 */
int ahci_port_attach(struct ahci_port *ap)
{
	int index, ret;

	ret = ahci_port_probe(ap);
	if (ret < 0) {
		ap->ap_state = AHCI_PORT_FAILED;
		return ret;
	}
	if (ret == 0)
		return -ENODEV;
	index = disk_sd_get(ap->ap_dname, sizeof(ap->ap_dname));
	if (index < 0) {
		pr_warn("%s: no disk name left; skipped\n", ap->ap_name);
		ap->ap_state = AHCI_PORT_SKIPPED;
		return -ENODEV;
	}
	ap->ap_disk_index = (unsigned)index;
	if (ahci_port_alloc_ccbs(ap) || ahci_port_setup_queue(ap)) {
		pr_warn("%s: out of memory for the disk; skipped\n", ap->ap_name);
		ahci_port_free_ccbs(ap);
		ahci_port_put_name(ap);
		ap->ap_state = AHCI_PORT_FAILED;
		return -ENOMEM;
	}
	/* Last: recovery and the I/O path act on READY ports, which have a queue. */
	ap->ap_state = AHCI_PORT_READY;
	return 0;
}

/**
 * ahci_attach - bring up the ports of an HBA that ahci_init reset, and
 * find their disks
 * @sc: initialised, bus mastering on
 *
 * Every port is prepared first, then every port that needs it gets its
 * COMRESET under one shared DET=1 hold (10.4.2: at least 1 ms each, so
 * one hold serves them all), and the links are waited for together.
 * Leaves ports with ATA disks started, identified, and with a queue;
 * ports still inside their presence window in sc_late (ahci_late.c);
 * interrupts off until ahci_start().  Cannot fail: a port that
 * misbehaves, or has no memory, is reported and skipped.
 */
void ahci_attach(struct ahci_softc *sc)
{
	bool up[AHCI_MAX_PORTS] = { false };
	unsigned i, ready = 0;
	u32 reset = 0;

	for (i = 0; i < AHCI_MAX_PORTS; i++) {
		struct ahci_port *ap;

		if (!(sc->sc_pi & (1u << i)))
			continue;
		ap = ahci_port_alloc(sc, i);
		if (!ap) {
			pr_warn("%s: port %u: out of memory\n", sc->sc_name, i);
			continue;
		}
		sc->sc_ports[i] = ap;
		if (ahci_port_prepare(ap)) {
			ap->ap_state = AHCI_PORT_FAILED;
			continue;
		}
		ap->ap_state = AHCI_PORT_EMPTY;
		if (ahci_port_wants_comreset(ap) && !ahci_port_comreset_begin(ap))
			reset |= 1u << i;
	}
	if (reset) {
		mdelay(AHCI_COMRESET_HOLD_MS + 1);
		for (i = 0; i < AHCI_MAX_PORTS; i++)
			if (reset & (1u << i))
				ahci_port_comreset_end(sc->sc_ports[i]);
	}
	sc->sc_late_reset_ms = ktime_ms();
	ahci_wait_links(sc, up);
	for (i = 0; i < AHCI_MAX_PORTS; i++)
		if (up[i] && !ahci_port_attach(sc->sc_ports[i]))
			ready++;
	DPRINTF(AHCI_D_INIT, "%s: %u disks, ports %08x still in their presence window\n",
		sc->sc_name, ready, sc->sc_late);
}

/**
 * ahci_detach - undo ahci_attach, for a controller whose interrupt could
 * not be installed (so before ahci_start: no disk added, GHC.IE clear)
 * @sc: as ahci_attach left it
 *
 * Each port, last first: interrupts masked, command engine and FIS
 * receive stopped (ST, then FRE: 10.1.2), so nothing DMAs into the memory
 * freed next -- its queue, command tables and port page.  A port whose
 * engines do not stop keeps its memory (reported): better a leak than a
 * DMA into a page that was given back.  Every port gives its sd name
 * back, so the next controller to attach gets the same names.
 */
void ahci_detach(struct ahci_softc *sc)
{
	int i;

	for (i = AHCI_MAX_PORTS - 1; i >= 0; i--) {
		struct ahci_port *ap = sc->sc_ports[i];

		if (!ap)
			continue;
		ahci_pwrite(ap, AHCI_PREG_IE, 0);
		sc->sc_ports[i] = NULL;
		ahci_port_put_name(ap);
		if (ahci_port_stop_all(ap)) {
			pr_warn("%s: engines do not stop (PxCMD %08x); its memory is kept\n",
				ap->ap_name, ahci_pread(ap, AHCI_PREG_CMD));
			continue;
		}
		if (ap->ap_queue)
			blk_cleanup_queue(ap->ap_queue);
		ahci_port_free(ap);
	}
}

/* GHC.IE, after the handler is installed and every port's PxIE is set. */
void ahci_enable_intr(struct ahci_softc *sc)
{
	ahci_write(sc, AHCI_REG_IS, ahci_read(sc, AHCI_REG_IS));
	ahci_write(sc, AHCI_REG_GHC, ahci_read(sc, AHCI_REG_GHC) | AHCI_REG_GHC_IE);
}

/**
 * ahci_start - interrupts on (PxIE per ready port, then GHC.IE: the last
 * step of bring-up, 10.1.2 step 7), then add a gendisk per disk; the
 * partition scan reads through the interrupt-driven path.  Last, the
 * ports still inside their presence window are handed to ahci_late.c.
 * Returns 0; a disk that cannot be added is reported and skipped.
 */
int ahci_start(struct ahci_softc *sc)
{
	unsigned i;

	for (i = 0; i < AHCI_MAX_PORTS; i++) {
		struct ahci_port *ap = sc->sc_ports[i];

		if (ap && ap->ap_state == AHCI_PORT_READY) {
			ahci_port_clear_errors(ap);
			ahci_port_enable_intr(ap);
		}
	}
	ahci_enable_intr(sc);
	for (i = 0; i < AHCI_MAX_PORTS; i++) {
		struct ahci_port *ap = sc->sc_ports[i];

		if (ap && ap->ap_state == AHCI_PORT_READY)
			ahci_port_add_disk(ap);		/* errors already printed */
	}
	ahci_late_start(sc);
	return 0;
}

/**
 * ahci_intr - the HBA's interrupt: for each port flagged in IS, handle
 * its PxIS (which clears it), then clear the port's IS bit (PxIS before
 * IS, 10.7.2.1).  Returns IRQ_NONE when IS is empty (a shared line).
 */
irqreturn_t ahci_intr(unsigned irq, void *data)
{
	struct ahci_softc *sc = data;
	u32 is = ahci_read(sc, AHCI_REG_IS);
	unsigned i;

	if (!is || is == 0xFFFFFFFF)
		return IRQ_NONE;
	for (i = 0; i < AHCI_MAX_PORTS; i++) {
		struct ahci_port *ap = sc->sc_ports[i];

		if (!(is & (1u << i)))
			continue;
		if (ap && ap->ap_queue)
			ahci_port_intr(ap);
		else if (ap)
			ahci_pwrite(ap, AHCI_PREG_IS, ahci_pread(ap, AHCI_PREG_IS));
	}
	ahci_write(sc, AHCI_REG_IS, is);
	return IRQ_HANDLED;
}
