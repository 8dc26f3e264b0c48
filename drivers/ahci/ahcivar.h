/*
 * The AHCI driver's contract: its state (the controller softc, its ports,
 * and the command control blocks that carry one request each), which the
 * shell commands and tests read, and the few calls the bus glue
 * (ahci_pci.c) makes into the bus-independent core.  The helpers the
 * driver's own files share are in ahci_priv.h.
 *
 * One request queue per attached disk, i.e. per port, whose lock is the
 * port's ap_lock.  Tags from the block layer's tag map are the command
 * slots.  The interrupt handler is per controller and takes each port's
 * lock in turn.
 *
 * Lock legend:
 *	[I] set during attach, immutable afterwards
 *	[p] the port's ap_lock (== its queue lock)
 *	[e] owned by the port's error handler while ap_eh_active is set
 *	    (the handler runs as deferred work; the I/O path stays out)
 */
#ifndef DRIVERS_AHCI_AHCIVAR_H
#define DRIVERS_AHCI_AHCIVAR_H

#include "block/blkdev.h"
#include "drivers/ahci/ahcireg.h"
#include "drivers/ata/ata.h"
#include "kernel/io.h"
#include "kernel/mm/page.h"
#include "kernel/irq.h"
#include "kernel/spinlock.h"
#include "kernel/timer.h"
#include "kernel/work.h"
#include "lib/list.h"

struct gendisk;
struct pci_dev;

/* DPRINTF masks (kernel/printk.h): build with -DDEBUG_MASK=... to see them. */
#define AHCI_D_INIT		0x0100
#define AHCI_D_IO		0x0200
#define AHCI_D_EH		0x0400

/*
 * Our command table: the 128-byte header of struct ahci_cmd_table (CFIS,
 * ACMD) followed by as many PRD entries as fill one page.  One page is
 * naturally 128-byte aligned (4.2.3) and physically contiguous.
 */
#define AHCI_TABLE_BYTES	PAGE_SIZE
#define AHCI_TABLE_PRDS		((AHCI_TABLE_BYTES - offsetof(struct ahci_cmd_table, ct_prdt)) / \
				 sizeof(struct ahci_prd))		/* 248 */

/*
 * Command control blocks per port: one per prepared request.  The block
 * layer prepares a request before it takes a tag, so every in-flight
 * request (at most 32) plus the one waiting at the head of the dispatch
 * list needs one; a few spare cover requests requeued in front of it.
 */
#define AHCI_PORT_CCBS		(AHCI_MAX_SLOTS + 4)

/* Timing and policy, ms unless said otherwise. */
#define AHCI_RESET_MS		1000	/* GHC.HR self-clears (10.4.3) */
#define AHCI_LINK_MS		1000	/* shared deadline for PHY ready, all ports */
#define AHCI_PRESENCE_MS	50	/* a port with DET=0 this long after COMRESET is empty;
					 * waited out in the background (ahci_late.c) */
#define AHCI_LATE_POLL_MS	5	/* how often the background looks at such ports */
#define AHCI_BSY_MS		31000	/* device clears BSY after COMRESET at boot: a disk
					 * spinning up (SUD with CAP.SSS) may take ATA's
					 * 31 s (ATA8-APT, reset protocol) */
#define AHCI_EH_BSY_MS		10000	/* ... in recovery, where it was spinning already */
#define AHCI_SPINUP_SETTLE_MS	20	/* after SUD before COMRESET on SSS HBAs */
#define AHCI_POLL_CMD_MS	5000	/* polled IDENTIFY / READ LOG EXT */
#define AHCI_QUIESCE_MS		200	/* PxSACT/PxCI clear after ST=0 */
#define AHCI_RQ_TIMEOUT_MS	10000	/* per-request timeout given to the block layer */
#define AHCI_EH_MAX_TRIES	3	/* port recoveries in a row before an HBA reset */
#define AHCI_UDMA_MODES		0x7f	/* SATA moves any Ultra DMA mode (0-6) */
#define AHCI_MWDMA_MODES	0x07	/* ... and any multiword DMA mode (0-2) */

struct ahci_softc;
struct ahci_port;

/* One prepared request: its command table and what the FIS needs. */
struct ahci_ccb {
	struct list_head	ccb_free;	/* [p] on ap_ccb_free while unused */
	struct ahci_port	*ccb_port;	/* [I] */
	struct ahci_cmd_table	*ccb_table;	/* [I] one page, CFIS + PRDT */
	dma_addr_t		ccb_table_dma;	/* [I] */
	struct request		*ccb_rq;	/* [p] the request it was prepared for */
	u32			ccb_prdtl;	/* [p] PRD entries used */
	u32			ccb_bytes;	/* [p] bytes the PRDT describes */
	u64			ccb_lba;	/* [p] device logical sector */
	u32			ccb_nsect;	/* [p] device logical sectors */
	u32			ccb_flags;	/* [p] */
#define AHCI_CCB_WRITE		0x01
#define AHCI_CCB_FUA		0x02
#define AHCI_CCB_FLUSH		0x04	/* FLUSH CACHE (EXT): non-queued, no data */
#define AHCI_CCB_NCQ		0x08	/* issued as FPDMA QUEUED */
#define AHCI_CCB_TRIM		0x10	/* DSM TRIM: non-queued, payload in ap_trim_buf */
};

/* Port states, with names for the log (STYLE 8). */
enum ahci_port_state {
	AHCI_PORT_EMPTY,	/* nothing on the link */
	AHCI_PORT_SKIPPED,	/* a device we do not drive (ATAPI, PM, SEMB) */
	AHCI_PORT_FAILED,	/* misbehaved during bring-up or recovery */
	AHCI_PORT_READY,	/* an ATA disk, I/O running */
	AHCI_PORT_NSTATES
};
extern const char *const ahci_port_state_names[AHCI_PORT_NSTATES];

struct ahci_port {
	struct ahci_softc	*ap_sc;		/* [I] */
	volatile u8		*ap_regs;	/* [I] ABAR + port offset */
	unsigned		ap_num;		/* [I] port number */
	char			ap_name[24];	/* [I] "ahci0.3" for messages */
	char			ap_dname[16];	/* [I] "sda": the disk and queue name */
	unsigned		ap_disk_index;	/* [I] 0 for sda (disk_sd_get), if ap_dname[0] */
	spinlock_t		ap_lock;	/* the queue lock */
	enum ahci_port_state	ap_state;	/* [p] */

	struct ahci_cmd_hdr	*ap_cmd_list;	/* [I] 32 headers, 1 KiB aligned */
	dma_addr_t		ap_cmd_list_dma; /* [I] */
	struct ahci_rfis	*ap_rfis;	/* [I] 256-byte aligned */
	dma_addr_t		ap_rfis_dma;	/* [I] */
	void			*ap_dma_page;	/* [I] the page holding these four */

	struct ahci_ccb		ap_ccbs[AHCI_PORT_CCBS];	/* [I] tables; fields [p] */
	struct list_head	ap_ccb_free;	/* [p] */
	struct ahci_cmd_table	*ap_eh_table;	/* [e] polled commands */
	dma_addr_t		ap_eh_table_dma; /* [I] */
	u8			*ap_eh_buf;	/* [e] 512-byte data page of polled commands */
	dma_addr_t		ap_eh_buf_dma;	/* [I] */
	struct scatterlist	ap_sg[AHCI_TABLE_PRDS];	/* [p] prep's scratch */
	u8			*ap_trim_buf;	/* [p] DSM TRIM payload page, NULL: no TRIM;
						   written at issue (one TRIM out at a time) */
	dma_addr_t		ap_trim_dma;	/* [I] */
	u32			ap_trim_blocks;	/* [I] payload blocks per TRIM, 1..8 */

	struct ata_id		ap_id;		/* [I], rewritten [e]: the disk's IDENTIFY */
	struct ata_dev		ap_ad;		/* [I], rewritten [e]: what it is told after resets */
	u32			ap_lsect;	/* [I] 512-byte sectors per logical sector */
	bool			ap_ncq;		/* [I] FPDMA QUEUED in use */
	u32			ap_depth;	/* [I] tags = slots in use */
	struct request_queue	*ap_queue;	/* [I] */
	struct gendisk		*ap_disk;	/* [I] */

	u32			ap_issued;	/* [p] slots we wrote to PxCI */
	u32			ap_sactive;	/* [p] of those, NCQ (also in PxSACT) */
	bool			ap_nonq_busy;	/* [p] a command that goes alone is out */
	u32			ap_isolate;	/* [p] issue this many next one at a time */

	bool			ap_eh_active;	/* [p] recovery owns the port */
	u32			ap_eh_is;	/* [p] PxIS bits that asked for it */
	u32			ap_eh_timedout;	/* [p] slots whose requests timed out */
	u32			ap_eh_tries;	/* [e] HBA resets in a row */
	u32			ap_eh_force;	/* [p] a reset asked for by ahcireset */
#define AHCI_EH_FORCE_PORT	0x1	/* COMRESET the port */
#define AHCI_EH_FORCE_HBA	0x2	/* reset the whole HBA */
#define AHCI_EH_FORCE_LINK	0x4	/* recover as from an interface error */
	u64			ap_link_err_ms;	/* [e] ktime_ms() of the last link error, 0: none */
	u32			ap_spd_limit;	/* [e] PxSCTL.SPD for COMRESETs, 0: none */
	u32			ap_eh_force_later; /* [p] ... when ap_eh_timer fires */
	struct timer_list	ap_eh_timer;	/* [p] fires a forced reset later */
	struct work		ap_eh_work;	/* [p] */
	u64			ap_errors;	/* [p] requests failed by the device */
};

/* Quirks, from the PCI table (ahci_pci.c). */
#define AHCI_Q_NONCQ		0x0001	/* NCQ broken */
#define AHCI_Q_NO64		0x0002	/* CAP.S64A lies */
#define AHCI_Q_INTEL_PCS	0x0004	/* enable ports in PCS (config 0x92) */
#define AHCI_Q_NOMSI		0x0008	/* MSI broken: INTx */
#define AHCI_Q_SECT255		0x0010	/* at most 255 sectors per command */

struct ahci_softc {
	volatile u8		*sc_regs;	/* [I] ABAR, mapped */
	unsigned		sc_unit;	/* [I] ahci0, ahci1, ... */
	char			sc_name[16];	/* [I] "ahci0" */
	u32			sc_quirks;	/* [I] AHCI_Q_* */
	u32			sc_cap;		/* [I] CAP as saved before reset */
	u32			sc_cap2;	/* [I] */
	u32			sc_pi;		/* [I] ports implemented */
	u32			sc_ncs;		/* [I] command slots (1..32) */
	bool			sc_dma64;	/* [I] CAP.S64A and not forced off */
	bool			sc_ncq;		/* [I] CAP.SNCQ and allowed */
	int			sc_irq;		/* [I] */
	struct ahci_port	*sc_ports[AHCI_MAX_PORTS];	/* [I] NULL: not in PI */

	/*
	 * Ports still inside their presence window when attach ended
	 * (ahci_late.c): [L] attach, then only sc_late_work, which runs
	 * one at a time (its timer is armed only when it ends).
	 */
	u32			sc_late;	/* [L] ports still watched */
	u64			sc_late_reset_ms; /* [L] ktime_ms() of their COMRESET */
	struct timer_list	sc_late_timer;	/* queues sc_late_work */
	struct work		sc_late_work;	/* [L] */
};

/*
 * The calls the bus glue makes.
 *
 * ahci_init - take over an HBA whose sc_regs, sc_quirks and sc_unit are
 * set: AE, BIOS/OS handoff, HBA reset.  Returns 0 or a negative errno,
 * reported.  Nothing DMAs until ahci_attach: bus mastering goes on between.
 * ahci_attach - bring up the ports and identify their disks; interrupts
 * are not yet wanted.  A port that fails is reported and skipped.
 * ahci_start - once the glue has installed ahci_intr: port interrupts,
 * GHC.IE, then a gendisk per disk (the partition scan needs interrupts).
 * ahci_detach - undo ahci_attach when the handler cannot be installed:
 * ports stopped (no DMA, no FIS receive), their memory freed.
 * ahci_intr - the controller's interrupt handler (data: the softc).
 * ahci_enable_intr - set GHC.IE (ahci_start does it).
 */
int ahci_init(struct ahci_softc *sc);
void ahci_attach(struct ahci_softc *sc);
void ahci_detach(struct ahci_softc *sc);
int ahci_start(struct ahci_softc *sc);
irqreturn_t ahci_intr(unsigned irq, void *data);
void ahci_enable_intr(struct ahci_softc *sc);
/*
 * Run recovery on the disk of queue q as if the hardware had asked:
 * force is AHCI_EH_FORCE_*, now or after delay_ms.  0 or -ENODEV (not an
 * AHCI disk).  ahci_eh.c; the ahcireset command's entry point.
 */
int ahci_eh_force(struct request_queue *q, u32 force, u32 delay_ms);
/* Boot parameters: ahci.ncq=0, ahci.dma64=0, ahci.timeout_ms=N. */
extern bool ahci_param_ncq;
extern bool ahci_param_dma64;
extern unsigned int ahci_param_timeout_ms;

#endif
