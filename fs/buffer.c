/*
 * The buffer cache over bios (contract: fs/buffer.h).
 *
 * Blocks are kept per (device, block number, size) in a hash table, with
 * unreferenced ones on an LRU list that is trimmed to cache_limit bytes.
 * Block data comes from one slab cache per block size, aligned to the
 * size, so a block never straddles a page and is described to the block
 * layer as one {page, offset, len} vector.  All I/O is bios: a read of a
 * run of blocks is one multi-page bio; write-back sorts the dirty blocks
 * by number and sends each run of consecutive blocks as one bio, so the
 * elevator sees large requests in sector order (a run that fails is
 * written again block by block, so that a bad sector costs only its own
 * block); sync_blockdev ends with a cache flush, the ordering promise the
 * filesystem relies on.
 *
 * Sequential readahead: per device the cache remembers the next block it
 * expects; a hit on it doubles a window (up to RA_MAX_BYTES) and reads
 * that far ahead asynchronously.
 *
 * Direct I/O (direct_rw_blocks) moves file data in bulk: runs of blocks
 * the cache does not hold go as bios straight between the caller's memory
 * and the device (through bounce pages when that memory is not lowmem or
 * not block-aligned), and each block it does hold goes through its buffer
 * instead, so a cached copy is never bypassed.
 *
 * Lock legend: [c] cache.lock (irqsave): the hash, the LRU, b_state and
 * b_count, the byte count.  Callers are serialised (see fs/buffer.h);
 * bio completions run in interrupt context and touch only b_state.
 */
#include "fs/buffer.h"
#include "block/bio.h"
#include "block/blkdev.h"
#include "block/blkdev_io.h"
#include "kernel/completion.h"
#include "kernel/console.h"
#include "kernel/shell.h"
#include "kernel/errno.h"
#include "kernel/param.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "kernel/mm/page.h"
#include "kernel/mm/slab.h"
#include "lib/sort.h"
#include "lib/string.h"

#define BH_Lock		8	/* I/O in flight; private to this file */

#define HASH_BITS	11
#define HASH_SIZE	(1u << HASH_BITS)
#define NR_SIZES	4		/* 512, 1024, 2048, 4096 */
#define MIN_SIZE_SHIFT	9
#define RA_SLOTS	8		/* devices whose read pattern is tracked */
#define RA_MIN_BLOCKS	4
#define RA_MAX_BYTES	(128 * 1024)	/* readahead window cap */
#define DEFAULT_LIMIT	(32ULL << 20)	/* bytes of block data kept */
#define DIRECT_BOUNCE_ORDER 4		/* 2^n pages: the bounce for direct I/O on
					   memory the device cannot be given */

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
	struct list_head	hash[HASH_SIZE];	/* [c] */
	struct list_head	lru;			/* [c] oldest first */
	u64			bytes;			/* [c] block data held */
	u64			nr_buffers;		/* [c] */
	struct kmem_cache	*data[NR_SIZES];	/* [I] */
	struct ra_state		ra[RA_SLOTS];		/* caller-serialised */
	u64			ra_clock;
	u64			hits, misses, readahead, writes;	/* stats */
	u64			direct;		/* blocks moved by direct_rw_blocks */
};

static struct buffer_cache cache;
static u64 cache_limit = DEFAULT_LIMIT;
PARAM_SIZE("buffer.cache", cache_limit, "bytes of disk blocks the buffer cache keeps (default 32M)");

/* One bio's worth of buffers, for its completion. */
struct buf_io {
	unsigned		bi_n;
	int			*bi_pending;	/* submitter's countdown, or NULL */
	struct completion	*bi_done;
	int			*bi_err;	/* first error, for the submitter */
	struct buffer_head	*bi_bhs[];
};

static unsigned size_index(u32 size)
{
	return (unsigned)__builtin_ctz(size) - MIN_SIZE_SHIFT;
}

static bool size_ok(u32 size)
{
	return is_power_of_2(size) && size >= 512 && size <= PAGE_SIZE;
}

static struct list_head *hash_of(struct block_device *bdev, u64 block)
{
	u64 h = ((u64)(uintptr_t)bdev >> 4) ^ (block * 0x9E3779B97F4A7C15ULL);

	return &cache.hash[(h >> 32) & (HASH_SIZE - 1)];
}

static int cache_init(void)
{
	static const char *const names[NR_SIZES] = {
		"buffer-512", "buffer-1024", "buffer-2048", "buffer-4096",
	};
	unsigned i;

	if (cache.data[0])
		return 0;
	spin_lock_init(&cache.lock, "buffer cache");
	for (i = 0; i < HASH_SIZE; i++)
		INIT_LIST_HEAD(&cache.hash[i]);
	INIT_LIST_HEAD(&cache.lru);
	for (i = 0; i < NR_SIZES; i++) {
		u32 sz = 1u << (i + MIN_SIZE_SHIFT);

		cache.data[i] = kmem_cache_create(names[i], sz, sz);
		if (!cache.data[i])
			return -ENOMEM;
	}
	return 0;
}

static struct buffer_head *__lookup(struct block_device *bdev, u64 block, u32 size)
{
	struct buffer_head *bh;

	list_for_each_entry(bh, hash_of(bdev, block), b_hash)
		if (bh->b_bdev == bdev && bh->b_blocknr == block && bh->b_size == size)
			return bh;
	return NULL;
}

static void free_buffer(struct buffer_head *bh)
{
	kmem_cache_free(cache.data[size_index(bh->b_size)], bh->b_data);
	kfree(bh);
}

/* Unlink a clean, idle buffer and free it.  Caller holds the lock. */
static void __drop(struct buffer_head *bh)
{
	list_del(&bh->b_hash);
	list_del(&bh->b_lru);
	cache.bytes -= bh->b_size;
	cache.nr_buffers--;
}

static bool idle(const struct buffer_head *bh)
{
	return bh->b_count == 0 &&
	       !(bh->b_state & ((1UL << BH_Dirty) | (1UL << BH_Lock)));
}

/*
 * Free the oldest idle buffers until @need more bytes fit under the limit
 * (freeing only down to the limit itself would leave no room, and every
 * new buffer would then force a full write-back).
 */
static void shrink(u32 need)
{
	struct buffer_head *bh, *tmp;
	unsigned long flags;
	LIST_HEAD(victims);

	spin_lock_irqsave(&cache.lock, flags);
	list_for_each_entry_safe(bh, tmp, &cache.lru, b_lru) {
		if (cache.bytes + need <= cache_limit)
			break;
		if (!idle(bh))
			continue;
		__drop(bh);
		list_add(&bh->b_lru, &victims);
	}
	spin_unlock_irqrestore(&cache.lock, flags);
	list_for_each_entry_safe(bh, tmp, &victims, b_lru)
		free_buffer(bh);
}

static int writeback(struct block_device *bdev);

/*
 * A new, referenced, not-uptodate buffer in the hash, or the cached one
 * (referenced).  *created tells which.  NULL when out of memory.
 */
static struct buffer_head *find_or_create(struct block_device *bdev, u64 block,
					  u32 size, bool *created)
{
	struct buffer_head *bh, *nbh;
	unsigned long flags;
	u8 *data;

	*created = false;
	spin_lock_irqsave(&cache.lock, flags);
	bh = __lookup(bdev, block, size);
	if (bh) {
		if (bh->b_count++ == 0)
			list_del_init(&bh->b_lru);
		spin_unlock_irqrestore(&cache.lock, flags);
		return bh;
	}
	spin_unlock_irqrestore(&cache.lock, flags);

	if (cache.bytes + size > cache_limit) {
		shrink(size);
		if (cache.bytes + size > cache_limit) {	/* all dirty: write some back */
			writeback(NULL);
			shrink(size);
		}
	}
	nbh = kzalloc(sizeof(*nbh), GFP_NOIO);
	/* Zeroed: a device that moves no data (nullb) must not show another
	 * device's blocks left in recycled memory. */
	data = kmem_cache_zalloc(cache.data[size_index(size)], GFP_NOIO);
	if (!nbh || !data) {
		kfree(nbh);
		if (data)
			kmem_cache_free(cache.data[size_index(size)], data);
		return NULL;
	}
	nbh->b_bdev = bdev;
	nbh->b_blocknr = block;
	nbh->b_size = size;
	nbh->b_data = data;
	nbh->b_count = 1;
	INIT_LIST_HEAD(&nbh->b_lru);

	spin_lock_irqsave(&cache.lock, flags);
	bh = __lookup(bdev, block, size);	/* readahead may have raced us */
	if (bh) {
		if (bh->b_count++ == 0)
			list_del_init(&bh->b_lru);
		spin_unlock_irqrestore(&cache.lock, flags);
		free_buffer(nbh);
		return bh;
	}
	list_add(&nbh->b_hash, hash_of(bdev, block));
	cache.bytes += size;
	cache.nr_buffers++;
	spin_unlock_irqrestore(&cache.lock, flags);
	*created = true;
	return nbh;
}

/* --- I/O -------------------------------------------------------------- */

static void end_buffer_io(struct bio *bio, int error)
{
	struct buf_io *io = bio->bi_private;
	bool write = bio_is_write(bio);
	unsigned long flags;
	unsigned i;

	spin_lock_irqsave(&cache.lock, flags);
	for (i = 0; i < io->bi_n; i++) {
		struct buffer_head *bh = io->bi_bhs[i];

		bh->b_state &= ~(1UL << BH_Lock);
		if (error) {
			bh->b_state |= 1UL << BH_Error;
			if (write)	/* still newer than the disk */
				bh->b_state |= 1UL << BH_Dirty;
		} else {
			bh->b_state &= ~(1UL << BH_Error);
			if (!write)
				bh->b_state |= 1UL << BH_Uptodate;
		}
		/* Readahead buffers hold a reference until their read lands. */
		if (!io->bi_done && --bh->b_count == 0)
			list_add_tail(&bh->b_lru, &cache.lru);
	}
	spin_unlock_irqrestore(&cache.lock, flags);
	if (error && io->bi_err && !*io->bi_err)
		*io->bi_err = error;
	if (io->bi_pending && --*io->bi_pending == 0)
		complete(io->bi_done);
	kfree(io);
	bio_put(bio);
}

/*
 * Send as many of bhs[0..n) (consecutive blocks of one device and size,
 * each already marked BH_Lock) as the queue takes in one bio; returns how
 * many it took (all n, marked failed, if the bio could not be built).
 */
static unsigned submit_some(struct buffer_head **bhs, unsigned n, bool write,
			    int *pending, struct completion *done, int *err)
{
	struct buffer_head *first = bhs[0];
	struct buf_io *io;
	struct bio *bio;
	unsigned i;

	io = kmalloc(sizeof(*io) + n * sizeof(bhs[0]), GFP_NOIO);
	bio = bio_alloc(GFP_NOIO, n);
	if (!io || !bio)
		goto fail;
	io->bi_n = n;
	io->bi_pending = pending;
	io->bi_done = done;
	io->bi_err = err;
	memcpy(io->bi_bhs, bhs, n * sizeof(bhs[0]));
	bio->bi_bdev = first->b_bdev;
	bio->bi_iter.bi_sector = first->b_blocknr * (first->b_size >> SECTOR_SHIFT);
	bio->bi_rw = write ? REQ_WRITE : 0;
	bio->bi_end_io = end_buffer_io;
	bio->bi_private = io;
	for (i = 0; i < n; i++) {
		u8 *d = bhs[i]->b_data;

		if (bio_add_page(bio, virt_to_page(d), bhs[i]->b_size,
				 (u32)((uintptr_t)d & ~PAGE_MASK)))
			break;
	}
	if (i == 0)
		goto fail;
	io->bi_n = i;		/* the queue's limits may stop the bio short */
	if (pending)
		++*pending;
	submit_bio(bio);
	return i;

fail:	/* out of memory (I/O path allocations should not fail): report it as EIO */
	if (bio)
		bio_put(bio);
	kfree(io);
	{
		unsigned long flags;

		spin_lock_irqsave(&cache.lock, flags);
		for (i = 0; i < n; i++) {
			bhs[i]->b_state &= ~(1UL << BH_Lock);
			bhs[i]->b_state |= 1UL << BH_Error;
			if (write)
				bhs[i]->b_state |= 1UL << BH_Dirty;
			if (!done && --bhs[i]->b_count == 0)
				list_add_tail(&bhs[i]->b_lru, &cache.lru);
		}
		spin_unlock_irqrestore(&cache.lock, flags);
	}
	if (err && !*err)
		*err = -ENOMEM;
	return n;
}

/*
 * Send bhs[0..n) as bios: one if the queue's limits (max_hw_sectors,
 * segments) allow, else as many as they need.  With done, the caller
 * counts completions through *pending; without, it is readahead and
 * nobody waits.
 */
static void submit_run(struct buffer_head **bhs, unsigned n, bool write,
		       int *pending, struct completion *done, int *err)
{
	unsigned k;

	while (n) {
		k = submit_some(bhs, n, write, pending, done, err);
		bhs += k;
		n -= k;
	}
}

/*
 * About to wait for I/O on bdev: let its queue go now rather than when the
 * plug timer fires (the 2.6 "unplug before you sleep" rule).  Without it
 * every synchronous read waited BLK_UNPLUG_DELAY_MS for nothing.
 */
static void kick(struct block_device *bdev)
{
	struct request_queue *q = bdev_get_queue(bdev);

	if (q)
		blk_unplug(q);
}

static void wait_on_buffer(struct buffer_head *bh)
{
	if (!(READ_ONCE(bh->b_state) & (1UL << BH_Lock)))
		return;
	kick(bh->b_bdev);
	while (READ_ONCE(bh->b_state) & (1UL << BH_Lock))
		cpu_idle_once();	/* the block layer's timeouts bound this */
}

/* Read one buffer now; returns 0 or -EIO. */
static int read_buffer(struct buffer_head *bh)
{
	struct completion done;
	unsigned long flags;
	int pending = 0, err = 0;

	spin_lock_irqsave(&cache.lock, flags);
	if (bh->b_state & ((1UL << BH_Uptodate) | (1UL << BH_Lock))) {
		spin_unlock_irqrestore(&cache.lock, flags);
		wait_on_buffer(bh);
		return buffer_uptodate(bh) ? 0 : -EIO;
	}
	bh->b_state |= 1UL << BH_Lock;
	spin_unlock_irqrestore(&cache.lock, flags);
	init_completion(&done);
	submit_run(&bh, 1, false, &pending, &done, &err);
	if (pending) {
		kick(bh->b_bdev);
		wait_for_completion(&done);
	}
	return buffer_uptodate(bh) ? 0 : -EIO;
}

/* --- readahead ---------------------------------------------------------- */

static struct ra_state *ra_slot(struct block_device *bdev)
{
	struct ra_state *r, *oldest = &cache.ra[0];

	for (r = cache.ra; r < cache.ra + RA_SLOTS; r++) {
		if (r->ra_bdev == bdev)
			goto found;
		if (r->ra_used < oldest->ra_used)
			oldest = r;
	}
	r = oldest;
	memset(r, 0, sizeof(*r));
	r->ra_bdev = bdev;
found:
	r->ra_used = ++cache.ra_clock;
	return r;
}

/* Read [block, block+n) asynchronously, skipping what is cached. */
static void readahead_range(struct block_device *bdev, u64 block, u32 n, u32 size)
{
	struct buffer_head *run[64];
	unsigned cnt = 0;
	u64 end = block + n, limit = bdev_nr_bytes(bdev) / size;

	if (end > limit)
		end = limit;
	for (; block < end; block++) {
		struct buffer_head *bh;
		unsigned long flags;
		bool created;

		bh = find_or_create(bdev, block, size, &created);
		if (!bh)
			break;
		spin_lock_irqsave(&cache.lock, flags);
		if (!created || (bh->b_state & (1UL << BH_Uptodate))) {
			spin_unlock_irqrestore(&cache.lock, flags);
			brelse(bh);
			if (cnt)
				submit_run(run, cnt, false, NULL, NULL, NULL);
			cnt = 0;
			continue;
		}
		bh->b_state |= 1UL << BH_Lock;	/* the reference goes with the I/O */
		spin_unlock_irqrestore(&cache.lock, flags);
		run[cnt++] = bh;
		cache.readahead++;
		if (cnt == ARRAY_SIZE(run)) {
			submit_run(run, cnt, false, NULL, NULL, NULL);
			cnt = 0;
		}
	}
	if (cnt)
		submit_run(run, cnt, false, NULL, NULL, NULL);
}

/*
 * The device switched block size (ext2 reads its superblock in 1 KiB
 * units, then uses its own): forget the idle buffers of other sizes, which
 * could otherwise go stale beside the new ones.
 */
static void drop_other_sizes(struct block_device *bdev, u32 size)
{
	struct buffer_head *bh, *tmp;
	unsigned long flags;
	LIST_HEAD(victims);
	unsigned i;

	spin_lock_irqsave(&cache.lock, flags);
	for (i = 0; i < HASH_SIZE; i++)
		list_for_each_entry_safe(bh, tmp, &cache.hash[i], b_hash)
			if (bh->b_bdev == bdev && bh->b_size != size && idle(bh)) {
				__drop(bh);
				list_add(&bh->b_lru, &victims);
			}
	spin_unlock_irqrestore(&cache.lock, flags);
	list_for_each_entry_safe(bh, tmp, &victims, b_lru)
		free_buffer(bh);
}

/*
 * Readahead, per device.  A miss on the block after the previous miss (or
 * just past what was read ahead) is a sequential reader: double the
 * window and read that far ahead.  A hit inside the read-ahead region that
 * comes within half a window of its end reads the next window, so a
 * steady reader never waits.  Other hits (metadata: inode tables, indirect
 * blocks, read between data blocks) leave the state alone.
 */
static void note_access(struct block_device *bdev, u64 block, u32 size, bool cached)
{
	struct ra_state *r = ra_slot(bdev);
	u32 max = RA_MAX_BYTES / size;

	if (r->ra_size != size) {
		if (r->ra_size)
			drop_other_sizes(bdev, size);
		r->ra_size = size;
		r->ra_window = 0;
		r->ra_end = 0;
	}
	if (cached) {
		if (r->ra_window && block < r->ra_end && block + r->ra_window / 2 >= r->ra_end) {
			readahead_range(bdev, r->ra_end, r->ra_window, size);
			r->ra_end += r->ra_window;
		}
		return;
	}
	if (block != 0 && (block == r->ra_next || block == r->ra_end)) {
		if (r->ra_window == 0)
			r->ra_window = RA_MIN_BLOCKS;
		else if (r->ra_window < max)
			r->ra_window = min(r->ra_window * 2, max);
		readahead_range(bdev, block + 1, r->ra_window, size);
		r->ra_end = block + 1 + r->ra_window;
	} else {
		r->ra_window = 0;
	}
	r->ra_next = block + 1;
}

/* --- the contract ------------------------------------------------------- */

static struct buffer_head *get_buffer(struct block_device *bdev, u64 block, u32 size,
				      bool read)
{
	struct buffer_head *bh;
	bool created;
	int err;

	if (!size_ok(size))
		return ERR_PTR(-EINVAL);
	err = cache_init();
	if (err)
		return ERR_PTR(err);
	if (block >= bdev_nr_bytes(bdev) / size)
		return ERR_PTR(-ENXIO);
	bh = find_or_create(bdev, block, size, &created);
	if (!bh)
		return ERR_PTR(-ENOMEM);
	if (!read)
		return bh;
	if (buffer_uptodate(bh) && !(bh->b_state & (1UL << BH_Lock)))
		cache.hits++;
	else
		cache.misses++;
	note_access(bdev, block, size, !created);	/* cached, or on its way */
	err = read_buffer(bh);
	if (err) {
		brelse(bh);
		return ERR_PTR(err);
	}
	return bh;
}

struct buffer_head *bread(struct block_device *bdev, u64 block, u32 size)
{
	return get_buffer(bdev, block, size, true);
}

struct buffer_head *getblk(struct block_device *bdev, u64 block, u32 size)
{
	struct buffer_head *bh = get_buffer(bdev, block, size, false);

	if (!IS_ERR(bh))
		wait_on_buffer(bh);	/* a readahead may still be landing */
	return bh;
}

void breadahead(struct block_device *bdev, u64 block, u32 size)
{
	if (size_ok(size) && cache_init() == 0)
		readahead_range(bdev, block, 1, size);
}

void brelse(struct buffer_head *bh)
{
	unsigned long flags;

	if (!bh)
		return;
	spin_lock_irqsave(&cache.lock, flags);
	KASSERT(bh->b_count > 0);
	if (--bh->b_count == 0)
		list_add_tail(&bh->b_lru, &cache.lru);
	spin_unlock_irqrestore(&cache.lock, flags);
}

void mark_buffer_dirty(struct buffer_head *bh)
{
	unsigned long flags;

	spin_lock_irqsave(&cache.lock, flags);
	bh->b_state |= (1UL << BH_Dirty) | (1UL << BH_Uptodate);
	spin_unlock_irqrestore(&cache.lock, flags);
}

static int cmp_block(const void *a, const void *b)
{
	const struct buffer_head *x = *(struct buffer_head *const *)a;
	const struct buffer_head *y = *(struct buffer_head *const *)b;

	if (x->b_bdev != y->b_bdev)
		return (uintptr_t)x->b_bdev < (uintptr_t)y->b_bdev ? -1 : 1;
	if (x->b_size != y->b_size)
		return x->b_size < y->b_size ? -1 : 1;
	return x->b_blocknr < y->b_blocknr ? -1 : x->b_blocknr > y->b_blocknr;
}

/*
 * Write v[0..n) (sorted by cmp_block, each referenced and marked BH_Lock)
 * as one bio per run of at most @max consecutive blocks, and wait for all
 * of them.  Returns 0 or -EIO; a buffer whose write failed is dirty again,
 * with BH_Error.
 */
static int write_buffers(struct buffer_head **v, size_t n, size_t max)
{
	struct completion done;
	unsigned long flags;
	size_t i, j;
	int pending = 1, err = 0;	/* pending held until every run is submitted */

	init_completion(&done);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && j - i < max &&
		     v[j]->b_bdev == v[i]->b_bdev && v[j]->b_size == v[i]->b_size &&
		     v[j]->b_blocknr == v[j - 1]->b_blocknr + 1; j++)
			;
		submit_run(v + i, (unsigned)(j - i), true, &pending, &done, &err);
		cache.writes += j - i;
	}
	local_irq_save(flags);
	if (--pending == 0)
		complete(&done);
	local_irq_restore(flags);
	for (i = 0; i < n; i++)		/* runs are sorted by device */
		if (i == 0 || v[i]->b_bdev != v[i - 1]->b_bdev)
			kick(v[i]->b_bdev);
	wait_for_completion(&done);
	return err ? -EIO : 0;
}

/*
 * After a failed write_buffers(), write each buffer that failed again on
 * its own, waiting for each so that the queue cannot merge them: a request
 * fails as a whole, and one bad sector must not cost the blocks that merely
 * shared it (nor a passing error any block).  Returns 0 or -EIO.
 */
static int rewrite_failed(struct buffer_head **v, size_t n)
{
	struct buffer_head *bh;
	unsigned long flags;
	int err = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		bh = v[i];
		spin_lock_irqsave(&cache.lock, flags);
		if (!buffer_dirty(bh) || !(bh->b_state & (1UL << BH_Error))) {
			spin_unlock_irqrestore(&cache.lock, flags);
			continue;
		}
		bh->b_state &= ~(1UL << BH_Dirty);
		bh->b_state |= 1UL << BH_Lock;
		spin_unlock_irqrestore(&cache.lock, flags);
		if (write_buffers(&v[i], 1, 1))
			err = -EIO;
	}
	return err;
}

/*
 * Write the dirty buffers of bdev (all devices if NULL) in block order,
 * as one bio per run of consecutive blocks, and wait for all of them;
 * the blocks of a run that failed are tried again one by one.  Returns 0
 * or -EIO (the buffers that could not be written stay dirty).
 */
static int writeback(struct block_device *bdev)
{
	struct buffer_head **v, *bh;
	unsigned long flags;
	size_t n = 0, cap, i;
	int err;

	cap = cache.nr_buffers;
	if (!cap)
		return 0;
	v = kmalloc(cap * sizeof(*v), GFP_NOIO);
	if (!v)
		return -ENOMEM;
	spin_lock_irqsave(&cache.lock, flags);
	for (i = 0; i < HASH_SIZE && n < cap; i++) {
		list_for_each_entry(bh, &cache.hash[i], b_hash) {
			if (n == cap)
				break;
			if ((bdev && bh->b_bdev != bdev) || !buffer_dirty(bh) ||
			    (bh->b_state & (1UL << BH_Lock)))
				continue;
			bh->b_state &= ~(1UL << BH_Dirty);
			bh->b_state |= 1UL << BH_Lock;
			if (bh->b_count++ == 0)
				list_del_init(&bh->b_lru);
			v[n++] = bh;
		}
	}
	spin_unlock_irqrestore(&cache.lock, flags);

	sort(v, n, sizeof(*v), cmp_block);
	err = write_buffers(v, n, BIO_MAX_VECS);
	if (err)
		err = rewrite_failed(v, n);
	for (i = 0; i < n; i++)
		brelse(v[i]);
	kfree(v);
	return err;
}

int sync_dirty_buffer(struct buffer_head *bh)
{
	struct completion done;
	unsigned long flags;
	int pending = 0, err = 0;

	wait_on_buffer(bh);
	spin_lock_irqsave(&cache.lock, flags);
	if (!buffer_dirty(bh)) {
		spin_unlock_irqrestore(&cache.lock, flags);
		return (bh->b_state & (1UL << BH_Error)) ? -EIO : 0;
	}
	bh->b_state &= ~(1UL << BH_Dirty);
	bh->b_state |= 1UL << BH_Lock;
	spin_unlock_irqrestore(&cache.lock, flags);
	init_completion(&done);
	submit_run(&bh, 1, true, &pending, &done, &err);
	if (pending) {
		kick(bh->b_bdev);
		wait_for_completion(&done);
	}
	return err ? -EIO : 0;
}

int sync_blockdev(struct block_device *bdev)
{
	int err, ferr;

	if (!cache.data[0])
		return bdev_read_only(bdev) ? 0 : blkdev_flush(bdev);
	err = writeback(bdev);
	if (bdev_read_only(bdev))
		return err;
	ferr = blkdev_flush(bdev);
	return err ? err : ferr;
}

int invalidate_bdev(struct block_device *bdev)
{
	struct buffer_head *bh, *tmp;
	unsigned long flags;
	LIST_HEAD(victims);
	int busy = 0, lost = 0;
	unsigned i;

	if (!cache.data[0])
		return 0;
	spin_lock_irqsave(&cache.lock, flags);
	for (i = 0; i < HASH_SIZE; i++) {
		list_for_each_entry_safe(bh, tmp, &cache.hash[i], b_hash) {
			if (bh->b_bdev != bdev)
				continue;
			if (bh->b_count || (bh->b_state & (1UL << BH_Lock))) {
				busy++;
				continue;
			}
			lost += buffer_dirty(bh);
			__drop(bh);
			list_add(&bh->b_lru, &victims);
		}
	}
	for (i = 0; i < RA_SLOTS; i++)
		if (cache.ra[i].ra_bdev == bdev)
			memset(&cache.ra[i], 0, sizeof(cache.ra[i]));
	spin_unlock_irqrestore(&cache.lock, flags);
	list_for_each_entry_safe(bh, tmp, &victims, b_lru)
		free_buffer(bh);
	if (lost)
		pr_err("buffer: %s: %d blocks that could not be written are dropped\n",
		       bdev_name(bdev), lost);
	if (busy) {
		pr_err("buffer: %s: %d buffers still in use at invalidate\n", bdev_name(bdev), busy);
		return -EBUSY;
	}
	return lost ? -EIO : 0;
}

/* --- direct I/O of whole blocks ------------------------------------------ */

/* The cached buffer of @block, referenced, or NULL. */
static struct buffer_head *lookup_get(struct block_device *bdev, u64 block, u32 size)
{
	struct buffer_head *bh;
	unsigned long flags;

	spin_lock_irqsave(&cache.lock, flags);
	bh = __lookup(bdev, block, size);
	if (bh && bh->b_count++ == 0)
		list_del_init(&bh->b_lru);
	spin_unlock_irqrestore(&cache.lock, flags);
	return bh;
}

/*
 * Move one block through its cached buffer, then drop the reference.  A
 * write first waits for the buffer's I/O: a read landing, or a write-back
 * leaving, must not overlap the copy.
 */
static int cached_rw(struct buffer_head *bh, u8 *buf, bool write)
{
	int err = 0;

	if (write) {
		wait_on_buffer(bh);
		memcpy(bh->b_data, buf, bh->b_size);
		mark_buffer_dirty(bh);
	} else {
		err = read_buffer(bh);
		if (!err)
			memcpy(buf, bh->b_data, bh->b_size);
	}
	brelse(bh);
	return err;
}

/*
 * Move @n blocks at @block straight between the device and @buf, which
 * is lowmem and aligned to @size, so that every page holds whole blocks.
 */
static int uncached_rw(struct block_device *bdev, u64 block, u32 n, u32 size,
		       u8 *buf, bool write)
{
	size_t len = (size_t)n * size;
	long got = write ? blkdev_pwrite(bdev, buf, len, block * size) :
			   blkdev_pread(bdev, buf, len, block * size);
	int err = got < 0 ? (int)got : (got == (long)len ? 0 : -EIO);

	if (!err)
		cache.direct += n;
	return err;
}

/* direct_rw_blocks() on memory uncached_rw() can take. */
static int direct_rw(struct block_device *bdev, u64 block, u32 n, u32 size,
		     u8 *buf, bool write)
{
	struct buffer_head *bh = NULL;
	u32 i = 0, j;
	int err = 0;

	while (i < n && !err) {
		for (j = i; j < n && !(bh = lookup_get(bdev, block + j, size)); j++)
			;
		if (j > i)
			err = uncached_rw(bdev, block + i, j - i, size, buf + (size_t)i * size, write);
		if (bh) {
			if (!err)
				err = cached_rw(bh, buf + (size_t)j * size, write);
			else
				brelse(bh);
			j++;
		}
		i = j;
	}
	return err;
}

int direct_rw_blocks(struct block_device *bdev, u64 block, u32 n, u32 size,
		     void *buf, bool write)
{
	size_t len = (size_t)n * size, k;
	unsigned order = DIRECT_BOUNCE_ORDER;
	u8 *p = buf, *bounce;
	int err;

	if (!size_ok(size))
		return -EINVAL;
	err = cache_init();
	if (err)
		return err;
	if (block + n > bdev_nr_bytes(bdev) / size)
		return -ENXIO;
	if (!n)
		return 0;
	if (virt_addr_valid(p) && virt_addr_valid(p + len - 1) && !((uintptr_t)p & (size - 1)))
		return direct_rw(bdev, block, n, size, p, write);

	/* vmalloc memory or a misaligned buffer: through lowmem pages, copied once */
	while (!(bounce = get_free_pages(GFP_NOIO, order)) && order)
		order--;		/* fragmented: smaller bios rather than none */
	if (!bounce)
		return -ENOMEM;
	for (; len && !err; len -= k, p += k, block += k / size) {
		k = min(len, (size_t)PAGE_SIZE << order);
		if (write)
			memcpy(bounce, p, k);
		err = direct_rw(bdev, block, (u32)(k / size), size, bounce, write);
		if (!err && !write)
			memcpy(p, bounce, k);
	}
	free_pages(bounce, order);
	return err;
}

static int cmd_buffers(int argc, char **argv)
{
	if (argc != 1)
		return -EINVAL;
	kprintf("buffer cache: %llu blocks, %llu KiB of %llu KiB; hits %llu, misses %llu, "
		"read ahead %llu, written %llu; direct %llu\n",
		(unsigned long long)cache.nr_buffers, (unsigned long long)(cache.bytes >> 10),
		(unsigned long long)(cache_limit >> 10), (unsigned long long)cache.hits,
		(unsigned long long)cache.misses, (unsigned long long)cache.readahead,
		(unsigned long long)cache.writes, (unsigned long long)cache.direct);
	return 0;
}
SHELL_COMMAND("buffers", cmd_buffers, "buffers", "buffer cache size and hit counts");
