/*
 * The vmalloc area (kernel/mm/vmap.h): ioremap for device MMIO, and
 * vmalloc for virtually contiguous memory with guard pages (stacks).
 *
 * Layer: mm, kernel only.  The area [VMALLOC_START, VMALLOC_END) is
 * handed out in pages from a bitmap, first fit.  Every mapping has an
 * unmapped guard page on each side, so a driver running off the end of a
 * BAR, or a stack overflowing, faults instead of touching its neighbour;
 * and the release finds a mapping's length by walking its run of used
 * pages.  ioremap pages are mapped PCD|PWT (uncached, SDM Vol. 3A 11.12.3:
 * PAT entry 3 is UC at reset) and NX, at any physical address below
 * 64 GiB; vmalloc pages are frames of any zone, RW+NX, their PTEs tagged
 * with a software bit so that iounmap and vfree cannot be mixed up.
 *
 * RAM that the page allocator manages is refused: a second, uncached
 * alias of a cached page is undefined behaviour on x86 (SDM 11.12.4).
 *
 * Lock legend: [v] vmap_lock.
 */
#include "kernel/mm/vmap.h"
#include "kernel/mm/mm_internal.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "lib/bitmap.h"

#define VMAP_PAGES	((VMALLOC_END - VMALLOC_START) / PAGE_SIZE)

_Static_assert(VMAP_PAGES % 32 == 0, "the bitmap covers the whole vmalloc area");

static DEFINE_SPINLOCK(vmap_lock);
static u32 vmap_used[BITMAP_WORDS(VMAP_PAGES)];	/* [v] one bit per page of the area */
static unsigned vmap_nr_used;		/* [v] */

static bool used(unsigned i)
{
	return bitmap_test(vmap_used, i);
}

static void set_used(unsigned i, bool on)
{
	if (on)
		bitmap_set(vmap_used, i);
	else
		bitmap_clear(vmap_used, i);
}

/* First index of n + 2 free pages (guards included); VMAP_PAGES if none. */
static unsigned __vmap_find(unsigned n)
{
	unsigned i, run = 0;

	for (i = 0; i < VMAP_PAGES; i++) {
		run = used(i) ? 0 : run + 1;
		if (run == n + 2)
			return i + 1 - run;
	}
	return VMAP_PAGES;
}

static unsigned long vmap_va(unsigned i)
{
	return VMALLOC_START + (unsigned long)i * PAGE_SIZE;
}

/*
 * Reserve n pages between guards and build their page tables; returns
 * the first page's index, or VMAP_PAGES when there is no room.  Caller
 * holds vmap_lock.
 */
static unsigned __vmap_reserve(unsigned n)
{
	unsigned at = __vmap_find(n), i;

	if (at == VMAP_PAGES)
		return VMAP_PAGES;
	at++;	/* past the leading guard */
	for (i = 0; i < n; i++)
		if (!pgtable_pte_slot(vmap_va(at + i), true))
			return VMAP_PAGES;	/* tables built so far stay for later use */
	for (i = 0; i < n; i++)
		set_used(at + i, true);
	vmap_nr_used += n;
	return at;
}

/*
 * Unmap the mapping that starts at va and free its frames if it came from
 * vmalloc(); who names the caller for the panic on a bad address.  The
 * range stays reserved and the frames ours until the TLB shootdown has
 * made every CPU forget the old translations: only then may another
 * mapping, or another owner of a frame, see them.
 */
static void vmap_release(unsigned long va, bool is_vmalloc, const char *who, const void *addr)
{
	unsigned at = (unsigned)((va - VMALLOC_START) / PAGE_SIZE), i, n;
	struct page *page, *next;
	unsigned long flags, size;
	LIST_HEAD(frames);
	pte_t pte;

	spin_lock_irqsave(&vmap_lock, flags);
	if (!used(at) || (at > 0 && used(at - 1)))
		panic("%s: %p is not the start of a mapping", who, addr);
	pte = pgtable_lookup(va, &size);
	if (!!(pte & PTE_VMALLOC) != is_vmalloc)
		panic("%s: %p was mapped by %s", who, addr, is_vmalloc ? "ioremap" : "vmalloc");
	for (i = at; i < VMAP_PAGES && used(i); i++) {
		pte = pgtable_lookup(vmap_va(i), &size);
		pgtable_unmap(vmap_va(i));
		if (is_vmalloc && pte)
			list_add(&pfn_to_page((pte & PTE_ADDR_MASK) >> PAGE_SHIFT)->lru, &frames);
	}
	spin_unlock_irqrestore(&vmap_lock, flags);
	n = i - at;

	flush_tlb_kernel_range(vmap_va(at), vmap_va(at + n));
	list_for_each_entry_safe(page, next, &frames, lru) {
		list_del(&page->lru);
		__free_page(page);
	}

	spin_lock_irqsave(&vmap_lock, flags);
	for (i = at; i < at + n; i++)
		set_used(i, false);
	vmap_nr_used -= n;
	spin_unlock_irqrestore(&vmap_lock, flags);
}

/**
 * ioremap - map device memory uncached
 * @phys: physical address, any alignment, below 64 GiB
 * @size: bytes, > 0
 *
 * Returns the kernel address of phys itself, or NULL (no space, bad
 * range, RAM).  Not from interrupt context.
 */
void *ioremap(phys_addr_t phys, size_t size)
{
	phys_addr_t base = phys & ~(phys_addr_t)(PAGE_SIZE - 1);
	unsigned long va = 0, flags;
	unsigned n, i, at;
	u64 span;

	if (size == 0 || phys >= (64ULL << 30) || size > (64ULL << 30) - phys)
		return NULL;
	span = (phys - base) + size;
	if (span > (VMALLOC_END - VMALLOC_START))
		return NULL;
	n = (unsigned)DIV_ROUND_UP(span, (u64)PAGE_SIZE);
	for (i = 0; i < n; i++) {
		if (pfn_to_page((base >> PAGE_SHIFT) + i)) {
			pr_err("ioremap: %#llx is RAM the kernel manages; refused\n",
			       (unsigned long long)(base + (u64)i * PAGE_SIZE));
			return NULL;
		}
	}

	spin_lock_irqsave(&vmap_lock, flags);
	at = __vmap_reserve(n);
	if (at != VMAP_PAGES) {
		for (i = 0; i < n; i++)
			pgtable_map(vmap_va(at + i), base + (u64)i * PAGE_SIZE,
				    PTE_RW | PTE_PCD | PTE_PWT | pte_nx);
		va = vmap_va(at) + (unsigned long)(phys - base);
	}
	spin_unlock_irqrestore(&vmap_lock, flags);
	if (!va)
		pr_err("ioremap: no room for %u pages at %#llx\n", n, (unsigned long long)phys);
	return (void *)va;
}

/*
 * Undo ioremap(); addr is what it returned (or any address in the first
 * page).  Not from interrupt context; interrupts on once other CPUs run
 * (the TLB shootdown).
 */
void iounmap(void *addr)
{
	unsigned long va = (unsigned long)addr & PAGE_MASK;

	if (!addr)
		return;
	if (va < VMALLOC_START || va >= VMALLOC_END)
		panic("iounmap: %p is not in the ioremap area", addr);
	vmap_release(va, false, "iounmap", addr);
}

/**
 * vmalloc - virtually contiguous memory from frames of any zone
 * @size: bytes, > 0; rounded up to pages
 *
 * RW+NX, with an unmapped guard page below and above: what a kernel
 * stack needs.  Returns the page-aligned start or NULL.  Not from
 * interrupt context.
 */
void *vmalloc(size_t size)
{
	unsigned long flags, va = 0;
	unsigned n, i, at;

	if (size == 0 || size > (VMALLOC_END - VMALLOC_START) / 2)
		return NULL;
	n = (unsigned)DIV_ROUND_UP(size, PAGE_SIZE);
	spin_lock_irqsave(&vmap_lock, flags);
	at = __vmap_reserve(n);
	if (at == VMAP_PAGES)
		goto unlock;
	for (i = 0; i < n; i++) {
		struct page *page = alloc_page(GFP_KERNEL | __GFP_HIGHMEM | __GFP_NOWARN);

		if (!page)
			goto unwind;
		pgtable_map(vmap_va(at + i), page_to_phys(page), PTE_RW | pte_nx | PTE_VMALLOC);
	}
	va = vmap_va(at);
	goto unlock;

unwind:
	while (i-- > 0) {
		unsigned long sz;
		pte_t pte = pgtable_lookup(vmap_va(at + i), &sz);

		pgtable_unmap(vmap_va(at + i));
		__free_page(pfn_to_page((pte & PTE_ADDR_MASK) >> PAGE_SHIFT));
	}
	for (i = 0; i < n; i++)
		set_used(at + i, false);
	vmap_nr_used -= n;
unlock:
	spin_unlock_irqrestore(&vmap_lock, flags);
	return (void *)va;
}

/*
 * Undo vmalloc(): unmap and free its frames.  addr is what vmalloc
 * returned, or NULL.  The context rules of iounmap().
 */
void vfree(void *addr)
{
	unsigned long va = (unsigned long)addr;

	if (!addr)
		return;
	if (va < VMALLOC_START || va >= VMALLOC_END || !IS_ALIGNED(va, PAGE_SIZE))
		panic("vfree: %p did not come from vmalloc", addr);
	vmap_release(va, true, "vfree", addr);
}

unsigned vmap_pages_used(void)
{
	return READ_ONCE(vmap_nr_used);
}
