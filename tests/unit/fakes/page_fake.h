/*
 * Controls of page_fake.c: a fake physical memory of HOST_NR_PAGES pages
 * with a struct page each, laid out in four ranges so that zone and
 * bounce decisions can be tested:
 *   HOST_MEM_DMA       below 16 MiB            (ZONE_DMA)
 *   HOST_MEM_NORMAL    16 MiB and up, lowmem   (ZONE_NORMAL)
 *   HOST_MEM_HIGH      1 GiB and up, highmem below 4 GiB (ZONE_HIGHMEM)
 *   HOST_MEM_HIGH4G    4 GiB and up             (ZONE_HIGHMEM)
 * Every page, highmem included, is backed by host memory that kmap and
 * kmap_atomic return; page_address() is NULL for highmem, as in the kernel.
 */
#ifndef TESTS_UNIT_FAKES_PAGE_FAKE_H
#define TESTS_UNIT_FAKES_PAGE_FAKE_H

#include "kernel/mm/page.h"

enum host_mem_range { HOST_MEM_DMA, HOST_MEM_NORMAL, HOST_MEM_HIGH, HOST_MEM_HIGH4G, HOST_MEM_NR };

#define HOST_NR_PAGES	2048u

extern long host_pages_live;		/* pages allocated and not freed */
extern int host_kmap_depth;		/* kmap_atomic nesting now */

/* Allocate one page from a given range (NULL when it is full). */
struct page *host_alloc_page_in(enum host_mem_range r);
/* The bytes behind any page. */
void *host_page_buf(struct page *page);
enum host_mem_range host_page_range(const struct page *page);

#endif
