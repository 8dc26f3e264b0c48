/*
 * Memory pools: a guaranteed reserve of elements (kernel/mm/mempool.h).
 *
 * Layer: mm, above slab and the page allocator; used by the block layer
 * (bios, requests, bounce pages) so that I/O can always make progress,
 * and I/O completing is what frees memory.
 *
 * mempool_alloc() asks the backing allocator first (never waiting), then
 * takes from the reserve; with __GFP_WAIT it then waits in the idle loop
 * (cpu_idle_once(): halt until an interrupt, run deferred work) until an
 * element comes back, because an interrupt completing an I/O is the only
 * thing that frees one.  mempool_free() refills the reserve before giving
 * memory back to the allocator.  A wait that lasts MEMPOOL_DEADLOCK_MS is
 * a deadlock (every element held by someone who will never free it) and
 * panics with the pool's numbers rather than hang silently.
 *
 * Lock legend: [I] immutable after creation; [p] pool->mp_lock, taken
 * with interrupts off (elements are freed from completion handlers).
 */
#include "kernel/mm/mempool.h"
#include "kernel/mm/page.h"
#include "kernel/mm/slab.h"
#include "kernel/completion.h"
#include "kernel/irq.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"

#define MEMPOOL_DEADLOCK_MS	30000	/* ms without an element coming back */

struct mempool {
	spinlock_t	mp_lock;
	int		mp_min_nr;	/* [I] reserve size */
	int		mp_curr_nr;	/* [p] elements in the reserve */
	void		**mp_elements;	/* [p] the reserve, mp_min_nr slots */
	mempool_alloc_t	*mp_alloc;	/* [I] */
	mempool_free_t	*mp_free;	/* [I] */
	void		*mp_data;	/* [I] */
	u64		mp_waits;	/* [p] allocations that had to wait */
};

/* Give the reserve back to the allocator and free the pool itself. */
static void pool_free_all(mempool_t *pool)
{
	while (pool->mp_curr_nr > 0)
		pool->mp_free(pool->mp_elements[--pool->mp_curr_nr], pool->mp_data);
	kfree(pool->mp_elements);
	kfree(pool);
}

/**
 * mempool_create - a pool with min_nr elements always in reserve
 * @min_nr: reserve size, >= 1
 * @alloc_fn, @free_fn, @pool_data: the backing allocator
 *
 * Fills the reserve now (GFP_KERNEL).  Returns the pool or NULL.
 */
mempool_t *mempool_create(int min_nr, mempool_alloc_t *alloc_fn,
			  mempool_free_t *free_fn, void *pool_data)
{
	mempool_t *pool;

	if (min_nr < 1 || !alloc_fn || !free_fn)
		return NULL;
	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return NULL;
	pool->mp_elements = kcalloc((size_t)min_nr, sizeof(void *), GFP_KERNEL);
	if (!pool->mp_elements)
		goto free_pool;
	spin_lock_init(&pool->mp_lock, "mempool");
	pool->mp_min_nr = min_nr;
	pool->mp_alloc = alloc_fn;
	pool->mp_free = free_fn;
	pool->mp_data = pool_data;
	while (pool->mp_curr_nr < min_nr) {
		void *el = alloc_fn(GFP_KERNEL, pool_data);

		if (!el)
			goto free_reserve;
		pool->mp_elements[pool->mp_curr_nr++] = el;
	}
	return pool;

free_reserve:
	pool_free_all(pool);
	return NULL;
free_pool:
	kfree(pool);
	return NULL;
}

static void *slab_pool_alloc(gfp_t gfp, void *cache)
{
	return kmem_cache_alloc(cache, gfp);
}

static void slab_pool_free(void *el, void *cache)
{
	kmem_cache_free(cache, el);
}

mempool_t *mempool_create_slab_pool(int min_nr, struct kmem_cache *cache)
{
	return mempool_create(min_nr, slab_pool_alloc, slab_pool_free, cache);
}

static void *page_pool_alloc(gfp_t gfp, void *order)
{
	return alloc_pages(gfp, (unsigned)(uintptr_t)order);
}

static void page_pool_free(void *el, void *order)
{
	__free_pages(el, (unsigned)(uintptr_t)order);
}

mempool_t *mempool_create_page_pool(int min_nr, unsigned order)
{
	if (order >= MAX_ORDER)
		return NULL;
	return mempool_create(min_nr, page_pool_alloc, page_pool_free, (void *)(uintptr_t)order);
}

/* Destroy a pool; every element must be back in it. */
void mempool_destroy(mempool_t *pool)
{
	if (!pool)
		return;
	if (pool->mp_curr_nr != pool->mp_min_nr)
		panic("mempool_destroy: %d of %d reserve elements still out",
		      pool->mp_min_nr - pool->mp_curr_nr, pool->mp_min_nr);
	pool_free_all(pool);
}

/* Take an element from the reserve; NULL if it is empty. */
static void *take_reserve(mempool_t *pool)
{
	unsigned long flags;
	void *el = NULL;

	spin_lock_irqsave(&pool->mp_lock, flags);
	if (pool->mp_curr_nr > 0)
		el = pool->mp_elements[--pool->mp_curr_nr];
	spin_unlock_irqrestore(&pool->mp_lock, flags);
	return el;
}

/**
 * mempool_alloc - an element from the allocator or the reserve
 * @pool: the pool
 * @gfp: with __GFP_WAIT (GFP_NOIO, GFP_KERNEL) never NULL: waits for a
 *	 mempool_free(), not from interrupt context; without it (GFP_ATOMIC)
 *	 NULL when both the allocator and the reserve are empty.
 */
void *mempool_alloc(mempool_t *pool, gfp_t gfp)
{
	gfp_t try = (gfp & ~__GFP_WAIT) | __GFP_NOWARN;
	bool waited = false;
	u64 start = 0;
	void *el;

	for (;;) {
		el = pool->mp_alloc(try, pool->mp_data);
		if (el)
			return el;
		el = take_reserve(pool);
		if (el || !(gfp & __GFP_WAIT))
			return el;
		KASSERT(!in_interrupt());
		if (!waited) {
			unsigned long flags;

			spin_lock_irqsave(&pool->mp_lock, flags);
			pool->mp_waits++;
			spin_unlock_irqrestore(&pool->mp_lock, flags);
			waited = true;
			start = ktime_ms();
		} else if (ktime_ms() - start > MEMPOOL_DEADLOCK_MS) {
			panic("mempool_alloc: no element came back in %u ms (reserve %d, waits %llu)",
			      MEMPOOL_DEADLOCK_MS, pool->mp_min_nr,
			      (unsigned long long)pool->mp_waits);
		}
		cpu_idle_once();
	}
}

/* Return an element: to the reserve if it is short, else to the allocator. */
void mempool_free(void *element, mempool_t *pool)
{
	unsigned long flags;

	if (!element)
		return;
	spin_lock_irqsave(&pool->mp_lock, flags);
	if (pool->mp_curr_nr < pool->mp_min_nr) {
		pool->mp_elements[pool->mp_curr_nr++] = element;
		spin_unlock_irqrestore(&pool->mp_lock, flags);
		return;
	}
	spin_unlock_irqrestore(&pool->mp_lock, flags);
	pool->mp_free(element, pool->mp_data);
}
