/*
 * Host fake of the block core's bio read for the registry's tests: they
 * give every disk its own gd_read_block, so reaching this is a failure.
 */
#include "block/genhd.h"
#include "kernel/errno.h"

int blk_read_disk_block(struct gendisk *disk, u64 lba, void *buf)
{
	return -EIO;
}
