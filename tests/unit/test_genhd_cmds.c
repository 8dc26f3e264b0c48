/*
 * Host tests of the registry's shell commands (block/diag/genhd_cmds.c, included
 * here so its static functions can be called): the size format, and the
 * exact output of lsblk, blkid and part for a RAM disk with a dos table,
 * captured from the console fake's kprintf.
 */
#include "block/diag/genhd_cmds.c"
#include "tests/unit/unit.h"
#include "tests/unit/host/shim.h"
#include "tests/unit/fakes/fakes.h"
#include "tests/unit/fakes/console_fake.h"
#include "tests/unit/fakes/rdisk_fake.h"
#include "block/partitions/msdos.h"

#define RD_BLOCKS	8192

static u8 *rd_data;

static void mbr_set(u64 lba, int slot, u8 type, u32 start, u32 size, u8 boot)
{
	struct mbr_part p = { .mp_boot_ind = boot, .mp_sys_ind = type };

	put_le32(&p.mp_start_lba, start);
	put_le32(&p.mp_nr_blocks, size);
	memcpy(rd_data + lba * 512 + offsetof(struct mbr, mbr_part) + slot * sizeof(p), &p,
	       sizeof(p));
	put_le16(rd_data + lba * 512 + offsetof(struct mbr, mbr_signature), MBR_SIGNATURE);
}

/* Run a command with the log captured into out. */
static int run(int (*fn)(int, char **), const char *a0, const char *a1, char *out, size_t size)
{
	char *argv[3] = { (char *)a0, (char *)a1, NULL };
	FILE *f = tmpfile();
	size_t n;
	int ret;

	host_console = f;
	ret = fn(a1 ? 2 : 1, argv);
	host_console = NULL;
	fflush(f);
	rewind(f);
	n = fread(out, 1, size - 1, f);
	out[n] = '\0';
	fclose(f);
	return ret;
}

static void test_human_size(void)
{
	char b[16];

	blk_human_size(0, b, sizeof(b));
	CHECK_STR(b, "0B");
	blk_human_size(512, b, sizeof(b));
	CHECK_STR(b, "512B");
	blk_human_size(1024, b, sizeof(b));
	CHECK_STR(b, "1K");
	blk_human_size(400ULL << 20, b, sizeof(b));
	CHECK_STR(b, "400M");
	blk_human_size(1536ULL << 20, b, sizeof(b));
	CHECK_STR(b, "1.5G");
	blk_human_size(3ULL << 40, b, sizeof(b));
	CHECK_STR(b, "3T");
	blk_human_size((1ULL << 30) - 1, b, sizeof(b));
	CHECK_STR(b, "1024M");
	blk_human_size(~0ULL, b, sizeof(b));
	CHECK_STR(b, "16E");
}

static void test_commands(void)
{
	struct rdisk *rd = rdisk_create("sda", RD_BLOCKS * 512, 512);
	struct gendisk *disk = alloc_disk(16);
	char out[2048];

	rd_data = rd->rd_data;
	put_le32(rd_data + offsetof(struct mbr, mbr_disk_sig), 0xDEADBEEF);
	mbr_set(0, 0, 0x83, 2048, 1000, MBR_BOOT_ACTIVE);
	mbr_set(0, 1, MBR_TYPE_EXTENDED, 4096, 2000, 0);
	mbr_set(4096, 0, 0x82, 64, 500, 0);
	str_copy(disk->gd_name, "sda", sizeof(disk->gd_name));
	str_copy(disk->gd_model, "QEMU HARDDISK", sizeof(disk->gd_model));
	disk->gd_major = 8;
	rdisk_attach(rd, disk);
	genhd_writable_set("sda");
	CHECK_EQ(add_disk(disk), 0);

	CHECK_EQ(run(cmd_lsblk, "lsblk", NULL, out, sizeof(out)), 0);
	CHECK_STR(out,
		  "NAME         MAJ:MIN    SIZE      SECTORS RO TYPE MODEL/NAME\n"
		  "sda              8:0      4M         8192  0 disk QEMU HARDDISK\n"
		  "sda1             8:1    500K         1000  0 part\n"
		  "sda2             8:2    512B            1  0 part\n"
		  "sda5             8:5    250K          500  0 part\n");
	CHECK_EQ(run(cmd_blkid, "blkid", "sda5", out, sizeof(out)), 0);
	CHECK_STR(out, "sda5: PARTUUID=\"deadbeef-05\" PART_TYPE=\"0x82\" "
		  "PART_TYPE_NAME=\"Linux swap\"\n");
	CHECK_EQ(run(cmd_blkid, "blkid", "sda", out, sizeof(out)), 0);
	CHECK_STR(out, "sda: PTUUID=\"deadbeef\" PTTYPE=\"dos\"\n");
	CHECK_EQ(run(cmd_part, "part", "sda", out, sizeof(out)), 0);
	CHECK_STR(out,
		  "sda: scheme dos, disk id 0xdeadbeef, 3 entries, sectors of 512 bytes\n"
		  " NR        START          END      SECTORS TYPE FLAGS NAME\n"
		  "  1         2048         3047         1000 83 (Linux) boot\n"
		  "  2         4096         6095         2000 05 (Extended) extended\n"
		  "  5         4160         4659          500 82 (Linux swap) logical\n");
	CHECK_EQ(run(cmd_part, "part", "sda1", out, sizeof(out)), -ECANCELED);
	CHECK_EQ(run(cmd_lsblk, "lsblk", "sdq", out, sizeof(out)), -ECANCELED);
	CHECK_STR(out, "lsblk: sdq: no such block device\n");

	CHECK_EQ(del_gendisk(disk), 0);
	put_disk(disk);
	genhd_writable_set(NULL);
	rdisk_destroy(rd);
	CHECK_EQ(host_slab_live_drained(), 0);
}

static const struct unit_case cases[] = {
	{ "human_size", test_human_size },
	{ "commands", test_commands },
};

UNIT_MAIN("block/genhd_cmds", cases)
