/*
 * Kernel page tables: PAE, three levels (Intel SDM Vol. 3A section 4.4).
 *
 * Layer: mm, kernel only.  pgtable_init() replaces the boot tables
 * (kernel/bootinfo.h: 1 GiB of 2 MiB pages plus an identity map) with the
 * final ones, laid out as kernel/mm/mm_internal.h describes:
 *
 *  - PDPT entries 0-2 not present: nothing below PAGE_OFFSET, so the null
 *    page (and every user-range address) faults;
 *  - the lowmem linear map in 2 MiB pages, RW+NX, except the 2 MiB
 *    regions holding the kernel image, which get 4 KiB pages so that text
 *    is read-only+executable, rodata read-only+NX, data/bss RW+NX and the
 *    boot stack's guard page is not mapped at all;
 *  - one page table each for the pkmap and fixmap areas (static), and
 *    page tables for the vmalloc area allocated on first use.
 *
 * CR0.WP is set so that the kernel's own writes honour read-only pages
 * (SDM 4.6.1), and EFER.NXE only when CPUID.80000001H:EDX[20] says the
 * CPU has NX (boot_cpu, read by cpu_identify() before mm_init); without
 * it bit 63 is reserved and must stay clear (SDM 4.4.2).
 * There is one kernel address space, so a PDE set here is seen by every
 * context without copying.
 */
#include "kernel/mm/mm_internal.h"
#include "kernel/bootinfo.h"
#include "kernel/cpu.h"
#include "kernel/printk.h"
#include "lib/string.h"

#define IMAGE_PTS	8		/* 4 KiB-mapped 2 MiB regions: image up to 16 MiB */
#define KERNEL_PDPT_IDX	3		/* PAGE_OFFSET >> 30 */

u64 mm_lowmem_end;
pte_t pte_nx;

static u64 kernel_pdpt[4] __aligned(32);
static pte_t kernel_pd[PTRS_PER_TABLE] __aligned(PAGE_SIZE);
static pte_t image_pt[IMAGE_PTS][PTRS_PER_TABLE] __aligned(PAGE_SIZE);
static pte_t pkmap_pt[PTRS_PER_TABLE] __aligned(PAGE_SIZE);
static pte_t fixmap_pt[FIXMAP_TABLES][PTRS_PER_TABLE] __aligned(PAGE_SIZE);

/*
 * Write a 64-bit entry with 32-bit stores so that the CPU never sees a
 * present entry with half an address: clear P first, set it last.
 */
static void pte_write(pte_t *slot, pte_t v)
{
	volatile u32 *w = (volatile u32 *)slot;

	w[0] = 0;
	barrier();
	w[1] = (u32)(v >> 32);
	barrier();
	w[0] = (u32)v;
}

/* Protection of one 4 KiB page of the kernel image region at va. */
static pte_t image_prot(unsigned long va)
{
	if (va >= (unsigned long)_text && va < (unsigned long)_etext)
		return PTE_P;				/* text: read-only, executable */
	if (va >= (unsigned long)_etext && va < (unsigned long)_erodata)
		return PTE_P | pte_nx;			/* rodata: read-only */
	if (va == (unsigned long)boot_stack_guard)
		return 0;				/* guard: fault on overflow */
	return PTE_P | PTE_RW | pte_nx;
}

void pgtable_init(u64 lowmem_end)
{
	unsigned long kend = (unsigned long)_kernel_end - PAGE_OFFSET;
	unsigned image_pdes = DIV_ROUND_UP(kend, PAGE_2M);
	unsigned lin_pdes, i, j;

	mm_lowmem_end = ALIGN_UP(lowmem_end, (u64)PAGE_2M);
	lin_pdes = (unsigned)(mm_lowmem_end / PAGE_2M);
	if (image_pdes > IMAGE_PTS || lin_pdes < image_pdes ||
	    PAGE_OFFSET + mm_lowmem_end > VMALLOC_START)
		panic("mm: cannot map the kernel image (%lu KiB) in %llu MiB of lowmem",
		      kend >> 10, (unsigned long long)(mm_lowmem_end >> 20));
	if (!IS_ALIGNED((unsigned long)boot_stack_guard, PAGE_SIZE))
		panic("mm: boot stack guard %p is not page-aligned", boot_stack_guard);

	if (cpu_has_nx()) {
		wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_NXE);
		pte_nx = PTE_NX;
	}

	memset(kernel_pd, 0, sizeof(kernel_pd));
	for (i = 0; i < lin_pdes; i++) {
		u64 pa = (u64)i * PAGE_2M;

		if (i < image_pdes) {
			for (j = 0; j < PTRS_PER_TABLE; j++) {
				u64 p = pa + (u64)j * PAGE_SIZE;
				pte_t prot = image_prot(PAGE_OFFSET + (unsigned long)p);

				image_pt[i][j] = prot ? (p | prot) : 0;
			}
			kernel_pd[i] = ((unsigned long)image_pt[i] - PAGE_OFFSET) | PTE_P | PTE_RW;
		} else {
			kernel_pd[i] = pa | PTE_P | PTE_RW | PTE_PS | pte_nx;
		}
	}
	memset(pkmap_pt, 0, sizeof(pkmap_pt));
	memset(fixmap_pt, 0, sizeof(fixmap_pt));
	kernel_pd[(PKMAP_BASE - PAGE_OFFSET) / PAGE_2M] =
		((unsigned long)pkmap_pt - PAGE_OFFSET) | PTE_P | PTE_RW;
	for (i = 0; i < FIXMAP_TABLES; i++)
		kernel_pd[(FIXMAP_BASE - PAGE_OFFSET) / PAGE_2M + i] =
			((unsigned long)fixmap_pt[i] - PAGE_OFFSET) | PTE_P | PTE_RW;

	/* PDPTEs take only P, PWT, PCD and the address (SDM table 4-8). */
	memset(kernel_pdpt, 0, sizeof(kernel_pdpt));
	kernel_pdpt[KERNEL_PDPT_IDX] = ((unsigned long)kernel_pd - PAGE_OFFSET) | PTE_P;

	write_cr0(read_cr0() | X86_CR0_WP);
	/* Loading CR3 flushes every non-global TLB entry: the boot maps are gone. */
	write_cr3((u32)((unsigned long)kernel_pdpt - PAGE_OFFSET));
}

pte_t *pgtable_pte_slot(unsigned long va, bool alloc)
{
	unsigned pdi;
	pte_t *pt;

	if (va >= PKMAP_BASE && va < PKMAP_BASE + LAST_PKMAP * PAGE_SIZE)
		return &pkmap_pt[(va - PKMAP_BASE) >> PAGE_SHIFT];
	if (va >= FIXMAP_BASE) {
		unsigned idx = (va - FIXMAP_BASE) >> PAGE_SHIFT;

		return &fixmap_pt[idx / PTRS_PER_TABLE][idx % PTRS_PER_TABLE];
	}
	if (va < VMALLOC_START || va >= VMALLOC_END)
		return NULL;
	pdi = (va - PAGE_OFFSET) / PAGE_2M;
	if (!(kernel_pd[pdi] & PTE_P)) {
		void *table;

		if (!alloc)
			return NULL;
		table = get_zeroed_page(GFP_KERNEL);
		if (!table)
			return NULL;
		kernel_pd[pdi] = __pa(table) | PTE_P | PTE_RW;
	}
	pt = __va(kernel_pd[pdi] & PTE_ADDR_MASK);
	return &pt[(va >> PAGE_SHIFT) & (PTRS_PER_TABLE - 1)];
}

void pgtable_map(unsigned long va, phys_addr_t pa, pte_t prot)
{
	pte_t *slot = pgtable_pte_slot(va, false);

	KASSERT(slot && IS_ALIGNED(pa, (u64)PAGE_SIZE) && pa < (64ULL << 30));
	pte_write(slot, pa | prot | PTE_P);
	invlpg((const void *)va);
}

void pgtable_unmap(unsigned long va)
{
	pte_t *slot = pgtable_pte_slot(va, false);

	KASSERT(slot);
	pte_write(slot, 0);
	invlpg((const void *)va);
}

pte_t pgtable_lookup(unsigned long va, unsigned long *size)
{
	pte_t pde, pte, *pt;

	if (va < PAGE_OFFSET)
		return 0;
	pde = kernel_pd[(va - PAGE_OFFSET) / PAGE_2M];
	if (!(pde & PTE_P))
		return 0;
	if (pde & PTE_PS) {
		*size = PAGE_2M;
		return pde;
	}
	pt = __va(pde & PTE_ADDR_MASK);
	pte = pt[(va >> PAGE_SHIFT) & (PTRS_PER_TABLE - 1)];
	if (!(pte & PTE_P))
		return 0;
	*size = PAGE_SIZE;
	return pte;
}
