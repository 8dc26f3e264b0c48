/*
 * The buffer cache contract: filesystem blocks keyed by (block device,
 * block number), each a b_size-byte copy of the disk held in memory while
 * someone has a reference or until the cache evicts it.
 *
 * A filesystem reads metadata with bread(), modifies b_data in place,
 * calls mark_buffer_dirty() and drops its reference with brelse().  Dirty
 * buffers reach the disk at sync_dirty_buffer() (that one, now),
 * sync_blockdev() (all of a device's, in block order, then a cache flush),
 * or when the cache writes back to make room.  getblk() is bread() for a
 * block about to be overwritten entirely: no read, contents undefined
 * until the caller fills them and calls set_buffer_uptodate().  File data
 * in bulk bypasses the buffers with direct_rw_blocks(), which stays
 * coherent with them.
 *
 * Block numbers are in units of the size passed with them (1, 2 or 4 KiB
 * for ext2); one device uses one size at a time, except that a filesystem
 * may read with 1024 first (the ext2 superblock) and then switch: asking
 * for a different size drops the clean, unreferenced buffers of the old one.
 *
 * Implementations: fs/buffer.c over bios (the kernel) and
 * tests/unit/fakes/buffer_file.c over an image file or memory (host tests).
 * The device calls at the bottom belong to the block layer's registry;
 * they are declared here until block/ exports them.
 *
 * Locking: callers are serialised (one filesystem caller at a time, the
 * shell thread); the cache itself takes its own lock around its lists.
 */
#ifndef FS_BUFFER_H
#define FS_BUFFER_H

#include "kernel/compiler.h"
#include "lib/list.h"

struct block_device;

/* b_state bits */
#define BH_Uptodate	0	/* b_data holds the disk's contents (or newer) */
#define BH_Dirty	1	/* b_data is newer than the disk */
#define BH_Error	2	/* the last read or write of this block failed */

/*
 * Lock legend: [I] immutable while the buffer exists, [c] the cache's lock,
 * [o] the reference holder (serialised filesystem caller).
 */
struct buffer_head {
	struct block_device	*b_bdev;	/* [I] */
	u64			b_blocknr;	/* [I] in b_size units */
	u32			b_size;		/* [I] bytes: 512..4096, a power of two */
	u8			*b_data;	/* [I] pointer; contents [o] */
	unsigned long		b_state;	/* [c] BH_* bits */
	u32			b_count;	/* [c] references */
	struct list_head	b_hash;		/* [c] on the cache's hash chain */
	struct list_head	b_lru;		/* [c] on the LRU, when b_count == 0 */
};

static inline bool buffer_uptodate(const struct buffer_head *bh)
{
	return bh->b_state & (1UL << BH_Uptodate);
}

static inline bool buffer_dirty(const struct buffer_head *bh)
{
	return bh->b_state & (1UL << BH_Dirty);
}

static inline void set_buffer_uptodate(struct buffer_head *bh)
{
	bh->b_state |= 1UL << BH_Uptodate;
}

/**
 * bread - a referenced buffer holding block @block of @bdev
 * @bdev:  the device
 * @block: block number in @size units
 * @size:  block size in bytes
 *
 * Returns the buffer, or ERR_PTR(-EIO) when the read fails,
 * ERR_PTR(-ENXIO) past the end of the device, ERR_PTR(-ENOMEM).
 * Process context; may wait for the I/O.  Release with brelse().
 */
struct buffer_head *bread(struct block_device *bdev, u64 block, u32 size);

/* As bread() without reading: for a block the caller overwrites entirely. */
struct buffer_head *getblk(struct block_device *bdev, u64 block, u32 size);

/* Start reading @block if it is not cached; never waits, errors are ignored. */
void breadahead(struct block_device *bdev, u64 block, u32 size);

/* Drop a reference; NULL is allowed.  The buffer stays cached. */
void brelse(struct buffer_head *bh);

/* The caller changed b_data: the block must be written back. */
void mark_buffer_dirty(struct buffer_head *bh);

/**
 * direct_rw_blocks - move whole blocks between memory and the device
 * @bdev:  the device
 * @block: first block, in @size units
 * @n:     how many consecutive blocks
 * @size:  block size in bytes (the one the device's buffers use)
 * @buf:   n * size bytes: the destination of a read, the source of a write
 * @write: direction
 *
 * For file data in bulk, without a buffer per block.  Coherence rule:
 * every block the cache holds is moved through its buffer (a read copies
 * it out, reading it first if it is not uptodate; a write copies into it
 * and marks it dirty); only the blocks the cache does not hold go straight
 * between @buf and the device, as large bios, and the call returns when
 * they are done.  The I/O is synchronous and callers are serialised, so
 * no buffer can appear for a block while its direct I/O is in flight, and
 * a buffer made later reads what the direct write left on the device.
 * Written blocks are on the device, not yet flushed: sync_blockdev()
 * flushes them with the rest.
 *
 * Returns 0, -EIO (some blocks may have moved), -ENXIO past the end of
 * the device, -ENOMEM, -EINVAL for a bad size.  Process context.
 */
int direct_rw_blocks(struct block_device *bdev, u64 block, u32 n, u32 size,
		     void *buf, bool write);

/* Write @bh now if dirty and wait for it.  Returns 0 or -EIO. */
int sync_dirty_buffer(struct buffer_head *bh);

/*
 * Write every dirty buffer of @bdev in block order, wait, then flush the
 * device's write cache.  Returns 0 or the first error (-EIO).
 */
int sync_blockdev(struct block_device *bdev);

/*
 * Forget every buffer of @bdev (at unmount, after sync_blockdev), dirty
 * ones included: their writes failed, and a buffer must not outlive the
 * mount to be written later behind the next user of the device.
 * Returns 0, -EBUSY if one still has a reference (a leak), -EIO if dirty
 * ones were dropped (both reported).
 */
int invalidate_bdev(struct block_device *bdev);

/* --- Device queries (the block layer's registry provides these) --- */

/* Size in bytes. */
u64 bdev_nr_bytes(struct block_device *bdev);
/* True unless the disk was named writable (see the gendisk issue). */
bool bdev_read_only(struct block_device *bdev);
/* "sda1": valid while the device is open. */
const char *bdev_name(struct block_device *bdev);

#endif
