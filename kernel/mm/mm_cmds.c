/*
 * Shell commands for memory: `meminfo` (zones, free blocks by order, slab
 * caches, kmap and ioremap use) and `bench mm` (cost of the hot calls).
 *
 * Layer: mm, kernel only; reads the allocators' counters under their
 * locks and writes to the consoles (kprintf), not the log.  Output
 * formats are stable: tests/qemu/mm-*.sh parse them.
 *
 *	Zone         total       free    reserve  pfn range
 *	Normal      224768     220011       1024  0x1000-0x38000
 */
#include "kernel/mm/mm.h"
#include "kernel/mm/highmem.h"
#include "kernel/mm/mm_internal.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/slab_info.h"
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/shell.h"
#include "kernel/time.h"
#include "lib/string.h"

#define BENCH_ITERS	100000	/* calls per measured pair */

static int print_cache(const struct kmem_cache_stats *st, void *arg)
{
	kprintf("%-24s %7u %8llu %8llu %6llu %7llu\n", st->cs_name, st->cs_objsize,
	       (unsigned long long)st->cs_active, (unsigned long long)st->cs_total,
	       (unsigned long long)st->cs_slabs,
	       (unsigned long long)((st->cs_slabs << st->cs_order) * (PAGE_SIZE / 1024)));
	return 0;
}

static int cmd_meminfo(int argc, char **argv)
{
	u32 counts[MAX_ORDER];
	unsigned z, o;

	if (argc != 1)
		return -EINVAL;
	kprintf("Zone         total       free    reserve  pfn range\n");
	for (z = 0; z < MAX_NR_ZONES; z++) {
		const struct zone *zn = &mm_node.n_zones[z];

		kprintf("%-8s %9llu %10llu %10llu  %#llx-%#llx\n", zone_names[z],
		       (unsigned long long)zone_total_pages(z),
		       (unsigned long long)zone_free_pages(z),
		       (unsigned long long)zn->z_reserve,
		       (unsigned long long)zn->z_start_pfn, (unsigned long long)zn->z_end_pfn);
	}
	kprintf("Free blocks by order:\n");
	kprintf("Zone    ");
	for (o = 0; o < MAX_ORDER; o++)
		kprintf(" %6u", o);
	kprintf("\n");
	for (z = 0; z < MAX_NR_ZONES; z++) {
		zone_free_counts(&mm_node, z, counts);
		kprintf("%-8s", zone_names[z]);
		for (o = 0; o < MAX_ORDER; o++)
			kprintf(" %6u", counts[o]);
		kprintf("\n");
	}
	kprintf("Slab cache                objsize   active    total  slabs     KiB\n");
	slab_for_each_cache(print_cache, NULL);
	kprintf("kmalloc large: %llu pages\n", (unsigned long long)kmalloc_large_pages());
	kprintf("kmap: %u of %u slots in use, atomic depth %u\n",
	       kmap_slots_used(), LAST_PKMAP, kmap_atomic_depth());
	kprintf("ioremap: %u pages mapped\n", vmap_pages_used());
	return 0;
}
SHELL_COMMAND("meminfo", cmd_meminfo, "meminfo",
	      "memory zones, free blocks by order, slab caches, kmap slots");

static u64 per_op(u64 t0)
{
	return (ktime_ns() - t0) / BENCH_ITERS;
}

int mm_bench(void)
{
	struct page *page;
	u64 t0, alloc_ns, kmalloc_ns, kmap_ns;
	unsigned i;
	bool high;


	t0 = ktime_ns();
	for (i = 0; i < BENCH_ITERS; i++) {
		page = alloc_page(GFP_KERNEL);
		if (!page)
			return -ENOMEM;
		__free_page(page);
	}
	alloc_ns = per_op(t0);

	t0 = ktime_ns();
	for (i = 0; i < BENCH_ITERS; i++) {
		void *p = kmalloc(64, GFP_KERNEL);

		if (!p)
			return -ENOMEM;
		kfree(p);
	}
	kmalloc_ns = per_op(t0);

	page = alloc_page(GFP_HIGHUSER);
	if (!page)
		return -ENOMEM;
	high = PageHighMem(page);
	t0 = ktime_ns();
	for (i = 0; i < BENCH_ITERS; i++) {
		volatile u32 *p = kmap_atomic(page);

		p[0] = i;
		kunmap_atomic((void *)p);
	}
	kmap_ns = per_op(t0);
	__free_page(page);

	kprintf("bench mm: alloc_page+free %llu ns\n", (unsigned long long)alloc_ns);
	kprintf("bench mm: kmalloc(64)+kfree %llu ns\n", (unsigned long long)kmalloc_ns);
	kprintf("bench mm: kmap_atomic+kunmap_atomic %llu ns (%s page)\n",
	       (unsigned long long)kmap_ns, high ? "HighMem" : "lowmem");
	return 0;
}

