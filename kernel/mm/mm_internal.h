/*
 * Kernel-side internals of mm shared by its files (page tables, kmap,
 * ioremap, boot setup, meminfo, selftests).  Not for other subsystems.
 *
 * Kernel virtual layout (the top GiB, one PAE page directory, PDPT entry 3):
 *
 *	C0000000  lowmem linear map, phys 0 .. mm_lowmem_end (<= 896 MiB)
 *	F8800000  vmalloc area: ioremap (8 MiB guard gap below it)
 *	FF000000  pkmap: LAST_PKMAP persistent kmap slots
 *	FFC00000  fixmap: KM_SLOTS kmap_atomic slots for each of NR_CPUS CPUs
 *
 * Below C0000000 nothing is mapped once mm_init() has run, so a NULL
 * dereference (or any user-range address) faults.
 */
#ifndef KERNEL_MM_MM_INTERNAL_H
#define KERNEL_MM_MM_INTERNAL_H

#include "kernel/mm/page.h"
#include "kernel/percpu.h"

#define VMALLOC_START	0xF8800000UL
#define VMALLOC_END	0xFF000000UL
#define PKMAP_BASE	0xFF000000UL
#define LAST_PKMAP	512		/* persistent kmap slots: one page table */
#define FIXMAP_BASE	0xFFC00000UL
#define KM_SLOTS	16		/* kmap_atomic nesting depth per CPU */
#define FIXMAP_PAGES	(NR_CPUS * KM_SLOTS)
#define FIXMAP_TABLES	(FIXMAP_PAGES / PTRS_PER_TABLE)

/*
 * PAE paging structures, Intel SDM Vol. 3A section 4.4 (PAE paging),
 * tables 4-8 (PDPTE), 4-9 (PDE, 2 MiB page), 4-10 (PDE, table), 4-11 (PTE).
 */
typedef u64 pte_t;

#define PTE_P		(1ULL << 0)	/* present */
#define PTE_RW		(1ULL << 1)	/* writable */
#define PTE_US		(1ULL << 2)	/* user (never set here) */
#define PTE_PWT		(1ULL << 3)	/* write-through */
#define PTE_PCD		(1ULL << 4)	/* cache disable */
#define PTE_A		(1ULL << 5)
#define PTE_D		(1ULL << 6)
#define PTE_PS		(1ULL << 7)	/* in a PDE: 2 MiB page */
#define PTE_G		(1ULL << 8)
#define PTE_VMALLOC	(1ULL << 9)	/* software (AVL) bit: a vmalloc frame */
#define PTE_NX		(1ULL << 63)	/* execute disable, only with EFER.NXE */
#define PTE_ADDR_MASK	0x0000000FFFFFF000ULL	/* bits 12..35: the 64 GiB we support */
#define PDE_2M_ADDR_MASK 0x0000000FFFE00000ULL

#define PAGE_2M		(2UL << 20)
#define PTRS_PER_TABLE	512

_Static_assert(sizeof(pte_t) == 8, "PAE entries are 64 bits");
_Static_assert(PTRS_PER_TABLE * sizeof(pte_t) == PAGE_SIZE, "a table fills a page");
_Static_assert(LAST_PKMAP <= PTRS_PER_TABLE, "pkmap has one page table");
_Static_assert(FIXMAP_PAGES % PTRS_PER_TABLE == 0 &&
	       FIXMAP_BASE + FIXMAP_TABLES * PAGE_2M - 1 == 0xFFFFFFFFUL,
	       "fixmap: whole page tables, up to the top of the address space");
_Static_assert(VMALLOC_START % PAGE_2M == 0 && PKMAP_BASE % PAGE_2M == 0 &&
	       FIXMAP_BASE % PAGE_2M == 0, "areas start on a page-directory entry");
_Static_assert(VMALLOC_START >= PAGE_OFFSET + (896UL << 20) + (8UL << 20) &&
	       VMALLOC_END <= PKMAP_BASE && PKMAP_BASE + LAST_PKMAP * PAGE_SIZE <= FIXMAP_BASE,
	       "the areas do not overlap the linear map or each other");

/* pgtable.c */
extern u64 mm_lowmem_end;	/* [I] bytes of physical memory linearly mapped */
extern pte_t pte_nx;		/* [I] PTE_NX if the CPU has NX, else 0 */

/*
 * Build the final kernel page tables for a lowmem linear map of
 * lowmem_end bytes, turn on CR0.WP and EFER.NXE (when CPUID has NX), and
 * switch CR3 to them.  The early identity map is gone afterwards.
 */
void pgtable_init(u64 lowmem_end);

/*
 * The PTE slot for kernel address va in the vmalloc, pkmap or fixmap area.
 * In the vmalloc area a missing page table is allocated (GFP_KERNEL);
 * NULL if that fails or va is outside those areas.
 */
pte_t *pgtable_pte_slot(unsigned long va, bool alloc);

/*
 * Map va to pa with prot (PTE_* bits besides P and the address), or clear
 * va's entry.  Either invalidates va in this CPU's TLB only: before a
 * cleared address, or the frame it mapped, is used again, every other
 * CPU must drop it too (flush_tlb_kernel_range).
 */
void pgtable_map(unsigned long va, phys_addr_t pa, pte_t prot);
void pgtable_unmap(unsigned long va);

/*
 * flush_tlb_kernel_range - invalidate [start, end) in every online CPU's TLB
 *
 * The shootdown of SDM 3A 4.10.5: this CPU invalidates its own entries and
 * interrupts the others to do the same, and waits until they have.  Call
 * with interrupts on and no spinlock held (kernel/smp_call.c's rules) when
 * other CPUs are online; with one CPU online, any context.
 */
void flush_tlb_kernel_range(unsigned long start, unsigned long end);

/*
 * The effective mapping of va: 0 if unmapped, else the entry (PDE for a
 * 2 MiB page, PTE otherwise), with *size the page size.  For selftests
 * and meminfo.
 */
pte_t pgtable_lookup(unsigned long va, unsigned long *size);

/* highmem.c */
void kmap_init(void);
unsigned kmap_slots_used(void);
unsigned kmap_atomic_depth(void);

/* vmap.c */
unsigned vmap_pages_used(void);

#endif
