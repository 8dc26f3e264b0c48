/*
 * The physical memory map, sanitized: what RAM the kernel may hand out.
 *
 * memmap_sanitize() turns the firmware's map (unsorted, overlapping,
 * zero-length or absurd entries) into a sorted list of disjoint,
 * page-aligned usable regions: reserved wins over usable wherever they
 * overlap, nothing above MEMMAP_PHYS_LIMIT (64 GiB, the PAE reach) is
 * kept, and the ranges the caller names (kernel image, loader structures,
 * modules) are cut out.  It is pure: no printing, no globals; what it had
 * to fix is reported in a mask of MEMMAP_W_* bits for the caller to log.
 *
 * memmap_carve() is the boot-time allocator that runs before the buddy
 * allocator exists: it takes page-aligned space out of the region list.
 */
#ifndef KERNEL_MM_MEMMAP_H
#define KERNEL_MM_MEMMAP_H

#include "kernel/bootinfo.h"

#define MEMMAP_PHYS_LIMIT	(64ULL << 30)	/* PAE: 36-bit physical addresses */
#define MEMMAP_MAX_REGIONS	(2 * BOOT_MAX_MMAP)	/* cuts may split regions */

/* [mr_start, mr_end) in bytes, both page-aligned in a sanitized map. */
struct mem_region {
	u64	mr_start;
	u64	mr_end;
};

struct memmap {
	struct mem_region	mm_reg[MEMMAP_MAX_REGIONS];
	unsigned		mm_nr;
};

/* What memmap_sanitize() had to fix; each bit is worth a warning. */
#define MEMMAP_W_UNSORTED	0x001u	/* entries out of address order */
#define MEMMAP_W_OVERLAP	0x002u	/* entries overlapping each other */
#define MEMMAP_W_ZERO_LEN	0x004u	/* zero-length entries dropped */
#define MEMMAP_W_ABOVE_LIMIT	0x008u	/* usable RAM above 64 GiB dropped */
#define MEMMAP_W_WRAP		0x010u	/* base + len overflowed 64 bits */
#define MEMMAP_W_FALLBACK	0x020u	/* no map: mem_lower/mem_upper used */
#define MEMMAP_W_TOO_MANY	0x040u	/* more regions than fit: tail dropped */
#define MEMMAP_W_MEM_LIMIT	0x080u	/* mem= cut usable RAM */
#define MEMMAP_W_NO_RAM		0x100u	/* nothing usable at all */
#define MEMMAP_W_FIXED_HOLE	0x200u	/* usable claimed in the ISA hole or the APIC/flash range */

/* Names for the MEMMAP_W_* bits, bit i at index i, for the boot log. */
extern const char *const memmap_warning_names[];
#define MEMMAP_NR_WARNINGS	10
_Static_assert(MEMMAP_W_FIXED_HOLE == 1u << (MEMMAP_NR_WARNINGS - 1),
	       "one name for each MEMMAP_W_* bit, the last one included");

/*
 * Build the usable map from the firmware entries (nr may be 0: then
 * [0, mem_lower) and [1 MiB, 1 MiB + mem_upper) are used), keeping at most
 * mem_limit bytes of RAM (0: no limit; applied in address order before
 * the cuts, so mem=32M behaves like a 32 MiB machine), then removing every
 * range in cut[0..nr_cut) (any alignment; widened to whole pages), the
 * first page, the ISA hole [640 KiB, 1 MiB) and [0xFEC00000, 4 GiB).
 * Returns a mask of MEMMAP_W_* bits.
 */
unsigned memmap_sanitize(struct memmap *out, const struct boot_mmap_entry *in,
			 unsigned nr, u32 mem_lower_kb, u32 mem_upper_kb,
			 u64 mem_limit, const struct mem_region *cut, unsigned nr_cut);

/* Remove [start, end) from the map (widened to pages).  Returns MEMMAP_W_TOO_MANY or 0. */
unsigned memmap_remove(struct memmap *m, u64 start, u64 end);

/*
 * Take size bytes (rounded up to pages), aligned to align (a power of two,
 * at least a page), from the highest suitable address inside
 * [min_addr, max_addr).  Returns the physical start, or 0 when nothing
 * fits (page 0 is never usable, so 0 is unambiguous).
 */
u64 memmap_carve(struct memmap *m, u64 size, u64 align, u64 min_addr, u64 max_addr);

/* Bytes of usable memory in the map, all of it or below limit. */
u64 memmap_total(const struct memmap *m);
u64 memmap_total_below(const struct memmap *m, u64 limit);

#endif
