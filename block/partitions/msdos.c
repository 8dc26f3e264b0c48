/*
 * dos (MBR) partition tables, with extended partitions and their chain of
 * logical partitions.  Block layer, pure code over pp_read (check.h).
 *
 * Format (msdos.h): LBA 0 holds four primary entries and the signature
 * 0x55 0xAA at offset 510.  An entry of type 0x05, 0x0F or 0x85 is an
 * extended partition: its first block is an EBR with the same layout, whose
 * entry for a logical partition counts from that EBR, and whose link entry
 * (an extended type) counts from the start of the outermost extended
 * partition and names the next EBR.  Logical partitions are numbered from
 * 5 in chain order; primaries keep their slot number 1-4.  CHS is ignored.
 *
 * Hostile input: entries are copied to locals.  As in Linux, an entry that
 * starts inside the disk but ends past it is kept, truncated to the end
 * of the disk with a warning (an image copied to a smaller disk, a camera's
 * sloppy table); one that starts past the end is dropped.  Stricter than
 * Linux, an entry starting on the MBR, overlapping another partition or
 * leaving its container is dropped with a warning too.  The container of
 * a logical partition is its extended partition as the table gives it,
 * before any cut: so in an extended partition cut at the end of the disk,
 * the logicals before the cut stay and the one across it is cut in turn.
 * Numbers are not reused, so the others keep the names fdisk gives them.
 * The EBR chain stops with a warning when it loops, leaves the extended
 * partition or exceeds MSDOS_MAX_EBRS links.  An MBR with a 0xEE entry
 * belongs to GPT (efi.c), and one whose boot indicators are not 0x00/0x80
 * is not a partition table at all (a FAT boot sector carries 0x55AA too):
 * both are "not mine".
 */
#include "block/partitions/check.h"
#include "block/partitions/msdos.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/string.h"

#define MSDOS_MAX_EBRS		64	/* links followed before giving up */
#define MSDOS_FIRST_LOGICAL	5	/* number of the first logical partition */

/* The part of an MBR/EBR the parser uses, copied out of the block. */
struct msdos_table {
	u32		mt_disk_sig;
	struct mbr_part	mt_part[MBR_NR_PARTS];
};

/*
 * Read the table at lba into *t.  Returns 1 if the block carries the
 * 0x55AA signature, 0 if not, or a negative errno from the read.
 */
static int msdos_read_table(struct parsed_partitions *pp, u64 lba, struct msdos_table *t)
{
	const struct mbr *m = (const struct mbr *)pp->pp_buf;
	int ret;

	ret = pp->pp_read(pp->pp_ctx, lba, pp->pp_buf);
	if (ret < 0)
		return ret;
	if (le16_to_cpu(get_le16(&m->mbr_signature)) != MBR_SIGNATURE)
		return 0;
	t->mt_disk_sig = le32_to_cpu(get_le32(&m->mbr_disk_sig));
	memcpy(t->mt_part, m->mbr_part, sizeof(t->mt_part));
	return 1;
}

/*
 * The extent of entry p in logical blocks, start relative to whatever the
 * entry counts from.  Returns false for an empty slot (type 0 or no length).
 */
static bool msdos_entry_extent(const struct mbr_part *p, u64 *start, u64 *len)
{
	*start = le32_to_cpu(get_le32(&p->mp_start_lba));
	*len = le32_to_cpu(get_le32(&p->mp_nr_blocks));
	return p->mp_sys_ind != MBR_TYPE_EMPTY && *len != 0;
}

/* Logical blocks to 512-byte sectors. */
static u64 msdos_sects(const struct parsed_partitions *pp, u64 blocks)
{
	return blocks * (pp->pp_block_size / SECTOR_SIZE);
}

/*
 * Linux's rule for an entry at [start, start+*len) blocks against the end
 * of the disk (blk_add_partition): starting past it, the entry is dropped
 * (returns false); running past it, *len is cut to fit.  Both are warned.
 */
static bool msdos_fit_disk(struct parsed_partitions *pp, u32 partno, u64 start, u64 *len)
{
	u64 nr = pp->pp_nr_blocks;

	if (start >= nr) {
		part_warn(pp, "partition %u starts at block %llu, past the end of the disk "
			  "(%llu blocks), dropped", partno, (unsigned long long)start,
			  (unsigned long long)nr);
		return false;
	}
	if (*len > nr - start) {
		part_warn(pp, "partition %u (blocks %llu+%llu) runs past the end of the disk, "
			  "truncated to %llu blocks", partno, (unsigned long long)start,
			  (unsigned long long)*len, (unsigned long long)(nr - start));
		*len = nr - start;
	}
	return true;
}

/*
 * Add logical partition partno at [start, start+len) blocks if it lies
 * inside the extended partition [ext_start, ext_end) after its EBR, fits
 * the disk (msdos_fit_disk) and overlaps no other logical partition;
 * otherwise warn and drop it.
 */
static void msdos_add_logical(struct parsed_partitions *pp, u32 partno, u64 ebr,
			      u64 start, u64 len, u64 ext_end, u8 sys_ind)
{
	struct part_entry *pe;

	if (start <= ebr || start >= ext_end || len > ext_end - start) {
		part_warn(pp, "logical partition %u (blocks %llu+%llu) is not inside its "
			  "extended partition after its EBR, dropped", partno,
			  (unsigned long long)start, (unsigned long long)len);
		return;
	}
	if (!msdos_fit_disk(pp, partno, start, &len))
		return;
	if (part_find_overlap(pp, msdos_sects(pp, start), msdos_sects(pp, len),
			      PART_F_EXTENDED)) {
		part_warn(pp, "logical partition %u overlaps another partition, dropped", partno);
		return;
	}
	pe = part_add(pp, partno, msdos_sects(pp, start), msdos_sects(pp, len));
	if (pe) {
		pe->pe_sys_ind = sys_ind;
		pe->pe_flags = PART_F_LOGICAL;
	}
}

/*
 * Walk the EBR chain of the extended partition [ext_start, ext_end)
 * (blocks, as the table gives it: possibly past the end of the disk),
 * numbering logical partitions from *partno.  The walk is a loop with a
 * visited list, never recursion.  Returns 0, or a negative errno if a
 * read failed.
 */
static int msdos_walk_extended(struct parsed_partitions *pp, u64 ext_start, u64 ext_end,
			       u32 *partno)
{
	u64 visited[MSDOS_MAX_EBRS];
	struct msdos_table t;
	u64 ebr = ext_start, next, start, len;
	unsigned int n = 0, i, j;
	bool have_next;
	int ret;

	for (;;) {
		if (n == MSDOS_MAX_EBRS) {
			part_warn(pp, "more than %d extended boot records, chain stopped",
				  MSDOS_MAX_EBRS);
			return 0;
		}
		for (j = 0; j < n; j++) {
			if (visited[j] == ebr) {
				part_warn(pp, "EBR chain loops back to block %llu, stopped",
					  (unsigned long long)ebr);
				return 0;
			}
		}
		visited[n++] = ebr;

		ret = msdos_read_table(pp, ebr, &t);
		if (ret < 0)
			return ret;
		if (ret == 0) {
			part_warn(pp, "EBR at block %llu has no 0x55AA signature, chain stopped",
				  (unsigned long long)ebr);
			return 0;
		}

		have_next = false;
		next = 0;
		for (i = 0; i < MBR_NR_PARTS; i++) {
			const struct mbr_part *p = &t.mt_part[i];

			if (!msdos_entry_extent(p, &start, &len))
				continue;
			if (mbr_is_extended(p->mp_sys_ind)) {
				/* the link counts from the outermost extended partition */
				if (!have_next) {
					have_next = true;
					next = ext_start + start;
				}
				continue;
			}
			if (*partno > pp->pp_limit) {
				part_warn(pp, "more logical partitions than the %u minors allow, "
					  "rest ignored", pp->pp_limit);
				return 0;
			}
			/* a logical partition counts from its own EBR */
			msdos_add_logical(pp, (*partno)++, ebr, ebr + start, len, ext_end,
					  p->mp_sys_ind);
		}
		if (!have_next)
			return 0;
		if (next < ext_start || next >= ext_end) {
			part_warn(pp, "EBR link to block %llu leaves the extended partition, "
				  "chain stopped", (unsigned long long)next);
			return 0;
		}
		if (next >= pp->pp_nr_blocks) {
			part_warn(pp, "EBR link to block %llu lies past the end of the disk, "
				  "chain stopped", (unsigned long long)next);
			return 0;
		}
		ebr = next;
	}
}

static int msdos_probe(struct parsed_partitions *pp)
{
	struct msdos_table t;
	struct part_entry *pe;
	u64 start, len, nr = pp->pp_nr_blocks;
	u32 partno = MSDOS_FIRST_LOGICAL;
	unsigned int i;
	int ret;

	if (nr == 0)
		return 0;
	ret = msdos_read_table(pp, 0, &t);
	if (ret <= 0)
		return ret;
	for (i = 0; i < MBR_NR_PARTS; i++) {
		if (t.mt_part[i].mp_sys_ind == MBR_TYPE_GPT_PROT)
			return 0;	/* GPT's, and efi.c did not accept it */
		if (t.mt_part[i].mp_boot_ind != 0 && t.mt_part[i].mp_boot_ind != MBR_BOOT_ACTIVE)
			return 0;	/* a boot sector, not a partition table */
	}

	pp->pp_scheme = PART_SCHEME_DOS;
	pp->pp_disk_sig = t.mt_disk_sig;

	for (i = 0; i < MBR_NR_PARTS; i++) {
		const struct mbr_part *p = &t.mt_part[i];

		if (!msdos_entry_extent(p, &start, &len))
			continue;
		if (start == 0) {
			part_warn(pp, "partition %u starts on the MBR, dropped", i + 1);
			continue;
		}
		if (!msdos_fit_disk(pp, i + 1, start, &len))
			continue;
		if (part_find_overlap(pp, msdos_sects(pp, start), msdos_sects(pp, len), 0)) {
			part_warn(pp, "partition %u overlaps another partition, dropped", i + 1);
			continue;
		}
		pe = part_add(pp, i + 1, msdos_sects(pp, start), msdos_sects(pp, len));
		if (!pe)
			continue;
		pe->pe_sys_ind = p->mp_sys_ind;
		if (p->mp_boot_ind == MBR_BOOT_ACTIVE)
			pe->pe_flags |= PART_F_BOOTABLE;
		if (mbr_is_extended(p->mp_sys_ind))
			pe->pe_flags |= PART_F_EXTENDED;
	}

	/*
	 * Walk each extended partition that was kept, in slot order, over
	 * its extent in the table: if it was cut at the end of the disk, the
	 * logicals inside it are cut there in turn, not dropped.
	 */
	for (i = 0; i < pp->pp_nr && pp->pp_entries[i].pe_partno < MSDOS_FIRST_LOGICAL; i++) {
		const struct part_entry *ext = &pp->pp_entries[i];

		if (!(ext->pe_flags & PART_F_EXTENDED))
			continue;
		msdos_entry_extent(&t.mt_part[ext->pe_partno - 1], &start, &len);
		ret = msdos_walk_extended(pp, start, start + len, &partno);
		if (ret < 0)
			return ret;
	}
	return 1;
}

const struct part_format part_format_msdos = {
	.pf_name = "dos",
	.pf_probe = msdos_probe,
};
