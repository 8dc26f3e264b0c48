/*
 * The IDE driver's software state (softc) and the few calls between its
 * files: PCI glue (ide_pci.c) -> discovery (ide_probe.c) -> I/O path
 * (ide.c), and the PRD table builder (ide_prd.c, pure).  Registers are
 * reached through a const ide_io_ops table, port I/O in the kernel, so
 * that the host tests run the same code against a simulated channel
 * (tests/unit/ide_sim.c).
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

/*
 * How a channel's registers are reached: x86 port I/O (ide_port_io,
 * ide_pci.c), or a simulated controller in the host tests.  port is the
 * absolute address: ch_cmd, ch_ctl or ch_bm plus a register offset.
 */
struct ide_io_ops {
	u8	(*io_in8)(struct ide_channel *ch, u16 port);
	void	(*io_out8)(struct ide_channel *ch, u16 port, u8 v);
	void	(*io_out32)(struct ide_channel *ch, u16 port, u32 v);
	void	(*io_in16s)(struct ide_channel *ch, u16 port, void *buf, u32 words);
	void	(*io_out16s)(struct ide_channel *ch, u16 port, const void *buf, u32 words);
};
extern const struct ide_io_ops ide_port_io;

/* Register access (STYLE rule 22): every register access of the driver. */
static inline u8 ide_read(struct ide_channel *ch, unsigned reg)
{
	return ch->ch_io->io_in8(ch, (u16)(ch->ch_cmd + reg));
}
static inline void ide_write(struct ide_channel *ch, unsigned reg, u8 v)
{
	ch->ch_io->io_out8(ch, (u16)(ch->ch_cmd + reg), v);
}
static inline u8 ide_altstatus(struct ide_channel *ch)
{
	return ch->ch_io->io_in8(ch, (u16)(ch->ch_ctl + IDE_REG_ALTSTATUS));
}
static inline void ide_devctl(struct ide_channel *ch, u8 v)
{
	ch->ch_io->io_out8(ch, (u16)(ch->ch_ctl + IDE_REG_DEVCTL), v);
}
static inline u8 ide_bm_read(struct ide_channel *ch, unsigned reg)
{
	return ch->ch_io->io_in8(ch, (u16)(ch->ch_bm + reg));
}
static inline void ide_bm_write(struct ide_channel *ch, unsigned reg, u8 v)
{
	ch->ch_io->io_out8(ch, (u16)(ch->ch_bm + reg), v);
}
static inline void ide_bm_set_prdt(struct ide_channel *ch, u32 phys)
{
	ch->ch_io->io_out32(ch, (u16)(ch->ch_bm + IDE_BM_PRDT), phys);
}
static inline void ide_data_in(struct ide_channel *ch, void *buf, u32 words)
{
	ch->ch_io->io_in16s(ch, (u16)(ch->ch_cmd + IDE_REG_DATA), buf, words);
}
static inline void ide_data_out(struct ide_channel *ch, const void *buf, u32 words)
{
	ch->ch_io->io_out16s(ch, (u16)(ch->ch_cmd + IDE_REG_DATA), buf, words);
}

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

/* ide.c: the I/O path, for ide_probe.c (and the host tests). */
struct request_queue *ide_init_queue(struct ide_drive *d, u32 timeout_ms);
void ide_request_fn(struct request_queue *q);
int ide_prep_rq(struct request_queue *q, struct request *rq);
enum blk_eh_timer_return ide_timed_out(struct request *rq);
irqreturn_t ide_intr(unsigned irq, void *data);
void ide_poll_timer_fn(struct timer_list *t);
/* Soft-reset the channel; revalidation follows.  ch_lock held. */
void ide_begin_reset(struct ide_channel *ch);
/* Run both queues of the channel, the one whose turn it is first.  ch_lock held. */
void ide_kick(struct ide_channel *ch);
/* Wait (bounded) for BSY to drop; returns the Status, or -ETIMEDOUT. */
int ide_wait_not_busy(struct ide_channel *ch, u32 ms);
/* Write a taskfile and its command to unit (48-bit "previous" bytes first). */
void ide_load_tf(struct ide_channel *ch, const struct ata_taskfile *tf, unsigned unit);
/* Select unit and wait the 400 ns the Status needs (ATA8-APT, device selection). */
void ide_select(struct ide_channel *ch, unsigned unit);

/* ide_mode.c: polled commands, transfer modes, revalidation after a reset. */
int ide_exec_polled(struct ide_channel *ch, unsigned unit, const struct ata_taskfile *tf,
		    u16 *buf);
void ide_dev_init(struct ide_drive *d);
void ide_pick_mode(struct ide_drive *d);
int ide_set_chipset_mode(struct ide_drive *d);
void ide_speed_down(struct ide_drive *d);
void ide_eh_work(struct work *w);

/* ide_prd.c: pure, host-tested. */
/*
 * ide_prd_build - turn a mapped scatterlist into a PRD table
 * @prd: the table, max entries; @sg, @nsg: the request's segments
 * @total: set to the bytes the table describes
 * Every entry stays inside a 64 KiB block, a full 64 KiB piece becomes
 * two 32 KiB entries, the last one carries EOT.  Returns the entry count,
 * -EINVAL for an odd address or length or an empty list, -ERANGE for
 * memory above 4 GiB, -ENOSPC when the table is too small.
 */
int ide_prd_build(struct ide_prd *prd, u32 max, const struct scatterlist *sg, u32 nsg,
		  u32 *total);

/*
 * Classify a drive by what it shows after reset, selected: the parallel
 * bus's own cases (FFh: a floating bus; Status 00h with an ATA signature:
 * device 0 answering for an absent device 1; an ATA signature without
 * Count and LBA Low 01h: confused), then ata_classify() of the signature.
 */
enum ata_dev_class ide_sig_class(u8 status, u8 count, u8 lba_low, u8 lba_mid, u8 lba_high);

#endif
