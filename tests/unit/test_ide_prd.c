/*
 * Host tests for drivers/ide/ide_prd.c: the PRD table rules of SFF-8038i
 * (no entry crosses 64 KiB, a full 64 KiB piece becomes two 32 KiB
 * entries, EOT on the last, 32-bit even addresses and lengths, the total
 * equal to what was mapped) and the reset-signature classification.
 */
#include "tests/unit/unit.h"
#include "drivers/ide/ide_priv.h"
#include "kernel/errno.h"

#define MAXPRD	16

static struct ide_prd prd[MAXPRD];

static int build(const struct scatterlist *sg, u32 nsg, u32 *total)
{
	memset(prd, 0xa5, sizeof(prd));
	return ide_prd_build(prd, MAXPRD, sg, nsg, total);
}

/* Every entry obeys the rules; returns the bytes described. */
static u64 check_table(int n)
{
	u64 sum = 0;
	int i;

	for (i = 0; i < n; i++) {
		u32 a = prd[i].prd_addr, c = prd[i].prd_count ? prd[i].prd_count : 0x10000;

		CHECK(prd[i].prd_count != 0);		/* never the ambiguous 64 KiB count */
		CHECK((a & 1) == 0 && (c & 1) == 0);
		CHECK((a >> 16) == ((a + c - 1) >> 16));	/* inside one 64 KiB block */
		CHECK_EQ(prd[i].prd_flags, i == n - 1 ? IDE_PRD_EOT : 0);
		sum += c;
	}
	return sum;
}

static void test_single_page(void)
{
	struct scatterlist sg[] = { { 0x123000, 4096 } };
	u32 total;
	int n = build(sg, 1, &total);

	CHECK_EQ(n, 1);
	CHECK_EQ(prd[0].prd_addr, 0x123000);
	CHECK_EQ(prd[0].prd_count, 4096);
	CHECK_EQ(prd[0].prd_flags, IDE_PRD_EOT);
	CHECK_EQ(total, 4096);
}

static void test_crosses_64k(void)
{
	/* 8 KiB starting 2 KiB below a 64 KiB boundary: split there. */
	struct scatterlist sg[] = { { 0x3f800, 8192 } };
	u32 total;
	int n = build(sg, 1, &total);

	CHECK_EQ(n, 2);
	CHECK_EQ(prd[0].prd_addr, 0x3f800);
	CHECK_EQ(prd[0].prd_count, 0x800);
	CHECK_EQ(prd[1].prd_addr, 0x40000);
	CHECK_EQ(prd[1].prd_count, 0x1800);
	CHECK_EQ(check_table(n), 8192);
	CHECK_EQ(total, 8192);
}

static void test_full_64k_split(void)
{
	/* An aligned 64 KiB segment: two 32 KiB entries, never count 0. */
	struct scatterlist sg[] = { { 0x20000, 0x10000 } };
	u32 total;
	int n = build(sg, 1, &total);

	CHECK_EQ(n, 2);
	CHECK_EQ(prd[0].prd_addr, 0x20000);
	CHECK_EQ(prd[0].prd_count, 0x8000);
	CHECK_EQ(prd[1].prd_addr, 0x28000);
	CHECK_EQ(prd[1].prd_count, 0x8000);
	CHECK_EQ(total, 0x10000);
}

static void test_many_segments(void)
{
	struct scatterlist sg[] = {
		{ 0x1000, 512 }, { 0x5000, 0x10000 }, { 0xfffe0000ULL, 0x20000 }, { 0x9000, 2 },
	};
	u32 total;
	int n = build(sg, 4, &total);

	CHECK(n > 0);
	CHECK_EQ(check_table(n), 512 + 0x10000 + 0x20000 + 2);
	CHECK_EQ(total, 512 + 0x10000 + 0x20000 + 2);
	/* The last byte of the 32-bit space is reachable. */
	CHECK_EQ((u64)prd[n - 2].prd_addr + prd[n - 2].prd_count, 0x100000000ULL);
}

static void test_rejects(void)
{
	struct scatterlist odd_len[] = { { 0x1000, 511 } };
	struct scatterlist odd_addr[] = { { 0x1001, 512 } };
	struct scatterlist high[] = { { 0x100000000ULL, 512 } };
	struct scatterlist straddle[] = { { 0xfffffe00ULL, 1024 } };
	struct scatterlist empty[] = { { 0x1000, 0 } };
	u32 total = 123;

	CHECK_EQ(build(odd_len, 1, &total), -EINVAL);
	CHECK_EQ(total, 0);
	CHECK_EQ(build(odd_addr, 1, &total), -EINVAL);
	CHECK_EQ(build(high, 1, &total), -ERANGE);
	CHECK_EQ(build(straddle, 1, &total), -ERANGE);
	CHECK_EQ(build(empty, 1, &total), -EINVAL);
	CHECK_EQ(build(odd_len, 0, &total), -EINVAL);
}

static void test_table_full(void)
{
	struct scatterlist sg[MAXPRD + 1];
	u32 i, total;

	for (i = 0; i < MAXPRD + 1; i++) {
		sg[i].sg_addr = 0x100000 + i * 0x2000;
		sg[i].sg_len = 512;
	}
	CHECK_EQ(build(sg, MAXPRD, &total), MAXPRD);
	CHECK_EQ(check_table(MAXPRD), MAXPRD * 512);
	CHECK_EQ(build(sg, MAXPRD + 1, &total), -ENOSPC);
	/* Eight 64 KiB segments need sixteen entries: exactly full. */
	for (i = 0; i < 8; i++) {
		sg[i].sg_addr = 0x1000000 + i * 0x20000;
		sg[i].sg_len = 0x10000;
	}
	CHECK_EQ(build(sg, 8, &total), MAXPRD);
	CHECK_EQ(build(sg, 9, &total), -ENOSPC);
}

static void test_signatures(void)
{
	CHECK_EQ(ide_sig_class(0x50, 1, 1, 0x00, 0x00), ATA_DEV_ATA);
	CHECK_EQ(ide_sig_class(0x00, 1, 1, 0x14, 0xeb), ATA_DEV_ATAPI);	/* no DRDY: fine */
	CHECK_EQ(ide_sig_class(0x00, 1, 1, 0x69, 0x96), ATA_DEV_PM);	/* ata_classify's */
	CHECK_EQ(ide_sig_class(0xff, 0xff, 0xff, 0xff, 0xff), ATA_DEV_NONE);	/* floating */
	CHECK_EQ(ide_sig_class(0xff, 1, 1, 0x00, 0x00), ATA_DEV_NONE);
	CHECK_EQ(ide_sig_class(0x7f, 0x7f, 0x7f, 0x7f, 0x7f), ATA_DEV_NONE);	/* DD7 pulled down */
	/* Device 0 answering for an absent device 1: its signature, Status 00h. */
	CHECK_EQ(ide_sig_class(0x00, 1, 1, 0x00, 0x00), ATA_DEV_NONE);
	CHECK_EQ(ide_sig_class(0x00, 0, 0, 0, 0), ATA_DEV_NONE);	/* QEMU's absent slave */
	CHECK_EQ(ide_sig_class(0x50, 0, 0, 0, 0), ATA_DEV_UNKNOWN);	/* confused: IDENTIFY decides */
	CHECK_EQ(ide_sig_class(0x50, 1, 1, 0x3c, 0xc3), ATA_DEV_SEMB);
	CHECK_STR(ata_dev_class_names[ATA_DEV_ATAPI], "ATAPI");
}

static const struct unit_case cases[] = {
	{ "ide/prd/single_page", test_single_page },
	{ "ide/prd/crosses_64k", test_crosses_64k },
	{ "ide/prd/full_64k_split", test_full_64k_split },
	{ "ide/prd/many_segments", test_many_segments },
	{ "ide/prd/rejects", test_rejects },
	{ "ide/prd/table_full", test_table_full },
	{ "ide/sig/kinds", test_signatures },
};
UNIT_MAIN("ide", cases)
