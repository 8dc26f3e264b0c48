/*
 * Host tests of the gendisk registry and block devices (block/genhd.c,
 * block/bdev.c) on RAM disks: names, majors, the writable= policy,
 * lookups, claim rules, remap bounds, rescan, removal with open devices,
 * and no leaks (every case ends with nothing allocated).
 */
#include "tests/unit/unit.h"
#include "tests/unit/fakes/fakes.h"
#include "tests/unit/fakes/rdisk_fake.h"
#include "block/bdev.h"
#include "block/blkdev_io.h"
#include "block/partitions/msdos.h"
#include "kernel/errno.h"
#include "kernel/mm/page.h"
#include "lib/string.h"

#define SD_MAJOR	8
#define RD_BLOCKS	8192		/* 4 MiB of 512-byte blocks */

/* A disk under test: its store (read by the scan through the block core) and counters. */
struct ramdisk {
	struct rdisk	*rd_disk;
	u8		*rd_data;	/* rd_disk's image */
	int		rd_opens;
	int		rd_revalidates;
};

static int rd_open(struct block_device *bdev, fmode_t mode)
{
	((struct ramdisk *)bdev->bd_disk->gd_private_data)->rd_opens++;
	return 0;
}

/* A made-up geometry: 4 heads of 16 sectors. */
static int rd_getgeo(struct block_device *bdev, struct hd_geometry *geo)
{
	geo->hg_heads = 4;
	geo->hg_sectors = 16;
	geo->hg_cylinders = (u16)(bdev->bd_disk->gd_capacity / 64);
	geo->hg_start = 12345;	/* not the driver's to say: overwritten */
	return 0;
}

static int rd_revalidate(struct gendisk *disk)
{
	((struct ramdisk *)disk->gd_private_data)->rd_revalidates++;
	return 0;
}

static const struct block_device_operations rd_ops = {
	.bdo_open = rd_open,
	.bdo_getgeo = rd_getgeo,
	.bdo_revalidate_disk = rd_revalidate,
};

static void mbr_set(u8 *img, u64 lba, int slot, u8 type, u32 start, u32 size)
{
	struct mbr_part p = { .mp_sys_ind = type };

	put_le32(&p.mp_start_lba, start);
	put_le32(&p.mp_nr_blocks, size);
	memcpy(img + lba * 512 + offsetof(struct mbr, mbr_part) + slot * sizeof(p), &p, sizeof(p));
	put_le16(img + lba * 512 + offsetof(struct mbr, mbr_signature), MBR_SIGNATURE);
}

/* p1 2048+1000, p2 extended 4096+2000 holding p5 at 4160+500. */
static void make_table(struct ramdisk *rd)
{
	memset(rd->rd_data, 0, RD_BLOCKS * 512);
	put_le32(rd->rd_data + offsetof(struct mbr, mbr_disk_sig), 0x12345678);
	mbr_set(rd->rd_data, 0, 0, 0x83, 2048, 1000);
	mbr_set(rd->rd_data, 0, 1, MBR_TYPE_EXTENDED, 4096, 2000);
	mbr_set(rd->rd_data, 4096, 0, 0x83, 64, 500);
}

static struct gendisk *make_disk(const char *name, int major, int first_minor, int minors,
				 struct ramdisk *rd)
{
	struct gendisk *disk = alloc_disk(minors);

	if (!disk)
		return NULL;
	rd->rd_disk = rdisk_create(name, RD_BLOCKS * 512, 512);
	rd->rd_data = rd->rd_disk->rd_data;
	make_table(rd);
	str_copy(disk->gd_name, name, sizeof(disk->gd_name));
	disk->gd_major = major;
	disk->gd_first_minor = first_minor;
	disk->gd_fops = &rd_ops;
	disk->gd_private_data = rd;
	rdisk_attach(rd->rd_disk, disk);
	return disk;
}

static void free_store(struct ramdisk *rd)
{
	rdisk_destroy(rd->rd_disk);
	rd->rd_disk = NULL;
	rd->rd_data = NULL;
}

static void drop_disk(struct gendisk *disk, struct ramdisk *rd)
{
	CHECK_EQ(del_gendisk(disk), 0);
	put_disk(disk);
	free_store(rd);
}

static void check_no_leaks(void)
{
	CHECK_EQ(host_slab_live_drained(), 0);
}

static void test_names(void)
{
	char b[DISK_NAME_LEN];

	CHECK_EQ(disk_name_letters(b, sizeof(b), "sd", 0), 0);
	CHECK_STR(b, "sda");
	disk_name_letters(b, sizeof(b), "sd", 25);
	CHECK_STR(b, "sdz");
	disk_name_letters(b, sizeof(b), "sd", 26);
	CHECK_STR(b, "sdaa");
	disk_name_letters(b, sizeof(b), "sd", 701);
	CHECK_STR(b, "sdzz");
	disk_name_letters(b, sizeof(b), "sd", 702);
	CHECK_STR(b, "sdaaa");
	disk_name_letters(b, sizeof(b), "hd", 3);
	CHECK_STR(b, "hdd");
	CHECK_EQ(disk_name_letters(b, 4, "sd", 26), -ENAMETOOLONG);
	CHECK_EQ(disk_part_name("sda", 1, b, sizeof(b)), 0);
	CHECK_STR(b, "sda1");
	disk_part_name("hdb", 5, b, sizeof(b));
	CHECK_STR(b, "hdb5");
	disk_part_name("ram0", 1, b, sizeof(b));
	CHECK_STR(b, "ram0p1");
	disk_part_name("nullb0", 12, b, sizeof(b));
	CHECK_STR(b, "nullb0p12");
	CHECK_EQ(disk_part_name("nullb0", 12, b, 9), -ENAMETOOLONG);
}

static void test_majors(void)
{
	int a, b, i, n = 0;

	a = register_blkdev(0, "dyn-a");
	b = register_blkdev(0, "dyn-b");
	CHECK_EQ(a, BLKDEV_DYNAMIC_FIRST);
	CHECK_EQ(b, BLKDEV_DYNAMIC_FIRST - 1);
	CHECK_EQ(register_blkdev(SD_MAJOR, "sd"), SD_MAJOR);
	CHECK_EQ(register_blkdev(SD_MAJOR, "sd2"), -EBUSY);
	CHECK_EQ(register_blkdev(300, "big"), -EINVAL);
	CHECK_EQ(unregister_blkdev(SD_MAJOR, "other"), -EINVAL);
	CHECK_EQ(unregister_blkdev(SD_MAJOR, "sd"), 0);
	CHECK_EQ(unregister_blkdev(a, "dyn-a"), 0);
	CHECK_EQ(unregister_blkdev(b, "dyn-b"), 0);
	/* the dynamic range runs out */
	for (i = 0; i < 40; i++)
		if (register_blkdev(0, "many") > 0)
			n++;
	CHECK_EQ(n, BLKDEV_DYNAMIC_FIRST - BLKDEV_DYNAMIC_LAST + 1);
	CHECK_EQ(register_blkdev(0, "one-more"), -EBUSY);
	for (i = BLKDEV_DYNAMIC_LAST; i <= BLKDEV_DYNAMIC_FIRST; i++)
		CHECK_EQ(unregister_blkdev((unsigned int)i, "many"), 0);
}

static void test_writable_parse(void)
{
	CHECK(genhd_writable_allowed("sdb,hda", "hda"));
	CHECK(genhd_writable_allowed("sdb,hda", "sdb"));
	CHECK(!genhd_writable_allowed("sdb,hda", "sd"));
	CHECK(!genhd_writable_allowed("sdb,hda", "sdb1"));
	CHECK(!genhd_writable_allowed("sdb1", "sdb"));
	CHECK(genhd_writable_allowed("all", "anything"));
	CHECK(!genhd_writable_allowed("allx", "sda"));
	CHECK(!genhd_writable_allowed(NULL, "sda"));
	CHECK(!genhd_writable_allowed("", "sda"));
	CHECK(genhd_writable_allowed(",,sda,", "sda"));
	CHECK(!genhd_writable_allowed("sda", ""));
}

static void test_lookup(void)
{
	struct ramdisk rd = { 0 }, rd2 = { 0 };
	struct gendisk *disk = make_disk("sda", SD_MAJOR, 0, 16, &rd), *dup;
	struct block_device *b;
	const char *order[] = { "sda", "sda1", "sda2", "sda5" };
	unsigned int i = 0;

	CHECK_EQ(add_disk(disk), 0);
	b = bdev_lookup_name("sda5");
	CHECK(b && b->bd_dev == MKDEV(SD_MAJOR, 5) && b->bd_start == 4160 &&
	      b->bd_nr_sects == 500 && (b->bd_part.pe_flags & PART_F_LOGICAL));
	CHECK(b && strcmp(b->bd_partuuid, "12345678-05") == 0);
	bdev_put(b);
	b = bdev_lookup_name("sda2");	/* the extended container: its EBR only */
	CHECK(b && b->bd_start == 4096 && b->bd_nr_sects == 1 && bdev_nr_sects(b) == 1);
	bdev_put(b);
	b = bdev_lookup("/dev/sda1");
	CHECK(b && b->bd_partno == 1 && bdev_nr_sects(b) == 1000);
	bdev_put(b);
	b = bdev_lookup("8:5");
	CHECK(b && b->bd_partno == 5);
	bdev_put(b);
	b = bdev_lookup("PARTUUID=12345678-01");
	CHECK(b && b->bd_partno == 1);
	bdev_put(b);
	b = bdev_lookup("sda");
	CHECK(b && b->bd_partno == 0 && bdev_nr_sects(b) == RD_BLOCKS);
	bdev_put(b);
	CHECK(bdev_lookup("sda3") == NULL);
	CHECK(bdev_lookup("8:3") == NULL);
	CHECK(bdev_lookup("8:") == NULL);
	CHECK(bdev_lookup("PARTUUID=12345678-09") == NULL);

	for (b = bdev_next(NULL); b; b = bdev_next(b)) {
		if (i < 4)
			CHECK_STR(b->bd_name, order[i]);
		i++;
	}
	CHECK_EQ(i, 4);

	dup = make_disk("sda", SD_MAJOR, 16, 16, &rd2);	/* same name */
	CHECK_EQ(add_disk(dup), -EEXIST);
	str_copy(dup->gd_name, "sdb", sizeof(dup->gd_name));
	dup->gd_first_minor = 8;			/* overlaps sda's minors */
	CHECK_EQ(add_disk(dup), -EEXIST);
	dup->gd_first_minor = 16;
	CHECK_EQ(add_disk(dup), 0);
	b = bdev_lookup_dev(MKDEV(SD_MAJOR, 21));
	CHECK(b && strcmp(b->bd_name, "sdb5") == 0);
	bdev_put(b);
	drop_disk(dup, &rd2);
	drop_disk(disk, &rd);
	check_no_leaks();
}

static void test_digit_names(void)
{
	struct ramdisk rd = { 0 };
	struct gendisk *disk = make_disk("ram0", 1, 0, 16, &rd);
	struct block_device *b;

	CHECK_EQ(add_disk(disk), 0);
	b = bdev_lookup("ram0p5");
	CHECK(b != NULL);
	bdev_put(b);
	drop_disk(disk, &rd);
	check_no_leaks();
}

static void test_policy(void)
{
	struct ramdisk rd = { 0 };
	struct gendisk *disk;
	struct block_device *whole, *p1, *p5;
	sector_t s = 0;

	genhd_writable_set(NULL);
	disk = make_disk("sda", SD_MAJOR, 0, 16, &rd);
	CHECK_EQ(add_disk(disk), 0);
	whole = bdev_lookup("sda");
	p1 = bdev_lookup("sda1");
	CHECK(disk_is_ro(disk) && bdev_read_only(whole) && bdev_read_only(p1));
	CHECK_EQ(bdev_open(p1, FMODE_READ | FMODE_WRITE, NULL), -EROFS);
	CHECK_EQ(bdev_open(whole, FMODE_WRITE, NULL), -EROFS);
	CHECK_EQ(bdev_remap(p1, &s, 1, true), -EROFS);
	CHECK_EQ(s, 0);
	CHECK_EQ(bdev_remap(p1, &s, 1, false), 0);
	CHECK_EQ(s, 2048);
	CHECK_EQ(bdev_open(p1, FMODE_READ, NULL), 0);
	CHECK_EQ(bdev_close(p1, FMODE_READ, NULL), 0);
	bdev_put(whole);
	bdev_put(p1);
	drop_disk(disk, &rd);

	/* a partition named alone is writable; its disk and siblings are not */
	genhd_writable_set("sdb,sda5");
	disk = make_disk("sda", SD_MAJOR, 0, 16, &rd);
	CHECK_EQ(add_disk(disk), 0);
	whole = bdev_lookup("sda");
	p1 = bdev_lookup("sda1");
	p5 = bdev_lookup("sda5");
	CHECK(bdev_read_only(whole) && bdev_read_only(p1) && !bdev_read_only(p5));
	s = 0;
	CHECK_EQ(bdev_remap(p5, &s, 1, true), 0);
	CHECK_EQ(s, 4160);
	/* the medium's own read-only flag wins */
	set_disk_ro(disk, true);
	CHECK(bdev_read_only(p5));
	CHECK_EQ(bdev_open(p5, FMODE_WRITE, NULL), -EROFS);
	set_disk_ro(disk, false);
	bdev_put(whole);
	bdev_put(p1);
	bdev_put(p5);
	drop_disk(disk, &rd);

	genhd_writable_set("all");
	disk = make_disk("sdc", SD_MAJOR, 32, 16, &rd);
	CHECK_EQ(add_disk(disk), 0);
	CHECK(!disk_is_ro(disk));
	drop_disk(disk, &rd);
	genhd_writable_set(NULL);
	check_no_leaks();
}

static void test_claims(void)
{
	struct ramdisk rd = { 0 };
	struct gendisk *disk;
	struct block_device *whole, *p1, *p5;
	struct hd_geometry geo;
	int holder_a, holder_b;

	genhd_writable_set("all");
	disk = make_disk("sda", SD_MAJOR, 0, 16, &rd);
	CHECK_EQ(add_disk(disk), 0);
	whole = bdev_lookup("sda");
	p1 = bdev_lookup("sda1");
	p5 = bdev_lookup("sda5");

	CHECK_EQ(bdev_open(p1, FMODE_READ | FMODE_EXCL, NULL), -EINVAL);
	CHECK_EQ(bdev_open(p1, FMODE_READ | FMODE_WRITE | FMODE_EXCL, &holder_a), 0);
	CHECK_EQ(bdev_open(p1, FMODE_READ | FMODE_EXCL, &holder_b), -EBUSY);
	CHECK_EQ(bdev_open(p1, FMODE_READ | FMODE_EXCL, &holder_a), 0);	/* same holder */
	CHECK_EQ(bdev_open(whole, FMODE_READ | FMODE_WRITE, NULL), -EBUSY);
	CHECK_EQ(bdev_open(whole, FMODE_READ | FMODE_EXCL, &holder_b), -EBUSY);
	CHECK_EQ(bdev_open(whole, FMODE_READ, NULL), 0);	/* reading is fine */
	CHECK_EQ(bdev_open(p5, FMODE_READ | FMODE_EXCL, &holder_b), 0);	/* a sibling */
	CHECK_EQ(bdev_close(p1, FMODE_READ | FMODE_EXCL, &holder_b), -EINVAL);
	CHECK_EQ(bdev_close(p1, FMODE_READ | FMODE_EXCL, &holder_a), 0);
	CHECK_EQ(bdev_close(p1, FMODE_READ | FMODE_WRITE | FMODE_EXCL, &holder_a), 0);
	CHECK_EQ(bdev_close(p5, FMODE_READ | FMODE_EXCL, &holder_b), 0);
	CHECK(p1->bd_holder == NULL && disk->gd_part_claims == 0);

	/* and the reverse: a disk open for writing keeps partitions unclaimed */
	CHECK_EQ(bdev_open(whole, FMODE_READ | FMODE_WRITE, NULL), 0);
	CHECK_EQ(bdev_open(p1, FMODE_READ | FMODE_EXCL, &holder_a), -EBUSY);
	CHECK_EQ(bdev_open(p1, FMODE_READ, NULL), 0);		/* plain opens are fine */
	CHECK_EQ(bdev_close(p1, FMODE_READ, NULL), 0);
	CHECK_EQ(bdev_close(whole, FMODE_READ | FMODE_WRITE, NULL), 0);
	CHECK_EQ(bdev_close(whole, FMODE_READ, NULL), 0);
	CHECK_EQ(bdev_close(whole, FMODE_READ, NULL), -EINVAL);	/* not open */
	CHECK_EQ(bdev_ioctl(whole, FMODE_READ, HDIO_GETGEO, (unsigned long)&geo), 0);
	CHECK_EQ(rd.rd_opens, 6);

	bdev_put(whole);
	bdev_put(p1);
	bdev_put(p5);
	drop_disk(disk, &rd);
	genhd_writable_set(NULL);
	check_no_leaks();
}

static void test_remap(void)
{
	struct ramdisk rd = { 0 };
	struct gendisk *disk;
	struct block_device *whole, *p1;
	sector_t s;

	genhd_writable_set("all");
	disk = make_disk("sda", SD_MAJOR, 0, 16, &rd);
	CHECK_EQ(add_disk(disk), 0);
	whole = bdev_lookup("sda");
	p1 = bdev_lookup("sda1");

	s = 0;
	CHECK_EQ(bdev_remap(p1, &s, 1000, true), 0);
	CHECK_EQ(s, 2048);
	s = 999;
	CHECK_EQ(bdev_remap(p1, &s, 1, true), 0);
	CHECK_EQ(s, 2048 + 999);
	s = 999;
	CHECK_EQ(bdev_remap(p1, &s, 2, false), -EIO);	/* one sector into the neighbour */
	CHECK_EQ(s, 999);
	s = 1000;
	CHECK_EQ(bdev_remap(p1, &s, 1, false), -EIO);
	s = 1000;
	CHECK_EQ(bdev_remap(p1, &s, 0, false), 0);	/* an empty flush at the end */
	s = ~0ULL;
	CHECK_EQ(bdev_remap(p1, &s, 8, false), -EIO);	/* no wrap-around */
	s = ~0ULL - 2;
	CHECK_EQ(bdev_remap(whole, &s, 8, false), -EIO);
	s = RD_BLOCKS - 8;
	CHECK_EQ(bdev_remap(whole, &s, 8, true), 0);
	CHECK_EQ(s, RD_BLOCKS - 8);
	set_capacity(disk, RD_BLOCKS - 4);		/* a shrunken medium */
	s = RD_BLOCKS - 8;
	CHECK_EQ(bdev_remap(whole, &s, 8, true), -EIO);
	CHECK(bdev_get_queue(p1) == disk->gd_queue);

	bdev_put(whole);
	bdev_put(p1);
	drop_disk(disk, &rd);
	genhd_writable_set(NULL);
	check_no_leaks();
}

static void test_rescan(void)
{
	struct ramdisk rd = { 0 };
	struct gendisk *disk = make_disk("sda", SD_MAJOR, 0, 16, &rd);
	struct block_device *whole, *p1, *p5;
	struct hd_geometry geo;
	sector_t s = 0;
	u64 size;
	int ro;

	CHECK_EQ(add_disk(disk), 0);
	CHECK(rd.rd_disk->rd_bios > 0);		/* the scan read through the queue */
	whole = bdev_lookup("sda");
	p1 = bdev_lookup("sda1");
	CHECK_EQ(bdev_open(p1, FMODE_READ, NULL), 0);
	CHECK_EQ(disk_rescan(disk), -EBUSY);
	CHECK_EQ(bdev_ioctl(whole, FMODE_READ, BLKRRPART, 0), -EBUSY);
	CHECK_EQ(bdev_close(p1, FMODE_READ, NULL), 0);

	/* partition 1 disappears from the table; 5 stays */
	memset(rd.rd_data + offsetof(struct mbr, mbr_part), 0, sizeof(struct mbr_part));
	CHECK_EQ(bdev_ioctl(whole, FMODE_READ, BLKRRPART, 0), 0);
	CHECK(bdev_lookup("sda1") == NULL);
	CHECK(p1->bd_dead);
	CHECK_EQ(bdev_remap(p1, &s, 1, false), -ENXIO);	/* the old object fails its I/O */
	CHECK_EQ(bdev_open(p1, FMODE_READ, NULL), -ENXIO);
	bdev_put(p1);
	p5 = bdev_lookup("sda5");
	CHECK(p5 != NULL && !p5->bd_dead);

	CHECK_EQ(bdev_ioctl(p5, FMODE_READ, BLKRRPART, 0), -EINVAL);
	CHECK_EQ(bdev_ioctl(p5, FMODE_READ, BLKGETSIZE64, (unsigned long)&size), 0);
	CHECK_EQ(size, 500 * 512);
	CHECK_EQ(bdev_ioctl(p5, FMODE_READ, BLKROGET, (unsigned long)&ro), 0);
	CHECK_EQ(ro, 1);
	CHECK_EQ(bdev_ioctl(p5, FMODE_READ, 0x4242, 0), -ENOTTY);
	/* HDIO_GETGEO: the driver's CHS, the partition's start */
	CHECK_EQ(bdev_ioctl(p5, FMODE_READ, HDIO_GETGEO, (unsigned long)&geo), 0);
	CHECK_EQ(geo.hg_heads, 4);
	CHECK_EQ(geo.hg_sectors, 16);
	CHECK_EQ(geo.hg_start, 4160);
	/* the rescan asked the driver to revalidate first */
	CHECK(rd.rd_revalidates > 0);

	/* an unreadable disk: the rescan reports it and keeps the old table */
	bdev_put(p5);
	rd.rd_disk->rd_fail = true;
	CHECK_EQ(disk_rescan(disk), -EIO);
	p5 = bdev_lookup("sda5");
	CHECK(p5 != NULL);
	bdev_put(p5);
	rd.rd_disk->rd_fail = false;
	CHECK_EQ(disk_rescan(disk), 0);
	p5 = bdev_lookup("sda5");
	CHECK(p5 != NULL);
	bdev_put(p5);

	bdev_put(whole);
	drop_disk(disk, &rd);
	check_no_leaks();
}

static void test_remove_open(void)
{
	struct ramdisk rd = { 0 };
	struct gendisk *disk = make_disk("sda", SD_MAJOR, 0, 16, &rd);
	struct block_device *p5;
	sector_t s = 0;

	CHECK_EQ(add_disk(disk), 0);
	p5 = bdev_lookup("sda5");
	CHECK_EQ(bdev_open(p5, FMODE_READ, NULL), 0);
	CHECK_EQ(del_gendisk(disk), 0);
	CHECK_EQ(del_gendisk(disk), -EINVAL);
	put_disk(disk);				/* the driver lets go first */
	CHECK(bdev_lookup("sda5") == NULL && bdev_lookup("sda") == NULL);
	CHECK(bdev_next(NULL) == NULL);
	CHECK_EQ(bdev_remap(p5, &s, 1, false), -ENXIO);
	CHECK_EQ(bdev_open(p5, FMODE_READ, NULL), -ENXIO);
	CHECK_EQ(disk_rescan(disk), -ENXIO);
	CHECK(host_slab_live > 0);		/* p5 keeps the disk allocated */
	CHECK_EQ(bdev_close(p5, FMODE_READ, NULL), 0);
	bdev_put(p5);
	free_store(&rd);
	check_no_leaks();
}

static void test_scan_failures(void)
{
	struct ramdisk rd = { 0 };
	struct gendisk *disk = make_disk("sda", SD_MAJOR, 0, 16, &rd);
	struct block_device *b;

	rd.rd_disk->rd_fail = true;			/* the table cannot be read */
	CHECK_EQ(add_disk(disk), 0);
	b = bdev_lookup("sda");
	CHECK(b != NULL);
	bdev_put(b);
	CHECK(bdev_lookup("sda1") == NULL);
	drop_disk(disk, &rd);

	disk = make_disk("sda", SD_MAJOR, 0, 4, &rd);	/* room for 3 partitions */
	CHECK_EQ(add_disk(disk), 0);
	b = bdev_lookup("sda2");
	CHECK(b != NULL);
	bdev_put(b);
	CHECK(bdev_lookup("sda5") == NULL);
	drop_disk(disk, &rd);

	/* out of memory for the partition slots or the whole-disk device: no disk */
	for (int n = 0; n <= 1; n++) {
		disk = make_disk("sda", SD_MAJOR, 0, 16, &rd);
		host_slab_fail_after = n;
		CHECK_EQ(add_disk(disk), -ENOMEM);
		host_slab_fail_after = -1;
		CHECK(bdev_lookup("sda") == NULL);
		put_disk(disk);
		free_store(&rd);
	}
	/*
	 * ... in the middle of the scan, for each allocation in turn (bios
	 * come from their reserve): the disk stays, without partitions,
	 * until enough allocations succeed for all of them.
	 */
	for (int n = 2, whole = 0; !whole; n++) {
		disk = make_disk("sda", SD_MAJOR, 0, 16, &rd);
		host_slab_fail_after = n;
		CHECK_EQ(add_disk(disk), 0);
		host_slab_fail_after = -1;
		b = bdev_lookup("sda");
		CHECK(b != NULL);
		bdev_put(b);
		b = bdev_lookup("sda5");
		whole = b != NULL;
		bdev_put(b);
		drop_disk(disk, &rd);
		if (n > 40) {
			CHECK(!"the scan never succeeds");
			break;
		}
	}

	disk = make_disk("nullb0", 2, 0, 1, &rd);	/* no partitions at all */
	CHECK_EQ(add_disk(disk), 0);
	CHECK(bdev_lookup("nullb0p1") == NULL);
	drop_disk(disk, &rd);

	disk = make_disk("", 3, 0, 1, &rd);
	CHECK_EQ(add_disk(disk), -EINVAL);
	put_disk(disk);
	free_store(&rd);
	CHECK(alloc_disk(0) == NULL);
	host_slab_fail_after = 0;
	CHECK(alloc_disk(16) == NULL);
	host_slab_fail_after = -1;
	check_no_leaks();
}

/*
 * GENHD_FL_EXT_DEVT: a disk with minors for 3 partitions keeps its
 * logical partition 5 under BLOCK_EXT_MAJOR, whose numbers go back to the
 * pool with the device and are reused lowest first.
 */
static void test_ext_devt(void)
{
	struct ramdisk rd = { 0 }, rd2 = { 0 };
	struct gendisk *disk = make_disk("sda", SD_MAJOR, 0, 4, &rd), *disk2;
	struct block_device *b;

	disk->gd_flags = GENHD_FL_EXT_DEVT;
	CHECK_EQ(disk_max_parts(disk), DISK_MAX_PARTS);
	CHECK_EQ(add_disk(disk), 0);
	b = bdev_lookup("sda5");
	CHECK(b != NULL);
	CHECK_EQ(b->bd_dev, MKDEV(BLOCK_EXT_MAJOR, 0));
	CHECK_EQ(b->bd_start, 4160);
	bdev_put(b);
	b = bdev_lookup("sda2");
	CHECK_EQ(b->bd_dev, MKDEV(SD_MAJOR, 2));
	bdev_put(b);

	disk2 = make_disk("sdb", SD_MAJOR, 4, 4, &rd2);
	disk2->gd_flags = GENHD_FL_EXT_DEVT;
	CHECK_EQ(add_disk(disk2), 0);
	b = bdev_lookup("259:1");
	CHECK(b != NULL && !strcmp(b->bd_name, "sdb5"));
	bdev_put(b);
	/* listings keep sda5 with its disk, before sdb */
	b = bdev_lookup("sda2");
	b = bdev_next(b);
	CHECK(b != NULL && !strcmp(b->bd_name, "sda5"));
	b = bdev_next(b);
	CHECK(b != NULL && !strcmp(b->bd_name, "sdb"));
	bdev_put(b);

	/* a rescan numbers the new device before the old one is gone */
	CHECK_EQ(disk_rescan(disk), 0);
	b = bdev_lookup("sda5");
	CHECK_EQ(b->bd_dev, MKDEV(BLOCK_EXT_MAJOR, 2));
	bdev_put(b);
	drop_disk(disk, &rd);
	CHECK(bdev_lookup("259:2") == NULL);

	disk = make_disk("sda", SD_MAJOR, 0, 4, &rd);
	disk->gd_flags = GENHD_FL_EXT_DEVT;
	CHECK_EQ(add_disk(disk), 0);
	b = bdev_lookup("259:0");
	CHECK(b != NULL && !strcmp(b->bd_name, "sda5"));
	bdev_put(b);
	drop_disk(disk, &rd);
	drop_disk(disk2, &rd2);
	check_no_leaks();
}

static int probe_calls;

static int fake_fs_probe(struct block_device *bdev, struct bdev_fs_info *info)
{
	probe_calls++;
	if (bdev->bd_partno != 5)
		return 0;
	str_copy(info->fi_type, "ext2", sizeof(info->fi_type));
	str_copy(info->fi_label, "data", sizeof(info->fi_label));
	return 1;
}

static const struct bdev_fs_probe fake_probe = { "fake", fake_fs_probe };

static void test_fs_probe(void)
{
	struct ramdisk rd = { 0 };
	struct gendisk *disk = make_disk("sda", SD_MAJOR, 0, 16, &rd);
	struct block_device *b;
	struct bdev_fs_info info;

	CHECK_EQ(add_disk(disk), 0);
	CHECK_EQ(bdev_register_fs_probe(&fake_probe), 0);
	b = bdev_lookup("sda5");
	CHECK_EQ(bdev_probe_fs(b, &info), 1);
	CHECK_STR(info.fi_type, "ext2");
	bdev_put(b);
	b = bdev_lookup("sda1");
	CHECK_EQ(bdev_probe_fs(b, &info), 0);
	bdev_put(b);
	CHECK_EQ(probe_calls, 2);
	drop_disk(disk, &rd);
	check_no_leaks();
}

/*
 * blkdev_pread/pwrite (block/blkdev_io.c) on a partition: any offset and
 * length, partial blocks through the bounce block, the range cut at the
 * end of the device, a read-only device refused.  Buffers are lowmem
 * pages, as the contract asks (host kmalloc memory has no struct page).
 */
static void test_blkdev_io(void)
{
	struct ramdisk rd = { 0 };
	struct gendisk *disk;
	struct block_device *p1, *p5;
	u8 *buf = get_free_pages(GFP_KERNEL, 1), *disk_p1;
	const u64 p1_bytes = 1000 * 512;
	u32 i;

	genhd_writable_set("sda1");
	disk = make_disk("sda", SD_MAJOR, 0, 16, &rd);
	CHECK_EQ(add_disk(disk), 0);
	p1 = bdev_lookup("sda1");
	p5 = bdev_lookup("sda5");
	disk_p1 = rd.rd_data + 2048 * 512;
	for (i = 0; i < 3000; i++)
		buf[i] = (u8)(i * 7 + 1);
	/* unaligned head, two whole blocks, unaligned tail */
	CHECK_EQ(blkdev_pwrite(p1, buf, 1500, 300), 1500);
	CHECK(memcmp(disk_p1 + 300, buf, 1500) == 0);
	CHECK_EQ(disk_p1[299], 0);
	CHECK_EQ(disk_p1[1800], 0);
	memset(buf, 0, 3000);
	CHECK_EQ(blkdev_pread(p1, buf + 1, 1500, 300), 1500);	/* any alignment in memory */
	CHECK(memcmp(buf + 1, disk_p1 + 300, 1500) == 0);
	/* cut at the end of the partition; nothing at or past it */
	CHECK_EQ(blkdev_pread(p1, buf, 3000, p1_bytes - 700), 700);
	CHECK_EQ(blkdev_pread(p1, buf, 512, p1_bytes), 0);
	CHECK_EQ(blkdev_pwrite(p1, buf, 512, p1_bytes + 512), 0);
	CHECK_EQ(blkdev_size(p1), p1_bytes);
	/* not named in writable=: refused */
	CHECK_EQ(blkdev_pwrite(p5, buf, 512, 0), -EROFS);
	rd.rd_disk->rd_fail = true;
	CHECK_EQ(blkdev_pread(p1, buf, 512, 0), -EIO);
	rd.rd_disk->rd_fail = false;
	CHECK_EQ(blkdev_flush(p1), 0);
	bdev_put(p1);
	bdev_put(p5);
	drop_disk(disk, &rd);
	free_pages(buf, 1);
	genhd_writable_set(NULL);
	check_no_leaks();
}

/* sd device numbers as Linux gives them (drivers/scsi/sd.c), by index. */
static void test_sd_numbers(void)
{
	static const struct { unsigned int index, major, minor; } linux_sd[] = {
		{ 0, 8, 0 },		/* sda */
		{ 15, 8, 240 },		/* sdp: the last of major 8 */
		{ 16, 65, 0 },		/* sdq */
		{ 31, 65, 240 },	/* sdaf */
		{ 32, 66, 0 },		/* sdag */
		{ 127, 71, 240 },	/* sddx */
		{ 128, 128, 0 },	/* sddy */
		{ 255, 135, 240 },	/* sdiv */
		{ 256, 8, 256 },	/* sdiw: the upper index bits above the minor byte */
		{ 701, 131, 720 },	/* sdzz */
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(linux_sd); i++) {
		dev_t d = disk_sd_devt(linux_sd[i].index);

		CHECK_EQ(MAJOR(d), linux_sd[i].major);
		CHECK_EQ(MINOR(d), linux_sd[i].minor);
	}
}

/* Indexes are the lowest free, and come back when put. */
static void test_sd_names(void)
{
	char name[DISK_NAME_LEN];
	unsigned int i;

	CHECK_EQ(disk_sd_get(name, sizeof(name)), 0);
	CHECK_STR(name, "sda");
	CHECK_EQ(disk_sd_get(name, sizeof(name)), 1);
	CHECK_EQ(disk_sd_get(name, sizeof(name)), 2);
	disk_sd_put(1);
	CHECK_EQ(disk_sd_get(name, sizeof(name)), 1);
	CHECK_STR(name, "sdb");
	for (i = 3; i < DISK_SD_MAX; i++)
		CHECK_EQ(disk_sd_get(name, sizeof(name)), (int)i);
	CHECK_STR(name, "sdzz");
	CHECK_EQ(disk_sd_get(name, sizeof(name)), -ENOSPC);
	disk_sd_put(30);
	CHECK_EQ(disk_sd_get(name, 4), -ENAMETOOLONG);	/* "sdae" does not fit */
	CHECK_EQ(disk_sd_get(name, sizeof(name)), 30);	/* ... and was given back */
	CHECK_STR(name, "sdae");
	for (i = 0; i < DISK_SD_MAX; i++)
		disk_sd_put(i);
}

static const struct unit_case cases[] = {
	{ "blkdev_io", test_blkdev_io },
	{ "names", test_names },
	{ "sd_numbers", test_sd_numbers },
	{ "sd_names", test_sd_names },
	{ "majors", test_majors },
	{ "writable_parse", test_writable_parse },
	{ "lookup", test_lookup },
	{ "digit_names", test_digit_names },
	{ "policy", test_policy },
	{ "claims", test_claims },
	{ "remap", test_remap },
	{ "rescan", test_rescan },
	{ "remove_open", test_remove_open },
	{ "scan_failures", test_scan_failures },
	{ "ext_devt", test_ext_devt },
	{ "fs_probe", test_fs_probe },
};

UNIT_MAIN("block/genhd", cases)
