/*
 * The IDE driver's contract: its software state (softc), which the shell
 * command and the tests read, and the calls other code makes: the PCI
 * glue's match and setup (ide_pci.c), attach and detach (ide_probe.c),
 * the walk over attached controllers, and polled commands on a bare
 * legacy channel.  The calls between the driver's own files are in
 * ide_priv.h, included only inside drivers/ide (and by its host tests).
 *
 * A controller has two channels; a channel has up to two drives (master
 * and slave) that share its registers, its IRQ and its bus-master engine,
 * so only one command is ever in flight per channel.  Each ATA drive has
 * its own gendisk and request queue, and both queues of a channel use the
 * channel lock as their queue lock: whoever holds ch_lock owns the
 * channel's registers, its PRD table and both queues at once.
 *
 * Lock legend:
 *	[I] set during attach, before the IRQ is requested; immutable after
 *	[c] ch_lock of the channel (which is also each drive's queue lock)
 *	[e] changed only by the revalidation work (ide_mode.c), which owns the
 *	    channel while ch_state is IDE_CH_REVALIDATE; read freely otherwise
 *	[boot] changed only by attach and detach, never concurrently
 */
#ifndef DRIVERS_IDE_IDEVAR_H
#define DRIVERS_IDE_IDEVAR_H

#include "block/blkdev.h"
#include "drivers/ata/ata.h"
#include "drivers/ide/idereg.h"
#include "kernel/irq.h"
#include "kernel/spinlock.h"
#include "kernel/timer.h"
#include "kernel/work.h"

struct gendisk;
struct pci_dev;
struct request;
struct request_queue;

#define IDE_CHANNELS		2
#define IDE_UNITS		2	/* master, slave */
#define IDE_MAX_SG		256	/* s/g entries per request (queue limit) */
#define IDE_PRDT_ENTRIES	(2 * IDE_MAX_SG)	/* a 64 KiB entry becomes two */
#define IDE_PIO_BUF_SIZE	4096	/* one logical sector, at most a page */
/*
 * How long a command waits for its device to drop BSY before the channel
 * is reset instead, ms: Linux 2.6's WAIT_READY ("some laptops are very
 * slow"); drives stay busy that long after a flush, a power-mode change
 * or their own housekeeping.
 */
#define IDE_READY_WAIT_MS	5000

/* What the channel is doing; the interrupt handler acts on it. */
enum ide_ch_state {
	IDE_CH_IDLE,		/* no command: the next request may start */
	IDE_CH_WAIT_READY,	/* a request taken, its command held until BSY drops */
	IDE_CH_DMA,		/* bus-master transfer in flight */
	IDE_CH_PIO_IN,		/* PIO read: an interrupt per DRQ block */
	IDE_CH_PIO_OUT,		/* PIO write: an interrupt per block written */
	IDE_CH_NODATA,		/* FLUSH CACHE and friends */
	IDE_CH_RESET,		/* soft reset: waiting (by timer) for BSY to drop */
	IDE_CH_REVALIDATE,	/* after it: ide_eh_work owns the channel */
	IDE_CH_DEAD,		/* never came back from a reset: I/O fails */
	IDE_CH_NR
};
extern const char *const ide_ch_state_names[IDE_CH_NR];

struct ide_channel;
struct ide_io_ops;

struct ide_drive {
	struct ide_channel	*dr_chan;	/* [I] */
	u8			dr_unit;	/* [I] 0 master, 1 slave */
	u8			dr_kind;	/* [I] enum ata_dev_class */
	bool			dr_dma;		/* [c] bus-master DMA in use (dr_ad.ad_xfer >= 0) */
	bool			dr_gone;	/* [c] failed revalidation: I/O ends with -EIO */
	u8			dr_icrc;	/* [c] interface CRC errors since the last speed change */
	char			dr_name[8];	/* [I] "hda" */
	struct ata_id		dr_id;		/* [e] parsed IDENTIFY */
	struct ata_dev		dr_ad;		/* [e] mode and cache setting, told after resets
						 * (ad_xfer also [c]: ide_speed_down) */
	u32			dr_lbs;		/* [I] logical sector bytes */
	struct request_queue	*dr_queue;	/* [I] queue lock = ch_lock */
	struct gendisk		*dr_disk;	/* [I] */
	u64			dr_errors;	/* [c] requests failed */
	u64			dr_timeouts;	/* [c] commands that timed out */
};

struct ide_channel {
	spinlock_t		ch_lock;
	struct ide_softc	*ch_sc;		/* [I] */
	u8			ch_index;	/* [I] 0 primary, 1 secondary */
	bool			ch_native;	/* [I] native PCI mode (else legacy) */
	const struct ide_io_ops	*ch_io;		/* [I] how its registers are reached */
	u16			ch_cmd;		/* [I] command block base port */
	u16			ch_ctl;		/* [I] control block base port (+2: Alt Status) */
	u16			ch_bm;		/* [I] its bus-master registers, 0 if none */
	int			ch_irq;		/* [I] -1 if none */
	char			ch_name[8];	/* [I] "ide0", "ide1": IRQ and major owner */
	int			ch_major;	/* [I] block major of its drives */
	struct ide_drive	ch_drive[IDE_UNITS];	/* [I] (counters [c]) */

	/* The command in flight: at most one per channel. */
	u8			ch_state;	/* [c] enum ide_ch_state */
	u8			ch_selected;	/* [c] unit in the Device register, 0xff unknown */
	u8			ch_next_unit;	/* [c] whose queue to serve first: fairness */
	struct request		*ch_rq;		/* [c] in flight, NULL if none */
	struct ide_drive	*ch_rq_drive;	/* [c] */
	struct ata_taskfile	ch_tf;		/* [c] its command */
	u32			ch_pio_left;	/* [c] PIO: bytes still to move */
	struct bio		*ch_pio_bio;	/* [c] PIO: where the data stands */
	struct bvec_iter	ch_pio_iter;	/* [c] */

	struct ide_prd		*ch_prdt;	/* [c] IDE_PRDT_ENTRIES, one page */
	phys_addr_t		ch_prdt_phys;	/* [I] below 4 GiB, inside one page */
	u8			ch_bm_cmd;	/* [c] last written to Bus Master Command */
	bool			ch_bm_prdt_set;	/* [c] the PRD Table Pointer holds ch_prdt_phys */
	struct scatterlist	*ch_sg;		/* [c] IDE_MAX_SG scratch entries */
	u8			*ch_pio_buf;	/* [c] IDE_PIO_BUF_SIZE bytes */

	/*
	 * Polls Status for what ch_state waits on: BSY to drop before a
	 * command (WAIT_READY), a PIO write's first DRQ (PIO_OUT), the end
	 * of a soft reset (RESET).
	 */
	struct timer_list	ch_poll_timer;	/* [c] */
	u64			ch_poll_deadline; /* [c] ktime_ms() to give up */
	struct work		ch_eh_work;	/* [c] revalidation after a reset */
	u32			ch_eh_tries;	/* [c] resets in a row that did not revalidate */
	u64			ch_irqs;	/* [c] interrupts that were ours */
	u64			ch_busy;	/* [c] commands held back: device busy */
	u64			ch_resets;	/* [c] */
};

/* Per-controller quirks (ide_pci.c's table; pci_device_id.pid_data). */
#define IDE_Q_PIIX_DECODE	0x01	/* IDETIM bit 15 says whether a channel decodes */
#define IDE_Q_NODMA		0x02	/* bus-master DMA known broken: PIO only */
#define IDE_Q_ICH		0x04	/* Intel ICH: cable detection, UDMA timing */

/*
 * What a chipset lets the driver do beyond SFF-8038i (ide_pci.c's table);
 * a NULL hook means it cannot.
 */
struct ide_chipset {
	/* Whether the controller saw an 80-conductor cable on ch. */
	bool	(*cs_cable80)(struct ide_channel *ch);
	/* Time unit's DMA for mode (a SET TRANSFER MODE Count; -1: PIO). 0 or -errno. */
	int	(*cs_set_mode)(struct ide_channel *ch, unsigned unit, int mode);
};

struct ide_softc {
	struct pci_dev		*sc_pci;	/* [I] NULL for a legacy ISA controller */
	const struct ide_chipset *sc_chipset;	/* [I] NULL: nothing beyond SFF-8038i */
	char			sc_name[12];	/* [I] "pciide0" */
	unsigned		sc_index;	/* [I] controller number: names hda + 4n */
	unsigned long		sc_quirks;	/* [I] IDE_Q_* */
	bool			sc_nodma;	/* [I] PIO only (ide.nodma or a quirk) */
	bool			sc_simplex;	/* [I] one bus master for both channels */
	struct ide_channel	*sc_dma_chan;	/* [boot] simplex: the channel that has it */
	struct ide_channel	sc_chan[IDE_CHANNELS];	/* [I] ch_cmd 0: channel absent */
	struct list_head	sc_list;	/* [boot] on the attached controllers' list */
};

/* ide_pci.c: the match table and the channel layout (host-tested). */
struct pci_device_id;
/* The entry of the driver's table (quirks in pid_data) that dev matches, or NULL. */
const struct pci_device_id *ide_pci_match(const struct pci_dev *dev);
int ide_pci_setup(struct ide_softc *sc, struct pci_dev *dev, unsigned long quirks,
		  unsigned index);

/* ide_probe.c */
/*
 * ide_attach - find the drives of a filled-in controller and add its disks
 * @sc: sc_chan[i].ch_cmd/ch_ctl/ch_bm/ch_irq/ch_native set by the bus glue
 * (ch_cmd 0 for a channel that is off), sc_nodma and sc_quirks too.
 * Returns 0 when at least one channel was set up (drives or not), or a
 * negative errno with nothing left allocated.  Boot context; sleeps.
 */
int ide_attach(struct ide_softc *sc);
/*
 * Undo ide_attach: disks removed, queues drained and freed, IRQs and
 * buffers released.
 */
void ide_detach(struct ide_softc *sc);

/* The attached controller after prev (the first for NULL); NULL at the end. */
struct ide_softc *ide_next_controller(struct ide_softc *prev);

/*
 * ide_polled_channel - a bare channel at the legacy ports, for polled
 * commands by code that is not the driver (ata_selftest.c)
 * @ch: filled in (zeroed first); @index: 0 primary (1F0h), 1 secondary
 * Masks the device interrupt (nIEN).  Returns 0, or -ENODEV when Status
 * reads FFh (a floating bus: nothing there).
 */
int ide_polled_channel(struct ide_channel *ch, unsigned index);
/**
 * ide_exec_polled - one command, polled, with the device interrupt masked
 * @buf: with PIO data-in, one 512-byte block (IDENTIFY); NULL: non-data
 *
 * The channel must be the caller's (probe, the revalidation work, or a
 * channel of ide_polled_channel()).  Returns 0, -EIO if the device
 * aborted it (or, for data-in, offered no data), -ETIMEDOUT if it never
 * answered.
 */
int ide_exec_polled(struct ide_channel *ch, unsigned unit, const struct ata_taskfile *tf,
		    u16 *buf);

#endif
