/*
 * Controls of mm_linear_fake.c: the lowmem linear map and kmap over a
 * host arena, for host tests of the real page allocator and slab.
 */
#ifndef TESTS_UNIT_FAKES_MM_LINEAR_FAKE_H
#define TESTS_UNIT_FAKES_MM_LINEAR_FAKE_H

#include "kernel/types.h"

/*
 * Back frames [start_pfn, start_pfn + nr) with host memory (any zone:
 * kmap of a "highmem" frame returns its arena address too).  Frames
 * outside have no memory: page_address() gives NULL, kmap() aborts.
 * A second call replaces the arena.
 */
void host_linear_setup(u64 start_pfn, u64 nr);
void host_linear_teardown(void);

extern int host_kmap_atomic_depth;	/* kmap_atomic() minus kunmap_atomic() */
extern int host_kmap_live;		/* kmap() minus kunmap() */

#endif
