/*
 * The slab layer's boot entry and statistics, for mm itself (mm_init,
 * meminfo) and tests.  Allocation calls are in kernel/mm/slab.h.
 */
#ifndef KERNEL_MM_SLAB_INFO_H
#define KERNEL_MM_SLAB_INFO_H

#include "kernel/mm/slab.h"

#define KMALLOC_MIN_SIZE	16		/* bytes: the smallest class */
#define KMALLOC_MAX_CACHE_SIZE	(128 * 1024)	/* bytes: larger comes from the buddy */
#define KMALLOC_NR_CLASSES	14		/* 16 B .. 128 KiB */
#define KMEM_CACHE_NAME_MAX	24

struct kmem_cache_stats {
	char	cs_name[KMEM_CACHE_NAME_MAX];
	u32	cs_objsize;	/* bytes asked for */
	u32	cs_stride;	/* bytes per object in the slab */
	u32	cs_per_slab;	/* objects per slab */
	u32	cs_order;	/* buddy order of a slab */
	u64	cs_active;	/* objects allocated */
	u64	cs_total;	/* objects in all slabs */
	u64	cs_slabs;
};

/* Set up the kmalloc classes; after mm's page allocator, before any kmalloc. */
void slab_init(void);

void kmem_cache_get_stats(struct kmem_cache *c, struct kmem_cache_stats *st);

/*
 * Call fn for every cache, in creation order, with a snapshot of its
 * statistics; stops early and returns fn's value if that is non-zero.
 * fn runs with no lock held, so it may print or allocate; a cache
 * destroyed during the walk may hide the one after it (new caches go to
 * the end of the list and are seen).
 */
int slab_for_each_cache(int (*fn)(const struct kmem_cache_stats *st, void *arg), void *arg);

/* Pages held by kmalloc blocks larger than the biggest class. */
u64 kmalloc_large_pages(void);

#endif
