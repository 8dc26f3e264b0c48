/*
 * AHCI core, bus-independent: bringing an HBA and its ports up (AHCI
 * 1.3.1 section 10), the port primitives recovery reuses (stop, start,
 * COMRESET, command list override, a polled command), and attaching each
 * ATA disk found as a gendisk.  The request path is ahci_io.c, recovery
 * ahci_eh.c, the PCI glue ahci_pci.c.
 *
 * Bring-up order (10.1.2, HARDWARE.md 1-7):
 *   GHC.AE; BIOS/OS handoff when CAP2.BOH; save CAP/PI, GHC.HR, AE again,
 *   restore what the reset wipes; then per implemented port: stop the
 *   engines (ST then FRE, each bounded), program the command list and
 *   received-FIS bases, FRE on, spin-up (SUD, staggered when CAP.SSS) and
 *   COMRESET unless the link is already up; one shared deadline for every
 *   port's link, PxSERR cleared as each comes up; BSY/DRQ clear; the
 *   signature decides: ATA disks attach, ATAPI devices, port multipliers
 *   and enclosure bridges are named and left alone.  IDENTIFY is polled
 *   with port interrupts masked; PxIE and GHC.IE are set last
 *   (ahci_start), once the handler is installed.
 *
 * Every wait has a limit and a port that misbehaves is reported and
 * skipped: the boot never hangs on a disk.
 */
#include "block/genhd.h"
#include "drivers/ahci/ahcivar.h"
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

/* Where the per-port DMA page is cut up: each offset meets its alignment. */
#define AHCI_PAGE_CMD_LIST	0	/* 1 KiB aligned (4.2.2) */
#define AHCI_PAGE_RFIS		1024	/* 256-byte aligned (4.2.1) */
#define AHCI_PAGE_EH_TABLE	2048	/* 128-byte aligned (4.2.3), one PRD */
#define AHCI_PAGE_EH_BUF	3072	/* 512 bytes of polled-command data */

/* Poll until (reg & mask) == want, at most ms.  0 or -ETIMEDOUT. */
static int ahci_wait_eq(struct ahci_port *ap, unsigned reg, u32 mask, u32 want, u32 ms)
{
	u64 deadline = ktime_ms() + ms;

	for (;;) {
		if ((ahci_pread(ap, reg) & mask) == want)
			return 0;
		if (ktime_ms() > deadline)
			return -ETIMEDOUT;
		udelay(20);
	}
}

/* Poll until every bit of mask reads 0 in a port register, at most ms. */
int ahci_wait_clear(struct ahci_port *ap, unsigned reg, u32 mask, u32 ms)
{
	return ahci_wait_eq(ap, reg, mask, 0, ms);
}

/*
 * Stop the port's engines (10.1.2): clear ST and wait for CR, then clear
 * FRE and wait for FR, each at most AHCI_STOP_MS.  Returns 0 or
 * -ETIMEDOUT (reported by the caller).
 */
static int ahci_port_stop_all(struct ahci_port *ap)
{
	u32 cmd = ahci_pread(ap, AHCI_PREG_CMD);

	if (cmd & (AHCI_PREG_CMD_ST | AHCI_PREG_CMD_CR)) {
		ahci_pwrite(ap, AHCI_PREG_CMD, cmd & ~AHCI_PREG_CMD_ST);
		if (ahci_wait_clear(ap, AHCI_PREG_CMD, AHCI_PREG_CMD_CR, AHCI_STOP_MS))
			return -ETIMEDOUT;
	}
	cmd = ahci_pread(ap, AHCI_PREG_CMD);
	if (cmd & (AHCI_PREG_CMD_FRE | AHCI_PREG_CMD_FR)) {
		ahci_pwrite(ap, AHCI_PREG_CMD, cmd & ~AHCI_PREG_CMD_FRE);
		if (ahci_wait_clear(ap, AHCI_PREG_CMD, AHCI_PREG_CMD_FR, AHCI_STOP_MS))
			return -ETIMEDOUT;
	}
	return 0;
}

/* Clear ST and wait for CR (6.2.2.1 step 1); FIS receive stays on. */
int ahci_port_stop(struct ahci_port *ap)
{
	u32 cmd = ahci_pread(ap, AHCI_PREG_CMD);

	ahci_pwrite(ap, AHCI_PREG_CMD, cmd & ~AHCI_PREG_CMD_ST);
	return ahci_wait_clear(ap, AHCI_PREG_CMD, AHCI_PREG_CMD_CR, AHCI_STOP_MS);
}

/*
 * Set ST (10.3.1): only with FR running and BSY/DRQ clear.  Returns 0,
 * or -EBUSY when the device is still busy.
 */
int ahci_port_start(struct ahci_port *ap)
{
	u32 cmd;

	if (ahci_pread(ap, AHCI_PREG_TFD) & (ATA_STATUS_BSY | ATA_STATUS_DRQ))
		return -EBUSY;
	cmd = ahci_pread(ap, AHCI_PREG_CMD);
	ahci_pwrite(ap, AHCI_PREG_CMD, cmd | AHCI_PREG_CMD_FRE | AHCI_PREG_CMD_ST);
	return 0;
}

/*
 * COMRESET (10.4.2): with ST clear, DET=1 for at least 1 ms, then DET=0;
 * the link comes back on its own, at no more than the speed limit that
 * link errors earned (ap_spd_limit, ahci_link.c).  Partial and slumber
 * stay forbidden (HARDWARE.md 5).  The caller waits for the link.
 */
int ahci_port_comreset(struct ahci_port *ap)
{
	u32 sctl = ahci_pread(ap, AHCI_PREG_SCTL);

	if (ahci_pread(ap, AHCI_PREG_CMD) & AHCI_PREG_CMD_CR)
		return -EBUSY;
	sctl &= ~(AHCI_PREG_SCTL_DET_MASK | AHCI_PREG_SCTL_IPM_MASK | AHCI_PREG_SCTL_SPD_MASK);
	sctl |= AHCI_PREG_SCTL_IPM_NOPARTIAL | AHCI_PREG_SCTL_IPM_NOSLUMBER;
	sctl |= ap->ap_spd_limit << AHCI_PREG_SCTL_SPD_SHIFT;
	ahci_pwrite(ap, AHCI_PREG_SCTL, sctl | AHCI_PREG_SCTL_DET_INIT);
	mdelay(AHCI_COMRESET_HOLD_MS + 1);
	ahci_pwrite(ap, AHCI_PREG_SCTL, sctl | AHCI_PREG_SCTL_DET_NONE);
	return 0;
}

/*
 * Command List Override (3.3.7, 6.2.2.2): clears BSY and DRQ in PxTFD so
 * that the port can start again without a COMRESET.  Only with ST clear
 * and CAP.SCLO.  Returns 0, -EOPNOTSUPP or -ETIMEDOUT.
 */
int ahci_port_clo(struct ahci_port *ap)
{
	u32 cmd;

	if (!(ap->ap_sc->sc_cap & AHCI_REG_CAP_SCLO))
		return -EOPNOTSUPP;
	cmd = ahci_pread(ap, AHCI_PREG_CMD);
	ahci_pwrite(ap, AHCI_PREG_CMD, cmd | AHCI_PREG_CMD_CLO);
	return ahci_wait_clear(ap, AHCI_PREG_CMD, AHCI_PREG_CMD_CLO, AHCI_STOP_MS);
}

/*
 * The link just came up: clear PxSERR (10.4.2, "then software should
 * write all 1s to the PxSERR register").  Until DIAG.X, set by the
 * device's COMINIT, is cleared, real HBAs keep the device's first D2H
 * Register FIS out of PxTFD and PxSIG, so BSY would seem to stay set.
 */
static void ahci_port_link_up(struct ahci_port *ap)
{
	ahci_pwrite(ap, AHCI_PREG_SERR, ~0u);
}

/* Wait for the PHY: SSTS.DET = 3, then clear PxSERR (10.4.2).  0 or -ETIMEDOUT. */
int ahci_port_wait_link(struct ahci_port *ap, u32 ms)
{
	int ret = ahci_wait_eq(ap, AHCI_PREG_SSTS, AHCI_PREG_SSTS_DET_MASK,
			       AHCI_PREG_SSTS_DET_PHY, ms);

	if (!ret)
		ahci_port_link_up(ap);
	return ret;
}

/* Wait for BSY and DRQ to clear after a reset.  0 or -ETIMEDOUT. */
int ahci_port_wait_ready(struct ahci_port *ap, u32 ms)
{
	return ahci_wait_clear(ap, AHCI_PREG_TFD, ATA_STATUS_BSY | ATA_STATUS_DRQ, ms);
}

/* Clear PxSERR and PxIS (both RW1C), in that order (10.1.2 step 5). */
void ahci_port_clear_errors(struct ahci_port *ap)
{
	ahci_pwrite(ap, AHCI_PREG_SERR, ahci_pread(ap, AHCI_PREG_SERR));
	ahci_pwrite(ap, AHCI_PREG_IS, ahci_pread(ap, AHCI_PREG_IS));
}

/* The interrupts the I/O path wants: completions, errors, link changes. */
void ahci_port_enable_intr(struct ahci_port *ap)
{
	ahci_pwrite(ap, AHCI_PREG_IE, AHCI_PREG_IS_DHRS | AHCI_PREG_IS_PSS |
		    AHCI_PREG_IS_DSS | AHCI_PREG_IS_SDBS | AHCI_PREG_IS_ERRORS |
		    AHCI_PREG_IS_PCS | AHCI_PREG_IS_PRCS);
}

/**
 * ahci_port_poll_cmd - run one non-queued command in slot 0 and poll
 * @tf: the command; data (if @bytes) lands in ap_eh_buf, device to host
 * @bytes: at most 512
 * @ms: limit
 *
 * The port must be started with nothing in PxCI and its interrupts
 * masked (bring-up, or recovery, which owns the port).  Returns 0, -EIO
 * when the device reports an error, -ETIMEDOUT.
 */
int ahci_port_poll_cmd(struct ahci_port *ap, const struct ata_taskfile *tf, u32 bytes,
		       u32 ms)
{
	struct ahci_cmd_table *t = ap->ap_eh_table;
	struct scatterlist sg = { .sg_addr = ap->ap_eh_buf_dma, .sg_len = bytes };
	u64 deadline = ktime_ms() + ms;
	u32 is, n = 0, total;
	int ret;

	KASSERT(bytes <= ATA_LOG_SECTOR_SIZE);
	memset(t, 0, offsetof(struct ahci_cmd_table, ct_prdt));
	ata_tf_to_fis(tf, 0, (struct sata_fis_h2d *)t->ct_cfis);
	if (bytes) {
		ret = ahci_fill_prdt(t->ct_prdt, 1, &sg, 1, ap->ap_sc->sc_dma64, &total);
		if (ret < 0)
			return ret;
		n = (u32)ret;
	}
	ahci_fill_hdr(&ap->ap_cmd_list[0], ap->ap_eh_table_dma, n, false);
	ahci_pwrite(ap, AHCI_PREG_IS, ahci_pread(ap, AHCI_PREG_IS));
	barrier();
	ahci_pwrite(ap, AHCI_PREG_CI, 1);
	for (;;) {
		is = ahci_pread(ap, AHCI_PREG_IS);
		if (is & AHCI_PREG_IS_FATAL)
			break;
		if (!(ahci_pread(ap, AHCI_PREG_CI) & 1))
			break;
		if (ktime_ms() > deadline) {
			DPRINTF(AHCI_D_EH, "%s: %s timed out\n", ap->ap_name,
				ata_cmd_name(tf->tf_command));
			return -ETIMEDOUT;
		}
		udelay(20);
	}
	ahci_pwrite(ap, AHCI_PREG_IS, is);
	if ((is & AHCI_PREG_IS_FATAL) ||
	    (ahci_pread(ap, AHCI_PREG_TFD) & (ATA_STATUS_ERR | ATA_STATUS_DF)))
		return -EIO;
	return 0;
}

/*
 * ad_exec of the port's struct ata_dev: a polled command in slot 0, its
 * data (IDENTIFY) copied out of the DMA buffer before anyone looks at it.
 * Same rules as ahci_port_poll_cmd.
 */
static int ahci_port_exec(struct ata_dev *ad, const struct ata_taskfile *tf, u16 *buf)
{
	struct ahci_port *ap = container_of(ad, struct ahci_port, ap_ad);
	int ret;

	ret = ahci_port_poll_cmd(ap, tf, buf ? ATA_ID_WORDS * 2 : 0, AHCI_POLL_CMD_MS);
	if (!ret && buf)
		memcpy(buf, ap->ap_eh_buf, ATA_ID_WORDS * 2);
	return ret;
}

/* Give back the command tables of ahci_port_alloc_ccbs, all or some. */
static void ahci_port_free_ccbs(struct ahci_port *ap)
{
	unsigned i;

	for (i = 0; i < AHCI_PORT_CCBS; i++) {
		if (ap->ap_ccbs[i].ccb_table)
			free_pages(ap->ap_ccbs[i].ccb_table, 0);
		ap->ap_ccbs[i].ccb_table = NULL;
	}
	INIT_LIST_HEAD(&ap->ap_ccb_free);
}

/* Give back what ahci_port_alloc took. */
static void ahci_port_free(struct ahci_port *ap)
{
	ahci_port_free_ccbs(ap);
	if (ap->ap_dma_page)
		free_pages(ap->ap_dma_page, 0);
	kfree(ap);
}

/*
 * The port's memory: one page cut into command list, received-FIS area,
 * recovery table and buffer (the command tables come with a disk,
 * ahci_port_alloc_ccbs).  Lowmem pages: physically below 896 MiB, so
 * reachable with or without CAP.S64A.  Returns the port or NULL.
 */
static struct ahci_port *ahci_port_alloc(struct ahci_softc *sc, unsigned num)
{
	struct ahci_port *ap = kzalloc(sizeof(*ap), GFP_KERNEL);
	u8 *page;

	if (!ap)
		return NULL;
	ap->ap_sc = sc;
	ap->ap_num = num;
	ap->ap_regs = sc->sc_regs + AHCI_PORT_OFFSET(num);
	snprintf(ap->ap_name, sizeof(ap->ap_name), "%s.%u", sc->sc_name, num);
	spin_lock_init(&ap->ap_lock, "ahci_port");
	INIT_LIST_HEAD(&ap->ap_ccb_free);
	work_init(&ap->ap_eh_work, ahci_eh_work);
	timer_setup(&ap->ap_eh_timer, ahci_eh_timer);

	page = get_zeroed_page(GFP_KERNEL);
	if (!page)
		goto free_port;
	ap->ap_dma_page = page;
	ap->ap_cmd_list = (struct ahci_cmd_hdr *)(page + AHCI_PAGE_CMD_LIST);
	ap->ap_cmd_list_dma = __pa(ap->ap_cmd_list);
	ap->ap_rfis = (struct ahci_rfis *)(page + AHCI_PAGE_RFIS);
	ap->ap_rfis_dma = __pa(ap->ap_rfis);
	ap->ap_eh_table = (struct ahci_cmd_table *)(page + AHCI_PAGE_EH_TABLE);
	ap->ap_eh_table_dma = __pa(ap->ap_eh_table);
	ap->ap_eh_buf = page + AHCI_PAGE_EH_BUF;
	ap->ap_eh_buf_dma = __pa(ap->ap_eh_buf);
	return ap;

free_port:
	ahci_port_free(ap);
	return NULL;
}

/* A command table page per CCB, for a port that has a disk.  0 or -ENOMEM. */
static int ahci_port_alloc_ccbs(struct ahci_port *ap)
{
	unsigned i;

	for (i = 0; i < AHCI_PORT_CCBS; i++) {
		struct ahci_ccb *ccb = &ap->ap_ccbs[i];

		ccb->ccb_port = ap;
		ccb->ccb_table = get_zeroed_page(GFP_KERNEL);
		if (!ccb->ccb_table)
			return -ENOMEM;		/* the caller frees what was got */
		ccb->ccb_table_dma = __pa(ccb->ccb_table);
		list_add_tail(&ccb->ccb_free, &ap->ap_ccb_free);
	}
	return 0;
}

/*
 * First half of port bring-up (10.1.2 steps 3-5, 10.3.1), also after an
 * HBA reset: engines stopped, bases programmed, errors cleared, FIS
 * receive on, device spun up and, unless its link is already up,
 * COMRESET.  Returns 0 or -ETIMEDOUT (reported).
 */
int ahci_port_init(struct ahci_port *ap)
{
	struct ahci_softc *sc = ap->ap_sc;
	u32 cmd;

	if (ahci_port_stop_all(ap)) {
		pr_warn("%s: engines do not stop (PxCMD %08x); port skipped\n", ap->ap_name,
			ahci_pread(ap, AHCI_PREG_CMD));
		return -ETIMEDOUT;
	}
	ahci_pwrite(ap, AHCI_PREG_IE, 0);
	ahci_pwrite(ap, AHCI_PREG_CLB, (u32)ap->ap_cmd_list_dma);
	ahci_pwrite(ap, AHCI_PREG_CLBU, sc->sc_dma64 ? (u32)(ap->ap_cmd_list_dma >> 32) : 0);
	ahci_pwrite(ap, AHCI_PREG_FB, (u32)ap->ap_rfis_dma);
	ahci_pwrite(ap, AHCI_PREG_FBU, sc->sc_dma64 ? (u32)(ap->ap_rfis_dma >> 32) : 0);
	ahci_port_clear_errors(ap);

	cmd = ahci_pread(ap, AHCI_PREG_CMD) & ~AHCI_PREG_CMD_ICC_MASK;
	cmd |= AHCI_PREG_CMD_FRE;
	ahci_pwrite(ap, AHCI_PREG_CMD, cmd);
	/* Spin-up (10.1.1): with CAP.SSS the device waits for SUD. */
	if (cmd & AHCI_PREG_CMD_CPD)
		cmd |= AHCI_PREG_CMD_POD;
	cmd |= AHCI_PREG_CMD_SUD | AHCI_PREG_CMD_ICC_ACTIVE;
	ahci_pwrite(ap, AHCI_PREG_CMD, cmd);
	if (sc->sc_cap & AHCI_REG_CAP_SSS)
		mdelay(AHCI_SPINUP_SETTLE_MS);

	/* A link that is already up is left alone (VMware, HARDWARE.md 5). */
	if ((ahci_pread(ap, AHCI_PREG_SSTS) & AHCI_PREG_SSTS_DET_MASK) != AHCI_PREG_SSTS_DET_PHY)
		ahci_port_comreset(ap);
	return 0;
}

/*
 * Wait for the PHY on every initialised port against one deadline, so
 * empty ports cost one wait in all rather than one each (HARDWARE.md 5).
 * Ports with no device presence at all stop being waited for after a
 * short window.  Sets up[n] for each port whose link came up; the others
 * stay EMPTY.
 */
static void ahci_wait_links(struct ahci_softc *sc, bool *up)
{
	u64 start = ktime_ms(), now;
	unsigned i, pending;
	u32 det;

	for (;;) {
		pending = 0;
		now = ktime_ms();
		for (i = 0; i < AHCI_MAX_PORTS; i++) {
			struct ahci_port *ap = sc->sc_ports[i];

			if (!ap || up[i] || ap->ap_state != AHCI_PORT_EMPTY)
				continue;
			det = ahci_pread(ap, AHCI_PREG_SSTS) & AHCI_PREG_SSTS_DET_MASK;
			if (det == AHCI_PREG_SSTS_DET_PHY) {
				ahci_port_link_up(ap);
				up[i] = true;
				continue;
			}
			/* DET=0: nothing answered COMRESET; give it the presence window only. */
			if (det == AHCI_PREG_SSTS_DET_NONE && now - start > AHCI_PRESENCE_MS)
				continue;
			pending++;
		}
		if (!pending || now - start > AHCI_LINK_MS)
			return;
		udelay(100);
	}
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
 * ATA disk: start, IDENTIFY, queue.  Returns 0 (port READY or SKIPPED)
 * or a negative errno (FAILED, reported here).
 */
static int ahci_port_probe(struct ahci_port *ap)
{
	char model[ATA_MODEL_LEN + 1];
	enum ata_dev_class class;
	u32 sig, tfd;
	int ret;

	/* 7Fh: a link but no device behind it (HARDWARE.md 5). */
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
	ap->ap_state = AHCI_PORT_READY;
	return 0;
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
 * their HwInit bits in GHC.HR (HARDWARE.md 3).  The whole saved value
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
static int ahci_port_add_disk(struct ahci_port *ap)
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
 * (HARDWARE.md 1).  Returns 0 or a negative errno (reported here).
 */
int ahci_init(struct ahci_softc *sc)
{
	char ver[16];
	u32 vs, pi;
	int ret, n;

	snprintf(sc->sc_name, sizeof(sc->sc_name), "ahci%u", sc->sc_unit);

	/* AE first (10.1.2, HARDWARE.md 2); then what the HBA says about itself. */
	ahci_write(sc, AHCI_REG_GHC, ahci_read(sc, AHCI_REG_GHC) | AHCI_REG_GHC_AE);
	vs = ahci_read(sc, AHCI_REG_VS);
	if (vs == 0xFFFFFFFF) {
		pr_err("%s: registers read all ones; HBA not usable\n", sc->sc_name);
		return -ENXIO;
	}
	sc->sc_cap = ahci_read(sc, AHCI_REG_CAP);
	sc->sc_cap2 = vs >= 0x00010200 ? ahci_read(sc, AHCI_REG_CAP2) : 0;
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

/**
 * ahci_attach - bring up the ports of an HBA that ahci_init reset, and
 * find their disks
 * @sc: initialised, bus mastering on
 *
 * Leaves ports with ATA disks started, identified, and with a queue;
 * interrupts stay off until ahci_start().  Cannot fail: a port that
 * misbehaves, or has no memory, is reported and skipped.
 */
void ahci_attach(struct ahci_softc *sc)
{
	bool up[AHCI_MAX_PORTS] = { false };
	unsigned i, ready = 0;
	int index;

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
		ap->ap_state = ahci_port_init(ap) ? AHCI_PORT_FAILED : AHCI_PORT_EMPTY;
	}
	ahci_wait_links(sc, up);
	for (i = 0; i < AHCI_MAX_PORTS; i++) {
		struct ahci_port *ap = sc->sc_ports[i];

		if (!ap || !up[i])
			continue;
		if (ahci_port_probe(ap)) {
			ap->ap_state = AHCI_PORT_FAILED;
			continue;
		}
		if (ap->ap_state != AHCI_PORT_READY)
			continue;
		index = disk_sd_get(ap->ap_dname, sizeof(ap->ap_dname));
		if (index < 0) {
			pr_warn("%s: no disk name left; skipped\n", ap->ap_name);
			ap->ap_state = AHCI_PORT_SKIPPED;
			continue;
		}
		ap->ap_disk_index = (unsigned)index;
		if (ahci_port_alloc_ccbs(ap) || ahci_port_setup_queue(ap)) {
			pr_warn("%s: out of memory for the disk; skipped\n", ap->ap_name);
			ahci_port_free_ccbs(ap);
			ahci_port_put_name(ap);
			ap->ap_state = AHCI_PORT_FAILED;
			continue;
		}
		ready++;
	}
	DPRINTF(AHCI_D_INIT, "%s: %u disks\n", sc->sc_name, ready);
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
 * step of bring-up, HARDWARE.md 7), then add a gendisk per disk; the
 * partition scan reads through the interrupt-driven path.
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
