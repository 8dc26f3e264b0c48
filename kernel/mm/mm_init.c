/*
 * mm bring-up (kernel/mm/mm.h): from the boot loader's memory map to a
 * working page allocator, slab, kmap and ioremap.
 *
 * Layer: mm, kernel only; runs once, before any initcall, on the boot
 * tables (1 GiB linear at PAGE_OFFSET), with interrupts off.
 *
 *  1. RAM: the sanitized memory map (memmap.c), limited by mem=.
 *  2. Free RAM: RAM minus the kernel image, the loader's structures and
 *     the modules (a module may become a memory disk: its frames keep
 *     struct pages, reserved).
 *  3. Final page tables for the lowmem linear map (pgtable.c).
 *  4. Ranges: RAM cut at the zone boundaries (16 MiB, 896 MiB); each gets
 *     a struct page array carved from free lowmem, above 16 MiB if it can,
 *     so the DMA zone stays for those who need it.
 *  5. Free RAM goes to the buddy allocator; then kmap and slab start.
 *
 * The boot log lines "mm: zone NAME ..." are read by tests/qemu/mm-*.sh.
 */
#define MM_D_INIT	0x1	/* ranges and carving at boot */
#define MM_D_MAP	0x2	/* the sanitized map */

#include "kernel/mm/mm.h"
#include "kernel/mm/memmap.h"
#include "kernel/mm/mm_internal.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/slab_info.h"
#include "kernel/bootinfo.h"
#include "kernel/param.h"
#include "kernel/printk.h"

#define FOUR_GIB	(4ULL << 30)
#define HIGHMEM_MAP_SHARE	2	/* HighMem's struct pages take at most 1/2 of lowmem */

static u64 mm_mem_limit;	/* bytes of RAM to use; 0: all */
PARAM_SIZE("mem", mm_mem_limit, "use at most SIZE bytes of RAM (e.g. mem=64M)");

/* Boot-time scratch: too big for the stack, needed only during mm_init. */
static struct memmap ram_map, free_map;
static u64 highmem_map_budget;
u64 mm_trampoline_pa;	/* bytes of lowmem HighMem's struct pages may still take */

static void report_warnings(unsigned warn)
{
	unsigned i;

	for (i = 0; i < MEMMAP_NR_WARNINGS; i++)
		if (warn & (1u << i))
			pr_warn("mm: memory map: %s\n", memmap_warning_names[i]);
}

static void cut_boot_ranges(struct memmap *m)
{
	unsigned i;

	memmap_remove(m, (unsigned long)_kernel_start - PAGE_OFFSET,
		      (unsigned long)_kernel_end - PAGE_OFFSET);
	if (boot_info.info_end > boot_info.info_start)
		memmap_remove(m, boot_info.info_start, boot_info.info_end);
	for (i = 0; i < boot_info.nr_modules && i < BOOT_MAX_MODULES; i++)
		memmap_remove(m, boot_info.modules[i].start, boot_info.modules[i].end);
}

static u64 lowmem_end_of(const struct memmap *m)
{
	u64 end = 0;
	unsigned i;

	for (i = 0; i < m->mm_nr; i++)
		if (m->mm_reg[i].mr_start < LOWMEM_MAX)
			end = max(end, min(m->mm_reg[i].mr_end, LOWMEM_MAX));
	return end;
}

static enum zone_type zone_of(u64 addr)
{
	if (addr < DMA_ZONE_END)
		return ZONE_DMA;
	return addr < LOWMEM_MAX ? ZONE_NORMAL : ZONE_HIGHMEM;
}

/*
 * Give [s, e) of RAM a struct page array and register it; false if
 * dropped.  HighMem ranges are cut short when their arrays would eat
 * more than the budget: 64 GiB needs 320 MiB of them, and lowmem is what
 * the kernel lives on.
 */
static bool add_range(u64 s, u64 e, u64 lowmem_end)
{
	u64 nr = (e - s) >> PAGE_SHIFT;
	u64 bytes = nr * sizeof(struct page);
	u64 pa;

	if (zone_of(s) == ZONE_HIGHMEM && bytes > highmem_map_budget) {
		nr = highmem_map_budget / sizeof(struct page);
		pr_warn("mm: HighMem %#llx-%#llx cut to %llu MiB: struct pages would fill lowmem\n",
			(unsigned long long)s, (unsigned long long)e,
			(unsigned long long)(nr >> (20 - PAGE_SHIFT)));
		if (nr == 0)
			return false;
		bytes = nr * sizeof(struct page);
		e = s + (nr << PAGE_SHIFT);
	}

	pa = memmap_carve(&free_map, bytes, PAGE_SIZE, DMA_ZONE_END, lowmem_end);
	if (!pa)
		pa = memmap_carve(&free_map, bytes, PAGE_SIZE, 0, lowmem_end);
	if (!pa) {
		pr_warn("mm: no lowmem for the struct pages of %#llx-%#llx; not used\n",
			(unsigned long long)s, (unsigned long long)e);
		return false;
	}
	DPRINTF(MM_D_INIT, "mm: range %#llx-%#llx %s, struct pages at %#llx\n",
		(unsigned long long)s, (unsigned long long)e, zone_names[zone_of(s)],
		(unsigned long long)pa);
	if (mm_node_add_range(&mm_node, s >> PAGE_SHIFT, (u32)nr, __va(pa), zone_of(s))) {
		/* The carved array stays reserved: a few KiB, once, on a freak map. */
		pr_warn("mm: too many memory ranges; %#llx-%#llx not used\n",
			(unsigned long long)s, (unsigned long long)e);
		return false;
	}
	if (zone_of(s) == ZONE_HIGHMEM)
		highmem_map_budget -= ALIGN_UP(bytes, (u64)PAGE_SIZE);
	return true;
}

/* Ranges: each RAM region cut at the zone boundaries. */
static void build_ranges(u64 lowmem_end)
{
	static const u64 bounds[] = { DMA_ZONE_END, LOWMEM_MAX };
	unsigned i, b;

	for (i = 0; i < ram_map.mm_nr; i++) {
		u64 s = ram_map.mm_reg[i].mr_start, e = ram_map.mm_reg[i].mr_end;

		for (b = 0; b < ARRAY_SIZE(bounds); b++) {
			if (s < bounds[b] && e > bounds[b]) {
				add_range(s, bounds[b], lowmem_end);
				s = bounds[b];
			}
		}
		add_range(s, e, lowmem_end);
	}
}

/* Hand every free region to the buddy allocator, range by range. */
static void free_ram(void)
{
	unsigned i, r;

	for (i = 0; i < free_map.mm_nr; i++) {
		u64 s = free_map.mm_reg[i].mr_start >> PAGE_SHIFT;
		u64 e = free_map.mm_reg[i].mr_end >> PAGE_SHIFT;

		for (r = 0; r < mm_node.n_nr_ranges; r++) {
			const struct mm_range *rg = &mm_node.n_ranges[r];
			u64 a = max(s, rg->r_start_pfn);
			u64 b = min(e, rg->r_start_pfn + rg->r_nr);

			if (a < b && mm_node_free_boot_range(&mm_node, a, b))
				panic("mm: free RAM %#llx-%#llx outside its range",
				      (unsigned long long)a, (unsigned long long)b);
		}
	}
}

static u64 free_pages_above(u64 pfn)
{
	u64 n = 0;
	unsigned r;

	for (r = 0; r < mm_node.n_nr_ranges; r++) {
		const struct mm_range *rg = &mm_node.n_ranges[r];
		u64 i;

		if (rg->r_start_pfn + rg->r_nr <= pfn)
			continue;
		for (i = 0; i < rg->r_nr; i++)
			if (rg->r_start_pfn + i >= pfn && !(rg->r_pages[i].flags & PG_reserved))
				n++;
	}
	return n;
}

void mm_init(void)
{
	u64 lowmem_end, struct_bytes = 0;
	unsigned warn, z, r;

	warn = memmap_sanitize(&ram_map, boot_info.mmap, boot_info.nr_mmap,
			       boot_info.mem_lower_kb, boot_info.mem_upper_kb,
			       mm_mem_limit, NULL, 0);
	report_warnings(warn);
	for (r = 0; r < ram_map.mm_nr; r++)
		DPRINTF(MM_D_MAP, "mm: RAM %#llx-%#llx\n",
			(unsigned long long)ram_map.mm_reg[r].mr_start,
			(unsigned long long)ram_map.mm_reg[r].mr_end);
	free_map = ram_map;
	cut_boot_ranges(&free_map);
	mm_trampoline_pa = memmap_carve(&free_map, MM_TRAMPOLINE_SIZE, PAGE_SIZE, PAGE_SIZE,
					0x100000);
	lowmem_end = lowmem_end_of(&ram_map);
	if (free_map.mm_nr == 0 || lowmem_end == 0)
		panic("mm: no usable RAM in the memory map");

	pgtable_init(max(lowmem_end, (u64)((unsigned long)_kernel_end - PAGE_OFFSET)));

	mm_node_init(&mm_node);
	highmem_map_budget = memmap_total_below(&free_map, lowmem_end) / HIGHMEM_MAP_SHARE;
	build_ranges(lowmem_end);
	free_ram();
	mm_node_finish(&mm_node);
	kmap_init();
	slab_init();

	for (r = 0; r < mm_node.n_nr_ranges; r++)
		struct_bytes += (u64)mm_node.n_ranges[r].r_nr * sizeof(struct page);
	pr_info("mm: RAM %llu MiB, lowmem map %llu MiB, NX %s, struct page %llu KiB in %u ranges\n",
		(unsigned long long)(memmap_total(&ram_map) >> 20),
		(unsigned long long)(mm_lowmem_end >> 20), pte_nx ? "on" : "off",
		(unsigned long long)(struct_bytes >> 10), mm_node.n_nr_ranges);
	for (z = 0; z < MAX_NR_ZONES; z++) {
		const struct zone *zn = &mm_node.n_zones[z];

		pr_info("mm: zone %-7s %8llu pages (%llu MiB), pfn %#llx-%#llx\n",
			zone_names[z], (unsigned long long)zn->z_managed,
			(unsigned long long)(zn->z_managed >> (20 - PAGE_SHIFT)),
			(unsigned long long)zn->z_start_pfn, (unsigned long long)zn->z_end_pfn);
	}
	if (memmap_total(&ram_map) > memmap_total_below(&ram_map, FOUR_GIB))
		pr_info("mm: %llu pages above 4 GiB\n",
			(unsigned long long)free_pages_above(FOUR_GIB >> PAGE_SHIFT));
}
