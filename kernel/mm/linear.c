/*
 * The lowmem linear map: physical [0, mm_lowmem_end) at PAGE_OFFSET
 * (kernel/mm/page.h: __pa, __va, virt_to_page, virt_addr_valid, page_address).
 *
 * Layer: mm, kernel only (the host tests use tests/unit/fakes/
 * mm_linear_fake.c instead).  The conversions check their argument:
 * an address outside the linear map is a caller bug that would otherwise
 * turn into silent memory corruption, so it panics with the address.
 */
#include "kernel/mm/mm_internal.h"
#include "kernel/printk.h"

phys_addr_t __pa(const void *vaddr)
{
	unsigned long v = (unsigned long)vaddr;

	if (v < PAGE_OFFSET || v - PAGE_OFFSET >= mm_lowmem_end)
		panic("__pa: %p is not in the lowmem linear map", vaddr);
	return v - PAGE_OFFSET;
}

void *__va(phys_addr_t paddr)
{
	if (paddr >= mm_lowmem_end)
		panic("__va: %#llx is not lowmem", (unsigned long long)paddr);
	return (void *)(PAGE_OFFSET + (unsigned long)paddr);
}

bool virt_addr_valid(const void *vaddr)
{
	unsigned long v = (unsigned long)vaddr;

	return v >= PAGE_OFFSET && v - PAGE_OFFSET < mm_lowmem_end;
}

/* NULL for linear-map addresses with no struct page (holes, firmware). */
struct page *virt_to_page(const void *vaddr)
{
	return pfn_to_page(__pa(vaddr) >> PAGE_SHIFT);
}

void *page_address(const struct page *page)
{
	if (PageHighMem(page))
		return NULL;
	return (void *)(PAGE_OFFSET + ((unsigned long)page_to_pfn(page) << PAGE_SHIFT));
}
