/*
 * Host fake of kernel/mm/slab.h over malloc, for unit tests of code that
 * allocates objects.  List it in a test's NAME_SRCS; it is not linked by
 * default, so tests of the real slab allocator do not clash with it.
 * host_slab_fail_after makes allocations fail, to test error paths.
 */
#include <stdlib.h>
#include <string.h>
#include "kernel/mm/slab.h"
#include "tests/unit/fakes/fakes.h"

long host_slab_fail_after = -1;	/* < 0: never fail; else allocations left before failing */
long host_slab_live;		/* objects allocated and not yet freed */

struct kmem_cache {
	size_t size;
};

static bool fail_now(void)
{
	if (host_slab_fail_after < 0)
		return false;
	if (host_slab_fail_after == 0)
		return true;
	host_slab_fail_after--;
	return false;
}

void *kmalloc(size_t size, gfp_t gfp)
{
	void *p;

	if (fail_now())
		return NULL;
	p = malloc(size ? size : 1);
	if (p && (gfp & __GFP_ZERO))
		memset(p, 0, size);
	if (p)
		host_slab_live++;
	return p;
}

void *kzalloc(size_t size, gfp_t gfp) { return kmalloc(size, gfp | __GFP_ZERO); }

void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	if (size && n > (size_t)-1 / size)
		return NULL;
	return kzalloc(n * size, gfp);
}

void kfree(const void *p)
{
	if (p)
		host_slab_live--;
	free((void *)p);
}

struct kmem_cache *kmem_cache_create(const char *name, size_t size, size_t align)
{
	struct kmem_cache *c = malloc(sizeof(*c));

	if (c)
		c->size = size;
	return c;
}

void kmem_cache_destroy(struct kmem_cache *c) { free(c); }
void *kmem_cache_alloc(struct kmem_cache *c, gfp_t gfp) { return kmalloc(c->size, gfp); }
void *kmem_cache_zalloc(struct kmem_cache *c, gfp_t gfp) { return kzalloc(c->size, gfp); }
void kmem_cache_free(struct kmem_cache *c, void *obj) { kfree(obj); }
