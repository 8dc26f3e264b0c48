/*
 * Host fake of kernel/mm/mempool.h: every allocation goes to the backing
 * allocator.  When that fails (slab_fake's host_slab_fail_after) a waiting
 * allocation is served all the same, as the kernel's pool serves it from
 * its reserve; a NULL with __GFP_WAIT would be a deadlock in the kernel,
 * so if even that fails it aborts the test.  host_mempool_live counts
 * elements out, host_mempool_pools the pools that exist, and
 * host_mempool_create_fail_after makes mempool_create fail: it counts
 * down creations, and the one that finds it at 0 (and all after) fail.
 */
#include <stdlib.h>
#include "kernel/printk.h"
#include "kernel/mm/mempool.h"
#include "kernel/mm/page.h"
#include "kernel/mm/slab.h"
#include "tests/unit/fakes/fakes.h"
#include "tests/unit/fakes/sched_fake.h"

long host_mempool_live;
long host_mempool_pools;
long host_mempool_create_fail_after = -1;

struct mempool {
	mempool_alloc_t	*mp_alloc;
	mempool_free_t	*mp_free;
	void		*mp_data;
	long		mp_out;
};

mempool_t *mempool_create(int min_nr, mempool_alloc_t *alloc_fn,
			  mempool_free_t *free_fn, void *pool_data)
{
	mempool_t *p;

	if (host_mempool_create_fail_after == 0)
		return NULL;
	if (host_mempool_create_fail_after > 0)
		host_mempool_create_fail_after--;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	host_mempool_pools++;
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
	if (!pool)
		return;
	KASSERT(pool->mp_out == 0);
	host_mempool_pools--;
	free(pool);
}

void *mempool_alloc(mempool_t *pool, gfp_t gfp)
{
	void *e = pool->mp_alloc(gfp, pool->mp_data);
	long saved = host_slab_fail_after;

	if (!e && (gfp & __GFP_WAIT)) {		/* from the reserve */
		host_slab_fail_after = -1;
		e = pool->mp_alloc(gfp, pool->mp_data);
		host_slab_fail_after = saved;
	}
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
