/*
 * Kernel virtual mappings outside the lowmem linear map: device MMIO and
 * virtually contiguous memory.
 * ioremap() maps [phys, phys+size) uncached (PCD|PWT) in the vmalloc area
 * wherever the range sits, above 4 GiB included, and returns the address
 * of phys itself (not page-aligned); NULL when out of space.
 */
#ifndef KERNEL_MM_VMAP_H
#define KERNEL_MM_VMAP_H

#include "kernel/types.h"

void *ioremap(phys_addr_t phys, size_t size);
void iounmap(void *addr);

/*
 * Virtually contiguous memory made of single frames from any zone, RW+NX,
 * with an unmapped guard page below and above (a kernel stack's overflow
 * faults).  Page-aligned; NULL when out of memory or space.  Not from
 * interrupt context.
 */
void *vmalloc(size_t size);
void vfree(void *addr);

#endif
