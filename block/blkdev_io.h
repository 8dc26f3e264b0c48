/*
 * Synchronous byte-addressed I/O on a block device, for the shell's dd,
 * hexdump and tools of that kind (filesystems use the buffer cache).
 * Each call becomes a few large bios; a head or tail that does not
 * cover whole logical blocks is read (and, for a write, written back)
 * through a bounce block.  buf must be lowmem (kmalloc memory).
 * Returns the byte count, or a negative errno: -EIO, -EROFS, -ENXIO.
 */
#ifndef BLOCK_BLKDEV_IO_H
#define BLOCK_BLKDEV_IO_H

#include "kernel/types.h"

struct block_device;

long blkdev_pread(struct block_device *bdev, void *buf, size_t len, u64 off);
long blkdev_pwrite(struct block_device *bdev, const void *buf, size_t len, u64 off);
/* Empty the device's write cache. */
int blkdev_flush(struct block_device *bdev);
/*
 * Whole logical blocks (len and off their multiples) straight between
 * lowmem memory and the device, as large bios one after the other: the
 * core of the calls above, and the buffer cache's uncached path.
 * 0, or a negative errno.
 */
int blkdev_rw_linear(struct block_device *bdev, void *buf, size_t len, u64 off, bool write);
/* Bytes in the device (a partition's own size). */
u64 blkdev_size(struct block_device *bdev);

#endif
