/*
 * USB Mass Storage Class, Bulk-Only Transport (BOT 1.0): the wire format
 * (Command Block Wrapper, Command Status Wrapper, class requests) and the
 * portable helpers that build a CBW and judge a CSW.  The helpers touch
 * no kernel state and build on the host for unit tests.
 *
 * One command goes out as a 31-byte CBW on the bulk-out endpoint, its
 * data (if any) moves on bulk-in or bulk-out, and a 13-byte CSW comes
 * back on bulk-in (BOT 5.1-5.3).  The CSW's tag must echo the CBW's; its
 * residue says how much of the expected data the device did not move.
 */
#ifndef DRIVERS_USB_USB_STORAGE_H
#define DRIVERS_USB_USB_STORAGE_H

#include "kernel/compiler.h"
#include "kernel/types.h"
#include "lib/byteorder.h"

struct scsi_cmnd;

/* Interface subclass (USB MSC Overview 2) and protocol (3) codes. */
#define USB_SC_SCSI		0x06	/* SCSI transparent command set */
#define USB_PR_BULK		0x50	/* Bulk-Only Transport */
#define USB_PR_UAS		0x62	/* USB Attached SCSI: not driven here */

/* Class-specific requests (BOT 3.1, 3.2). */
#define USB_BOT_REQ_RESET	0xff	/* Bulk-Only Mass Storage Reset, no data */
#define USB_BOT_REQ_GET_MAX_LUN	0xfe	/* one byte: the highest LUN */
#define USB_BOT_MAX_LUN		15

/* BOT 5.1 Command Block Wrapper. */
struct bot_cbw {
	le32	dCBWSignature;
#define BOT_CBW_SIGNATURE	0x43425355	/* "USBC" little-endian */
	le32	dCBWTag;
	le32	dCBWDataTransferLength;
	u8	bmCBWFlags;
#define BOT_CBW_FLAG_IN		0x80	/* data from the device */
	u8	bCBWLUN;		/* 3:0 */
#define BOT_CBW_LUN_MASK	0x0f
	u8	bCBWCBLength;		/* 4:0, 1..16 */
	u8	CBWCB[16];
} __packed;
_Static_assert(sizeof(struct bot_cbw) == 31, "CBW is 31 bytes (BOT 5.1)");
_Static_assert(offsetof(struct bot_cbw, CBWCB) == 15, "CBWCB at 15");
#define BOT_CBW_LEN		31

/* BOT 5.2 Command Status Wrapper. */
struct bot_csw {
	le32	dCSWSignature;
#define BOT_CSW_SIGNATURE	0x53425355	/* "USBS" little-endian */
	le32	dCSWTag;
	le32	dCSWDataResidue;
	u8	bCSWStatus;
#define BOT_CSW_STATUS_GOOD	0x00
#define BOT_CSW_STATUS_FAILED	0x01
#define BOT_CSW_STATUS_PHASE	0x02
} __packed;
_Static_assert(sizeof(struct bot_csw) == 13, "CSW is 13 bytes (BOT 5.2)");
#define BOT_CSW_LEN		13

/* What a CSW says (BOT 6.3: valid and meaningful). */
enum bot_csw_verdict {
	BOT_CSW_GOOD,		/* command passed */
	BOT_CSW_FAILED,		/* command failed: REQUEST SENSE tells why */
	BOT_CSW_PHASE_ERROR,	/* reset recovery, then the command failed */
	BOT_CSW_INVALID,	/* wrong size, signature or tag: reset recovery */
};

/**
 * bot_build_cbw - the CBW for cmd
 * @cbw: filled in, all 31 bytes
 * @tag: the tag the CSW must echo
 * @cmd: sc_cdb, sc_cdb_len, sc_lun, sc_dir, sc_len are read
 * Returns 0, or -EINVAL for a CDB length outside 1..16 or a LUN above 15.
 */
int bot_build_cbw(struct bot_cbw *cbw, u32 tag, const struct scsi_cmnd *cmd);

/**
 * bot_check_csw - judge the CSW that arrived
 * @csw: the bytes, @len of them (the bulk-in transfer's actual length)
 * @tag: the CBW's tag
 * @expected: dCBWDataTransferLength
 * @moved: the bytes the data stage actually moved
 * @resid: out: bytes not moved, the larger of the device's dCSWDataResidue
 *	(clamped to expected) and expected - moved
 * A CSW of another length, signature or tag is invalid (BOT 6.3.1); a
 * status above 2 is treated as a phase error (BOT 6.3.2: not meaningful).
 */
enum bot_csw_verdict bot_check_csw(const void *csw, u32 len, u32 tag, u32 expected, u32 moved,
				   u32 *resid);

/* "good", "failed", "phase error", "invalid" */
const char *bot_csw_verdict_name(enum bot_csw_verdict v);

#endif
