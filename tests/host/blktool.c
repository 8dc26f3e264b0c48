/*
 * blktool: the gendisk registry (block/genhd.c, bdev.c) and its shell
 * commands (block/diag/genhd_cmds.c) built on the host, over a disk image
 * file added as one disk, read through the real block core (rdisk_fake.c).
 * It prints what `lsblk` and `part DISK` would print in
 * the kernel, so tests/host/registry.sh can hold them against sfdisk, and
 * with -w PART it writes a marker into the last sector of that partition
 * through bdev_open/bdev_remap, for the script to find with dd.
 *
 * usage: blktool [-b BLOCK_SIZE] [-n NAME] [-w PART] IMAGE
 * The write prints "wrote SECTOR" (the disk sector the remap chose).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "block/diag/genhd_cmds.c"
#include "tests/unit/fakes/rdisk_fake.h"
#include "tests/unit/host/shim.h"

static int img_fd;

static int run(int (*fn)(int, char **), const char *a0, const char *a1)
{
	char *argv[3] = { (char *)a0, (char *)a1, NULL };

	return fn(a1 ? 2 : 1, argv);
}

/* Write "blktool" + the sector number into the last sector of part. */
static int write_last(const char *part)
{
	struct block_device *b = bdev_lookup(part);
	char buf[SECTOR_SIZE];
	sector_t s;
	int ret;

	if (!b)
		return -ENODEV;
	ret = bdev_open(b, FMODE_READ | FMODE_WRITE, &img_fd);
	if (ret)
		goto put;
	s = bdev_nr_sects(b) - 1;
	ret = bdev_remap(b, &s, 1, true);
	if (ret == 0) {
		sector_t past = bdev_nr_sects(b);

		/* one more sector must be refused: the neighbour stays untouched */
		if (bdev_remap(b, &past, 1, true) != -EIO)
			ret = -EFAULT;
	}
	if (ret == 0) {
		memset(buf, 0, sizeof(buf));
		snprintf(buf, sizeof(buf), "blktool %llu", (unsigned long long)s);
		if (pwrite(img_fd, buf, sizeof(buf), (off_t)(s * SECTOR_SIZE)) != sizeof(buf))
			ret = -EIO;
		else
			fprintf(stdout, "wrote %llu\n", (unsigned long long)s);
	}
	bdev_close(b, FMODE_READ | FMODE_WRITE, &img_fd);
put:
	bdev_put(b);
	return ret;
}

int main(int argc, char **argv)
{
	const char *name = "sda", *wpart = NULL;
	struct gendisk *disk;
	struct rdisk *rd;
	struct stat st;
	u32 bs = 512;
	int c, ret;

	while ((c = getopt(argc, argv, "b:n:w:")) != -1) {
		if (c == 'b')
			bs = (u32)strtoul(optarg, NULL, 0);
		else if (c == 'n')
			name = optarg;
		else if (c == 'w')
			wpart = optarg;
		else
			return 2;
	}
	if (optind + 1 != argc)
		return 2;
	img_fd = open(argv[optind], wpart ? O_RDWR : O_RDONLY);
	if (img_fd < 0 || fstat(img_fd, &st) < 0)
		return 2;
	/* the kernel's log goes to stderr; the commands' output is wanted on stdout */
	dup2(1, 2);
	setvbuf(stdout, NULL, _IONBF, 0);
	host_printk_quiet = false;
	genhd_writable_set(wpart);
	disk = alloc_disk(256);
	str_copy(disk->gd_name, name, sizeof(disk->gd_name));
	str_copy(disk->gd_model, "image", sizeof(disk->gd_model));
	disk->gd_major = 8;
	rd = rdisk_create_file(name, img_fd, (u64)st.st_size, bs);	/* the scan reads through it */
	rdisk_attach(rd, disk);
	ret = add_disk(disk);
	if (ret == 0) {
		run(cmd_lsblk, "lsblk", NULL);
		run(cmd_part, "part", name);
		if (wpart)
			ret = write_last(wpart);
		del_gendisk(disk);
	}
	put_disk(disk);
	rdisk_destroy(rd);
	close(img_fd);
	if (ret)
		printf("blktool: error %d\n", ret);
	return ret ? 1 : 0;
}
