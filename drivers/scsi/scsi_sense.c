/*
 * Sense data: decoding the fixed (SPC-4 4.5.3) and descriptor (4.5.2)
 * formats into one struct scsi_sense_hdr, naming it in one readable line
 * for the log, and turning a finished command into the errno the block
 * layer passes to the bio that met it.  Portable (unit-tested on the
 * host).
 *
 * Both formats are read defensively: a short buffer reads as zeros past
 * its end, the additional-length fields are clamped to what arrived, and
 * the descriptor walk stops at the first descriptor that would overrun.
 */
#include "drivers/scsi/scsi.h"
#include "kernel/errno.h"
#include "lib/string.h"

static u8 sense_byte(const u8 *buf, u32 len, u32 i)
{
	return i < len ? buf[i] : 0;
}

/* The INFORMATION descriptor (SPC-4 4.5.2.2) of descriptor-format sense, if any. */
static void sense_desc_info(const u8 *buf, u32 len, struct scsi_sense_hdr *ss)
{
	u32 end = SCSI_SENSE_D_HDR + buf[SCSI_SENSE_D_ADDLEN];
	u32 i = SCSI_SENSE_D_HDR, k;

	if (end > len)
		end = len;
	while (i + 2 <= end) {
		u32 dlen = (u32)buf[i + 1] + 2;

		if (i + dlen > end)
			break;
		if (buf[i] == SCSI_SENSE_DESC_INFO && dlen >= SCSI_SENSE_DESC_INFO_LEN + 2) {
			ss->ss_info_valid = (buf[i + 2] & SCSI_SENSE_VALID) != 0;
			ss->ss_info = 0;
			for (k = 0; k < 8; k++)
				ss->ss_info = ss->ss_info << 8 | buf[i + 4 + k];
			return;
		}
		i += dlen;
	}
}

bool scsi_sense_decode(const u8 *buf, u32 len, struct scsi_sense_hdr *ss)
{
	u8 rc;
	u32 n;

	memset(ss, 0, sizeof(*ss));
	if (!buf || len < 1)
		return false;
	rc = buf[0] & SCSI_SENSE_RC_MASK;
	switch (rc) {
	case SCSI_SENSE_FIXED_CUR:
	case SCSI_SENSE_FIXED_DEF:
		/* Fields past ADDITIONAL SENSE LENGTH + 8 are not there. */
		n = len >= 8 ? (u32)buf[SCSI_SENSE_F_ADDLEN] + 8 : len;
		if (n > len)
			n = len;
		ss->ss_key = sense_byte(buf, n, SCSI_SENSE_F_KEY) & SCSI_SENSE_F_KEY_MASK;
		ss->ss_asc = sense_byte(buf, n, SCSI_SENSE_F_ASC);
		ss->ss_ascq = sense_byte(buf, n, SCSI_SENSE_F_ASCQ);
		ss->ss_info_valid = (buf[0] & SCSI_SENSE_VALID) && n >= SCSI_SENSE_F_INFO + 4;
		if (ss->ss_info_valid)
			ss->ss_info = (u32)buf[3] << 24 | (u32)buf[4] << 16 | (u32)buf[5] << 8 | buf[6];
		break;
	case SCSI_SENSE_DESC_CUR:
	case SCSI_SENSE_DESC_DEF:
		ss->ss_key = sense_byte(buf, len, SCSI_SENSE_D_KEY) & SCSI_SENSE_F_KEY_MASK;
		ss->ss_asc = sense_byte(buf, len, SCSI_SENSE_D_ASC);
		ss->ss_ascq = sense_byte(buf, len, SCSI_SENSE_D_ASCQ);
		if (len > SCSI_SENSE_D_HDR)
			sense_desc_info(buf, len, ss);
		break;
	default:
		return false;
	}
	ss->ss_response = rc;
	return true;
}

static const char *const scsi_sense_keys[16] = {
	[SCSI_SK_NO_SENSE]		= "No Sense",
	[SCSI_SK_RECOVERED_ERROR]	= "Recovered Error",
	[SCSI_SK_NOT_READY]		= "Not Ready",
	[SCSI_SK_MEDIUM_ERROR]		= "Medium Error",
	[SCSI_SK_HARDWARE_ERROR]	= "Hardware Error",
	[SCSI_SK_ILLEGAL_REQUEST]	= "Illegal Request",
	[SCSI_SK_UNIT_ATTENTION]	= "Unit Attention",
	[SCSI_SK_DATA_PROTECT]		= "Data Protect",
	[SCSI_SK_BLANK_CHECK]		= "Blank Check",
	[SCSI_SK_VENDOR_SPECIFIC]	= "Vendor Specific",
	[SCSI_SK_COPY_ABORTED]		= "Copy Aborted",
	[SCSI_SK_ABORTED_COMMAND]	= "Aborted Command",
	[SCSI_SK_VOLUME_OVERFLOW]	= "Volume Overflow",
	[SCSI_SK_MISCOMPARE]		= "Miscompare",
};

const char *scsi_sense_key_name(u8 key)
{
	if (key < 16 && scsi_sense_keys[key])
		return scsi_sense_keys[key];
	return "Reserved Sense Key";
}

/* The conditions a stick or an emulated disk reports (SPC-4 table D.1). */
static const struct {
	u8		asc, ascq;
	const char	*name;
} scsi_ascs[] = {
	{ 0x00, 0x00, "no additional sense information" },
	{ 0x00, 0x06, "i/o process terminated" },
	{ 0x04, 0x00, "logical unit not ready, cause not reportable" },
	{ 0x04, 0x01, "logical unit is in process of becoming ready" },
	{ 0x04, 0x02, "logical unit not ready, initializing command required" },
	{ 0x0c, 0x00, "write error" },
	{ 0x11, 0x00, "unrecovered read error" },
	{ 0x20, 0x00, "invalid command operation code" },
	{ 0x21, 0x00, "logical block address out of range" },
	{ 0x24, 0x00, "invalid field in cdb" },
	{ 0x25, 0x00, "logical unit not supported" },
	{ 0x27, 0x00, "write protected" },
	{ 0x28, 0x00, "not ready to ready change, medium may have changed" },
	{ 0x29, 0x00, "power on, reset, or bus device reset occurred" },
	{ 0x3a, 0x00, "medium not present" },
	{ 0x44, 0x00, "internal target failure" },
	{ 0x47, 0x00, "scsi parity error" },
};

const char *scsi_asc_name(u8 asc, u8 ascq)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(scsi_ascs); i++)
		if (scsi_ascs[i].asc == asc && scsi_ascs[i].ascq == ascq)
			return scsi_ascs[i].name;
	return NULL;
}

const char *scsi_status_name(u8 status)
{
	switch (status) {
	case SAM_STAT_GOOD:			return "GOOD";
	case SAM_STAT_CHECK_CONDITION:		return "CHECK CONDITION";
	case SAM_STAT_CONDITION_MET:		return "CONDITION MET";
	case SAM_STAT_BUSY:			return "BUSY";
	case SAM_STAT_RESERVATION_CONFLICT:	return "RESERVATION CONFLICT";
	case SAM_STAT_TASK_SET_FULL:		return "TASK SET FULL";
	case SAM_STAT_ACA_ACTIVE:		return "ACA ACTIVE";
	case SAM_STAT_TASK_ABORTED:		return "TASK ABORTED";
	}
	return NULL;
}

int scsi_sense_str(const struct scsi_sense_hdr *ss, char *buf, size_t len)
{
	const char *what = scsi_asc_name(ss->ss_asc, ss->ss_ascq);
	int n;

	if (!ss->ss_response)
		return snprintf(buf, len, "no sense data");
	n = snprintf(buf, len, "%s: %s (asc %02x/%02x)", scsi_sense_key_name(ss->ss_key),
		     what ? what : "unknown condition", ss->ss_asc, ss->ss_ascq);
	if (n >= 0 && (size_t)n < len && ss->ss_info_valid)
		n += snprintf(buf + n, len - (size_t)n, " at lba %llu",
			      (unsigned long long)ss->ss_info);
	return n;
}

int scsi_cmd_errno(const struct scsi_cmnd *cmd, const struct scsi_sense_hdr *ss)
{
	if (cmd->sc_result)
		return cmd->sc_result;
	switch (cmd->sc_status) {
	case SAM_STAT_GOOD:
	case SAM_STAT_CONDITION_MET:
		return 0;
	case SAM_STAT_BUSY:
	case SAM_STAT_TASK_SET_FULL:
		return -EAGAIN;
	case SAM_STAT_CHECK_CONDITION:
		break;
	default:
		return -EIO;
	}
	if (!ss || !ss->ss_response)
		return -EIO;		/* CHECK CONDITION without sense: nothing to go on */
	switch (ss->ss_key) {
	case SCSI_SK_NO_SENSE:
	case SCSI_SK_RECOVERED_ERROR:
		return 0;
	case SCSI_SK_UNIT_ATTENTION:
	case SCSI_SK_ABORTED_COMMAND:
		return -EAGAIN;
	case SCSI_SK_NOT_READY:
		if (ss->ss_asc == 0x3a)
			return -ENOMEDIUM;
		if (ss->ss_asc == 0x04 && ss->ss_ascq == 0x01)
			return -EAGAIN;
		return -EIO;
	case SCSI_SK_DATA_PROTECT:
		return -EROFS;
	}
	return -EIO;
}
