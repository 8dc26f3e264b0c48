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
 * in bulk bypasses the buffers with direct_rw_blocks() (fs/direct_io.h),
 * which stays coherent with them.
 *
 * Block numbers are in units of the size passed with them (1, 2 or 4 KiB
 * for ext2); one device uses one size at a time, except that a filesystem
 * may read with 1024 first (the ext2 superblock) and then switch: asking
 * for a different size drops the clean, unreferenced buffers of the old one.
 *
 * Implementations: fs/buffer.c and its neighbours over bios (the kernel:
 * buffer.c the cache, buffer_io.c its bios and readahead,
 * buffer_writeback.c its writes; see fs/buffer_priv.h) and tests/unit/fakes/buffer_file.c over an image file or memory
 * (host tests).  The device's size and name come from the block layer
 * (blkdev_size(), bdev_name()).
 *
 * Locking: callers are serialised: every caller is a filesystem, entered
 * under the VFS's vfs_lock (fs/vfs.h), so one CPU at a time calls in; the
 * cache itself takes its own lock around its lists and the buffers'
 * b_state and b_count, which bio completions on any CPU change.
 */
#ifndef FS_BUFFER_H
#define FS_BUFFER_H

#include "kernel/compiler.h"
#include "lib/list.h"

struct block_device;

/*
 * b_state bits.  Writers hold the cache's lock ([c]; in fs/buffer.c that
 * is bcache.lock, taken irqsave, since bio completions change the bits in
 * interrupt context); the tests read one bit with READ_ONCE and need no
 * lock.  Use the helpers below, never the raw bits.
 */
enum bh_state_bits {
	BH_Uptodate,	/* b_data holds the disk's contents (or newer) */
	BH_Dirty,	/* b_data is newer than the disk */
	BH_Error,	/* the last read or write of this block failed */
	BH_Lock,	/* I/O in flight (the cache's own; callers never set it) */
};

/*
 * Lock legend: [I] immutable while the buffer exists, [c] the cache's lock,
 * [o] the reference holder (serialised filesystem caller).
 */
struct buffer_head {
	struct block_device	*b_bdev;	/* [I] */
	u64			b_blocknr;	/* [I] in b_size units */
	u32			b_size;		/* [I] bytes: 512..4096, a power of two */
	u8			*b_data;	/* [I] pointer; contents [o] */
	unsigned long		b_state;	/* [c] BH_* bits, through the helpers */
	u32			b_count;	/* [c] references */
	struct list_head	b_hash;		/* [c] on the cache's hash chain */
	struct list_head	b_lru;		/* [c] on the LRU, when b_count == 0 */
};

/*
 * buffer_NAME(bh) tests a bit, set_buffer_NAME(bh) and clear_buffer_NAME(bh)
 * change it (caller holds [c]; see above).  Linux's BUFFER_FNS.
 */
#define BUFFER_FNS(bit, name)						\
static inline bool buffer_##name(const struct buffer_head *bh)		\
{									\
	return READ_ONCE(bh->b_state) & (1UL << BH_##bit);		\
}									\
static inline void set_buffer_##name(struct buffer_head *bh)		\
{									\
	bh->b_state |= 1UL << BH_##bit;					\
}									\
static inline void clear_buffer_##name(struct buffer_head *bh)		\
{									\
	bh->b_state &= ~(1UL << BH_##bit);				\
}

BUFFER_FNS(Uptodate, uptodate)
BUFFER_FNS(Dirty, dirty)
BUFFER_FNS(Error, error)
BUFFER_FNS(Lock, locked)

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

/*
 * Write @bh now if dirty and wait for it.  Returns 0, -EIO (the device
 * failed it) or -ENOMEM (no bio could be built; nothing was sent).  Either
 * way a failed buffer stays dirty.
 */
int sync_dirty_buffer(struct buffer_head *bh);

/*
 * Write every dirty buffer of @bdev in block order, wait, then flush the
 * device's write cache.  Returns 0 or the first error (-EIO, -ENOMEM as
 * for sync_dirty_buffer()).
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

#endif
