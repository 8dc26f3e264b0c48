/*
 * Host fake of kernel/mm/page.h and kernel/mm/highmem.h: fake physical
 * memory (see page_fake.h for the layout) with a struct page per frame,
 * pfn and physical-address arithmetic as in the kernel, a first-fit
 * allocator per range, and kmap over the host buffer.
 */
#include <stdlib.h>
#include <string.h>
#include "kernel/printk.h"
#include "kernel/mm/highmem.h"
#include "tests/unit/fakes/page_fake.h"

long host_pages_live;
int host_kmap_depth;

struct range {
	u32		first, count;	/* page indexes */
	u64		base_pfn;
	enum zone_type	zone;
};

static const struct range ranges[HOST_MEM_NR] = {
	[HOST_MEM_DMA]		= { 0, 128, 0x100, ZONE_DMA },
	[HOST_MEM_NORMAL]	= { 128, 1280, 0x1000, ZONE_NORMAL },
	[HOST_MEM_HIGH]		= { 1408, 320, 0x40000, ZONE_HIGHMEM },
	[HOST_MEM_HIGH4G]	= { 1728, 320, 0x100000, ZONE_HIGHMEM },
};

static struct page pages[HOST_NR_PAGES];
static u8 *backing;
static bool used[HOST_NR_PAGES];

const char *const zone_names[MAX_NR_ZONES] = { "DMA", "Normal", "HighMem" };

static void setup(void)
{
	u32 i;
	int r;

	if (backing)
		return;
	backing = aligned_alloc(PAGE_SIZE, (size_t)HOST_NR_PAGES * PAGE_SIZE);
	if (!backing)
		panic("page_fake: no memory");
	for (r = 0; r < HOST_MEM_NR; r++)
		for (i = 0; i < ranges[r].count; i++)
			pages[ranges[r].first + i].flags =
				ranges[r].zone == ZONE_HIGHMEM ? PG_highmem : 0;
}

static u32 index_of(const struct page *p)
{
	KASSERT(p >= pages && p < pages + HOST_NR_PAGES);
	return (u32)(p - pages);
}

enum host_mem_range host_page_range(const struct page *page)
{
	u32 i = index_of(page);
	int r;

	for (r = 0; r < HOST_MEM_NR; r++)
		if (i >= ranges[r].first && i < ranges[r].first + ranges[r].count)
			return (enum host_mem_range)r;
	panic("page_fake: no range");
}

u64 page_to_pfn(const struct page *page)
{
	const struct range *r = &ranges[host_page_range(page)];

	return r->base_pfn + (index_of(page) - r->first);
}

struct page *pfn_to_page(u64 pfn)
{
	int r;

	setup();
	for (r = 0; r < HOST_MEM_NR; r++)
		if (pfn >= ranges[r].base_pfn && pfn < ranges[r].base_pfn + ranges[r].count)
			return &pages[ranges[r].first + (pfn - ranges[r].base_pfn)];
	return NULL;
}

phys_addr_t page_to_phys(const struct page *page) { return page_to_pfn(page) << PAGE_SHIFT; }

bool page_follows(const struct page *prev, const struct page *page)
{
	return page == prev + 1 && page_to_pfn(page) == page_to_pfn(prev) + 1;
}
bool pages_contiguous(const struct page *first, const struct page *last, unsigned long n)
{
	return n && host_page_range(first) == host_page_range(last) && last == first + (n - 1);
}
bool PageHighMem(const struct page *page) { return (page->flags & PG_highmem) != 0; }
enum zone_type page_zonenum(const struct page *page) { return ranges[host_page_range(page)].zone; }
void *host_page_buf(struct page *page) { return backing + (size_t)index_of(page) * PAGE_SIZE; }

void *page_address(const struct page *page)
{
	return PageHighMem(page) ? NULL : host_page_buf((struct page *)page);
}

struct page *virt_to_page(const void *vaddr)
{
	return &pages[((const u8 *)vaddr - backing) / PAGE_SIZE];
}

phys_addr_t __pa(const void *vaddr)
{
	return page_to_phys(virt_to_page(vaddr)) + ((uintptr_t)vaddr & (PAGE_SIZE - 1));
}

void *__va(phys_addr_t paddr)
{
	return (u8 *)page_address(pfn_to_page(paddr >> PAGE_SHIFT)) + (paddr & (PAGE_SIZE - 1));
}

static struct page *alloc_in(enum host_mem_range r, unsigned order)
{
	u32 n = 1u << order, i, j;

	for (i = ranges[r].first; i + n <= ranges[r].first + ranges[r].count; i += n) {
		for (j = 0; j < n && !used[i + j]; j++)
			;
		if (j < n)
			continue;
		for (j = 0; j < n; j++) {
			used[i + j] = true;
			pages[i + j]._refcount = 1;
		}
		host_pages_live += n;
		return &pages[i];
	}
	return NULL;
}

struct page *host_alloc_page_in(enum host_mem_range r)
{
	setup();
	return alloc_in(r, 0);
}

struct page *alloc_pages(gfp_t gfp, unsigned order)
{
	static const enum host_mem_range order_hi[] = { HOST_MEM_HIGH4G, HOST_MEM_HIGH,
							 HOST_MEM_NORMAL, HOST_MEM_DMA };
	struct page *p = NULL;
	unsigned k = (gfp & __GFP_HIGHMEM) ? 0 : 2;

	setup();
	if (gfp & __GFP_DMA)
		k = 3;
	for (; !p && k < 4; k++)
		p = alloc_in(order_hi[k], order);
	if (p && (gfp & __GFP_ZERO))
		memset(host_page_buf(p), 0, PAGE_SIZE << order);
	return p;
}

void __free_pages(struct page *page, unsigned order)
{
	u32 i = index_of(page), j;

	for (j = 0; j < (1u << order); j++) {
		KASSERT(used[i + j]);
		used[i + j] = false;
	}
	host_pages_live -= 1 << order;
}

void *get_free_pages(gfp_t gfp, unsigned order)
{
	struct page *p = alloc_pages(gfp & ~__GFP_HIGHMEM, order);

	return p ? page_address(p) : NULL;
}

void *get_zeroed_page(gfp_t gfp) { return get_free_pages(gfp | __GFP_ZERO, 0); }
void free_pages(void *addr, unsigned order) { __free_pages(virt_to_page(addr), order); }
void get_page(struct page *page) { page->_refcount++; }

void put_page(struct page *page)
{
	if (--page->_refcount == 0)
		__free_pages(page, 0);
}

void *kmap(struct page *page) { return host_page_buf(page); }
void kunmap(struct page *page) { }

void *kmap_atomic(struct page *page)
{
	host_kmap_depth++;
	return host_page_buf(page);
}

void kunmap_atomic(void *addr)
{
	KASSERT(host_kmap_depth > 0);
	host_kmap_depth--;
}

void copy_page_range(struct page *dst, unsigned dst_off,
		     struct page *src, unsigned src_off, unsigned len)
{
	KASSERT(dst_off + len <= PAGE_SIZE && src_off + len <= PAGE_SIZE);
	memmove((u8 *)host_page_buf(dst) + dst_off, (u8 *)host_page_buf(src) + src_off, len);
}

void zero_page_range(struct page *page, unsigned off, unsigned len)
{
	KASSERT(off + len <= PAGE_SIZE);
	memset((u8 *)host_page_buf(page) + off, 0, len);
}

u64 zone_free_pages(enum zone_type z)
{
	u64 n = 0;
	u32 i;
	int r;

	for (r = 0; r < HOST_MEM_NR; r++)
		if (ranges[r].zone == z)
			for (i = 0; i < ranges[r].count; i++)
				n += !used[ranges[r].first + i];
	return n;
}

u64 zone_total_pages(enum zone_type z)
{
	u64 n = 0;
	int r;

	for (r = 0; r < HOST_MEM_NR; r++)
		if (ranges[r].zone == z)
			n += ranges[r].count;
	return n;
}
