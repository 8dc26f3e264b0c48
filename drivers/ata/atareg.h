/*
 * ATA: the taskfile registers and their bits, command opcodes, IDENTIFY
 * DEVICE word numbers and the NCQ error log, by the names of ATA8-ACS
 * (T13/1699-D, "ACS") and ATA8-APT / ATA/ATAPI-7 volume 2 for the
 * parallel register block.  Hardware only: no types, no code.
 *
 * Register offsets (the command block at 0x1F0/0x170 or a native-mode BAR)
 * and the bus-master registers are the IDE driver's: drivers/ide/idereg.h.
 */
#ifndef DRIVERS_ATA_ATAREG_H
#define DRIVERS_ATA_ATAREG_H

/* Status register (ACS clause 6, Status field). */
#define ATA_STATUS_ERR		0x01	/* Error: see the Error register */
#define ATA_STATUS_IDX		0x02	/* obsolete (Index); ACS-4: Sense Data Available */
#define ATA_STATUS_CORR		0x04	/* obsolete (Corrected data); ACS: Alignment Error */
#define ATA_STATUS_DRQ		0x08	/* Data Request */
#define ATA_STATUS_DSC		0x10	/* obsolete (Seek Complete); ACS: Deferred Write Error */
#define ATA_STATUS_DF		0x20	/* Device Fault */
#define ATA_STATUS_DRDY		0x40	/* Device Ready */
#define ATA_STATUS_BSY		0x80	/* Busy: every other bit is invalid */

/* Error register (ACS clause 6, Error field). */
#define ATA_ERROR_AMNF		0x01	/* obsolete (Address Mark Not Found) */
#define ATA_ERROR_NM		0x02	/* No Media / End of Media */
#define ATA_ERROR_ABRT		0x04	/* Abort: command not supported or failed */
#define ATA_ERROR_MCR		0x08	/* Media Change Request */
#define ATA_ERROR_IDNF		0x10	/* ID Not Found: address out of range */
#define ATA_ERROR_MC		0x20	/* Media Changed */
#define ATA_ERROR_UNC		0x40	/* Uncorrectable data error */
#define ATA_ERROR_ICRC		0x80	/* Interface CRC error */

/* Device register (each command's Device input, ACS clause 7). */
#define ATA_DEVICE_OBS		0xa0	/* bits 7 and 5: set on old devices, ignored now */
#define ATA_DEVICE_LBA		0x40	/* LBA addressing (bit 6) */
#define ATA_DEVICE_DEV		0x10	/* device 1 (slave) on a parallel bus */
#define ATA_DEVICE_LBA28_MASK	0x0f	/* LBA bits 27:24 in 28-bit commands */
#define ATA_DEVICE_FUA		0x80	/* FPDMA QUEUED: Forced Unit Access (bit 7) */

/* Device Control register (ATA8-APT / ATA/ATAPI-7 volume 2, Device Control). */
#define ATA_CTL_NIEN		0x02	/* interrupts disabled */
#define ATA_CTL_SRST		0x04	/* software reset */
#define ATA_CTL_HOB		0x80	/* read the previous (high order) bytes */

/* Command opcodes (ACS clause 7, one subclause per command). */
#define ATA_CMD_NOP			0x00
#define ATA_CMD_DSM			0x06	/* DATA SET MANAGEMENT (ACS-3 7.5), DMA, 48-bit */
#define   ATA_DSM_TRIM			0x0001	/* Feature bit 0: TRIM */
#define ATA_CMD_DEVICE_RESET		0x08
#define ATA_CMD_READ_SECTORS		0x20	/* PIO, 28-bit */
#define ATA_CMD_READ_SECTORS_EXT	0x24	/* PIO, 48-bit */
#define ATA_CMD_READ_DMA_EXT		0x25
#define ATA_CMD_READ_LOG_EXT		0x2f
#define ATA_CMD_WRITE_SECTORS		0x30
#define ATA_CMD_WRITE_SECTORS_EXT	0x34
#define ATA_CMD_WRITE_DMA_EXT		0x35
#define ATA_CMD_WRITE_DMA_FUA_EXT	0x3d
#define ATA_CMD_READ_LOG_DMA_EXT	0x47
#define ATA_CMD_READ_FPDMA_QUEUED	0x60
#define ATA_CMD_WRITE_FPDMA_QUEUED	0x61
#define ATA_CMD_EXECUTE_DIAGNOSTIC	0x90
#define ATA_CMD_PACKET			0xa0
#define ATA_CMD_IDENTIFY_PACKET		0xa1
#define ATA_CMD_READ_DMA		0xc8
#define ATA_CMD_WRITE_DMA		0xca
#define ATA_CMD_STANDBY_IMMEDIATE	0xe0
#define ATA_CMD_CHECK_POWER_MODE	0xe5
#define ATA_CMD_FLUSH_CACHE		0xe7
#define ATA_CMD_FLUSH_CACHE_EXT		0xea
#define ATA_CMD_IDENTIFY_DEVICE		0xec
#define ATA_CMD_SET_FEATURES		0xef

/* SET FEATURES subcommands, in the Feature field (ACS, SET FEATURES). */
#define ATA_SF_ENABLE_WCACHE		0x02	/* enable volatile write cache */
#define ATA_SF_SET_XFER_MODE		0x03	/* Count: transfer mode below */
#define   ATA_XFER_PIO_DEFAULT		0x00
#define   ATA_XFER_PIO_FLOW		0x08	/* | mode: PIO flow control */
#define   ATA_XFER_MWDMA		0x20	/* | mode: Multiword DMA */
#define   ATA_XFER_UDMA			0x40	/* | mode: Ultra DMA */
#define   ATA_XFER_TYPE_MASK		0xf8	/* bits 7:3: which of the above */
#define   ATA_XFER_MODE_MASK		0x07	/* bits 2:0: the mode number */
#define ATA_SF_ENABLE_SATA_FEATURE	0x10
#define ATA_SF_DISABLE_WCACHE		0x82	/* disable volatile write cache */
#define ATA_SF_DISABLE_SATA_FEATURE	0x90

/* Log addresses for READ LOG EXT (ACS annex A). */
#define ATA_LOG_DIRECTORY		0x00
#define ATA_LOG_SATA_NCQ		0x10	/* NCQ Command Error log */
#define ATA_LOG_SECTOR_SIZE		512

/*
 * NCQ Command Error log (log 10h), page 0, from the SATA 3.x
 * specification's log definitions: byte offsets.  The 512 bytes sum to 0
 * modulo 256.
 */
#define ATA_NCQ_LOG_TAG			0	/* bits 4:0 tag; bit 7 NQ */
#define   ATA_NCQ_LOG_TAG_MASK		0x1f
#define   ATA_NCQ_LOG_NQ		0x80	/* a non-queued command failed */
#define ATA_NCQ_LOG_STATUS		2
#define ATA_NCQ_LOG_ERROR		3
#define ATA_NCQ_LOG_LBA0		4	/* LBA 7:0, 15:8, 23:16 at 4, 5, 6 */
#define ATA_NCQ_LOG_DEVICE		7
#define ATA_NCQ_LOG_LBA3		8	/* LBA 31:24, 39:32, 47:40 at 8, 9, 10 */
#define ATA_NCQ_LOG_COUNT		12	/* 16 bits, little-endian */
#define ATA_NCQ_LOG_CHECKSUM		511

#define ATA_MAX_QUEUE			32	/* NCQ tags 0..31 */
#define ATA_LBA28_LIMIT			(1ULL << 28)
#define ATA_LBA48_LIMIT			(1ULL << 48)
#define ATA_MAX_SECTORS_28		256	/* Count 0 means 256 */
#define ATA_MAX_SECTORS_48		65536	/* Count 0 means 65536 */

/*
 * IDENTIFY DEVICE data: 256 little-endian words (ATA8-ACS 7.16, IDENTIFY
 * DEVICE; word 76 from SATA 3.x, IDENTIFY (PACKET) DEVICE).  Words 83,
 * 84, 87, 93, 106 and 209 carry data only when bit 15 is 0 and bit 14 is 1.
 */
#define ATA_ID_WORDS			256
#define ATA_ID_CONFIG			0	/* General configuration */
#define   ATA_ID_CONFIG_NOT_ATA		0x8000	/* bit 15: 1 = not an ATA device */
#define   ATA_ID_CONFIG_INCOMPLETE	0x0004	/* bit 2: response incomplete */
#define   ATA_ID_CONFIG_CFA		0x848a	/* CompactFlash: ATA despite bit 15 */
#define   ATA_ID_CONFIG_CFA_ALT		0x844a	/* the same from some CF cards (Linux) */
#define ATA_ID_CYLINDERS		1	/* default CHS: logical cylinders (obsolete in ACS) */
#define ATA_ID_HEADS			3	/* default CHS: logical heads */
#define ATA_ID_SECTORS_PER_TRACK	6	/* default CHS: sectors per track */
#define ATA_ID_SERIAL			10	/* 10 words: 20 ASCII characters */
#define   ATA_ID_SERIAL_WORDS		10
#define ATA_ID_FW_REV			23	/* 4 words: 8 characters */
#define   ATA_ID_FW_REV_WORDS		4
#define ATA_ID_MODEL			27	/* 20 words: 40 characters */
#define   ATA_ID_MODEL_WORDS		20
#define ATA_ID_MAX_MULTIPLE		47	/* bits 7:0: READ/WRITE MULTIPLE max */
#define   ATA_ID_MAX_MULTIPLE_MASK	0x00ff
#define ATA_ID_CAPABILITY		49
#define   ATA_ID_CAP_DMA		0x0100	/* bit 8: DMA supported */
#define   ATA_ID_CAP_LBA		0x0200	/* bit 9: LBA supported */
#define ATA_ID_FIELD_VALID		53
#define   ATA_ID_FIELD_VALID_64_70	0x0002	/* bit 1: words 64-70 valid */
#define   ATA_ID_FIELD_VALID_88		0x0004	/* bit 2: word 88 valid */
#define ATA_ID_LBA28_CAPACITY		60	/* words 60-61: LBA28 sectors */
#define ATA_ID_MWDMA			63	/* 2:0 supported, 10:8 selected */
#define   ATA_ID_MWDMA_MODES_MASK	0x0007	/* modes 0-2, in both bytes */
#define   ATA_ID_MWDMA_SELECTED_SHIFT	8
#define ATA_ID_PIO_MODES		64	/* 1:0 PIO modes 3-4 supported */
#define ATA_ID_ADDITIONAL_SUPP		69	/* Additional Supported (ACS-3 7.12.7.29) */
#define   ATA_ID_ADD_RZAT		0x0020	/* bit 5: reads after TRIM return zeroes */
#define   ATA_ID_ADD_DRAT		0x4000	/* bit 14: deterministic read after TRIM */
#define ATA_ID_QUEUE_DEPTH		75	/* bits 4:0: maximum depth - 1 */
#define   ATA_ID_QUEUE_DEPTH_MASK	0x001f
#define ATA_ID_SATA_CAP			76	/* SATA 3.x 13.2.1; 0000h/FFFFh: not SATA */
#define   ATA_ID_SATA_CAP_NCQ		0x0100	/* bit 8: NCQ supported */
#define ATA_ID_MAJOR_VERSION		80
#define ATA_ID_CMDSET_1			82	/* Commands and feature sets supported */
#define   ATA_ID_CMDSET_1_WCACHE	0x0020	/* bit 5: volatile write cache */
#define ATA_ID_CMDSET_2			83
#define   ATA_ID_CMDSET_2_LBA48		0x0400	/* bit 10: 48-bit Address feature set */
#define   ATA_ID_CMDSET_2_FLUSH		0x1000	/* bit 12: FLUSH CACHE */
#define   ATA_ID_CMDSET_2_FLUSH_EXT	0x2000	/* bit 13: FLUSH CACHE EXT */
#define ATA_ID_CMDSET_3			84
#define   ATA_ID_CMDSET_3_FUA		0x0040	/* bit 6: WRITE DMA FUA EXT et al. */
#define ATA_ID_CMDSET_ENABLED_1		85
#define   ATA_ID_ENABLED_1_WCACHE	0x0020	/* bit 5: volatile write cache enabled */
#define ATA_ID_CMDSET_ENABLED_2		86
#define   ATA_ID_ENABLED_2_LBA48	0x0400	/* bit 10 */
#define ATA_ID_CMDSET_ENABLED_3		87
#define   ATA_ID_ENABLED_3_FUA		0x0040	/* bit 6: copy of word 84 bit 6 */
#define ATA_ID_UDMA			88	/* 6:0 supported, 14:8 selected */
#define   ATA_ID_UDMA_MODES_MASK	0x007f	/* modes 0-6, in both bytes */
#define   ATA_ID_UDMA_SELECTED_SHIFT	8
#define ATA_ID_HW_RESET			93	/* Hardware reset result (PATA); valid as word 83 */
#define   ATA_ID_HW_RESET_CBLID		0x2000	/* bit 13: device saw an 80-conductor cable */
#define ATA_ID_LBA48_CAPACITY		100	/* words 100-103: 48-bit sector count */
#define ATA_ID_DSM_MAX_BLOCKS		105	/* 512-byte blocks of TRIM ranges per command; 0: not said */
#define ATA_ID_SECTOR_SIZE		106	/* Physical/logical sector size */
#define   ATA_ID_SS_LOGICAL_PER_PHYS	0x000f	/* bits 3:0: 2^X logical per physical */
#define   ATA_ID_SS_LONG_LOGICAL	0x1000	/* bit 12: words 117-118 valid */
#define   ATA_ID_SS_MULTIPLE		0x2000	/* bit 13: several logical per physical */
#define ATA_ID_LOGICAL_SIZE		117	/* words 117-118: words per logical sector */
#define ATA_ID_DSM			169	/* DATA SET MANAGEMENT support */
#define   ATA_ID_DSM_TRIM		0x0001	/* bit 0: the TRIM bit is supported */
#define ATA_ID_ALIGNMENT		209	/* bits 13:0: offset of LBA 0 in its physical */
#define   ATA_ID_ALIGNMENT_MASK		0x3fff
#define ATA_ID_ROTATION_RATE		217	/* 1: non-rotating (solid state) */
#define ATA_ID_INTEGRITY		255	/* 7:0 signature, 15:8 checksum */
#define   ATA_ID_INTEGRITY_SIG_MASK	0x00ff
#define   ATA_ID_INTEGRITY_SIG		0x00a5

/* Bits 15:14 of words 83, 84, 87, 106 and 209 say whether the word is valid. */
#define ATA_ID_VALID_MASK		0xc000
#define ATA_ID_VALID_VALUE		0x4000
/* Words 76 and 80 read 0000h or FFFFh when the device does not report them. */
/*
 * ACS-3 7.5.3.2: the DSM payload is 512-byte blocks of 64 LBA Range
 * Entries, 8 bytes each: LBA in bits 47:0, sector count in 63:48 (0: the
 * entry is unused).
 */
#define ATA_DSM_BLOCK_BYTES		512
#define ATA_DSM_RANGES_PER_BLOCK	64
#define ATA_DSM_RANGE_MAX		0xffffu	/* sectors in one entry */
#define ATA_DSM_LBA_MASK		0x0000ffffffffffffull
#define ATA_DSM_LEN_SHIFT		48

#define ATA_ID_NOT_REPORTED_0		0x0000
#define ATA_ID_NOT_REPORTED_1		0xffff

/* Signatures left in LBA mid/high after reset (ACS, Signature and persistence). */
#define ATA_SIG_ATA_LBAMID		0x00
#define ATA_SIG_ATA_LBAHIGH		0x00
#define ATA_SIG_ATAPI_LBAMID		0x14
#define ATA_SIG_ATAPI_LBAHIGH		0xeb
#define ATA_SIG_PM_LBAMID		0x69	/* SATA port multiplier */
#define ATA_SIG_PM_LBAHIGH		0x96
#define ATA_SIG_SEMB_LBAMID		0x3c	/* SATA enclosure management bridge */
#define ATA_SIG_SEMB_LBAHIGH		0xc3

#endif
