/*
 * bio allocation, cloning, splitting, chaining and completion.
 *
 * Layer: the bottom of the block core; everything above (filesystems,
 * the buffer cache, bench) builds bios here and hands them to submit_bio().
 *
 * Allocation comes from mempools (a bio pool, and vector pools of 16, 64
 * and 256 entries; up to BIO_INLINE_VECS entries live inside the bio), so
 * with GFP_NOIO it cannot fail: it waits for an I/O to give one back.
 * Each CPU keeps up to BIO_CPU_CACHE freed bios of its own and allocates
 * from them first, with interrupts off and no lock: the pools' locks are
 * shared by every CPU, and a bio per I/O is the block layer's hottest
 * allocation.
 *
 * Splitting never copies the vector: the front part is a clone whose
 * bvec_iter stops at the split sector, the original's iter moves past it,
 * and the front is chained to the original, so the submitter's bi_end_io
 * runs once, after every part ended, with the first error any part saw.
 * A clone must not outlive the bio whose vector it shares; chaining
 * guarantees that.
 */
#include "block/bio.h"
#include "block/blkdev.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/mm/mempool.h"
#include "kernel/mm/page.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

#define BIO_INLINE_VECS	4u
#define BIO_POOL_MIN	16	/* bios kept in reserve for the I/O path */
#define BVEC_POOL_MIN	4
#define BIO_CPU_CACHE	64	/* freed bios a CPU keeps for its next allocations */

/* Vector pool sizes, smallest first; the last is BIO_MAX_VECS. */
static const u16 bvec_pool_sizes[] = { 16, 64, BIO_MAX_VECS };
#define NR_BVEC_POOLS	ARRAY_SIZE(bvec_pool_sizes)

/* The one bio set; [I] after bio_init_pools(). */
struct bio_set {
	struct kmem_cache	*bs_bio_cache;
	mempool_t		*bs_bio_pool;
	struct kmem_cache	*bs_bvec_cache[NR_BVEC_POOLS];
	mempool_t		*bs_bvec_pool[NR_BVEC_POOLS];
};

static struct bio_set bio_set;

/* One CPU's freed bios, chained through bi_next; touched by that CPU only, interrupts off. */
struct bio_cpu_cache {
	struct bio	*bc_free;
	u32		bc_nr;
} __attribute__((aligned(64)));

static struct bio_cpu_cache bio_cpu_cache[NR_CPUS];

static struct bio *bio_cache_get(void)
{
	struct bio_cpu_cache *c;
	unsigned long flags;
	struct bio *b;

	local_irq_save(flags);
	c = &bio_cpu_cache[smp_processor_id()];
	b = c->bc_free;
	if (b) {
		c->bc_free = b->bi_next;
		c->bc_nr--;
	}
	local_irq_restore(flags);
	return b;
}

/**
 * bio_cache_drain - give the bios this CPU keeps back to the pool (a
 * leak check, or memory wanted back).
 */
void bio_cache_drain(void)
{
	struct bio *b;

	while ((b = bio_cache_get()))
		mempool_free(b, bio_set.bs_bio_pool);
}

/* Keep b for this CPU's next bio_alloc; false if the cache is full. */
static bool bio_cache_put(struct bio *b)
{
	struct bio_cpu_cache *c;
	unsigned long flags;
	bool kept;

	local_irq_save(flags);
	c = &bio_cpu_cache[smp_processor_id()];
	kept = c->bc_nr < BIO_CPU_CACHE;
	if (kept) {
		b->bi_next = c->bc_free;
		c->bc_free = b;
		c->bc_nr++;
	}
	local_irq_restore(flags);
	return kept;
}

/* Free whatever part of the bio set exists; NULL members are skipped. */
static void bio_free_pools(void)
{
	unsigned i;

	for (i = 0; i < NR_BVEC_POOLS; i++) {
		if (bio_set.bs_bvec_pool[i])
			mempool_destroy(bio_set.bs_bvec_pool[i]);
		if (bio_set.bs_bvec_cache[i])
			kmem_cache_destroy(bio_set.bs_bvec_cache[i]);
	}
	if (bio_set.bs_bio_pool)
		mempool_destroy(bio_set.bs_bio_pool);
	if (bio_set.bs_bio_cache)
		kmem_cache_destroy(bio_set.bs_bio_cache);
	memset(&bio_set, 0, sizeof(bio_set));
}

/**
 * bio_init_pools - create the bio and vector pools, all or nothing.
 *
 * Runs once as an initcall; callers that need the pools earlier (host
 * tests, a driver probed before subsys initcalls) may call it again.
 * Once it has succeeded, a call does nothing and returns 0.  A failure
 * frees whatever part it made, so the next call starts afresh and the
 * pools are never half there.  The bio pool is created last: its
 * presence means the whole set exists.
 *
 * Context: process context, before any bio_alloc().
 * Return: 0 or -ENOMEM.
 */
int bio_init_pools(void)
{
	char name[16];		/* "biovec-N", as Linux names them */
	unsigned i;

	if (bio_set.bs_bio_pool)
		return 0;
	for (i = 0; i < NR_BVEC_POOLS; i++) {
		snprintf(name, sizeof(name), "biovec-%u", bvec_pool_sizes[i]);
		bio_set.bs_bvec_cache[i] = kmem_cache_create(name,
			bvec_pool_sizes[i] * sizeof(struct bio_vec), 8);
		if (!bio_set.bs_bvec_cache[i])
			goto free_pools;
		bio_set.bs_bvec_pool[i] = mempool_create_slab_pool(BVEC_POOL_MIN,
							bio_set.bs_bvec_cache[i]);
		if (!bio_set.bs_bvec_pool[i])
			goto free_pools;
	}
	bio_set.bs_bio_cache = kmem_cache_create("bio",
		sizeof(struct bio) + BIO_INLINE_VECS * sizeof(struct bio_vec), 8);
	if (!bio_set.bs_bio_cache)
		goto free_pools;
	bio_set.bs_bio_pool = mempool_create_slab_pool(BIO_POOL_MIN, bio_set.bs_bio_cache);
	if (!bio_set.bs_bio_pool)
		goto free_pools;
	return 0;

free_pools:
	bio_free_pools();
	pr_err("bio: cannot create the bio pools\n");
	return -ENOMEM;
}
#ifndef HOST_TEST
subsys_initcall(bio_init_pools);
#endif

/**
 * bio_alloc - a bio with room for nr_vecs vectors, one reference.
 * @gfp: GFP_NOIO in the I/O path: then it never returns NULL.
 * Return: the bio, or NULL (nr_vecs > BIO_MAX_VECS, or no memory without wait).
 */
struct bio *bio_alloc(gfp_t gfp, unsigned nr_vecs)
{
	struct bio *b;
	void *vecs = NULL;
	unsigned i = 0;

	if (nr_vecs > BIO_MAX_VECS)
		return NULL;
	if (nr_vecs > BIO_INLINE_VECS) {
		while (bvec_pool_sizes[i] < nr_vecs)
			i++;
		vecs = mempool_alloc(bio_set.bs_bvec_pool[i], gfp);
		if (!vecs)
			return NULL;
	}
	b = bio_cache_get();
	if (!b)
		b = mempool_alloc(bio_set.bs_bio_pool, gfp);
	if (!b) {
		if (vecs)
			mempool_free(vecs, bio_set.bs_bvec_pool[i]);
		return NULL;
	}
	memset(b, 0, sizeof(*b));
	b->bi_cnt = 1;
	b->bi_remaining = 1;
	b->bi_cpu = this_cpu();
	if (vecs) {
		b->bi_io_vec = vecs;
		b->bi_pool = bio_set.bs_bvec_pool[i];
		b->bi_max_vecs = bvec_pool_sizes[i];
	} else {
		b->bi_io_vec = b->bi_inline_vecs;
		b->bi_max_vecs = BIO_INLINE_VECS;
	}
	return b;
}

void bio_get(struct bio *bio)
{
	__atomic_add_fetch(&bio->bi_cnt, 1, __ATOMIC_RELAXED);
}

/* Drop a reference; the last one frees the bio and its own vector. */
void bio_put(struct bio *bio)
{
	int left = __atomic_sub_fetch(&bio->bi_cnt, 1, __ATOMIC_ACQ_REL);

	KASSERT(left >= 0);
	if (left)
		return;
	if (bio->bi_pool)
		mempool_free(bio->bi_io_vec, bio->bi_pool);
	if (!bio_cache_put(bio))
		mempool_free(bio, bio_set.bs_bio_pool);
}

/* Does [page + offset, ...) continue the memory of vector entry v? */
static bool bvec_continues(const struct bio_vec *v, const struct page *page, u32 offset)
{
	u32 end = v->bv_offset + v->bv_len;
	const struct page *last = v->bv_page + ((end - 1) >> PAGE_SHIFT);

	if (end & (PAGE_SIZE - 1))
		return page == last && offset == (end & (PAGE_SIZE - 1));
	return offset == 0 && page_follows(last, page);
}

/**
 * bio_add_page - append len bytes at offset in page to a bio being built.
 * The bytes may run on past the page into the pages after it, when they
 * are one physically contiguous block (one alloc_pages() allocation).
 * Grows the last vector entry when the memory continues it, across pages
 * too.  When the bio's queue is known (bi_queue, or bi_bdev), refuses to
 * grow past what one request may carry (max_hw_sectors); segment limits
 * are met at submission, by splitting (blk_queue_split).
 * Return: 0, or -E2BIG when it does not fit (start a new bio), -EINVAL.
 */
int bio_add_page(struct bio *bio, struct page *page, u32 len, u32 offset)
{
	struct request_queue *q = bio->bi_queue;
	struct bio_vec *last;

	if (!len || offset >= PAGE_SIZE || (bio->bi_flags & BIO_CLONED))
		return -EINVAL;
	if (!q && bio->bi_bdev)
		q = bdev_get_queue(bio->bi_bdev);
	if (q && ((u64)bio->bi_iter.bi_size + len) >> SECTOR_SHIFT >
		 q->q_limits.lim_max_hw_sectors)
		return -E2BIG;
	if (bio->bi_vcnt && bvec_continues(&bio->bi_io_vec[bio->bi_vcnt - 1], page, offset)) {
		bio->bi_io_vec[bio->bi_vcnt - 1].bv_len += len;
	} else {
		if (bio->bi_vcnt >= bio->bi_max_vecs)
			return -E2BIG;
		last = &bio->bi_io_vec[bio->bi_vcnt++];
		last->bv_page = page;
		last->bv_offset = offset;
		last->bv_len = len;
	}
	bio->bi_iter.bi_size += len;
	bio->bi_flags &= ~BIO_SEG_VALID;
	return 0;
}

void bvec_iter_advance(const struct bio_vec *vec, struct bvec_iter *it, u32 bytes)
{
	KASSERT(bytes <= it->bi_size);
	it->bi_size -= bytes;
	if (!it->bi_size)
		return;		/* all done: where it stands no longer matters */
	while (bytes) {
		u32 len = min(bytes, vec[it->bi_idx].bv_len - it->bi_bvec_done);

		bytes -= len;
		it->bi_bvec_done += len;
		if (it->bi_bvec_done == vec[it->bi_idx].bv_len) {
			it->bi_idx++;
			it->bi_bvec_done = 0;
		}
	}
}

/* Move a bio's start on by bytes (a multiple of 512 unless it is the end). */
void bio_advance(struct bio *bio, u32 bytes)
{
	bio->bi_flags &= ~BIO_SEG_VALID;
	if (bio->bi_rw & REQ_NODATA) {		/* a range without a vector */
		KASSERT(bytes <= bio->bi_iter.bi_size);
		bio->bi_iter.bi_size -= bytes;
	} else {
		bvec_iter_advance(bio->bi_io_vec, &bio->bi_iter, bytes);
	}
	bio->bi_iter.bi_sector += bytes >> SECTOR_SHIFT;
}

/* An iterator over the whole vector, from its first byte. */
struct bvec_iter bio_vec_all(const struct bio *bio)
{
	struct bvec_iter it = { 0 };
	u32 i;

	for (i = 0; i < bio->bi_vcnt; i++)
		it.bi_size += bio->bi_io_vec[i].bv_len;
	return it;
}

/* Page-sized pieces the rest of the bio touches: what a bounce copy needs. */
u32 bio_nr_vecs_left(const struct bio *bio)
{
	struct bvec_iter it;
	struct bio_vec bv;
	u32 n = 0;

	bio_for_each_segment(bv, bio, it)
		n++;
	return n;
}

/**
 * bio_clone - a bio for the same I/O, sharing src's vector.
 * The clone starts where src stands now; src must outlive it.
 * Return: the clone with one reference, NULL only without __GFP_WAIT.
 */
struct bio *bio_clone(struct bio *src, gfp_t gfp)
{
	struct bio *b = bio_alloc(gfp, 0);

	if (!b)
		return NULL;
	b->bi_iter = src->bi_iter;
	b->bi_bdev = src->bi_bdev;
	b->bi_queue = src->bi_queue;
	b->bi_rw = src->bi_rw;
	b->bi_io_vec = src->bi_io_vec;
	b->bi_vcnt = src->bi_vcnt;
	b->bi_max_vecs = src->bi_max_vecs;
	b->bi_flags = BIO_CLONED;
	b->bi_start_ns = src->bi_start_ns;
	return b;
}

/**
 * bio_split - split off the first sectors of a bio, at any sector.
 * The returned bio covers [start, start + sectors) and is chained to bio
 * (see bio_chain); bio now covers the rest.  A preflush stays with the
 * front and FUA with the back, so the ordering promise is kept.
 * Return: the front part, NULL only without __GFP_WAIT.
 */
struct bio *bio_split(struct bio *bio, u32 sectors, gfp_t gfp)
{
	struct bio *split;
	u32 bytes = sectors << SECTOR_SHIFT;

	KASSERT(sectors > 0 && bytes < bio->bi_iter.bi_size);
	split = bio_clone(bio, gfp);
	if (!split)
		return NULL;
	split->bi_iter.bi_size = bytes;
	split->bi_rw &= ~REQ_FUA;
	split->bi_flags |= BIO_SPLIT;
	bio->bi_rw &= ~REQ_PREFLUSH;
	bio_advance(bio, bytes);
	bio_chain(split, bio);
	return split;
}

/**
 * bio_chain - make parent's completion wait for child's.
 * child's own bi_end_io is not called; its error reaches parent.  The
 * block layer drops child's reference when it ends.
 */
void bio_chain(struct bio *child, struct bio *parent)
{
	KASSERT(!(child->bi_flags & BIO_CHAIN));
	child->bi_parent = parent;
	child->bi_flags |= BIO_CHAIN;
	__atomic_add_fetch(&parent->bi_remaining, 1, __ATOMIC_RELAXED);
}

/**
 * bio_endio - end the I/O of a bio, with 0 or a negative errno.
 * Records the first error; when every chained child has ended too, calls
 * bi_end_io (or passes the result up the chain, without recursion), then
 * wakes the CPU that allocated the bio, in case it waits on it there.
 * Context: any, interrupts included.
 */
void bio_endio(struct bio *bio, int error)
{
	struct bio *parent;

	for (;;) {
		if (error) {
			int zero = 0;
			__atomic_compare_exchange_n(&bio->bi_error, &zero, error, false,
						    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
		}
		if (__atomic_sub_fetch(&bio->bi_remaining, 1, __ATOMIC_ACQ_REL) > 0)
			return;
		if (!(bio->bi_flags & BIO_CHAIN))
			break;
		parent = bio->bi_parent;
		error = bio->bi_error;
		bio_put(bio);
		bio = parent;
	}
	if (bio->bi_end_io) {
		struct cpu *waiter = bio->bi_cpu;	/* bio may be gone after bi_end_io */

		bio->bi_end_io(bio, bio->bi_error);
		cpu_wake(waiter);	/* who waits for it may wait on another CPU */
	}
}
