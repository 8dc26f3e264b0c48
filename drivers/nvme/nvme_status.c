/*
 * NVMe completion status, decoded (NVMe 2.0 base 4.6.1; NVM command set
 * 1.0, 3.x status values): a name for each status the driver may meet,
 * the errno a failed request ends with, whether a retry may help (the Do
 * Not Retry bit clear, 4.6.1), and the one line the driver prints for a
 * failed command, with its opcode and LBA range.  Portable.
 */
#include "drivers/nvme/nvme_lib.h"
#include "kernel/errno.h"
#include "lib/string.h"

struct status_name {
	u8		sct;
	u8		sc;
	const char	*name;
};

static const struct status_name status_names[] = {
	{ NVME_SCT_GENERIC, NVME_SC_SUCCESS, "Successful Completion" },
	{ NVME_SCT_GENERIC, NVME_SC_INVALID_OPCODE, "Invalid Command Opcode" },
	{ NVME_SCT_GENERIC, NVME_SC_INVALID_FIELD, "Invalid Field in Command" },
	{ NVME_SCT_GENERIC, NVME_SC_CMDID_CONFLICT, "Command ID Conflict" },
	{ NVME_SCT_GENERIC, NVME_SC_DATA_XFER_ERROR, "Data Transfer Error" },
	{ NVME_SCT_GENERIC, NVME_SC_POWER_LOSS, "Commands Aborted due to Power Loss Notification" },
	{ NVME_SCT_GENERIC, NVME_SC_INTERNAL, "Internal Error" },
	{ NVME_SCT_GENERIC, NVME_SC_ABORT_REQ, "Command Abort Requested" },
	{ NVME_SCT_GENERIC, NVME_SC_ABORT_QUEUE, "Command Aborted due to SQ Deletion" },
	{ NVME_SCT_GENERIC, NVME_SC_FUSED_FAIL, "Command Aborted due to Failed Fused Command" },
	{ NVME_SCT_GENERIC, NVME_SC_FUSED_MISSING, "Command Aborted due to Missing Fused Command" },
	{ NVME_SCT_GENERIC, NVME_SC_INVALID_NS, "Invalid Namespace or Format" },
	{ NVME_SCT_GENERIC, NVME_SC_CMD_SEQ_ERROR, "Command Sequence Error" },
	{ NVME_SCT_GENERIC, NVME_SC_SGL_INVALID_LAST, "Invalid SGL Segment Descriptor" },
	{ NVME_SCT_GENERIC, NVME_SC_SGL_INVALID_COUNT, "Invalid Number of SGL Descriptors" },
	{ NVME_SCT_GENERIC, NVME_SC_SGL_INVALID_DATA, "Data SGL Length Invalid" },
	{ NVME_SCT_GENERIC, NVME_SC_SGL_INVALID_METADATA, "Metadata SGL Length Invalid" },
	{ NVME_SCT_GENERIC, NVME_SC_SGL_INVALID_TYPE, "SGL Descriptor Type Invalid" },
	{ NVME_SCT_GENERIC, NVME_SC_PRP_INVALID_OFFSET, "PRP Offset Invalid" },
	{ NVME_SCT_GENERIC, NVME_SC_LBA_RANGE, "LBA Out of Range" },
	{ NVME_SCT_GENERIC, NVME_SC_CAP_EXCEEDED, "Capacity Exceeded" },
	{ NVME_SCT_GENERIC, NVME_SC_NS_NOT_READY, "Namespace Not Ready" },
	{ NVME_SCT_GENERIC, NVME_SC_RESERVATION_CONFLICT, "Reservation Conflict" },
	{ NVME_SCT_GENERIC, NVME_SC_FORMAT_IN_PROGRESS, "Format In Progress" },
	{ NVME_SCT_CMD_SPECIFIC, NVME_SC_CQ_INVALID, "Completion Queue Invalid" },
	{ NVME_SCT_CMD_SPECIFIC, NVME_SC_QID_INVALID, "Invalid Queue Identifier" },
	{ NVME_SCT_CMD_SPECIFIC, NVME_SC_QUEUE_SIZE, "Invalid Queue Size" },
	{ NVME_SCT_CMD_SPECIFIC, NVME_SC_ABORT_LIMIT, "Abort Command Limit Exceeded" },
	{ NVME_SCT_CMD_SPECIFIC, NVME_SC_INVALID_VECTOR, "Invalid Interrupt Vector" },
	{ NVME_SCT_CMD_SPECIFIC, NVME_SC_INVALID_FORMAT, "Invalid Format" },
	{ NVME_SCT_CMD_SPECIFIC, NVME_SC_ATTEMPTED_WRITE_RO, "Attempted Write to Read Only Range" },
	{ NVME_SCT_MEDIA, NVME_SC_WRITE_FAULT, "Write Fault" },
	{ NVME_SCT_MEDIA, NVME_SC_READ_ERROR, "Unrecovered Read Error" },
	{ NVME_SCT_MEDIA, NVME_SC_GUARD_CHECK, "End-to-end Guard Check Error" },
	{ NVME_SCT_MEDIA, NVME_SC_APPTAG_CHECK, "End-to-end Application Tag Check Error" },
	{ NVME_SCT_MEDIA, NVME_SC_REFTAG_CHECK, "End-to-end Reference Tag Check Error" },
	{ NVME_SCT_MEDIA, NVME_SC_COMPARE_FAILED, "Compare Failure" },
	{ NVME_SCT_MEDIA, NVME_SC_ACCESS_DENIED, "Access Denied" },
	{ NVME_SCT_MEDIA, NVME_SC_UNWRITTEN_BLOCK, "Deallocated or Unwritten Logical Block" },
};

static const char *const sct_names[8] = {
	"Generic Command Status", "Command Specific Status", "Media and Data Integrity Error",
	"Path Related Status", "Reserved Status Code Type", "Reserved Status Code Type",
	"Reserved Status Code Type", "Vendor Specific Status",
};

const char *nvme_status_name(u16 status)
{
	unsigned sct = NVME_STATUS_SCT(status), sc = NVME_STATUS_SC(status);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(status_names); i++)
		if (status_names[i].sct == sct && status_names[i].sc == sc)
			return status_names[i].name;
	return sct_names[sct];
}

int nvme_status_errno(u16 status)
{
	unsigned sct = NVME_STATUS_SCT(status), sc = NVME_STATUS_SC(status);

	if (!nvme_status_field(status))
		return 0;
	if (sct == NVME_SCT_GENERIC) {
		switch (sc) {
		case NVME_SC_INVALID_OPCODE:
		case NVME_SC_INVALID_FIELD:
			return -EOPNOTSUPP;
		case NVME_SC_LBA_RANGE:
		case NVME_SC_CAP_EXCEEDED:
			return -ENOSPC;
		case NVME_SC_INVALID_NS:
			return -ENXIO;
		case NVME_SC_ABORT_REQ:
			return -ETIMEDOUT;
		case NVME_SC_RESERVATION_CONFLICT:
			return -EBUSY;
		}
	}
	if (sct == NVME_SCT_CMD_SPECIFIC && sc == NVME_SC_ATTEMPTED_WRITE_RO)
		return -EROFS;
	if (sct == NVME_SCT_PATH)
		return -ENODEV;
	return -EIO;
}

bool nvme_status_retryable(u16 status)
{
	return nvme_status_field(status) && !(status & NVME_STATUS_DNR);
}

const char *nvme_opcode_name(u8 opc, bool admin)
{
	if (admin) {
		switch (opc) {
		case NVME_ADMIN_DELETE_SQ:	return "DELETE I/O SQ";
		case NVME_ADMIN_CREATE_SQ:	return "CREATE I/O SQ";
		case NVME_ADMIN_GET_LOG_PAGE:	return "GET LOG PAGE";
		case NVME_ADMIN_DELETE_CQ:	return "DELETE I/O CQ";
		case NVME_ADMIN_CREATE_CQ:	return "CREATE I/O CQ";
		case NVME_ADMIN_IDENTIFY:	return "IDENTIFY";
		case NVME_ADMIN_ABORT:		return "ABORT";
		case NVME_ADMIN_SET_FEATURES:	return "SET FEATURES";
		case NVME_ADMIN_GET_FEATURES:	return "GET FEATURES";
		case NVME_ADMIN_DBBUF_CONFIG:	return "DOORBELL BUFFER CONFIG";
		}
		return "ADMIN";
	}
	switch (opc) {
	case NVME_CMD_FLUSH:		return "FLUSH";
	case NVME_CMD_WRITE:		return "WRITE";
	case NVME_CMD_READ:		return "READ";
	case NVME_CMD_WRITE_ZEROES:	return "WRITE ZEROES";
	case NVME_CMD_DSM:		return "DSM";
	}
	return "I/O";
}

int nvme_format_status(char *buf, size_t size, const char *who, u8 opc, bool admin,
		       u64 lba, u32 nlb, u16 status)
{
	char range[48] = "";
	int n;

	if (!size)
		return 0;
	if (nlb)
		snprintf(range, sizeof(range), " lba %llu len %u", (unsigned long long)lba, nlb);
	n = snprintf(buf, size, "%s: %s%s: %s (sct %u sc 0x%02x%s)", who,
		     nvme_opcode_name(opc, admin), range, nvme_status_name(status),
		     NVME_STATUS_SCT(status), NVME_STATUS_SC(status),
		     (status & NVME_STATUS_DNR) ? ", DNR" : "");
	if (n < 0)
		return 0;
	return (size_t)n < size ? n : (int)size - 1;
}
