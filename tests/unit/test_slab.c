/*
 * Host tests for the slab layer (kernel/mm/slab.c) on the real buddy
 * allocator: a fake machine of 4 MiB DMA and 60 MiB Normal backed by a
 * host arena.  Objects are checked for alignment, disjointness (patterns
 * written into every object survive), accounting (every frame comes back),
 * out-of-memory behaviour and misuse panics.
 */
#include "tests/unit/unit.h"
#include "tests/unit/fakes/child_panic.h"
#include "tests/unit/fakes/mm_linear_fake.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/slab_info.h"

#define DMA_START	256		/* 1 MiB */
#define DMA_NR		1024		/* 4 MiB */
#define NORMAL_START	4096		/* 16 MiB */
#define NORMAL_NR	15360		/* 60 MiB */

static struct page *dma_pages, *normal_pages;

static void machine_up(void)
{
	mm_node_init(&mm_node);
	free(dma_pages);
	free(normal_pages);
	dma_pages = calloc(DMA_NR, sizeof(struct page));
	normal_pages = calloc(NORMAL_NR, sizeof(struct page));
	mm_node_add_range(&mm_node, DMA_START, DMA_NR, dma_pages, ZONE_DMA);
	mm_node_add_range(&mm_node, NORMAL_START, NORMAL_NR, normal_pages, ZONE_NORMAL);
	mm_node_free_boot_range(&mm_node, DMA_START, DMA_START + DMA_NR);
	mm_node_free_boot_range(&mm_node, NORMAL_START, NORMAL_START + NORMAL_NR);
	mm_node_finish(&mm_node);
	host_linear_setup(DMA_START, NORMAL_START + NORMAL_NR - DMA_START);
	slab_init();
}

static u64 free_frames(void)
{
	return zone_free_pages(ZONE_DMA) + zone_free_pages(ZONE_NORMAL);
}

struct totals {
	u64 active, slabs_frames;
	unsigned caches;
};

static int add_stats(const struct kmem_cache_stats *st, void *arg)
{
	struct totals *t = arg;

	/* Off-slab descriptors are the slab's own bookkeeping, not callers' objects. */
	if (strcmp(st->cs_name, "slab_hdr") != 0)
		t->active += st->cs_active;
	t->slabs_frames += st->cs_slabs << st->cs_order;
	t->caches++;
	return 0;
}

/* Frames held by slabs, and objects in use, over every cache. */
static struct totals totals(void)
{
	struct totals t = { 0, 0, 0 };

	slab_for_each_cache(add_stats, &t);
	return t;
}

static void test_classes(void)
{
	static const size_t sizes[] = { 0, 1, 8, 16, 17, 31, 32, 33, 100, 128, 129, 500,
					512, 513, 1000, 2048, 3000, 4096, 4097, 10000,
					32768, 65536, 100000, 131072 };
	void *p[ARRAY_SIZE(sizes)];
	u64 before;
	unsigned i;

	machine_up();
	before = free_frames();
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		size_t cls = 16;

		while (cls < sizes[i])
			cls <<= 1;
		p[i] = kmalloc(sizes[i], GFP_KERNEL);
		CHECK(p[i] != NULL);
		if (!p[i])
			return;
		/* Natural alignment of the class. */
		CHECK_EQ(((uintptr_t)p[i] - (uintptr_t)__va((u64)DMA_START << PAGE_SHIFT)) % cls, 0);
		memset(p[i], (int)i, sizes[i]);
		CHECK(page_zonenum(virt_to_page(p[i])) == ZONE_NORMAL);
	}
	CHECK_EQ(totals().active, ARRAY_SIZE(sizes));
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		kfree(p[i]);
	CHECK_EQ(totals().active, 0);
	/* Every frame is back except the one empty slab each cache may keep. */
	CHECK_EQ(free_frames() + totals().slabs_frames, before);
	kfree(NULL);
}

/* Many objects of random sizes: patterns survive, so none overlap. */
static void test_random_disjoint(void)
{
	enum { N = 6000 };
	static struct { u8 *p; size_t n; u8 pat; } o[N];
	u64 before;
	unsigned i, k;

	machine_up();
	before = free_frames();
	srand(99);
	for (i = 0; i < N; i++) {
		o[i].n = 1 + (rand() % 100 < 95 ? rand() % 700 : rand() % 20000);
		o[i].pat = (u8)rand();
		o[i].p = kmalloc(o[i].n, GFP_KERNEL);
		CHECK(o[i].p != NULL);
		if (!o[i].p)
			return;
		memset(o[i].p, o[i].pat, o[i].n);
		/* Free a random earlier one now and then, to churn partial slabs. */
		if (i > 10 && rand() % 4 == 0) {
			k = rand() % i;
			kfree(o[k].p);
			o[k].p = kmalloc(o[k].n, GFP_ATOMIC);
			CHECK(o[k].p != NULL);
			memset(o[k].p, o[k].pat, o[k].n);
		}
	}
	for (i = 0; i < N; i++)
		for (k = 0; k < o[i].n; k++)
			if (o[i].p[k] != o[i].pat) {
				CHECK(o[i].p[k] == o[i].pat);
				return;
			}
	for (i = 0; i < N; i++)
		kfree(o[i].p);
	CHECK_EQ(totals().active, 0);
	CHECK_EQ(free_frames() + totals().slabs_frames, before);
}

static void test_large_and_dma(void)
{
	u64 before;
	void *p, *q, *d;

	machine_up();
	before = free_frames();
	p = kmalloc(200 * 1024, GFP_KERNEL);
	CHECK(p != NULL);
	CHECK(virt_to_page(p)->flags & PG_large);
	CHECK_EQ(kmalloc_large_pages(), 64);	/* 256 KiB */
	q = kmalloc(4 << 20, GFP_KERNEL);
	CHECK(q != NULL);
	CHECK(kmalloc((4 << 20) + 1, GFP_KERNEL) == NULL);
	d = kzalloc(100, GFP_DMA);
	CHECK(d && page_zonenum(virt_to_page(d)) == ZONE_DMA);
	CHECK(d && ((u8 *)d)[99] == 0);
	kfree(p);
	kfree(q);
	kfree(d);
	CHECK_EQ(kmalloc_large_pages(), 0);
	CHECK_EQ(free_frames(), before);
}

static void test_cache_create(void)
{
	struct kmem_cache *c;
	void *a[300];
	unsigned i;
	u64 before;

	machine_up();
	before = free_frames();
	CHECK(kmem_cache_create("bad", 0, 0) == NULL);
	CHECK(kmem_cache_create("bad", 100, 48) == NULL);
	CHECK(kmem_cache_create("bad", 100, 8192) == NULL);
	CHECK(kmem_cache_create("bad", KMALLOC_MAX_CACHE_SIZE + 1, 0) == NULL);
	c = kmem_cache_create("bio-test-with-a-long-name", 100, 64);
	CHECK(c != NULL);
	for (i = 0; i < ARRAY_SIZE(a); i++) {
		a[i] = kmem_cache_zalloc(c, GFP_KERNEL);
		CHECK(a[i] && ((uintptr_t)a[i] & 63) == 0);
		CHECK(((u8 *)a[i])[0] == 0 && ((u8 *)a[i])[99] == 0);
		memset(a[i], 0xee, 100);
	}
	{
		struct kmem_cache_stats st;

		kmem_cache_get_stats(c, &st);
		CHECK_STR(st.cs_name, "bio-test-with-a-long-na");
		CHECK_EQ(st.cs_active, 300);
		CHECK_EQ(st.cs_stride, 128);
		CHECK(st.cs_per_slab >= 8);
		CHECK(st.cs_total >= 300);
	}
	/* Destroying a cache in use is refused, loudly, and harmlessly. */
	kmem_cache_destroy(c);
	CHECK_EQ(totals().active, 300 + 1);	/* the cache's own descriptor too */
	for (i = 0; i < ARRAY_SIZE(a); i++)
		kmem_cache_free(c, a[i]);
	kmem_cache_destroy(c);
	CHECK_EQ(totals().active, 0);
	CHECK_EQ(free_frames() + totals().slabs_frames, before);
}

static void test_out_of_memory(void)
{
	u64 before, n = 0;
	void *head = NULL, *p;

	machine_up();
	before = free_frames();
	/* Chain 1 KiB objects through their first word until memory runs out. */
	while ((p = kmalloc(1024, GFP_KERNEL | __GFP_NOWARN))) {
		*(void **)p = head;
		head = p;
		n++;
	}
	CHECK(n > 50000);
	CHECK(kmalloc(4096, GFP_KERNEL | __GFP_NOWARN) == NULL);
	/* GFP_ATOMIC still gets something out of the reserve. */
	p = kmalloc(4096, GFP_ATOMIC);
	CHECK(p != NULL);
	kfree(p);
	while (head) {
		p = *(void **)head;
		kfree(head);
		head = p;
	}
	CHECK_EQ(totals().active, 0);
	CHECK_EQ(free_frames() + totals().slabs_frames, before);
}

/* Run fn in a child on a fresh machine; true if it panicked with msg. */
static bool panics_with(void (*fn)(void), const char *msg)
{
	return host_child_panics(machine_up, fn, msg);
}

static void double_kfree(void)
{
	void *a = kmalloc(40, GFP_KERNEL), *b = kmalloc(40, GFP_KERNEL);

	kfree(a);
	kfree(b);
	kfree(a);
}

static void interior_kfree(void)
{
	kfree((u8 *)kmalloc(64, GFP_KERNEL) + 8);
}

static void wrong_cache(void)
{
	struct kmem_cache *a = kmem_cache_create("a", 64, 0);
	struct kmem_cache *b = kmem_cache_create("b", 64, 0);

	kmem_cache_free(b, kmem_cache_alloc(a, GFP_KERNEL));
}

static void kfree_page(void)
{
	kfree(get_free_pages(GFP_KERNEL, 0));
}

static void free_slab_page(void)
{
	__free_pages(virt_to_page(kmalloc(64, GFP_KERNEL)), 0);
}

static void test_misuse_panics(void)
{
	CHECK(panics_with(double_kfree, "double free of"));
	CHECK(panics_with(interior_kfree, "is not an object start in cache kmalloc-64"));
	CHECK(panics_with(wrong_cache, "belongs to a, not b"));
	CHECK(panics_with(kfree_page, "is not slab memory"));
	CHECK(panics_with(free_slab_page, "still owned by the slab"));
}

/* A freed object whose second word happens to hold the magic is not a double free. */
static void test_magic_lookalike(void)
{
	void **a;

	machine_up();
	a = kmalloc(64, GFP_KERNEL);
	a[1] = (void *)0x5AB0F4EEUL;
	kfree(a);
	CHECK_EQ(totals().active, 0);
}

static const struct unit_case cases[] = {
	{ "classes", test_classes },
	{ "random_disjoint", test_random_disjoint },
	{ "large_and_dma", test_large_and_dma },
	{ "cache_create", test_cache_create },
	{ "out_of_memory", test_out_of_memory },
	{ "misuse_panics", test_misuse_panics },
	{ "magic_lookalike", test_magic_lookalike },
};

UNIT_MAIN("mm/slab", cases)
