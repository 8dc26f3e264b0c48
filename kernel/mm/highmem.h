/*
 * Temporary kernel mappings for any page, highmem included.
 *
 * kmap() takes one of a pool of persistent slots and may wait for one to
 * come free; not from interrupt context.  kmap_atomic() uses a per-CPU
 * fixmap slot, works in interrupt context, nests a few deep, and must be
 * undone in reverse order before the caller waits.  For lowmem pages both
 * simply return page_address().
 */
#ifndef KERNEL_MM_HIGHMEM_H
#define KERNEL_MM_HIGHMEM_H

#include "kernel/mm/page.h"

void *kmap(struct page *page);
void kunmap(struct page *page);
void *kmap_atomic(struct page *page);
void kunmap_atomic(void *addr);

/* Copy between pages of any zone, through atomic mappings. */
void copy_page_range(struct page *dst, unsigned dst_off,
		     struct page *src, unsigned src_off, unsigned len);
void zero_page_range(struct page *page, unsigned off, unsigned len);

#endif
