/*
 * Host fakes of kernel APIs, for unit tests of code that uses them.  Unlike
 * tests/unit/host/ (linked into every test), a fake is listed explicitly in
 * the SRCS of the tests that want it, so the real implementation can be
 * tested elsewhere without a clash.  Each fake's controls are declared here.
 */
#ifndef TESTS_UNIT_FAKES_FAKES_H
#define TESTS_UNIT_FAKES_FAKES_H

#include "kernel/types.h"

/* slab_fake.c: kmalloc & kmem_cache over malloc. */
extern long host_slab_fail_after;
extern long host_slab_live;

/* Slab objects live once the bios this CPU keeps (block/bio.c) are given back. */
static inline long host_slab_live_drained(void)
{
	void bio_cache_drain(void);

	bio_cache_drain();
	return host_slab_live;
}

/* mempool_fake.c: pools alive, and creations left before they fail
 * (< 0: never); host_mempool_live is in sched_fake.h. */
extern long host_mempool_pools;
extern long host_mempool_create_fail_after;

#endif
