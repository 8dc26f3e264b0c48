/*
 * The buddy page allocator, per zone, orders 0..MAX_ORDER-1
 * (kernel/mm/page.h for callers, kernel/mm/page_alloc.h for mm itself).
 *
 * Layer: mm core, pure logic (built on the host against a fake page
 * array).  Boot code describes memory with mm_node_add_range() and hands
 * free frames over with mm_node_free_boot_range(); from then on every
 * frame is either in exactly one free block (its head flagged PG_buddy,
 * order in page->private, linked on z_free[order]) or owned by whoever
 * allocated it (head refcount >= 1).
 *
 * A free block of order n is merged with its buddy (frame number
 * pfn ^ 2^n) whenever the buddy is a free block of the same order in the
 * same range.  Allocation takes the smallest block that fits and splits
 * it, so fragmentation stays at the buddy system's usual bound.
 *
 * Misuse is caught, not absorbed: freeing a reserved frame, a free block,
 * a tail frame or a misaligned block panics with the frame number.  Out of
 * memory returns NULL; nothing here ever panics for lack of memory.
 */
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/highmem.h"
#include "kernel/printk.h"
#include "kernel/errno.h"
#include "lib/string.h"

#define ALLOC_FAIL_REPORTS	8	/* failed allocations logged, then quiet */
#define RESERVE_DIVISOR		128	/* atomic reserve: 1/128 of the zone... */
#define RESERVE_MIN		8	/* ...but at least 8 frames */
#define RESERVE_MAX		1024	/* ...and at most 4 MiB */

struct mm_node mm_node;

const char *const zone_names[MAX_NR_ZONES] = { "DMA", "Normal", "HighMem" };

void mm_node_init(struct mm_node *n)
{
	unsigned z, o;

	memset(n, 0, sizeof(*n));
	for (z = 0; z < MAX_NR_ZONES; z++) {
		spin_lock_init(&n->n_zones[z].z_lock, "zone");
		for (o = 0; o < MAX_ORDER; o++)
			INIT_LIST_HEAD(&n->n_zones[z].z_free[o].fa_list);
	}
}

int mm_node_add_range(struct mm_node *n, u64 start_pfn, u32 nr,
		      struct page *pages, enum zone_type z)
{
	unsigned idx = n->n_nr_ranges;
	struct mm_range *r;
	struct zone *zone;
	u32 i;

	if (nr == 0 || !pages || z >= MAX_NR_ZONES)
		return -EINVAL;
	if (idx > 0) {
		const struct mm_range *prev = &n->n_ranges[idx - 1];

		if (start_pfn < prev->r_start_pfn + prev->r_nr)
			return -EINVAL;
	}
	if (idx == MM_MAX_RANGES)
		return -ENOSPC;

	r = &n->n_ranges[idx];
	r->r_start_pfn = start_pfn;
	r->r_nr = nr;
	r->r_zone = z;
	r->r_pages = pages;
	for (i = 0; i < nr; i++) {
		pages[i].flags = PG_reserved | (idx << PG_RANGE_SHIFT) |
				 ((u32)z << PG_ZONE_SHIFT) |
				 (z == ZONE_HIGHMEM ? PG_highmem : 0);
		pages[i]._refcount = 0;
		INIT_LIST_HEAD(&pages[i].lru);
		pages[i].private = 0;
	}
	zone = &n->n_zones[z];
	if (zone->z_present == 0 || start_pfn < zone->z_start_pfn)
		zone->z_start_pfn = start_pfn;
	if (start_pfn + nr > zone->z_end_pfn)
		zone->z_end_pfn = start_pfn + nr;
	zone->z_present += nr;
	n->n_nr_ranges++;
	return 0;
}

const struct mm_range *mm_page_range(const struct mm_node *n, const struct page *page)
{
	unsigned idx = (page->flags >> PG_RANGE_SHIFT) & PG_RANGE_MASK;
	const struct mm_range *r = &n->n_ranges[idx];

	KASSERT(idx < n->n_nr_ranges && page >= r->r_pages && page < r->r_pages + r->r_nr);
	return r;
}

u64 mm_page_to_pfn(const struct mm_node *n, const struct page *page)
{
	const struct mm_range *r = mm_page_range(n, page);

	return r->r_start_pfn + (u64)(page - r->r_pages);
}

struct page *mm_pfn_to_page(const struct mm_node *n, u64 pfn)
{
	unsigned lo = 0, hi = n->n_nr_ranges;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		const struct mm_range *r = &n->n_ranges[mid];

		if (pfn < r->r_start_pfn)
			hi = mid;
		else if (pfn >= r->r_start_pfn + r->r_nr)
			lo = mid + 1;
		else
			return &r->r_pages[pfn - r->r_start_pfn];
	}
	return NULL;
}

/* Insert a free block of this order at page; the caller holds the zone lock. */
static void __add_free(struct zone *z, struct page *page, unsigned order)
{
	page->flags |= PG_buddy;
	page->private = order;
	list_add(&page->lru, &z->z_free[order].fa_list);
	z->z_free[order].fa_nr++;
}

static void __del_free(struct zone *z, struct page *page, unsigned order)
{
	list_del_init(&page->lru);
	page->flags &= ~PG_buddy;
	page->private = 0;
	z->z_free[order].fa_nr--;
}

/*
 * Free the block [pfn, pfn + 2^order) of range r into its zone, merging
 * with free buddies.  Zone lock held; the caller accounts z_free_pages.
 */
static void __merge_free(struct zone *z, const struct mm_range *r, u64 pfn, unsigned order)
{
	u64 end = r->r_start_pfn + r->r_nr;

	while (order < MAX_ORDER - 1) {
		u64 bpfn = pfn ^ (1ULL << order);
		struct page *buddy;

		if (bpfn < r->r_start_pfn || bpfn + (1ULL << order) > end)
			break;
		buddy = &r->r_pages[bpfn - r->r_start_pfn];
		if (!(buddy->flags & PG_buddy) || buddy->private != order)
			break;
		__del_free(z, buddy, order);
		pfn &= ~(1ULL << order);
		order++;
	}
	__add_free(z, &r->r_pages[pfn - r->r_start_pfn], order);
}

int mm_node_free_boot_range(struct mm_node *n, u64 start_pfn, u64 end_pfn)
{
	const struct mm_range *r;
	struct page *first = mm_pfn_to_page(n, start_pfn);
	struct zone *z;
	unsigned long flags;
	u64 pfn;

	if (!first || end_pfn <= start_pfn)
		return -EINVAL;
	r = mm_page_range(n, first);
	if (end_pfn > r->r_start_pfn + r->r_nr)
		return -EINVAL;
	z = &n->n_zones[r->r_zone];

	spin_lock_irqsave(&z->z_lock, flags);
	for (pfn = start_pfn; pfn < end_pfn; pfn++) {
		struct page *p = &r->r_pages[pfn - r->r_start_pfn];

		if (!(p->flags & PG_reserved))
			panic("mm: boot frame %#llx given to the buddy twice",
			      (unsigned long long)pfn);
		p->flags &= ~PG_reserved;
	}
	/* Largest naturally aligned blocks first: merging then has little to do. */
	pfn = start_pfn;
	while (pfn < end_pfn) {
		unsigned order = 0;

		while (order < MAX_ORDER - 1 && !(pfn & (1ULL << order)) &&
		       pfn + (2ULL << order) <= end_pfn)
			order++;
		__merge_free(z, r, pfn, order);
		pfn += 1ULL << order;
	}
	z->z_free_pages += end_pfn - start_pfn;
	z->z_managed += end_pfn - start_pfn;
	spin_unlock_irqrestore(&z->z_lock, flags);
	return 0;
}

void mm_node_finish(struct mm_node *n)
{
	unsigned i;

	for (i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *z = &n->n_zones[i];

		z->z_reserve = clamp(z->z_managed / RESERVE_DIVISOR,
				     (u64)RESERVE_MIN, (u64)RESERVE_MAX);
		if (z->z_reserve > z->z_managed / 2)
			z->z_reserve = z->z_managed / 2;
	}
}

/* Take a block of this order from z, splitting a larger one; NULL if none. */
static struct page *zone_alloc(struct zone *z, gfp_t gfp, unsigned order)
{
	struct page *page = NULL;
	unsigned long flags;
	unsigned o;

	spin_lock_irqsave(&z->z_lock, flags);
	if (!(gfp & __GFP_ATOMIC) && z->z_free_pages < z->z_reserve + (1ULL << order))
		goto out;
	for (o = order; o < MAX_ORDER; o++)
		if (!list_empty(&z->z_free[o].fa_list))
			break;
	if (o == MAX_ORDER)
		goto out;
	page = list_first_entry(&z->z_free[o].fa_list, struct page, lru);
	__del_free(z, page, o);
	/* Halve until it fits; the upper halves go back as free blocks. */
	while (o > order) {
		o--;
		__add_free(z, page + (1UL << o), o);
	}
	z->z_free_pages -= 1ULL << order;
	page->_refcount = 1;
out:
	spin_unlock_irqrestore(&z->z_lock, flags);
	return page;
}

struct page *buddy_alloc(struct mm_node *n, gfp_t gfp, unsigned order)
{
	int top, z;

	if (order >= MAX_ORDER)
		return NULL;
	if (gfp & __GFP_DMA)
		top = ZONE_DMA;
	else if (gfp & __GFP_HIGHMEM)
		top = ZONE_HIGHMEM;
	else
		top = ZONE_NORMAL;
	for (z = top; z >= 0; z--) {
		struct page *page = zone_alloc(&n->n_zones[z], gfp, order);

		if (page)
			return page;
	}
	if (!(gfp & __GFP_NOWARN) &&
	    __atomic_fetch_add(&n->n_fail_reports, 1, __ATOMIC_RELAXED) < ALLOC_FAIL_REPORTS)
		pr_warn("mm: order-%u allocation failed (gfp %#x)\n", order, gfp);
	return NULL;
}

void buddy_free(struct mm_node *n, struct page *page, unsigned order)
{
	const struct mm_range *r;
	struct zone *z;
	unsigned long flags;
	u64 pfn;
	u32 i;

	r = mm_page_range(n, page);
	pfn = r->r_start_pfn + (u64)(page - r->r_pages);
	if (order >= MAX_ORDER || (pfn & ((1ULL << order) - 1)) ||
	    pfn + (1ULL << order) > r->r_start_pfn + r->r_nr)
		panic("mm: free of frame %#llx with bad order %u",
		      (unsigned long long)pfn, order);
	if (page->flags & PG_reserved)
		panic("mm: free of reserved frame %#llx", (unsigned long long)pfn);
	if (page->flags & PG_buddy)
		panic("mm: double free of frame %#llx (order %u)", (unsigned long long)pfn, order);
	if (page->flags & (PG_slab | PG_large))
		panic("mm: free of frame %#llx still owned by the slab", (unsigned long long)pfn);
	/* Tails of a block are never flagged; a flagged one means the order is wrong. */
	for (i = 1; i < (1U << order); i++)
		if (page[i].flags & (PG_buddy | PG_reserved))
			panic("mm: free of frame %#llx order %u covers a free or reserved frame",
			      (unsigned long long)pfn, order);
	z = &n->n_zones[r->r_zone];
	spin_lock_irqsave(&z->z_lock, flags);
	page->_refcount = 0;
	__merge_free(z, r, pfn, order);
	z->z_free_pages += 1ULL << order;
	spin_unlock_irqrestore(&z->z_lock, flags);
}

void zone_free_counts(struct mm_node *n, enum zone_type zt, u32 counts[MAX_ORDER])
{
	struct zone *z = &n->n_zones[zt];
	unsigned long flags;
	unsigned o;

	spin_lock_irqsave(&z->z_lock, flags);
	for (o = 0; o < MAX_ORDER; o++)
		counts[o] = z->z_free[o].fa_nr;
	spin_unlock_irqrestore(&z->z_lock, flags);
}

/* The page.h interface, on the machine's node. */

u64 page_to_pfn(const struct page *page)
{
	return mm_page_to_pfn(&mm_node, page);
}

struct page *pfn_to_page(u64 pfn)
{
	return mm_pfn_to_page(&mm_node, pfn);
}

/* Adjacent struct pages of one range are adjacent frames. */
bool page_follows(const struct page *prev, const struct page *page)
{
	return page == prev + 1 &&
	       ((page->flags ^ prev->flags) >> PG_RANGE_SHIFT & PG_RANGE_MASK) == 0;
}

/* One range holds both ends, so everything between: its frames are contiguous. */
bool pages_contiguous(const struct page *first, const struct page *last, unsigned long n)
{
	return n && ((first->flags ^ last->flags) >> PG_RANGE_SHIFT & PG_RANGE_MASK) == 0 &&
	       last == first + (n - 1);
}

phys_addr_t page_to_phys(const struct page *page)
{
	return page_to_pfn(page) << PAGE_SHIFT;
}

bool PageHighMem(const struct page *page)
{
	return (page->flags & PG_highmem) != 0;
}

enum zone_type page_zonenum(const struct page *page)
{
	return (enum zone_type)((page->flags >> PG_ZONE_SHIFT) & PG_ZONE_MASK);
}

/**
 * alloc_pages - allocate 2^order contiguous frames
 * @gfp: zones allowed (GFP_KERNEL, __GFP_HIGHMEM, GFP_DMA...), __GFP_ZERO
 * @order: 0..MAX_ORDER-1
 *
 * Returns the head page with a reference count of 1, or NULL.  Any
 * context with GFP_ATOMIC.
 */
struct page *alloc_pages(gfp_t gfp, unsigned order)
{
	struct page *page = buddy_alloc(&mm_node, gfp, order);
	unsigned i;

	if (page && (gfp & __GFP_ZERO))
		for (i = 0; i < (1U << order); i++)
			zero_page_range(page + i, 0, PAGE_SIZE);
	return page;
}

/* Drop a reference to a block; the last one frees it. */
void __free_pages(struct page *page, unsigned order)
{
	s32 left = __atomic_sub_fetch(&page->_refcount, 1, __ATOMIC_ACQ_REL);

	if (left > 0)
		return;
	if (left < 0)
		panic("mm: free of frame %#llx that is not allocated (refcount %d)",
		      (unsigned long long)page_to_pfn(page), (int)left);
	buddy_free(&mm_node, page, order);
}

void get_page(struct page *page)
{
	s32 old = __atomic_fetch_add(&page->_refcount, 1, __ATOMIC_RELAXED);

	KASSERT(old > 0);
}

void put_page(struct page *page)
{
	__free_pages(page, 0);
}

void *get_free_pages(gfp_t gfp, unsigned order)
{
	struct page *page = alloc_pages(gfp & ~__GFP_HIGHMEM, order);

	return page ? page_address(page) : NULL;
}

void *get_zeroed_page(gfp_t gfp)
{
	return get_free_pages(gfp | __GFP_ZERO, 0);
}

void free_pages(void *addr, unsigned order)
{
	if (addr)
		__free_pages(virt_to_page(addr), order);
}

u64 zone_free_pages(enum zone_type z)
{
	return READ_ONCE(mm_node.n_zones[z].z_free_pages);
}

u64 zone_total_pages(enum zone_type z)
{
	return mm_node.n_zones[z].z_managed;
}
