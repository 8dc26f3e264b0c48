/*
 * Readable ATA status, error and command names for error messages:
 *
 *	sda: READ FPDMA QUEUED failed at sector 4096: status DRDY ERR, error UNC
 *
 * Bits are named high to low by the ATA8-ACS field names (the obsolete
 * ones by their classic names, which is what old disks still mean).
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
