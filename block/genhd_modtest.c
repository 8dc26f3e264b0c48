/*
 * A self-test fixture that shows the kernel's view of partition tables
 * in disk images handed over as multiboot modules (selftest=
 * block/genhd/modules; tests/qemu/partitions.sh compares it with sfdisk).
 *
 * Each module becomes a read-only disk "modN" for the length of the test,
 * read through the registry's read seam straight from the module's memory
 * (no request queue: a scan and the shell commands need nothing more);
 * "bs=4096" in the module's command line makes 4096-byte logical blocks.
 * For each disk it runs "lsblk modN*" equivalents and "part modN", then
 * removes it.  This is not the memory-disk driver (drivers/block), which
 * owns the names mem0...; it only lets the registry be tested on real
 * images before a disk driver exists.
 */
#include "block/bdev.h"
#include "kernel/bootinfo.h"
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/mm/page.h"
#include "kernel/selftest.h"
#include "kernel/shell.h"
#include "lib/string.h"

static int modtest_read(struct gendisk *disk, u64 lba, void *buf)
{
	const struct boot_module *m = disk->gd_private_data;
	u32 bs = disk->gd_logical_block_size;

	if (lba >= (m->end - m->start) / bs)
		return -EIO;
	memcpy(buf, (const u8 *)__va(m->start) + lba * bs, bs);
	return 0;
}

/* Add module i as disk modN, show it, remove it.  0 or -errno. */
static int modtest_one(unsigned int i, int major)
{
	const struct boot_module *m = &boot_info.modules[i];
	struct gendisk *disk;
	char cmd[48];
	int ret;

	disk = alloc_disk(128);
	if (!disk)
		return -ENOMEM;
	snprintf(disk->gd_name, sizeof(disk->gd_name), "mod%u", i);
	str_copy(disk->gd_model, "multiboot module", sizeof(disk->gd_model));
	disk->gd_private_data = (void *)m;
	disk->gd_read_block = modtest_read;
	disk->gd_logical_block_size = strstr(m->name, "bs=4096") ? 4096 : 512;
	disk->gd_major = major;
	disk->gd_first_minor = (int)i * 128;
	set_capacity(disk, ALIGN_DOWN((m->end - m->start), (u64)disk->gd_logical_block_size) /
			   SECTOR_SIZE);
	ret = add_disk(disk);
	if (ret == 0) {
		kprintf("module %u: %s\n", i, m->name);
		snprintf(cmd, sizeof(cmd), "lsblk; part mod%u", i);
		ret = shell_exec(cmd);
		del_gendisk(disk);
	}
	put_disk(disk);
	return ret;
}

static int st_genhd_modules(void)
{
	unsigned int i;
	int major, ret = 0;

	if (boot_info.nr_modules == 0)
		return st_fail("no multiboot modules to look at");
	major = register_blkdev(0, "modtest");
	if (major < 0)
		return st_fail("register_blkdev: %d", major);
	for (i = 0; i < boot_info.nr_modules && ret == 0; i++) {
		ret = modtest_one(i, major);
		if (ret)
			ret = st_fail("module %u: %d", i, ret);
	}
	unregister_blkdev((unsigned int)major, "modtest");
	return ret;
}
SELFTEST("block/genhd/modules", st_genhd_modules);
