/*
 * Registering the memory-backed disks with the gendisk registry, and the
 * boot-loader modules as RAM disks.
 *
 * ram, mem and nullb build their queues without knowing the registry (so
 * that the block core's tests run without it); this is the one place that
 * turns such a queue into a named disk.  Multiboot modules (QEMU -initrd,
 * GRUB's module command) become further RAM disks, their contents copied
 * in: a partitioned disk image given as a module shows up with its
 * partitions, before any disk driver exists.  " bs=4096" in a module's
 * command line gives its disk 4096-byte logical blocks.
 */
#include "drivers/block/ramvar.h"
#include "block/blkdev.h"
#include "block/bdev.h"
#include "block/genhd.h"
#include "kernel/bootinfo.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/printk.h"
#include "kernel/mm/highmem.h"
#include "lib/string.h"

#define MEMDISK_MINORS	16	/* the disk and 15 partitions */

/* One dynamic major per kind of memory disk, named by the disk's prefix. */
struct memdisk_major {
	const char	*mm_prefix;
	int		mm_major;	/* 0 until the first disk of the kind */
	int		mm_next_minor;
};

static struct memdisk_major memdisk_majors[] = {
	{ .mm_prefix = "ram" }, { .mm_prefix = "mem" }, { .mm_prefix = "nullb" },
};

static struct memdisk_major *major_for(const char *name)
{
	struct memdisk_major *m;

	for (m = memdisk_majors; m < memdisk_majors + ARRAY_SIZE(memdisk_majors); m++) {
		if (!str_starts(name, m->mm_prefix))
			continue;
		if (!m->mm_major) {
			int major = register_blkdev(0, m->mm_prefix);

			if (major < 0)
				return NULL;
			m->mm_major = major;
		}
		return m;
	}
	return NULL;
}

int memdisk_add_disk(struct request_queue *q, const char *name, sector_t sectors, bool scan)
{
	struct memdisk_major *m = major_for(name);
	int minors = scan ? MEMDISK_MINORS : 1;
	struct gendisk *disk;
	int err;

	if (!m)
		return -EBUSY;
	disk = alloc_disk(minors);
	if (!disk)
		return -ENOMEM;
	disk->gd_major = m->mm_major;
	disk->gd_first_minor = m->mm_next_minor;
	m->mm_next_minor += MEMDISK_MINORS;
	str_copy(disk->gd_name, name, sizeof(disk->gd_name));
	str_copy(disk->gd_model, "memory", sizeof(disk->gd_model));
	disk->gd_fops = NULL;	/* always there, no geometry, nothing to revalidate */
	disk->gd_queue = q;
	disk->gd_private_data = q->q_queuedata;
	disk->gd_logical_block_size = q->q_limits.lim_logical_block_size;
	if (!scan)
		disk->gd_flags |= GENHD_FL_NO_PART_SCAN;
	set_capacity(disk, sectors);
	err = add_disk(disk);
	if (err) {
		pr_err("%s: cannot add disk: %s\n", name, errstr(err));
		put_disk(disk);
	}
	return err;
}

/* Copy module [start, end) into a new RAM disk named ramN. */
static int module_disk(const struct boot_module *m, unsigned index)
{
	u64 bytes = ALIGN_UP(m->end - m->start, (u64)PAGE_SIZE), off;
	char name[16];
	struct ramdisk *rd;

	if (m->end == m->start)
		return 0;
	snprintf(name, sizeof(name), "ram%u", index);
	rd = ramdisk_create(name, bytes);
	if (!rd)
		return -ENOMEM;		/* error already printed */
	for (off = 0; off < bytes; off += PAGE_SIZE) {
		u64 left = m->end - m->start - min(off, m->end - m->start);
		struct page *src = pfn_to_page((m->start + off) >> PAGE_SHIFT);
		u32 in_page = (u32)((m->start + off) & ~PAGE_MASK);
		u8 *dst = kmap_atomic(rd->rd_pages[off >> PAGE_SHIFT]);

		memset(dst, 0, PAGE_SIZE);
		if (left) {
			/* Modules are page-aligned (multiboot flag 0), so in_page is 0. */
			u8 *s = kmap_atomic(src);

			memcpy(dst, s + in_page, (size_t)min(left, (u64)PAGE_SIZE - in_page));
			kunmap_atomic(s);
		}
		kunmap_atomic(dst);
	}
	if (strstr(m->name, " bs=4096"))	/* an image of a 4Kn disk */
		blk_queue_logical_block_size(rd->rd_queue, 4096);
	pr_info("%s: boot module \"%s\", %llu KiB\n", name, m->name,
		(unsigned long long)((m->end - m->start) >> 10));
	return memdisk_add_disk(rd->rd_queue, name, rd->rd_nr_sectors, true);
}

static int module_disks_init(void)
{
	unsigned i, index = 0;
	struct block_device *b;
	char name[16];

	for (i = 0; i < boot_info.nr_modules; i++) {
		/* The next free ramN after the ram.count disks. */
		for (;; index++) {
			snprintf(name, sizeof(name), "ram%u", index);
			b = bdev_lookup_name(name);
			if (!b)
				break;
			bdev_put(b);
		}
		module_disk(&boot_info.modules[i], index++);
	}
	return 0;
}
late_initcall(module_disks_init);
