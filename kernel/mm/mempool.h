/*
 * Memory pools: a reserve of preallocated elements so that the I/O path
 * always makes progress.  mempool_alloc() tries the backing allocator
 * first, then the reserve; with __GFP_WAIT (GFP_NOIO) it never returns
 * NULL: it waits until mempool_free() returns an element.  mempool_free()
 * refills the reserve before giving memory back.  Safe from interrupts.
 */
#ifndef KERNEL_MM_MEMPOOL_H
#define KERNEL_MM_MEMPOOL_H

#include "kernel/mm/gfp.h"
#include "kernel/compiler.h"

struct kmem_cache;
typedef void *(mempool_alloc_t)(gfp_t gfp, void *pool_data);
typedef void (mempool_free_t)(void *element, void *pool_data);

typedef struct mempool mempool_t;

mempool_t *mempool_create(int min_nr, mempool_alloc_t *alloc_fn,
			  mempool_free_t *free_fn, void *pool_data);
mempool_t *mempool_create_slab_pool(int min_nr, struct kmem_cache *cache);
/* Elements are struct page * of the given order (highmem allowed if gfp says). */
mempool_t *mempool_create_page_pool(int min_nr, unsigned order);
void mempool_destroy(mempool_t *pool);
void *mempool_alloc(mempool_t *pool, gfp_t gfp);
void mempool_free(void *element, mempool_t *pool);

#endif
