/*
 * Bulk-Only Transport wrappers (drivers/usb/usb_storage.h): building the
 * Command Block Wrapper and checking the Command Status Wrapper.  Portable
 * (unit-tested on the host).
 *
 * A CSW is the device's word and is checked before anything in it is
 * believed (BOT 6.3): exactly 13 bytes, the "USBS" signature, the tag of
 * the CBW it answers.  A residue larger than what was asked for is
 * clamped; when the bytes actually moved say more is missing than the
 * device admits, the bytes moved win.
 */
#include "drivers/scsi/scsi.h"
#include "drivers/usb/usb_storage.h"
#include "kernel/errno.h"
#include "lib/string.h"

int bot_build_cbw(struct bot_cbw *cbw, u32 tag, const struct scsi_cmnd *cmd)
{
	if (!cmd->sc_cdb_len || cmd->sc_cdb_len > sizeof(cbw->CBWCB) ||
	    cmd->sc_lun > USB_BOT_MAX_LUN)
		return -EINVAL;
	memset(cbw, 0, sizeof(*cbw));
	cbw->dCBWSignature = cpu_to_le32(BOT_CBW_SIGNATURE);
	cbw->dCBWTag = cpu_to_le32(tag);
	cbw->dCBWDataTransferLength = cpu_to_le32(cmd->sc_dir == SCSI_DIR_NONE ? 0 : cmd->sc_len);
	/* BOT 5.1: the direction bit is ignored when there is no data. */
	cbw->bmCBWFlags = cmd->sc_dir == SCSI_DIR_IN ? BOT_CBW_FLAG_IN : 0;
	cbw->bCBWLUN = cmd->sc_lun & BOT_CBW_LUN_MASK;
	cbw->bCBWCBLength = cmd->sc_cdb_len;
	memcpy(cbw->CBWCB, cmd->sc_cdb, cmd->sc_cdb_len);
	return 0;
}

enum bot_csw_verdict bot_check_csw(const void *buf, u32 len, u32 tag, u32 expected, u32 moved,
				   u32 *resid)
{
	struct bot_csw csw;
	u32 r;

	*resid = expected - (moved < expected ? moved : expected);
	if (len != BOT_CSW_LEN)
		return BOT_CSW_INVALID;
	memcpy(&csw, buf, sizeof(csw));
	if (le32_to_cpu(csw.dCSWSignature) != BOT_CSW_SIGNATURE ||
	    le32_to_cpu(csw.dCSWTag) != tag)
		return BOT_CSW_INVALID;
	r = le32_to_cpu(csw.dCSWDataResidue);
	if (r > expected)
		r = expected;
	if (r > *resid)
		*resid = r;
	switch (csw.bCSWStatus) {
	case BOT_CSW_STATUS_GOOD:
		return BOT_CSW_GOOD;
	case BOT_CSW_STATUS_FAILED:
		return BOT_CSW_FAILED;
	}
	return BOT_CSW_PHASE_ERROR;
}

const char *bot_csw_verdict_name(enum bot_csw_verdict v)
{
	static const char *const names[] = {
		[BOT_CSW_GOOD]		= "good",
		[BOT_CSW_FAILED]	= "failed",
		[BOT_CSW_PHASE_ERROR]	= "phase error",
		[BOT_CSW_INVALID]	= "invalid",
	};

	return (unsigned)v < ARRAY_SIZE(names) ? names[v] : "?";
}
