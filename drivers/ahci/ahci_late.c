/*
 * AHCI ports whose presence window outlives attach.  After COMRESET a
 * port with nothing on it reads PxSSTS.DET=0 (AHCI 1.3.1 section 3.3.10)
 * for good, and a device still powering up reads 0 too until its PHY
 * answers the COMRESET with COMINIT (10.4.2).  Attach (ahci.c) waits for
 * the ports that show a device (DET=1, DET=3) but does not hold the boot
 * for the AHCI_PRESENCE_MS window of the silent ones: it leaves them in
 * sc_late, and this file keeps looking at them, every AHCI_LATE_POLL_MS
 * from deferred work, until the window ends.  A port whose device answers
 * in time (DET=1, then DET=3 within AHCI_LINK_MS of the COMRESET) is
 * brought up as at boot: probed, identified, queued, interrupts on, disk
 * added.  No wait is shortened: each port gets the windows it got when
 * attach waited them out; the boot just goes on meanwhile.  A disk found
 * this way is named after those found at attach.
 *
 * Contract: ahci_late_start from ahci_start, after GHC.IE (a new disk's
 * partition scan reads through the interrupt path).  The work runs one
 * at a time: its timer is armed only when it ends.  It owns the watched
 * ports: no I/O path or recovery touches a port that is not READY.
 */
#include "drivers/ahci/ahci_priv.h"
#include "kernel/printk.h"
#include "kernel/time.h"

static void ahci_late_timer(struct timer_list *t)
{
	struct ahci_softc *sc = container_of(t, struct ahci_softc, sc_late_timer);

	schedule_work(&sc->sc_late_work);
}

/* A watched port's link came up: bring it up as attach and ahci_start would. */
static void ahci_late_port_up(struct ahci_port *ap)
{
	ahci_port_link_up(ap);
	if (ahci_port_attach(ap))
		return;				/* no disk for us, or reported */
	ahci_port_clear_errors(ap);
	ahci_port_enable_intr(ap);
	ahci_port_add_disk(ap);			/* errors already printed */
}

/*
 * One look at every watched port: a link that came up is brought up; a
 * port silent (DET=0) past AHCI_PRESENCE_MS, or without a link past
 * AHCI_LINK_MS, is empty, as attach would have found it.  Looks again
 * later while any port is left.
 */
static void ahci_late_work(struct work *w)
{
	struct ahci_softc *sc = container_of(w, struct ahci_softc, sc_late_work);
	u64 waited = ktime_ms() - sc->sc_late_reset_ms;
	unsigned i;
	u32 det;

	for (i = 0; i < AHCI_MAX_PORTS; i++) {
		struct ahci_port *ap = sc->sc_ports[i];

		if (!(sc->sc_late & (1u << i)))
			continue;
		det = ahci_pread(ap, AHCI_PREG_SSTS) & AHCI_PREG_SSTS_DET_MASK;
		if (det == AHCI_PREG_SSTS_DET_PHY) {
			sc->sc_late &= ~(1u << i);
			DPRINTF(AHCI_D_INIT, "%s: link up %llu ms after COMRESET\n", ap->ap_name,
				(unsigned long long)waited);
			ahci_late_port_up(ap);
		} else if ((det == AHCI_PREG_SSTS_DET_NONE && waited > AHCI_PRESENCE_MS) ||
			   waited > AHCI_LINK_MS) {
			sc->sc_late &= ~(1u << i);
			DPRINTF(AHCI_D_INIT, "%s: empty\n", ap->ap_name);
		}
	}
	if (sc->sc_late)
		mod_timer(&sc->sc_late_timer,
			  get_jiffies_64() + msecs_to_jiffies(AHCI_LATE_POLL_MS));
}

/**
 * ahci_late_start - watch the ports attach left in sc_late
 * @sc: started (ahci_start): GHC.IE set
 *
 * The first look is at once (deferred work); nothing to do when no port
 * was left.
 */
void ahci_late_start(struct ahci_softc *sc)
{
	timer_setup(&sc->sc_late_timer, ahci_late_timer);
	work_init(&sc->sc_late_work, ahci_late_work);
	if (sc->sc_late)
		schedule_work(&sc->sc_late_work);
}
