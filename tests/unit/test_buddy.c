/*
 * Host tests for the buddy allocator (kernel/mm/page_alloc.c), the real
 * code on a fake machine: struct page arrays for three zones whose ranges
 * start and end at odd frames, with RAM above 4 GiB in HIGHMEM.  Misuse
 * (double free, reserved frame, tail frame) must panic: those cases run in
 * a child process and check that it died with the right message.
 */
#include "tests/unit/unit.h"
#include "tests/unit/fakes/child_panic.h"
#include "tests/unit/fakes/mm_linear_fake.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/errno.h"

/* The fake machine: frame ranges and their zones. */
static const struct {
	u64		start, nr;
	enum zone_type	zone;
} layout[] = {
	{ 1, 159, ZONE_DMA },			/* 4 KiB .. 640 KiB */
	{ 256, 3840, ZONE_DMA },		/* 1 MiB .. 16 MiB */
	{ 4096, 9000, ZONE_NORMAL },		/* 16 MiB .. ~51 MiB, odd end */
	{ 20000, 1234, ZONE_NORMAL },		/* after a hole */
	{ 0x100000, 5000, ZONE_HIGHMEM },	/* 4 GiB .. */
};

static struct page *arrays[ARRAY_SIZE(layout)];

/* Build mm_node (the global one, so page.h calls work) with every frame free. */
static void machine_up(void)
{
	unsigned i;

	mm_node_init(&mm_node);
	for (i = 0; i < ARRAY_SIZE(layout); i++) {
		free(arrays[i]);
		arrays[i] = calloc(layout[i].nr, sizeof(struct page));
		CHECK_EQ(mm_node_add_range(&mm_node, layout[i].start, layout[i].nr,
					   arrays[i], layout[i].zone), 0);
		CHECK_EQ(mm_node_free_boot_range(&mm_node, layout[i].start,
						 layout[i].start + layout[i].nr), 0);
	}
	mm_node_finish(&mm_node);
}

static u64 expect_total(enum zone_type z)
{
	u64 t = 0;
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(layout); i++)
		if (layout[i].zone == z)
			t += layout[i].nr;
	return t;
}

/* Sum of free blocks times their sizes must equal the free counter. */
static bool counts_consistent(enum zone_type z)
{
	u32 c[MAX_ORDER];
	u64 t = 0;
	unsigned o;

	zone_free_counts(&mm_node, z, c);
	for (o = 0; o < MAX_ORDER; o++)
		t += (u64)c[o] << o;
	return t == zone_free_pages(z);
}

static void test_boot_layout(void)
{
	u32 c[MAX_ORDER];
	unsigned z, o;

	machine_up();
	for (z = 0; z < MAX_NR_ZONES; z++) {
		CHECK_EQ(zone_total_pages(z), expect_total(z));
		CHECK_EQ(zone_free_pages(z), expect_total(z));
		CHECK(counts_consistent(z));
	}
	/*
	 * DMA [1,160): 1, 2-3, 4-7, ..., 128-159 as 32 => orders 0..6 once
	 * and one order 5; [256,4096): 256-511 o8, 512-1023 o9, then three o10.
	 */
	zone_free_counts(&mm_node, ZONE_DMA, c);
	for (o = 0; o <= 4; o++)
		CHECK_EQ(c[o], 1);
	CHECK_EQ(c[5], 2);
	CHECK_EQ(c[6], 1);
	CHECK_EQ(c[7], 0);
	CHECK_EQ(c[8], 1);
	CHECK_EQ(c[9], 1);
	CHECK_EQ(c[10], 3);
	CHECK(mm_node.n_zones[ZONE_NORMAL].z_reserve >= 8);
}

static void test_pfn_roundtrip(void)
{
	unsigned i;

	machine_up();
	for (i = 0; i < ARRAY_SIZE(layout); i++) {
		u64 pfn = layout[i].start + layout[i].nr - 1;
		struct page *p = pfn_to_page(pfn);

		CHECK(p == &arrays[i][layout[i].nr - 1]);
		CHECK_EQ(page_to_pfn(p), pfn);
		CHECK_EQ(page_zonenum(p), layout[i].zone);
		CHECK_EQ(PageHighMem(p), layout[i].zone == ZONE_HIGHMEM);
	}
	CHECK(pfn_to_page(0) == NULL);
	CHECK(pfn_to_page(160) == NULL);
	CHECK(pfn_to_page(4096 + 9000) == NULL);
	CHECK(pfn_to_page(0x100000 + 5000) == NULL);
	CHECK(pfn_to_page(~0ULL) == NULL);
	CHECK_EQ(page_to_phys(pfn_to_page(0x100000 + 7)), (4ULL << 30) + 7 * 4096);
}

/* Drain one zone with order-0 atomic allocations, then give it all back. */
static void drain_zone(enum zone_type z, gfp_t gfp)
{
	u64 n = 0, want = zone_free_pages(z);
	u32 before[MAX_ORDER], after[MAX_ORDER];
	struct page *p, *t;
	LIST_HEAD(got);
	unsigned o;

	zone_free_counts(&mm_node, z, before);
	while ((p = buddy_alloc(&mm_node, gfp | __GFP_ATOMIC | __GFP_NOWARN, 0))) {
		if (page_zonenum(p) != z) {
			buddy_free(&mm_node, p, 0);
			break;
		}
		CHECK_EQ(p->_refcount, 1);
		CHECK(!(p->flags & (PG_buddy | PG_reserved)));
		list_add_tail(&p->lru, &got);
		n++;
	}
	CHECK_EQ(n, want);
	CHECK_EQ(zone_free_pages(z), 0);
	/* Free in an interleaved order so merging has real work to do. */
	for (int pass = 0; pass < 2; pass++) {
		u64 i = 0;

		list_for_each_entry_safe(p, t, &got, lru) {
			if (pass == 1 || (i++ & 1) == 0) {
				list_del_init(&p->lru);
				__free_pages(p, 0);
			}
		}
	}
	CHECK(list_empty(&got));
	CHECK_EQ(zone_free_pages(z), want);
	zone_free_counts(&mm_node, z, after);
	for (o = 0; o < MAX_ORDER; o++)
		CHECK_EQ(after[o], before[o]);
}

static void test_drain_every_zone(void)
{
	machine_up();
	drain_zone(ZONE_HIGHMEM, __GFP_HIGHMEM);
	drain_zone(ZONE_NORMAL, 0);
	drain_zone(ZONE_DMA, GFP_DMA);
}

static void test_split_and_merge(void)
{
	u32 c[MAX_ORDER];
	struct page *p;
	unsigned o;

	machine_up();
	/* HighMem [0x100000, +5000): four order-10 blocks, then the tail. */
	zone_free_counts(&mm_node, ZONE_HIGHMEM, c);
	CHECK_EQ(c[10], 4);
	/* Empty the smaller orders so the next order-3 must split an order 10. */
	for (o = 0; o < 10; o++)
		while (c[o]--)
			CHECK(buddy_alloc(&mm_node, __GFP_HIGHMEM | __GFP_ATOMIC, o) != NULL);
	p = buddy_alloc(&mm_node, __GFP_HIGHMEM, 3);
	CHECK(p != NULL);
	CHECK_EQ(page_to_pfn(p) & 7, 0);
	zone_free_counts(&mm_node, ZONE_HIGHMEM, c);
	for (o = 0; o < 3; o++)
		CHECK_EQ(c[o], 0);
	for (o = 3; o < 10; o++)
		CHECK_EQ(c[o], 1);
	CHECK_EQ(c[10], 3);
	__free_pages(p, 3);
	zone_free_counts(&mm_node, ZONE_HIGHMEM, c);
	for (o = 0; o < 10; o++)
		CHECK_EQ(c[o], 0);
	CHECK_EQ(c[10], 4);
}

static void test_zone_choice(void)
{
	struct page *p;
	u64 normal;

	machine_up();
	p = alloc_pages(GFP_KERNEL, 0);
	CHECK(p && page_zonenum(p) == ZONE_NORMAL);
	__free_pages(p, 0);
	p = alloc_pages(GFP_HIGHUSER, 2);
	CHECK(p && page_zonenum(p) == ZONE_HIGHMEM);
	__free_pages(p, 2);
	p = alloc_pages(GFP_DMA, 10);
	CHECK(p && page_zonenum(p) == ZONE_DMA);
	__free_pages(p, 10);
	CHECK(alloc_pages(GFP_KERNEL, MAX_ORDER) == NULL);

	/* With Normal exhausted (atomically), GFP_KERNEL falls back to DMA, never HighMem. */
	normal = zone_free_pages(ZONE_NORMAL);
	while (normal--)
		CHECK(buddy_alloc(&mm_node, GFP_ATOMIC | __GFP_NOWARN, 0) != NULL);
	CHECK_EQ(zone_free_pages(ZONE_NORMAL), 0);
	p = alloc_pages(GFP_KERNEL, 0);
	CHECK(p && page_zonenum(p) == ZONE_DMA);
}

static void test_atomic_reserve(void)
{
	struct zone *z;
	struct page *p;
	u64 left;

	machine_up();
	z = &mm_node.n_zones[ZONE_HIGHMEM];
	/* Take everything a normal allocation may take; the next one falls back to Normal. */
	while ((p = buddy_alloc(&mm_node, GFP_HIGHUSER, 0)) && page_zonenum(p) == ZONE_HIGHMEM)
		;
	CHECK(p && page_zonenum(p) == ZONE_NORMAL);
	left = zone_free_pages(ZONE_HIGHMEM);
	CHECK_EQ(left, z->z_reserve);
	CHECK(left > 0);
	/* An atomic allocation may dig into the reserve. */
	CHECK(buddy_alloc(&mm_node, __GFP_HIGHMEM | GFP_ATOMIC, 0) != NULL);
	CHECK_EQ(zone_free_pages(ZONE_HIGHMEM), left - 1);
}

/*
 * Random orders, random frees, with a shadow map of every frame: blocks
 * never overlap, are aligned to their order, stay in one range; at the
 * end everything comes back and the free lists are as at boot.
 */
#define MAXLIVE		512
static void test_random_stress(void)
{
	struct { struct page *p; unsigned order; } live[MAXLIVE];
	static u8 owned[0x100000 + 5000];
	u32 boot[MAX_NR_ZONES][MAX_ORDER], now[MAX_ORDER];
	unsigned nlive = 0, step, z, o;

	machine_up();
	memset(owned, 0, sizeof(owned));
	for (z = 0; z < MAX_NR_ZONES; z++)
		zone_free_counts(&mm_node, z, boot[z]);
	srand(7);
	for (step = 0; step < 40000; step++) {
		if (nlive < MAXLIVE && (rand() % 3 != 0 || nlive == 0)) {
			unsigned order = rand() % 100 < 80 ? rand() % 3 : rand() % MAX_ORDER;
			gfp_t gfp = (rand() % 2 ? __GFP_HIGHMEM : 0) | (rand() % 8 ? 0 : GFP_DMA);
			struct page *p = buddy_alloc(&mm_node, gfp | GFP_ATOMIC | __GFP_NOWARN, order);
			const struct mm_range *r;
			u64 pfn, i;

			if (!p)
				continue;
			pfn = page_to_pfn(p);
			r = mm_page_range(&mm_node, p);
			CHECK_EQ(pfn & ((1ULL << order) - 1), 0);
			CHECK(pfn + (1ULL << order) <= r->r_start_pfn + r->r_nr);
			if ((gfp & GFP_DMA))
				CHECK_EQ(page_zonenum(p), ZONE_DMA);
			if (!(gfp & __GFP_HIGHMEM))
				CHECK(page_zonenum(p) != ZONE_HIGHMEM);
			for (i = 0; i < (1ULL << order); i++) {
				if (owned[pfn + i]) {
					CHECK(!owned[pfn + i]);
					return;
				}
				owned[pfn + i] = 1;
			}
			live[nlive].p = p;
			live[nlive].order = order;
			nlive++;
		} else {
			unsigned k = rand() % nlive;
			u64 pfn = page_to_pfn(live[k].p), i;

			for (i = 0; i < (1ULL << live[k].order); i++)
				owned[pfn + i] = 0;
			buddy_free(&mm_node, live[k].p, live[k].order);
			live[k] = live[--nlive];
		}
		if (step % 4096 == 0)
			for (z = 0; z < MAX_NR_ZONES; z++)
				CHECK(counts_consistent(z));
	}
	while (nlive) {
		nlive--;
		buddy_free(&mm_node, live[nlive].p, live[nlive].order);
	}
	for (z = 0; z < MAX_NR_ZONES; z++) {
		CHECK_EQ(zone_free_pages(z), expect_total(z));
		zone_free_counts(&mm_node, z, now);
		for (o = 0; o < MAX_ORDER; o++)
			CHECK_EQ(now[o], boot[z][o]);
	}
}

static void test_refcount(void)
{
	struct page *p;
	u64 before;

	machine_up();
	before = zone_free_pages(ZONE_NORMAL);
	p = alloc_page(GFP_KERNEL);
	get_page(p);
	put_page(p);
	CHECK_EQ(zone_free_pages(ZONE_NORMAL), before - 1);
	put_page(p);
	CHECK_EQ(zone_free_pages(ZONE_NORMAL), before);
}

static void test_zeroed(void)
{
	struct page *p;
	u8 *v;
	unsigned i;
	bool zero = true;

	machine_up();
	host_linear_setup(4096, 20000 + 1234 - 4096);	/* all of Normal */
	p = alloc_pages(GFP_KERNEL, 1);
	memset(page_address(p), 0xa5, 2 * PAGE_SIZE);
	__free_pages(p, 1);
	p = alloc_pages(GFP_KERNEL | __GFP_ZERO, 1);
	v = page_address(p);
	CHECK(v != NULL);
	for (i = 0; v && i < 2 * PAGE_SIZE; i++)
		zero = zero && v[i] == 0;
	CHECK(zero);
	CHECK_EQ(host_kmap_atomic_depth, 0);
	__free_pages(p, 1);
	v = get_zeroed_page(GFP_KERNEL);
	CHECK(v && v[0] == 0 && v[PAGE_SIZE - 1] == 0);
	CHECK(virt_to_page(v) && page_zonenum(virt_to_page(v)) == ZONE_NORMAL);
	free_pages(v, 0);
	CHECK_EQ(zone_free_pages(ZONE_NORMAL), expect_total(ZONE_NORMAL));
	host_linear_teardown();
}

/* Run fn in a child on a fresh machine; true if it panicked with msg. */
static bool panics_with(void (*fn)(void), const char *msg)
{
	return host_child_panics(machine_up, fn, msg);
}

static void double_free(void)
{
	struct page *p = alloc_page(GFP_KERNEL);

	__free_page(p);
	__free_page(p);
}

static void double_free_buddy(void)
{
	struct page *p = alloc_page(GFP_KERNEL);

	buddy_free(&mm_node, p, 0);
	buddy_free(&mm_node, p, 0);
}

static void free_reserved(void)
{
	struct page *extra = calloc(16, sizeof(*extra));

	/* Frames described but never given to the buddy stay reserved. */
	mm_node_add_range(&mm_node, 0x200000, 16, extra, ZONE_HIGHMEM);
	buddy_free(&mm_node, extra + 3, 0);
}

static void free_tail(void)
{
	struct page *p = alloc_pages(GFP_KERNEL, 2);

	__free_pages(p + 1, 0);
}

static void free_misaligned(void)
{
	struct page *p = alloc_pages(GFP_KERNEL, 1);

	/* Order 1 on a frame that is not order-1 aligned. */
	buddy_free(&mm_node, p + 1, 1);
}

static void test_misuse_panics(void)
{
	CHECK(panics_with(double_free, "not allocated"));
	CHECK(panics_with(double_free_buddy, "double free of frame"));
	CHECK(panics_with(free_reserved, "free of reserved frame 0x200003"));
	CHECK(panics_with(free_tail, "not allocated"));
	CHECK(panics_with(free_misaligned, "with bad order 1"));
}

static void test_bad_ranges(void)
{
	struct page pg[4];

	mm_node_init(&mm_node);
	CHECK_EQ(mm_node_add_range(&mm_node, 100, 4, pg, ZONE_NORMAL), 0);
	CHECK_EQ(mm_node_add_range(&mm_node, 102, 4, pg, ZONE_NORMAL), -EINVAL);	/* overlap */
	CHECK_EQ(mm_node_add_range(&mm_node, 50, 4, pg, ZONE_NORMAL), -EINVAL);	/* unsorted */
	CHECK_EQ(mm_node_add_range(&mm_node, 200, 0, pg, ZONE_NORMAL), -EINVAL);
	CHECK_EQ(mm_node_free_boot_range(&mm_node, 102, 105), -EINVAL);	/* past the range */
	CHECK_EQ(mm_node_free_boot_range(&mm_node, 99, 101), -EINVAL);	/* starts in a hole */
	CHECK_EQ(mm_node_free_boot_range(&mm_node, 100, 104), 0);
	CHECK_EQ(zone_free_pages(ZONE_NORMAL), 4);
}

static const struct unit_case cases[] = {
	{ "boot_layout", test_boot_layout },
	{ "pfn_roundtrip", test_pfn_roundtrip },
	{ "drain_every_zone", test_drain_every_zone },
	{ "split_and_merge", test_split_and_merge },
	{ "zone_choice", test_zone_choice },
	{ "atomic_reserve", test_atomic_reserve },
	{ "random_stress", test_random_stress },
	{ "refcount", test_refcount },
	{ "zeroed", test_zeroed },
	{ "misuse_panics", test_misuse_panics },
	{ "bad_ranges", test_bad_ranges },
};

UNIT_MAIN("mm/buddy", cases)
