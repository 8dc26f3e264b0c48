/*
 * Host fake of kernel/mm/mempool.h: every allocation goes to the backing
 * allocator; a NULL with __GFP_WAIT would be a deadlock in the kernel, so
 * here it aborts the test.  host_mempool_live counts elements out.
 */
#include <stdlib.h>
#include "kernel/printk.h"
#include "kernel/mm/mempool.h"
#include "kernel/mm/page.h"
#include "kernel/mm/slab.h"
#include "tests/unit/fakes/sched_fake.h"

long host_mempool_live;

struct mempool {
	mempool_alloc_t	*mp_alloc;
	mempool_free_t	*mp_free;
	void		*mp_data;
	long		mp_out;
};

mempool_t *mempool_create(int min_nr, mempool_alloc_t *alloc_fn,
			  mempool_free_t *free_fn, void *pool_data)
{
	mempool_t *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->mp_alloc = alloc_fn;
	p->mp_free = free_fn;
	p->mp_data = pool_data;
	return p;
}

static void *slab_alloc(gfp_t gfp, void *data) { return kmem_cache_alloc(data, gfp); }
static void slab_free(void *e, void *data) { kmem_cache_free(data, e); }

mempool_t *mempool_create_slab_pool(int min_nr, struct kmem_cache *cache)
{
	return mempool_create(min_nr, slab_alloc, slab_free, cache);
}

static void *page_alloc(gfp_t gfp, void *data)
{
	return alloc_pages(gfp & ~__GFP_HIGHMEM, (unsigned)(uintptr_t)data);
}

static void page_free(void *e, void *data) { __free_pages(e, (unsigned)(uintptr_t)data); }

mempool_t *mempool_create_page_pool(int min_nr, unsigned order)
{
	return mempool_create(min_nr, page_alloc, page_free, (void *)(uintptr_t)order);
}

void mempool_destroy(mempool_t *pool)
{
	KASSERT(pool->mp_out == 0);
	free(pool);
}

void *mempool_alloc(mempool_t *pool, gfp_t gfp)
{
	void *e = pool->mp_alloc(gfp, pool->mp_data);

	if (!e && (gfp & __GFP_WAIT))
		panic("mempool_fake: a waiting allocation would block forever");
	if (e) {
		pool->mp_out++;
		host_mempool_live++;
	}
	return e;
}

void mempool_free(void *element, mempool_t *pool)
{
	pool->mp_out--;
	host_mempool_live--;
	pool->mp_free(element, pool->mp_data);
}
