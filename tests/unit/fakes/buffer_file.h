/*
 * Host fake of the buffer cache (fs/buffer.h) over an image file or a
 * memory buffer, for host tests of filesystems.  A device is a window
 * [offset, offset + size) of the backing store, so a filesystem inside a
 * partition of a disk image works.  Controls for error-path tests below.
 */
#ifndef TESTS_UNIT_FAKES_BUFFER_FILE_H
#define TESTS_UNIT_FAKES_BUFFER_FILE_H

#include "fs/buffer.h"
#include "fs/direct_io.h"

/*
 * Open @path as a block device covering @size bytes from @offset (size 0:
 * to the end of the file).  @ro opens the file read-only and makes
 * bdev_read_only() true.  NULL on failure (errno set).
 */
struct block_device *bdev_file_open(const char *path, u64 offset, u64 size, bool ro);

/* A device over @len bytes at @mem (not copied; writes land there). */
struct block_device *bdev_mem_open(void *mem, u64 len, bool ro, const char *name);

/*
 * Write back and free everything, close.  Returns 0, or -EBUSY if a
 * buffer was still referenced (a reference leak in the code under test),
 * or -EIO if write-back failed.
 */
int bdev_file_close(struct block_device *bdev);

struct bdev_stats {
	u64	bs_reads;	/* blocks read from the backing store */
	u64	bs_writes;	/* blocks written to it */
	u64	bs_flushes;	/* sync_blockdev() calls */
	u32	bs_cached;	/* buffers in the cache now */
	u32	bs_referenced;	/* of those, with b_count > 0 */
};
void bdev_get_stats(struct block_device *bdev, struct bdev_stats *st);

/* Make reads (or writes) of byte range [start, end) of the device fail with -EIO. */
void bdev_fail_range(struct block_device *bdev, u64 start, u64 end, bool writes);

/* Most buffers kept (default 4096); small values stress eviction. */
void bdev_set_cache_limit(struct block_device *bdev, u32 nbuffers);

#endif
