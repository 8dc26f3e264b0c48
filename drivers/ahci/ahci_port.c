/*
 * AHCI port primitives, bus-independent: the per-port memory (command
 * list, received-FIS area, command tables), the engines' stop and start
 * (AHCI 1.3.1 section 10.1.2), COMRESET (10.4.2), command list override
 * (10.4.1 with CAP.SCLO), bounded waits on port registers, and a polled
 * command for IDENTIFY and READ LOG EXT.  Bring-up (ahci.c) and recovery
 * (ahci_eh.c) are built from these.
 *
 * Contract: every call here is made with the port owned by its caller:
 * attach before interrupts are on, or the error handler while
 * ap_eh_active is set.  Every wait has a limit in ms and returns
 * -ETIMEDOUT when it runs out.
 */
#include "drivers/ahci/ahci_priv.h"
#include "drivers/ata/atareg.h"
#include "kernel/errno.h"
#include "kernel/mm/slab.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "lib/string.h"

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
int ahci_port_stop_all(struct ahci_port *ap)
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
 * stay forbidden (PxSCTL.IPM, 3.3.11).  The caller waits for the link.
 */
int ahci_port_comreset(struct ahci_port *ap)
{
	int ret = ahci_port_comreset_begin(ap);

	if (ret)
		return ret;
	mdelay(AHCI_COMRESET_HOLD_MS + 1);
	ahci_port_comreset_end(ap);
	return 0;
}

/*
 * The first half of COMRESET: DET=1 (with the IPM and speed fields as
 * above).  Several ports may hold DET=1 at once, so attach resets them
 * all under one hold.  0, or -EBUSY when the command engine still runs.
 */
int ahci_port_comreset_begin(struct ahci_port *ap)
{
	u32 sctl = ahci_pread(ap, AHCI_PREG_SCTL);

	if (ahci_pread(ap, AHCI_PREG_CMD) & AHCI_PREG_CMD_CR)
		return -EBUSY;
	sctl &= ~(AHCI_PREG_SCTL_DET_MASK | AHCI_PREG_SCTL_IPM_MASK | AHCI_PREG_SCTL_SPD_MASK);
	sctl |= AHCI_PREG_SCTL_IPM_NOPARTIAL | AHCI_PREG_SCTL_IPM_NOSLUMBER;
	sctl |= ap->ap_spd_limit << AHCI_PREG_SCTL_SPD_SHIFT;
	ahci_pwrite(ap, AHCI_PREG_SCTL, sctl | AHCI_PREG_SCTL_DET_INIT);
	return 0;
}

/* The second half: DET=0, once DET=1 was held AHCI_COMRESET_HOLD_MS. */
void ahci_port_comreset_end(struct ahci_port *ap)
{
	u32 sctl = ahci_pread(ap, AHCI_PREG_SCTL);

	ahci_pwrite(ap, AHCI_PREG_SCTL, (sctl & ~AHCI_PREG_SCTL_DET_MASK) | AHCI_PREG_SCTL_DET_NONE);
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
void ahci_port_link_up(struct ahci_port *ap)
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
int ahci_port_exec(struct ata_dev *ad, const struct ata_taskfile *tf, u16 *buf)
{
	struct ahci_port *ap = container_of(ad, struct ahci_port, ap_ad);
	int ret;

	ret = ahci_port_poll_cmd(ap, tf, buf ? ATA_ID_WORDS * 2 : 0, AHCI_POLL_CMD_MS);
	if (!ret && buf)
		memcpy(buf, ap->ap_eh_buf, ATA_ID_WORDS * 2);
	return ret;
}

/* Give back the command tables of ahci_port_alloc_ccbs, all or some. */
void ahci_port_free_ccbs(struct ahci_port *ap)
{
	unsigned i;

	for (i = 0; i < AHCI_PORT_CCBS; i++) {
		if (ap->ap_ccbs[i].ccb_table)
			free_pages(ap->ap_ccbs[i].ccb_table, 0);
		ap->ap_ccbs[i].ccb_table = NULL;
	}
	INIT_LIST_HEAD(&ap->ap_ccb_free);
	if (ap->ap_trim_buf)
		free_pages(ap->ap_trim_buf, 0);
	ap->ap_trim_buf = NULL;
}

/* Give back what ahci_port_alloc took. */
void ahci_port_free(struct ahci_port *ap)
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
struct ahci_port *ahci_port_alloc(struct ahci_softc *sc, unsigned num)
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

/*
 * A command table page per CCB, for a port that has a disk, and the DSM
 * TRIM payload page when the disk has TRIM.  0 or -ENOMEM.
 */
int ahci_port_alloc_ccbs(struct ahci_port *ap)
{
	unsigned i;

	if (ap->ap_id.ai_trim) {
		ap->ap_trim_buf = get_zeroed_page(GFP_KERNEL);
		if (!ap->ap_trim_buf)
			return -ENOMEM;
		ap->ap_trim_dma = __pa(ap->ap_trim_buf);
		ap->ap_trim_blocks = min((u32)ap->ap_id.ai_trim_max_blocks,
					 (u32)(PAGE_SIZE / ATA_DSM_BLOCK_BYTES));
	}
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
 * HBA reset: ahci_port_prepare, then, unless its link is already up,
 * COMRESET.  Returns 0 or -ETIMEDOUT (reported).
 */
int ahci_port_init(struct ahci_port *ap)
{
	int ret = ahci_port_prepare(ap);

	if (!ret && ahci_port_wants_comreset(ap))
		ahci_port_comreset(ap);
	return ret;
}

/* A link already up (PxSSTS.DET, 3.3.10) is left alone: VMware drops it otherwise. */
bool ahci_port_wants_comreset(struct ahci_port *ap)
{
	return (ahci_pread(ap, AHCI_PREG_SSTS) & AHCI_PREG_SSTS_DET_MASK) != AHCI_PREG_SSTS_DET_PHY;
}

/*
 * ahci_port_init without the COMRESET: engines stopped, bases
 * programmed, errors cleared, FIS receive on, device spun up.  Returns 0
 * or -ETIMEDOUT (reported).
 */
int ahci_port_prepare(struct ahci_port *ap)
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
	return 0;
}
