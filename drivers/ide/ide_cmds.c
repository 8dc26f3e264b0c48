/*
 * The ide shell command: every attached IDE controller, its channels
 * (ports, IRQ, state and counters) and what sits at each drive position.
 * Layer: a shell command over the driver's softc (idevar.h); counters are
 * read under the channel lock.  Output, stable for tests and people (busy:
 * commands held back until their device dropped BSY):
 *
 *	pciide0: 8086:7010 bus master on
 *	  ide0: legacy cmd 0x1f0 ctl 0x3f4 bm 0xc040 irq 14 state idle irqs 812 busy 0 resets 0
 *	    hda: ATA "QEMU HARDDISK" 131072 sectors UDMA/5 errors 0 timeouts 0
 *	    hdb: none
 */
#include "drivers/ide/idevar.h"
#include "drivers/pci/pci.h"
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/shell.h"

static void ide_show_drive(struct ide_drive *d, u64 errors, u64 timeouts, int xfer)
{
	char mode[16];

	if (d->dr_kind != ATA_DEV_ATA || !d->dr_disk) {
		kprintf("    %s: %s\n", d->dr_name, ata_dev_class_names[d->dr_kind]);
		return;
	}
	ata_xfer_name(xfer, mode, sizeof(mode));
	kprintf("    %s: ATA \"%s\" %llu sectors %s errors %llu timeouts %llu\n", d->dr_name,
		d->dr_id.ai_model, (unsigned long long)ata_id_capacity512(&d->dr_id), mode,
		(unsigned long long)errors, (unsigned long long)timeouts);
}

static void ide_show_channel(struct ide_channel *ch)
{
	u64 irqs, busy, resets, errors[IDE_UNITS], timeouts[IDE_UNITS];
	int xfer[IDE_UNITS];
	unsigned long flags;
	unsigned u;
	u8 state;

	if (!ch->ch_cmd) {
		kprintf("  channel %u: off\n", ch->ch_index);
		return;
	}
	spin_lock_irqsave(&ch->ch_lock, flags);
	state = ch->ch_state;
	irqs = ch->ch_irqs;
	busy = ch->ch_busy;
	resets = ch->ch_resets;
	for (u = 0; u < IDE_UNITS; u++) {
		errors[u] = ch->ch_drive[u].dr_errors;
		timeouts[u] = ch->ch_drive[u].dr_timeouts;
		xfer[u] = ch->ch_drive[u].dr_dma ? ch->ch_drive[u].dr_ad.ad_xfer : -1;
	}
	spin_unlock_irqrestore(&ch->ch_lock, flags);
	kprintf("  %s: %s cmd %#x ctl %#x bm %#x irq %d state %s irqs %llu busy %llu resets %llu\n",
		ch->ch_name, ch->ch_native ? "native" : "legacy", ch->ch_cmd, ch->ch_ctl, ch->ch_bm,
		ch->ch_irq, ide_ch_state_names[state], (unsigned long long)irqs,
		(unsigned long long)busy, (unsigned long long)resets);
	for (u = 0; u < IDE_UNITS; u++)
		ide_show_drive(&ch->ch_drive[u], errors[u], timeouts[u], xfer[u]);
}

static int cmd_ide(int argc, char **argv)
{
	struct ide_softc *sc;
	unsigned i;

	if (argc > 1)
		return -EINVAL;
	for (sc = ide_next_controller(NULL); sc; sc = ide_next_controller(sc)) {
		if (sc->sc_pci)
			kprintf("%s: %04x:%04x bus master %s\n", sc->sc_name, sc->sc_pci->pd_vendor,
				sc->sc_pci->pd_device, sc->sc_nodma ? "off" : "on");
		else
			kprintf("%s: bus master %s\n", sc->sc_name, sc->sc_nodma ? "off" : "on");
		for (i = 0; i < IDE_CHANNELS; i++)
			ide_show_channel(&sc->sc_chan[i]);
	}
	return 0;
}
SHELL_COMMAND("ide", cmd_ide, "ide", "IDE controllers, channels and drives, with error counters");
