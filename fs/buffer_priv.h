/*
 * The buffer cache's private declarations, shared by the files that make
 * it up and by nothing else (the contract is fs/buffer.h):
 *
 *	buffer.c		the cache: hash, LRU, eviction, bread/getblk/brelse
 *	buffer_io.c		a buffer's bio: submission, completion, waiting,
 *				the cache's fill read, readahead
 *	buffer_writeback.c	dirty buffers to the disk: sync, write-back, retry
 *	direct_io.c		file data around the cache (fs/direct_io.h)
 *	buffer_cmds.c		the `buffers` shell command
 *
 * Lock legend: [c] bcache.lock (irqsave): the hash, the LRU, the buffers'
 * b_state and b_count, the byte and buffer counts.  [s] caller-serialised
 * (the filesystems' callers hold vfs_lock, see fs/buffer.h; the `buffers`
 * command reads the statistics without it, a snapshot).  Bio completions run
 * in interrupt context and touch only b_state, b_count and the LRU, under
 * [c].  The statistics are [s] except where noted.
 */
#ifndef FS_BUFFER_PRIV_H
#define FS_BUFFER_PRIV_H

#include "fs/buffer.h"
#include "kernel/spinlock.h"

#define BUFFER_HASH_BITS	11
#define BUFFER_HASH_SIZE	(1u << BUFFER_HASH_BITS)
#define BUFFER_NR_SIZES		4		/* 512, 1024, 2048, 4096 */
#define BUFFER_RA_SLOTS		8		/* devices whose read pattern is tracked */
#define BUFFER_REGION_SHIFT	18		/* a region: 256 KiB of a device */
#define BUFFER_REGIONS		4096		/* region counters (hashed) */

struct kmem_cache;
struct completion;

/* Readahead state of one device (buffer_io.c). */
struct ra_state {
	struct block_device	*ra_bdev;
	u32			ra_size;	/* block size in use on the device */
	u64			ra_next;	/* block a sequential reader asks for next */
	u64			ra_end;		/* first block after what was read ahead */
	u32			ra_window;	/* blocks */
	u64			ra_used;	/* LRU stamp */
};

struct buffer_cache {
	spinlock_t		lock;
	struct list_head	hash[BUFFER_HASH_SIZE];	/* [c] */
	struct list_head	lru;			/* [c] oldest first */
	u64			bytes;			/* [c] block data held */
	u64			nr_buffers;		/* [c] */
	struct kmem_cache	*data[BUFFER_NR_SIZES];	/* [I] once made */
	struct ra_state		ra[BUFFER_RA_SLOTS];	/* [s] */
	u64			ra_clock;		/* [s] */
	u64			hits, misses, readahead, writes;	/* [s] stats */
	u64			direct;		/* [s] blocks moved by direct_rw_blocks */
	/*
	 * [c] for writers; read unlocked by the serialised caller, as only
	 * it adds and removes buffers.  Buffers hashed per (device, region),
	 * the region hashed into this array: a zero says no block of any
	 * region that hashes there is cached, so direct I/O can skip the
	 * per-block lookups (a collision only costs those lookups).
	 */
	u32			region[BUFFER_REGIONS];
};

extern struct buffer_cache bcache;
extern u64 bcache_limit;			/* bytes of block data kept (buffer.cache=) */

/* --- buffer.c: the cache ------------------------------------------------- */

/* 512..PAGE_SIZE and a power of two. */
bool buffer_size_ok(u32 size);
/* Make the hash, the LRU and the data slabs once; 0 or -ENOMEM. */
int buffer_cache_init(void);
/*
 * A new, referenced, not-uptodate buffer in the hash, or the cached one
 * (referenced); *created tells which.  NULL when out of memory.
 */
struct buffer_head *buffer_find_or_create(struct block_device *bdev, u64 block,
					  u32 size, bool *created);
/* The cached buffer of @block, referenced, or NULL. */
struct buffer_head *buffer_lookup_get(struct block_device *bdev, u64 block, u32 size);
/*
 * How many of the @n blocks from @block (in @size units) the cache surely
 * does not hold: 0 if the region of the first may hold one.
 */
u32 buffer_uncached_span(struct block_device *bdev, u64 block, u32 n, u32 size);
/* Forget @bdev's idle buffers whose size is not @size. */
void buffer_drop_other_sizes(struct block_device *bdev, u32 size);

/* --- buffer_io.c: a buffer's bio ----------------------------------------- */

/*
 * Send bhs[0..n) (consecutive blocks of one device and size, each marked
 * locked and referenced) as bios.  With @done the submitter counts them
 * through *pending and waits; the first error lands in *err.  Both change
 * by atomic operations (__atomic builtins), since the bios end on any CPU
 * while the submitter may still be adding to the count.  Without, it
 * is readahead: each buffer's reference goes with its I/O and nobody waits.
 */
void buffer_submit_run(struct buffer_head **bhs, unsigned n, bool write,
		       int *pending, struct completion *done, int *err);
/* Let @bdev's queue go now: the caller is about to wait for its I/O. */
void buffer_kick(struct block_device *bdev);
/* Wait until @bh has no I/O in flight. */
void wait_on_buffer(struct buffer_head *bh);
/* The cache's fill path: read @bh from the disk unless uptodate, and wait. */
int bh_submit_read(struct buffer_head *bh);
/* Note a read of @block (a hit if @cached) and read ahead if sequential. */
void buffer_note_access(struct block_device *bdev, u64 block, u32 size, bool cached);
/* Read [block, block+n) asynchronously, skipping what is cached. */
void buffer_readahead(struct block_device *bdev, u64 block, u32 n, u32 size);

/* --- buffer_writeback.c -------------------------------------------------- */

/* Write back the dirty buffers of @bdev (all devices if NULL); 0 or -errno. */
int buffer_writeback(struct block_device *bdev);

#endif
