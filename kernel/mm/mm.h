/*
 * Memory management bring-up: the one call kernel/main.c makes.
 */
#ifndef KERNEL_MM_MM_H
#define KERNEL_MM_MM_H

#include "kernel/compiler.h"

/*
 * Called once, after boot_info is filled, command-line parameters are
 * applied (mem=) and the console works, before any initcall.  Afterwards
 * the page allocator, kmalloc, mempools, kmap and ioremap work, the final
 * page tables are live and the early identity map is gone.  Panics when
 * there is no usable memory at all.
 */
void mm_init(void);

/*
 * Where the other CPUs start: MM_TRAMPOLINE_SIZE bytes of RAM below 1 MiB,
 * page-aligned, taken before the page allocator sees them (a start-up IPI
 * names a real-mode page).  0 when the memory map had none.
 */
#define MM_TRAMPOLINE_SIZE	(2 * 4096)
extern u64 mm_trampoline_pa;

/* The `bench mm` figures: ns per page alloc+free, kmalloc(64)+kfree,
 * kmap_atomic pair, printed on the console.  0 or -ENOMEM. */
int mm_bench(void);

#endif
