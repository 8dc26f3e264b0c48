/*
 * TLB shootdown for the kernel's own address space (SDM 3A 4.10.5,
 * "Propagation of Paging-Structure Changes to Multiple Processors").
 *
 * Every CPU runs on the same page tables, but each caches translations
 * in its own TLB, and INVLPG reaches only the CPU that executes it.  When
 * a mapping is removed (iounmap, vfree, a persistent kmap slot reused),
 * a CPU that once used the old address may still translate it to the old
 * frame: a read returns stale data and a write lands in a frame that may
 * already belong to someone else.  So the CPU that changes the mapping
 * invalidates its own entries and interrupts every other online CPU to
 * invalidate theirs, and only returns once all have: after that, the
 * address and the frame may be handed out again.
 *
 * Ranges above TLB_FLUSH_ALL_PAGES pages reload CR3 instead, which drops
 * every non-global entry (SDM 3A 4.10.4.1); the areas this serves
 * (vmalloc, pkmap, fixmap) are never mapped global.  New mappings need no
 * shootdown: a not-present entry is never cached.
 */
#include "kernel/mm/mm_internal.h"
#include "kernel/cpu.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/smp.h"

#define TLB_FLUSH_ALL_PAGES	32

struct tlb_range {
	unsigned long	tr_start;
	unsigned long	tr_end;
};

static void tlb_flush_local(void *data)
{
	const struct tlb_range *r = data;
	unsigned long va;

	if ((r->tr_end - r->tr_start) / PAGE_SIZE > TLB_FLUSH_ALL_PAGES) {
		write_cr3(read_cr3());
		return;
	}
	for (va = r->tr_start; va < r->tr_end; va += PAGE_SIZE)
		invlpg((const void *)va);
}

void flush_tlb_kernel_range(unsigned long start, unsigned long end)
{
	struct tlb_range r = { start & PAGE_MASK, end };
	int err;

	if (end <= start)
		return;
	tlb_flush_local(&r);
	if (num_online_cpus() == 1)
		return;
	err = smp_call_function(tlb_flush_local, &r);
	/*
	 * A CPU that did not flush may hold a translation to a frame about
	 * to be reused: carrying on would corrupt memory without a trace.
	 */
	if (err)
		panic("TLB shootdown of %#lx-%#lx failed (%d)", start, end, err);
}
