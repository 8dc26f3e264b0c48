/*
 * Direct I/O: file data in bulk between a caller's memory and the disk,
 * around the buffer cache but coherent with it.
 *
 * When it is used: ext2 (fs/ext2/file.c) moves each run of whole file
 * blocks that are contiguous on disk with one call; the partial blocks at
 * the ends of a request, and all metadata, go through the buffer cache.
 *
 * Implementations: fs/direct_io.c (the kernel) and
 * tests/unit/fakes/buffer_file.c (host tests), with the same rule.
 */
#ifndef FS_DIRECT_IO_H
#define FS_DIRECT_IO_H

#include "kernel/types.h"

struct block_device;

/**
 * direct_rw_blocks - move whole blocks between memory and the device
 * @bdev:  the device
 * @block: first block, in @size units
 * @n:     how many consecutive blocks
 * @size:  block size in bytes (the one the device's buffers use)
 * @buf:   n * size bytes: the destination of a read, the source of a write
 * @write: direction
 *
 * Coherence with the buffer cache, block by block:
 *  - a block the cache holds (clean or dirty) moves through its buffer: a
 *    read copies it out (reading it first if it is not uptodate), so a
 *    dirty copy is what the caller gets; a write waits for the buffer's
 *    I/O, copies into it and marks it dirty, so the cached copy never goes
 *    stale and write-back later writes the new data;
 *  - every other block goes straight between @buf and the device as large
 *    synchronous I/O (blkdev_pread/blkdev_pwrite), finished when the call
 *    returns.  Callers are serialised, so no buffer can appear for such a
 *    block while its I/O is in flight, and a buffer made later reads what
 *    the direct write left on the device.
 * Written blocks are on the device, not yet flushed: sync_blockdev()
 * flushes them with the rest.
 *
 * Memory: @buf may be any kernel memory.  Lowmem aligned to @size is used
 * as it is; anything else (vmalloc or highmem mappings, misaligned
 * buffers) is copied through a bounce of up to 2^DIRECT_BOUNCE_ORDER
 * lowmem pages, taken for the call (fewer pages when memory is fragmented).
 *
 * Returns 0, -EIO (some blocks may have moved), -ENXIO past the end of
 * the device, -ENOMEM, -EINVAL for a bad size.  Process context.
 */
int direct_rw_blocks(struct block_device *bdev, u64 block, u32 n, u32 size,
		     void *buf, bool write);

#endif
