/*
 * The NVMe driver's state: a controller (struct nvme_ctrl, the softc),
 * its queue pairs and its namespaces.  Bus-independent: the PCI glue
 * (nvme_pci.c) fills c_regs, c_pdev and the interrupt vectors and calls
 * nvme_ctrl_start().
 *
 * Locks:
 *	[I]  set during probe, read-only after
 *	[q]  nq_lock of the queue pair (rings, doorbells, phase, bounce)
 *	[a]  c_admin_lock (the admin queue and its one outstanding command)
 *	[s]  c_state: written by the probe and the reset work only, read
 *	     anywhere as a single word
 *	[r]  the reset work: only it touches these after probe
 *	[t]  the nvme.poll timer only (read elsewhere for reports)
 */
#ifndef DRIVERS_NVME_NVMEVAR_H
#define DRIVERS_NVME_NVMEVAR_H

#include "block/blk-mq.h"
#include "drivers/nvme/nvmereg.h"
#include "kernel/spinlock.h"
#include "kernel/timer.h"
#include "kernel/work.h"
#include "lib/list.h"

#define NVME_MAX_IO_QUEUES	16	/* one per online CPU, up to this many */
#define NVME_MAX_VECTORS	(1 + NVME_MAX_IO_QUEUES)
#define NVME_IO_DEPTH_MQ	256	/* entries per I/O queue when there are several */
#define NVME_ADMIN_DEPTH	32	/* admin queue entries */
#define NVME_IO_DEPTH_MAX	1024	/* entries per I/O queue, before CAP.MQES */
#define NVME_MAX_XFER		(512u * 1024)	/* bytes per command, before MDTS */
#define NVME_ADMIN_TIMEOUT_MS	5000	/* one admin command */
#define NVME_IO_TIMEOUT_MS	10000	/* one I/O command before abort */
#define NVME_SHUTDOWN_MS	5000	/* CC.SHN, when RTD3E says nothing */
#define NVME_MAX_RETRIES	3	/* an I/O command whose status allows retry */

struct nvme_ctrl;

/* One submission/completion queue pair. */
struct nvme_queue {
	struct nvme_ctrl	*nq_ctrl;	/* [I] */
	u16			nq_qid;		/* [I] 0: admin */
	u16			nq_depth;	/* [I] entries in each ring */
	u16			nq_vector;	/* [I] interrupt vector (MSI-X entry) */
	spinlock_t		nq_lock;
	struct nvme_sqe		*nq_sq;		/* [q] ring */
	volatile struct nvme_cqe *nq_cq;	/* [q] ring */
	u64			nq_sq_dma;	/* [I] */
	u64			nq_cq_dma;	/* [I] */
	volatile u32		*nq_sq_db;	/* [I] SQ tail doorbell */
	volatile u32		*nq_cq_db;	/* [I] CQ head doorbell */
	/*
	 * Shadow doorbells and the controller's EventIdx words (NVMe 1.4
	 * 7.13), in c_dbs/c_eis.  No shadow: registers only.  No EventIdx:
	 * the register every time too (the CQ's, with a level-triggered
	 * INTx line, which only the register write lowers).
	 */
	volatile u32		*nq_sq_shadow;	/* [q] */
	volatile u32		*nq_sq_ei;	/* [q] */
	volatile u32		*nq_cq_shadow;	/* [q] */
	volatile u32		*nq_cq_ei;	/* [q] */
	u16			nq_sq_told;	/* [q] the tail last handed over */
	u16			nq_sq_tail;	/* [q] */
	u16			nq_cq_head;	/* [q] */
	u16			nq_phase;	/* [q] phase tag of new entries */
	u16			nq_inflight;	/* [q] commands on the SQ */
	bool			nq_live;	/* [q] created on the device */
	u64			**nq_prp;	/* [I] per tag: one PRP list page */
	u8			*nq_bounce;	/* [I] aligned copy buffer, c_max_xfer */
	bool			nq_bounce_busy;	/* [q] */
	struct blk_mq_hw_ctx	*nq_hctx;	/* [I] of the first namespace, for poll */
	u64			nq_completed;	/* [q] */
};

/* One namespace: one gendisk. */
struct nvme_ns {
	struct list_head	ns_link;	/* [I] on c_namespaces */
	struct nvme_ctrl	*ns_ctrl;	/* [I] */
	u32			ns_id;		/* [I] NSID */
	u32			ns_lba_shift;	/* [I] 9 or 12 */
	u64			ns_nsze;	/* [I] blocks */
	bool			ns_zeroes;	/* [I] deallocated blocks read as zero */
	char			ns_name[16];	/* [I] nvme0n1 */
	struct request_queue	*ns_queue;	/* [I] */
	struct gendisk		*ns_disk;	/* [I] */
};

enum nvme_ctrl_state {
	NVME_CTRL_NEW,
	NVME_CTRL_LIVE,
	NVME_CTRL_RESETTING,
	NVME_CTRL_DEAD,
};
extern const char *const nvme_ctrl_state_names[];

enum nvme_irq_mode { NVME_IRQ_MSIX, NVME_IRQ_MSI, NVME_IRQ_INTX, NVME_IRQ_POLL };

struct nvme_ctrl {
	char			c_name[12];	/* [I] nvme0 */
	unsigned		c_unit;		/* [I] */
	struct pci_dev		*c_pdev;	/* [I] */
	volatile u8		*c_regs;	/* [I] BAR0 */
	u64			c_cap;		/* [I] CAP */
	u32			c_vs;		/* [I] VS */
	u32			c_db_stride;	/* [I] bytes between doorbells */
	u32			c_page_size;	/* [I] CC.MPS, bytes */
	u32			c_ready_ms;	/* [I] CAP.TO, in ms */
	u32			c_max_xfer;	/* [I] bytes per command (MDTS, our cap) */
	u16			c_oacs;		/* [I] optional admin commands */
	u32			c_io_depth;	/* [I] entries per I/O queue */
	u16			c_oncs;		/* [I] optional NVM commands */
	bool			c_vwc;		/* [I] volatile write cache */
	u8			c_sgls;		/* [I] NVME_SGLS_ANY or _DWORD, 0: PRPs only */
	u8			c_acl;		/* [I] abort limit, 0's based */
	u32			c_nn;		/* [I] namespaces */
	char			c_model[41];	/* [I] */
	char			c_serial[21];	/* [I] */
	char			c_fw[9];	/* [I] */
	enum nvme_irq_mode	c_irq_mode;	/* [I] */
	int			c_irq[NVME_MAX_VECTORS];	/* [I] per vector, -1 none */
	char			c_irq_name[NVME_MAX_VECTORS][16];	/* [I] nvme0q1 */
	u32			c_nvec;		/* [I] vectors in use */
	u32			c_want_ioq;	/* [I] I/O queues the vectors allow */
	struct nvme_queue	c_adminq;
	spinlock_t		c_admin_lock;
	bool			c_admin_done;	/* [a] the command's CQE arrived */
	struct nvme_cqe		c_admin_cqe;	/* [a] that CQE */
	u16			c_admin_cid;	/* [a] cid of the outstanding command */
	struct nvme_queue	*c_ioq[NVME_MAX_IO_QUEUES];	/* [I] -> c_ioqs */
	struct nvme_queue	c_ioqs[NVME_MAX_IO_QUEUES];
	u32			c_nr_ioq;	/* [I] */
	u32			*c_dbs;		/* [r] shadow doorbell page, or NULL */
	u32			*c_eis;		/* [r] EventIdx page */
	struct blk_mq_tag_set	c_set;		/* [I] */
	struct list_head	c_namespaces;	/* [I] struct nvme_ns */
	volatile enum nvme_ctrl_state c_state;	/* [s] */
	struct work		c_reset_work;	/* [r] */
	bool			c_reset_wanted;	/* [r] a timeout or CFS asked */
	u32			c_resets;	/* [r] done so far */
	u32			c_aborts;	/* [r] abort commands sent */
	struct list_head	c_link;		/* [I] on the shutdown list */
	struct timer_list	c_poll_timer;	/* [I] nvme.poll: reaps every tick */
	u64			c_tick_reaped;	/* [t] completions the poll tick found */
};

/* Per request driver data (tag set cmd_size). */
struct nvme_iod {
	struct nvme_ns		*iod_ns;
	u8			iod_opc;
	u8			iod_retries;	/* resubmissions after a retryable status */
	bool			iod_bounced;	/* data went through nq_bounce */
	bool			iod_timed_out;	/* the reset work must look at it */
	u16			iod_status;	/* last CQE status */
};

#endif
