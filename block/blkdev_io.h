/*
 * Synchronous I/O on a block device: THE way for code outside a driver's
 * queue to read or write some bytes of a disk or partition and wait for
 * them -- the partition scan, the shell's dd and hexdump, probes,
 * self-tests, and the buffer cache's direct I/O.  Everything here builds
 * ordinary bios, submits them with submit_bio_wait() and sleeps; none of
 * it may be called from interrupt context or with a spinlock held.
 *
 * Memory: @buf must be lowmem (kmalloc memory, the kernel image or a
 * kernel stack); it is handed to the device page by page, without a copy,
 * wherever the range covers whole logical blocks.  Highmem pages go
 * through bio_add_page() and submit_bio() directly, not through here.
 */
#ifndef BLOCK_BLKDEV_IO_H
#define BLOCK_BLKDEV_IO_H

#include "kernel/types.h"

struct block_device;

/**
 * blkdev_pread - read @len bytes at byte offset @off of @bdev into @buf
 * @bdev: a disk or partition (offsets are relative to it)
 * @buf: lowmem destination, any alignment
 * @len: bytes wanted, any length
 * @off: byte offset, any alignment
 *
 * A head or tail that does not cover whole logical blocks is read through
 * a one-block bounce buffer; the middle goes straight into @buf, as bios
 * as large as the queue takes.  The range is cut at the end of the
 * device: reading at or past the end returns 0, reading across it
 * returns the bytes up to it.
 *
 * Context: process context; sleeps.
 * Return: bytes read (<= @len), or a negative errno (-EIO, -ENXIO for a
 * removed device, -ENODEV without a queue, -ENOMEM); on error the
 * contents of @buf are undefined.
 */
long blkdev_pread(struct block_device *bdev, void *buf, size_t len, u64 off);

/**
 * blkdev_pwrite - write @len bytes from @buf at byte offset @off of @bdev
 * @bdev: a disk or partition (offsets are relative to it)
 * @buf: lowmem source, any alignment
 * @len: bytes to write, any length
 * @off: byte offset, any alignment
 *
 * Partial logical blocks at either end are read, patched and written
 * back (read-modify-write, so not atomic against other writers of the
 * same block).  Cut at the end of the device as for blkdev_pread().  The
 * data may still sit in the device's write cache: blkdev_flush() makes
 * it durable.
 *
 * Context: process context; sleeps.
 * Return: bytes written (<= @len), or a negative errno (-EROFS for a
 * read-only device, -EIO, -ENXIO, -ENODEV, -ENOMEM).
 */
long blkdev_pwrite(struct block_device *bdev, const void *buf, size_t len, u64 off);

/**
 * blkdev_flush - empty the write cache of the disk under @bdev
 * Every write completed before the call is on stable media when it
 * returns 0.  Context: process context; sleeps.
 * Return: 0 or a negative errno.
 */
int blkdev_flush(struct block_device *bdev);

/**
 * blkdev_issue_discard - tell the device @nr_sects sectors at @sector of
 * @bdev hold nothing worth keeping (TRIM, UNMAP)
 * Relative to @bdev; both whole logical blocks.  What the range reads
 * afterwards is the device's business (zeroes, old data, anything): use
 * blkdev_issue_zeroout() for zeroes.  Context: process context; sleeps.
 * Return: 0, -EOPNOTSUPP when the device has no discard, -EINVAL for a
 * range not on logical blocks, -EROFS, -EIO (past the end), -ENODEV.
 */
int blkdev_issue_discard(struct block_device *bdev, sector_t sector, u64 nr_sects);

/**
 * blkdev_issue_zeroout - make @nr_sects sectors at @sector of @bdev read
 * as zeroes: WRITE ZEROES where the device has it, else ordinary writes
 * of a zeroed page.  Never through a discard (which promises no zeroes).
 * Context: process context; sleeps.
 * Return: 0 or a negative errno as for blkdev_issue_discard().
 */
int blkdev_issue_zeroout(struct block_device *bdev, sector_t sector, u64 nr_sects);

/**
 * blkdev_size - the size of @bdev in bytes (a partition's own size)
 * Context: any.
 */
u64 blkdev_size(struct block_device *bdev);

#endif
