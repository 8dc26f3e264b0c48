/*
 * Host tests of the shared ATA code: IDENTIFY parsing over blocks shaped
 * like the ones QEMU's ide-hd returns (hw/ide/core.c ide_identify, as seen
 * from a guest, 3 TiB disks included),
 * built by hand from ATA8-ACS 7.16, plus edge cases (4Kn, 512e, odd string
 * padding, integrity word, hostile values); command construction (LBA28
 * versus LBA48 at the boundaries, FUA, NCQ, PIO), FIS packing, the NCQ
 * error log, and status/error decoding.
 */
#include "tests/unit/unit.h"
#include "tests/unit/host/shim.h"
#include "drivers/ata/ata.h"
#include "drivers/ata/atareg.h"
#include "drivers/ata/satafis.h"
#include "kernel/errno.h"

static u16 id[ATA_ID_WORDS];

/* An ATA string: two characters per word, first in the high byte, space padded. */
static void put_str(unsigned word, unsigned nwords, const char *s)
{
	unsigned i, n = strlen(s);

	for (i = 0; i < nwords * 2; i++) {
		u8 c = i < n ? (u8)s[i] : ' ';

		if (i % 2 == 0)
			id[word + i / 2] = (u16)(c << 8);
		else
			id[word + i / 2] |= c;
	}
}

static void put_sectors(u64 n)
{
	u64 n28 = n >= (1u << 28) ? (1u << 28) - 1 : n;

	id[60] = (u16)n28;
	id[61] = (u16)(n28 >> 16);
	id[100] = (u16)n;
	id[101] = (u16)(n >> 16);
	id[102] = (u16)(n >> 32);
	id[103] = (u16)(n >> 48);
}

/* What QEMU 7.2's ide-hd answers (write cache on; NCQ when behind AHCI). */
static void qemu_disk(u64 sectors, bool ahci)
{
	memset(id, 0, sizeof(id));
	id[0] = 0x0040;
	put_str(10, 10, "QM00001");
	id[20] = 3;
	id[21] = 512;
	id[22] = 4;
	put_str(23, 4, "2.5+");
	put_str(27, 20, "QEMU HARDDISK");
	id[47] = 0x8000 | 16;
	id[48] = 1;
	id[49] = (1 << 11) | (1 << 9) | (1 << 8);
	id[51] = 0x200;
	id[52] = 0x200;
	id[53] = 1 | (1 << 1) | (1 << 2);
	id[62] = 0x07;
	id[63] = 0x07;
	id[64] = 0x03;
	id[65] = id[66] = id[67] = id[68] = 120;
	if (ahci) {
		id[75] = 31;
		id[76] = 1 << 8;
	}
	id[80] = 0xf0;
	id[81] = 0x16;
	id[82] = (1 << 14) | (1 << 5) | 1;
	id[83] = (1 << 14) | (1 << 13) | (1 << 12) | (1 << 10);
	id[84] = 1 << 14;
	id[85] = (1 << 14) | (1 << 5) | 1;
	id[86] = (1 << 13) | (1 << 12) | (1 << 10);
	id[87] = 1 << 14;
	id[88] = 0x3f | (1 << 13);
	id[93] = 1 | (1 << 14) | 0x2000;
	id[106] = 0x6000;
	put_sectors(sectors);
}

static void set_integrity(void)
{
	u8 sum = 0;
	unsigned i;

	id[255] = 0x00a5;
	for (i = 0; i < 255; i++)
		sum = (u8)(sum + (id[i] & 0xff) + (id[i] >> 8));
	sum = (u8)(sum + 0xa5);
	id[255] |= (u16)((u8)(0x100 - sum) << 8);
}

static void test_qemu_ide_disk(void)
{
	struct ata_id ai;

	qemu_disk(131072, false);	/* 64 MiB */
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK_STR(ai.ai_model, "QEMU HARDDISK");
	CHECK_STR(ai.ai_serial, "QM00001");
	CHECK_STR(ai.ai_firmware, "2.5+");
	CHECK_EQ(ai.ai_sectors, 131072);
	CHECK_EQ(ata_id_capacity512(&ai), 131072);
	CHECK_EQ(ai.ai_logical_size, 512);
	CHECK_EQ(ai.ai_physical_size, 512);
	CHECK(ai.ai_lba48);
	CHECK(ai.ai_dma);
	CHECK(ai.ai_wcache && ai.ai_wcache_on);
	CHECK(ai.ai_flush && ai.ai_flush_ext);
	CHECK(!ai.ai_fua);
	CHECK(!ai.ai_ncq);
	CHECK_EQ(ai.ai_udma_modes, 0x3f);
	CHECK_EQ(ai.ai_udma_active, 5);
	CHECK_EQ(ai.ai_mwdma_modes, 0x07);
	CHECK_EQ(ai.ai_mwdma_active, -1);
	CHECK_EQ(ai.ai_max_multiple, 16);
	CHECK(!ai.ai_ssd);
}

/* HDIO_GETGEO's CHS: words 1/3/6 when they fit, else 255/63 (Linux). */
static void test_geometry(void)
{
	struct ata_id ai;
	u32 c, h, s;

	qemu_disk(131072, false);
	id[1] = 130;
	id[3] = 16;
	id[6] = 63;
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	ata_id_geometry(&ai, &c, &h, &s);
	CHECK_EQ(c, 130);
	CHECK_EQ(h, 16);
	CHECK_EQ(s, 63);
	id[1] = id[3] = id[6] = 0;		/* not reported */
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	ata_id_geometry(&ai, &c, &h, &s);
	CHECK_EQ(h, 255);
	CHECK_EQ(s, 63);
	CHECK_EQ(c, 131072 / (255 * 63));
	qemu_disk(1ull << 32, false);	/* 2 TiB: cylinders capped */
	id[1] = 16383;
	id[3] = 16;
	id[6] = 63;
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	ata_id_geometry(&ai, &c, &h, &s);
	CHECK_EQ(h, 16);			/* 16383/16/63 still fits in the disk */
	id[3] = 255;				/* more heads than CHS addresses */
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	ata_id_geometry(&ai, &c, &h, &s);
	CHECK_EQ(h, 255);
	CHECK_EQ(c, 65535);
}

static void test_qemu_ahci_ncq(void)
{
	struct ata_id ai;

	qemu_disk(2097152, true);
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK(ai.ai_ncq);
	CHECK_EQ(ai.ai_ncq_depth, 32);
	id[75] = 3;
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK_EQ(ai.ai_ncq_depth, 4);
	id[76] = 0xffff;	/* "not reported", though bit 8 reads 1 */
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK(!ai.ai_ncq);
}

/* truncate -s 3T: words 60-61 saturate, 100-103 hold 0x180000000. */
static void test_beyond_2tib(void)
{
	struct ata_id ai;
	struct ata_taskfile tf;

	qemu_disk(0x180000000ull, true);
	CHECK_EQ(id[60], 0xffff);
	CHECK_EQ(id[61], 0x0fff);
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK(ai.ai_sectors == 0x180000000ull);
	CHECK(ata_id_capacity512(&ai) == 0x180000000ull);
	CHECK_EQ(ata_rw(&tf, &ai, 0x17fffffffull, 1, ATA_RW_DMA, 0), 0);
	CHECK_EQ(tf.tf_command, ATA_CMD_READ_DMA_EXT);
	CHECK(tf.tf_lba == 0x17fffffffull);
	CHECK(tf.tf_flags & ATA_TF_LBA48);
	CHECK_EQ(ata_rw(&tf, &ai, 0x180000000ull, 1, ATA_RW_DMA, 0), -ERANGE);
	CHECK_EQ(ata_rw(&tf, &ai, 0x17fffffffull, 2, ATA_RW_DMA, 0), -ERANGE);
	/* Without the 48-bit feature set the LBA28 count is all there is. */
	id[83] &= (u16)~(1 << 10);
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK(!ai.ai_lba48 && !ai.ai_flush_ext && !ai.ai_ncq);
	CHECK_EQ(ai.ai_sectors, 0x0fffffff);
}

static void test_4kn(void)
{
	struct ata_id ai;

	qemu_disk(1000000, true);
	id[106] = 0x4000 | ATA_ID_SS_LONG_LOGICAL;
	id[117] = 2048;		/* words per logical sector: 4096 bytes */
	id[118] = 0;
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK_EQ(ai.ai_logical_size, 4096);
	CHECK_EQ(ai.ai_physical_size, 4096);
	CHECK_EQ(ai.ai_sectors, 1000000);
	CHECK_EQ(ata_id_capacity512(&ai), 8000000);
	/* 520-byte sectors and nonsense sizes are refused, not guessed at. */
	id[117] = 260;
	CHECK_EQ(ata_id_parse(id, &ai), -EOPNOTSUPP);
	CHECK_EQ(ai.ai_sectors, 0);
	id[117] = 0;
	id[118] = 0x8000;
	CHECK_EQ(ata_id_parse(id, &ai), -EOPNOTSUPP);
	id[117] = 128;
	id[118] = 0;
	CHECK_EQ(ata_id_parse(id, &ai), -EOPNOTSUPP);
	/* The size words without the valid marker are ignored. */
	id[106] = 0x8000 | ATA_ID_SS_LONG_LOGICAL;
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK_EQ(ai.ai_logical_size, 512);
}

static void test_512e(void)
{
	struct ata_id ai;
	char buf[64];

	qemu_disk(1 << 20, true);
	id[106] = 0x4000 | ATA_ID_SS_MULTIPLE | 3;	/* 8 logical per physical */
	id[209] = 0x4000 | 1;				/* LBA 0 at offset 1 */
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK_EQ(ai.ai_logical_size, 512);
	CHECK_EQ(ai.ai_physical_size, 4096);
	CHECK_EQ(ai.ai_align_offset, 1);
	/* LBA 0 one sector into a physical sector: LBA 7 (byte 3584) starts the next */
	CHECK_EQ(ata_id_alignment_offset(&ai), 3584);
	ata_id_media_str(&ai, buf, sizeof(buf));
	CHECK_STR(buf, ", 4096-byte physical sectors (the first at byte 3584)");
	id[217] = 1;					/* non-rotating */
	id[209] = 0x4000;
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK_EQ(ata_id_alignment_offset(&ai), 0);
	ata_id_media_str(&ai, buf, sizeof(buf));
	CHECK_STR(buf, ", 4096-byte physical sectors, non-rotating");
	id[217] = 0;
	id[209] = 0x4000 | 9;				/* beyond the physical sector */
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK_EQ(ai.ai_align_offset, 0);
	id[106] = 0x4000 | ATA_ID_SS_MULTIPLE | 15;	/* 32768 per physical: ignored */
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK_EQ(ai.ai_physical_size, 512);
}

static void test_strings(void)
{
	struct ata_id ai;
	char s[41];

	qemu_disk(2048, false);
	/* Leading spaces, NUL padding instead of spaces, a control character. */
	put_str(27, 20, "   WDC WD10EZEX-08WN4A0");
	id[27 + 12] = 0;
	id[27 + 13] = 0;
	id[27 + 19] = 0;
	put_str(10, 10, "");
	put_str(23, 4, "01.01A01");
	id[25] = (u16)(('\x07' << 8) | 'A');
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK_STR(ai.ai_model, "WDC WD10EZEX-08WN4A0");
	CHECK_STR(ai.ai_serial, "");
	CHECK_STR(ai.ai_firmware, "01.0?A01");
	/* An odd number of characters: the last word holds one plus a space. */
	put_str(27, 20, "ABCDE");
	ata_id_string(id, 27, 3, s);
	CHECK_STR(s, "ABCDE");
	put_str(27, 20, "Samsung SSD 870 EVO 1TB                 ");
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK_STR(ai.ai_model, "Samsung SSD 870 EVO 1TB");
	CHECK_EQ(strlen(ai.ai_model), 23);
}

static void test_rejects(void)
{
	struct ata_id ai;

	qemu_disk(2048, false);
	set_integrity();
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK(!ai.ai_csum_bad);
	/* A bad checksum is noted, not fatal (libata warns and goes on). */
	id[100] ^= 1;		/* one bit flipped after the checksum */
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK(ai.ai_csum_bad);
	CHECK_EQ(ai.ai_sectors, 2049);
	/* Clearly garbage: nothing answered with data. */
	memset(id, 0, sizeof(id));
	CHECK_EQ(ata_id_parse(id, &ai), -EIO);
	memset(id, 0xff, sizeof(id));
	CHECK_EQ(ata_id_parse(id, &ai), -EIO);

	qemu_disk(2048, false);
	id[0] = 0x85c0;		/* what an ATAPI CD-ROM returns for IDENTIFY PACKET */
	CHECK_EQ(ata_id_parse(id, &ai), -ENODEV);
	/* A CompactFlash card sets bit 15 too, and is an ATA disk all the same. */
	qemu_disk(2048, false);
	id[0] = 0x848a;
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK_EQ(ai.ai_sectors, 2048);
	id[0] = 0x844a;
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	qemu_disk(2048, false);
	id[0] |= ATA_ID_CONFIG_INCOMPLETE;
	CHECK_EQ(ata_id_parse(id, &ai), -EIO);
	qemu_disk(2048, false);
	id[49] &= (u16)~(1 << 9);
	CHECK_EQ(ata_id_parse(id, &ai), -EOPNOTSUPP);
	qemu_disk(0, false);	/* an empty image: no sectors at all */
	CHECK_EQ(ata_id_parse(id, &ai), -ENOMEDIUM);
	/* Word 83 all ones is "not valid": no 48-bit, no flush claims. */
	qemu_disk(2048, false);
	id[83] = 0xffff;
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK(!ai.ai_lba48 && !ai.ai_flush && !ai.ai_wcache);
	/* Word 103 is outside 48 bits and is not part of the count. */
	qemu_disk(4096, false);
	id[103] = 0xffff;
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK_EQ(ai.ai_sectors, 4096);
}

static void test_fua_flag(void)
{
	struct ata_id ai;

	qemu_disk(4096, false);
	id[84] |= 1 << 6;
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK(ai.ai_fua);
	id[84] = 0;		/* invalid marker: the enabled copy in 87 still counts */
	id[87] |= 1 << 6;
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK(ai.ai_fua);
	id[83] &= (u16)~(1 << 10);	/* FUA commands are 48-bit only */
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK(!ai.ai_fua);
}

static struct ata_id disk(u64 sectors, bool ahci, bool fua)
{
	struct ata_id ai;

	qemu_disk(sectors, ahci);
	if (fua)
		id[84] |= 1 << 6;
	ata_id_parse(id, &ai);
	return ai;
}

static void test_lba28_boundary(void)
{
	struct ata_id ai = disk(1ull << 30, false, false);
	struct ata_taskfile tf;

	/* Ends at 0x0FFFFFFE: still LBA28. */
	CHECK_EQ(ata_rw(&tf, &ai, 0x0fffff00, 0xff, ATA_RW_DMA, 0), 0);
	CHECK_EQ(tf.tf_command, ATA_CMD_READ_DMA);
	CHECK_EQ(tf.tf_device, ATA_DEVICE_LBA | 0x0f);
	CHECK_EQ(tf.tf_count, 0xff);
	CHECK_EQ(tf.tf_lba, 0x0fffff00);
	CHECK(!(tf.tf_flags & ATA_TF_LBA48));
	CHECK_EQ(tf.tf_protocol, ATA_PROT_DMA);
	/* Touches 0x0FFFFFFF: the 48-bit form. */
	CHECK_EQ(ata_rw(&tf, &ai, 0x0fffff01, 0xff, ATA_RW_DMA | ATA_RW_WRITE, 0), 0);
	CHECK_EQ(tf.tf_command, ATA_CMD_WRITE_DMA_EXT);
	CHECK_EQ(tf.tf_device, ATA_DEVICE_LBA);
	CHECK(tf.tf_flags & ATA_TF_LBA48 && tf.tf_flags & ATA_TF_WRITE);
	/* 256 sectors is LBA28 with a count of 0; 257 needs EXT. */
	CHECK_EQ(ata_rw(&tf, &ai, 0x12345678 & 0x0fffffff, 256, ATA_RW_DMA, 0), 0);
	CHECK_EQ(tf.tf_command, ATA_CMD_READ_DMA);
	CHECK_EQ(tf.tf_count, 0);
	CHECK_EQ(tf.tf_nsect, 256);
	CHECK_EQ(tf.tf_device, ATA_DEVICE_LBA | 0x02);
	CHECK_EQ(ata_rw(&tf, &ai, 0, 257, ATA_RW_DMA, 0), 0);
	CHECK_EQ(tf.tf_command, ATA_CMD_READ_DMA_EXT);
	CHECK_EQ(tf.tf_count, 257);
	CHECK_EQ(ata_rw(&tf, &ai, 0, 65536, ATA_RW_DMA, 0), 0);
	CHECK_EQ(tf.tf_count, 0);
	CHECK_EQ(ata_rw(&tf, &ai, 0, 65537, ATA_RW_DMA, 0), -EINVAL);
	CHECK_EQ(ata_rw(&tf, &ai, 0, 0, ATA_RW_DMA, 0), -EINVAL);
	/* PIO */
	CHECK_EQ(ata_rw(&tf, &ai, 10, 1, 0, 0), 0);
	CHECK_EQ(tf.tf_command, ATA_CMD_READ_SECTORS);
	CHECK_EQ(tf.tf_protocol, ATA_PROT_PIO);
	CHECK_EQ(ata_rw(&tf, &ai, 0x10000000, 1, ATA_RW_WRITE, 0), 0);
	CHECK_EQ(tf.tf_command, ATA_CMD_WRITE_SECTORS_EXT);
}

static void test_lba28_only_disk(void)
{
	struct ata_id ai;
	struct ata_taskfile tf;

	qemu_disk(1 << 20, false);
	id[83] &= (u16)~((1 << 10) | (1 << 13));
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK_EQ(ata_rw(&tf, &ai, 0, 300, ATA_RW_DMA, 0), -EINVAL);
	CHECK_EQ(ata_rw(&tf, &ai, 0, 256, ATA_RW_DMA | ATA_RW_WRITE | ATA_RW_FUA, 0),
		 -EOPNOTSUPP);
	ata_flush(&tf, &ai);
	CHECK_EQ(tf.tf_command, ATA_CMD_FLUSH_CACHE);
	CHECK_EQ(tf.tf_protocol, ATA_PROT_NODATA);
	CHECK(!(tf.tf_flags & ATA_TF_LBA48));
	ai = disk(1 << 20, false, false);
	ata_flush(&tf, &ai);
	CHECK_EQ(tf.tf_command, ATA_CMD_FLUSH_CACHE_EXT);
	CHECK(tf.tf_flags & ATA_TF_LBA48);
}

static void test_fua(void)
{
	struct ata_id ai = disk(1 << 20, false, true);
	struct ata_taskfile tf;

	CHECK_EQ(ata_rw(&tf, &ai, 0, 8, ATA_RW_DMA | ATA_RW_WRITE | ATA_RW_FUA, 0), 0);
	CHECK_EQ(tf.tf_command, ATA_CMD_WRITE_DMA_FUA_EXT);
	CHECK(tf.tf_flags & ATA_TF_LBA48);
	CHECK_EQ(ata_rw(&tf, &ai, 0, 8, ATA_RW_DMA | ATA_RW_FUA, 0), -EINVAL);
	CHECK_EQ(ata_rw(&tf, &ai, 0, 8, ATA_RW_WRITE | ATA_RW_FUA, 0), -EOPNOTSUPP);
	ai = disk(1 << 20, false, false);
	CHECK_EQ(ata_rw(&tf, &ai, 0, 8, ATA_RW_DMA | ATA_RW_WRITE | ATA_RW_FUA, 0),
		 -EOPNOTSUPP);
	CHECK_EQ(tf.tf_command, 0);
}

static void test_ncq(void)
{
	struct ata_id ai = disk(1ull << 33, true, false);
	struct ata_taskfile tf;

	CHECK_EQ(ata_rw(&tf, &ai, 0x123456789aull, 8, ATA_RW_NCQ | ATA_RW_WRITE | ATA_RW_FUA, 5),
		 -ERANGE);
	CHECK_EQ(ata_rw(&tf, &ai, 0x1234567ull, 8, ATA_RW_NCQ | ATA_RW_WRITE | ATA_RW_FUA, 5), 0);
	CHECK_EQ(tf.tf_command, ATA_CMD_WRITE_FPDMA_QUEUED);
	CHECK_EQ(tf.tf_protocol, ATA_PROT_NCQ);
	CHECK_EQ(tf.tf_feature, 8);
	CHECK_EQ(tf.tf_count, 5 << 3);
	CHECK_EQ(tf.tf_device, ATA_DEVICE_LBA | ATA_DEVICE_FUA);
	CHECK(tf.tf_flags & ATA_TF_LBA48);
	CHECK_EQ(ata_rw(&tf, &ai, 0, 65536, ATA_RW_NCQ, 31), 0);
	CHECK_EQ(tf.tf_command, ATA_CMD_READ_FPDMA_QUEUED);
	CHECK_EQ(tf.tf_feature, 0);
	CHECK_EQ(tf.tf_count, 31 << 3);
	CHECK_EQ(tf.tf_device, ATA_DEVICE_LBA);
	CHECK_EQ(ata_rw(&tf, &ai, 0, 1, ATA_RW_NCQ, 32), -EINVAL);
	id[75] = 7;
	ata_id_parse(id, &ai);
	CHECK_EQ(ata_rw(&tf, &ai, 0, 1, ATA_RW_NCQ, 8), -EINVAL);
	ai = disk(1 << 20, false, false);
	CHECK_EQ(ata_rw(&tf, &ai, 0, 1, ATA_RW_NCQ, 0), -EOPNOTSUPP);
}

static void test_fis_h2d(void)
{
	struct ata_id ai = disk(1ull << 46, true, false);
	struct ata_taskfile tf;
	struct sata_fis_h2d fis;
	const u8 *b = (const u8 *)&fis;
	static const u8 want48[20] = {
		0x27, 0x83, 0x61, 0x10, 0x66, 0x55, 0x44, 0xc0,
		0x33, 0x22, 0x11, 0x00, 0x38, 0x00, 0x00, 0x00, 0, 0, 0, 0,
	};
	static const u8 want28[20] = {
		0x27, 0x80, 0xc8, 0x00, 0x03, 0x02, 0x01, 0x4a,
		0x00, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0, 0, 0, 0,
	};

	CHECK_EQ(ata_rw(&tf, &ai, 0x112233445566ull, 16,
			ATA_RW_NCQ | ATA_RW_WRITE | ATA_RW_FUA, 7), 0);
	ata_tf_to_fis(&tf, 3, &fis);
	CHECK(memcmp(b, want48, 20) == 0);
	CHECK_EQ(SATA_FIS_H2D_DWORDS, 5);
	CHECK_EQ(ata_rw(&tf, &ai, 0x0a010203, 128, ATA_RW_DMA, 0), 0);
	ata_tf_to_fis(&tf, 0, &fis);
	CHECK(memcmp(b, want28, 20) == 0);
}

static void test_fis_d2h(void)
{
	struct sata_fis_d2h d = {
		.d2h_type = SATA_FIS_TYPE_REG_D2H, .d2h_flags = SATA_D2H_FLAGS_I,
		.d2h_status = 0x41, .d2h_error = 0x40, .d2h_lba0 = 0x00, .d2h_lba1 = 0x10,
		.d2h_lba2 = 0x00, .d2h_device = 0x40, .d2h_lba3 = 0x80, .d2h_lba4 = 0x01,
		.d2h_lba5 = 0x00, .d2h_count = 0x08,
	};
	struct ata_taskfile tf;
	u8 st, err;

	ata_fis_to_tf(&d, &tf, &st, &err);
	CHECK_EQ(st, 0x41);
	CHECK_EQ(err, 0x40);
	CHECK(tf.tf_lba == 0x180001000ull);
	CHECK_EQ(tf.tf_count, 8);
}

static void test_read_log(void)
{
	struct ata_taskfile tf;
	struct sata_fis_h2d fis;

	ata_read_log_ext(&tf, ATA_LOG_SATA_NCQ, 0, 1);
	CHECK_EQ(tf.tf_command, ATA_CMD_READ_LOG_EXT);
	CHECK_EQ(tf.tf_lba, 0x10);
	CHECK_EQ(tf.tf_count, 1);
	CHECK_EQ(tf.tf_nsect, 1);
	CHECK_EQ(tf.tf_protocol, ATA_PROT_PIO);
	ata_read_log_ext(&tf, 0xe0, 0x1234, 2);
	ata_tf_to_fis(&tf, 0, &fis);
	CHECK_EQ(fis.h2d_lba0, 0xe0);
	CHECK_EQ(fis.h2d_lba1, 0x34);
	CHECK_EQ(fis.h2d_lba2, 0);
	CHECK_EQ(fis.h2d_lba3, 0);
	CHECK_EQ(fis.h2d_lba4, 0x12);
	CHECK_EQ(fis.h2d_count, 2);
	ata_identify(&tf, false);
	CHECK_EQ(tf.tf_command, ATA_CMD_IDENTIFY_DEVICE);
	CHECK_EQ(tf.tf_nsect, 1);
	ata_identify(&tf, true);
	CHECK_EQ(tf.tf_command, ATA_CMD_IDENTIFY_PACKET);
	ata_set_features(&tf, ATA_SF_SET_XFER_MODE, ATA_XFER_UDMA | 5);
	CHECK_EQ(tf.tf_command, ATA_CMD_SET_FEATURES);
	CHECK_EQ(tf.tf_feature, 0x03);
	CHECK_EQ(tf.tf_count, 0x45);
	CHECK_EQ(tf.tf_protocol, ATA_PROT_NODATA);
}

static void test_ncq_log(void)
{
	u8 log[512];
	struct ata_ncq_err ne;
	unsigned i;
	u8 sum = 0;

	memset(log, 0, sizeof(log));
	log[0] = 17;
	log[2] = 0x41;
	log[3] = 0x40;
	log[4] = 0x78; log[5] = 0x56; log[6] = 0x34;
	log[7] = 0x40;
	log[8] = 0x12; log[9] = 0x01; log[10] = 0x00;
	log[12] = 8;
	for (i = 0; i < 511; i++)
		sum = (u8)(sum + log[i]);
	log[511] = (u8)(0x100 - sum);
	CHECK_EQ(ata_ncq_log_parse(log, &ne), 0);
	CHECK(!ne.ne_nq);
	CHECK_EQ(ne.ne_tag, 17);
	CHECK_EQ(ne.ne_status, 0x41);
	CHECK_EQ(ne.ne_error, 0x40);
	CHECK(ne.ne_lba == 0x112345678ull);
	CHECK_EQ(ne.ne_count, 8);
	log[0] |= ATA_NCQ_LOG_NQ;
	log[511] = (u8)(log[511] - ATA_NCQ_LOG_NQ);
	CHECK_EQ(ata_ncq_log_parse(log, &ne), 0);
	CHECK(ne.ne_nq);
	log[100] = 1;
	CHECK_EQ(ata_ncq_log_parse(log, &ne), -EIO);
	CHECK_EQ(ne.ne_tag, 0);
}

static void test_decode(void)
{
	char b[64];

	ata_status_str(0x41, b, sizeof(b));
	CHECK_STR(b, "DRDY ERR");
	ata_status_str(0x50, b, sizeof(b));
	CHECK_STR(b, "DRDY DSC");
	ata_status_str(0xff, b, sizeof(b));
	CHECK_STR(b, "BSY DRDY DF DSC DRQ CORR IDX ERR");
	ata_status_str(0, b, sizeof(b));
	CHECK_STR(b, "none");
	ata_error_str(0x04, b, sizeof(b));
	CHECK_STR(b, "ABRT");
	ata_error_str(0x54, b, sizeof(b));
	CHECK_STR(b, "UNC IDNF ABRT");
	ata_error_str(0x84, b, sizeof(b));
	CHECK_STR(b, "ICRC ABRT");
	/* Truncated output stays terminated and reports the full length. */
	CHECK_EQ(ata_status_str(0xff, b, 8), 32);
	CHECK_STR(b, "BSY DRD");
	CHECK_EQ(ata_error_str(0x54, NULL, 0), 13);
	CHECK_STR(ata_cmd_name(0x60), "READ FPDMA QUEUED");
	CHECK_STR(ata_cmd_name(0xea), "FLUSH CACHE EXT");
	CHECK_STR(ata_cmd_name(0xc8), "READ DMA");
	CHECK_STR(ata_cmd_name(0xfe), "unknown command");
}

static void test_result_lba(void)
{
	struct ata_taskfile tf;

	memset(&tf, 0, sizeof(tf));
	tf.tf_lba = 0xab123456;		/* junk above bit 23 in a 28-bit result */
	tf.tf_device = ATA_DEVICE_LBA | 0x0c;
	CHECK_EQ(ata_tf_result_lba(&tf), 0x0c123456);
	tf.tf_flags = ATA_TF_LBA48;
	tf.tf_lba = 0xffff17fffffffull;
	CHECK(ata_tf_result_lba(&tf) == 0xf17fffffffull + 0xff0000000000ull);
	tf.tf_lba = 0x180001000ull;
	CHECK(ata_tf_result_lba(&tf) == 0x180001000ull);
}

static void test_xfer_mode(void)
{
	struct ata_id ai = disk(4096, false, false);

	CHECK_EQ(ata_xfer_mode(&ai, 0x3f, 0x07), ATA_XFER_UDMA | 5);
	CHECK_EQ(ata_xfer_mode(&ai, 0x07, 0x07), ATA_XFER_UDMA | 2);	/* 40-wire cable */
	CHECK_EQ(ata_xfer_mode(&ai, 0x00, 0x07), ATA_XFER_MWDMA | 2);
	CHECK_EQ(ata_xfer_mode(&ai, 0x00, 0x01), ATA_XFER_MWDMA | 0);
	CHECK_EQ(ata_xfer_mode(&ai, 0x00, 0x00), -EOPNOTSUPP);
	ai.ai_dma = false;
	CHECK_EQ(ata_xfer_mode(&ai, 0x3f, 0x07), -EOPNOTSUPP);
}

static void test_err_describe(void)
{
	char b[128];

	ata_err_describe(b, sizeof(b), ATA_CMD_READ_FPDMA_QUEUED, 0x41, 0x40, 4096);
	CHECK_STR(b, "READ FPDMA QUEUED failed at sector 4096: status DRDY ERR, error UNC");
	/* What QEMU's blkdebug injection shows: ABRT. */
	ata_err_describe(b, sizeof(b), ATA_CMD_WRITE_DMA_EXT, 0x41, 0x04, 0x17fffffffull);
	CHECK_STR(b, "WRITE DMA EXT failed at sector 6442450943: status DRDY ERR, error ABRT");
	/* No ERR (a device fault, a timeout): the error register is not shown. */
	ata_err_describe(b, sizeof(b), ATA_CMD_FLUSH_CACHE_EXT, 0x60, 0x04, 0);
	CHECK_STR(b, "FLUSH CACHE EXT failed at sector 0: status DRDY DF");
	ata_err_describe(b, sizeof(b), ATA_CMD_READ_DMA, 0x81, 0x04, 7);
	CHECK_STR(b, "READ DMA failed at sector 7: status BSY ERR");
	CHECK(ata_err_describe(b, 10, ATA_CMD_READ_DMA, 0x41, 0x04, 7) > 10);
	CHECK_EQ(strlen(b), 9);
}

static void test_classify(void)
{
	/* AHCI PxSIG values QEMU reports: 00000101 disk, EB140101 CD (AHCI 1.3.1 3.3.9). */
	CHECK_EQ(ata_classify(0x00, 0x00, 0x50), ATA_DEV_ATA);
	CHECK_EQ(ata_classify(0x14, 0xeb, 0x00), ATA_DEV_ATAPI);
	CHECK_EQ(ata_classify(0x69, 0x96, 0x50), ATA_DEV_PM);
	CHECK_EQ(ata_classify(0x3c, 0xc3, 0x50), ATA_DEV_SEMB);
	CHECK_EQ(ata_classify(0xff, 0xff, 0xff), ATA_DEV_NONE);	/* floating IDE bus */
	CHECK_EQ(ata_classify(0x00, 0x00, 0x7f), ATA_DEV_NONE);	/* AHCI: no device */
	CHECK_EQ(ata_classify(0x12, 0x34, 0x50), ATA_DEV_UNKNOWN);
	CHECK_STR(ata_dev_class_names[ATA_DEV_ATAPI], "ATAPI");
	CHECK_STR(ata_dev_class_names[ATA_DEV_NONE], "none");
}

/* Word 93 (libata's ata_drive_40wire): bits 14:13 = 11b is an 80-wire cable. */
static void test_cable(void)
{
	struct ata_id ai;

	qemu_disk(2048, false);
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK(ai.ai_cable80);			/* QEMU's 0x6001 */
	id[93] = 0x4001;			/* valid, CBLID clear: 40-wire */
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK(!ai.ai_cable80);
	id[93] = 0xe001;			/* bit 15 set: not a valid word */
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK(!ai.ai_cable80);
}

/* libata's ata_down_xfermask_limit(ATA_DNXFER_DMA), one step at a time. */
static void test_xfer_down(void)
{
	struct ata_id ai = disk(4096, false, false);
	char b[16];
	int m = ATA_XFER_UDMA | 5, steps = 0;

	CHECK_EQ(ata_xfer_down(&ai, m, 0x07), ATA_XFER_UDMA | 4);
	while ((m = ata_xfer_down(&ai, m, 0x07)) >= 0)
		steps++;
	CHECK_EQ(steps, 5 + 3);			/* UDMA 4..0, MWDMA 2..0 */
	CHECK_EQ(ata_xfer_down(&ai, ATA_XFER_UDMA | 0, 0x07), ATA_XFER_MWDMA | 2);
	CHECK_EQ(ata_xfer_down(&ai, ATA_XFER_UDMA | 0, 0x00), -EOPNOTSUPP);
	CHECK_EQ(ata_xfer_down(&ai, ATA_XFER_MWDMA | 0, 0x07), -EOPNOTSUPP);
	CHECK_EQ(ata_xfer_down(&ai, -1, 0x07), -EOPNOTSUPP);
	ata_xfer_name(ATA_XFER_UDMA | 5, b, sizeof(b));
	CHECK_STR(b, "UDMA/5");
	ata_xfer_name(ATA_XFER_MWDMA | 2, b, sizeof(b));
	CHECK_STR(b, "MWDMA/2");
	ata_xfer_name(-1, b, sizeof(b));
	CHECK_STR(b, "PIO");
	CHECK_EQ(ata_xfer_active(&ai), ATA_XFER_UDMA | 5);
}

/*
 * A fake device behind ata_dev's ad_exec: QEMU's answers to IDENTIFY and
 * SET FEATURES (which, as QEMU does, updates word 88 and the write-cache
 * bit), every command logged, refusals on request.
 */
struct fake_dev {
	struct ata_dev	fd_ad;
	u16		fd_id[ATA_ID_WORDS];
	u8		fd_cmds[16][2];		/* command, feature */
	unsigned	fd_ncmds;
	bool		fd_refuse_xfer, fd_refuse_wc_off;
	unsigned	fd_identifies;		/* IDENTIFYs answered */
	unsigned	fd_swap_at;		/* from this IDENTIFY on, another serial */
};

static int fake_exec(struct ata_dev *ad, const struct ata_taskfile *tf, u16 *buf)
{
	struct fake_dev *f = container_of(ad, struct fake_dev, fd_ad);

	if (f->fd_ncmds < ARRAY_SIZE(f->fd_cmds)) {
		f->fd_cmds[f->fd_ncmds][0] = tf->tf_command;
		f->fd_cmds[f->fd_ncmds++][1] = (u8)tf->tf_feature;
	}
	if (tf->tf_command == ATA_CMD_IDENTIFY_DEVICE) {
		if (++f->fd_identifies == f->fd_swap_at)
			f->fd_id[ATA_ID_SERIAL] ^= 0x0100;	/* "QM00001" -> "PM00001" */
		memcpy(buf, f->fd_id, sizeof(f->fd_id));
		return 0;
	}
	if (tf->tf_command != ATA_CMD_SET_FEATURES)
		return -EIO;
	if (tf->tf_feature == ATA_SF_SET_XFER_MODE) {
		if (f->fd_refuse_xfer || (tf->tf_count & 0xf8) != ATA_XFER_UDMA)
			return -EIO;
		f->fd_id[88] = (u16)(0x3f | 1 << (8 + (tf->tf_count & 7)));
		return 0;
	}
	if (tf->tf_feature == ATA_SF_DISABLE_WCACHE && !f->fd_refuse_wc_off) {
		f->fd_id[85] &= (u16)~ATA_ID_ENABLED_1_WCACHE;
		return 0;
	}
	return -EIO;
}

/* A QEMU disk with its write cache, but FLUSH CACHE (EXT) not listed. */
static void fake_dev_init(struct fake_dev *f, bool flush)
{
	qemu_disk(2048, false);
	if (!flush)
		id[83] &= (u16)~(ATA_ID_CMDSET_2_FLUSH | ATA_ID_CMDSET_2_FLUSH_EXT);
	memset(f, 0, sizeof(*f));
	memcpy(f->fd_id, id, sizeof(id));
	f->fd_ad.ad_name = "hdz";
	f->fd_ad.ad_exec = fake_exec;
	f->fd_ad.ad_xfer = ATA_XFER_UDMA | 2;
}

static bool fake_sent(const struct fake_dev *f, u8 cmd, u8 feature)
{
	unsigned i;

	for (i = 0; i < f->fd_ncmds; i++)
		if (f->fd_cmds[i][0] == cmd && f->fd_cmds[i][1] == feature)
			return true;
	return false;
}

/* Attach: the mode is selected and read back. */
static void test_dev_setup_mode(void)
{
	struct fake_dev f;
	struct ata_id ai;

	fake_dev_init(&f, true);
	CHECK_EQ(ata_dev_identify(&f.fd_ad, &ai), 0);
	CHECK_EQ(ai.ai_udma_active, 5);
	CHECK_EQ(ata_dev_setup(&f.fd_ad, &ai), 0);
	CHECK(fake_sent(&f, ATA_CMD_SET_FEATURES, ATA_SF_SET_XFER_MODE));
	CHECK(!fake_sent(&f, ATA_CMD_SET_FEATURES, ATA_SF_DISABLE_WCACHE));
	CHECK_EQ(ai.ai_udma_active, 2);		/* what the disk says now */
	CHECK(ai.ai_wcache_on);			/* it can flush: the cache stays */
	/* A refused mode: PIO, and the driver is told by ad_xfer. */
	fake_dev_init(&f, true);
	f.fd_refuse_xfer = true;
	CHECK_EQ(ata_dev_identify(&f.fd_ad, &ai), 0);
	CHECK_EQ(ata_dev_setup(&f.fd_ad, &ai), 0);
	CHECK_EQ(f.fd_ad.ad_xfer, -1);
	/* ... unless refusing is allowed (SATA). */
	fake_dev_init(&f, true);
	f.fd_refuse_xfer = true;
	f.fd_ad.ad_xfer_optional = true;
	CHECK_EQ(ata_dev_identify(&f.fd_ad, &ai), 0);
	CHECK_EQ(ata_dev_setup(&f.fd_ad, &ai), 0);
	CHECK_EQ(f.fd_ad.ad_xfer, ATA_XFER_UDMA | 2);
}

/* A write cache without FLUSH CACHE: off, write-through; else kept and flushed. */
static void test_dev_setup_wcache(void)
{
	struct fake_dev f;
	struct ata_id ai;
	struct ata_taskfile tf;

	fake_dev_init(&f, false);
	CHECK_EQ(ata_dev_identify(&f.fd_ad, &ai), 0);
	CHECK(ai.ai_wcache_on && !ai.ai_flush && !ai.ai_flush_ext);
	CHECK_EQ(ata_dev_setup(&f.fd_ad, &ai), 0);
	CHECK(fake_sent(&f, ATA_CMD_SET_FEATURES, ATA_SF_DISABLE_WCACHE));
	CHECK(f.fd_ad.ad_wcache_off);
	CHECK(!ai.ai_wcache_on);		/* nothing to flush: write-through */

	fake_dev_init(&f, false);
	f.fd_refuse_wc_off = true;
	CHECK_EQ(ata_dev_identify(&f.fd_ad, &ai), 0);
	CHECK_EQ(ata_dev_setup(&f.fd_ad, &ai), 0);
	CHECK(!f.fd_ad.ad_wcache_off);
	CHECK(ai.ai_wcache_on);			/* the queue keeps flushing ... */
	CHECK_EQ(ai.ai_udma_active, 2);		/* (and the mode still went out) */
	ata_flush(&tf, &ai);
	CHECK_EQ(tf.tf_command, ATA_CMD_FLUSH_CACHE);	/* ... with FLUSH CACHE */
}

/* After a reset: the same disk gets its settings again; another one is refused. */
static void test_dev_revalidate(void)
{
	struct fake_dev f;
	struct ata_id ai;

	fake_dev_init(&f, false);
	CHECK_EQ(ata_dev_identify(&f.fd_ad, &ai), 0);
	CHECK_EQ(ata_dev_setup(&f.fd_ad, &ai), 0);
	/* The reset put the device back to its defaults. */
	f.fd_id[88] = 0x3f | 1 << (8 + 5);
	f.fd_id[85] |= ATA_ID_ENABLED_1_WCACHE;
	f.fd_ncmds = 0;
	CHECK_EQ(ata_dev_revalidate(&f.fd_ad, &ai), 0);
	CHECK_EQ(f.fd_cmds[0][0], ATA_CMD_IDENTIFY_DEVICE);	/* who is it, first */
	CHECK(fake_sent(&f, ATA_CMD_SET_FEATURES, ATA_SF_SET_XFER_MODE));
	CHECK(fake_sent(&f, ATA_CMD_SET_FEATURES, ATA_SF_DISABLE_WCACHE));
	CHECK_EQ(ai.ai_udma_active, 2);
	CHECK(!ai.ai_wcache_on);

	/* Another serial number: nothing is sent to it but IDENTIFY. */
	f.fd_ncmds = 0;
	f.fd_swap_at = f.fd_identifies + 1;
	CHECK_EQ(ata_dev_revalidate(&f.fd_ad, &ai), -ENODEV);
	CHECK_EQ(f.fd_ncmds, 1);
	CHECK_STR(ai.ai_serial, "QM00001");	/* the old identity is kept */
	/* The message names what answered, then what was expected. */
	CHECK(strstr(host_printk_last, "hdz: another device answers after the reset: "
		     "\"QEMU HARDDISK\" serial \"PM00001\", 2048 sectors of 512 bytes, "
		     "not \"QEMU HARDDISK\" serial \"QM00001\", 2048 of 512: disk failed") != NULL);
	/*
	 * The same device at first, another one in the IDENTIFY after the
	 * settings: that one is named.
	 */
	fake_dev_init(&f, true);
	CHECK_EQ(ata_dev_identify(&f.fd_ad, &ai), 0);
	f.fd_swap_at = f.fd_identifies + 2;
	host_printk_last[0] = '\0';
	CHECK_EQ(ata_dev_revalidate(&f.fd_ad, &ai), -ENODEV);
	CHECK_EQ(f.fd_identifies, f.fd_swap_at);
	CHECK_STR(ai.ai_serial, "QM00001");
	CHECK(strstr(host_printk_last, "serial \"PM00001\", 2048 sectors of 512 bytes, "
		     "not \"QEMU HARDDISK\" serial \"QM00001\"") != NULL);
	/* The same for another capacity. */
	fake_dev_init(&f, true);
	CHECK_EQ(ata_dev_identify(&f.fd_ad, &ai), 0);
	f.fd_id[60]++;
	f.fd_id[100]++;
	CHECK_EQ(ata_dev_revalidate(&f.fd_ad, &ai), -ENODEV);
}

/* IDENTIFY words 169, 105 and 69 (ACS-3 7.12.7): TRIM and what reads return after. */
static void test_trim_identify(void)
{
	struct ata_id ai;

	qemu_disk(2097152, true);
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK(!ai.ai_trim);
	id[169] = 1;
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK(ai.ai_trim);
	CHECK_EQ(ai.ai_trim_max_blocks, 1);		/* word 105 = 0: one block */
	CHECK(!ai.ai_trim_drat && !ai.ai_trim_rzat);
	id[105] = 8;
	id[69] = 1 << 14;
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK_EQ(ai.ai_trim_max_blocks, 8);
	CHECK(ai.ai_trim_drat && !ai.ai_trim_rzat);
	id[69] = (1 << 14) | (1 << 5);
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK(ai.ai_trim_rzat);
	id[69] = 1 << 5;				/* zeroes without deterministic: no */
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK(!ai.ai_trim_rzat);
	id[69] = 0xffff;				/* not reported */
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK(!ai.ai_trim_drat && !ai.ai_trim_rzat);
	id[83] &= (u16)~(1 << 10);			/* DSM is a 48-bit command */
	id[86] &= (u16)~(1 << 10);
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK(!ai.ai_trim);
	id[169] = 0xffff;
	id[83] |= 1 << 10;
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK(!ai.ai_trim);
}

/* The DSM command (ACS-3 7.5) and its LBA Range Entries. */
static void test_trim_cmd(void)
{
	struct ata_taskfile tf;
	struct ata_id ai;
	u8 buf[2 * 512];
	u64 e;
	int i;

	qemu_disk(1ull << 34, true);
	id[169] = 1;
	id[105] = 2;
	CHECK_EQ(ata_id_parse(id, &ai), 0);
	CHECK_EQ(ata_dsm_trim(&tf, &ai, 1), 0);
	CHECK_EQ(tf.tf_command, 0x06);
	CHECK_EQ(tf.tf_feature, 1);
	CHECK_EQ(tf.tf_count, 1);
	CHECK_EQ(tf.tf_protocol, ATA_PROT_DMA);
	CHECK(tf.tf_flags & ATA_TF_LBA48);
	CHECK(tf.tf_flags & ATA_TF_WRITE);
	CHECK_EQ(ata_dsm_trim(&tf, &ai, 2), 0);
	CHECK_EQ(ata_dsm_trim(&tf, &ai, 3), -EINVAL);	/* over word 105 */
	CHECK_EQ(ata_dsm_trim(&tf, &ai, 0), -EINVAL);
	ai.ai_trim = false;
	CHECK_EQ(ata_dsm_trim(&tf, &ai, 1), -EOPNOTSUPP);

	CHECK_EQ(ata_trim_max_sectors(1), 64ull * 65535);
	/* 200000 sectors at a 40-bit LBA: 65535 + 65535 + 65535 + 3395. */
	memset(buf, 0xee, sizeof(buf));
	CHECK_EQ(ata_trim_fill(buf, 1, 0x12345678abull, 200000), 4);
	for (i = 0; i < 3; i++) {
		memcpy(&e, buf + 8 * i, 8);
		CHECK_EQ(e & 0xffffffffffffull, 0x12345678abull + 65535ull * (u64)i);
		CHECK_EQ(e >> 48, 65535);
	}
	memcpy(&e, buf + 24, 8);
	CHECK_EQ(e >> 48, 200000 - 3 * 65535);
	for (i = 32; i < 512; i++)
		CHECK_EQ(buf[i], 0);			/* unused entries are zero */
	CHECK_EQ(buf[512], 0xee);			/* one block: nothing past it */
	/* Exactly a full payload, and one sector more. */
	CHECK_EQ(ata_trim_fill(buf, 2, 0, 128ull * 65535), 128);
	CHECK_EQ(ata_trim_fill(buf, 2, 0, 128ull * 65535 + 1), -ERANGE);
	CHECK_EQ(ata_trim_fill(buf, 1, 0, 0), -EINVAL);
	CHECK_EQ(ata_trim_fill(buf, 1, (1ull << 48) - 1, 2), -ERANGE);	/* past 48 bits */
	CHECK_EQ(ata_trim_fill(buf, 1, (1ull << 48) - 1, 1), 1);
}

static const struct unit_case cases[] = {
	{ "trim_identify", test_trim_identify },
	{ "trim_cmd", test_trim_cmd },
	{ "qemu_ide_disk", test_qemu_ide_disk },
	{ "qemu_ahci_ncq", test_qemu_ahci_ncq },
	{ "geometry", test_geometry },
	{ "beyond_2tib", test_beyond_2tib },
	{ "4kn", test_4kn },
	{ "512e", test_512e },
	{ "strings", test_strings },
	{ "rejects", test_rejects },
	{ "fua_flag", test_fua_flag },
	{ "lba28_boundary", test_lba28_boundary },
	{ "lba28_only_disk", test_lba28_only_disk },
	{ "fua", test_fua },
	{ "ncq", test_ncq },
	{ "fis_h2d", test_fis_h2d },
	{ "fis_d2h", test_fis_d2h },
	{ "read_log", test_read_log },
	{ "ncq_log", test_ncq_log },
	{ "decode", test_decode },
	{ "result_lba", test_result_lba },
	{ "xfer_mode", test_xfer_mode },
	{ "err_describe", test_err_describe },
	{ "classify", test_classify },
	{ "cable", test_cable },
	{ "xfer_down", test_xfer_down },
	{ "dev_setup_mode", test_dev_setup_mode },
	{ "dev_setup_wcache", test_dev_setup_wcache },
	{ "dev_revalidate", test_dev_revalidate },
};

UNIT_MAIN("ata", cases)
