/*
 * SCSI command building and parameter-data parsing: the portable half of
 * the SCSI layer (no kernel state; unit-tested on the host).
 *
 * Builders write a CDB into a struct scsi_cmnd with its direction and
 * length; the caller supplies the memory (sc_sg).  Parsers take the bytes
 * a device returned -- untrusted, possibly short, possibly nonsense -- and
 * check them before use: a device on a USB port is as hostile as a disk
 * image.
 *
 * Byte order: every multi-byte CDB and parameter field is big-endian
 * (SPC-4 3.5), read and written bytewise so no alignment is assumed.
 */
#include "drivers/scsi/scsi.h"
#include "kernel/errno.h"
#include "lib/string.h"

static void put_be16(u8 *p, u16 v)
{
	p[0] = (u8)(v >> 8);
	p[1] = (u8)v;
}

static void put_be32(u8 *p, u32 v)
{
	p[0] = (u8)(v >> 24);
	p[1] = (u8)(v >> 16);
	p[2] = (u8)(v >> 8);
	p[3] = (u8)v;
}

static void put_be64(u8 *p, u64 v)
{
	put_be32(p, (u32)(v >> 32));
	put_be32(p + 4, (u32)v);
}

static u32 get_be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static u64 get_be64(const u8 *p)
{
	return (u64)get_be32(p) << 32 | get_be32(p + 4);
}

/* Start a command: clear the CDB and the results of a previous use. */
static void scsi_cmd_init(struct scsi_cmnd *cmd, u8 op, u8 cdb_len, enum scsi_dir dir, u32 len)
{
	memset(cmd->sc_cdb, 0, sizeof(cmd->sc_cdb));
	cmd->sc_cdb[0] = op;
	cmd->sc_cdb_len = cdb_len;
	cmd->sc_dir = len ? dir : SCSI_DIR_NONE;
	cmd->sc_len = len;
	cmd->sc_status = 0;
	cmd->sc_sense_len = 0;
	cmd->sc_resid = 0;
	cmd->sc_result = 0;
}

/* TEST UNIT READY (SPC-4 6.39): no data. */
void scsi_build_tur(struct scsi_cmnd *cmd)
{
	scsi_cmd_init(cmd, SCSI_OP_TEST_UNIT_READY, SCSI_CDB6_LEN, SCSI_DIR_NONE, 0);
}

/* INQUIRY (SPC-4 6.6), standard data: EVPD 0, allocation length in bytes 3-4. */
void scsi_build_inquiry(struct scsi_cmnd *cmd, u8 alloc_len)
{
	scsi_cmd_init(cmd, SCSI_OP_INQUIRY, SCSI_CDB6_LEN, SCSI_DIR_IN, alloc_len);
	put_be16(&cmd->sc_cdb[3], alloc_len);
}

/* REQUEST SENSE (SPC-4 6.29): DESC 0 asks for fixed format. */
void scsi_build_request_sense(struct scsi_cmnd *cmd, u8 alloc_len)
{
	scsi_cmd_init(cmd, SCSI_OP_REQUEST_SENSE, SCSI_CDB6_LEN, SCSI_DIR_IN, alloc_len);
	cmd->sc_cdb[4] = alloc_len;
}

/* READ CAPACITY (10) (SBC-3 5.16): 8 bytes back. */
void scsi_build_read_capacity10(struct scsi_cmnd *cmd)
{
	scsi_cmd_init(cmd, SCSI_OP_READ_CAPACITY_10, SCSI_CDB10_LEN, SCSI_DIR_IN,
		      sizeof(struct scsi_capacity10));
}

/* READ CAPACITY (16) (SBC-3 5.17): SERVICE ACTION IN (16), allocation length 10-13. */
void scsi_build_read_capacity16(struct scsi_cmnd *cmd)
{
	scsi_cmd_init(cmd, SCSI_OP_SERVICE_ACTION_IN_16, SCSI_CDB16_LEN, SCSI_DIR_IN,
		      sizeof(struct scsi_capacity16));
	cmd->sc_cdb[1] = SCSI_SAI_READ_CAPACITY_16;
	put_be32(&cmd->sc_cdb[10], sizeof(struct scsi_capacity16));
}

/* SYNCHRONIZE CACHE (10) (SBC-3 5.22): LBA 0 and 0 blocks mean the whole medium. */
void scsi_build_sync_cache10(struct scsi_cmnd *cmd)
{
	scsi_cmd_init(cmd, SCSI_OP_SYNCHRONIZE_CACHE_10, SCSI_CDB10_LEN, SCSI_DIR_NONE, 0);
}

/* MODE SENSE (6) (SPC-4 6.11): all pages, no block descriptors; we read the header. */
void scsi_build_mode_sense6(struct scsi_cmnd *cmd, u8 alloc_len)
{
	scsi_cmd_init(cmd, SCSI_OP_MODE_SENSE_6, SCSI_CDB6_LEN, SCSI_DIR_IN, alloc_len);
	cmd->sc_cdb[1] = SCSI_MS_DBD;
	cmd->sc_cdb[2] = SCSI_MS_PAGE_ALL;
	cmd->sc_cdb[4] = alloc_len;
}

int scsi_build_rw(struct scsi_cmnd *cmd, u64 lba, u32 nblocks, u32 block_len, bool write,
		  bool fua, bool use16)
{
	u64 bytes = (u64)nblocks * block_len;

	if (!nblocks || !block_len || bytes > 0xffffffffu)
		return -EINVAL;
	if (!use16 && nblocks <= 0xffff && lba + nblocks <= 0x100000000ULL) {
		/* SBC-3 5.11 / 5.34: LBA in bytes 2-5, TRANSFER LENGTH in 7-8. */
		scsi_cmd_init(cmd, write ? SCSI_OP_WRITE_10 : SCSI_OP_READ_10, SCSI_CDB10_LEN,
			      write ? SCSI_DIR_OUT : SCSI_DIR_IN, (u32)bytes);
		put_be32(&cmd->sc_cdb[2], (u32)lba);
		put_be16(&cmd->sc_cdb[7], (u16)nblocks);
	} else {
		/* SBC-3 5.13 / 5.36: LBA in bytes 2-9, TRANSFER LENGTH in 10-13. */
		scsi_cmd_init(cmd, write ? SCSI_OP_WRITE_16 : SCSI_OP_READ_16, SCSI_CDB16_LEN,
			      write ? SCSI_DIR_OUT : SCSI_DIR_IN, (u32)bytes);
		put_be64(&cmd->sc_cdb[2], lba);
		put_be32(&cmd->sc_cdb[10], nblocks);
	}
	if (fua)
		cmd->sc_cdb[1] |= SCSI_RW_FUA;
	return 0;
}

/* Copy a space-padded ASCII field, trimmed, with non-printables as '?'. */
static void scsi_copy_ascii(char *dst, const char *src, size_t n)
{
	size_t i, end = 0;

	for (i = 0; i < n; i++) {
		char c = src[i];

		if (c == '\0')
			c = ' ';
		dst[i] = (c >= 0x20 && c < 0x7f) ? c : '?';
		if (dst[i] != ' ')
			end = i + 1;
	}
	dst[end] = '\0';
}

int scsi_parse_inquiry(const u8 *buf, u32 len, struct scsi_inquiry *iq)
{
	struct scsi_inquiry_data id;

	memset(iq, 0, sizeof(*iq));
	if (len < SCSI_INQUIRY_LEN)
		return -EIO;
	memcpy(&id, buf, sizeof(id));
	iq->iq_pdt = id.id_pdt & SCSI_PDT_MASK;
	iq->iq_qualifier = id.id_pdt >> SCSI_PQ_SHIFT;
	iq->iq_removable = (id.id_rmb & SCSI_ID_RMB) != 0;
	iq->iq_version = id.id_version;
	scsi_copy_ascii(iq->iq_vendor, id.id_vendor, sizeof(id.id_vendor));
	scsi_copy_ascii(iq->iq_product, id.id_product, sizeof(id.id_product));
	scsi_copy_ascii(iq->iq_revision, id.id_revision, sizeof(id.id_revision));
	return 0;
}

/* A block length we can use: a power of two from 512 to 64 KiB. */
static bool scsi_block_len_ok(u32 n)
{
	return n >= 512 && n <= 65536 && (n & (n - 1)) == 0;
}

int scsi_parse_capacity10(const u8 *buf, u32 len, struct scsi_capacity *cap)
{
	struct scsi_capacity10 rc;
	u32 last;

	memset(cap, 0, sizeof(*cap));
	if (len < sizeof(rc))
		return -EIO;
	memcpy(&rc, buf, sizeof(rc));
	last = get_be32(rc.rc_last_lba);
	cap->cap_block_len = get_be32(rc.rc_block_len);
	if (last == SCSI_RC10_LBA_MAX) {
		cap->cap_need16 = true;	/* SBC-3 5.16.2: more than 2^32 - 1 blocks */
		return 0;
	}
	if (!scsi_block_len_ok(cap->cap_block_len))
		return -EIO;
	cap->cap_blocks = (u64)last + 1;
	return 0;
}

int scsi_parse_capacity16(const u8 *buf, u32 len, struct scsi_capacity *cap)
{
	struct scsi_capacity16 rc;
	u64 last;

	memset(cap, 0, sizeof(*cap));
	/* The first 12 bytes carry the capacity; older devices stop there. */
	if (len < 12)
		return -EIO;
	memset(&rc, 0, sizeof(rc));
	memcpy(&rc, buf, len < sizeof(rc) ? len : sizeof(rc));
	last = get_be64(rc.rc_last_lba);
	cap->cap_block_len = get_be32(rc.rc_block_len);
	if (last == ~0ULL || !scsi_block_len_ok(cap->cap_block_len))
		return -EIO;
	cap->cap_blocks = last + 1;
	cap->cap_phys_exp = rc.rc_exp & SCSI_RC16_LBPPBE_MASK;
	if (cap->cap_phys_exp > 6)	/* more than 64 logical per physical: ignore */
		cap->cap_phys_exp = 0;
	cap->cap_lowest_aligned = ((u32)rc.rc_lowest_aligned[0] << 8 | rc.rc_lowest_aligned[1]) &
				  SCSI_RC16_LALBA_MASK;
	return 0;
}

int scsi_parse_mode_sense6_wp(const u8 *buf, u32 len)
{
	/* SPC-4 7.5.5 table 453: MODE DATA LENGTH, MEDIUM TYPE, DEVICE-SPECIFIC, BD LENGTH. */
	if (len < SCSI_MS_HDR_LEN)
		return -EIO;
	return (buf[2] & SCSI_MS_DEVSPEC_WP) ? 1 : 0;
}
