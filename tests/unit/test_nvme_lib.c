/*
 * Host tests of the NVMe driver's portable parts: the PRP builder
 * (drivers/nvme/nvme_prp.c) over every shape a request can have -- one
 * segment within a page at offset 0 and not, exactly one page, two pages,
 * many pages, several page-aligned segments, a 16 KiB controller page,
 * the list exactly full and one entry over -- and the shapes PRPs cannot
 * express; status decoding (nvme_status.c): names, errnos, DNR and the
 * one-line message; Identify parsing (nvme_ident.c): text fields, LBA
 * formats (512, 4096, metadata, odd sizes, bad index) and MDTS; the SGL
 * builder (nvme_sgl.c): one descriptor in the command, a list, the list
 * full and over, and the shapes an SGL refuses with and without dword rules.
 */
#include "tests/unit/unit.h"
#include "drivers/nvme/nvme_lib.h"
#include "kernel/errno.h"
#include "lib/event_idx.h"

#define PG	4096u
#define LIST	0x7000000ULL	/* the list's own bus address */

static u64 list[512];

/* sg[] from n {addr, len} pairs. */
static void fill_sg(struct scatterlist *sg, const u64 *pairs, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		sg[i].sg_addr = pairs[2 * i];
		sg[i].sg_len = (u32)pairs[2 * i + 1];
	}
}

/* Build sg[] from {addr, len} pairs; returns the result of the builder. */
static int build(struct nvme_prp *out, u32 page, u32 max, const u64 *pairs, u32 n)
{
	struct scatterlist sg[16];

	fill_sg(sg, pairs, n);
	memset(list, 0xa5, sizeof(list));
	return nvme_prp_build(sg, n, page, list, max, LIST, out);
}

static void test_prp_one_page(void)
{
	struct nvme_prp p;
	const u64 a[] = { 0x100000, 512 };
	const u64 b[] = { 0x100200, 3584 };	/* offset, ends exactly on the page */
	const u64 c[] = { 0x100000, PG };

	CHECK_EQ(build(&p, PG, 512, a, 1), 0);
	CHECK_EQ(p.np_prp1, 0x100000);
	CHECK_EQ(p.np_prp2, 0);
	CHECK_EQ(p.np_nlist, 0);
	CHECK_EQ(build(&p, PG, 512, b, 1), 0);
	CHECK_EQ(p.np_prp1, 0x100200);
	CHECK_EQ(p.np_prp2, 0);
	CHECK_EQ(build(&p, PG, 512, c, 1), 0);
	CHECK_EQ(p.np_prp2, 0);
}

static void test_prp_two_pages(void)
{
	struct nvme_prp p;
	const u64 a[] = { 0x100000, 2 * PG };			/* aligned, two pages */
	const u64 b[] = { 0x100e00, 1024 };			/* straddles a boundary */
	const u64 c[] = { 0x100c00, 1024, 0x300000, 2048 };	/* two segments */

	CHECK_EQ(build(&p, PG, 512, a, 1), 0);
	CHECK_EQ(p.np_prp1, 0x100000);
	CHECK_EQ(p.np_prp2, 0x101000);
	CHECK_EQ(p.np_nlist, 0);
	CHECK_EQ(list[0], 0xa5a5a5a5a5a5a5a5ULL);	/* the list is untouched */
	CHECK_EQ(build(&p, PG, 512, b, 1), 0);
	CHECK_EQ(p.np_prp1, 0x100e00);
	CHECK_EQ(p.np_prp2, 0x101000);
	CHECK_EQ(build(&p, PG, 512, c, 2), 0);
	CHECK_EQ(p.np_prp1, 0x100c00);
	CHECK_EQ(p.np_prp2, 0x300000);
}

static void test_prp_list(void)
{
	struct nvme_prp p;
	const u64 a[] = { 0x100000, 3 * PG };
	const u64 b[] = { 0x100800, 2048, 0x200000, 2 * PG, 0x500000, 100 };
	const u64 c[] = { 0x100010, 8 * PG };			/* offset: 9 pages touched */

	CHECK_EQ(build(&p, PG, 512, a, 1), 0);
	CHECK_EQ(p.np_prp1, 0x100000);
	CHECK_EQ(p.np_prp2, LIST);
	CHECK_EQ(p.np_nlist, 2);
	CHECK_EQ(list[0], 0x101000);
	CHECK_EQ(list[1], 0x102000);

	CHECK_EQ(build(&p, PG, 512, b, 3), 0);
	CHECK_EQ(p.np_prp1, 0x100800);
	CHECK_EQ(p.np_nlist, 3);
	CHECK_EQ(list[0], 0x200000);
	CHECK_EQ(list[1], 0x201000);
	CHECK_EQ(list[2], 0x500000);

	CHECK_EQ(build(&p, PG, 512, c, 1), 0);
	CHECK_EQ(p.np_nlist, 8);
	CHECK_EQ(list[7], 0x108000);
}

static void test_prp_list_limit(void)
{
	struct nvme_prp p;
	const u64 a[] = { 0x100000, 5 * PG };	/* 4 list entries */

	CHECK_EQ(build(&p, PG, 4, a, 1), 0);
	CHECK_EQ(p.np_nlist, 4);
	CHECK_EQ(build(&p, PG, 3, a, 1), -E2BIG);
	CHECK_EQ(build(&p, PG, 1, a, 1), -E2BIG);
}

static void test_prp_big_page(void)
{
	struct nvme_prp p;
	const u64 a[] = { 0x104000, 16384 + 512 };	/* a 16 KiB page and a bit */
	const u64 b[] = { 0x101000, 4096, 0x204000, 4096 };	/* 2nd not 16K aligned */

	CHECK_EQ(build(&p, 16384, 512, a, 1), 0);
	CHECK_EQ(p.np_prp2, 0x108000);
	CHECK_EQ(build(&p, 16384, 512, b, 2), -EINVAL);
	CHECK_EQ(build(&p, 3000, 512, a, 1), -EINVAL);	/* not a power of two */
}

static void test_prp_bad_shapes(void)
{
	struct nvme_prp p;
	const u64 gap_end[] = { 0x100000, 1024, 0x200000, 1024 };	/* 1st ends mid-page */
	const u64 gap_start[] = { 0x100c00, 1024, 0x200200, 512 };	/* 2nd starts mid-page */
	const u64 odd[] = { 0x100002, 512 };
	const u64 empty[] = { 0x100000, 0 };
	struct scatterlist sg = { 0x100000, 512 };

	CHECK_EQ(build(&p, PG, 512, gap_end, 2), -EINVAL);
	CHECK_EQ(build(&p, PG, 512, gap_start, 2), -EINVAL);
	CHECK_EQ(build(&p, PG, 512, odd, 1), -EINVAL);
	CHECK_EQ(build(&p, PG, 512, empty, 1), -EINVAL);
	CHECK_EQ(nvme_prp_build(&sg, 0, PG, list, 512, LIST, &p), -EINVAL);
	CHECK(!nvme_prp_ok(&sg, 0, PG));
	CHECK(nvme_prp_ok(&sg, 1, PG));
}

/* Every offset and length in sector steps over three pages: the list and prp2 add up. */
static void test_prp_exhaustive(void)
{
	u32 off, len;

	for (off = 0; off < PG; off += 512) {
		for (len = 512; len <= 3 * PG; len += 512) {
			struct nvme_prp p;
			const u64 a[] = { 0x400000 + off, len };
			u32 pages = (off + len + PG - 1) / PG;

			CHECK_EQ(build(&p, PG, 512, a, 1), 0);
			CHECK_EQ(p.np_prp1, 0x400000 + off);
			if (pages == 1) {
				CHECK_EQ(p.np_prp2, 0);
			} else if (pages == 2) {
				CHECK_EQ(p.np_prp2, 0x401000);
			} else {
				u32 i;

				CHECK_EQ(p.np_prp2, LIST);
				CHECK_EQ(p.np_nlist, pages - 1);
				for (i = 0; i < pages - 1; i++)
					CHECK_EQ(list[i], 0x401000 + (u64)i * PG);
			}
		}
	}
}

static struct nvme_sgl_desc sgl_list[8];

/* Build sg[] from {addr, len} pairs into an SGL; the list and out are filled with a marker first. */
static int build_sgl(struct nvme_sgl_desc *out, bool dword, u32 max, const u64 *pairs, u32 n)
{
	struct scatterlist sg[16];

	fill_sg(sg, pairs, n);
	memset(sgl_list, 0xa5, sizeof(sgl_list));
	memset(out, 0xa5, sizeof(*out));
	return nvme_sgl_build(sg, n, dword, sgl_list, max, LIST, out);
}

static void check_desc(const struct nvme_sgl_desc *d, u64 addr, u32 len, u8 id)
{
	CHECK_EQ(d->addr, addr);
	CHECK_EQ(d->len, len);
	CHECK_EQ(d->id, id);
	CHECK_EQ(d->rsvd[0] | d->rsvd[1] | d->rsvd[2], 0);
}

/* One contiguous segment of any size is one Data Block descriptor in the command. */
static void test_sgl_one_segment(void)
{
	struct nvme_sgl_desc d;
	const u64 big[] = { 0x100000, 512 * 1024 };
	const u64 odd[] = { 0x100c00, 1024 };

	CHECK_EQ(build_sgl(&d, false, 8, big, 1), 0);
	check_desc(&d, 0x100000, 512 * 1024, NVME_SGL_DATA_BLOCK);
	CHECK_EQ(sgl_list[0].id, 0xa5);			/* no list used */
	CHECK_EQ(build_sgl(&d, true, 8, odd, 1), 0);	/* mid-page is fine for an SGL */
	check_desc(&d, 0x100c00, 1024, NVME_SGL_DATA_BLOCK);
}

/* Several segments, of shapes PRPs cannot take: a Last Segment naming the list, one entry each. */
static void test_sgl_list(void)
{
	struct nvme_sgl_desc d;
	const u64 segs[] = { 0x100c00, 1024, 0x200200, 512, 0x300000, 65536 };
	u32 i;

	CHECK_EQ(build_sgl(&d, true, 8, segs, 3), 0);
	check_desc(&d, LIST, 3 * 16, NVME_SGL_LAST_SEGMENT);
	for (i = 0; i < 3; i++)
		check_desc(&sgl_list[i], segs[2 * i], (u32)segs[2 * i + 1], NVME_SGL_DATA_BLOCK);
	CHECK_EQ(sgl_list[3].id, 0xa5);			/* nothing past the last */
	CHECK_EQ(build_sgl(&d, false, 3, segs, 3), 0);	/* exactly full */
	CHECK_EQ(build_sgl(&d, false, 2, segs, 3), -E2BIG);
}

/* What no SGL may hold: nothing, an empty segment; with dword rules, odd addresses or lengths. */
static void test_sgl_bad_shapes(void)
{
	struct nvme_sgl_desc d;
	const u64 empty[] = { 0x100000, 512, 0x200000, 0 };
	const u64 odd_addr[] = { 0x100002, 512 };
	const u64 odd_len[] = { 0x100000, 510 };
	struct scatterlist sg = { 0x100000, 512 };

	CHECK_EQ(nvme_sgl_build(&sg, 0, false, sgl_list, 8, LIST, &d), -EINVAL);
	CHECK_EQ(build_sgl(&d, false, 8, empty, 2), -EINVAL);
	CHECK_EQ(build_sgl(&d, true, 8, odd_addr, 1), -EINVAL);
	CHECK_EQ(build_sgl(&d, true, 8, odd_len, 1), -EINVAL);
	CHECK_EQ(build_sgl(&d, false, 8, odd_addr, 1), 0);	/* SGLS 01b: no alignment rule */
	CHECK_EQ(build_sgl(&d, false, 8, odd_len, 1), 0);
}

static void test_status(void)
{
	u16 rd = NVME_STATUS(NVME_SCT_MEDIA, NVME_SC_READ_ERROR) | NVME_STATUS_DNR;
	u16 ab = NVME_STATUS(NVME_SCT_GENERIC, NVME_SC_ABORT_REQ);
	char line[160];

	CHECK_EQ(nvme_status_errno(0), 0);
	CHECK_EQ(nvme_status_errno(NVME_CQE_PHASE), 0);	/* the phase bit is not status */
	CHECK(!nvme_status_retryable(NVME_CQE_PHASE));
	CHECK_STR(nvme_status_name(rd), "Unrecovered Read Error");
	CHECK_EQ(nvme_status_errno(rd), -EIO);
	CHECK(!nvme_status_retryable(rd));
	CHECK(nvme_status_retryable(rd & (u16)~NVME_STATUS_DNR));
	CHECK_EQ(nvme_status_errno(ab), -ETIMEDOUT);
	CHECK_EQ(nvme_status_errno(NVME_STATUS(NVME_SCT_GENERIC, NVME_SC_LBA_RANGE)), -ENOSPC);
	CHECK_EQ(nvme_status_errno(NVME_STATUS(NVME_SCT_GENERIC, NVME_SC_INVALID_OPCODE)),
		 -EOPNOTSUPP);
	CHECK_EQ(nvme_status_errno(NVME_STATUS(NVME_SCT_CMD_SPECIFIC,
					       NVME_SC_ATTEMPTED_WRITE_RO)), -EROFS);
	CHECK_EQ(nvme_status_errno(NVME_STATUS(NVME_SCT_PATH, 0)), -ENODEV);
	CHECK_STR(nvme_status_name(NVME_STATUS(NVME_SCT_VENDOR, 0x12)), "Vendor Specific Status");
	CHECK_STR(nvme_status_name(NVME_STATUS(NVME_SCT_GENERIC, 0x7f)), "Generic Command Status");
	CHECK_STR(nvme_opcode_name(NVME_CMD_READ, false), "READ");
	CHECK_STR(nvme_opcode_name(NVME_ADMIN_IDENTIFY, true), "IDENTIFY");
	CHECK_STR(nvme_opcode_name(0x7f, false), "I/O");

	nvme_format_status(line, sizeof(line), "nvme0n1", NVME_CMD_READ, false, 2048, 8,
			   rd | NVME_CQE_PHASE);
	CHECK_STR(line, "nvme0n1: READ lba 2048 len 8: Unrecovered Read Error (sct 2 sc 0x81, DNR)");
	nvme_format_status(line, sizeof(line), "nvme0", NVME_ADMIN_ABORT, true, 0, 0,
			   NVME_STATUS(NVME_SCT_CMD_SPECIFIC, NVME_SC_ABORT_LIMIT));
	CHECK_STR(line, "nvme0: ABORT: Abort Command Limit Exceeded (sct 1 sc 0x03)");
	CHECK_EQ(nvme_format_status(line, 8, "nvme0", 0, false, 0, 0, rd), 7);
	CHECK_STR(line, "nvme0: ");
}

static void test_ident(void)
{
	static struct nvme_id_ns ns;
	char s[41];

	nvme_id_string(s, sizeof(s), "QEMU NVMe Ctrl                          ", 40);
	CHECK_STR(s, "QEMU NVMe Ctrl");
	nvme_id_string(s, 5, "abcdefgh", 8);
	CHECK_STR(s, "abcd");
	nvme_id_string(s, sizeof(s), "a\x01" "b  ", 5);
	CHECK_STR(s, "a?b");

	memset(&ns, 0, sizeof(ns));
	ns.nsze = 1000;
	ns.nlbaf = 1;
	ns.lbaf[0].lbads = 9;
	ns.lbaf[1].lbads = 12;
	CHECK_EQ(nvme_ns_lba_shift(&ns), 9);
	ns.flbas = 1;
	CHECK_EQ(nvme_ns_lba_shift(&ns), 12);
	ns.lbaf[1].ms = 8;
	CHECK_EQ(nvme_ns_lba_shift(&ns), -EOPNOTSUPP);
	ns.lbaf[1].ms = 0;
	ns.lbaf[1].lbads = 10;
	CHECK_EQ(nvme_ns_lba_shift(&ns), -EOPNOTSUPP);
	ns.flbas = 2;				/* past NLBAF */
	CHECK_EQ(nvme_ns_lba_shift(&ns), -EINVAL);
	ns.flbas = 0x60 | 0x0f;			/* index 63, high bits */
	ns.nlbaf = 63;
	ns.lbaf[63].lbads = 12;
	CHECK_EQ(nvme_ns_lba_shift(&ns), 12);
	ns.nsze = 0;
	CHECK_EQ(nvme_ns_lba_shift(&ns), -EINVAL);

	CHECK_EQ(nvme_mdts_bytes(0, 4096, 1u << 20), 1u << 20);
	CHECK_EQ(nvme_mdts_bytes(2, 4096, 1u << 20), 16384);
	CHECK_EQ(nvme_mdts_bytes(9, 4096, 1u << 20), 1u << 20);
	CHECK_EQ(nvme_mdts_bytes(40, 4096, 1u << 20), 1u << 20);
}

/* The event-index rule NVMe shadow doorbells use, against its definition: [old, new). */
static void test_dbbuf_need_event(void)
{
	static const u16 starts[] = { 0, 1, 250, 65530, 65535 };
	unsigned i, step, k;

	CHECK(event_idx_passed(0, 1, 0));		/* first command: ring */
	CHECK(!event_idx_passed(0, 2, 1));		/* already told about 0 */
	CHECK(event_idx_passed(5, 9, 3));
	CHECK(!event_idx_passed(9, 9, 3));		/* asked about 9, not there yet */
	CHECK(event_idx_passed(65535, 2, 65534));	/* across the wrap */
	CHECK(!event_idx_passed(3, 3, 3));		/* no move */
	for (i = 0; i < ARRAY_SIZE(starts); i++)
		for (step = 1; step < 300; step += 7)
			for (k = 0; k < 320; k++) {
				u16 old = starts[i], new = (u16)(old + step);
				u16 ei = (u16)(old - 10 + k);
				bool inside = (u16)(ei - old) < step;

				CHECK_EQ(event_idx_passed(ei, new, old), inside);
			}
}

static const struct unit_case cases[] = {
	{ "prp_one_page", test_prp_one_page },
	{ "prp_two_pages", test_prp_two_pages },
	{ "prp_list", test_prp_list },
	{ "prp_list_limit", test_prp_list_limit },
	{ "prp_big_page", test_prp_big_page },
	{ "prp_bad_shapes", test_prp_bad_shapes },
	{ "prp_exhaustive", test_prp_exhaustive },
	{ "sgl_one_segment", test_sgl_one_segment },
	{ "sgl_list", test_sgl_list },
	{ "sgl_bad_shapes", test_sgl_bad_shapes },
	{ "status", test_status },
	{ "ident", test_ident },
	{ "dbbuf_need_event", test_dbbuf_need_event },
};

UNIT_MAIN("nvme_lib", cases)
