/*
 * Readable ATA status, error and command names for error messages, one
 * format for both drivers (the disk name is the caller's prefix):
 *
 *	sda: READ FPDMA QUEUED failed at sector 4096: status DRDY ERR, error UNC
 *
 * Bits are named high to low by the ATA8-ACS field names (the obsolete
 * ones by their classic names, which is what old disks still mean).
 * Also what a reset signature says is attached (ata_classify).
 * Pure code; host-tested.
 */
#include "drivers/ata/ata.h"
#include "drivers/ata/atareg.h"
#include "lib/string.h"

static const char *const status_names[8] = {
	"ERR", "IDX", "CORR", "DRQ", "DSC", "DF", "DRDY", "BSY",
};

static const char *const error_names[8] = {
	"AMNF", "NM", "ABRT", "MCR", "IDNF", "MC", "UNC", "ICRC",
};

/* Names of the set bits, high to low, space-separated; "none" for 0. */
static int bits_str(u8 v, const char *const names[8], char *buf, size_t size)
{
	size_t n = 0;
	int bit;

	if (size)
		buf[0] = '\0';
	if (v == 0)
		return snprintf(buf, size, "none");
	for (bit = 7; bit >= 0; bit--) {
		if (!(v & (1u << bit)))
			continue;
		n += (size_t)snprintf(buf + min(n, size), size - min(n, size), "%s%s",
				      n ? " " : "", names[bit]);
	}
	return (int)n;
}

/* "DRDY ERR" for 0x41.  Returns the length the full text needs. */
int ata_status_str(u8 status, char *buf, size_t size)
{
	return bits_str(status, status_names, buf, size);
}

/* "UNC ABRT" for 0x44. */
int ata_error_str(u8 error, char *buf, size_t size)
{
	return bits_str(error, error_names, buf, size);
}

static const struct {
	u8		cn_cmd;
	const char	*cn_name;
} cmd_names[] = {
	{ ATA_CMD_NOP, "NOP" },
	{ ATA_CMD_DEVICE_RESET, "DEVICE RESET" },
	{ ATA_CMD_READ_SECTORS, "READ SECTORS" },
	{ ATA_CMD_READ_SECTORS_EXT, "READ SECTORS EXT" },
	{ ATA_CMD_READ_DMA_EXT, "READ DMA EXT" },
	{ ATA_CMD_READ_LOG_EXT, "READ LOG EXT" },
	{ ATA_CMD_WRITE_SECTORS, "WRITE SECTORS" },
	{ ATA_CMD_WRITE_SECTORS_EXT, "WRITE SECTORS EXT" },
	{ ATA_CMD_WRITE_DMA_EXT, "WRITE DMA EXT" },
	{ ATA_CMD_WRITE_DMA_FUA_EXT, "WRITE DMA FUA EXT" },
	{ ATA_CMD_READ_LOG_DMA_EXT, "READ LOG DMA EXT" },
	{ ATA_CMD_READ_FPDMA_QUEUED, "READ FPDMA QUEUED" },
	{ ATA_CMD_WRITE_FPDMA_QUEUED, "WRITE FPDMA QUEUED" },
	{ ATA_CMD_EXECUTE_DIAGNOSTIC, "EXECUTE DEVICE DIAGNOSTIC" },
	{ ATA_CMD_PACKET, "PACKET" },
	{ ATA_CMD_IDENTIFY_PACKET, "IDENTIFY PACKET DEVICE" },
	{ ATA_CMD_READ_DMA, "READ DMA" },
	{ ATA_CMD_WRITE_DMA, "WRITE DMA" },
	{ ATA_CMD_STANDBY_IMMEDIATE, "STANDBY IMMEDIATE" },
	{ ATA_CMD_CHECK_POWER_MODE, "CHECK POWER MODE" },
	{ ATA_CMD_FLUSH_CACHE, "FLUSH CACHE" },
	{ ATA_CMD_FLUSH_CACHE_EXT, "FLUSH CACHE EXT" },
	{ ATA_CMD_IDENTIFY_DEVICE, "IDENTIFY DEVICE" },
	{ ATA_CMD_SET_FEATURES, "SET FEATURES" },
};

/* The ACS name of a command opcode; never NULL. */
const char *ata_cmd_name(u8 command)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cmd_names); i++)
		if (cmd_names[i].cn_cmd == command)
			return cmd_names[i].cn_name;
	return "unknown command";
}

/**
 * ata_err_describe - one line for a failed command
 * @buf, @size: output, always terminated when size > 0
 * @command: the opcode that failed; @status, @error: the registers after it
 * @lba: the failing sector the device reported (ata_tf_result_lba)
 *
 * Returns the length the full text needs.  The error register means
 * nothing unless status has ERR, so it is left out then.
 */
int ata_err_describe(char *buf, size_t size, u8 command, u8 status, u8 error, u64 lba)
{
	char st[48], er[48];

	ata_status_str(status, st, sizeof(st));
	if (!(status & ATA_STATUS_ERR) || (status & ATA_STATUS_BSY))
		return snprintf(buf, size, "%s failed at sector %llu: status %s",
				ata_cmd_name(command), (unsigned long long)lba, st);
	ata_error_str(error, er, sizeof(er));
	return snprintf(buf, size, "%s failed at sector %llu: status %s, error %s",
			ata_cmd_name(command), (unsigned long long)lba, st, er);
}

const char *const ata_dev_class_names[ATA_DEV_NR_CLASSES] = {
	[ATA_DEV_NONE] = "none",
	[ATA_DEV_ATA] = "ATA",
	[ATA_DEV_ATAPI] = "ATAPI",
	[ATA_DEV_PM] = "port multiplier",
	[ATA_DEV_SEMB] = "enclosure bridge",
	[ATA_DEV_UNKNOWN] = "unknown",
};

/**
 * ata_classify - what a device's reset signature says it is
 * @lbamid, @lbahigh: LBA 15:8 and 23:16 after reset (AHCI: PxSIG bits
 *	23:16 and 31:24)
 * @status: the Status after reset; 0xff or 0x7f is a bus with nothing on it
 *
 * The signatures of ACS ("Signature and persistence") and SATA (port
 * multiplier, enclosure bridge).
 */
enum ata_dev_class ata_classify(u8 lbamid, u8 lbahigh, u8 status)
{
	static const struct {
		u8			sc_mid, sc_high;
		enum ata_dev_class	sc_class;
	} sigs[] = {
		{ ATA_SIG_ATA_LBAMID, ATA_SIG_ATA_LBAHIGH, ATA_DEV_ATA },
		{ ATA_SIG_ATAPI_LBAMID, ATA_SIG_ATAPI_LBAHIGH, ATA_DEV_ATAPI },
		{ ATA_SIG_PM_LBAMID, ATA_SIG_PM_LBAHIGH, ATA_DEV_PM },
		{ ATA_SIG_SEMB_LBAMID, ATA_SIG_SEMB_LBAHIGH, ATA_DEV_SEMB },
	};
	size_t i;

	if (status == 0xff || status == 0x7f)
		return ATA_DEV_NONE;
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		if (sigs[i].sc_mid == lbamid && sigs[i].sc_high == lbahigh)
			return sigs[i].sc_class;
	return ATA_DEV_UNKNOWN;
}
