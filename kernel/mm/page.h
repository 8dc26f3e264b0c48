/*
 * Page frames.  Every physical page frame the kernel manages has a struct
 * page; a bio names memory by struct page + offset, never by virtual
 * address, because the page may sit in high memory with no permanent
 * mapping.  Lowmem pages (below ~896 MiB) are mapped linearly at
 * PAGE_OFFSET and page_address() gives their address; highmem pages are
 * reached through kmap() (kernel/mm/highmem.h).
 *
 * Allocation is by buddy order: 2^order contiguous frames from one zone.
 */
#ifndef KERNEL_MM_PAGE_H
#define KERNEL_MM_PAGE_H

#include "kernel/compiler.h"
#include "kernel/mm/gfp.h"
#include "lib/list.h"

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))
#define PAGE_OFFSET	0xC0000000UL
#define MAX_ORDER	11		/* orders 0..10: up to 4 MiB blocks */

enum zone_type { ZONE_DMA, ZONE_NORMAL, ZONE_HIGHMEM, MAX_NR_ZONES };

/*
 * Kept small: one is allocated for every frame.  Fields are owned by
 * whoever holds the page: the buddy allocator while it is free, the
 * allocating subsystem (slab, bounce, mem disk) while it is in use.
 *
 * Lock legend: [I] set at boot, then immutable; [a] atomic; [o] the
 * owner's: the zone lock while the frame is free (or being freed), the
 * allocating subsystem's rules while it is in use.
 */
struct page {
	u32			flags;		/* [o] PG_* below; [I] range and zone in the top bits */
	s32			_refcount;	/* [a] */
	struct list_head	lru;		/* [o] buddy free list, or the owner's list */
	unsigned long		private;	/* [o] buddy order when free; owner's word otherwise */
};

/*
 * The low byte holds these; mm keeps the frame's range and zone in the
 * upper bits (kernel/mm/page_alloc.h), which is what makes page_to_pfn()
 * O(1) without a pfn field.
 */
#define PG_reserved	0x01u	/* never handed out (firmware, kernel image, holes) */
#define PG_buddy	0x02u	/* free, at the head of a buddy block */
#define PG_slab		0x04u	/* owned by the slab allocator */
#define PG_highmem	0x08u	/* no permanent kernel mapping */

u64 page_to_pfn(const struct page *page);
struct page *pfn_to_page(u64 pfn);
phys_addr_t page_to_phys(const struct page *page);
/* Is page the frame right after prev in physical memory? */
bool page_follows(const struct page *prev, const struct page *page);
/*
 * Are the @n pages @first .. @last adjacent frames with adjacent struct
 * pages (one memory range), as page_follows() for each pair would say?
 */
bool pages_contiguous(const struct page *first, const struct page *last, unsigned long n);
bool PageHighMem(const struct page *page);
enum zone_type page_zonenum(const struct page *page);

/* The lowmem linear map.  Valid only for lowmem addresses. */
phys_addr_t __pa(const void *vaddr);
void *__va(phys_addr_t paddr);
struct page *virt_to_page(const void *vaddr);
/* Is @vaddr in the lowmem linear map (so __pa and virt_to_page take it)? */
bool virt_addr_valid(const void *vaddr);
/* Kernel address of a lowmem page; NULL for a highmem page. */
void *page_address(const struct page *page);

/* Returns NULL when no allowed zone has a free block of that order. */
struct page *alloc_pages(gfp_t gfp, unsigned order);
void __free_pages(struct page *page, unsigned order);
static inline struct page *alloc_page(gfp_t gfp) { return alloc_pages(gfp, 0); }
static inline void __free_page(struct page *page) { __free_pages(page, 0); }

/* Lowmem convenience forms: kernel addresses instead of struct page. */
void *get_free_pages(gfp_t gfp, unsigned order);
void *get_zeroed_page(gfp_t gfp);
void free_pages(void *addr, unsigned order);

/* Reference counts for pages shared by several owners (bios, caches). */
void get_page(struct page *page);
void put_page(struct page *page);	/* frees an order-0 page at zero */

/* Free page count of a zone, and the totals, for meminfo and tests. */
u64 zone_free_pages(enum zone_type z);
u64 zone_total_pages(enum zone_type z);
extern const char *const zone_names[MAX_NR_ZONES];

#endif
