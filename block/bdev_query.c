/*
 * What the filesystem layer asks of the registry (fs/buffer.h and
 * fs/blkdev_iface.h), over struct block_device: size and name, and the
 * enumerate/open/close of devices to mount.
 *
 * A filesystem opens its device exclusively, so that nobody writes the
 * whole disk under a mounted partition (and the reverse); writable only
 * when writable= names the disk, so a read-only device mounts read-only.
 */
#include "block/bdev.h"
#include "fs/buffer.h"
#include "fs/blkdev_iface.h"
#include "kernel/errno.h"

/* The one holder of every filesystem's claim. */
static char fs_holder;

u64 bdev_nr_bytes(struct block_device *bdev)
{
	return (u64)bdev_nr_sects(bdev) << SECTOR_SHIFT;
}

const char *bdev_name(struct block_device *bdev)
{
	return bdev->bd_name;
}

int blkdev_for_each_name(int (*fn)(const char *name, void *arg), void *arg)
{
	struct block_device *b = NULL;
	int r;

	while ((b = bdev_next(b))) {
		r = fn(b->bd_name, arg);
		if (r) {
			bdev_put(b);
			return r;
		}
	}
	return 0;
}

static fmode_t fs_mode(struct block_device *bdev)
{
	return FMODE_READ | FMODE_EXCL | (bdev_read_only(bdev) ? 0 : FMODE_WRITE);
}

struct block_device *blkdev_open_by_name(const char *name)
{
	struct block_device *bdev = bdev_lookup(name);
	int err;

	if (!bdev)
		return ERR_PTR(-ENODEV);
	err = bdev_open(bdev, fs_mode(bdev), &fs_holder);
	if (err) {
		bdev_put(bdev);
		return ERR_PTR(err);
	}
	return bdev;
}

void blkdev_close(struct block_device *bdev)
{
	bdev_close(bdev, fs_mode(bdev), &fs_holder);
	bdev_put(bdev);
}
