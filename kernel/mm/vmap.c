/*
 * ioremap: device MMIO mapped into the vmalloc area (kernel/mm/vmap.h).
 *
 * Layer: mm, kernel only.  The area [VMALLOC_START, VMALLOC_END) is
 * handed out in pages from a bitmap, first fit.  Every mapping has an
 * unmapped guard page on each side, so a driver running off the end of a
 * BAR faults instead of touching its neighbour, and so iounmap() finds a
 * mapping's length by walking its run of used pages.  Pages are mapped
 * PCD|PWT (uncached, SDM Vol. 3A 11.12.3: PAT entry 3 is UC at reset) and
 * NX, at any physical address below 64 GiB.
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

#define VMAP_PAGES	((VMALLOC_END - VMALLOC_START) / PAGE_SIZE)
#define VMAP_WORDS	(VMAP_PAGES / 32)

static DEFINE_SPINLOCK(vmap_lock);
static u32 vmap_used[VMAP_WORDS];	/* [v] one bit per page of the area */
static unsigned vmap_nr_used;		/* [v] */

static bool used(unsigned i)
{
	return vmap_used[i / 32] & (1u << (i % 32));
}

static void set_used(unsigned i, bool on)
{
	if (on)
		vmap_used[i / 32] |= 1u << (i % 32);
	else
		vmap_used[i / 32] &= ~(1u << (i % 32));
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
	at = __vmap_find(n);
	if (at == VMAP_PAGES)
		goto out;
	at++;	/* past the leading guard */
	for (i = 0; i < n; i++) {
		/* Page tables first, so that a failure leaves nothing half-mapped. */
		if (!pgtable_pte_slot(VMALLOC_START + (at + i) * PAGE_SIZE, true))
			goto out;
	}
	for (i = 0; i < n; i++) {
		set_used(at + i, true);
		pgtable_map(VMALLOC_START + (at + i) * PAGE_SIZE, base + (u64)i * PAGE_SIZE,
			    PTE_RW | PTE_PCD | PTE_PWT | pte_nx);
	}
	vmap_nr_used += n;
	va = VMALLOC_START + at * PAGE_SIZE + (unsigned long)(phys - base);
out:
	spin_unlock_irqrestore(&vmap_lock, flags);
	if (!va)
		pr_err("ioremap: no room for %u pages at %#llx\n", n, (unsigned long long)phys);
	return (void *)va;
}

/* Undo ioremap(); addr is what it returned (or any address in the first page). */
void iounmap(void *addr)
{
	unsigned long va = (unsigned long)addr & PAGE_MASK, flags;
	unsigned i;

	if (!addr)
		return;
	if (va < VMALLOC_START || va >= VMALLOC_END)
		panic("iounmap: %p is not in the ioremap area", addr);
	i = (va - VMALLOC_START) / PAGE_SIZE;
	spin_lock_irqsave(&vmap_lock, flags);
	if (!used(i) || (i > 0 && used(i - 1)))
		panic("iounmap: %p is not the start of a mapping", addr);
	for (; i < VMAP_PAGES && used(i); i++) {
		pgtable_unmap(VMALLOC_START + i * PAGE_SIZE);
		set_used(i, false);
		vmap_nr_used--;
	}
	spin_unlock_irqrestore(&vmap_lock, flags);
}

unsigned vmap_pages_used(void)
{
	return READ_ONCE(vmap_nr_used);
}
