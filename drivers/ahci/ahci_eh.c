/*
 * AHCI error recovery (AHCI 1.3.1 section 6.2.2) and request timeouts.
 *
 * The interrupt handler, on a task-file or interface error, and the
 * block layer's timeout hook, on a request past its deadline, only mark
 * the port (ap_eh_active), stop its queue, mask its interrupts and queue
 * ahci_eh_work; the recovery itself polls, so it runs as deferred work
 * with interrupts on.  It owns the port until it ends:
 *
 *   1. clear PxCMD.ST and wait for CR (6.2.2.1); clear PxSERR and PxIS;
 *   2. BSY or DRQ still set: Command List Override when CAP.SCLO, else
 *      COMRESET; a link or interface error or a timeout: COMRESET;
 *   3. start the port; for an NCQ error read the NCQ Command Error log
 *      (READ LOG EXT page 10h, polled in slot 0) for the failing tag;
 *   4. stop again and let the device quiesce: PxSACT and PxCI must drain,
 *      else COMRESET; after an NCQ error always COMRESET (QEMU keeps
 *      running queued commands that a real HBA drops at ST=0);
 *   5. restart, revalidate (ata_dev_revalidate: IDENTIFY says it is the
 *      same disk, SET FEATURES tells it its mode and cache setting again;
 *      another device fails the disk at once, nothing is written to it;
 *      the IDENTIFY also clears the error QEMU would otherwise report
 *      again on the next queued completions), fail the
 *      failing request with -EIO (its sector is logged), give every
 *      innocent one back to the block layer (requeued at the head, in
 *      order), unmask, run the queue.
 * When the failing command cannot be named (no log, several non-queued
 * commands out), everything is requeued and the next ap_isolate commands
 * go out one at a time, so that a repeat error names its request.  When
 * the link or the host bus failed, or a command timed out, the commands
 * that were out are charged a retry (which one the failure cost is not
 * known), so that a link that fails on every command ends them with -EIO
 * after q_max_retries recoveries instead of looping; link errors also
 * slow the link (ahci_link.c).  A port that cannot be stopped, reset or
 * started again gets the last resort, an HBA reset (every port
 * reprogrammed, their commands requeued), at most AHCI_EH_MAX_TRIES times
 * in a row; after that it is marked failed: its requests end with -EIO
 * and the rest of the system runs on.
 */
#include "block/genhd.h"
#include "drivers/ahci/ahci_priv.h"
#include "drivers/ata/atareg.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "lib/string.h"

/**
 * ahci_eh_schedule - hand the port to recovery.  Port lock held; callable
 * from interrupt context.  @is: the PxIS bits that showed the problem.
 */
void ahci_eh_schedule(struct ahci_port *ap, u32 is)
{
	assert_spin_locked(&ap->ap_lock);
	ap->ap_eh_is |= is;
	if (ap->ap_eh_active)
		return;
	ap->ap_eh_active = true;
	ahci_pwrite(ap, AHCI_PREG_IE, 0);
	blk_stop_queue(ap->ap_queue);
	schedule_work(&ap->ap_eh_work);
}

/*
 * rq_timed_out_fn (queue lock held, timer interrupt): reset the port
 * from recovery; the request is retried there, up to the queue's
 * q_max_retries, then failed.
 */
enum blk_eh_timer_return ahci_timed_out(struct request *rq)
{
	struct ahci_port *ap = rq->rq_q->q_queuedata;

	if (ap->ap_eh_active)
		return BLK_EH_RESET_TIMER;	/* recovery is already at it */
	if (rq->rq_tag >= 0 && (ap->ap_issued & (1u << rq->rq_tag))) {
		pr_warn("%s: command in slot %d timed out (sector %llu)\n", ap->ap_name,
			rq->rq_tag, (unsigned long long)blk_rq_pos(rq));
		ap->ap_eh_timedout |= 1u << rq->rq_tag;
	}
	ahci_eh_schedule(ap, 0);
	return BLK_EH_RESET_TIMER;	/* recovery ends or requeues it */
}

/*
 * ahcireset's timer: recovery as if the port had failed (a COMRESET, an
 * HBA reset, or as from a link error) while I/O runs; what was asked for
 * is handed over only now, so that a recovery meanwhile does not take it
 * (tests/qemu/ahci-reset.sh).
 */
void ahci_eh_timer(struct timer_list *t)
{
	struct ahci_port *ap = container_of(t, struct ahci_port, ap_eh_timer);
	unsigned long flags;

	spin_lock_irqsave(&ap->ap_lock, flags);
	ap->ap_eh_force |= ap->ap_eh_force_later;
	ap->ap_eh_force_later = 0;
	ahci_eh_schedule(ap, 0);
	spin_unlock_irqrestore(&ap->ap_lock, flags);
}

/**
 * ahci_eh_force - have recovery run on the disk of queue q as if asked by
 * the hardware: now, or after delay_ms (ahcireset)
 * @force: AHCI_EH_FORCE_PORT, _HBA or _LINK
 *
 * Returns 0, or -ENODEV when q is not an AHCI disk's queue.  Any context
 * that may take the port lock.
 */
int ahci_eh_force(struct request_queue *q, u32 force, u32 delay_ms)
{
	struct ahci_port *ap;
	unsigned long flags;

	if (!q || q->q_request_fn != ahci_request_fn)
		return -ENODEV;
	ap = q->q_queuedata;
	spin_lock_irqsave(&ap->ap_lock, flags);
	if (delay_ms) {
		ap->ap_eh_force_later |= force;
		mod_timer(&ap->ap_eh_timer, get_jiffies_64() + msecs_to_jiffies(delay_ms));
	} else {
		ap->ap_eh_force |= force;
		ahci_eh_schedule(ap, 0);
	}
	spin_unlock_irqrestore(&ap->ap_lock, flags);
	return 0;
}

/* COMRESET, then wait for the link and for BSY to clear.  0 or -ETIMEDOUT. */
static int ahci_eh_comreset(struct ahci_port *ap)
{
	int ret;

	DPRINTF(AHCI_D_EH, "%s: COMRESET\n", ap->ap_name);
	ret = ahci_port_comreset(ap);
	if (!ret)
		ret = ahci_port_wait_link(ap, AHCI_LINK_MS);
	if (!ret)
		ret = ahci_port_wait_ready(ap, AHCI_EH_BSY_MS);
	ahci_port_clear_errors(ap);
	return ret;
}

/*
 * Steps 1-2: stop the port, clear errors, make BSY/DRQ go away.
 * Returns 0 (port stopped and idle) or a negative errno.
 */
static int ahci_eh_stop(struct ahci_port *ap, bool want_reset)
{
	int ret = ahci_port_stop(ap);

	ahci_port_clear_errors(ap);
	if (ret)
		return ret;	/* CR stuck: beyond a port reset (10.1.2 step 3, 10.4.3) */
	if (!want_reset &&
	    (ahci_pread(ap, AHCI_PREG_TFD) & (ATA_STATUS_BSY | ATA_STATUS_DRQ)) &&
	    ahci_port_clo(ap))
		want_reset = true;
	return want_reset ? ahci_eh_comreset(ap) : 0;
}

/*
 * Step 3: the NCQ Command Error log.  Returns 0 with *ne filled, or a
 * negative errno (the log is then unknown).
 */
static int ahci_eh_read_log(struct ahci_port *ap, struct ata_ncq_err *ne)
{
	u8 log[ATA_LOG_SECTOR_SIZE];
	struct ata_taskfile tf;
	int ret;

	ret = ahci_port_start(ap);
	if (ret)
		return ret;
	ata_read_log_ext(&tf, ATA_LOG_SATA_NCQ, 0, 1);
	ret = ahci_port_poll_cmd(ap, &tf, ATA_LOG_SECTOR_SIZE, AHCI_POLL_CMD_MS);
	if (ret) {
		DPRINTF(AHCI_D_EH, "%s: READ LOG EXT 10h failed (%d)\n", ap->ap_name, ret);
		return ret;
	}
	memcpy(log, ap->ap_eh_buf, sizeof(log));	/* device data: copy, then parse */
	return ata_ncq_log_parse(log, ne);
}

/*
 * Step 4: with ST clear the HBA must drop every command (3.3.13, 3.3.14);
 * wait for PxSACT and PxCI to read 0, else reset the device.  With NCQ
 * commands out, reset it anyway: QEMU clears PxSACT at ST=0 but lets the
 * commands run on, and each later Set Device Bits FIS would clear the
 * bit of whatever command next holds that tag.  A COMRESET (FIS receive
 * still on) ends them for good; on real HBAs it costs one link reset.
 */
static int ahci_eh_quiesce(struct ahci_port *ap, bool reset)
{
	int ret = ahci_port_stop(ap);

	if (!ret && !reset)
		ret = ahci_wait_clear(ap, AHCI_PREG_SACT, ~0u, AHCI_QUIESCE_MS);
	if (!ret && !reset)
		ret = ahci_wait_clear(ap, AHCI_PREG_CI, ~0u, AHCI_QUIESCE_MS);
	if (ret || reset) {
		DPRINTF(AHCI_D_EH, "%s: SACT %08x CI %08x after stop\n", ap->ap_name,
			ahci_pread(ap, AHCI_PREG_SACT), ahci_pread(ap, AHCI_PREG_CI));
		ret = ahci_eh_stop(ap, true);
	}
	ahci_port_clear_errors(ap);
	return ret;
}

/*
 * Step 5, under the port lock: fail, requeue, account.  Slots are
 * requeued from the highest down, each at the head of the dispatch list,
 * so that they go out again in slot (= issue) order.  A charged slot
 * uses up one of its request's retries; past q_max_retries it fails.
 */
static void __ahci_eh_finish(struct ahci_port *ap, u32 failed, u32 requeue, u32 charged)
{
	struct request_queue *q = ap->ap_queue;
	struct request *rq;
	int slot;

	for (slot = AHCI_MAX_SLOTS - 1; slot >= 0; slot--) {
		u32 bit = 1u << slot;

		if (!((failed | requeue) & bit))
			continue;
		rq = blk_queue_find_tag(q, slot);
		if (!rq)
			continue;
		if ((charged & bit) && ++rq->rq_retries > q->q_max_retries)
			failed |= bit;
		if (failed & bit)
			__ahci_end_request(ap, rq, -EIO);
		else
			blk_requeue_request(q, rq);
	}
	ap->ap_issued = 0;
	ap->ap_sactive = 0;
	ap->ap_nonq_busy = false;
}

/* The port is beyond recovery: end everything it holds with -EIO. */
static void __ahci_eh_port_dead(struct ahci_port *ap, u32 outstanding)
{
	pr_err("%s: port does not recover; disk %s offline\n", ap->ap_name, ap->ap_dname);
	ap->ap_state = AHCI_PORT_FAILED;
	__ahci_eh_finish(ap, outstanding, 0, 0);
}

/*
 * Bring a port back after the HBA reset wiped its registers (and reset
 * its device): program it as at boot, wait for its link and device,
 * start it, revalidate the disk.  0 or -errno (-ENODEV: another disk).
 */
static int ahci_eh_port_reinit(struct ahci_port *ap)
{
	int ret = ahci_port_init(ap);

	if (!ret)
		ret = ahci_port_wait_link(ap, AHCI_LINK_MS);
	if (!ret)
		ret = ahci_port_wait_ready(ap, AHCI_EH_BSY_MS);
	ahci_port_clear_errors(ap);
	if (!ret)
		ret = ahci_port_start(ap);
	if (!ret)
		ret = ata_dev_revalidate(&ap->ap_ad, &ap->ap_id);
	return ret;
}

/*
 * The last resort (AHCI 1.3.1 10.4.3): reset the whole HBA.  Every ready
 * port is taken over (its queue stopped, interrupts masked), and after
 * GHC.HR reprogrammed and restarted; what the other ports had issued is
 * requeued, a port that does not come back is dead.  The failing port's
 * own requests are left to the caller.  Returns 0 when it came back.
 */
static int ahci_eh_hba_reset(struct ahci_port *failing)
{
	struct ahci_softc *sc = failing->ap_sc;
	bool was_active[AHCI_MAX_PORTS] = { false };
	unsigned long flags;
	int ret, mine = -EIO;
	unsigned i;

	pr_warn("%s: port %u does not recover: resetting the HBA\n", sc->sc_name,
		failing->ap_num);
	for (i = 0; i < AHCI_MAX_PORTS; i++) {
		struct ahci_port *ap = sc->sc_ports[i];

		if (!ap || ap->ap_state != AHCI_PORT_READY || ap == failing)
			continue;
		spin_lock_irqsave(&ap->ap_lock, flags);
		was_active[i] = ap->ap_eh_active;	/* its own recovery runs later */
		ap->ap_eh_active = true;
		ahci_pwrite(ap, AHCI_PREG_IE, 0);
		blk_stop_queue(ap->ap_queue);
		spin_unlock_irqrestore(&ap->ap_lock, flags);
	}
	/*
	 * Quiesce every port while FIS receive is still on, so that nothing
	 * the device finishes during GHC.HR (with FRE off) is reported late,
	 * against a command issued afterwards -- QEMU does exactly that.
	 */
	for (i = 0; i < AHCI_MAX_PORTS; i++) {
		struct ahci_port *ap = sc->sc_ports[i];

		if (ap && ap->ap_state == AHCI_PORT_READY)
			ahci_eh_quiesce(ap, ap->ap_sactive != 0);	/* best effort: HR follows */
	}
	ret = ahci_hba_reset(sc);
	for (i = 0; i < AHCI_MAX_PORTS; i++) {
		struct ahci_port *ap = sc->sc_ports[i];
		int r;

		if (!ap || ap->ap_state != AHCI_PORT_READY)
			continue;
		r = ret ? ret : ahci_eh_port_reinit(ap);
		if (ap == failing) {
			mine = r;
			continue;
		}
		spin_lock_irqsave(&ap->ap_lock, flags);
		DPRINTF(AHCI_D_EH, "%s: after HBA reset (%d): requeue %08x\n", ap->ap_name, r,
			ap->ap_issued);
		if (r) {
			__ahci_eh_port_dead(ap, ap->ap_issued);
		} else {
			__ahci_eh_finish(ap, 0, ap->ap_issued, 0);
			ahci_port_enable_intr(ap);
		}
		if (!was_active[i]) {
			ap->ap_eh_active = false;
			blk_start_queue(ap->ap_queue);
		}
		spin_unlock_irqrestore(&ap->ap_lock, flags);
	}
	ahci_enable_intr(sc);
	return mine;
}

/*
 * A recovery that the link caused: note it, and on the second within
 * AHCI_LINK_ERR_WINDOW_MS hold the link one speed lower from the COMRESET
 * that follows.  Owned by recovery ([e]).
 */
static void ahci_eh_link_error(struct ahci_port *ap, u32 is, u32 serr, u32 tfd, u32 out)
{
	u64 now = ktime_ms();
	u32 spd;

	pr_warn("%s: link error (PxIS %08x, SError %08x, PxTFD %04x), %d commands out\n",
		ap->ap_name, is, serr, tfd, __builtin_popcount(out));
	if (!ap->ap_link_err_ms || now - ap->ap_link_err_ms >= AHCI_LINK_ERR_WINDOW_MS) {
		ap->ap_link_err_ms = now;
		return;
	}
	ap->ap_link_err_ms = 0;		/* the next step down takes two more */
	spd = ahci_link_slower(ahci_pread(ap, AHCI_PREG_SSTS), ap->ap_spd_limit);
	if (!spd) {
		pr_warn("%s: link errors again, at the lowest speed already\n", ap->ap_name);
		return;
	}
	ap->ap_spd_limit = spd;
	pr_warn("%s: link errors again: limiting the link to %s\n", ap->ap_name,
		ahci_link_speed_name(spd));
}

/* Deferred work: the recovery sequence above.  Interrupts on. */
void ahci_eh_work(struct work *w)
{
	struct ahci_port *ap = container_of(w, struct ahci_port, ap_eh_work);
	struct ata_ncq_err ne = { 0 };
	u32 outstanding, timedout, is, failed, requeue, tfd, serr, force, charged;
	unsigned long flags;
	bool ncq, log_ok = false, reset, link, lost;
	int ret, pick;

	spin_lock_irqsave(&ap->ap_lock, flags);
	outstanding = ap->ap_issued;
	ncq = ap->ap_sactive != 0;
	is = ap->ap_eh_is;
	timedout = ap->ap_eh_timedout;
	force = ap->ap_eh_force;
	ap->ap_eh_is = 0;
	ap->ap_eh_timedout = 0;
	ap->ap_eh_force = 0;
	spin_unlock_irqrestore(&ap->ap_lock, flags);

	if (force & AHCI_EH_FORCE_LINK) {	/* ahcireset DISK link */
		is |= AHCI_PREG_IS_IFS;
		force &= ~AHCI_EH_FORCE_LINK;
	}
	tfd = ahci_pread(ap, AHCI_PREG_TFD);
	serr = ahci_pread(ap, AHCI_PREG_SERR);
	DPRINTF(AHCI_D_EH, "%s: recovery: IS %08x TFD %04x SERR %08x out %08x%s\n", ap->ap_name,
		is, tfd, serr, outstanding, ncq ? " ncq" : "");
	link = ahci_link_error(is, serr, tfd);
	if (link)
		ahci_eh_link_error(ap, is, serr, tfd, outstanding);
	/* the link or the host bus failed: what was in flight is lost, all of it */
	lost = link || (is & (AHCI_PREG_IS_HBFS | AHCI_PREG_IS_HBDS | AHCI_PREG_IS_PCS |
			      AHCI_PREG_IS_PRCS));
	charged = lost ? outstanding : timedout;
	reset = lost || timedout || force;
	ret = force & AHCI_EH_FORCE_HBA ? -EIO : ahci_eh_stop(ap, reset);
	if (!ret && ncq && !reset && ((is & AHCI_PREG_IS_TFES) || (tfd & ATA_STATUS_ERR)))
		log_ok = ahci_eh_read_log(ap, &ne) == 0;
	if (!ret)
		ret = ahci_eh_quiesce(ap, ncq && !reset);
	if (!ret && !(force & AHCI_EH_FORCE_HBA))
		ret = ahci_port_start(ap);
	if (!ret && !(force & AHCI_EH_FORCE_HBA))
		ret = ata_dev_revalidate(&ap->ap_ad, &ap->ap_id);
	/* Another disk on the link is no failure an HBA reset can mend. */
	if (ret && ret != -ENODEV && ap->ap_eh_tries < AHCI_EH_MAX_TRIES) {
		ap->ap_eh_tries++;
		reset = true;			/* the device was reset with the HBA */
		ret = ahci_eh_hba_reset(ap);
	} else if (!ret) {
		ap->ap_eh_tries = 0;
		if (ap->ap_disk)	/* IDENTIFY was read again: the disk's view follows */
			ahci_disk_ops.bdo_revalidate_disk(ap->ap_disk);
	}

	spin_lock_irqsave(&ap->ap_lock, flags);
	if (ret) {
		__ahci_eh_port_dead(ap, outstanding);
		goto out;
	}
	if (reset) {
		failed = 0;
		requeue = outstanding;
		pick = 0;
	} else {
		pick = ahci_eh_pick(outstanding, log_ok, ne.ne_nq, ne.ne_tag, &failed, &requeue);
	}
	if (pick == -ENOENT)
		ap->ap_isolate += (u32)__builtin_popcount(requeue);
	if (failed)
		pr_err("%s: device error (status %02x, error %02x, SError %08x)%s\n", ap->ap_name,
		       tfd & AHCI_PREG_TFD_STS_MASK,
		       (tfd & AHCI_PREG_TFD_ERR_MASK) >> AHCI_PREG_TFD_ERR_SHIFT, serr,
		       log_ok ? ", from the NCQ error log" : "");
	__ahci_eh_finish(ap, failed, requeue, charged);
	ahci_port_enable_intr(ap);
out:
	ap->ap_eh_active = false;
	/* asked for again meanwhile (ahcireset's timer): once more, on a queue still stopped */
	if ((ap->ap_eh_is || ap->ap_eh_force) && ap->ap_state == AHCI_PORT_READY)
		ahci_eh_schedule(ap, 0);
	else
		blk_start_queue(ap->ap_queue);
	spin_unlock_irqrestore(&ap->ap_lock, flags);
}
