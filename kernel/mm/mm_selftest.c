/*
 * In-kernel self-tests of mm, named mm/... (kernel/selftest.h).
 *
 * Layer: mm, kernel only; run them with a selftest= glob on mm/.  What the real
 * machine can show: every free frame of every zone (highmem above 4 GiB
 * included) is allocatable, mappable and holds a frame-unique pattern;
 * free lists coalesce back exactly; kmap_atomic works nested from an
 * interrupt handler; the page tables enforce read-only text and rodata,
 * NX heap, an unmapped null page, boot stack guard and identity map; and
 * ioremap builds uncached mappings anywhere below 64 GiB.
 */
#include "kernel/mm/highmem.h"
#include "kernel/mm/mempool.h"
#include "kernel/mm/mm_internal.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/slab.h"
#include "kernel/mm/vmap.h"
#include "kernel/bootinfo.h"
#include "kernel/io.h"
#include "kernel/irq.h"
#include "kernel/printk.h"
#include "kernel/selftest.h"
#include "kernel/time.h"
#include "kernel/timer.h"
#include "kernel/work.h"

#define FOUR_GIB_PFN		(1ULL << (32 - PAGE_SHIFT))
#define IRQ_WAIT_MS		1000	/* ms for the timer interrupt to come */
#define LAPIC_PHYS		0xFEE00000ULL	/* SDM Vol. 3A 10.4.1, default base */
#define LAPIC_VER		0x30		/* version register (SDM table 10-1) */

/* A word for each of four places in a frame, unique to the frame. */
static u32 pattern(u64 pfn, unsigned k)
{
	return (u32)(pfn * 2654435761u) ^ (u32)(pfn >> 20) ^ (0x5a5a0000u + k);
}

static const unsigned pattern_at[4] = { 0, 1, 511, 1023 };	/* u32 indexes */

static void write_pattern(struct page *p)
{
	u32 *v = kmap_atomic(p);
	u64 pfn = page_to_pfn(p);
	unsigned k;

	for (k = 0; k < ARRAY_SIZE(pattern_at); k++)
		v[pattern_at[k]] = pattern(pfn, k);
	kunmap_atomic(v);
}

/* Check through kmap() now and then, kmap_atomic() otherwise. */
static bool check_pattern(struct page *p, bool persistent)
{
	u64 pfn = page_to_pfn(p);
	u32 *v = persistent ? kmap(p) : kmap_atomic(p);
	bool ok = true;
	unsigned k;

	for (k = 0; k < ARRAY_SIZE(pattern_at); k++)
		ok = ok && v[pattern_at[k]] == pattern(pfn, k);
	if (persistent)
		kunmap(p);
	else
		kunmap_atomic(v);
	return ok;
}

/*
 * Allocate every free frame of zone z, write, verify, free; the zone's
 * free count and its free lists by order must come back exactly.
 */
static int drain_zone(enum zone_type z, gfp_t gfp, u64 *above4g)
{
	u32 before[MAX_ORDER], after[MAX_ORDER];
	u64 want = zone_free_pages(z), n = 0, bad = 0, i = 0;
	struct page *p, *t;
	LIST_HEAD(got);
	unsigned o;

	zone_free_counts(&mm_node, z, before);
	while ((p = alloc_pages(gfp | GFP_ATOMIC | __GFP_NOWARN, 0))) {
		if (page_zonenum(p) != z) {
			__free_page(p);		/* the zone is empty: it fell back */
			break;
		}
		list_add_tail(&p->lru, &got);
		n++;
	}
	list_for_each_entry(p, &got, lru)
		write_pattern(p);
	list_for_each_entry(p, &got, lru) {
		if (!check_pattern(p, (i++ % 64) == 0))
			bad++;
		else if (page_to_pfn(p) >= FOUR_GIB_PFN)
			(*above4g)++;
	}
	list_for_each_entry_safe(p, t, &got, lru) {
		list_del_init(&p->lru);
		__free_page(p);
	}
	if (n != want)
		return st_fail("zone %s: %llu of %llu free pages allocated", zone_names[z],
			       (unsigned long long)n, (unsigned long long)want);
	if (bad)
		return st_fail("zone %s: %llu pages lost their pattern", zone_names[z],
			       (unsigned long long)bad);
	if (zone_free_pages(z) != want)
		return st_fail("zone %s: %llu free after, %llu before", zone_names[z],
			       (unsigned long long)zone_free_pages(z), (unsigned long long)want);
	zone_free_counts(&mm_node, z, after);
	for (o = 0; o < MAX_ORDER; o++)
		if (after[o] != before[o])
			return st_fail("zone %s: %u order-%u blocks after, %u before",
				       zone_names[z], after[o], o, before[o]);
	printk("mm: zone %s: %llu pages allocated, written and verified\n",
	       zone_names[z], (unsigned long long)n);
	return 0;
}

static int test_all_pages(void)
{
	u64 above4g = 0;
	int err;

	err = drain_zone(ZONE_HIGHMEM, __GFP_HIGHMEM, &above4g);
	if (!err)
		err = drain_zone(ZONE_NORMAL, 0, &above4g);
	if (!err)
		err = drain_zone(ZONE_DMA, GFP_DMA, &above4g);
	if (!err && above4g)
		printk("mm: verified %llu pages above 4 GiB\n", (unsigned long long)above4g);
	return err;
}
SELFTEST("mm/buddy/all_pages", test_all_pages);

/*
 * A storm of mixed orders (at most half of free memory, so small machines
 * run it too), freed in scrambled order, leaves the free lists as they were.
 */
static int test_coalesce(void)
{
	enum { N = 256 };
	static struct { struct page *p; unsigned order; } blk[N];
	u32 before[MAX_NR_ZONES][MAX_ORDER], after[MAX_ORDER];
	u64 budget = 0, taken = 0;
	u32 seed = 12345;
	unsigned i, z, o, n = 0;

	for (z = 0; z < MAX_NR_ZONES; z++) {
		zone_free_counts(&mm_node, z, before[z]);
		budget += zone_free_pages(z) / 2;
	}
	for (i = 0; i < N; i++) {
		seed = seed * 1103515245u + 12345u;
		blk[n].order = (seed >> 16) % MAX_ORDER;
		if (taken + (1ULL << blk[n].order) > budget)
			continue;
		blk[n].p = alloc_pages(GFP_HIGHUSER | __GFP_NOWARN, blk[n].order);
		if (blk[n].p)
			taken += 1ULL << blk[n++].order;
	}
	for (i = 0; i < n; i++) {
		unsigned j;

		seed = seed * 1103515245u + 12345u;
		j = i + (seed >> 8) % (n - i);
		__free_pages(blk[j].p, blk[j].order);
		blk[j] = blk[i];
	}
	if (n < 16)
		return st_fail("only %u of %u blocks allocated", n, N);
	for (z = 0; z < MAX_NR_ZONES; z++) {
		zone_free_counts(&mm_node, z, after);
		for (o = 0; o < MAX_ORDER; o++)
			if (after[o] != before[z][o])
				return st_fail("zone %s order %u: %u blocks, %u before",
					       zone_names[z], o, after[o], before[z][o]);
	}
	return 0;
}
SELFTEST("mm/buddy/coalesce", test_coalesce);

static int test_kmap_persistent(void)
{
	enum { N = 100 };
	static struct page *pg[N];
	static void *va[N];
	unsigned i, j, used0 = kmap_slots_used();
	int err = 0;

	for (i = 0; i < N; i++) {
		pg[i] = alloc_page(GFP_HIGHUSER);
		if (!pg[i]) {
			err = st_fail("no page %u", i);
			goto free_pages;
		}
		write_pattern(pg[i]);
	}
	for (i = 0; i < N; i++)
		va[i] = kmap(pg[i]);
	/* The same page again shares its slot. */
	ST_ASSERT(kmap(pg[0]) == va[0]);
	kunmap(pg[0]);
	for (i = 0; i < N && !err; i++) {
		for (j = 0; j < i; j++)
			if (va[j] == va[i])
				err = st_fail("pages %u and %u share address %p", j, i, va[i]);
		if (((u32 *)va[i])[1023] != pattern(page_to_pfn(pg[i]), 3))
			err = st_fail("page %u reads wrong through kmap", i);
	}
	for (i = 0; i < N; i++)
		kunmap(pg[i]);
	if (!err && kmap_slots_used() != used0)
		err = st_fail("%u kmap slots in use after, %u before", kmap_slots_used(), used0);
	i = N;
free_pages:
	while (i-- > 0)
		__free_page(pg[i]);
	return err;
}
SELFTEST("mm/kmap/persistent", test_kmap_persistent);

static int test_kmap_atomic_nesting(void)
{
	enum { DEPTH = KM_SLOTS - 2 };	/* leave room for an interrupt */
	struct page *pg[DEPTH];
	u32 *va[DEPTH];
	unsigned i, n = 0;
	int err = 0;

	for (n = 0; n < DEPTH; n++) {
		pg[n] = alloc_page(GFP_HIGHUSER);
		if (!pg[n]) {
			err = st_fail("no page %u", n);
			goto free_pages;
		}
		write_pattern(pg[n]);
	}
	for (i = 0; i < DEPTH; i++)
		va[i] = kmap_atomic(pg[i]);
	for (i = 0; i < DEPTH; i++)
		if (va[i][0] != pattern(page_to_pfn(pg[i]), 0))
			err = st_fail("nested mapping %u reads wrong", i);
	for (i = DEPTH; i-- > 0;)
		kunmap_atomic(va[i]);
	if (!err && kmap_atomic_depth() != 0)
		err = st_fail("atomic depth %u after unmapping", kmap_atomic_depth());
free_pages:
	while (n-- > 0)
		__free_page(pg[n]);
	return err;
}
SELFTEST("mm/kmap/atomic_nesting", test_kmap_atomic_nesting);

struct irq_probe {
	struct timer_list	ip_timer;
	struct page		*ip_page;
	volatile bool		ip_done;
	bool			ip_in_irq;
	bool			ip_ok;
	unsigned		ip_depth;	/* kmap_atomic depth the handler found */
};

/* Runs in the tick interrupt, on top of the test's own kmap_atomic. */
static void irq_probe_fn(struct timer_list *t)
{
	struct irq_probe *ip = container_of(t, struct irq_probe, ip_timer);
	u32 *a, *b;

	ip->ip_in_irq = in_interrupt();
	ip->ip_depth = kmap_atomic_depth();
	a = kmap_atomic(ip->ip_page);
	b = kmap_atomic(ip->ip_page);	/* nested, same page: two addresses */
	ip->ip_ok = a[0] == pattern(page_to_pfn(ip->ip_page), 0) && b[511] == a[511] &&
		    (a != b || !PageHighMem(ip->ip_page));
	b[2] = 0xfeedf00d;
	kunmap_atomic(b);
	kunmap_atomic(a);
	ip->ip_done = true;
}

/* The interrupt's write through its atomic mapping, seen through kmap(). */
static int check_irq_write(struct page *page)
{
	u32 *v = kmap(page);
	int err = 0;

	if (v[2] != 0xfeedf00d)
		err = st_fail("write from the interrupt is lost");
	kunmap(page);		/* on failure too: a leaked slot would outlive the test */
	return err;
}

static int test_kmap_atomic_irq(void)
{
	struct irq_probe ip = { .ip_done = false };
	struct page *outer_pg = alloc_page(GFP_HIGHUSER);
	u32 *outer, seen;
	u64 deadline;
	int err = 0;

	ip.ip_page = alloc_page(GFP_HIGHUSER);
	if (!ip.ip_page || !outer_pg) {
		err = st_fail("no highmem pages");
		goto free_pages;
	}
	write_pattern(ip.ip_page);
	write_pattern(outer_pg);
	timer_setup(&ip.ip_timer, irq_probe_fn);

	outer = kmap_atomic(outer_pg);
	mod_timer(&ip.ip_timer, get_jiffies_64() + 2);
	deadline = ktime_ms() + IRQ_WAIT_MS;
	while (!READ_ONCE(ip.ip_done) && ktime_ms() < deadline)
		__asm__ __volatile__("pause");
	seen = outer[0];	/* the interrupt's mappings must not have disturbed ours */
	kunmap_atomic(outer);
	if (!ip.ip_done) {
		del_timer(&ip.ip_timer);
		err = st_fail("timer interrupt did not come in %u ms (interrupts off?)",
			      IRQ_WAIT_MS);
		goto free_pages;
	}
	if (!ip.ip_in_irq)
		err = st_fail("timer function did not run in interrupt context");
	else if (!ip.ip_ok)
		err = st_fail("kmap_atomic in the interrupt read wrong data");
	else if (PageHighMem(outer_pg) && ip.ip_depth != 1)
		err = st_fail("interrupt saw atomic depth %u, expected 1", ip.ip_depth);
	else if (seen != pattern(page_to_pfn(outer_pg), 0))
		err = st_fail("outer mapping changed under the interrupt");
	else
		err = check_irq_write(ip.ip_page);
free_pages:
	if (ip.ip_page)
		__free_page(ip.ip_page);
	if (outer_pg)
		__free_page(outer_pg);
	return err;
}
SELFTEST("mm/kmap/atomic_irq", test_kmap_atomic_irq);

/* Fault probes: each touches arg in one way. */
static void probe_read(void *arg)
{
	(void)*(volatile u8 *)arg;
}

static void probe_write(void *arg)
{
	volatile u8 *p = arg;

	*p = *p;
}

static void probe_call(void *arg)
{
	((void (*)(void))arg)();
}

/* Expect a page fault at exactly addr. */
static int expect_fault(void (*fn)(void *), void *addr, const char *what)
{
	u32 cr2 = 0;
	int vec = selftest_catch_fault(fn, addr, &cr2);

	if (vec != 14)
		return st_fail("%s at %p: %s", what, addr,
			       vec < 0 ? "no fault" : "fault, but not a page fault");
	if (cr2 != (u32)(unsigned long)addr)
		return st_fail("%s: fault at %#x, expected %p", what, cr2, addr);
	return 0;
}

static int test_null_page(void)
{
	int err = expect_fault(probe_read, NULL, "read of NULL");

	if (!err)	/* the boot identity map of the first 4 MiB is gone too */
		err = expect_fault(probe_read, (void *)0x100000, "read of old identity map");
	return err;
}
SELFTEST("mm/prot/null_page", test_null_page);

static int test_text_readonly(void)
{
	unsigned long size;
	pte_t pte = pgtable_lookup((unsigned long)probe_write, &size);

	ST_ASSERT(pte && !(pte & PTE_RW) && !(pte & PTE_NX));
	return expect_fault(probe_write, (void *)probe_write, "write to kernel text");
}
SELFTEST("mm/prot/text_readonly", test_text_readonly);

static const u32 ro_word = 0x600dc0de;

static int test_rodata_readonly(void)
{
	unsigned long size;
	pte_t pte = pgtable_lookup((unsigned long)&ro_word, &size);

	ST_ASSERT(pte && !(pte & PTE_RW) && (pte & PTE_NX) == pte_nx);
	return expect_fault(probe_write, (void *)&ro_word, "write to rodata");
}
SELFTEST("mm/prot/rodata_readonly", test_rodata_readonly);

static int test_heap_nx(void)
{
	u8 *code = kmalloc(64, GFP_KERNEL);
	int err;

	ST_ASSERT(code);
	code[0] = 0xc3;		/* ret: harmless if it did run */
	if (!pte_nx) {
		unsigned long size;

		/* Without NX, bit 63 is reserved (SDM 4.4.2): it must never be set. */
		printk("mm/prot/heap_nx: the CPU has no NX; only checking the flag is clear\n");
		err = pgtable_lookup((unsigned long)code, &size) & PTE_NX ?
		      st_fail("heap PTE has NX set on a CPU without NX") : 0;
	} else {
		err = expect_fault(probe_call, code, "call into the heap");
	}
	kfree(code);
	return err;
}
SELFTEST("mm/prot/heap_nx", test_heap_nx);

static int test_stack_guard(void)
{
	return expect_fault(probe_read, boot_stack_guard, "read of the boot stack guard");
}
SELFTEST("mm/prot/stack_guard", test_stack_guard);

static int test_ioremap(void)
{
	unsigned long size, va;
	struct page *ram;
	pte_t pte;
	u32 ver;
	u8 *p, *q;
	unsigned i;

	p = ioremap(LAPIC_PHYS + LAPIC_VER, 4);
	ST_ASSERT(p);
	va = (unsigned long)p;
	ST_EQ(va & ~PAGE_MASK, LAPIC_VER);
	pte = pgtable_lookup(va, &size);
	ST_ASSERT((pte & (PTE_PCD | PTE_PWT)) == (PTE_PCD | PTE_PWT));
	ST_EQ(pte & PTE_ADDR_MASK, LAPIC_PHYS);
	ver = readl(p);
	iounmap(p);
	ST_EQ(pgtable_lookup(va, &size), 0);
	/* SDM 10.4.8: an integrated local APIC reports version 1xH. */
	if ((ver & 0xf0) != 0x10)
		return st_fail("local APIC version register reads %#x", ver);

	/* 0x2010 bytes from 62 GiB + 0x1ff0 span three pages; far above RAM: built, not touched. */
	q = ioremap((62ULL << 30) + 0x1ff0, 0x2010);
	ST_ASSERT(q);
	ST_EQ((unsigned long)q & ~PAGE_MASK, 0xff0);
	for (i = 0; i < 3; i++) {
		pte = pgtable_lookup(((unsigned long)q & PAGE_MASK) + i * PAGE_SIZE, &size);
		ST_EQ(pte & PTE_ADDR_MASK, (62ULL << 30) + 0x1000 + i * PAGE_SIZE);
	}
	/* Guard pages on both sides. */
	ST_EQ(pgtable_lookup(((unsigned long)q & PAGE_MASK) - PAGE_SIZE, &size), 0);
	ST_EQ(pgtable_lookup(((unsigned long)q & PAGE_MASK) + 3 * PAGE_SIZE, &size), 0);
	iounmap(q);

	/* RAM the allocator owns is refused. */
	ram = alloc_page(GFP_KERNEL);
	ST_ASSERT(ram);
	p = ioremap(page_to_phys(ram), 16);
	__free_page(ram);
	ST_ASSERT(p == NULL);
	ST_ASSERT(ioremap(64ULL << 30, 16) == NULL);
	ST_ASSERT(ioremap(0xFEC00000ULL, 0) == NULL);
	return 0;
}
SELFTEST("mm/ioremap/uncached", test_ioremap);

static int test_kmalloc(void)
{
	size_t size;
	void *p;

	for (size = 1; size <= 4u << 20; size *= 2) {
		size_t cls = size < 16 ? 16 : size;

		p = kmalloc(size, GFP_KERNEL);
		if (!p)
			return st_fail("kmalloc(%zu) failed", size);
		if (cls <= PAGE_SIZE && ((unsigned long)p & (cls - 1)))
			return st_fail("kmalloc(%zu) = %p, not %zu-aligned", size, p, cls);
		if (page_zonenum(virt_to_page(p)) == ZONE_HIGHMEM)
			return st_fail("kmalloc(%zu) returned highmem", size);
		((u8 *)p)[size - 1] = 1;
		kfree(p);
	}
	p = kmalloc(100, GFP_DMA);
	ST_ASSERT(p && __pa(p) < (16u << 20));
	kfree(p);
	return 0;
}
SELFTEST("mm/slab/kmalloc", test_kmalloc);

static int test_mempool(void)
{
	mempool_t *pool = mempool_create_page_pool(4, 0);
	struct page *pg[12];
	unsigned i;

	ST_ASSERT(pool);
	for (i = 0; i < ARRAY_SIZE(pg); i++) {
		pg[i] = mempool_alloc(pool, GFP_NOIO | __GFP_HIGHMEM);
		ST_ASSERT(pg[i]);
	}
	for (i = 0; i < ARRAY_SIZE(pg); i++)
		mempool_free(pg[i], pool);
	mempool_destroy(pool);
	return 0;
}
SELFTEST("mm/mempool/page_pool", test_mempool);

static void probe_touch_range(void *arg)
{
	volatile u8 *p = arg;
	unsigned i;

	for (i = 0; i < 3 * PAGE_SIZE; i += PAGE_SIZE / 4)
		p[i] = (u8)i;
}

/* vmalloc: three pages from anywhere, guard pages on both sides, all frames back on vfree. */
static int test_vmalloc_guards(void)
{
	u64 free0 = zone_free_pages(ZONE_DMA) + zone_free_pages(ZONE_NORMAL) +
		    zone_free_pages(ZONE_HIGHMEM);
	u8 *p = vmalloc(3 * PAGE_SIZE - 100);
	unsigned long size;
	int err;

	ST_ASSERT(p && IS_ALIGNED((unsigned long)p, PAGE_SIZE));
	ST_EQ(selftest_catch_fault(probe_touch_range, p, NULL), -1);
	err = expect_fault(probe_read, p - 1, "read below a vmalloc area");
	if (!err)
		err = expect_fault(probe_write, p + 3 * PAGE_SIZE, "write above a vmalloc area");
	if (!err && !(pgtable_lookup((unsigned long)p, &size) & PTE_NX) && pte_nx)
		err = st_fail("vmalloc memory is executable");
	vfree(p);
	if (!err && pgtable_lookup((unsigned long)p, &size))
		err = st_fail("vfree left %p mapped", p);
	/* Page tables built for the area stay; nothing else may be missing. */
	if (!err && zone_free_pages(ZONE_DMA) + zone_free_pages(ZONE_NORMAL) +
		    zone_free_pages(ZONE_HIGHMEM) + 1 < free0)
		err = st_fail("vfree did not return the frames");
	return err;
}
SELFTEST("mm/vmap/vmalloc_guards", test_vmalloc_guards);

static struct page *kmap_victim;

static void kunmap_victim(struct work *w)
{
	kunmap(kmap_victim);
}

/*
 * With every persistent slot taken, kmap() waits in the idle loop; the
 * deferred work that runs there unmaps one page, and the wait ends.
 */
static int test_kmap_wait(void)
{
	enum { N = LAST_PKMAP + 1 };
	static struct page *pg[N];
	struct work w;
	unsigned i, n, mapped = 0;
	u32 *va;
	int err = 0;

	for (n = 0; n < N; n++) {
		pg[n] = alloc_page(GFP_HIGHUSER | __GFP_NOWARN);
		if (!pg[n] || !PageHighMem(pg[n])) {
			if (pg[n])
				__free_page(pg[n]);
			printk("mm/kmap/wait_for_slot: fewer than %u highmem pages; not run\n", N);
			goto free_pages;
		}
		write_pattern(pg[n]);
	}
	while (kmap_slots_used() < LAST_PKMAP && mapped < N - 1)
		kmap(pg[mapped++]);
	if (kmap_slots_used() != LAST_PKMAP) {
		err = st_fail("could not fill the kmap slots (%u used)", kmap_slots_used());
		goto unmap;
	}
	kmap_victim = pg[0];
	work_init(&w, kunmap_victim);
	schedule_work(&w);
	va = kmap(pg[N - 1]);		/* waits until the work ran */
	if (va[1023] != pattern(page_to_pfn(pg[N - 1]), 3))
		err = st_fail("page mapped after the wait reads wrong");
	kunmap(pg[N - 1]);
	for (i = 1; i < mapped; i++)
		kunmap(pg[i]);
	mapped = 0;
unmap:
	while (mapped > 0)
		kunmap(pg[--mapped]);
free_pages:
	while (n-- > 0)
		__free_page(pg[n]);
	return err;
}
SELFTEST("mm/kmap/wait_for_slot", test_kmap_wait);
