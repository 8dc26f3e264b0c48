/* Host fake of the registry's two calls that the block core uses. */
#include "block/blkdev.h"
#include "kernel/errno.h"
#include "tests/unit/fakes/bdev_fake.h"

struct request_queue *bdev_get_queue(struct block_device *bdev)
{
	return bdev->bd_queue;
}

int bdev_remap(struct block_device *bdev, sector_t *sector, u32 nr_sectors, bool is_write)
{
	if (is_write && bdev->bd_read_only)
		return -EROFS;
	if (*sector > bdev->bd_nr_sectors || nr_sectors > bdev->bd_nr_sectors - *sector)
		return -EIO;
	*sector += bdev->bd_start;
	return 0;
}
