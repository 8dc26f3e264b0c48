/*
 * Shared ATA code for the IDE and AHCI drivers: what a disk says about
 * itself (IDENTIFY DEVICE, parsed once into struct ata_id), the commands
 * the drivers send (built into a bus-neutral struct ata_taskfile, which
 * IDE writes to its registers and AHCI packs into a Register H2D FIS),
 * and readable names for status, error and command bytes.
 *
 * Addresses here are in the device's logical sectors (ai_logical_size
 * bytes each, 512 or more); a driver converts from the block layer's
 * 512-byte sectors.  Everything is pure and host-tested; no locking.
 */
#ifndef DRIVERS_ATA_ATA_H
#define DRIVERS_ATA_ATA_H

#include "kernel/compiler.h"

struct sata_fis_h2d;
struct sata_fis_d2h;

#define ATA_MODEL_LEN		40
#define ATA_SERIAL_LEN		20
#define ATA_FW_LEN		8

/* IDENTIFY DEVICE, parsed and checked (ata_id_parse). */
struct ata_id {
	char	ai_model[ATA_MODEL_LEN + 1];	/* trimmed, printable ASCII */
	char	ai_serial[ATA_SERIAL_LEN + 1];
	char	ai_firmware[ATA_FW_LEN + 1];
	u64	ai_sectors;		/* addressable logical sectors */
	u32	ai_logical_size;	/* bytes per logical sector (512, 4096, ...) */
	u32	ai_physical_size;	/* bytes per physical sector */
	u32	ai_align_offset;	/* word 209: LBA 0's place in its physical sector,
					   in logical sectors (0: LBA 0 starts one) */
	bool	ai_lba48;		/* 48-bit commands supported */
	bool	ai_dma;			/* DMA supported */
	bool	ai_wcache;		/* volatile write cache present */
	bool	ai_wcache_on;		/* ... and enabled (or its state not reported) */
	bool	ai_flush;		/* FLUSH CACHE */
	bool	ai_flush_ext;		/* FLUSH CACHE EXT */
	bool	ai_fua;			/* WRITE DMA FUA EXT */
	bool	ai_ncq;			/* READ/WRITE FPDMA QUEUED */
	u8	ai_ncq_depth;		/* 1..32 when ai_ncq */
	bool	ai_ssd;			/* nominal rotation rate says non-rotating */
	bool	ai_trim;		/* DSM TRIM (word 169 bit 0; a 48-bit command) */
	bool	ai_trim_drat;		/* reads after TRIM are deterministic (word 69 bit 14) */
	bool	ai_trim_rzat;		/* ... and return zeroes (word 69 bit 5, with DRAT) */
	u16	ai_trim_max_blocks;	/* word 105: payload blocks per DSM, at least 1 */
	u8	ai_udma_modes;		/* bit n: UDMA mode n supported (0-6) */
	s8	ai_udma_active;		/* selected UDMA mode, -1 none */
	u8	ai_mwdma_modes;		/* bit n: multiword DMA mode n supported (0-2) */
	s8	ai_mwdma_active;	/* selected MWDMA mode, -1 none */
	bool	ai_cable80;		/* the device saw an 80-conductor cable (word 93) */
	bool	ai_csum_bad;		/* integrity word 255 wrong: warn, data used anyway */
	u8	ai_max_multiple;	/* READ/WRITE MULTIPLE sectors, 0 none */
	u16	ai_major;		/* major version word (bit n: ATA-n) */
	u16	ai_cyls;		/* words 1, 3, 6: the default CHS translation, */
	u16	ai_heads;		/* 0 when the device reports none */
	u16	ai_spt;
};

/* How a command moves data (the driver picks PIO/DMA/FIS handling by it). */
enum ata_protocol {
	ATA_PROT_NODATA,
	ATA_PROT_PIO,		/* data through the data register / PIO Setup FIS */
	ATA_PROT_DMA,		/* bus-master DMA, one command at a time */
	ATA_PROT_NCQ,		/* First-party DMA, queued, tag in Count 7:3 */
};

/*
 * A command, bus-neutral.  Fields hold the 48-bit forms; a 28-bit command
 * uses the low bytes only and puts LBA 27:24 in tf_device.  The driver
 * adds the device-select bit (IDE) or the port multiplier port (AHCI).
 */
struct ata_taskfile {
	u8	tf_command;
	u8	tf_protocol;		/* enum ata_protocol */
	u8	tf_flags;
#define ATA_TF_LBA48		0x01	/* write the "previous" (HOB) bytes too */
#define ATA_TF_WRITE		0x02	/* data goes host to device */
	u8	tf_device;
	u16	tf_feature;		/* 15:8 used only with ATA_TF_LBA48 */
	u16	tf_count;
	u64	tf_lba;			/* 47:0 */
	u32	tf_nsect;		/* logical sectors moved (0 for non-data) */
};

/* ata_rw() flags. */
#define ATA_RW_WRITE		0x01
#define ATA_RW_FUA		0x02	/* forced unit access (writes) */
#define ATA_RW_DMA		0x04	/* DMA rather than PIO */
#define ATA_RW_NCQ		0x08	/* FPDMA QUEUED with the given tag */

/* What an NCQ error log says (ata_ncq_log_parse). */
struct ata_ncq_err {
	bool	ne_nq;			/* a non-queued command failed: no tag */
	u8	ne_tag;
	u8	ne_status;
	u8	ne_error;
	u64	ne_lba;
	u16	ne_count;
};

/* What answered on a port or channel, from its reset signature (ata_classify). */
enum ata_dev_class {
	ATA_DEV_NONE,		/* nothing there (floating bus) */
	ATA_DEV_ATA,		/* a disk: IDENTIFY DEVICE */
	ATA_DEV_ATAPI,		/* CD/DVD, tape: IDENTIFY PACKET DEVICE, left alone */
	ATA_DEV_PM,		/* SATA port multiplier */
	ATA_DEV_SEMB,		/* SATA enclosure management bridge */
	ATA_DEV_UNKNOWN,
	ATA_DEV_NR_CLASSES
};
extern const char *const ata_dev_class_names[ATA_DEV_NR_CLASSES];

/*
 * The part of a driver's per-disk state that the shared configuration
 * code (ata_dev.c) keeps: how to reach the device with a polled command,
 * and what it has been told, so that every reset can tell it again.
 */
struct ata_dev {
	const char	*ad_name;	/* "hda", "ahci0.2": messages */
	/*
	 * Run tf with the device's interrupt masked, polling; IDENTIFY's 256
	 * words (as sent: little-endian) into buf.  Returns 0, -EIO when the
	 * device reports an error, -ETIMEDOUT.
	 */
	int		(*ad_exec)(struct ata_dev *ad, const struct ata_taskfile *tf, u16 *buf);
	int		ad_xfer;	/* SET TRANSFER MODE Count to send; -1: none (PIO) */
	bool		ad_xfer_optional; /* SATA: a device refusing it is no error */
	bool		ad_wcache_off;	/* we turned the write cache off (no FLUSH CACHE) */
};

/* ata_identify.c */
int ata_id_parse(const u16 *id, struct ata_id *out);
void ata_id_string(const u16 *id, unsigned word, unsigned nwords, char *out);
u64 ata_id_capacity512(const struct ata_id *ai);
u32 ata_id_alignment_offset(const struct ata_id *ai);
/*
 * The disk's CHS geometry, for HDIO_GETGEO: IDENTIFY words 1/3/6 when the
 * device reports them and they cover no more than the disk; otherwise
 * (and always past the 8 GiB CHS reaches) Linux's synthesized 255 heads
 * of 63 sectors, cylinders capped at 65535.
 */
void ata_id_geometry(const struct ata_id *ai, u32 *cyls, u32 *heads, u32 *spt);
void ata_id_media_str(const struct ata_id *ai, char *buf, size_t size);

/* ata_cmd.c */
int ata_rw(struct ata_taskfile *tf, const struct ata_id *ai, u64 lba, u32 nsect,
	   unsigned flags, unsigned tag);
void ata_flush(struct ata_taskfile *tf, const struct ata_id *ai);
int ata_dsm_trim(struct ata_taskfile *tf, const struct ata_id *ai, u32 blocks);
int ata_trim_fill(void *buf, u32 blocks, u64 lba, u64 nsect);
u64 ata_trim_max_sectors(u32 blocks);
void ata_identify(struct ata_taskfile *tf, bool packet);
void ata_set_features(struct ata_taskfile *tf, u8 subcmd, u8 count);
void ata_read_log_ext(struct ata_taskfile *tf, u8 log, u16 page, u16 pages);
void ata_tf_to_fis(const struct ata_taskfile *tf, u8 pmp, struct sata_fis_h2d *fis);
void ata_fis_to_tf(const struct sata_fis_d2h *fis, struct ata_taskfile *tf, u8 *status,
		   u8 *error);
int ata_ncq_log_parse(const u8 *log, struct ata_ncq_err *out);

u64 ata_tf_result_lba(const struct ata_taskfile *tf);
int ata_xfer_mode(const struct ata_id *ai, u8 host_udma, u8 host_mwdma);

/* ata_dev.c */
int ata_dev_identify(struct ata_dev *ad, struct ata_id *ai);
int ata_dev_setup(struct ata_dev *ad, struct ata_id *ai);
int ata_dev_revalidate(struct ata_dev *ad, struct ata_id *ai);
bool ata_id_same_device(const struct ata_id *a, const struct ata_id *b);
int ata_xfer_active(const struct ata_id *ai);
int ata_xfer_down(const struct ata_id *ai, int mode, u8 host_mwdma);
void ata_xfer_name(int mode, char *buf, size_t size);

/* ata_decode.c */
int ata_status_str(u8 status, char *buf, size_t size);
int ata_error_str(u8 error, char *buf, size_t size);
const char *ata_cmd_name(u8 command);
int ata_err_describe(char *buf, size_t size, u8 command, u8 status, u8 error, u64 lba);
enum ata_dev_class ata_classify(u8 lbamid, u8 lbahigh, u8 status);

#endif
