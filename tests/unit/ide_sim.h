/*
 * A simulated PIIX-style IDE channel for the host tests of the IDE core:
 * two ATA drives behind one set of taskfile registers (with the 48-bit
 * "previous" byte of each), Device Control (SRST, nIEN, HOB), and an
 * SFF-8038i bus master that walks the driver's PRD table through the
 * fake physical memory of page_fake.c.  It implements struct ide_io_ops,
 * logs every register access, checks every PRD table it is given, and
 * can be told to fail a sector, stay silent, lose an interrupt, never
 * leave BSY after a reset, fail DMA with interface CRC errors, keep a
 * PIO write waiting for DRQ, or keep a device busy for a while (a command
 * written to it then is lost, as on real drives and in QEMU).  SET
 * FEATURES changes IDENTIFY as QEMU does (word 88 for the mode, word 85
 * for the write cache).
 *
 * Interrupts are not delivered by the simulator itself: ide_sim_irq_pending()
 * says whether INTRQ is asserted and unmasked, and the test's idle hook
 * calls ide_intr(), as the interrupt controller would.
 *
 * Disk contents wrap every IDE_SIM_WINDOW sectors, so a "large" disk costs
 * only the window; tests choose LBAs that do not alias.
 */
#ifndef TESTS_UNIT_IDE_SIM_H
#define TESTS_UNIT_IDE_SIM_H

#include "drivers/ata/atareg.h"
#include "drivers/ide/ide_priv.h"

#define IDE_SIM_CMD		0x1f0
#define IDE_SIM_CTL		0x3f4
#define IDE_SIM_BM		0xc000
#define IDE_SIM_WINDOW		16384u		/* sectors of storage per drive */
#define IDE_SIM_LOG		4096u
#define IDE_SIM_CMDLOG		256u
#define IDE_SIM_SIG_ALL		(1u << IDE_REG_COUNT | 1u << IDE_REG_LBA_LOW | \
				 1u << IDE_REG_LBA_MID | 1u << IDE_REG_LBA_HIGH)

struct ide_sim_access {
	char	a_op;		/* 'r' read, 'w' write, 'I' interrupt delivered */
	u16	a_port;
	u32	a_val;
};

struct ide_sim_cmd {
	u8	c_unit;
	u8	c_command;
	u64	c_lba;
	u32	c_count;
};

struct ide_sim {
	struct ide_channel	*s_ch;		/* for the PRD table's address check */
	bool			s_present[2];
	bool			s_atapi[2];	/* a packet device: signature 14h/EBh */
	bool			s_dev0_answers;	/* real bus: device 0 answers for an absent
						 * device 1, Status 00h (else zeros, as QEMU) */
	u16			s_id[2][ATA_ID_WORDS];	/* IDENTIFY (PACKET) DEVICE data */
	u8			s_sig_valid;	/* bit r: register r still holds each device's signature */
	u64			s_sectors[2];	/* reported capacity */
	u8			*s_data[2];	/* IDE_SIM_WINDOW sectors each */

	/* registers: [0] current, [1] previous (HOB) */
	u8			s_feature[2], s_count[2], s_lbal[2], s_lbam[2], s_lbah[2];
	u8			s_device, s_status, s_error, s_devctl;
	u8			s_unit;		/* selected by Device bit 4 */
	u8			s_bm_cmd, s_bm_status;
	u32			s_bm_prdt;
	bool			s_intrq;

	/* the command in progress */
	u8			s_cmd;
	bool			s_dma_armed;	/* DMA command waiting for Start */
	u64			s_lba;
	u32			s_nsect, s_done;
	u8			s_buf[SECTOR_SIZE];
	u32			s_buf_pos;

	/* faults */
	bool			s_bad_set;
	u64			s_bad_lba;	/* reads and writes touching it fail ABRT */
	u32			s_silent;	/* this many I/O commands never complete */
	u32			s_lose_irq;	/* this many completions raise no INTRQ */
	bool			s_stuck_busy;	/* BSY forever after SRST */
	u32			s_srst_polls;	/* Status reads that stay BSY after SRST */
	u32			s_slave_reset_polls;	/* device 1 alone stays BSY this many
							 * more Status reads after SRST */
	u32			s_slave_busy;	/* ... of which this many are left */
	u32			s_icrc;		/* this many DMA commands fail with ICRC */
	bool			s_reset_defaults; /* SRST puts word 88 back to UDMA/5 */
	u64			s_drq_delay_ns;	/* PIO write: BSY this long before DRQ */
	u64			s_drq_at;	/* ... until host_now_ns reaches this */
	u64			s_busy_until[2]; /* BSY (busy inside) until host_now_ns is this;
						  * a reset ends it */

	/* what happened */
	struct ide_sim_access	s_log[IDE_SIM_LOG];
	u32			s_nlog;
	struct ide_sim_cmd	s_cmds[IDE_SIM_CMDLOG];
	u32			s_ncmds;
	u32			s_absent_cmds;	/* commands written to an absent device */
	u32			s_busy_writes;	/* Device or Command written while the selected
						 * device was BSY (ATA8-APT forbids it) */
	u32			s_resets;
	u32			s_flushes;
	int			s_xfer[2];	/* last SET TRANSFER MODE Count, -1 none */
	u32			s_wcache_off;	/* SET FEATURES 82h taken */
	u32			s_prd_bad;	/* tables breaking a rule (see ide_sim.c) */
	u32			s_prd_tables;
	u32			s_dma_cmds;
};

extern const struct ide_io_ops ide_sim_io;

/* Attach a simulator to ch (which gets ch_io and the ports). */
void ide_sim_init(struct ide_sim *s, struct ide_channel *ch);
void ide_sim_add_disk(struct ide_sim *s, unsigned unit, u64 sectors);
void ide_sim_add_atapi(struct ide_sim *s, unsigned unit);
void ide_sim_free(struct ide_sim *s);
/* The bytes of sector lba of unit, as stored. */
u8 *ide_sim_sector(struct ide_sim *s, unsigned unit, u64 lba);
/* INTRQ asserted and not masked by nIEN? */
bool ide_sim_irq_pending(const struct ide_sim *s);
/* Record that the interrupt handler is about to run (for order checks). */
void ide_sim_log_irq(struct ide_sim *s);

#endif
