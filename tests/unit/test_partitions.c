/*
 * Host tests of the partition parsers (block/partitions/) on disks built
 * in memory: the edge cases the sfdisk/sgdisk images of
 * tests/host/partitions.sh cannot easily produce (read errors, long and
 * looping EBR chains, entries that leave their container, odd GPT entry
 * sizes, the minors limit) plus the GUID and UTF-16 helpers.
 */
#include "tests/unit/unit.h"
#include "block/partitions/check.h"
#include "block/partitions/efi.h"
#include "block/partitions/msdos.h"
#include "kernel/errno.h"
#include "lib/crc32.h"

#define MAX_ENTRIES	64

/* A RAM disk with an optional failing block. */
struct memdisk {
	u8		*md_data;
	u32		md_bs;
	u64		md_blocks;
	u64		md_fail_lba;	/* reads of this block fail; ~0: none */
	unsigned int	md_reads;
};

static struct memdisk disk;
static struct part_entry entries[MAX_ENTRIES];
static u8 scratch[4096];
static struct parsed_partitions pp;

static int md_read(void *ctx, u64 lba, void *buf)
{
	struct memdisk *md = ctx;

	md->md_reads++;
	if (lba >= md->md_blocks)
		unit_fail(__FILE__, __LINE__, "read past the end: %llu", (unsigned long long)lba);
	if (lba >= md->md_blocks || lba == md->md_fail_lba)
		return -EIO;
	memcpy(buf, md->md_data + lba * md->md_bs, md->md_bs);
	return 0;
}

static void md_init(u32 bs, u64 blocks)
{
	free(disk.md_data);
	disk.md_data = calloc(blocks, bs);
	disk.md_bs = bs;
	disk.md_blocks = blocks;
	disk.md_fail_lba = ~0ULL;
	disk.md_reads = 0;
}

static u8 *blk(u64 lba)
{
	return disk.md_data + lba * disk.md_bs;
}

static int scan(u32 limit)
{
	memset(&pp, 0, sizeof(pp));
	pp.pp_name = "test";
	pp.pp_block_size = disk.md_bs;
	pp.pp_nr_blocks = disk.md_blocks;
	pp.pp_read = md_read;
	pp.pp_ctx = &disk;
	pp.pp_buf = scratch;
	pp.pp_entries = entries;
	pp.pp_limit = limit;
	return part_scan(&pp);
}

/* -- dos helpers: entries count logical blocks, as on disk -- */

static void mbr_set(u64 lba, int slot, u8 type, u32 start, u32 size, u8 boot)
{
	struct mbr_part p = { .mp_boot_ind = boot, .mp_sys_ind = type };

	put_le32(&p.mp_start_lba, start);
	put_le32(&p.mp_nr_blocks, size);
	memcpy(blk(lba) + offsetof(struct mbr, mbr_part) + slot * sizeof(p), &p, sizeof(p));
	put_le16(blk(lba) + offsetof(struct mbr, mbr_signature), MBR_SIGNATURE);
}

static const struct part_entry *find(u32 partno)
{
	u32 i;

	for (i = 0; i < pp.pp_nr; i++)
		if (pp.pp_entries[i].pe_partno == partno)
			return &pp.pp_entries[i];
	return NULL;
}

static void test_empty(void)
{
	md_init(512, 1000);
	CHECK_EQ(scan(15), 0);
	CHECK_EQ(pp.pp_scheme, PART_SCHEME_NONE);
	CHECK_EQ(pp.pp_nr, 0);
	md_init(512, 0);
	CHECK_EQ(scan(15), 0);
	md_init(512, 1);
	CHECK_EQ(scan(15), 0);
}

static void test_dos_primaries_4k(void)
{
	const struct part_entry *pe;

	md_init(4096, 1000);
	put_le32(blk(0) + offsetof(struct mbr, mbr_disk_sig), 0xCAFEF00D);
	mbr_set(0, 0, 0x83, 256, 100, MBR_BOOT_ACTIVE);
	mbr_set(0, 2, 0x82, 400, 600, 0);	/* slot 3, ends exactly at the disk end */
	CHECK_EQ(scan(15), 1);
	CHECK_EQ(pp.pp_scheme, PART_SCHEME_DOS);
	CHECK_EQ(pp.pp_disk_sig, 0xCAFEF00D);
	CHECK_EQ(pp.pp_nr, 2);
	CHECK_EQ(pp.pp_warnings, 0);
	pe = find(1);
	CHECK(pe && pe->pe_start == 256 * 8 && pe->pe_nr_sects == 800 &&
	      pe->pe_flags == PART_F_BOOTABLE && pe->pe_sys_ind == 0x83);
	pe = find(3);
	CHECK(pe && pe->pe_start == 3200 && pe->pe_nr_sects == 4800);
	{
		char u[PART_GUID_STR_LEN + 1];

		part_uuid_format(&pp, find(3), u);
		CHECK_STR(u, "cafef00d-03");
	}
}

static void test_dos_not_mine(void)
{
	md_init(512, 1000);
	mbr_set(0, 0, 0x83, 1, 10, 0);
	blk(0)[510] = 0;		/* no 0x55AA */
	CHECK_EQ(scan(15), 0);

	md_init(512, 1000);
	mbr_set(0, 0, 0x83, 1, 10, 0x12);	/* a FAT boot sector, not a table */
	CHECK_EQ(scan(15), 0);

	md_init(512, 1000);
	mbr_set(0, 0, MBR_TYPE_GPT_PROT, 1, 999, 0);	/* GPT's, but no GPT */
	mbr_set(0, 1, 0x83, 100, 10, 0);
	CHECK_EQ(scan(15), 0);
	CHECK(pp.pp_warnings > 0);
	CHECK_EQ(pp.pp_nr, 0);
}

static void test_dos_bounds(void)
{
	md_init(512, 1000);
	mbr_set(0, 0, 0x83, 0, 10, 0);		/* on top of the MBR */
	mbr_set(0, 1, 0x83, 1000, 1, 0);	/* starts just past the end */
	mbr_set(0, 2, 0x83, 0xFFFFFFFF, 0xFFFFFFFF, 0);	/* far past, no wrap */
	mbr_set(0, 3, 0x83, 100, 900, 0);	/* fills the disk exactly */
	CHECK_EQ(scan(15), 1);
	CHECK_EQ(pp.pp_nr, 1);
	CHECK(find(4) != NULL && find(4)->pe_nr_sects == 900);
	CHECK_EQ(pp.pp_warnings, 3);
}

/* Linux keeps an entry that runs past the end of the disk, cut to fit. */
static void test_dos_truncated(void)
{
	const struct part_entry *pe;

	md_init(512, 1000);
	mbr_set(0, 0, 0x83, 100, 100, 0);
	mbr_set(0, 1, 0x83, 990, 11, 0);	/* one block past the end */
	mbr_set(0, 2, 0x83, 500, 0xFFFFFFFF, 0);	/* far past, no wrap; overlaps 2 */
	CHECK_EQ(scan(15), 1);
	CHECK_EQ(pp.pp_nr, 2);
	pe = find(2);
	CHECK(pe && pe->pe_start == 990 && pe->pe_nr_sects == 10);
	CHECK(!find(3));
	CHECK_EQ(pp.pp_warnings, 3);		/* 2 cut, 3 cut and then overlapping */

	/* in 4096-byte blocks, the cut is still a whole number of blocks */
	md_init(4096, 1000);
	mbr_set(0, 0, 0x83, 256, 800, 0);
	CHECK_EQ(scan(15), 1);
	pe = find(1);
	CHECK(pe && pe->pe_start == 256 * 8 && pe->pe_nr_sects == 744 * 8);
	CHECK_EQ(pp.pp_warnings, 1);
}

/* An extended partition at [100, 1000) whose EBRs are at 100, 200, 300, ... */
static void make_chain(unsigned int n_ebrs)
{
	unsigned int i;

	md_init(512, 100 + 100 * (u64)n_ebrs);
	mbr_set(0, 0, 0x83, 10, 90, 0);
	mbr_set(0, 1, MBR_TYPE_W95_EXT_LBA, 100, (u32)(100 * n_ebrs), 0);
	for (i = 0; i < n_ebrs; i++) {
		u64 ebr = 100 + 100 * i;

		mbr_set(ebr, 0, 0x83, 10, 50, 0);	/* from this EBR */
		if (i + 1 < n_ebrs)	/* the link counts from the extended start */
			mbr_set(ebr, 1, MBR_TYPE_EXTENDED, 100 * (i + 1), 100, 0);
	}
}

/*
 * A disk image cut short inside its extended partition: the extended
 * partition is cut at the end of the disk, the logicals before the cut
 * stay whole, the one across it is cut, the ones past it are lost (their
 * EBR is gone with the rest of the image).
 */
static void test_dos_truncated_extended(void)
{
	const struct part_entry *pe;

	make_chain(4);				/* extended [100, 500), logicals 5-8 */
	disk.md_blocks = 340;			/* the image ends inside logical 7 (310+50) */
	CHECK_EQ(scan(15), 1);
	pe = find(2);
	CHECK(pe && pe->pe_flags == PART_F_EXTENDED && pe->pe_nr_sects == 240);
	CHECK(find(5) && find(5)->pe_nr_sects == 50);
	CHECK(find(6) && find(6)->pe_nr_sects == 50);
	pe = find(7);
	CHECK(pe && pe->pe_start == 310 && pe->pe_nr_sects == 30);
	CHECK(!find(8));
	CHECK_EQ(pp.pp_warnings, 3);		/* 2 cut, 7 cut, the link to 400 */

	/* a logical may not leave an extended partition that fits on the disk */
	make_chain(3);				/* extended [100, 400) on 400 blocks */
	mbr_set(0, 1, MBR_TYPE_W95_EXT_LBA, 100, 250, 0);	/* now [100, 350) */
	CHECK_EQ(scan(15), 1);
	CHECK(find(5) && find(6) && !find(7));	/* 7 at 310+50 leaves it */
	CHECK_EQ(pp.pp_warnings, 1);

	/* ... nor a cut one, within the disk */
	make_chain(3);
	mbr_set(200, 0, 0x83, 10, 150, 0);	/* logical 6 at 210+150, into 7's EBR */
	disk.md_blocks = 350;
	CHECK_EQ(scan(15), 1);
	CHECK(find(6) && find(6)->pe_nr_sects == 140);	/* cut at 350 */
	CHECK(!find(7));			/* 310 < 350, and overlaps 6 */
}

static void test_dos_logicals(void)
{
	const struct part_entry *pe;

	make_chain(3);
	CHECK_EQ(scan(15), 1);
	CHECK_EQ(pp.pp_nr, 5);
	CHECK_EQ(pp.pp_warnings, 0);
	pe = find(2);
	CHECK(pe && pe->pe_flags == PART_F_EXTENDED && pe->pe_start == 100 &&
	      pe->pe_nr_sects == 300);
	pe = find(7);
	CHECK(pe && pe->pe_flags == PART_F_LOGICAL && pe->pe_start == 310 &&
	      pe->pe_nr_sects == 50);
	CHECK(find(5) && find(5)->pe_start == 110);
}

static void test_dos_ebr_loop(void)
{
	make_chain(3);
	mbr_set(300, 1, MBR_TYPE_EXTENDED, 100, 100, 0);	/* back to the 2nd EBR */
	CHECK_EQ(scan(15), 1);
	CHECK_EQ(pp.pp_nr, 5);
	CHECK_EQ(pp.pp_warnings, 1);

	make_chain(1);
	mbr_set(100, 1, MBR_TYPE_EXTENDED, 0, 100, 0);		/* to itself */
	CHECK_EQ(scan(15), 1);
	CHECK_EQ(pp.pp_nr, 3);
	CHECK_EQ(pp.pp_warnings, 1);
}

static void test_dos_ebr_long(void)
{
	make_chain(100);
	CHECK_EQ(scan(MAX_ENTRIES - 1), 1);
	CHECK(pp.pp_warnings >= 1);
	CHECK(pp.pp_nr <= MAX_ENTRIES - 1);
	/* bounded: one MBR plus at most 64 EBRs */
	CHECK(disk.md_reads <= 2 + 1 + 64 + 1);
}

static void test_dos_ebr_damage(void)
{
	make_chain(3);
	mbr_set(200, 0, 0x83, 10, 5000, 0);	/* logical 6 leaves the container */
	CHECK_EQ(scan(15), 1);
	CHECK(find(5) && !find(6) && find(7));	/* numbers are not reused */
	CHECK_EQ(pp.pp_warnings, 1);

	make_chain(3);
	mbr_set(200, 1, MBR_TYPE_EXTENDED, 5000, 100, 0);	/* link outside */
	CHECK_EQ(scan(15), 1);
	CHECK(find(5) && find(6) && !find(7));
	CHECK_EQ(pp.pp_warnings, 1);

	make_chain(3);
	blk(200)[511] = 0;			/* EBR without signature */
	CHECK_EQ(scan(15), 1);
	CHECK(find(5) && !find(6));
	CHECK_EQ(pp.pp_warnings, 1);

	make_chain(2);
	mbr_set(200, 0, 0x83, 0, 50, 0);	/* logical 6 on top of its own EBR */
	CHECK_EQ(scan(15), 1);
	CHECK(find(5) && !find(6));
	CHECK_EQ(pp.pp_warnings, 1);

	make_chain(2);
	mbr_set(100, 2, 0x83, 100, 50, 0);	/* a second logical in EBR 1, 200..250 */
	CHECK_EQ(scan(15), 1);
	CHECK(find(5) && find(6) && find(6)->pe_start == 200 && !find(7));	/* 7 overlaps 6 */
	CHECK_EQ(pp.pp_warnings, 1);
}

static void test_dos_limit(void)
{
	make_chain(5);
	CHECK_EQ(scan(6), 1);
	CHECK_EQ(pp.pp_nr, 4);	/* 1, 2, 5, 6 */
	CHECK(find(6) && !find(7));
	CHECK(pp.pp_warnings >= 1);

	make_chain(2);
	CHECK_EQ(scan(1), 1);	/* room for partition 1 only */
	CHECK_EQ(pp.pp_nr, 1);
	CHECK(pp.pp_warnings >= 1);
}

static void test_read_errors(void)
{
	make_chain(3);
	disk.md_fail_lba = 0;
	CHECK_EQ(scan(15), -EIO);
	make_chain(3);
	disk.md_fail_lba = 200;
	CHECK_EQ(scan(15), -EIO);
}

/* -- GPT builder -- */

struct gpt_spec {
	u32	gs_num;		/* entries in the array */
	u32	gs_esize;	/* entry size */
	u64	gs_backup;	/* LBA of the backup header */
};

static void gpt_header_at(u64 lba, u64 alt, u64 array, const struct gpt_spec *s,
			  u64 first, u64 last, u32 array_crc)
{
	u8 *b = blk(lba);
	struct gpt_header h;

	memset(&h, 0, sizeof(h));
	memcpy(h.gh_signature, GPT_SIGNATURE, 8);
	h.gh_revision = GPT_REVISION_1_0;
	h.gh_header_size = GPT_HEADER_MIN_SIZE;
	h.gh_my_lba = lba;
	h.gh_alternate_lba = alt;
	h.gh_first_usable_lba = first;
	h.gh_last_usable_lba = last;
	memset(h.gh_disk_guid, 0x42, 16);
	h.gh_entries_lba = array;
	h.gh_num_entries = s->gs_num;
	h.gh_entry_size = s->gs_esize;
	h.gh_entries_crc32 = array_crc;
	memset(b, 0, disk.md_bs);
	memcpy(b, &h, sizeof(h));
	put_le32(b + 16, crc32(0, b, GPT_HEADER_MIN_SIZE));
}

static u64 array_blocks(const struct gpt_spec *s)
{
	return ((u64)s->gs_num * s->gs_esize + disk.md_bs - 1) / disk.md_bs;
}

static void gpt_entry_set(u32 slot, u8 type_byte, u64 first, u64 last, const char *name)
{
	u8 *e = blk(2) + (u64)slot * 128;	/* callers use 128-byte entries here */
	unsigned int i;

	memset(e, 0, 128);
	memset(e, type_byte, 16);
	memset(e + 16, slot + 1, 16);
	put_le64(e + 32, first);
	put_le64(e + 40, last);
	put_le64(e + 48, GPT_ATTR_LEGACY_BOOT);
	for (i = 0; name[i] && i < 36; i++)
		put_le16(e + 56 + 2 * i, (u8)name[i]);
}

/* Write the pMBR and both headers and arrays around entries already at LBA 2. */
static void gpt_finish(const struct gpt_spec *s)
{
	u64 n = array_blocks(s), last = disk.md_blocks - 1, backup = s->gs_backup;
	u32 crc = crc32(0, blk(2), (size_t)s->gs_num * s->gs_esize);

	mbr_set(0, 0, MBR_TYPE_GPT_PROT, 1, (u32)min(last, 0xFFFFFFFFULL), 0);
	memcpy(blk(backup - n), blk(2), n * disk.md_bs);
	gpt_header_at(1, backup, 2, s, 2 + n, backup - n - 1, crc);
	gpt_header_at(backup, 1, backup - n, s, 2 + n, backup - n - 1, crc);
	(void)last;
}

static void make_gpt(u32 bs, u64 blocks)
{
	struct gpt_spec s = { 128, 128, blocks - 1 };

	md_init(bs, blocks);
	gpt_entry_set(0, 0x11, 100, 199, "alpha");
	gpt_entry_set(2, 0x22, 200, 299, "gamma");
	gpt_finish(&s);
}

static void test_gpt_basic(void)
{
	const struct part_entry *pe;
	char g[PART_GUID_STR_LEN + 1];

	make_gpt(512, 2000);
	CHECK_EQ(scan(15), 1);
	CHECK_EQ(pp.pp_scheme, PART_SCHEME_GPT);
	CHECK_EQ(pp.pp_warnings, 0);
	CHECK_EQ(pp.pp_nr, 2);
	pe = find(3);
	CHECK(pe && pe->pe_start == 200 && pe->pe_nr_sects == 100);
	CHECK(pe && strcmp(pe->pe_name, "gamma") == 0);
	CHECK(pe && pe->pe_attrs == GPT_ATTR_LEGACY_BOOT);
	part_guid_format(&pp.pp_disk_guid, g);
	CHECK_STR(g, "42424242-4242-4242-4242-424242424242");

	make_gpt(4096, 400);
	CHECK_EQ(scan(15), 1);
	pe = find(1);
	CHECK(pe && pe->pe_start == 800 && pe->pe_nr_sects == 800);
	CHECK_EQ(pp.pp_warnings, 0);
}

static void test_gpt_bad_entries(void)
{
	struct gpt_spec s = { 128, 128, 1999 };

	md_init(512, 2000);
	gpt_entry_set(0, 0x11, 10, 20, "before-usable");	/* array ends at 33 */
	gpt_entry_set(1, 0x11, 100, 99, "start>end");
	gpt_entry_set(2, 0x11, 100, 5000, "past-end");
	gpt_entry_set(3, 0x11, 100, 199, "ok");
	gpt_entry_set(4, 0x11, 150, 249, "overlap");
	gpt_finish(&s);
	CHECK_EQ(scan(15), 1);
	CHECK_EQ(pp.pp_nr, 1);
	CHECK(find(4) != NULL);
	CHECK_EQ(pp.pp_warnings, 4);
}

static void test_gpt_backup(void)
{
	make_gpt(512, 2000);
	blk(1)[0] ^= 1;				/* primary signature */
	CHECK_EQ(scan(15), 1);
	CHECK_EQ(pp.pp_nr, 2);
	CHECK(pp.pp_warnings >= 1);

	make_gpt(512, 2000);
	blk(1)[60] ^= 1;			/* primary disk GUID: header CRC */
	CHECK_EQ(scan(15), 1);
	CHECK_EQ(pp.pp_disk_guid.g_b[4], 0x42);	/* the backup's */
	CHECK(pp.pp_warnings >= 1);

	make_gpt(512, 2000);
	put_le32(blk(1) + 24, 7);		/* my_lba wrong, CRC recomputed */
	put_le32(blk(1) + 16, 0);
	put_le32(blk(1) + 16, crc32(0, blk(1), GPT_HEADER_MIN_SIZE));
	CHECK_EQ(scan(15), 1);
	CHECK(pp.pp_warnings >= 1);

	make_gpt(512, 2000);
	blk(2)[200] ^= 1;			/* primary array: slot 1, unused */
	CHECK_EQ(scan(15), 1);
	CHECK_EQ(pp.pp_nr, 2);
	CHECK(pp.pp_warnings >= 1);

	make_gpt(512, 2000);
	blk(1)[0] ^= 1;
	blk(1999)[0] ^= 1;			/* both gone */
	CHECK_EQ(scan(15), 0);
	CHECK_EQ(pp.pp_nr, 0);
}

/* An image written to a bigger disk: the backup sits before the end. */
static void test_gpt_moved(void)
{
	struct gpt_spec s = { 128, 128, 1499 };

	md_init(512, 2000);
	gpt_entry_set(0, 0x11, 100, 199, "a");
	gpt_finish(&s);
	CHECK_EQ(scan(15), 1);
	CHECK_EQ(pp.pp_nr, 1);
	CHECK_EQ(pp.pp_warnings, 1);

	/* and with a bad primary array, the backup is found where the primary says */
	blk(2)[300] ^= 1;
	CHECK_EQ(scan(15), 1);
	CHECK_EQ(pp.pp_nr, 1);
	CHECK(pp.pp_warnings >= 2);
}

static void test_gpt_entry_sizes(void)
{
	struct gpt_spec s = { 16, 256, 1999 };
	const struct part_entry *pe;

	/* 256-byte entries: slot 1 lies at offset 256 (gpt_entry_set's slot 2) */
	md_init(512, 2000);
	gpt_entry_set(2, 0x33, 100, 149, "wide");
	gpt_finish(&s);
	CHECK_EQ(scan(15), 1);
	pe = find(2);
	CHECK(pe && pe->pe_start == 100 && pp.pp_nr == 1);

	s.gs_esize = 100;			/* not 128 * 2^n */
	md_init(512, 2000);
	gpt_finish(&s);
	CHECK_EQ(scan(15), 0);
	CHECK(pp.pp_warnings >= 2);

	s.gs_esize = 1024;			/* larger than a block */
	md_init(512, 2000);
	gpt_finish(&s);
	CHECK_EQ(scan(15), 0);

	s.gs_num = 0;				/* no entries at all: a valid, empty GPT */
	s.gs_esize = 128;
	md_init(512, 2000);
	gpt_finish(&s);
	CHECK_EQ(scan(15), 1);
	CHECK_EQ(pp.pp_nr, 0);
	CHECK_EQ(pp.pp_warnings, 0);
}

static void test_gpt_limit(void)
{
	struct gpt_spec s = { 128, 128, 1999 };
	unsigned int i;

	md_init(512, 2000);
	for (i = 0; i < 20; i++)
		gpt_entry_set(i, 0x11, 100 + 10 * i, 109 + 10 * i, "p");
	gpt_finish(&s);
	CHECK_EQ(scan(15), 1);
	CHECK_EQ(pp.pp_nr, 15);
	CHECK_EQ(pp.pp_warnings, 1);
	CHECK(find(15) && !find(16));
}

static void test_gpt_read_errors(void)
{
	make_gpt(512, 2000);
	disk.md_fail_lba = 3;
	CHECK_EQ(scan(15), -EIO);
	make_gpt(512, 2000);
	disk.md_fail_lba = 1999;
	CHECK_EQ(scan(15), -EIO);
}

static void test_guid(void)
{
	struct part_guid g, h;
	char s[PART_GUID_STR_LEN + 1];

	CHECK_EQ(part_guid_parse("0fc63daf-8483-4772-8E79-3D69D8477DE4", &g), 0);
	CHECK_EQ(g.g_b[0], 0xAF);	/* first field little-endian */
	CHECK_EQ(g.g_b[8], 0x8E);	/* last 8 bytes in order */
	part_guid_format(&g, s);
	CHECK_STR(s, "0FC63DAF-8483-4772-8E79-3D69D8477DE4");
	CHECK_STR(part_gpt_type_name(&g), "Linux filesystem");
	CHECK_EQ(part_guid_parse(s, &h), 0);
	CHECK(memcmp(&g, &h, sizeof(g)) == 0);
	CHECK_EQ(part_guid_parse("0FC63DAF-8483-4772-8E79-3D69D8477DE", &g), -EINVAL);
	CHECK_EQ(part_guid_parse("0FC63DAF-8483-4772-8E79-3D69D8477DE44", &g), -EINVAL);
	CHECK_EQ(part_guid_parse("0FC63DAF+8483-4772-8E79-3D69D8477DE4", &g), -EINVAL);
	CHECK_EQ(part_guid_parse("0FC63DAF-8483-4772-8E79-3D69D8477DG4", &g), -EINVAL);
	CHECK_EQ(part_guid_parse("", &g), -EINVAL);
	memset(&g, 0, sizeof(g));
	CHECK(part_guid_is_zero(&g));
	CHECK(part_gpt_type_name(&g) == NULL);
	CHECK_STR(part_dos_type_name(0x83), "Linux");
	CHECK(part_dos_type_name(0x42) == NULL);
}

static void test_utf16(void)
{
	char out[PART_NAME_MAX];
	static const u8 ascii[] = { 'a', 0, 'b', 0, 0, 0, 'c', 0 };
	static const u8 bmp[] = { 0xE9, 0x00, 0xE5, 0x65 };			/* é 日 */
	static const u8 pair[] = { 0x3D, 0xD8, 0x00, 0xDE };			/* U+1F600 */
	static const u8 lone[] = { 0x3D, 0xD8, 'x', 0, 0x00, 0xDE, 0x09, 0 };	/* hi, x, lo, tab */
	static const u8 cut[] = { 0x3D, 0xD8 };					/* hi at the end */
	u8 full[72];
	unsigned int i;

	part_utf16le_to_utf8(ascii, 4, out);
	CHECK_STR(out, "ab");
	part_utf16le_to_utf8(bmp, 2, out);
	CHECK_STR(out, "\xC3\xA9\xE6\x97\xA5");
	part_utf16le_to_utf8(pair, 2, out);
	CHECK_STR(out, "\xF0\x9F\x98\x80");
	part_utf16le_to_utf8(lone, 4, out);
	CHECK_STR(out, "\xEF\xBF\xBDx\xEF\xBF\xBD?");
	part_utf16le_to_utf8(cut, 1, out);
	CHECK_STR(out, "\xEF\xBF\xBD");
	for (i = 0; i < 36; i++)	/* 36 three-byte characters fill the buffer */
		put_le16(full + 2 * i, 0xFFFD);
	part_utf16le_to_utf8(full, 36, out);
	CHECK_EQ(strlen(out), PART_NAME_MAX - 1);
}

static const struct unit_case cases[] = {
	{ "empty", test_empty },
	{ "dos_primaries_4k", test_dos_primaries_4k },
	{ "dos_not_mine", test_dos_not_mine },
	{ "dos_bounds", test_dos_bounds },
	{ "dos_truncated", test_dos_truncated },
	{ "dos_truncated_extended", test_dos_truncated_extended },
	{ "dos_logicals", test_dos_logicals },
	{ "dos_ebr_loop", test_dos_ebr_loop },
	{ "dos_ebr_long", test_dos_ebr_long },
	{ "dos_ebr_damage", test_dos_ebr_damage },
	{ "dos_limit", test_dos_limit },
	{ "read_errors", test_read_errors },
	{ "gpt_basic", test_gpt_basic },
	{ "gpt_bad_entries", test_gpt_bad_entries },
	{ "gpt_backup", test_gpt_backup },
	{ "gpt_moved", test_gpt_moved },
	{ "gpt_entry_sizes", test_gpt_entry_sizes },
	{ "gpt_limit", test_gpt_limit },
	{ "gpt_read_errors", test_gpt_read_errors },
	{ "guid", test_guid },
	{ "utf16", test_utf16 },
};

UNIT_MAIN("block/partitions", cases)
