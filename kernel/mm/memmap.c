/*
 * Physical memory map sanitizer and boot-time carving (kernel/mm/memmap.h).
 *
 * Layer: the first thing mm does at boot, before any allocator exists.
 * Pure logic, built on the host too (tests/unit/test_memmap.c feeds it the
 * maps SeaBIOS hands QEMU's pc and q35 guests, and hostile ones).
 *
 * Method: the firmware entries (multiboot 1 "mmap", Multiboot Spec 0.6.96
 * section 3.3: base_addr, length, type; type 1 is RAM, everything else is
 * reserved) are cut at every entry boundary into elementary intervals.
 * An interval is usable when some usable entry covers it and no reserved
 * entry does, so reserved wins over usable whatever the order or overlap.
 * Adjacent usable intervals merge, regions shrink inward to whole pages,
 * then mem= and the cuts apply.  At most 2 * BOOT_MAX_MMAP boundaries
 * exist, so the quadratic classification is bounded (256 x 128 checks).
 */
#include "kernel/mm/memmap.h"
#include "kernel/mm/page.h"
#include "lib/string.h"

#define ISA_HOLE_START		0xA0000ULL	/* VGA memory and option/BIOS ROMs */
#define ISA_HOLE_END		0x100000ULL
#define APIC_FLASH_START	0xFEC00000ULL	/* IOAPIC, LAPIC, HPET, BIOS flash */
#define APIC_FLASH_END		0x100000000ULL

const char *const memmap_warning_names[MEMMAP_NR_WARNINGS] = {
	"entries unsorted",
	"entries overlap",
	"zero-length entries dropped",
	"usable RAM above 64 GiB dropped",
	"entry wraps past 2^64",
	"no memory map: using mem_lower/mem_upper",
	"too many regions: tail dropped",
	"RAM limited by mem=",
	"no usable RAM",
	"usable RAM claimed in a fixed hole: dropped",
};

struct mm_span {
	u64	s;
	u64	e;
	bool	usable;
};

/* Clip one entry to [0, MEMMAP_PHYS_LIMIT); false if nothing remains. */
static bool clip_entry(const struct boot_mmap_entry *in, struct mm_span *sp, unsigned *warn)
{
	u64 s = in->base, e;

	if (in->len == 0) {
		*warn |= MEMMAP_W_ZERO_LEN;
		return false;
	}
	e = s + in->len;
	if (e < s) {
		*warn |= MEMMAP_W_WRAP;
		e = ~0ULL;
	}
	sp->usable = in->type == BOOT_MEM_USABLE;
	if (e > MEMMAP_PHYS_LIMIT) {
		/* Reserved ranges up there (the AMD HT hole) are normal: no warning. */
		if (sp->usable)
			*warn |= MEMMAP_W_ABOVE_LIMIT;
		e = MEMMAP_PHYS_LIMIT;
	}
	if (s >= e)
		return false;
	sp->s = s;
	sp->e = e;
	return true;
}

static void sort_u64(u64 *v, unsigned n)
{
	unsigned i, j;

	for (i = 1; i < n; i++) {
		u64 x = v[i];

		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* Append [s, e) after page-aligning it inward; merges with the last region. */
static void push_region(struct memmap *m, u64 s, u64 e, unsigned *warn)
{
	s = ALIGN_UP(s, (u64)PAGE_SIZE);
	e = ALIGN_DOWN(e, (u64)PAGE_SIZE);
	if (s >= e)
		return;
	if (m->mm_nr > 0 && m->mm_reg[m->mm_nr - 1].mr_end == s) {
		m->mm_reg[m->mm_nr - 1].mr_end = e;
		return;
	}
	if (m->mm_nr == MEMMAP_MAX_REGIONS) {
		*warn |= MEMMAP_W_TOO_MANY;
		return;
	}
	m->mm_reg[m->mm_nr].mr_start = s;
	m->mm_reg[m->mm_nr].mr_end = e;
	m->mm_nr++;
}

/* Classify elementary intervals; see the comment at the top. */
static void build_usable(struct memmap *m, const struct mm_span *sp, unsigned nsp,
			 unsigned *warn)
{
	u64 pts[2 * BOOT_MAX_MMAP];
	unsigned npts = 0, i, k;
	u64 run_s = 0, run_e = 0;
	bool in_run = false;

	for (i = 0; i < nsp; i++) {
		pts[npts++] = sp[i].s;
		pts[npts++] = sp[i].e;
	}
	sort_u64(pts, npts);

	for (k = 0; k + 1 < npts; k++) {
		u64 a = pts[k], b = pts[k + 1];
		unsigned covers = 0;
		bool usable = false, reserved = false;

		if (a == b)
			continue;
		for (i = 0; i < nsp; i++) {
			if (sp[i].s <= a && sp[i].e >= b) {
				covers++;
				if (sp[i].usable)
					usable = true;
				else
					reserved = true;
			}
		}
		if (covers > 1)
			*warn |= MEMMAP_W_OVERLAP;
		if (usable && !reserved) {
			if (in_run && run_e == a) {
				run_e = b;
			} else {
				if (in_run)
					push_region(m, run_s, run_e, warn);
				run_s = a;
				run_e = b;
				in_run = true;
			}
		}
	}
	if (in_run)
		push_region(m, run_s, run_e, warn);
}

/* Keep the first limit bytes of RAM in address order. */
static void apply_limit(struct memmap *m, u64 limit, unsigned *warn)
{
	u64 total = 0;
	unsigned i;

	for (i = 0; i < m->mm_nr; i++) {
		struct mem_region *r = &m->mm_reg[i];
		u64 len = r->mr_end - r->mr_start;

		if (total + len > limit) {
			r->mr_end = r->mr_start + ALIGN_DOWN(limit - total, (u64)PAGE_SIZE);
			m->mm_nr = r->mr_end > r->mr_start ? i + 1 : i;
			*warn |= MEMMAP_W_MEM_LIMIT;
			return;
		}
		total += len;
	}
}

static bool overlaps(const struct memmap *m, u64 s, u64 e)
{
	unsigned i;

	for (i = 0; i < m->mm_nr; i++)
		if (m->mm_reg[i].mr_start < e && m->mm_reg[i].mr_end > s)
			return true;
	return false;
}

unsigned memmap_remove(struct memmap *m, u64 start, u64 end)
{
	unsigned i;

	start = ALIGN_DOWN(start, (u64)PAGE_SIZE);
	/* (PAGE_MASK is 32 bits wide in the kernel: no use on 64-bit addresses.) */
	end = end > ~0ULL - PAGE_SIZE ? ALIGN_DOWN(~0ULL, (u64)PAGE_SIZE) :
					ALIGN_UP(end, (u64)PAGE_SIZE);
	if (start >= end)
		return 0;
	for (i = 0; i < m->mm_nr; i++) {
		struct mem_region *r = &m->mm_reg[i];

		if (r->mr_end <= start || r->mr_start >= end)
			continue;
		if (r->mr_start >= start && r->mr_end <= end) {
			/* Wholly inside: delete, and look at the new occupant of slot i. */
			memmove(r, r + 1, (m->mm_nr - i - 1) * sizeof(*r));
			m->mm_nr--;
			i--;
		} else if (r->mr_start < start && r->mr_end > end) {
			/* Splits in two. */
			if (m->mm_nr == MEMMAP_MAX_REGIONS) {
				r->mr_end = start;	/* lose the upper part, never keep the cut */
				return MEMMAP_W_TOO_MANY;
			}
			memmove(r + 1, r, (m->mm_nr - i) * sizeof(*r));
			m->mm_nr++;
			r[0].mr_end = start;
			r[1].mr_start = end;
			return 0;
		} else if (r->mr_start < start) {
			r->mr_end = start;
		} else {
			r->mr_start = end;
		}
	}
	return 0;
}

unsigned memmap_sanitize(struct memmap *out, const struct boot_mmap_entry *in,
			 unsigned nr, u32 mem_lower_kb, u32 mem_upper_kb,
			 u64 mem_limit, const struct mem_region *cut, unsigned nr_cut)
{
	struct mm_span sp[BOOT_MAX_MMAP];
	struct boot_mmap_entry fb[2];
	unsigned nsp = 0, warn = 0, i;

	out->mm_nr = 0;
	if (nr == 0) {
		/* Multiboot Spec 3.3: mem_lower from 0, mem_upper from 1 MiB. */
		fb[0] = (struct boot_mmap_entry){ 0, (u64)mem_lower_kb * 1024, BOOT_MEM_USABLE };
		fb[1] = (struct boot_mmap_entry){ ISA_HOLE_END, (u64)mem_upper_kb * 1024,
						  BOOT_MEM_USABLE };
		in = fb;
		nr = 2;
		warn |= MEMMAP_W_FALLBACK;
	}
	if (nr > BOOT_MAX_MMAP) {
		nr = BOOT_MAX_MMAP;
		warn |= MEMMAP_W_TOO_MANY;
	}
	for (i = 0; i < nr; i++) {
		if (i > 0 && in[i].base < in[i - 1].base)
			warn |= MEMMAP_W_UNSORTED;
		if (clip_entry(&in[i], &sp[nsp], &warn))
			nsp++;
	}
	/* A zero-length fallback entry is no news; the fallback bit says it all. */
	if (warn & MEMMAP_W_FALLBACK)
		warn &= ~MEMMAP_W_ZERO_LEN;

	build_usable(out, sp, nsp, &warn);
	if (mem_limit)
		apply_limit(out, mem_limit, &warn);

	if (overlaps(out, ISA_HOLE_START, ISA_HOLE_END) ||
	    overlaps(out, APIC_FLASH_START, APIC_FLASH_END))
		warn |= MEMMAP_W_FIXED_HOLE;
	warn |= memmap_remove(out, 0, PAGE_SIZE);
	warn |= memmap_remove(out, ISA_HOLE_START, ISA_HOLE_END);
	warn |= memmap_remove(out, APIC_FLASH_START, APIC_FLASH_END);
	for (i = 0; i < nr_cut; i++)
		warn |= memmap_remove(out, cut[i].mr_start, cut[i].mr_end);
	if (out->mm_nr == 0)
		warn |= MEMMAP_W_NO_RAM;
	return warn;
}

u64 memmap_carve(struct memmap *m, u64 size, u64 align, u64 min_addr, u64 max_addr)
{
	unsigned i;

	size = ALIGN_UP(size, (u64)PAGE_SIZE);
	if (size == 0 || align < PAGE_SIZE || !is_power_of_2(align))
		return 0;
	for (i = m->mm_nr; i-- > 0;) {
		const struct mem_region *r = &m->mm_reg[i];
		u64 lo = max(r->mr_start, min_addr);
		u64 hi = min(r->mr_end, max_addr);
		u64 at;

		if (hi <= lo || hi - lo < size)
			continue;
		at = ALIGN_DOWN(hi - size, align);
		if (at < lo || at == 0)
			continue;
		/*
		 * A split that does not fit loses the region's upper part
		 * (memmap_remove never keeps a cut range), so [at, at+size)
		 * is out of the map either way.
		 */
		memmap_remove(m, at, at + size);
		return at;
	}
	return 0;
}

u64 memmap_total_below(const struct memmap *m, u64 limit)
{
	u64 t = 0;
	unsigned i;

	for (i = 0; i < m->mm_nr; i++) {
		const struct mem_region *r = &m->mm_reg[i];

		if (r->mr_start < limit)
			t += min(r->mr_end, limit) - r->mr_start;
	}
	return t;
}

u64 memmap_total(const struct memmap *m)
{
	return memmap_total_below(m, ~0ULL);
}
