/*
 * ATA command construction: the commands the IDE and AHCI drivers send,
 * built into a bus-neutral struct ata_taskfile, and the SATA Register
 * Host to Device FIS an AHCI command table carries (SATA 3.x 10.3.4).
 *
 * Read and write pick their command from the request and the disk:
 *   NCQ          READ/WRITE FPDMA QUEUED (count in Features, tag in
 *                Count 7:3, FUA in Device bit 7)
 *   fits LBA28   READ/WRITE DMA, or READ/WRITE SECTORS for PIO
 *   otherwise    READ/WRITE DMA EXT, WRITE DMA FUA EXT, or the PIO
 *                SECTORS EXT forms, when the disk has the 48-bit feature set
 * "Fits LBA28": the request's last sector is below 0FFFFFFFh (words 60-61
 * saturate there, so that sector belongs to the 48-bit commands) and it
 * moves at most 256 sectors; a FUA write always needs the EXT form.
 *
 * Also READ LOG EXT (the NCQ error log, page 10h, is how AHCI finds the
 * failing tag) and its parser.  Pure code; host-tested.
 */
#include "drivers/ata/ata.h"
#include "drivers/ata/atareg.h"
#include "drivers/ata/satafis.h"
#include "kernel/errno.h"
#include "lib/byteorder.h"
#include "lib/string.h"

/**
 * ata_rw - build a read or write
 * @tf: filled on success
 * @ai: the disk
 * @lba: first logical sector; @nsect: logical sectors, at least 1
 * @flags: ATA_RW_WRITE, ATA_RW_FUA, ATA_RW_DMA, ATA_RW_NCQ
 * @tag: NCQ tag (0..depth-1), ignored otherwise
 *
 * Returns 0; -ERANGE beyond the disk or beyond what its commands address;
 * -EINVAL for a zero or oversized count, a FUA read or a bad tag;
 * -EOPNOTSUPP for FUA or NCQ the disk does not have.
 */
int ata_rw(struct ata_taskfile *tf, const struct ata_id *ai, u64 lba, u32 nsect,
	   unsigned flags, unsigned tag)
{
	bool write = flags & ATA_RW_WRITE, fua = flags & ATA_RW_FUA;
	bool dma = flags & ATA_RW_DMA;

	memset(tf, 0, sizeof(*tf));
	if (nsect == 0 || nsect > ATA_MAX_SECTORS_48 || (fua && !write))
		return -EINVAL;
	if (lba >= ai->ai_sectors || nsect > ai->ai_sectors - lba)
		return -ERANGE;
	tf->tf_lba = lba;
	tf->tf_nsect = nsect;
	tf->tf_flags = write ? ATA_TF_WRITE : 0;

	if (flags & ATA_RW_NCQ) {
		if (!ai->ai_ncq)
			return -EOPNOTSUPP;
		if (tag >= ai->ai_ncq_depth || tag >= ATA_MAX_QUEUE)
			return -EINVAL;
		tf->tf_command = write ? ATA_CMD_WRITE_FPDMA_QUEUED : ATA_CMD_READ_FPDMA_QUEUED;
		tf->tf_protocol = ATA_PROT_NCQ;
		tf->tf_flags |= ATA_TF_LBA48;
		tf->tf_feature = (u16)nsect;		/* 65536 is written as 0 */
		tf->tf_count = (u16)(tag << 3);
		tf->tf_device = ATA_DEVICE_LBA | (fua ? ATA_DEVICE_FUA : 0);
		return 0;
	}

	tf->tf_protocol = dma ? ATA_PROT_DMA : ATA_PROT_PIO;
	if (!fua && nsect <= ATA_MAX_SECTORS_28 && lba + nsect < ATA_LBA28_LIMIT) {
		if (dma)
			tf->tf_command = write ? ATA_CMD_WRITE_DMA : ATA_CMD_READ_DMA;
		else
			tf->tf_command = write ? ATA_CMD_WRITE_SECTORS : ATA_CMD_READ_SECTORS;
		tf->tf_count = (u16)(nsect & 0xff);	/* 256 is written as 0 */
		tf->tf_device = ATA_DEVICE_LBA | ((lba >> 24) & ATA_DEVICE_LBA28_MASK);
		return 0;
	}

	if (!ai->ai_lba48) {
		memset(tf, 0, sizeof(*tf));
		return fua ? -EOPNOTSUPP : lba + nsect >= ATA_LBA28_LIMIT ? -ERANGE : -EINVAL;
	}
	if (fua) {
		/* PIO has only WRITE MULTIPLE FUA EXT, which we do not use. */
		if (!ai->ai_fua || !dma) {
			memset(tf, 0, sizeof(*tf));
			return -EOPNOTSUPP;
		}
		tf->tf_command = ATA_CMD_WRITE_DMA_FUA_EXT;
	} else if (dma) {
		tf->tf_command = write ? ATA_CMD_WRITE_DMA_EXT : ATA_CMD_READ_DMA_EXT;
	} else {
		tf->tf_command = write ? ATA_CMD_WRITE_SECTORS_EXT : ATA_CMD_READ_SECTORS_EXT;
	}
	tf->tf_flags |= ATA_TF_LBA48;
	tf->tf_count = (u16)nsect;			/* 65536 is written as 0 */
	tf->tf_device = ATA_DEVICE_LBA;
	return 0;
}

/*
 * FLUSH CACHE EXT when the disk has it, else FLUSH CACHE (mandatory for
 * ATA disks since ATA/ATAPI-6; on a large disk only the EXT form reports
 * a failing LBA above 2^28).
 */
void ata_flush(struct ata_taskfile *tf, const struct ata_id *ai)
{
	memset(tf, 0, sizeof(*tf));
	tf->tf_protocol = ATA_PROT_NODATA;
	if (ai->ai_flush_ext) {
		tf->tf_command = ATA_CMD_FLUSH_CACHE_EXT;
		tf->tf_flags = ATA_TF_LBA48;
	} else {
		tf->tf_command = ATA_CMD_FLUSH_CACHE;
	}
}

/**
 * ata_dsm_trim - DATA SET MANAGEMENT with the TRIM bit (ACS-3 7.5)
 * @tf: filled on success
 * @ai: the disk
 * @blocks: 512-byte payload blocks the host sends (ata_trim_fill)
 *
 * Non-queued DMA, host to device; Count is the number of payload blocks.
 * Returns 0, -EOPNOTSUPP without TRIM, -EINVAL for a count the disk does
 * not take (0, or above IDENTIFY word 105).
 */
int ata_dsm_trim(struct ata_taskfile *tf, const struct ata_id *ai, u32 blocks)
{
	if (!ai->ai_trim)
		return -EOPNOTSUPP;
	if (blocks == 0 || blocks > ai->ai_trim_max_blocks)
		return -EINVAL;
	memset(tf, 0, sizeof(*tf));
	tf->tf_command = ATA_CMD_DSM;
	tf->tf_protocol = ATA_PROT_DMA;
	tf->tf_flags = ATA_TF_LBA48 | ATA_TF_WRITE;
	tf->tf_feature = ATA_DSM_TRIM;
	tf->tf_count = (u16)blocks;
	tf->tf_device = ATA_DEVICE_LBA;
	tf->tf_nsect = blocks;	/* what moves: payload blocks, not the range */
	return 0;
}

/* The most logical sectors a payload of @blocks blocks can describe. */
u64 ata_trim_max_sectors(u32 blocks)
{
	return (u64)blocks * ATA_DSM_RANGES_PER_BLOCK * ATA_DSM_RANGE_MAX;
}

/**
 * ata_trim_fill - write the LBA Range Entries for one contiguous range
 * @buf: @blocks * 512 bytes
 * @blocks: payload blocks
 * @lba: first logical sector; @nsect: logical sectors, at least 1
 *
 * Entries of at most 65535 sectors each, in order, the rest of the
 * payload zero (unused entries).  Returns the number of entries, or
 * -ERANGE when the range needs more than the payload holds or passes
 * 48-bit addressing, -EINVAL for an empty range.
 */
int ata_trim_fill(void *buf, u32 blocks, u64 lba, u64 nsect)
{
	u8 *p = buf;
	u32 n = 0;

	if (nsect == 0)
		return -EINVAL;
	if (nsect > ata_trim_max_sectors(blocks) || lba + nsect > ATA_DSM_LBA_MASK + 1)
		return -ERANGE;
	memset(buf, 0, (size_t)blocks * ATA_DSM_BLOCK_BYTES);
	while (nsect) {
		u64 len = nsect < ATA_DSM_RANGE_MAX ? nsect : ATA_DSM_RANGE_MAX;
		u64 e = (lba & ATA_DSM_LBA_MASK) | len << ATA_DSM_LEN_SHIFT;

		put_le64(p + 8 * n, e);
		n++;
		lba += len;
		nsect -= len;
	}
	return (int)n;
}

/* IDENTIFY DEVICE, or IDENTIFY PACKET DEVICE for ATAPI: one 512-byte PIO read. */
void ata_identify(struct ata_taskfile *tf, bool packet)
{
	memset(tf, 0, sizeof(*tf));
	tf->tf_command = packet ? ATA_CMD_IDENTIFY_PACKET : ATA_CMD_IDENTIFY_DEVICE;
	tf->tf_protocol = ATA_PROT_PIO;
	tf->tf_nsect = 1;
}

/* SET FEATURES: subcmd in Features, its argument in Count. */
void ata_set_features(struct ata_taskfile *tf, u8 subcmd, u8 count)
{
	memset(tf, 0, sizeof(*tf));
	tf->tf_command = ATA_CMD_SET_FEATURES;
	tf->tf_protocol = ATA_PROT_NODATA;
	tf->tf_feature = subcmd;
	tf->tf_count = count;
}

/*
 * READ LOG EXT: pages 512-byte pages of log from page on, by PIO.  LBA
 * 7:0 is the log address, 15:8 the page number's low byte and 39:32 its
 * high byte.
 */
void ata_read_log_ext(struct ata_taskfile *tf, u8 log, u16 page, u16 pages)
{
	memset(tf, 0, sizeof(*tf));
	tf->tf_command = ATA_CMD_READ_LOG_EXT;
	tf->tf_protocol = ATA_PROT_PIO;
	tf->tf_flags = ATA_TF_LBA48;
	tf->tf_count = pages;
	tf->tf_lba = log | (u64)(page & 0xff) << 8 | (u64)(page >> 8) << 32;
	tf->tf_nsect = pages ? pages : ATA_MAX_SECTORS_48;	/* Count 0 means 65536 */
}

/**
 * ata_tf_to_fis - pack a taskfile into a Register Host to Device FIS
 * @tf: the command; @pmp: port multiplier port (0 without one)
 * @fis: 20 bytes, every one written (reserved bytes zero)
 *
 * C=1: a command, not a Device Control update (SATA 3.x 10.3.4).  The
 * "exp" bytes are written only for 48-bit commands; for a 28-bit command
 * LBA 27:24 travels in the Device byte.
 */
void ata_tf_to_fis(const struct ata_taskfile *tf, u8 pmp, struct sata_fis_h2d *fis)
{
	memset(fis, 0, sizeof(*fis));
	fis->h2d_type = SATA_FIS_TYPE_REG_H2D;
	fis->h2d_flags = SATA_H2D_FLAGS_C | (pmp & SATA_H2D_FLAGS_PMP_MASK);
	fis->h2d_command = tf->tf_command;
	fis->h2d_features = (u8)tf->tf_feature;
	fis->h2d_lba0 = (u8)tf->tf_lba;
	fis->h2d_lba1 = (u8)(tf->tf_lba >> 8);
	fis->h2d_lba2 = (u8)(tf->tf_lba >> 16);
	fis->h2d_device = tf->tf_device;
	fis->h2d_count = (u8)tf->tf_count;
	if (tf->tf_flags & ATA_TF_LBA48) {
		fis->h2d_lba3 = (u8)(tf->tf_lba >> 24);
		fis->h2d_lba4 = (u8)(tf->tf_lba >> 32);
		fis->h2d_lba5 = (u8)(tf->tf_lba >> 40);
		fis->h2d_features_exp = (u8)(tf->tf_feature >> 8);
		fis->h2d_count_exp = (u8)(tf->tf_count >> 8);
	}
}

/*
 * Unpack a Register Device to Host FIS (the result of a failed command):
 * its LBA, Count and Device into tf, Status and Error into *status and
 * *error.  The LBA is the 48-bit form; for a 28-bit command the caller
 * takes LBA 27:24 from tf_device.
 */
void ata_fis_to_tf(const struct sata_fis_d2h *fis, struct ata_taskfile *tf, u8 *status,
		   u8 *error)
{
	memset(tf, 0, sizeof(*tf));
	tf->tf_lba = (u64)fis->d2h_lba0 | (u64)fis->d2h_lba1 << 8 | (u64)fis->d2h_lba2 << 16 |
		     (u64)fis->d2h_lba3 << 24 | (u64)fis->d2h_lba4 << 32 |
		     (u64)fis->d2h_lba5 << 40;
	tf->tf_count = (u16)(fis->d2h_count | fis->d2h_count_exp << 8);
	tf->tf_device = fis->d2h_device;
	*status = fis->d2h_status;
	*error = fis->d2h_error;
}

/**
 * ata_ncq_log_parse - decode page 0 of the NCQ Command Error log (10h)
 * @log: 512 bytes as read; @out: filled on success
 *
 * Returns 0, or -EIO when the checksum (byte 511 makes the sum 0) fails.
 * With ne_nq set the failing command was not a queued one and ne_tag
 * means nothing.
 */
int ata_ncq_log_parse(const u8 *log, struct ata_ncq_err *out)
{
	u8 buf[ATA_LOG_SECTOR_SIZE], sum = 0;
	unsigned i;

	memcpy(buf, log, sizeof(buf));
	memset(out, 0, sizeof(*out));
	for (i = 0; i < sizeof(buf); i++)
		sum = (u8)(sum + buf[i]);
	if (sum != 0)
		return -EIO;
	out->ne_nq = buf[ATA_NCQ_LOG_TAG] & ATA_NCQ_LOG_NQ;
	out->ne_tag = buf[ATA_NCQ_LOG_TAG] & ATA_NCQ_LOG_TAG_MASK;
	out->ne_status = buf[ATA_NCQ_LOG_STATUS];
	out->ne_error = buf[ATA_NCQ_LOG_ERROR];
	for (i = 0; i < 3; i++) {
		out->ne_lba |= (u64)buf[ATA_NCQ_LOG_LBA0 + i] << (8 * i);
		out->ne_lba |= (u64)buf[ATA_NCQ_LOG_LBA3 + i] << (8 * (i + 3));
	}
	out->ne_count = (u16)(buf[ATA_NCQ_LOG_COUNT] | buf[ATA_NCQ_LOG_COUNT + 1] << 8);
	return 0;
}

/*
 * The LBA a result taskfile reports (the first failing sector after an
 * error).  With ATA_TF_LBA48 the driver read the "previous" bytes too and
 * tf_lba holds 47:0; a 28-bit result has LBA 27:24 in the Device register.
 */
u64 ata_tf_result_lba(const struct ata_taskfile *tf)
{
	if (tf->tf_flags & ATA_TF_LBA48)
		return tf->tf_lba & (ATA_LBA48_LIMIT - 1);
	return (tf->tf_lba & 0xffffff) | (u64)(tf->tf_device & ATA_DEVICE_LBA28_MASK) << 24;
}

/**
 * ata_xfer_mode - the DMA mode to ask for with SET FEATURES (SET TRANSFER MODE)
 * @ai: the disk
 * @host_udma: UDMA modes the controller and cable can do (bit n: mode n)
 * @host_mwdma: multiword DMA modes the controller can do
 *
 * Returns the Count value, ATA_XFER_UDMA | n for the fastest common Ultra
 * DMA mode, else ATA_XFER_MWDMA | n, or -EOPNOTSUPP when only PIO is left.
 * A 40-wire cable is the caller's to know: it limits host_udma to modes 0-2.
 */
int ata_xfer_mode(const struct ata_id *ai, u8 host_udma, u8 host_mwdma)
{
	u8 common;
	int n;

	if (!ai->ai_dma)
		return -EOPNOTSUPP;
	common = ai->ai_udma_modes & host_udma & ATA_ID_UDMA_MODES_MASK;
	for (n = 6; n >= 0; n--)
		if (common & (1u << n))
			return ATA_XFER_UDMA | n;
	common = ai->ai_mwdma_modes & host_mwdma & ATA_ID_MWDMA_MODES_MASK;
	for (n = 2; n >= 0; n--)
		if (common & (1u << n))
			return ATA_XFER_MWDMA | n;
	return -EOPNOTSUPP;
}
