/*
 * Inside the page allocator: zones, page-frame ranges and the node that
 * holds them.  For mm's own files (boot setup, meminfo, selftests) and the
 * host tests; everyone else uses kernel/mm/page.h.
 *
 * Page frames live in ranges: a run of contiguous frames with one struct
 * page array, inside one zone.  Only frames the memory map calls RAM (or
 * that sit between RAM frames of the same zone) have a range, so holes
 * cost nothing.  Every struct page records its range and zone in its
 * flags, so page_to_pfn() is O(1); pfn_to_page() is a binary search over
 * the ranges (a handful on real machines).
 *
 * Buddy blocks are aligned to their size in absolute frame numbers and
 * never cross a range, so a block of order n is 2^n naturally aligned
 * frames, physically contiguous.
 *
 * Lock legend: [I] set during boot, then immutable; [z] zone->z_lock;
 * [a] atomic.
 */
#ifndef KERNEL_MM_PAGE_ALLOC_H
#define KERNEL_MM_PAGE_ALLOC_H

#include "kernel/mm/page.h"
#include "kernel/spinlock.h"

#define MM_MAX_RANGES		256	/* fits PG_RANGE_MASK */

/* struct page flags: PG_* in the low byte, then the range and the zone. */
#define PG_large	0x10u	/* head of a kmalloc block straight from the buddy */
#define PG_RANGE_SHIFT	16
#define PG_RANGE_MASK	0xffu
#define PG_ZONE_SHIFT	24
#define PG_ZONE_MASK	0x3u

#define DMA_ZONE_END	(16ULL << 20)	/* ISA DMA reach: 24 address bits */
#define LOWMEM_MAX	(896ULL << 20)	/* linear map size; the rest of 1 GiB is vmalloc, kmap, fixmap */

_Static_assert(MM_MAX_RANGES - 1 <= PG_RANGE_MASK, "range index fits the flags");
_Static_assert(MAX_NR_ZONES - 1 <= PG_ZONE_MASK, "zone fits the flags");
_Static_assert(LOWMEM_MAX % (PAGE_SIZE << (MAX_ORDER - 1)) == 0 &&
	       DMA_ZONE_END % (PAGE_SIZE << (MAX_ORDER - 1)) == 0,
	       "zone boundaries do not cut a maximal buddy block");
#ifndef HOST_TEST
_Static_assert(sizeof(struct page) == 20, "struct page: 20 bytes per 4 KiB frame");
#endif

struct mm_range {
	u64		r_start_pfn;	/* [I] first frame */
	u32		r_nr;		/* [I] frames */
	enum zone_type	r_zone;		/* [I] */
	struct page	*r_pages;	/* [I] r_nr entries, in lowmem */
};

struct free_area {
	struct list_head	fa_list;	/* [z] heads of free blocks, via page->lru */
	u32			fa_nr;		/* [z] blocks on the list */
};

struct zone {
	spinlock_t		z_lock;
	struct free_area	z_free[MAX_ORDER];	/* [z] */
	u64			z_free_pages;		/* [z] */
	u64			z_managed;	/* [I] frames given to the buddy at boot */
	u64			z_present;	/* [I] frames with a struct page */
	u64			z_reserve;	/* [I] free frames only __GFP_ATOMIC may take */
	u64			z_start_pfn;	/* [I] span of the zone's ranges */
	u64			z_end_pfn;	/* [I] */
};

struct mm_node {
	struct zone	n_zones[MAX_NR_ZONES];
	struct mm_range	n_ranges[MM_MAX_RANGES];	/* [I] sorted by pfn */
	unsigned	n_nr_ranges;			/* [I] */
	unsigned	n_fail_reports;			/* [a] failed allocations logged */
};

/* The machine's one node; mm_init() fills it. */
extern struct mm_node mm_node;

void mm_node_init(struct mm_node *n);

/*
 * Add frames [start_pfn, start_pfn + nr) of zone z, described by pages[]
 * (nr entries, which this initialises as reserved).  Ranges are added in
 * increasing pfn order and do not overlap.  Returns 0, -EINVAL or -ENOSPC.
 */
int mm_node_add_range(struct mm_node *n, u64 start_pfn, u32 nr,
		      struct page *pages, enum zone_type z);

/*
 * Give the reserved frames [start_pfn, end_pfn) to the buddy allocator;
 * they must lie in one range.  Boot only.  Returns 0 or -EINVAL.
 */
int mm_node_free_boot_range(struct mm_node *n, u64 start_pfn, u64 end_pfn);

/* After the last free_boot_range: set the zones' atomic reserves. */
void mm_node_finish(struct mm_node *n);

struct page *mm_pfn_to_page(const struct mm_node *n, u64 pfn);
u64 mm_page_to_pfn(const struct mm_node *n, const struct page *page);
const struct mm_range *mm_page_range(const struct mm_node *n, const struct page *page);

/* The buddy allocator proper; alloc_pages()/__free_pages() on mm_node. */
struct page *buddy_alloc(struct mm_node *n, gfp_t gfp, unsigned order);
void buddy_free(struct mm_node *n, struct page *page, unsigned order);

/* Snapshot of a zone's free blocks per order, for meminfo and tests. */
void zone_free_counts(struct mm_node *n, enum zone_type z, u32 counts[MAX_ORDER]);

#endif
