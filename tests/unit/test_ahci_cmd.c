/*
 * Host tests of drivers/ahci/ahci_cmd.c: the PRD table (DBC = count - 1
 * with bit 0 set, word-aligned addresses, 4 MiB per entry, the upper
 * address dword, what 32-bit HBAs cannot reach), the command header (CFL
 * 5, W, PRDTL, both table dwords), the NCQ tag in a FIS that ata_rw built,
 * signature names, recovery's choice of which commands an error costs,
 * and ahci_link.c: which errors are the link's, and the slower speed.
 */
#include "drivers/ahci/ahci_priv.h"
#include "drivers/ata/atareg.h"
#include "kernel/errno.h"
#include "tests/unit/unit.h"

static struct ahci_prd prd[8];

static void test_prdt_basic(void)
{
	struct scatterlist sg[2] = {
		{ .sg_addr = 0x12345000, .sg_len = 4096 },
		{ .sg_addr = 0x7000, .sg_len = 512 },
	};
	u32 bytes = 0;

	memset(prd, 0xff, sizeof(prd));
	CHECK_EQ(ahci_fill_prdt(prd, 8, sg, 2, false, &bytes), 2);
	CHECK_EQ(bytes, 4608);
	CHECK_EQ(prd[0].prd_dba, 0x12345000);
	CHECK_EQ(prd[0].prd_dbau, 0);
	CHECK_EQ(prd[0].prd_rsvd8, 0);
	CHECK_EQ(prd[0].prd_flags, 4095);	/* count - 1, no interrupt bit */
	CHECK_EQ(prd[1].prd_flags & 1, 1);	/* bit 0 of DBC always 1: even count */
	CHECK_EQ(prd[1].prd_flags, 511);
}

static void test_prdt_high_address(void)
{
	struct scatterlist sg = { .sg_addr = 0x123456000ULL, .sg_len = 8192 };
	u32 bytes;

	CHECK_EQ(ahci_fill_prdt(prd, 8, &sg, 1, true, &bytes), 1);
	CHECK_EQ(prd[0].prd_dba, 0x23456000);
	CHECK_EQ(prd[0].prd_dbau, 1);
	/* Without S64A the HBA cannot reach it: the block layer must bounce. */
	CHECK_EQ(ahci_fill_prdt(prd, 8, &sg, 1, false, &bytes), -EINVAL);
	/* A segment ending exactly at 4 GiB is fine; one crossing it is not. */
	sg.sg_addr = 0xFFFFF000ULL;
	sg.sg_len = 4096;
	CHECK_EQ(ahci_fill_prdt(prd, 8, &sg, 1, false, &bytes), 1);
	sg.sg_len = 8192;
	CHECK_EQ(ahci_fill_prdt(prd, 8, &sg, 1, false, &bytes), -EINVAL);
}

static void test_prdt_rejects(void)
{
	struct scatterlist sg = { .sg_addr = 0x1000, .sg_len = 511 };
	u32 bytes;

	CHECK_EQ(ahci_fill_prdt(prd, 8, &sg, 1, true, &bytes), -EINVAL);	/* odd count */
	sg.sg_len = 512;
	sg.sg_addr = 0x1001;
	CHECK_EQ(ahci_fill_prdt(prd, 8, &sg, 1, true, &bytes), -EINVAL);	/* odd address */
	sg.sg_addr = 0x1000;
	sg.sg_len = 0;
	CHECK_EQ(ahci_fill_prdt(prd, 8, &sg, 1, true, &bytes), -EINVAL);	/* empty */
}

static void test_prdt_split_4mib(void)
{
	struct scatterlist sg = { .sg_addr = 0x40000000, .sg_len = 9u << 20 };
	u32 bytes;

	CHECK_EQ(ahci_fill_prdt(prd, 8, &sg, 1, false, &bytes), 3);
	CHECK_EQ(bytes, 9u << 20);
	CHECK_EQ(prd[0].prd_flags, AHCI_PRD_MAX_BYTES - 1);
	CHECK_EQ(prd[1].prd_dba, 0x40000000 + AHCI_PRD_MAX_BYTES);
	CHECK_EQ(prd[1].prd_flags, AHCI_PRD_MAX_BYTES - 1);
	CHECK_EQ(prd[2].prd_flags, (1u << 20) - 1);
	/* The table is too short for it. */
	CHECK_EQ(ahci_fill_prdt(prd, 2, &sg, 1, false, &bytes), -E2BIG);
}

static void test_hdr(void)
{
	struct ahci_cmd_hdr h;

	memset(&h, 0xff, sizeof(h));
	ahci_fill_hdr(&h, 0x1234567880ULL, 7, true);
	CHECK_EQ(h.ch_flags & AHCI_CMD_HDR_CFL_MASK, 5);	/* H2D FIS: 5 dwords */
	CHECK(h.ch_flags & AHCI_CMD_HDR_W);
	CHECK_EQ(h.ch_flags >> AHCI_CMD_HDR_PRDTL_SHIFT, 7);
	CHECK_EQ(h.ch_flags & (AHCI_CMD_HDR_A | AHCI_CMD_HDR_R | AHCI_CMD_HDR_B |
			       AHCI_CMD_HDR_C | AHCI_CMD_HDR_PMP_MASK), 0);
	CHECK_EQ(h.ch_prdbc, 0);
	CHECK_EQ(h.ch_ctba, 0x34567880);
	CHECK_EQ(h.ch_ctbau, 0x12);
	CHECK_EQ(h.ch_rsvd16[0] | h.ch_rsvd16[1] | h.ch_rsvd16[2] | h.ch_rsvd16[3], 0);
	ahci_fill_hdr(&h, 0x1000, 0, false);
	CHECK_EQ(h.ch_flags, 5);
}

static void test_ncq_fis_tag(void)
{
	struct ata_id ai = { .ai_sectors = 1ULL << 40, .ai_logical_size = 512,
			     .ai_lba48 = true, .ai_dma = true, .ai_ncq = true, .ai_ncq_depth = 32 };
	struct ata_taskfile tf;
	struct sata_fis_h2d fis;

	CHECK_EQ(ata_rw(&tf, &ai, 0x123456789ULL, 128, ATA_RW_WRITE | ATA_RW_FUA |
			ATA_RW_DMA | ATA_RW_NCQ, 0), 0);
	ata_tf_to_fis(&tf, 0, &fis);
	ahci_fis_set_tag(&fis, 29);
	CHECK_EQ(fis.h2d_type, SATA_FIS_TYPE_REG_H2D);
	CHECK_EQ(fis.h2d_command, ATA_CMD_WRITE_FPDMA_QUEUED);
	CHECK_EQ(fis.h2d_count, 29 << 3);
	CHECK_EQ(fis.h2d_count_exp, 0);
	CHECK_EQ(fis.h2d_features, 128);	/* the sector count travels in Features */
	CHECK(fis.h2d_device & ATA_DEVICE_FUA);
	CHECK_EQ(fis.h2d_lba0 | fis.h2d_lba1 << 8 | fis.h2d_lba2 << 16 | (u64)fis.h2d_lba3 << 24 |
		 (u64)fis.h2d_lba4 << 32 | (u64)fis.h2d_lba5 << 40, 0x123456789ULL);
}

static void test_eh_pick(void)
{
	u32 failed, requeue;

	/* The log names an outstanding tag: only it fails. */
	CHECK_EQ(ahci_eh_pick(0x0000f0f1, true, false, 5, &failed, &requeue), 0);
	CHECK_EQ(failed, 1u << 5);
	CHECK_EQ(requeue, 0x0000f0d1);
	/* A log naming a tag we never issued, or a non-queued failure, or no log. */
	CHECK_EQ(ahci_eh_pick(0x3, true, false, 9, &failed, &requeue), -ENOENT);
	CHECK_EQ(failed, 0);
	CHECK_EQ(requeue, 0x3);
	CHECK_EQ(ahci_eh_pick(0x3, true, true, 0, &failed, &requeue), -ENOENT);
	CHECK_EQ(ahci_eh_pick(0x3, false, false, 0, &failed, &requeue), -ENOENT);
	/* One command out: it is the one, log or not. */
	CHECK_EQ(ahci_eh_pick(1u << 31, false, false, 0, &failed, &requeue), 0);
	CHECK_EQ(failed, 1u << 31);
	CHECK_EQ(requeue, 0);
	/* Nothing out (a link event): nothing to fail. */
	CHECK_EQ(ahci_eh_pick(0, false, false, 0, &failed, &requeue), -ENOENT);
	CHECK_EQ(failed | requeue, 0);
	/* A hostile log tag beyond 31 is ignored. */
	CHECK_EQ(ahci_eh_pick(0x3, true, false, 200, &failed, &requeue), -ENOENT);
}

/* Interface errors, link damage in SError and ICRC are the link's; a media error is not. */
static void test_link_error(void)
{
	const u32 icrc = (u32)(ATA_ERROR_ICRC | ATA_ERROR_ABRT) << AHCI_PREG_TFD_ERR_SHIFT;
	const u32 unc = (u32)ATA_ERROR_UNC << AHCI_PREG_TFD_ERR_SHIFT;

	CHECK(ahci_link_error(AHCI_PREG_IS_IFS, 0, 0x50));
	CHECK(ahci_link_error(AHCI_PREG_IS_INFS, 0, 0x50));
	CHECK(ahci_link_error(AHCI_PREG_IS_TFES, AHCI_PREG_SERR_DIAG_C, 0x51));
	CHECK(ahci_link_error(AHCI_PREG_IS_TFES, AHCI_PREG_SERR_ERR_C, 0x51));
	CHECK(ahci_link_error(AHCI_PREG_IS_TFES, 0, icrc | 0x51));
	CHECK(!ahci_link_error(AHCI_PREG_IS_TFES, 0, unc | 0x51));	/* a bad sector */
	CHECK(!ahci_link_error(AHCI_PREG_IS_TFES, 0, icrc | 0x50));	/* no ERR: stale */
	CHECK(!ahci_link_error(AHCI_PREG_IS_HBFS, AHCI_PREG_SERR_DIAG_N, 0x50));
	CHECK(!ahci_link_error(0, 0, 0x50));				/* a timeout */
}

/* One step below the link's speed, or below the limit held; none below Gen1. */
static void test_link_slower(void)
{
	const u32 up = AHCI_PREG_SSTS_DET_PHY | AHCI_PREG_SSTS_IPM_ACTIVE;

	CHECK_EQ(ahci_link_slower(up | 3 << AHCI_PREG_SSTS_SPD_SHIFT, 0), 2);
	CHECK_EQ(ahci_link_slower(up | 2 << AHCI_PREG_SSTS_SPD_SHIFT, 0), 1);
	CHECK_EQ(ahci_link_slower(up | 1 << AHCI_PREG_SSTS_SPD_SHIFT, 0), 0);
	CHECK_EQ(ahci_link_slower(up | 3 << AHCI_PREG_SSTS_SPD_SHIFT, 2), 1);	/* limit below */
	CHECK_EQ(ahci_link_slower(up | 2 << AHCI_PREG_SSTS_SPD_SHIFT, 3), 1);	/* limit above */
	CHECK_EQ(ahci_link_slower(0, 2), 1);		/* link down: from the limit */
	CHECK_EQ(ahci_link_slower(0, 0), 0);		/* link down, no limit: nothing known */
	CHECK(!strcmp(ahci_link_speed_name(2), "3.0 Gbps"));
	CHECK(!strcmp(ahci_link_speed_name(9), "unknown speed"));
}

static const struct unit_case cases[] = {
	{ "prdt_basic", test_prdt_basic },
	{ "prdt_high_address", test_prdt_high_address },
	{ "prdt_rejects", test_prdt_rejects },
	{ "prdt_split_4mib", test_prdt_split_4mib },
	{ "hdr", test_hdr },
	{ "ncq_fis_tag", test_ncq_fis_tag },
	{ "eh_pick", test_eh_pick },
	{ "link_error", test_link_error },
	{ "link_slower", test_link_slower },
};

UNIT_MAIN("ahci_cmd", cases)
