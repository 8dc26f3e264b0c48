/*
 * Host fake of the lowmem linear map (page_address, virt_to_page, __pa,
 * __va) and of kernel/mm/highmem.h, over one malloc'd arena that stands
 * for a window of physical memory.  The real page allocator and slab
 * (kernel/mm/page_alloc.c, slab.c) link against it in host tests; frames
 * come from the real struct page arrays the test builds.
 */
#include <stdlib.h>
#include <string.h>
#include "kernel/mm/page.h"
#include "kernel/mm/highmem.h"
#include "kernel/printk.h"
#include "tests/unit/fakes/mm_linear_fake.h"

static u8 *arena;
static u64 arena_pfn, arena_nr;
int host_kmap_atomic_depth;
int host_kmap_live;

void host_linear_setup(u64 start_pfn, u64 nr)
{
	host_linear_teardown();
	arena = aligned_alloc(PAGE_SIZE, nr * PAGE_SIZE);
	if (!arena)
		panic("host_linear_setup: no memory for %llu frames", (unsigned long long)nr);
	arena_pfn = start_pfn;
	arena_nr = nr;
}

void host_linear_teardown(void)
{
	free(arena);
	arena = NULL;
	arena_nr = 0;
}

static void *frame(u64 pfn)
{
	if (!arena || pfn < arena_pfn || pfn >= arena_pfn + arena_nr)
		return NULL;
	return arena + (pfn - arena_pfn) * PAGE_SIZE;
}

void *page_address(const struct page *page)
{
	return PageHighMem(page) ? NULL : frame(page_to_pfn(page));
}

phys_addr_t __pa(const void *vaddr)
{
	const u8 *v = vaddr;

	if (!arena || v < arena || v >= arena + arena_nr * PAGE_SIZE)
		panic("__pa: %p is outside the fake linear map", vaddr);
	return (arena_pfn << PAGE_SHIFT) + (phys_addr_t)(v - arena);
}

void *__va(phys_addr_t paddr)
{
	u8 *f = frame(paddr >> PAGE_SHIFT);

	if (!f)
		panic("__va: %#llx is outside the fake linear map", (unsigned long long)paddr);
	return f + (paddr & ~PAGE_MASK);
}

struct page *virt_to_page(const void *vaddr)
{
	return pfn_to_page(__pa(vaddr) >> PAGE_SHIFT);
}

void *kmap(struct page *page)
{
	void *p = frame(page_to_pfn(page));

	if (!p)
		panic("kmap: frame %#llx has no memory", (unsigned long long)page_to_pfn(page));
	host_kmap_live++;
	return p;
}

void kunmap(struct page *page)
{
	host_kmap_live--;
}

void *kmap_atomic(struct page *page)
{
	void *p = frame(page_to_pfn(page));

	if (!p)
		panic("kmap_atomic: frame %#llx has no memory",
		      (unsigned long long)page_to_pfn(page));
	host_kmap_atomic_depth++;
	return p;
}

void kunmap_atomic(void *addr)
{
	host_kmap_atomic_depth--;
}

void copy_page_range(struct page *dst, unsigned dst_off,
		     struct page *src, unsigned src_off, unsigned len)
{
	u8 *d = kmap_atomic(dst), *s = kmap_atomic(src);

	memcpy(d + dst_off, s + src_off, len);
	kunmap_atomic(s);
	kunmap_atomic(d);
}

void zero_page_range(struct page *page, unsigned off, unsigned len)
{
	u8 *p = kmap_atomic(page);

	memset(p + off, 0, len);
	kunmap_atomic(p);
}
