/*
 * The buffer cache (contract: fs/buffer.h; its parts: fs/buffer_priv.h).
 *
 * Blocks are kept per (device, block number, size) in a hash table, with
 * unreferenced ones on an LRU list that is trimmed to bcache_limit bytes.
 * Block data comes from one slab cache per block size, aligned to the
 * size, so a block never straddles a page and is described to the block
 * layer as one {page, offset, len} vector (buffer_io.c builds the bios).
 *
 * This file is the cache itself: lookup and creation, bread/getblk/brelse,
 * eviction of the oldest idle buffers (writing dirty ones back first when
 * nothing else is left, buffer_writeback.c), and invalidate_bdev at
 * unmount.  A buffer is idle when nobody holds it, it is clean and no I/O
 * is in flight on it; only idle buffers are ever freed.
 *
 * Lock legend: see fs/buffer_priv.h ([c] bcache.lock, irqsave).
 */
#include "fs/buffer_priv.h"
#include "block/bdev.h"
#include "block/blkdev_io.h"
#include "kernel/errno.h"
#include "kernel/param.h"
#include "kernel/printk.h"
#include "kernel/mm/page.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

#define MIN_SIZE_SHIFT	9
#define DEFAULT_LIMIT	(32ULL << 20)	/* bytes of block data kept */

struct buffer_cache bcache;
u64 bcache_limit = DEFAULT_LIMIT;
PARAM_SIZE("buffer.cache", bcache_limit, "bytes of disk blocks the buffer cache keeps (default 32M)");

static unsigned size_index(u32 size)
{
	return (unsigned)__builtin_ctz(size) - MIN_SIZE_SHIFT;
}

bool buffer_size_ok(u32 size)
{
	return is_power_of_2(size) && size >= 512 && size <= PAGE_SIZE;
}

static struct list_head *hash_of(struct block_device *bdev, u64 block)
{
	u64 h = ((u64)(uintptr_t)bdev >> 4) ^ (block * 0x9E3779B97F4A7C15ULL);

	return &bcache.hash[(h >> 32) & (BUFFER_HASH_SIZE - 1)];
}

/* The counter of the region holding byte @pos of @bdev. */
static u32 *region_of(struct block_device *bdev, u64 pos)
{
	u64 h = ((u64)(uintptr_t)bdev >> 4) ^ ((pos >> BUFFER_REGION_SHIFT) * 0x9E3779B97F4A7C15ULL);

	return &bcache.region[(h >> 32) & (BUFFER_REGIONS - 1)];
}

u32 buffer_uncached_span(struct block_device *bdev, u64 block, u32 n, u32 size)
{
	u64 start = block * size, end = start + (u64)n * size, pos = start;

	while (pos < end && !READ_ONCE(*region_of(bdev, pos)))
		pos = min(end, (pos | ((1ULL << BUFFER_REGION_SHIFT) - 1)) + 1);
	return (u32)((pos - start) / size);
}

int buffer_cache_init(void)
{
	static const char *const names[BUFFER_NR_SIZES] = {
		"buffer-512", "buffer-1024", "buffer-2048", "buffer-4096",
	};
	unsigned i;

	if (bcache.data[0])
		return 0;
	spin_lock_init(&bcache.lock, "buffer cache");
	for (i = 0; i < BUFFER_HASH_SIZE; i++)
		INIT_LIST_HEAD(&bcache.hash[i]);
	INIT_LIST_HEAD(&bcache.lru);
	for (i = 0; i < BUFFER_NR_SIZES; i++) {
		u32 sz = 1u << (i + MIN_SIZE_SHIFT);

		bcache.data[i] = kmem_cache_create(names[i], sz, sz);
		if (!bcache.data[i])
			return -ENOMEM;
	}
	return 0;
}

/* The buffer of (@bdev, @block, @size), or NULL.  Caller holds [c]. */
static struct buffer_head *__lookup(struct block_device *bdev, u64 block, u32 size)
{
	struct buffer_head *bh;

	list_for_each_entry(bh, hash_of(bdev, block), b_hash)
		if (bh->b_bdev == bdev && bh->b_blocknr == block && bh->b_size == size)
			return bh;
	return NULL;
}

/* Take a reference on a hashed buffer, off the LRU.  Caller holds [c]. */
static void __get(struct buffer_head *bh)
{
	if (bh->b_count++ == 0)
		list_del_init(&bh->b_lru);
}

static void free_buffer(struct buffer_head *bh)
{
	kmem_cache_free(bcache.data[size_index(bh->b_size)], bh->b_data);
	kfree(bh);
}

/* Unlink an idle buffer (free it after dropping [c]).  Caller holds [c]. */
static void __drop(struct buffer_head *bh)
{
	list_del(&bh->b_hash);
	list_del(&bh->b_lru);
	(*region_of(bh->b_bdev, bh->b_blocknr * bh->b_size))--;
	bcache.bytes -= bh->b_size;
	bcache.nr_buffers--;
}

static bool idle(const struct buffer_head *bh)
{
	return bh->b_count == 0 && !buffer_dirty(bh) && !buffer_locked(bh);
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

	spin_lock_irqsave(&bcache.lock, flags);
	list_for_each_entry_safe(bh, tmp, &bcache.lru, b_lru) {
		if (bcache.bytes + need <= bcache_limit)
			break;
		if (!idle(bh))
			continue;
		__drop(bh);
		list_add(&bh->b_lru, &victims);
	}
	spin_unlock_irqrestore(&bcache.lock, flags);
	list_for_each_entry_safe(bh, tmp, &victims, b_lru)
		free_buffer(bh);
}

struct buffer_head *buffer_find_or_create(struct block_device *bdev, u64 block,
					  u32 size, bool *created)
{
	struct buffer_head *bh, *nbh;
	unsigned long flags;
	u8 *data;

	*created = false;
	bh = buffer_lookup_get(bdev, block, size);
	if (bh)
		return bh;

	if (bcache.bytes + size > bcache_limit) {
		shrink(size);
		if (bcache.bytes + size > bcache_limit) {	/* all dirty: write some back */
			buffer_writeback(NULL);
			shrink(size);
		}
	}
	nbh = kzalloc(sizeof(*nbh), GFP_NOIO);
	/* Zeroed: a device that moves no data (nullb) must not show another
	 * device's blocks left in recycled memory. */
	data = kmem_cache_zalloc(bcache.data[size_index(size)], GFP_NOIO);
	if (!nbh || !data) {
		kfree(nbh);
		if (data)
			kmem_cache_free(bcache.data[size_index(size)], data);
		return NULL;
	}
	nbh->b_bdev = bdev;
	nbh->b_blocknr = block;
	nbh->b_size = size;
	nbh->b_data = data;
	nbh->b_count = 1;
	INIT_LIST_HEAD(&nbh->b_lru);

	spin_lock_irqsave(&bcache.lock, flags);
	bh = __lookup(bdev, block, size);	/* readahead may have raced us */
	if (bh) {
		__get(bh);
		spin_unlock_irqrestore(&bcache.lock, flags);
		free_buffer(nbh);
		return bh;
	}
	list_add(&nbh->b_hash, hash_of(bdev, block));
	(*region_of(bdev, block * size))++;
	bcache.bytes += size;
	bcache.nr_buffers++;
	spin_unlock_irqrestore(&bcache.lock, flags);
	*created = true;
	return nbh;
}

struct buffer_head *buffer_lookup_get(struct block_device *bdev, u64 block, u32 size)
{
	struct buffer_head *bh;
	unsigned long flags;

	spin_lock_irqsave(&bcache.lock, flags);
	bh = __lookup(bdev, block, size);
	if (bh)
		__get(bh);
	spin_unlock_irqrestore(&bcache.lock, flags);
	return bh;
}

/*
 * The device switched block size (ext2 reads its superblock in 1 KiB
 * units, then uses its own): forget the idle buffers of other sizes, which
 * could otherwise go stale beside the new ones.
 */
void buffer_drop_other_sizes(struct block_device *bdev, u32 size)
{
	struct buffer_head *bh, *tmp;
	unsigned long flags;
	LIST_HEAD(victims);
	unsigned i;

	spin_lock_irqsave(&bcache.lock, flags);
	for (i = 0; i < BUFFER_HASH_SIZE; i++)
		list_for_each_entry_safe(bh, tmp, &bcache.hash[i], b_hash)
			if (bh->b_bdev == bdev && bh->b_size != size && idle(bh)) {
				__drop(bh);
				list_add(&bh->b_lru, &victims);
			}
	spin_unlock_irqrestore(&bcache.lock, flags);
	list_for_each_entry_safe(bh, tmp, &victims, b_lru)
		free_buffer(bh);
}

/* --- the contract ------------------------------------------------------- */

static struct buffer_head *get_buffer(struct block_device *bdev, u64 block, u32 size,
				      bool read)
{
	struct buffer_head *bh;
	bool created;
	int err;

	if (!buffer_size_ok(size))
		return ERR_PTR(-EINVAL);
	err = buffer_cache_init();
	if (err)
		return ERR_PTR(err);
	if (block >= blkdev_size(bdev) / size)
		return ERR_PTR(-ENXIO);
	bh = buffer_find_or_create(bdev, block, size, &created);
	if (!bh)
		return ERR_PTR(-ENOMEM);
	if (!read)
		return bh;
	if (buffer_uptodate(bh) && !buffer_locked(bh))
		bcache.hits++;
	else
		bcache.misses++;
	buffer_note_access(bdev, block, size, !created);	/* cached, or on its way */
	err = bh_submit_read(bh);
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
	if (buffer_size_ok(size) && buffer_cache_init() == 0)
		buffer_readahead(bdev, block, 1, size);
}

void brelse(struct buffer_head *bh)
{
	unsigned long flags;

	if (!bh)
		return;
	spin_lock_irqsave(&bcache.lock, flags);
	KASSERT(bh->b_count > 0);
	if (--bh->b_count == 0)
		list_add_tail(&bh->b_lru, &bcache.lru);
	spin_unlock_irqrestore(&bcache.lock, flags);
}

void mark_buffer_dirty(struct buffer_head *bh)
{
	unsigned long flags;

	spin_lock_irqsave(&bcache.lock, flags);
	set_buffer_dirty(bh);
	set_buffer_uptodate(bh);
	spin_unlock_irqrestore(&bcache.lock, flags);
}

int invalidate_bdev(struct block_device *bdev)
{
	struct buffer_head *bh, *tmp;
	unsigned long flags;
	LIST_HEAD(victims);
	int busy = 0, lost = 0;
	unsigned i;

	if (!bcache.data[0])
		return 0;
	spin_lock_irqsave(&bcache.lock, flags);
	for (i = 0; i < BUFFER_HASH_SIZE; i++) {
		list_for_each_entry_safe(bh, tmp, &bcache.hash[i], b_hash) {
			if (bh->b_bdev != bdev)
				continue;
			if (bh->b_count || buffer_locked(bh)) {
				busy++;
				continue;
			}
			lost += buffer_dirty(bh);
			__drop(bh);
			list_add(&bh->b_lru, &victims);
		}
	}
	for (i = 0; i < BUFFER_RA_SLOTS; i++)
		if (bcache.ra[i].ra_bdev == bdev)
			memset(&bcache.ra[i], 0, sizeof(bcache.ra[i]));
	spin_unlock_irqrestore(&bcache.lock, flags);
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
