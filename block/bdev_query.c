/*
 * The device queries the filesystem layer uses (declared in fs/buffer.h):
 * size in bytes and name, over the registry's struct block_device.
 */
#include "block/bdev.h"
#include "fs/buffer.h"

u64 bdev_nr_bytes(struct block_device *bdev)
{
	return (u64)bdev_nr_sects(bdev) << SECTOR_SHIFT;
}

const char *bdev_name(struct block_device *bdev)
{
	return bdev->bd_name;
}
