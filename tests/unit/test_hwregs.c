/*
 * Host tests of the hardware layouts in drivers/ahci/ahcireg.h,
 * drivers/ide/idereg.h and drivers/ata/satafis.h as bytes in memory: a
 * received-FIS area as an AHCI port writes it after a failed command, a
 * command header and PRD entry as the HBA reads them, a bus-master IDE
 * PRD table, and port signatures through ata_classify().  (Sizes and
 * offsets are also asserted at compile time; these check the meaning.)
 */
#include "tests/unit/unit.h"
#include "drivers/ahci/ahcireg.h"
#include "drivers/ide/idereg.h"
#include "drivers/ata/ata.h"
#include "drivers/ata/atareg.h"
#include "drivers/ata/satafis.h"

static void test_rfis_after_error(void)
{
	/* What the port writes at FB + 40h when blkdebug fails a read (blkdebug's EIO). */
	static const u8 d2h[20] = {
		0x34, 0x40, 0x41, 0x04, 0x00, 0x10, 0x00, 0x40,
		0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0, 0, 0, 0, 0, 0,
	};
	u8 area[256] __attribute__((aligned(256)));
	const struct ahci_rfis *rf = (const struct ahci_rfis *)area;
	struct ata_taskfile tf;
	u8 st, err;

	memset(area, 0, sizeof(area));
	memcpy(area + 0x40, d2h, sizeof(d2h));
	area[0x58] = SATA_FIS_TYPE_SET_DEV_BITS;
	area[0x5c] = 0x05;			/* SActive: tags 0 and 2 done */
	CHECK_EQ(rf->rf_rfis.d2h_type, SATA_FIS_TYPE_REG_D2H);
	CHECK(rf->rf_rfis.d2h_flags & SATA_D2H_FLAGS_I);
	ata_fis_to_tf(&rf->rf_rfis, &tf, &st, &err);
	CHECK_EQ(st, ATA_STATUS_DRDY | ATA_STATUS_ERR);
	CHECK_EQ(err, ATA_ERROR_ABRT);
	CHECK_EQ(tf.tf_lba, 0x1000);
	CHECK_EQ(rf->rf_sdbfis.sdb_type, SATA_FIS_TYPE_SET_DEV_BITS);
	CHECK_EQ(rf->rf_sdbfis.sdb_sactive, 0x5);
}

static void test_cmd_header(void)
{
	struct ahci_cmd_hdr ch;
	struct ahci_prd prd;
	const u8 *b = (const u8 *)&ch;

	memset(&ch, 0, sizeof(ch));
	ch.ch_flags = SATA_FIS_H2D_DWORDS | AHCI_CMD_HDR_W | AHCI_CMD_HDR_C |
		      (2u << AHCI_CMD_HDR_PMP_SHIFT) | (3u << AHCI_CMD_HDR_PRDTL_SHIFT);
	ch.ch_ctba = 0x12345680;
	ch.ch_ctbau = 0x1;
	CHECK_EQ(b[0], 0x45);			/* CFL 5, W */
	CHECK_EQ(b[1], 0x24);			/* C, PMP 2 */
	CHECK_EQ(b[2] | b[3] << 8, 3);		/* PRDTL */
	CHECK_EQ(b[8], 0x80);
	CHECK_EQ(b[12], 0x01);
	CHECK_EQ(ch.ch_ctba % AHCI_CMD_TABLE_ALIGN, 0);

	/* A 4 MiB entry: DBC holds count - 1, odd as the spec requires. */
	memset(&prd, 0, sizeof(prd));
	prd.prd_dba = 0x00200000;
	prd.prd_flags = (AHCI_PRD_MAX_BYTES - 1) | AHCI_PRD_I;
	CHECK_EQ(prd.prd_flags & AHCI_PRD_DBC_MASK, 0x3fffff);
	CHECK((prd.prd_flags & AHCI_PRD_DBC_MASK) & 1);
	CHECK_EQ(((const u8 *)&prd)[15], 0x80);
	CHECK_EQ(AHCI_PORT_OFFSET(0), 0x100);
	CHECK_EQ(AHCI_PORT_OFFSET(5), 0x380);
	CHECK_EQ(AHCI_ABAR_MIN_SIZE(6), 0x400);
	CHECK_EQ(AHCI_CMD_LIST_SIZE, 1024);
	CHECK_EQ(sizeof(struct ahci_cmd_table) % AHCI_CMD_TABLE_ALIGN, 0);
}

static void test_ide_prd(void)
{
	struct ide_prd t[2];
	const u8 *b = (const u8 *)t;

	/* A 64 KiB region split in two 32 KiB entries, the last with EOT. */
	t[0].prd_addr = 0x00300000;
	t[0].prd_count = 0x8000;
	t[0].prd_flags = 0;
	t[1].prd_addr = 0x00308000;
	t[1].prd_count = 0x8000;
	t[1].prd_flags = IDE_PRD_EOT;
	CHECK_EQ(b[2], 0x30);
	CHECK_EQ(b[5], 0x80);
	CHECK_EQ(b[15], 0x80);
	CHECK_EQ(b[7], 0x00);
	CHECK_EQ(IDE_PRDT_MAX, 8192);
	CHECK_EQ(IDE_PRI_CTL_BASE + IDE_REG_DEVCTL, 0x3f6);
	CHECK_EQ(IDE_SEC_CTL_BASE + IDE_REG_ALTSTATUS, 0x376);
	CHECK_EQ(IDE_SEC_CMD_BASE + IDE_REG_STATUS, 0x177);
}

/* PxSIG = LBA high << 24 | LBA mid << 16 | LBA low << 8 | Count (AHCI 3.3.9). */
static enum ata_dev_class classify_sig(u32 sig, u8 status)
{
	return ata_classify((u8)(sig >> 16), (u8)(sig >> 24), status);
}

static void test_signatures(void)
{
	CHECK_EQ(classify_sig(AHCI_SIG_ATA, 0x50), ATA_DEV_ATA);
	CHECK_EQ(classify_sig(AHCI_SIG_ATAPI, 0x00), ATA_DEV_ATAPI);
	CHECK_EQ(classify_sig(AHCI_SIG_PM, 0x50), ATA_DEV_PM);
	CHECK_EQ(classify_sig(AHCI_SIG_SEMB, 0x50), ATA_DEV_SEMB);
	CHECK_EQ(classify_sig(0xffffffff, 0x7f), ATA_DEV_NONE);
}

static const struct unit_case cases[] = {
	{ "rfis_after_error", test_rfis_after_error },
	{ "cmd_header", test_cmd_header },
	{ "ide_prd", test_ide_prd },
	{ "signatures", test_signatures },
};

UNIT_MAIN("hwregs", cases)
