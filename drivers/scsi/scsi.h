/*
 * The SCSI layer's contract: one command as a transport carries it
 * (struct scsi_cmnd), the transport ops table a disk driver calls
 * (struct scsi_host_ops, queuecommand-like), and the portable helpers
 * that build CDBs and read what a device answers.  The helpers touch no
 * kernel state and build on the host for unit tests.
 *
 * A transport (USB Bulk-Only, a test target) executes one command at a
 * time or several; for each it moves sc_len bytes between the device and
 * the memory in sc_sg (physical addresses), then fills sc_status (the
 * SAM status byte), sc_resid (bytes not moved), sc_sense/sc_sense_len
 * (auto-sense: on CHECK CONDITION the transport fetched the sense data)
 * and sc_result (0 when the device answered, else -EIO for a protocol
 * failure, -ETIMEDOUT, -ENODEV once the device is gone), and calls
 * sc_done exactly once, from any context.
 *
 * Lock legend for struct scsi_cmnd: [o] the owner (the disk driver)
 * while the command is not started, [t] the transport while it runs.
 */
#ifndef DRIVERS_SCSI_SCSI_H
#define DRIVERS_SCSI_SCSI_H

#include "block/blkdev.h"
#include "drivers/scsi/scsireg.h"

enum scsi_dir {
	SCSI_DIR_NONE,
	SCSI_DIR_IN,		/* device to memory */
	SCSI_DIR_OUT,		/* memory to device */
};

struct scsi_cmnd {
	u8			sc_cdb[SCSI_MAX_CDB];	/* [o] */
	u8			sc_cdb_len;		/* [o] 6, 10, 12 or 16 */
	u8			sc_lun;			/* [o] */
	enum scsi_dir		sc_dir;			/* [o] */
	const struct scatterlist *sc_sg;		/* [o] data memory, physical */
	u32			sc_nsg;			/* [o] */
	u32			sc_len;			/* [o] bytes: the sum of sc_sg */
	u32			sc_timeout_ms;		/* [o] the transport's own bound */
	void			(*sc_done)(struct scsi_cmnd *cmd); /* [o] */
	void			*sc_priv;		/* [o] the owner's */
	u8			sc_status;		/* [t] SAM_STAT_* */
	u8			sc_sense_len;		/* [t] valid bytes of sc_sense */
	u32			sc_resid;		/* [t] bytes not transferred */
	int			sc_result;		/* [t] 0: sc_status is the device's */
	u8			sc_sense[SCSI_SENSE_BUF_LEN]; /* [t] */
};

/*
 * What a transport offers a disk driver.  Every hook is called with the
 * owner's queue lock held and interrupts off, so none may sleep.
 */
struct scsi_host_ops {
	/*
	 * Start cmd.  0: sc_done will be called once.  -EBUSY: nothing was
	 * started, try again after a completion; -ENODEV: the device is
	 * gone; sc_done is not called for an error return.
	 */
	int	(*sho_queuecommand)(void *host, struct scsi_cmnd *cmd);
	/*
	 * cmd, started, took too long: give it up and recover the device
	 * (for BOT: reset recovery from deferred work).  sc_done is still
	 * called for it, with sc_result -ETIMEDOUT or the result it had
	 * reached, once the transport no longer touches its memory.  May
	 * be NULL (the command is then waited for).
	 */
	void	(*sho_abort)(void *host, struct scsi_cmnd *cmd);
	/*
	 * A few lines for the disk's report ("transport usb-storage bot\n
	 * path 1-2\n"), at most len bytes with the NUL.  Bytes written, or
	 * -errno.  May be NULL.
	 */
	int	(*sho_report)(void *host, char *buf, size_t len);
};

/* What the transport can move in one command. */
struct scsi_host_limits {
	u32		shl_max_sectors;	/* 512-byte sectors */
	u32		shl_max_segments;
	u32		shl_max_segment_size;	/* bytes */
	u64		shl_seg_boundary;	/* mask no entry crosses; 0: none */
	u32		shl_dma_alignment;	/* mask */
	phys_addr_t	shl_dma_limit;		/* highest address reached: bounce rule */
};

/* Decoded sense data (fixed or descriptor format). */
struct scsi_sense_hdr {
	u8	ss_response;		/* 0x70..0x73; 0 when there was none */
	u8	ss_key;
	u8	ss_asc;
	u8	ss_ascq;
	bool	ss_info_valid;
	u64	ss_info;		/* INFORMATION: usually the failing LBA */
};

/* Parsed INQUIRY: strings trimmed of padding, printable, NUL-terminated. */
struct scsi_inquiry {
	u8	iq_pdt;			/* peripheral device type */
	u8	iq_qualifier;
	bool	iq_removable;
	u8	iq_version;
	char	iq_vendor[9];
	char	iq_product[17];
	char	iq_revision[5];
};

/* Parsed READ CAPACITY. */
struct scsi_capacity {
	u64	cap_blocks;		/* logical blocks */
	u32	cap_block_len;		/* bytes */
	u32	cap_phys_exp;		/* log2 logical blocks per physical block */
	u32	cap_lowest_aligned;	/* LBA of the first aligned block */
	bool	cap_need16;		/* READ CAPACITY (10) said "too big" */
};

/* scsi_cmd.c: CDB builders.  Each fills cmd->sc_cdb, sc_cdb_len, sc_dir, sc_len. */
void scsi_build_tur(struct scsi_cmnd *cmd);
void scsi_build_inquiry(struct scsi_cmnd *cmd, u8 alloc_len);
void scsi_build_request_sense(struct scsi_cmnd *cmd, u8 alloc_len);
void scsi_build_read_capacity10(struct scsi_cmnd *cmd);
void scsi_build_read_capacity16(struct scsi_cmnd *cmd);
void scsi_build_sync_cache10(struct scsi_cmnd *cmd);
void scsi_build_mode_sense6(struct scsi_cmnd *cmd, u8 alloc_len);
/**
 * scsi_build_rw - READ or WRITE of nblocks logical blocks at lba
 * @cmd: filled in; sc_len = nblocks * block_len
 * @lba: first logical block
 * @nblocks: 1..65535 with (10) forms, 1..2^32-1 with (16)
 * @block_len: the device's logical block size
 * @write, @fua: direction and Force Unit Access
 * @use16: the device is past 2 TiB (or wants the 16-byte form)
 * READ/WRITE (10) when lba and count fit it and use16 is off, else (16).
 * Returns 0, or -EINVAL for a count of zero or one the forms cannot hold.
 */
int scsi_build_rw(struct scsi_cmnd *cmd, u64 lba, u32 nblocks, u32 block_len, bool write,
		  bool fua, bool use16);

/**
 * scsi_parse_inquiry - standard INQUIRY data into iq
 * @buf, @len: the bytes received (len after residue)
 * Returns 0, or -EIO when fewer than the 36 standard bytes arrived.
 */
int scsi_parse_inquiry(const u8 *buf, u32 len, struct scsi_inquiry *iq);
/**
 * scsi_parse_capacity10 / 16 - READ CAPACITY data into cap
 * Returns 0; -EIO for short data, a block length that is not a power of
 * two between 512 and 65536, or a last LBA of 2^64-1; for (10), a last
 * LBA of 0xffffffff sets cap_need16 and returns 0.
 */
int scsi_parse_capacity10(const u8 *buf, u32 len, struct scsi_capacity *cap);
int scsi_parse_capacity16(const u8 *buf, u32 len, struct scsi_capacity *cap);
/* MODE SENSE (6) header: 1 if the device-specific byte says write protected, 0 if not, -EIO. */
int scsi_parse_mode_sense6_wp(const u8 *buf, u32 len);

/* scsi_sense.c */
/**
 * scsi_sense_decode - fixed (0x70/0x71) or descriptor (0x72/0x73) sense
 * @buf, @len: the sense bytes (len may be short; missing fields read 0)
 * Returns true and fills ss when there is a valid response code.
 */
bool scsi_sense_decode(const u8 *buf, u32 len, struct scsi_sense_hdr *ss);
/* "Medium Error", "Unit Attention", ...; "sense key 0xN" for reserved ones. */
const char *scsi_sense_key_name(u8 key);
/* The ASC/ASCQ text from a small table, or NULL when unknown. */
const char *scsi_asc_name(u8 asc, u8 ascq);
/* "CHECK CONDITION", "BUSY", ...; NULL for an unknown status. */
const char *scsi_status_name(u8 status);
/**
 * scsi_sense_str - one readable line for a failed command
 * "Medium Error: unrecovered read error (asc 11/00) at lba 1234"
 * Returns what snprintf returns.
 */
int scsi_sense_str(const struct scsi_sense_hdr *ss, char *buf, size_t len);
/**
 * scsi_cmd_errno - what a finished command means to the block layer
 * 0 for GOOD (and RECOVERED ERROR sense); the transport's sc_result if it
 * failed; -ENOMEDIUM (not ready, medium not present), -EROFS (data
 * protect), -EAGAIN for conditions worth a retry (UNIT ATTENTION, BUSY,
 * TASK SET FULL, NOT READY becoming ready, ABORTED COMMAND), -EIO else.
 */
int scsi_cmd_errno(const struct scsi_cmnd *cmd, const struct scsi_sense_hdr *ss);

#endif
