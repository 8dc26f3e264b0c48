/*
 * IDENTIFY DEVICE parsing (ATA8-ACS 7.16; word 76 from SATA 3.x): turns
 * the 256 words a disk returns into struct ata_id, which the IDE and AHCI
 * drivers use for capacity, sector sizes, command choice (LBA28/LBA48,
 * FLUSH CACHE EXT, FUA, NCQ) and what lsblk shows.
 *
 * The data comes from the device and is treated as hostile: it is copied
 * into a local array before any use, a block of all zeros or all ones
 * (no data, a floating bus) is refused, every "valid" marker (bits 15:14
 * = 01b) is honoured, sizes are bounded, and strings are reduced to
 * printable ASCII.  A wrong integrity checksum (word 255) is only noted
 * in ai_csum_bad, for a warning (ata_dev_setup), as libata only warns:
 * disks with a wrong checksum and good data exist.
 *
 * Strings are stored two characters per word, the first in the high byte
 * (ACS 3.x "ATA string convention"), padded with spaces.
 */
#include "drivers/ata/ata.h"
#include "drivers/ata/atareg.h"
#include "kernel/errno.h"
#include "lib/byteorder.h"
#include "lib/string.h"

#define ATA_MAX_LOGICAL_SIZE	(64 * 1024)	/* bytes; beyond this we do not go */
#define ATA_MAX_PHYS_SHIFT	7		/* at most 128 logical per physical */

static bool word_valid(u16 w)
{
	return (w & ATA_ID_VALID_MASK) == ATA_ID_VALID_VALUE;
}

static int highest_bit(unsigned v)
{
	int n = -1;

	while (v) {
		v >>= 1;
		n++;
	}
	return n;
}

/**
 * ata_id_string - decode an ATA string from IDENTIFY data
 * @id: the IDENTIFY words (host order)
 * @word: first word; @nwords: its length in words
 * @out: 2 * nwords + 1 bytes
 *
 * Swaps each word's bytes into reading order, turns NULs into spaces and
 * any other non-printable byte into '?', and trims spaces at both ends.
 */
void ata_id_string(const u16 *id, unsigned word, unsigned nwords, char *out)
{
	unsigned i, n = 0, start = 0;

	for (i = 0; i < nwords; i++) {
		out[n++] = (char)(id[word + i] >> 8);
		out[n++] = (char)(id[word + i] & 0xff);
	}
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)out[i];

		if (c == '\0')
			out[i] = ' ';
		else if (c < 0x20 || c > 0x7e)
			out[i] = '?';
	}
	while (n > 0 && out[n - 1] == ' ')
		n--;
	while (start < n && out[start] == ' ')
		start++;
	memmove(out, out + start, n - start);
	out[n - start] = '\0';
}

/* Every word the same 0000h or FFFFh: nothing answered with data. */
static bool id_garbage(const u16 *id)
{
	unsigned i;

	if (id[0] != 0x0000 && id[0] != 0xffff)
		return false;
	for (i = 1; i < ATA_ID_WORDS; i++)
		if (id[i] != id[0])
			return false;
	return true;
}

/* Sum of the 512 bytes must be 0 when the integrity signature is there. */
static bool integrity_ok(const u16 *id)
{
	unsigned i;
	u8 sum = 0;

	if ((id[ATA_ID_INTEGRITY] & ATA_ID_INTEGRITY_SIG_MASK) != ATA_ID_INTEGRITY_SIG)
		return true;	/* not provided: nothing to check */
	for (i = 0; i < ATA_ID_WORDS; i++)
		sum = (u8)(sum + (id[i] & 0xff) + (id[i] >> 8));
	return sum == 0;
}

/* Logical and physical sector sizes and the alignment (words 106, 117-118, 209). */
static int parse_sector_sizes(const u16 *id, struct ata_id *ai)
{
	u16 w106 = id[ATA_ID_SECTOR_SIZE];
	unsigned shift = 0;

	ai->ai_logical_size = 512;
	if (word_valid(w106) && (w106 & ATA_ID_SS_LONG_LOGICAL)) {
		u32 words = (u32)id[ATA_ID_LOGICAL_SIZE] | (u32)id[ATA_ID_LOGICAL_SIZE + 1] << 16;

		/* Reject 520/528-byte formats and nonsense rather than guess. */
		if (words < 256 || words > ATA_MAX_LOGICAL_SIZE / 2 || !is_power_of_2(words))
			return -EOPNOTSUPP;
		ai->ai_logical_size = words * 2;
	}
	if (word_valid(w106) && (w106 & ATA_ID_SS_MULTIPLE) &&
	    (w106 & ATA_ID_SS_LOGICAL_PER_PHYS) <= ATA_MAX_PHYS_SHIFT)
		shift = w106 & ATA_ID_SS_LOGICAL_PER_PHYS;
	ai->ai_physical_size = ai->ai_logical_size << shift;
	ai->ai_align_offset = 0;
	if (shift && word_valid(id[ATA_ID_ALIGNMENT])) {
		u32 off = id[ATA_ID_ALIGNMENT] & ATA_ID_ALIGNMENT_MASK;

		if (off < (1u << shift))
			ai->ai_align_offset = off;
	}
	return 0;
}

/*
 * DATA SET MANAGEMENT with TRIM (ACS-3 7.5): word 169 bit 0, a 48-bit
 * command; word 105 the most payload blocks one command takes (0: not
 * reported, and one block is always allowed); word 69 whether reads of
 * trimmed sectors are deterministic and zero.  Word 69 has no validity
 * bits, so FFFFh is taken as "not reported".
 */
static void parse_trim(const u16 *id, struct ata_id *ai)
{
	u16 w69 = id[ATA_ID_ADDITIONAL_SUPP], w105 = id[ATA_ID_DSM_MAX_BLOCKS];

	ai->ai_trim = ai->ai_lba48 && id[ATA_ID_DSM] != ATA_ID_NOT_REPORTED_1 &&
		      (id[ATA_ID_DSM] & ATA_ID_DSM_TRIM);
	if (!ai->ai_trim)
		return;
	ai->ai_trim_max_blocks = w105 == ATA_ID_NOT_REPORTED_0 || w105 == ATA_ID_NOT_REPORTED_1 ?
				 1 : w105;
	if (w69 != ATA_ID_NOT_REPORTED_1) {
		ai->ai_trim_drat = w69 & ATA_ID_ADD_DRAT;
		ai->ai_trim_rzat = ai->ai_trim_drat && (w69 & ATA_ID_ADD_RZAT);
	}
}

/*
 * What the disk can do: DMA modes, write cache, flush, FUA, NCQ.  Needs
 * ai_lba48 already set (FLUSH CACHE EXT, FUA and NCQ are 48-bit commands).
 * Words 82-84 count only when word 83 is marked valid, 85-87 when 87 is.
 */
static void parse_features(const u16 *id, struct ata_id *ai)
{
	u16 w83 = id[ATA_ID_CMDSET_2], w84 = id[ATA_ID_CMDSET_3];
	u16 w87 = id[ATA_ID_CMDSET_ENABLED_3], w76;
	bool cmdset_valid = word_valid(w83), enabled_valid = word_valid(w87);

	ai->ai_dma = id[ATA_ID_CAPABILITY] & ATA_ID_CAP_DMA;
	ai->ai_wcache = cmdset_valid && (id[ATA_ID_CMDSET_1] & ATA_ID_CMDSET_1_WCACHE);
	/* A cache whose state is not reported is taken to be on: flushes are safe. */
	ai->ai_wcache_on = ai->ai_wcache &&
			   (!enabled_valid || (id[ATA_ID_CMDSET_ENABLED_1] & ATA_ID_ENABLED_1_WCACHE));
	ai->ai_flush = cmdset_valid && (w83 & ATA_ID_CMDSET_2_FLUSH);
	ai->ai_flush_ext = ai->ai_lba48 && (w83 & ATA_ID_CMDSET_2_FLUSH_EXT);
	/* WRITE DMA FUA EXT is a 48-bit command: no FUA without LBA48. */
	ai->ai_fua = ai->ai_lba48 &&
		     ((word_valid(w84) && (w84 & ATA_ID_CMDSET_3_FUA)) ||
		      (enabled_valid && (w87 & ATA_ID_ENABLED_3_FUA)));

	/* Word 76 is SATA's; 0000h and FFFFh mean "not reported". */
	w76 = id[ATA_ID_SATA_CAP];
	if (w76 != ATA_ID_NOT_REPORTED_0 && w76 != ATA_ID_NOT_REPORTED_1 && (w76 & ATA_ID_SATA_CAP_NCQ) && ai->ai_lba48) {
		ai->ai_ncq = true;
		ai->ai_ncq_depth = (id[ATA_ID_QUEUE_DEPTH] & ATA_ID_QUEUE_DEPTH_MASK) + 1;
	}

	ai->ai_udma_active = -1;
	ai->ai_mwdma_active = -1;
	if (ai->ai_dma) {
		u16 w63 = id[ATA_ID_MWDMA], w88 = id[ATA_ID_UDMA];

		ai->ai_mwdma_modes = w63 & ATA_ID_MWDMA_MODES_MASK;
		ai->ai_mwdma_active = (s8)highest_bit((w63 >> ATA_ID_MWDMA_SELECTED_SHIFT) &
						      ATA_ID_MWDMA_MODES_MASK);
		if (id[ATA_ID_FIELD_VALID] & ATA_ID_FIELD_VALID_88) {
			ai->ai_udma_modes = w88 & ATA_ID_UDMA_MODES_MASK;
			ai->ai_udma_active = (s8)highest_bit((w88 >> ATA_ID_UDMA_SELECTED_SHIFT) &
							     ATA_ID_UDMA_MODES_MASK);
		}
	}
	/* libata's ata_drive_40wire: bits 14:13 = 11b is an 80-conductor cable. */
	ai->ai_cable80 = word_valid(id[ATA_ID_HW_RESET]) &&
			 (id[ATA_ID_HW_RESET] & ATA_ID_HW_RESET_CBLID);
	ai->ai_ssd = id[ATA_ID_ROTATION_RATE] == 1;
	parse_trim(id, ai);
	ai->ai_max_multiple = id[ATA_ID_MAX_MULTIPLE] & ATA_ID_MAX_MULTIPLE_MASK;
}

/**
 * ata_id_parse - check and decode IDENTIFY DEVICE data
 * @id: 256 words as the device sent them (little-endian); not kept
 * @out: filled on success, zeroed on failure
 *
 * Returns 0 (with ai_csum_bad set when the integrity checksum fails);
 * -ENODEV when the data is not an ATA device's (word 0 bit 15, as ATAPI
 * devices answer IDENTIFY PACKET DEVICE, but for CompactFlash's 848Ah);
 * -EIO for all zeros or all ones, or data marked incomplete; -ENOMEDIUM
 * when the disk has no capacity (an empty image);
 * -EOPNOTSUPP for a disk without LBA or with a logical sector size we do
 * not handle.
 */
int ata_id_parse(const u16 *id_in, struct ata_id *out)
{
	u16 id[ATA_ID_WORDS], w83;
	u64 lba28, lba48;
	unsigned i;
	int err;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < ATA_ID_WORDS; i++)
		id[i] = le16_to_cpu(get_le16(&id_in[i]));

	if (id_garbage(id))
		return -EIO;
	/* CompactFlash cards set bit 15 yet are ATA devices (ACS, word 0: 848Ah). */
	if ((id[ATA_ID_CONFIG] & ATA_ID_CONFIG_NOT_ATA) && id[ATA_ID_CONFIG] != ATA_ID_CONFIG_CFA &&
	    id[ATA_ID_CONFIG] != ATA_ID_CONFIG_CFA_ALT)
		return -ENODEV;
	if (id[ATA_ID_CONFIG] & ATA_ID_CONFIG_INCOMPLETE)
		return -EIO;
	if (!(id[ATA_ID_CAPABILITY] & ATA_ID_CAP_LBA))
		return -EOPNOTSUPP;	/* CHS-only: pre-1995 disks */

	ata_id_string(id, ATA_ID_MODEL, ATA_ID_MODEL_WORDS, out->ai_model);
	ata_id_string(id, ATA_ID_SERIAL, ATA_ID_SERIAL_WORDS, out->ai_serial);
	ata_id_string(id, ATA_ID_FW_REV, ATA_ID_FW_REV_WORDS, out->ai_firmware);

	/* Word 83 counts only when marked valid (bits 15:14 = 01b). */
	w83 = id[ATA_ID_CMDSET_2];
	out->ai_lba48 = word_valid(w83) && (w83 & ATA_ID_CMDSET_2_LBA48);
	lba28 = (u64)id[ATA_ID_LBA28_CAPACITY] | (u64)id[ATA_ID_LBA28_CAPACITY + 1] << 16;
	lba48 = 0;
	for (i = 0; i < 3; i++)		/* word 103 must be zero: 48 bits only */
		lba48 |= (u64)id[ATA_ID_LBA48_CAPACITY + i] << (16 * i);
	/* Words 60-61 saturate at 0x0FFFFFFF; the real size is in 100-103. */
	out->ai_sectors = out->ai_lba48 && lba48 ? lba48 : lba28;
	if (!out->ai_lba48 && out->ai_sectors > ATA_LBA28_LIMIT - 1)
		out->ai_sectors = ATA_LBA28_LIMIT - 1;	/* 0FFFFFFFh is the most 60-61 hold */
	err = parse_sector_sizes(id, out);
	if (err)
		goto fail;
	if (out->ai_sectors == 0) {
		err = -ENOMEDIUM;
		goto fail;
	}

	parse_features(id, out);
	out->ai_cyls = id[ATA_ID_CYLINDERS];
	out->ai_heads = id[ATA_ID_HEADS];
	out->ai_spt = id[ATA_ID_SECTORS_PER_TRACK];
	out->ai_major = id[ATA_ID_MAJOR_VERSION] == ATA_ID_NOT_REPORTED_1 ? 0 : id[ATA_ID_MAJOR_VERSION];
	out->ai_csum_bad = !integrity_ok(id);
	return 0;

fail:
	memset(out, 0, sizeof(*out));
	return err;
}

/* Capacity in the block layer's 512-byte sectors. */
u64 ata_id_capacity512(const struct ata_id *ai)
{
	return ai->ai_sectors * (ai->ai_logical_size / SECTOR_SIZE);
}

/*
 * Bytes from LBA 0 to the first physical sector boundary (Linux's
 * alignment_offset): 0 unless word 209 puts LBA 0 inside a physical sector.
 */
u32 ata_id_alignment_offset(const struct ata_id *ai)
{
	u32 per = ai->ai_physical_size / ai->ai_logical_size;

	return ((per - ai->ai_align_offset) % per) * ai->ai_logical_size;
}

#define ATA_GEO_HEADS		255	/* synthesized geometry, as Linux's scsicam */
#define ATA_GEO_SPT		63
#define ATA_GEO_MAX_CYLS	65535	/* hd_geometry's cylinders are 16 bits */
#define ATA_CHS_MAX_HEADS	16	/* the CHS taskfile has 4 head bits */
#define ATA_CHS_MAX_SPT		63	/* ... and sector numbers 1-63 */

void ata_id_geometry(const struct ata_id *ai, u32 *cyls, u32 *heads, u32 *spt)
{
	u64 cap = ata_id_capacity512(ai);
	u64 chs = (u64)ai->ai_cyls * ai->ai_heads * ai->ai_spt;
	u64 c;

	if (chs && ai->ai_heads <= ATA_CHS_MAX_HEADS && ai->ai_spt <= ATA_CHS_MAX_SPT &&
	    chs <= cap) {
		*cyls = ai->ai_cyls;
		*heads = ai->ai_heads;
		*spt = ai->ai_spt;
		return;
	}
	c = cap / (ATA_GEO_HEADS * ATA_GEO_SPT);
	*cyls = (u32)(c > ATA_GEO_MAX_CYLS ? ATA_GEO_MAX_CYLS : c);
	*heads = ATA_GEO_HEADS;
	*spt = ATA_GEO_SPT;
}

/*
 * What a driver's attach line adds about the medium, each part led by
 * ", ": physical sectors larger than logical ones (512e), where the first
 * physical boundary lies, and "non-rotating" (word 217 = 1).  "" for a
 * plain spinning 512-byte disk.
 */
void ata_id_media_str(const struct ata_id *ai, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	if (ai->ai_physical_size > ai->ai_logical_size)
		n += (size_t)snprintf(buf, size, ", %u-byte physical sectors", ai->ai_physical_size);
	if (ai->ai_align_offset && n < size)
		n += (size_t)snprintf(buf + n, size - n, " (the first at byte %u)",
				      ata_id_alignment_offset(ai));
	if (ai->ai_ssd && n < size)
		snprintf(buf + n, size - n, ", non-rotating");
}
