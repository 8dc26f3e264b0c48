/*
 * Host tests for kernel/mm/mempool.c on the real slab and buddy code:
 * with the machine's memory exhausted, the reserve keeps allocations going;
 * with the reserve empty too, a __GFP_WAIT allocation waits in the idle
 * loop until a fake interrupt frees an element, and a wait nobody ends
 * panics instead of hanging.
 */
#include "tests/unit/unit.h"
#include "tests/unit/fakes/child_panic.h"
#include "tests/unit/fakes/mm_linear_fake.h"
#include "tests/unit/fakes/idle_fake.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/slab_info.h"
#include "kernel/mm/mempool.h"

#define NORMAL_START	4096
#define NORMAL_NR	4096		/* 16 MiB */

static struct page *pages;
static LIST_HEAD(hog);		/* frames taken to exhaust memory */

static void machine_up(void)
{
	INIT_LIST_HEAD(&hog);
	mm_node_init(&mm_node);
	free(pages);
	pages = calloc(NORMAL_NR, sizeof(struct page));
	mm_node_add_range(&mm_node, NORMAL_START, NORMAL_NR, pages, ZONE_NORMAL);
	mm_node_free_boot_range(&mm_node, NORMAL_START, NORMAL_START + NORMAL_NR);
	mm_node_finish(&mm_node);
	host_linear_setup(NORMAL_START, NORMAL_NR);
	slab_init();
	host_idle_hook = NULL;
	host_idle_calls = 0;
	host_in_interrupt = false;
}

/* Take every free frame, reserve included. */
static void exhaust(void)
{
	struct page *p;

	while ((p = alloc_page(GFP_ATOMIC | __GFP_NOWARN)))
		list_add(&p->lru, &hog);
}

static void release(void)
{
	struct page *p, *t;

	list_for_each_entry_safe(p, t, &hog, lru) {
		list_del_init(&p->lru);
		__free_page(p);
	}
}

static struct kmem_cache *cache;
static mempool_t *pool;

/* The "completion interrupt": gives back one held element after a delay. */
static void *held[16];
static int nheld, free_after;

static void give_back(void *arg)
{
	if (free_after > 0 && --free_after == 0 && nheld > 0)
		mempool_free(held[--nheld], pool);
}

static void test_reserve_when_exhausted(void)
{
	void *e[5];
	int i;

	machine_up();
	cache = kmem_cache_create("rq", 256, 0);
	pool = mempool_create_slab_pool(4, cache);
	CHECK(pool != NULL);
	exhaust();
	/* The cache may still have free objects in its slab; take those first. */
	while (kmem_cache_alloc(cache, GFP_ATOMIC | __GFP_NOWARN))
		;
	for (i = 0; i < 4; i++) {
		e[i] = mempool_alloc(pool, GFP_ATOMIC);
		CHECK(e[i] != NULL);
	}
	CHECK(mempool_alloc(pool, GFP_ATOMIC) == NULL);
	mempool_free(e[3], pool);
	e[4] = mempool_alloc(pool, GFP_ATOMIC);
	CHECK(e[4] == e[3]);
	CHECK_EQ(host_idle_calls, 0);
}

static void test_waits_for_free(void)
{
	void *e[4], *got;
	int i;

	machine_up();
	cache = kmem_cache_create("bio", 128, 0);
	pool = mempool_create_slab_pool(4, cache);
	exhaust();
	while (kmem_cache_alloc(cache, GFP_ATOMIC | __GFP_NOWARN))
		;
	for (i = 0; i < 4; i++)
		e[i] = mempool_alloc(pool, GFP_NOIO);
	/* Reserve empty: the next one waits until the fake interrupt frees e[2]. */
	held[0] = e[2];
	nheld = 1;
	free_after = 5;
	host_idle_hook = give_back;
	got = mempool_alloc(pool, GFP_NOIO);
	CHECK(got == e[2]);
	CHECK_EQ(host_idle_calls, 5);
	host_idle_hook = NULL;
}

/* Elements freed while memory is back go to the reserve first. */
static void test_refill_before_release(void)
{
	void *e[3];
	int i;

	machine_up();
	cache = kmem_cache_create("x", 64, 0);
	pool = mempool_create_slab_pool(3, cache);
	exhaust();
	while (kmem_cache_alloc(cache, GFP_ATOMIC | __GFP_NOWARN))
		;
	for (i = 0; i < 3; i++)
		e[i] = mempool_alloc(pool, GFP_ATOMIC);
	release();	/* memory is plentiful again */
	for (i = 0; i < 3; i++)
		mempool_free(e[i], pool);
	exhaust();
	/* Nothing in the allocator, yet three elements are there: the reserve was refilled. */
	for (i = 0; i < 3; i++)
		CHECK(mempool_alloc(pool, GFP_ATOMIC) != NULL);
	CHECK(mempool_alloc(pool, GFP_ATOMIC) == NULL);
}

static void test_page_pool(void)
{
	struct page *p[8];
	u64 before;
	int i;

	machine_up();
	/* A first pool warms the kmalloc caches its descriptor comes from. */
	mempool_destroy(mempool_create_page_pool(2, 1));
	before = zone_free_pages(ZONE_NORMAL);
	pool = mempool_create_page_pool(2, 1);
	CHECK(pool != NULL);
	CHECK_EQ(zone_free_pages(ZONE_NORMAL), before - 4);
	for (i = 0; i < 8; i++) {
		p[i] = mempool_alloc(pool, GFP_NOIO);
		CHECK(p[i] && (page_to_pfn(p[i]) & 1) == 0);
	}
	for (i = 0; i < 8; i++)
		mempool_free(p[i], pool);
	mempool_destroy(pool);
	CHECK_EQ(zone_free_pages(ZONE_NORMAL), before);
	CHECK(mempool_create_page_pool(2, MAX_ORDER) == NULL);
}

static void test_create_failure(void)
{
	u64 before;

	machine_up();
	CHECK(mempool_create_page_pool(0, 0) == NULL);
	/* 16 MiB cannot hold 3000 order-2 elements: creation fails and frees what it took. */
	CHECK(mempool_create_page_pool(3000, 2) == NULL);
	before = zone_free_pages(ZONE_NORMAL);	/* after the kmalloc caches are warm */
	CHECK(mempool_create_page_pool(3000, 2) == NULL);
	CHECK_EQ(zone_free_pages(ZONE_NORMAL), before);
}

/* Run fn in a child on a fresh machine; true if it panicked with msg. */
static bool panics_with(void (*fn)(void), const char *msg)
{
	return host_child_panics(machine_up, fn, msg);
}

static void wait_forever(void)
{
	pool = mempool_create_page_pool(1, 0);
	exhaust();
	mempool_alloc(pool, GFP_NOIO);
	mempool_alloc(pool, GFP_NOIO);
}

static void wait_in_interrupt(void)
{
	pool = mempool_create_page_pool(1, 0);
	exhaust();
	mempool_alloc(pool, GFP_ATOMIC);
	host_in_interrupt = true;
	mempool_alloc(pool, GFP_NOIO);
}

static void destroy_in_use(void)
{
	pool = mempool_create_page_pool(2, 0);
	exhaust();
	mempool_alloc(pool, GFP_ATOMIC);
	mempool_destroy(pool);
}

static void test_misuse_panics(void)
{
	CHECK(panics_with(wait_forever, "no element came back in 30000 ms"));
	CHECK(panics_with(wait_in_interrupt, "in_interrupt"));
	CHECK(panics_with(destroy_in_use, "1 of 2 reserve elements still out"));
}

static const struct unit_case cases[] = {
	{ "reserve_when_exhausted", test_reserve_when_exhausted },
	{ "waits_for_free", test_waits_for_free },
	{ "refill_before_release", test_refill_before_release },
	{ "page_pool", test_page_pool },
	{ "create_failure", test_create_failure },
	{ "misuse_panics", test_misuse_panics },
};

UNIT_MAIN("mm/mempool", cases)
