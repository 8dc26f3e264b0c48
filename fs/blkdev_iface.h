/*
 * What fs/ needs from the block layer's gendisk registry, and nothing
 * more: enumerate disks and partitions by name, open one, close it.
 * Declared here because the registry (block/genhd.c, the gendisk issue)
 * is written in parallel; when it lands, these become its exports (or
 * thin wrappers over them) and this header includes its header instead.
 */
#ifndef FS_BLKDEV_IFACE_H
#define FS_BLKDEV_IFACE_H

#include "kernel/compiler.h"

struct block_device;

/*
 * Call @fn with the name of every disk and partition ("sda", "sda1"), in
 * registration order; stop at and return @fn's first nonzero result.
 */
int blkdev_for_each_name(int (*fn)(const char *name, void *arg), void *arg);

/*
 * Open the disk or partition @name.  Returns it, ERR_PTR(-ENODEV) if no
 * such device, or another ERR_PTR.  bdev_read_only() (fs/buffer.h) tells
 * whether its disk was named writable.
 */
struct block_device *blkdev_open_by_name(const char *name);

/* Drop the reference blkdev_open_by_name() gave. */
void blkdev_close(struct block_device *bdev);

#endif
