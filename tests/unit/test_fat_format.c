/*
 * Host tests for the portable FAT code (fs/fat/fat_bpb.c, fat_name.c):
 * BPB validation rule by rule and the FAT type from the cluster count,
 * FAT12 entry packing, chain walks over a FAT in memory (good, looping,
 * leaving the volume, hitting a free entry), DOS times, long-name
 * checksums, assembly (complete, orphaned, out of order) and building,
 * and short-name generation with numeric tails.
 */
#include "tests/unit/unit.h"
#include "fs/fat/fat_format.h"
#include "kernel/errno.h"

static u8 sec[512];

/* A FAT16 boot sector: 512-byte sectors, @spc per cluster, @total sectors. */
static void mk_fat16(u32 spc, u32 total)
{
	struct fat_boot_sector *bs = (void *)sec;

	memset(sec, 0, sizeof(sec));
	bs->bs_jmpboot[0] = 0xEB;
	bs->bs_jmpboot[2] = 0x90;
	bs->bpb_bytspersec = 512;
	bs->bpb_secperclus = (u8)spc;
	bs->bpb_rsvdseccnt = 1;
	bs->bpb_numfats = 2;
	bs->bpb_rootentcnt = 512;
	bs->bpb_totsec16 = (u16)(total < 65536 ? total : 0);
	bs->bpb_totsec32 = total < 65536 ? 0 : total;
	bs->bpb_fatsz16 = 64;
	bs->f16.bs_bootsig = FAT_BOOTSIG_EXT;
	bs->f16.bs_volid = 0x1234ABCD;
	memcpy(bs->f16.bs_vollab, "MYLABEL    ", 11);
	memcpy(bs->f16.bs_filsystype, "FAT32   ", 8);	/* a lie: must be ignored */
	sec[510] = 0x55;
	sec[511] = 0xAA;
}

static void test_bpb_good(void)
{
	struct fat_geom g;
	const char *why;

	mk_fat16(4, 65536);
	CHECK(fat_bpb_plausible(sec));
	CHECK_EQ(fat_bpb_parse(sec, 512, 65536, &g, &why), 0);
	CHECK_EQ(g.g_type, 16);
	CHECK_EQ(g.g_root_start, 1 + 2 * 64);
	CHECK_EQ(g.g_data_start, 1 + 2 * 64 + 32);
	CHECK_EQ(g.g_clusters, (65536 - 161) / 4);
	CHECK_STR(g.g_label, "MYLABEL");
	CHECK_EQ(g.g_volid, 0x1234ABCD);
	/* the same layout with fewer clusters is FAT12, whatever the string says */
	mk_fat16(32, 65536);
	CHECK_EQ(fat_bpb_parse(sec, 512, 65536, &g, &why), 0);
	CHECK_EQ(g.g_type, 12);
}

struct bpb_case {
	const char	*name;
	u32		off, size, val;	/* patch: byte offset, 1/2/4 bytes, value */
	u64		dev;		/* device sectors */
};

static const struct bpb_case bad_cases[] = {
	{ "bytes per sector 300",	11, 2, 300, 65536 },
	{ "bytes per sector 8192",	11, 2, 8192, 65536 },
	{ "sectors per cluster 3",	13, 1, 3, 65536 },
	{ "sectors per cluster 0",	13, 1, 0, 65536 },
	{ "no reserved sectors",	14, 2, 0, 65536 },
	{ "no FATs",			16, 1, 0, 65536 },
	{ "root not whole sectors",	17, 2, 5, 65536 },
	{ "no root on FAT16",		17, 2, 0, 65536 },
	{ "FAT too small",		22, 2, 8, 65536 },
	{ "FAT fills the volume",	22, 2, 40000, 65536 },
	{ "volume beyond the device",	0, 0, 0, 60000 },
	{ "no signature",		510, 1, 0, 65536 },
};

static void test_bpb_bad(void)
{
	struct fat_geom g;
	const char *why;
	size_t i;

	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bpb_case *c = &bad_cases[i];

		mk_fat16(4, 65536);
		if (c->size == 1)
			sec[c->off] = (u8)c->val;
		else if (c->size == 2)
			put_le16(sec + c->off, (u16)c->val);
		if (fat_bpb_parse(sec, 512, c->dev, &g, &why) != -EINVAL || !why)
			unit_fail(__FILE__, __LINE__, "%s: accepted", c->name);
	}
}

static void test_fat12_pack(void)
{
	u8 fat[6] = { 0 };
	u32 c;

	for (c = 0; c < 4; c++) {
		u32 off = c + c / 2;
		u16 w = (u16)(fat[off] | fat[off + 1] << 8);

		w = fat12_encode(c, w, 0xA00 + c);
		fat[off] = (u8)w;
		fat[off + 1] = (u8)(w >> 8);
	}
	for (c = 0; c < 4; c++) {
		u32 off = c + c / 2;

		CHECK_EQ(fat12_decode(c, (u16)(fat[off] | fat[off + 1] << 8)), 0xA00 + c);
	}
}

static u32 fake_fat[64];

static int fake_get(void *ctx, u32 clus, u32 *val)
{
	(void)ctx;
	*val = fake_fat[clus];
	return 0;
}

static void test_chain(void)
{
	struct fat_geom g = { .g_type = 16, .g_clusters = 60 };
	u32 n, last;

	memset(fake_fat, 0, sizeof(fake_fat));
	fake_fat[2] = 3, fake_fat[3] = 7, fake_fat[7] = 0xFFFF;
	CHECK_EQ(fat_chain_walk(&g, fake_get, NULL, 2, &n, &last), 0);
	CHECK_EQ(n, 3);
	CHECK_EQ(last, 7);
	CHECK_EQ(fat_chain_walk(&g, fake_get, NULL, 0, &n, &last), 0);
	CHECK_EQ(n, 0);
	fake_fat[7] = 2;				/* a loop */
	CHECK_EQ(fat_chain_walk(&g, fake_get, NULL, 2, &n, &last), -EUCLEAN);
	fake_fat[7] = 62;				/* past the last cluster (61) */
	CHECK_EQ(fat_chain_walk(&g, fake_get, NULL, 2, &n, &last), -EUCLEAN);
	fake_fat[7] = 0;				/* into a free cluster */
	CHECK_EQ(fat_chain_walk(&g, fake_get, NULL, 2, &n, &last), -EUCLEAN);
	fake_fat[7] = 0xFFF7;				/* a bad cluster */
	CHECK_EQ(fat_chain_walk(&g, fake_get, NULL, 2, &n, &last), -EUCLEAN);
	CHECK_EQ(fat_chain_walk(&g, fake_get, NULL, 1, &n, &last), -EUCLEAN);
	CHECK_EQ(fat_entry_kind(&g, 0xFFF8), FAT_ENT_EOC);
	CHECK_EQ(fat_entry_kind(&g, 1), FAT_ENT_INVALID);
}

static void test_time(void)
{
	u16 d, t;
	u8 tenth;

	fat_time_to_dos(1700000000, &d, &t, &tenth);	/* 2023-11-14 22:13:20 UTC */
	CHECK_EQ(d, ((2023 - 1980) << 9) | (11 << 5) | 14);
	CHECK_EQ(t, (22 << 11) | (13 << 5) | 10);
	CHECK_EQ(fat_time_from_dos(d, t), 1700000000);
	fat_time_to_dos(1700000001, &d, &t, &tenth);
	CHECK_EQ(tenth, 100);
	fat_time_to_dos(0, &d, &t, &tenth);		/* before 1980: clamped */
	CHECK_EQ(d, (0 << 9) | (1 << 5) | 1);
	CHECK_EQ(fat_time_from_dos(0, 0), 315532800);
}

static void test_lfn_roundtrip(void)
{
	static const char *names[] = {
		"A long file name.txt", "x", "exactly-13chr", "exactly-14chrs",
		"Ünïcödé ✓ 😀.bin",
		"0123456789012345678901234567890123456789012345678901234567890123456789",
	};
	struct fat_lfn ents[FAT_LFN_MAX_ENTRIES];
	struct fat_lfn_state st;
	u8 sn[11] = "LONGFI~1TXT";
	u16 u[FAT_LFN_MAX_CHARS];
	char out[256 * 3 + 1];
	size_t i;
	int n, k, j;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		n = fat_name_to_utf16(names[i], strlen(names[i]), u, FAT_LFN_MAX_CHARS);
		CHECK(n > 0);
		k = fat_lfn_build(u, (u32)n, fat_lfn_checksum(sn), ents);
		CHECK_EQ(k, (n + 12) / 13);
		fat_lfn_reset(&st);
		for (j = 0; j < k; j++)
			fat_lfn_feed(&st, &ents[j]);
		CHECK_EQ(fat_lfn_finish(&st, sn, out, sizeof(out)), (int)strlen(names[i]));
		CHECK_STR(out, names[i]);
	}
	/* checksum mismatch: an orphan, ignored */
	n = fat_name_to_utf16(names[0], strlen(names[0]), u, FAT_LFN_MAX_CHARS);
	k = fat_lfn_build(u, (u32)n, (u8)(fat_lfn_checksum(sn) + 1), ents);
	fat_lfn_reset(&st);
	for (j = 0; j < k; j++)
		fat_lfn_feed(&st, &ents[j]);
	CHECK_EQ(fat_lfn_finish(&st, sn, out, sizeof(out)), 0);
	/* a missing middle entry */
	n = fat_name_to_utf16(names[5], strlen(names[5]), u, FAT_LFN_MAX_CHARS);
	k = fat_lfn_build(u, (u32)n, fat_lfn_checksum(sn), ents);
	fat_lfn_reset(&st);
	for (j = 0; j < k; j++)
		if (j != 2)
			fat_lfn_feed(&st, &ents[j]);
	CHECK_EQ(fat_lfn_finish(&st, sn, out, sizeof(out)), 0);
	/* no LAST flag on the first entry */
	k = fat_lfn_build(u, (u32)n, fat_lfn_checksum(sn), ents);
	ents[0].ld_ord &= (u8)~FAT_LFN_LAST;
	fat_lfn_reset(&st);
	for (j = 0; j < k; j++)
		fat_lfn_feed(&st, &ents[j]);
	CHECK_EQ(fat_lfn_finish(&st, sn, out, sizeof(out)), 0);
	/* the checksum of fatgen103's algorithm for a known name */
	CHECK_EQ(fat_lfn_checksum((const u8 *)"README  TXT"), 0x73);
}

static void test_utf16_errors(void)
{
	char big[300];
	u16 u[FAT_LFN_MAX_CHARS];

	CHECK_EQ(fat_name_to_utf16("a:b", 3, u, FAT_LFN_MAX_CHARS), -EINVAL);
	CHECK_EQ(fat_name_to_utf16("a\x01", 2, u, FAT_LFN_MAX_CHARS), -EINVAL);
	CHECK_EQ(fat_name_to_utf16("\xC0\xAF", 2, u, FAT_LFN_MAX_CHARS), -EINVAL);
	memset(big, 'a', sizeof(big));
	CHECK_EQ(fat_name_to_utf16(big, 256, u, FAT_LFN_MAX_CHARS), -ENAMETOOLONG);
	CHECK_EQ(fat_name_to_utf16(big, 255, u, FAT_LFN_MAX_CHARS), 255);
}

struct short_case {
	const char	*name;
	const char	*basis;
	int		kind;
};

static const struct short_case short_cases[] = {
	{ "README.TXT",			"README  TXT", 1 },
	{ "readme.txt",			"README  TXT", 2 },
	{ "Makefile",			"MAKEFILE   ", 2 },
	{ "A long file name.txt",	"ALONGFILTXT", 0 },
	{ ".profile",			"PROFILE    ", 0 },
	{ "a+b.c",			"A_B     C  ", 0 },
	{ "x.tar.gz",			"XTAR    GZ ", 0 },
	{ "über.txt",			"_BER    TXT", 0 },
	{ "file.html",			"FILE    HTM", 0 },
	{ "NINECHARS.A",		"NINECHARA  ", 0 },
};

static void test_short_names(void)
{
	u8 b[11], t[11];
	size_t i;

	for (i = 0; i < sizeof(short_cases) / sizeof(short_cases[0]); i++) {
		const struct short_case *c = &short_cases[i];
		int k = fat_short_basis(c->name, strlen(c->name), b);

		if (k != c->kind || memcmp(b, c->basis, 11))
			unit_fail(__FILE__, __LINE__, "%s: kind %d basis \"%.11s\"", c->name, k, b);
	}
	CHECK_EQ(fat_short_basis("trailing.", 9, b), -EINVAL);
	fat_short_basis("A long file name.txt", 20, b);
	fat_short_tail(b, 1, t);
	CHECK(!memcmp(t, "ALONGF~1TXT", 11));
	fat_short_tail(b, 10, t);
	CHECK(!memcmp(t, "ALONG~10TXT", 11));
	fat_short_basis("a+b.c", 5, b);
	fat_short_tail(b, 2, t);
	CHECK(!memcmp(t, "A_B~2   C  ", 11));
}

static void test_short_text(void)
{
	char out[32];

	fat_short_to_text((const u8 *)"README  TXT", 0, out);
	CHECK_STR(out, "README.TXT");
	fat_short_to_text((const u8 *)"README  TXT", FAT_NTRES_LOWER_BASE, out);
	CHECK_STR(out, "readme.TXT");
	fat_short_to_text((const u8 *)"MAKEFILE   ", FAT_NTRES_LOWER_BASE | FAT_NTRES_LOWER_EXT, out);
	CHECK_STR(out, "makefile");
	CHECK(fat_name_eq("ReadMe.txt", 10, "README.TXT", 10));
	CHECK(!fat_name_eq("ReadMe.txt", 10, "README.TX", 9));
}

static const struct unit_case cases[] = {
	{ "bpb_good",		test_bpb_good },
	{ "bpb_bad",		test_bpb_bad },
	{ "fat12_pack",		test_fat12_pack },
	{ "chain_walk",		test_chain },
	{ "dos_time",		test_time },
	{ "lfn_roundtrip",		test_lfn_roundtrip },
	{ "utf16_errors",		test_utf16_errors },
	{ "short_names",		test_short_names },
	{ "short_text",		test_short_text },
};

UNIT_MAIN("fat", cases)
