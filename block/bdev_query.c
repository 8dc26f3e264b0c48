/*
 * The device queries the buffer cache's contract names (fs/buffer.h),
 * over the registry's struct block_device: size in bytes and name.
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
