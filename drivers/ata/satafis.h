/*
 * Serial ATA Frame Information Structures, as they sit in memory: the
 * command FIS an AHCI command table carries and the FISes an AHCI port
 * writes into its received-FIS area.  Layouts from Serial ATA Revision
 * 3.x section 10.3 (10.3.4 Register Host to Device, 10.3.5 Register
 * Device to Host, 10.3.6 Set Device Bits, 10.3.8 DMA Setup, 10.3.10 PIO
 * Setup; the numbering is 3.0's).  Hardware only.
 */
#ifndef DRIVERS_ATA_SATAFIS_H
#define DRIVERS_ATA_SATAFIS_H

#include "kernel/compiler.h"

/* FIS Type values (10.3.1). */
#define SATA_FIS_TYPE_REG_H2D		0x27
#define SATA_FIS_TYPE_REG_D2H		0x34
#define SATA_FIS_TYPE_DMA_ACTIVATE	0x39
#define SATA_FIS_TYPE_DMA_SETUP		0x41
#define SATA_FIS_TYPE_DATA		0x46
#define SATA_FIS_TYPE_BIST		0x58
#define SATA_FIS_TYPE_PIO_SETUP		0x5f
#define SATA_FIS_TYPE_SET_DEV_BITS	0xa1

/* Register Host to Device FIS (10.3.4): 5 dwords. */
struct sata_fis_h2d {
	u8	h2d_type;		/* SATA_FIS_TYPE_REG_H2D */
	u8	h2d_flags;
#define SATA_H2D_FLAGS_PMP_MASK		0x0f	/* port multiplier port */
#define SATA_H2D_FLAGS_C		0x80	/* 1: Command register update; 0: Control */
	u8	h2d_command;
	u8	h2d_features;		/* Features 7:0 */
	u8	h2d_lba0;		/* LBA 7:0 */
	u8	h2d_lba1;		/* LBA 15:8 */
	u8	h2d_lba2;		/* LBA 23:16 */
	u8	h2d_device;
	u8	h2d_lba3;		/* LBA 31:24 */
	u8	h2d_lba4;		/* LBA 39:32 */
	u8	h2d_lba5;		/* LBA 47:40 */
	u8	h2d_features_exp;	/* Features 15:8 */
	u8	h2d_count;		/* Count 7:0 */
	u8	h2d_count_exp;		/* Count 15:8 */
	u8	h2d_icc;		/* Isochronous Command Completion */
	u8	h2d_control;		/* Device Control */
	u8	h2d_rsvd16[4];		/* auxiliary / reserved: zero */
} __packed;
_Static_assert(sizeof(struct sata_fis_h2d) == 20, "H2D FIS is 5 dwords");
_Static_assert(offsetof(struct sata_fis_h2d, h2d_command) == 2, "H2D command at byte 2");
_Static_assert(offsetof(struct sata_fis_h2d, h2d_device) == 7, "H2D device at byte 7");
_Static_assert(offsetof(struct sata_fis_h2d, h2d_features_exp) == 11, "H2D features 15:8");
_Static_assert(offsetof(struct sata_fis_h2d, h2d_count) == 12, "H2D count at byte 12");
_Static_assert(offsetof(struct sata_fis_h2d, h2d_control) == 15, "H2D control at byte 15");

#define SATA_FIS_H2D_DWORDS	(sizeof(struct sata_fis_h2d) / 4)	/* AHCI CFL */

/* Register Device to Host FIS (10.3.5): 5 dwords. */
struct sata_fis_d2h {
	u8	d2h_type;		/* SATA_FIS_TYPE_REG_D2H */
	u8	d2h_flags;
#define SATA_D2H_FLAGS_PMP_MASK		0x0f
#define SATA_D2H_FLAGS_I		0x40	/* Interrupt */
	u8	d2h_status;
	u8	d2h_error;
	u8	d2h_lba0;
	u8	d2h_lba1;
	u8	d2h_lba2;
	u8	d2h_device;
	u8	d2h_lba3;
	u8	d2h_lba4;
	u8	d2h_lba5;
	u8	d2h_rsvd11;
	u8	d2h_count;
	u8	d2h_count_exp;
	u8	d2h_rsvd14[6];
} __packed;
_Static_assert(sizeof(struct sata_fis_d2h) == 20, "D2H FIS is 5 dwords");
_Static_assert(offsetof(struct sata_fis_d2h, d2h_status) == 2, "D2H status at byte 2");
_Static_assert(offsetof(struct sata_fis_d2h, d2h_lba3) == 8, "D2H LBA 31:24 at byte 8");
_Static_assert(offsetof(struct sata_fis_d2h, d2h_count) == 12, "D2H count at byte 12");

/* Set Device Bits FIS (10.3.6): 2 dwords. */
struct sata_fis_sdb {
	u8	sdb_type;		/* SATA_FIS_TYPE_SET_DEV_BITS */
	u8	sdb_flags;
#define SATA_SDB_FLAGS_PMP_MASK		0x0f
#define SATA_SDB_FLAGS_I		0x40
#define SATA_SDB_FLAGS_N		0x80	/* Notification */
	u8	sdb_status;
#define SATA_SDB_STATUS_LO_MASK		0x07	/* Status bits 2:0 */
#define SATA_SDB_STATUS_HI_MASK		0x70	/* Status bits 6:4 */
	u8	sdb_error;
	u32	sdb_sactive;		/* protocol specific: NCQ tags completed */
} __packed;
_Static_assert(sizeof(struct sata_fis_sdb) == 8, "SDB FIS is 2 dwords");
_Static_assert(offsetof(struct sata_fis_sdb, sdb_sactive) == 4, "SDB SActive at byte 4");

/* DMA Setup FIS (10.3.8): 7 dwords. */
struct sata_fis_dma_setup {
	u8	ds_type;		/* SATA_FIS_TYPE_DMA_SETUP */
	u8	ds_flags;
#define SATA_DS_FLAGS_PMP_MASK		0x0f
#define SATA_DS_FLAGS_D			0x20	/* direction: 1 device to host */
#define SATA_DS_FLAGS_I			0x40
#define SATA_DS_FLAGS_A			0x80	/* Auto-activate */
	u8	ds_rsvd2[2];
	u64	ds_buffer_id;		/* DMA Buffer Identifier (NCQ: the tag) */
	u32	ds_rsvd12;
	u32	ds_buffer_offset;
	u32	ds_transfer_count;
	u32	ds_rsvd24;
} __packed;
_Static_assert(sizeof(struct sata_fis_dma_setup) == 28, "DMA Setup FIS is 7 dwords");
_Static_assert(offsetof(struct sata_fis_dma_setup, ds_buffer_id) == 4, "buffer id at byte 4");
_Static_assert(offsetof(struct sata_fis_dma_setup, ds_transfer_count) == 20, "count at byte 20");

/* PIO Setup FIS (10.3.10): 5 dwords. */
struct sata_fis_pio_setup {
	u8	ps_type;		/* SATA_FIS_TYPE_PIO_SETUP */
	u8	ps_flags;
#define SATA_PS_FLAGS_PMP_MASK		0x0f
#define SATA_PS_FLAGS_D			0x20	/* direction: 1 device to host */
#define SATA_PS_FLAGS_I			0x40
	u8	ps_status;
	u8	ps_error;
	u8	ps_lba0;
	u8	ps_lba1;
	u8	ps_lba2;
	u8	ps_device;
	u8	ps_lba3;
	u8	ps_lba4;
	u8	ps_lba5;
	u8	ps_rsvd11;
	u8	ps_count;
	u8	ps_count_exp;
	u8	ps_rsvd14;
	u8	ps_e_status;		/* Status once the transfer is done */
	u16	ps_transfer_count;	/* bytes in this data FIS */
	u8	ps_rsvd18[2];
} __packed;
_Static_assert(sizeof(struct sata_fis_pio_setup) == 20, "PIO Setup FIS is 5 dwords");
_Static_assert(offsetof(struct sata_fis_pio_setup, ps_e_status) == 15, "E_Status at byte 15");
_Static_assert(offsetof(struct sata_fis_pio_setup, ps_transfer_count) == 16, "count at byte 16");

#endif
