/*
 * sd disks: the index that names them and the device numbers that go
 * with it, shared by every driver whose disks are called sda, sdb, ...
 * (AHCI today).  Block layer, beside the registry (genhd.c).
 *
 * Indexes: sda is 0 (disk_name_letters).  disk_sd_get hands out the
 * lowest free one and disk_sd_put gives it back, so the disks of a
 * controller that is detached and attached again get their names back,
 * as with Linux's sd_index_ida.
 *
 * Numbers (Linux, drivers/scsi/sd.c sd_major and sd_probe): 16 minors a
 * disk, 16 disks a major, the majors taken in the order 8, 65-71,
 * 128-135; past the 256th disk the index's upper bits go above the minor
 * byte: sdq is 65:0, sdiv 135:240, sdiw 8:256.  The 16 majors are
 * registered as "sd" once, at boot.
 */
#include "block/genhd.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "lib/bitmap.h"

#define SD_MAJORS	16		/* majors of the scheme */

static spinlock_t disk_sd_lock = SPINLOCK_INIT("disk_sd_lock");
static u32 disk_sd_used[BITMAP_WORDS(DISK_SD_MAX)];	/* [disk_sd_lock] index bitmap */

/* The i-th major of the scheme, 0 <= i < SD_MAJORS. */
static unsigned int disk_sd_major(unsigned int i)
{
	if (i == 0)
		return 8;		/* SCSI_DISK0_MAJOR */
	if (i < 8)
		return 64 + i;		/* SCSI_DISK1_MAJOR .. SCSI_DISK7_MAJOR */
	return 128 + i - 8;		/* SCSI_DISK8_MAJOR .. SCSI_DISK15_MAJOR */
}

dev_t disk_sd_devt(unsigned int index)
{
	return MKDEV(disk_sd_major((index >> 4) & (SD_MAJORS - 1)),
		     ((index & 0xf) << 4) | (index & ~0xffu));
}

int disk_sd_get(char *name, size_t size)
{
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&disk_sd_lock, flags);
	ret = bitmap_take_lowest(disk_sd_used, DISK_SD_MAX);
	spin_unlock_irqrestore(&disk_sd_lock, flags);
	if (ret < 0)
		return -ENOSPC;
	if (disk_name_letters(name, size, "sd", (unsigned int)ret)) {
		disk_sd_put((unsigned int)ret);
		return -ENAMETOOLONG;
	}
	return ret;
}

void disk_sd_put(unsigned int index)
{
	unsigned long flags;

	spin_lock_irqsave(&disk_sd_lock, flags);
	KASSERT(index < DISK_SD_MAX && bitmap_test(disk_sd_used, index));
	bitmap_clear(disk_sd_used, index);
	spin_unlock_irqrestore(&disk_sd_lock, flags);
}

/* Reserve the 16 majors, as Linux's init_sd does; one taken is reported. */
static int disk_sd_init(void)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < SD_MAJORS; i++)
		if (register_blkdev(disk_sd_major(i), "sd") < 0)
			ret = -EBUSY;	/* register_blkdev said which */
	return ret;
}
subsys_initcall(disk_sd_init);
