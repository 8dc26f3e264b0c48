/*
 * Host tests of drivers/scsi/scsi_cmd.c and scsi_sense.c: the CDB bytes
 * of every command the disk driver sends (checked against the SBC-3/SPC-4
 * tables by hand), the choice between the (10) and (16) forms at the
 * 2 TiB and 65535-block edges, INQUIRY and READ CAPACITY parsing with
 * short, padded and nonsense answers, fixed and descriptor sense (with
 * truncated buffers and overrunning descriptors), the readable line, and
 * what a finished command means as an errno.
 */
#include "drivers/scsi/scsi.h"
#include "kernel/errno.h"
#include "tests/unit/unit.h"

static struct scsi_cmnd cmd;

static void check_cdb(const u8 *want, u32 n)
{
	CHECK_EQ(cmd.sc_cdb_len, n);
	CHECK(memcmp(cmd.sc_cdb, want, n) == 0);
}

static void test_simple_cdbs(void)
{
	static const u8 tur[6] = { 0 };
	static const u8 inq[6] = { 0x12, 0, 0, 0, 36, 0 };
	static const u8 rs[6] = { 0x03, 0, 0, 0, 96, 0 };
	static const u8 rc10[10] = { 0x25 };
	static const u8 rc16[16] = { 0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0 };
	static const u8 sync[10] = { 0x35 };
	static const u8 ms[6] = { 0x1a, 0x08, 0x3f, 0, 192, 0 };

	memset(&cmd, 0xee, sizeof(cmd));
	scsi_build_tur(&cmd);
	check_cdb(tur, 6);
	CHECK_EQ(cmd.sc_dir, SCSI_DIR_NONE);
	CHECK_EQ(cmd.sc_len, 0);
	CHECK_EQ(cmd.sc_result, 0);
	CHECK_EQ(cmd.sc_cdb[15], 0);		/* the rest of the CDB cleared */
	scsi_build_inquiry(&cmd, 36);
	check_cdb(inq, 6);
	CHECK_EQ(cmd.sc_dir, SCSI_DIR_IN);
	CHECK_EQ(cmd.sc_len, 36);
	scsi_build_request_sense(&cmd, 96);
	check_cdb(rs, 6);
	scsi_build_read_capacity10(&cmd);
	check_cdb(rc10, 10);
	CHECK_EQ(cmd.sc_len, 8);
	scsi_build_read_capacity16(&cmd);
	check_cdb(rc16, 16);
	CHECK_EQ(cmd.sc_len, 32);
	scsi_build_sync_cache10(&cmd);
	check_cdb(sync, 10);
	CHECK_EQ(cmd.sc_dir, SCSI_DIR_NONE);
	scsi_build_mode_sense6(&cmd, 192);
	check_cdb(ms, 6);
}

static void test_rw10(void)
{
	static const u8 r10[10] = { 0x28, 0, 0x12, 0x34, 0x56, 0x78, 0, 0x00, 0x80, 0 };
	static const u8 w10fua[10] = { 0x2a, 0x08, 0, 0, 0, 0, 0, 0xff, 0xff, 0 };

	CHECK_EQ(scsi_build_rw(&cmd, 0x12345678, 128, 512, false, false, false), 0);
	check_cdb(r10, 10);
	CHECK_EQ(cmd.sc_dir, SCSI_DIR_IN);
	CHECK_EQ(cmd.sc_len, 65536);
	CHECK_EQ(scsi_build_rw(&cmd, 0, 0xffff, 512, true, true, false), 0);
	check_cdb(w10fua, 10);
	CHECK_EQ(cmd.sc_dir, SCSI_DIR_OUT);
	/* The last block a (10) form reaches: LBA 0xffffffff, one block. */
	CHECK_EQ(scsi_build_rw(&cmd, 0xffffffffULL, 1, 512, false, false, false), 0);
	CHECK_EQ(cmd.sc_cdb[0], SCSI_OP_READ_10);
}

static void test_rw16(void)
{
	static const u8 r16[16] = { 0x88, 0, 0, 0, 0, 0x01, 0, 0, 0, 0x00, 0, 0, 0, 0x08, 0, 0 };
	static const u8 w16[16] = { 0x8a, 0x08, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0x01, 0, 0x00, 0, 0 };

	/* Past 2 TiB with 512-byte blocks: the (16) form. */
	CHECK_EQ(scsi_build_rw(&cmd, 0x100000000ULL, 8, 512, false, false, false), 0);
	check_cdb(r16, 16);
	/* Crossing the 2^32 line also needs it. */
	CHECK_EQ(scsi_build_rw(&cmd, 0xffffffffULL, 2, 512, false, false, false), 0);
	CHECK_EQ(cmd.sc_cdb[0], SCSI_OP_READ_16);
	/* More than 65535 blocks. */
	CHECK_EQ(scsi_build_rw(&cmd, 0x10, 0x10000, 512, true, true, false), 0);
	check_cdb(w16, 16);
	CHECK_EQ(cmd.sc_len, 0x10000u * 512);
	/* Forced by the device. */
	CHECK_EQ(scsi_build_rw(&cmd, 0, 1, 4096, false, false, true), 0);
	CHECK_EQ(cmd.sc_cdb[0], SCSI_OP_READ_16);
	CHECK_EQ(cmd.sc_len, 4096);
}

static void test_rw_rejects(void)
{
	CHECK_EQ(scsi_build_rw(&cmd, 0, 0, 512, false, false, false), -EINVAL);
	CHECK_EQ(scsi_build_rw(&cmd, 0, 1, 0, false, false, false), -EINVAL);
	/* 8 Mi blocks of 512 bytes are 4 GiB: more than sc_len holds. */
	CHECK_EQ(scsi_build_rw(&cmd, 0, 0x800000, 512, false, false, true), -EINVAL);
}

static void test_inquiry(void)
{
	u8 buf[36] = { 0x00, 0x80, 0x05, 0x02, 31, 0, 0, 0 };
	struct scsi_inquiry iq;

	memcpy(buf + 8, "QEMU    ", 8);
	memcpy(buf + 16, "QEMU HARDDISK   ", 16);
	memcpy(buf + 32, "2.5+", 4);
	CHECK_EQ(scsi_parse_inquiry(buf, 36, &iq), 0);
	CHECK_EQ(iq.iq_pdt, SCSI_PDT_DISK);
	CHECK(iq.iq_removable);
	CHECK_EQ(iq.iq_version, 5);
	CHECK_STR(iq.iq_vendor, "QEMU");
	CHECK_STR(iq.iq_product, "QEMU HARDDISK");
	CHECK_STR(iq.iq_revision, "2.5+");
	/* NULs pad like spaces; control bytes are shown, not trusted. */
	buf[0] = 0x7f;		/* qualifier 3, type 0x1f: no device here */
	memcpy(buf + 8, "Ab\0\0\0\0\0\0", 8);
	memcpy(buf + 16, "X\ny             ", 16);
	CHECK_EQ(scsi_parse_inquiry(buf, 36, &iq), 0);
	CHECK_EQ(iq.iq_qualifier, 3);
	CHECK_EQ(iq.iq_pdt, SCSI_PDT_NONE);
	CHECK_STR(iq.iq_vendor, "Ab");
	CHECK_STR(iq.iq_product, "X?y");
	memset(buf + 8, ' ', 28);
	CHECK_EQ(scsi_parse_inquiry(buf, 36, &iq), 0);
	CHECK_STR(iq.iq_vendor, "");
	CHECK_EQ(scsi_parse_inquiry(buf, 35, &iq), -EIO);
}

static void test_capacity10(void)
{
	u8 buf[8] = { 0x00, 0x3f, 0xff, 0xff, 0x00, 0x00, 0x02, 0x00 };
	struct scsi_capacity cap;

	CHECK_EQ(scsi_parse_capacity10(buf, 8, &cap), 0);
	CHECK_EQ(cap.cap_blocks, 0x400000);
	CHECK_EQ(cap.cap_block_len, 512);
	CHECK(!cap.cap_need16);
	buf[6] = 0x10;	/* 4096 */
	CHECK_EQ(scsi_parse_capacity10(buf, 8, &cap), 0);
	CHECK_EQ(cap.cap_block_len, 4096);
	buf[6] = 0x03;	/* 768: not a power of two */
	CHECK_EQ(scsi_parse_capacity10(buf, 8, &cap), -EIO);
	buf[6] = 0x00;
	buf[7] = 0x00;	/* 0 */
	CHECK_EQ(scsi_parse_capacity10(buf, 8, &cap), -EIO);
	CHECK_EQ(scsi_parse_capacity10(buf, 7, &cap), -EIO);
	/* All ones: the disk is bigger than (10) can say. */
	memset(buf, 0xff, 4);
	CHECK_EQ(scsi_parse_capacity10(buf, 8, &cap), 0);
	CHECK(cap.cap_need16);
}

static void test_capacity16(void)
{
	/* 3 TiB of 512-byte sectors: 0x180000000 blocks, 4 per physical, aligned at 3. */
	u8 buf[32] = { 0, 0, 0, 0x01, 0x7f, 0xff, 0xff, 0xff, 0, 0, 0x02, 0x00, 0x00, 0x02,
		       0xc0, 0x03 };
	struct scsi_capacity cap;

	CHECK_EQ(scsi_parse_capacity16(buf, 32, &cap), 0);
	CHECK_EQ(cap.cap_blocks, 0x180000000ULL);
	CHECK_EQ(cap.cap_block_len, 512);
	CHECK_EQ(cap.cap_phys_exp, 2);
	CHECK_EQ(cap.cap_lowest_aligned, 3);	/* LBPME/LBPRZ bits masked off */
	/* Only the first 12 bytes: enough. */
	CHECK_EQ(scsi_parse_capacity16(buf, 12, &cap), 0);
	CHECK_EQ(cap.cap_blocks, 0x180000000ULL);
	CHECK_EQ(cap.cap_phys_exp, 0);
	CHECK_EQ(scsi_parse_capacity16(buf, 11, &cap), -EIO);
	memset(buf, 0xff, 8);
	CHECK_EQ(scsi_parse_capacity16(buf, 32, &cap), -EIO);
}

static void test_mode_sense(void)
{
	u8 hdr[4] = { 3, 0, 0x80, 0 };

	CHECK_EQ(scsi_parse_mode_sense6_wp(hdr, 4), 1);
	hdr[2] = 0x10;	/* DPOFUA only */
	CHECK_EQ(scsi_parse_mode_sense6_wp(hdr, 4), 0);
	CHECK_EQ(scsi_parse_mode_sense6_wp(hdr, 3), -EIO);
}

static void test_sense_fixed(void)
{
	u8 s[18] = { 0xf0, 0, 0x03, 0x00, 0x00, 0x12, 0x34, 10, 0, 0, 0, 0, 0x11, 0x00 };
	struct scsi_sense_hdr ss;
	char line[128];

	CHECK(scsi_sense_decode(s, 18, &ss));
	CHECK_EQ(ss.ss_response, 0x70);
	CHECK_EQ(ss.ss_key, SCSI_SK_MEDIUM_ERROR);
	CHECK_EQ(ss.ss_asc, 0x11);
	CHECK_EQ(ss.ss_ascq, 0);
	CHECK(ss.ss_info_valid);
	CHECK_EQ(ss.ss_info, 0x1234);
	scsi_sense_str(&ss, line, sizeof(line));
	CHECK_STR(line, "Medium Error: unrecovered read error (asc 11/00) at lba 4660");
	/* VALID clear: no LBA.  Unknown ASC still prints the numbers. */
	s[0] = 0x70;
	s[12] = 0x5d;
	s[13] = 0x01;
	CHECK(scsi_sense_decode(s, 18, &ss));
	CHECK(!ss.ss_info_valid);
	scsi_sense_str(&ss, line, sizeof(line));
	CHECK_STR(line, "Medium Error: unknown condition (asc 5d/01)");
	/* ADDITIONAL SENSE LENGTH 4: ASC/ASCQ are not there and read as 0. */
	s[7] = 4;
	CHECK(scsi_sense_decode(s, 18, &ss));
	CHECK_EQ(ss.ss_asc, 0);
	/* A buffer cut after the key. */
	s[7] = 10;
	CHECK(scsi_sense_decode(s, 3, &ss));
	CHECK_EQ(ss.ss_key, SCSI_SK_MEDIUM_ERROR);
	CHECK_EQ(ss.ss_asc, 0);
	CHECK(!ss.ss_info_valid);
}

static void test_sense_descriptor(void)
{
	/* 0x72, ILLEGAL REQUEST 21/00, one information descriptor with LBA 2^33. */
	u8 s[20] = { 0x72, 0x05, 0x21, 0x00, 0, 0, 0, 12,
		     0x00, 0x0a, 0x80, 0, 0, 0, 0, 0x02, 0, 0, 0, 0 };
	struct scsi_sense_hdr ss;
	char line[128];

	CHECK(scsi_sense_decode(s, 20, &ss));
	CHECK_EQ(ss.ss_response, 0x72);
	CHECK_EQ(ss.ss_key, SCSI_SK_ILLEGAL_REQUEST);
	CHECK_EQ(ss.ss_asc, 0x21);
	CHECK(ss.ss_info_valid);
	CHECK_EQ(ss.ss_info, 0x200000000ULL);
	scsi_sense_str(&ss, line, sizeof(line));
	CHECK_STR(line, "Illegal Request: logical block address out of range (asc 21/00) "
			"at lba 8589934592");
	/* The descriptor overruns what arrived: key and ASC only. */
	CHECK(scsi_sense_decode(s, 15, &ss));
	CHECK_EQ(ss.ss_asc, 0x21);
	CHECK(!ss.ss_info_valid);
	/* An additional length past the buffer, a zero-length descriptor first. */
	s[7] = 200;
	s[8] = 0x05;
	s[9] = 0x00;
	CHECK(scsi_sense_decode(s, 20, &ss));
	CHECK(!ss.ss_info_valid);
	/* Not sense data at all. */
	s[0] = 0x00;
	CHECK(!scsi_sense_decode(s, 20, &ss));
	CHECK(!scsi_sense_decode(s, 0, &ss));
	scsi_sense_str(&ss, line, sizeof(line));
	CHECK_STR(line, "no sense data");
}

static void test_names(void)
{
	CHECK_STR(scsi_sense_key_name(SCSI_SK_UNIT_ATTENTION), "Unit Attention");
	CHECK_STR(scsi_sense_key_name(0xf), "Reserved Sense Key");
	CHECK_STR(scsi_sense_key_name(0xff), "Reserved Sense Key");
	CHECK_STR(scsi_status_name(SAM_STAT_CHECK_CONDITION), "CHECK CONDITION");
	CHECK(scsi_status_name(0x77) == NULL);
	CHECK_STR(scsi_asc_name(0x3a, 0), "medium not present");
}

static void set_sense(struct scsi_sense_hdr *ss, u8 key, u8 asc, u8 ascq)
{
	memset(ss, 0, sizeof(*ss));
	ss->ss_response = 0x70;
	ss->ss_key = key;
	ss->ss_asc = asc;
	ss->ss_ascq = ascq;
}

static void test_errno(void)
{
	struct scsi_sense_hdr ss;

	memset(&cmd, 0, sizeof(cmd));
	CHECK_EQ(scsi_cmd_errno(&cmd, NULL), 0);
	cmd.sc_result = -ENODEV;
	CHECK_EQ(scsi_cmd_errno(&cmd, NULL), -ENODEV);
	cmd.sc_result = 0;
	cmd.sc_status = SAM_STAT_BUSY;
	CHECK_EQ(scsi_cmd_errno(&cmd, NULL), -EAGAIN);
	cmd.sc_status = SAM_STAT_RESERVATION_CONFLICT;
	CHECK_EQ(scsi_cmd_errno(&cmd, NULL), -EIO);
	cmd.sc_status = SAM_STAT_CHECK_CONDITION;
	CHECK_EQ(scsi_cmd_errno(&cmd, NULL), -EIO);
	set_sense(&ss, SCSI_SK_RECOVERED_ERROR, 0x17, 0);
	CHECK_EQ(scsi_cmd_errno(&cmd, &ss), 0);
	set_sense(&ss, SCSI_SK_UNIT_ATTENTION, 0x28, 0);
	CHECK_EQ(scsi_cmd_errno(&cmd, &ss), -EAGAIN);
	set_sense(&ss, SCSI_SK_NOT_READY, 0x3a, 0);
	CHECK_EQ(scsi_cmd_errno(&cmd, &ss), -ENOMEDIUM);
	set_sense(&ss, SCSI_SK_NOT_READY, 0x04, 0x01);
	CHECK_EQ(scsi_cmd_errno(&cmd, &ss), -EAGAIN);
	set_sense(&ss, SCSI_SK_NOT_READY, 0x04, 0x02);
	CHECK_EQ(scsi_cmd_errno(&cmd, &ss), -EIO);
	set_sense(&ss, SCSI_SK_DATA_PROTECT, 0x27, 0);
	CHECK_EQ(scsi_cmd_errno(&cmd, &ss), -EROFS);
	set_sense(&ss, SCSI_SK_MEDIUM_ERROR, 0x11, 0);
	CHECK_EQ(scsi_cmd_errno(&cmd, &ss), -EIO);
}

static const struct unit_case cases[] = {
	{ "simple_cdbs", test_simple_cdbs },
	{ "rw10", test_rw10 },
	{ "rw16", test_rw16 },
	{ "rw_rejects", test_rw_rejects },
	{ "inquiry", test_inquiry },
	{ "capacity10", test_capacity10 },
	{ "capacity16", test_capacity16 },
	{ "mode_sense", test_mode_sense },
	{ "sense_fixed", test_sense_fixed },
	{ "sense_descriptor", test_sense_descriptor },
	{ "names", test_names },
	{ "errno", test_errno },
};

UNIT_MAIN("scsi", cases)
