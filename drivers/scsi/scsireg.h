/*
 * SCSI wire formats: operation codes, CDB field offsets, status bytes,
 * sense keys and the data-in layouts the disk driver reads.  Hardware
 * only -- no driver state.  Multi-byte fields are big-endian (SPC-4 3.5).
 *
 * Sources: SPC-4 (r37) 4.5 sense data, 6.6 INQUIRY, 6.39 TEST UNIT
 * READY, 6.29 REQUEST SENSE, 7.5.5 MODE SENSE (6); SBC-3 (r35) 5.16
 * READ CAPACITY (10), 5.17 READ CAPACITY (16), 5.11/5.13 READ (10)/(16),
 * 5.34/5.36 WRITE (10)/(16), 5.22 SYNCHRONIZE CACHE (10); SAM-5 5.3.1
 * status codes.
 */
#ifndef DRIVERS_SCSI_SCSIREG_H
#define DRIVERS_SCSI_SCSIREG_H

#include "kernel/types.h"

/* Operation codes (SPC-4 table D.2, SBC-3 table 13). */
#define SCSI_OP_TEST_UNIT_READY		0x00
#define SCSI_OP_REQUEST_SENSE		0x03
#define SCSI_OP_INQUIRY			0x12
#define SCSI_OP_MODE_SENSE_6		0x1a
#define SCSI_OP_READ_CAPACITY_10	0x25
#define SCSI_OP_READ_10			0x28
#define SCSI_OP_WRITE_10		0x2a
#define SCSI_OP_SYNCHRONIZE_CACHE_10	0x35
#define SCSI_OP_READ_16			0x88
#define SCSI_OP_WRITE_16		0x8a
#define SCSI_OP_SERVICE_ACTION_IN_16	0x9e
#define  SCSI_SAI_READ_CAPACITY_16	 0x10

/* CDB lengths by group (SPC-4 4.3.2). */
#define SCSI_CDB6_LEN			6
#define SCSI_CDB10_LEN			10
#define SCSI_CDB16_LEN			16
#define SCSI_MAX_CDB			16

/* READ/WRITE (10)/(16) byte 1 (SBC-3 5.11). */
#define SCSI_RW_FUA			0x08

/* MODE SENSE (6): DBD, the all-pages code; device-specific byte WP bit (SBC-3 6.5.1). */
#define SCSI_MS_DBD			0x08
#define SCSI_MS_PAGE_ALL		0x3f
#define SCSI_MS_HDR_LEN			4
#define SCSI_MS_DEVSPEC_WP		0x80

/* SAM-5 5.3.1 status codes. */
#define SAM_STAT_GOOD			0x00
#define SAM_STAT_CHECK_CONDITION	0x02
#define SAM_STAT_CONDITION_MET		0x04
#define SAM_STAT_BUSY			0x08
#define SAM_STAT_RESERVATION_CONFLICT	0x18
#define SAM_STAT_TASK_SET_FULL		0x28
#define SAM_STAT_ACA_ACTIVE		0x30
#define SAM_STAT_TASK_ABORTED		0x40

/* Sense keys (SPC-4 table 27). */
#define SCSI_SK_NO_SENSE		0x0
#define SCSI_SK_RECOVERED_ERROR		0x1
#define SCSI_SK_NOT_READY		0x2
#define SCSI_SK_MEDIUM_ERROR		0x3
#define SCSI_SK_HARDWARE_ERROR		0x4
#define SCSI_SK_ILLEGAL_REQUEST		0x5
#define SCSI_SK_UNIT_ATTENTION		0x6
#define SCSI_SK_DATA_PROTECT		0x7
#define SCSI_SK_BLANK_CHECK		0x8
#define SCSI_SK_VENDOR_SPECIFIC		0x9
#define SCSI_SK_COPY_ABORTED		0xa
#define SCSI_SK_ABORTED_COMMAND		0xb
#define SCSI_SK_VOLUME_OVERFLOW		0xd
#define SCSI_SK_MISCOMPARE		0xe

/* Sense data response codes (SPC-4 4.5.1) and layout offsets. */
#define SCSI_SENSE_RC_MASK		0x7f
#define SCSI_SENSE_VALID		0x80	/* fixed: INFORMATION is valid */
#define SCSI_SENSE_FIXED_CUR		0x70
#define SCSI_SENSE_FIXED_DEF		0x71
#define SCSI_SENSE_DESC_CUR		0x72
#define SCSI_SENSE_DESC_DEF		0x73
/* Fixed format (SPC-4 4.5.3, table 45). */
#define SCSI_SENSE_F_KEY		2	/* low nibble */
#define  SCSI_SENSE_F_KEY_MASK		 0x0f
#define SCSI_SENSE_F_INFO		3	/* 4 bytes */
#define SCSI_SENSE_F_ADDLEN		7
#define SCSI_SENSE_F_ASC		12
#define SCSI_SENSE_F_ASCQ		13
#define SCSI_SENSE_F_MIN		14	/* through ASCQ */
/* Descriptor format (SPC-4 4.5.2, table 28). */
#define SCSI_SENSE_D_KEY		1
#define SCSI_SENSE_D_ASC		2
#define SCSI_SENSE_D_ASCQ		3
#define SCSI_SENSE_D_ADDLEN		7
#define SCSI_SENSE_D_HDR		8
#define SCSI_SENSE_DESC_INFO		0x00	/* information descriptor (4.5.2.2) */
#define  SCSI_SENSE_DESC_INFO_LEN	 0x0a
#define SCSI_SENSE_BUF_LEN		96	/* what we ask for and keep */

/* Standard INQUIRY data, the first 36 bytes (SPC-4 6.6.2, table 142). */
struct scsi_inquiry_data {
	u8	id_pdt;			/* qualifier 7:5, peripheral device type 4:0 */
#define SCSI_PDT_MASK		0x1f
#define SCSI_PQ_SHIFT		5
#define SCSI_PDT_DISK		0x00	/* direct access block device */
#define SCSI_PDT_CDROM		0x05
#define SCSI_PDT_RBC		0x0e	/* simplified direct access */
#define SCSI_PDT_NONE		0x1f
	u8	id_rmb;
#define SCSI_ID_RMB		0x80	/* removable medium */
	u8	id_version;
	u8	id_format;
	u8	id_addlen;		/* bytes after this one */
	u8	id_flags5;
	u8	id_flags6;
	u8	id_flags7;
	char	id_vendor[8];		/* T10 vendor identification, space padded */
	char	id_product[16];
	char	id_revision[4];
};
_Static_assert(sizeof(struct scsi_inquiry_data) == 36, "INQUIRY data is 36 bytes");
_Static_assert(offsetof(struct scsi_inquiry_data, id_vendor) == 8, "T10 vendor at 8");
_Static_assert(offsetof(struct scsi_inquiry_data, id_product) == 16, "product at 16");
_Static_assert(offsetof(struct scsi_inquiry_data, id_revision) == 32, "revision at 32");
#define SCSI_INQUIRY_LEN	36

/* READ CAPACITY (10) parameter data (SBC-3 5.16.2, table 65). */
struct scsi_capacity10 {
	u8	rc_last_lba[4];		/* 0xffffffff: ask READ CAPACITY (16) */
	u8	rc_block_len[4];
};
_Static_assert(sizeof(struct scsi_capacity10) == 8, "READ CAPACITY (10) data is 8 bytes");
#define SCSI_RC10_LBA_MAX	0xffffffffu

/* READ CAPACITY (16) parameter data (SBC-3 5.17.2, table 67). */
struct scsi_capacity16 {
	u8	rc_last_lba[8];
	u8	rc_block_len[4];
	u8	rc_prot;		/* P_TYPE, PROT_EN */
	u8	rc_exp;			/* P_I_EXPONENT 7:4, LOGICAL BLOCKS PER PHYSICAL EXPONENT 3:0 */
#define SCSI_RC16_LBPPBE_MASK	0x0f
	u8	rc_lowest_aligned[2];	/* LBPME, LBPRZ in 15:14; lowest aligned LBA 13:0 */
#define SCSI_RC16_LALBA_MASK	0x3fff
	u8	rc_rsvd16[16];
};
_Static_assert(sizeof(struct scsi_capacity16) == 32, "READ CAPACITY (16) data is 32 bytes");
_Static_assert(offsetof(struct scsi_capacity16, rc_exp) == 13, "exponent at 13");

#endif
