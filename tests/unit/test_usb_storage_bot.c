/*
 * Host tests of drivers/usb/usb_storage_bot.c: the CBW bytes for a READ
 * (10), a WRITE (16) and a no-data command (checked against BOT 5.1 by
 * hand), the LUN and CDB-length limits, and every way a CSW can be wrong
 * (BOT 6.3): short or long, bad signature, stale tag, a residue larger
 * than the transfer, a residue smaller than what did not move, and a
 * status that is not meaningful.
 */
#include "drivers/scsi/scsi.h"
#include "drivers/usb/usb_storage.h"
#include "kernel/errno.h"
#include "tests/unit/unit.h"

static void test_cbw_read10(void)
{
	static const u8 want[31] = {
		0x55, 0x53, 0x42, 0x43,		/* "USBC" */
		0x78, 0x56, 0x34, 0x12,		/* tag */
		0x00, 0x10, 0x00, 0x00,		/* 4096 bytes */
		0x80, 0x02, 10,			/* in, LUN 2, 10-byte CDB */
		0x28, 0, 0, 0, 0x10, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0,
	};
	struct scsi_cmnd cmd;
	struct bot_cbw cbw;

	memset(&cmd, 0, sizeof(cmd));
	CHECK_EQ(scsi_build_rw(&cmd, 0x1000, 8, 512, false, false, false), 0);
	cmd.sc_lun = 2;
	memset(&cbw, 0xaa, sizeof(cbw));
	CHECK_EQ(bot_build_cbw(&cbw, 0x12345678, &cmd), 0);
	CHECK(memcmp(&cbw, want, 31) == 0);
}

static void test_cbw_write16_and_nodata(void)
{
	struct scsi_cmnd cmd;
	struct bot_cbw cbw;
	const u8 *b = (const u8 *)&cbw;

	memset(&cmd, 0, sizeof(cmd));
	CHECK_EQ(scsi_build_rw(&cmd, 0x100000000ULL, 1, 512, true, true, false), 0);
	CHECK_EQ(bot_build_cbw(&cbw, 1, &cmd), 0);
	CHECK_EQ(b[12], 0x00);			/* out */
	CHECK_EQ(b[14], 16);
	CHECK_EQ(b[15], SCSI_OP_WRITE_16);
	CHECK_EQ(b[16], SCSI_RW_FUA);
	CHECK_EQ(b[8] | b[9] << 8, 512);
	scsi_build_tur(&cmd);
	CHECK_EQ(bot_build_cbw(&cbw, 2, &cmd), 0);
	CHECK_EQ(b[8] | b[9] | b[10] | b[11], 0);	/* no data */
	CHECK_EQ(b[12], 0);
	CHECK_EQ(b[14], 6);
	cmd.sc_lun = 16;
	CHECK_EQ(bot_build_cbw(&cbw, 2, &cmd), -EINVAL);
	cmd.sc_lun = 0;
	cmd.sc_cdb_len = 0;
	CHECK_EQ(bot_build_cbw(&cbw, 2, &cmd), -EINVAL);
	cmd.sc_cdb_len = 17;
	CHECK_EQ(bot_build_cbw(&cbw, 2, &cmd), -EINVAL);
}

static void csw(u8 *b, u32 tag, u32 resid, u8 status)
{
	static const u8 sig[4] = { 0x55, 0x53, 0x42, 0x53 };	/* "USBS" */
	int i;

	memcpy(b, sig, 4);
	for (i = 0; i < 4; i++) {
		b[4 + i] = (u8)(tag >> (8 * i));
		b[8 + i] = (u8)(resid >> (8 * i));
	}
	b[12] = status;
}

static void test_csw(void)
{
	u8 b[16];
	u32 r;

	csw(b, 7, 0, 0);
	CHECK_EQ(bot_check_csw(b, 13, 7, 4096, 4096, &r), BOT_CSW_GOOD);
	CHECK_EQ(r, 0);
	/* The device admits 512 short. */
	csw(b, 7, 512, 0);
	CHECK_EQ(bot_check_csw(b, 13, 7, 4096, 3584, &r), BOT_CSW_GOOD);
	CHECK_EQ(r, 512);
	/* It claims all moved, but only 1024 did: the bytes win. */
	csw(b, 7, 0, 0);
	CHECK_EQ(bot_check_csw(b, 13, 7, 4096, 1024, &r), BOT_CSW_GOOD);
	CHECK_EQ(r, 3072);
	/* A residue past the transfer is clamped. */
	csw(b, 7, 0x7fffffff, 1);
	CHECK_EQ(bot_check_csw(b, 13, 7, 4096, 0, &r), BOT_CSW_FAILED);
	CHECK_EQ(r, 4096);
	csw(b, 7, 0, 2);
	CHECK_EQ(bot_check_csw(b, 13, 7, 0, 0, &r), BOT_CSW_PHASE_ERROR);
	csw(b, 7, 0, 9);
	CHECK_EQ(bot_check_csw(b, 13, 7, 0, 0, &r), BOT_CSW_PHASE_ERROR);
	/* Not valid: stale tag, bad signature, wrong size. */
	csw(b, 6, 0, 0);
	CHECK_EQ(bot_check_csw(b, 13, 7, 0, 0, &r), BOT_CSW_INVALID);
	csw(b, 7, 0, 0);
	b[3] = 'C';
	CHECK_EQ(bot_check_csw(b, 13, 7, 0, 0, &r), BOT_CSW_INVALID);
	csw(b, 7, 0, 0);
	CHECK_EQ(bot_check_csw(b, 12, 7, 0, 0, &r), BOT_CSW_INVALID);
	CHECK_EQ(bot_check_csw(b, 14, 7, 0, 0, &r), BOT_CSW_INVALID);
	/* An invalid CSW still reports what did not move. */
	CHECK_EQ(bot_check_csw(b, 0, 7, 4096, 512, &r), BOT_CSW_INVALID);
	CHECK_EQ(r, 3584);
	CHECK_STR(bot_csw_verdict_name(BOT_CSW_PHASE_ERROR), "phase error");
}

static const struct unit_case cases[] = {
	{ "cbw_read10", test_cbw_read10 },
	{ "cbw_write16_and_nodata", test_cbw_write16_and_nodata },
	{ "csw", test_csw },
};

UNIT_MAIN("usb_storage_bot", cases)
