/*
 * GUID Partition Tables (UEFI 2.10 section 5.3).  Block layer, pure code
 * over pp_read (check.h); layout in efi.h.
 *
 * A disk is GPT's only if LBA 0 carries an MBR with a 0xEE entry: a
 * protective MBR, or a hybrid one (0xEE next to real-looking entries, as
 * sgdisk -h and isohybrid media write); in both cases the GPT wins.
 *
 * A header is trusted only when every check of gpt_check_header() holds:
 * signature, header_size within [92, block size], the CRC-32 over
 * header_size bytes, my_lba equal to where it was read, a usable range
 * inside the disk, an entry array that fits on the disk outside the usable
 * range, and an entry size of 128 * 2^n no larger than a block with an
 * array of at most GPT_MAX_ARRAY_BYTES (so num_entries cannot be huge).
 * Then the entry array must match its CRC-32.  If the primary header or
 * array fails, the backup at the last LBA (or where the primary says it is)
 * is used, with a warning.  A backup that is not on the last LBA (an image
 * copied to a larger disk) is accepted with a warning.
 *
 * Entries: partition number = slot + 1 (as sgdisk and Linux number them);
 * an entry outside the usable range, with start > end, or overlapping an
 * earlier one is dropped with a warning; slots past pp_limit are dropped
 * with one warning.  Names are converted from UTF-16LE to UTF-8.
 */
#include "block/partitions/check.h"
#include "block/partitions/efi.h"
#include "block/partitions/msdos.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/crc32.h"
#include "lib/string.h"

#define GPT_MIN_ENTRY_SIZE	128		/* bytes; UEFI: 128 * 2^n */
#define GPT_MAX_ARRAY_BYTES	(1024 * 1024)	/* bytes; 8192 entries of 128 */

/* A header that passed gpt_check_header(), in CPU order. */
struct gpt_info {
	u64		gi_my_lba;
	u64		gi_alternate_lba;
	u64		gi_first_usable;
	u64		gi_last_usable;
	struct part_guid gi_disk_guid;
	u64		gi_entries_lba;
	u32		gi_num_entries;
	u32		gi_entry_size;
	u32		gi_entries_crc;
	u64		gi_array_blocks;	/* blocks the array covers */
};

/* Is there an MBR with a 0xEE entry at LBA 0?  Returns 1, 0, or -errno. */
static int gpt_has_pmbr(struct parsed_partitions *pp)
{
	const struct mbr *m = (const struct mbr *)pp->pp_buf;
	unsigned int i;
	int ret;

	ret = pp->pp_read(pp->pp_ctx, 0, pp->pp_buf);
	if (ret < 0)
		return ret;
	if (le16_to_cpu(get_le16(&m->mbr_signature)) != MBR_SIGNATURE)
		return 0;
	for (i = 0; i < MBR_NR_PARTS; i++)
		if (m->mbr_part[i].mp_sys_ind == MBR_TYPE_GPT_PROT)
			return 1;
	return 0;
}

/*
 * Check the header now in pp_buf, read from lba, and fill *gi.  Returns
 * NULL if it is valid, else what is wrong with it.  Clobbers pp_buf's CRC
 * field.
 */
static const char *gpt_check_header(struct parsed_partitions *pp, u64 lba,
				    struct gpt_info *gi)
{
	struct gpt_header h;
	u64 nr = pp->pp_nr_blocks, array_bytes;
	u32 size, crc;

	memcpy(&h, pp->pp_buf, sizeof(h));
	if (memcmp(h.gh_signature, GPT_SIGNATURE, sizeof(h.gh_signature)) != 0)
		return "no signature";
	size = le32_to_cpu(h.gh_header_size);
	if (size < GPT_HEADER_MIN_SIZE || size > pp->pp_block_size)
		return "header size out of range";
	crc = le32_to_cpu(h.gh_header_crc32);
	put_le32(pp->pp_buf + offsetof(struct gpt_header, gh_header_crc32), 0);
	if (crc32(0, pp->pp_buf, size) != crc)
		return "header CRC mismatch";
	gi->gi_my_lba = le64_to_cpu(h.gh_my_lba);
	if (gi->gi_my_lba != lba)
		return "my_lba does not match its position";

	gi->gi_alternate_lba = le64_to_cpu(h.gh_alternate_lba);
	gi->gi_first_usable = le64_to_cpu(h.gh_first_usable_lba);
	gi->gi_last_usable = le64_to_cpu(h.gh_last_usable_lba);
	if (gi->gi_first_usable > gi->gi_last_usable || gi->gi_last_usable >= nr)
		return "usable range outside the disk";
	if (lba >= gi->gi_first_usable && lba <= gi->gi_last_usable)
		return "header inside the usable range";

	gi->gi_num_entries = le32_to_cpu(h.gh_num_entries);
	gi->gi_entry_size = le32_to_cpu(h.gh_entry_size);
	if (gi->gi_entry_size < GPT_MIN_ENTRY_SIZE || !is_power_of_2(gi->gi_entry_size) ||
	    gi->gi_entry_size > pp->pp_block_size)
		return "unsupported entry size";
	array_bytes = (u64)gi->gi_num_entries * gi->gi_entry_size;
	if (array_bytes > GPT_MAX_ARRAY_BYTES)
		return "entry array too large";
	gi->gi_array_blocks = DIV_ROUND_UP(array_bytes, pp->pp_block_size);
	gi->gi_entries_lba = le64_to_cpu(h.gh_entries_lba);
	if (gi->gi_entries_lba == 0 || gi->gi_entries_lba >= nr ||
	    gi->gi_array_blocks > nr - gi->gi_entries_lba)
		return "entry array outside the disk";
	if (gi->gi_array_blocks &&
	    gi->gi_entries_lba <= gi->gi_last_usable &&
	    gi->gi_entries_lba + gi->gi_array_blocks > gi->gi_first_usable)
		return "entry array inside the usable range";
	if (lba >= gi->gi_entries_lba && lba < gi->gi_entries_lba + gi->gi_array_blocks)
		return "entry array overlaps the header";

	memcpy(gi->gi_disk_guid.g_b, h.gh_disk_guid, sizeof(gi->gi_disk_guid.g_b));
	gi->gi_entries_crc = le32_to_cpu(h.gh_entries_crc32);
	return NULL;
}

/*
 * Read and check the header at lba.  Returns 1 if valid, 0 if not (with
 * *why set), or a negative errno from the read.
 */
static int gpt_read_header(struct parsed_partitions *pp, u64 lba, struct gpt_info *gi,
			   const char **why)
{
	int ret;

	ret = pp->pp_read(pp->pp_ctx, lba, pp->pp_buf);
	if (ret < 0)
		return ret;
	*why = gpt_check_header(pp, lba, gi);
	return *why ? 0 : 1;
}

/* CRC-32 of the entry array.  Returns 1 if it matches, 0 if not, or -errno. */
static int gpt_check_array(struct parsed_partitions *pp, const struct gpt_info *gi)
{
	u64 left = (u64)gi->gi_num_entries * gi->gi_entry_size, b;
	u32 crc = 0, n;
	int ret;

	for (b = 0; b < gi->gi_array_blocks; b++) {
		ret = pp->pp_read(pp->pp_ctx, gi->gi_entries_lba + b, pp->pp_buf);
		if (ret < 0)
			return ret;
		n = (u32)min(left, (u64)pp->pp_block_size);
		crc = crc32(crc, pp->pp_buf, n);
		left -= n;
	}
	return crc == gi->gi_entries_crc ? 1 : 0;
}

/* Validate one used entry (in slot) and add it, or warn and drop it. */
static void gpt_add_entry(struct parsed_partitions *pp, const struct gpt_info *gi,
			  u32 slot, const struct gpt_entry *e)
{
	u64 first = le64_to_cpu(e->ge_start_lba), last = le64_to_cpu(e->ge_end_lba);
	u64 per = pp->pp_block_size / SECTOR_SIZE;
	struct part_entry *pe;

	if (first > last || first < gi->gi_first_usable || last > gi->gi_last_usable) {
		part_warn(pp, "GPT partition %u (LBA %llu-%llu) outside the usable range, "
			  "dropped", slot + 1, (unsigned long long)first,
			  (unsigned long long)last);
		return;
	}
	if (part_find_overlap(pp, first * per, (last - first + 1) * per, 0)) {
		part_warn(pp, "GPT partition %u overlaps another partition, dropped", slot + 1);
		return;
	}
	pe = part_add(pp, slot + 1, first * per, (last - first + 1) * per);
	if (!pe)
		return;
	memcpy(pe->pe_type.g_b, e->ge_type_guid, sizeof(pe->pe_type.g_b));
	memcpy(pe->pe_uuid.g_b, e->ge_unique_guid, sizeof(pe->pe_uuid.g_b));
	pe->pe_attrs = le64_to_cpu(e->ge_attributes);
	part_utf16le_to_utf8((const u8 *)e->ge_name, PART_NAME_UTF16_LEN, pe->pe_name);
}

/* Parse the (CRC-checked) entry array into pp.  Returns 0 or -errno. */
static int gpt_parse_array(struct parsed_partitions *pp, const struct gpt_info *gi)
{
	u32 per_block = pp->pp_block_size / gi->gi_entry_size;
	u32 slot = 0, i, dropped = 0;
	struct gpt_entry e;
	u64 b;
	int ret;

	for (b = 0; b < gi->gi_array_blocks; b++) {
		ret = pp->pp_read(pp->pp_ctx, gi->gi_entries_lba + b, pp->pp_buf);
		if (ret < 0)
			return ret;
		for (i = 0; i < per_block && slot < gi->gi_num_entries; i++, slot++) {
			memcpy(&e, pp->pp_buf + i * gi->gi_entry_size, sizeof(e));
			if (part_guid_is_zero((const struct part_guid *)e.ge_type_guid))
				continue;
			if (slot + 1 > pp->pp_limit) {
				dropped++;
				continue;
			}
			gpt_add_entry(pp, gi, slot, &e);
		}
	}
	if (dropped)
		part_warn(pp, "%u GPT partitions past the limit of %u dropped", dropped,
			  pp->pp_limit);
	return 0;
}

/*
 * Try the header at lba and its array.  Returns 1 if both are good, 0 if
 * not (warned, naming which), or -errno.
 */
static int gpt_try(struct parsed_partitions *pp, u64 lba, const char *which,
		   struct gpt_info *gi, bool *header_ok)
{
	const char *why;
	int ret;

	*header_ok = false;
	ret = gpt_read_header(pp, lba, gi, &why);
	if (ret <= 0) {
		if (ret == 0)
			part_warn(pp, "%s GPT header at LBA %llu invalid: %s", which,
				  (unsigned long long)lba, why);
		return ret;
	}
	*header_ok = true;
	ret = gpt_check_array(pp, gi);
	if (ret == 0)
		part_warn(pp, "%s GPT entry array CRC mismatch", which);
	return ret;
}

/* With a good primary, check that the backup header is where and what it should be. */
static int gpt_check_backup(struct parsed_partitions *pp, const struct gpt_info *pri)
{
	u64 last = pp->pp_nr_blocks - 1, alt = pri->gi_alternate_lba;
	struct gpt_info gi;
	const char *why;
	int ret;

	if (alt >= pp->pp_nr_blocks || alt == GPT_PRIMARY_LBA) {
		part_warn(pp, "backup GPT header LBA %llu is impossible on a disk of %llu blocks",
			  (unsigned long long)alt, (unsigned long long)pp->pp_nr_blocks);
		return 0;
	}
	if (alt != last)
		part_warn(pp, "backup GPT header at LBA %llu, not at the last LBA %llu",
			  (unsigned long long)alt, (unsigned long long)last);
	ret = gpt_read_header(pp, alt, &gi, &why);
	if (ret == 0)
		part_warn(pp, "backup GPT header at LBA %llu invalid: %s",
			  (unsigned long long)alt, why);
	return ret < 0 ? ret : 0;
}

static int efi_probe(struct parsed_partitions *pp)
{
	struct gpt_info gi, pri;
	bool pri_header_ok, header_ok;
	u64 last, alt;
	int ret;

	if (pp->pp_nr_blocks < 3)
		return 0;
	last = pp->pp_nr_blocks - 1;
	ret = gpt_has_pmbr(pp);
	if (ret <= 0)
		return ret;

	ret = gpt_try(pp, GPT_PRIMARY_LBA, "primary", &pri, &pri_header_ok);
	if (ret < 0)
		return ret;
	if (ret == 1) {
		gi = pri;
		ret = gpt_check_backup(pp, &pri);
		if (ret < 0)
			return ret;
		goto found;
	}

	/* The primary is bad: try the backup at the end, then where the primary says. */
	ret = gpt_try(pp, last, "backup", &gi, &header_ok);
	if (ret < 0)
		return ret;
	alt = pri_header_ok ? pri.gi_alternate_lba : last;
	if (ret == 0 && alt != last && alt > GPT_PRIMARY_LBA && alt < pp->pp_nr_blocks) {
		ret = gpt_try(pp, alt, "backup", &gi, &header_ok);
		if (ret < 0)
			return ret;
		if (ret == 1)
			part_warn(pp, "backup GPT header at LBA %llu, not at the last LBA %llu",
				  (unsigned long long)alt, (unsigned long long)last);
	}
	if (ret == 0) {
		part_warn(pp, "no valid GPT despite a protective MBR; no partitions");
		return 0;
	}
	part_warn(pp, "using the backup GPT");

found:
	pp->pp_scheme = PART_SCHEME_GPT;
	pp->pp_disk_guid = gi.gi_disk_guid;
	ret = gpt_parse_array(pp, &gi);
	return ret < 0 ? ret : 1;
}

const struct part_format part_format_efi = {
	.pf_name = "gpt",
	.pf_probe = efi_probe,
};
