/*
 * Host tests for kernel/mm/memmap.c: the memory maps QEMU's SeaBIOS gives
 * its pc and q35 machines, hostile maps (unsorted, overlapping,
 * zero-length, wrapping, above 64 GiB, none at all), mem=, cuts, carving,
 * and a randomized comparison against a byte-granular oracle.
 */
#include "tests/unit/unit.h"
#include "kernel/mm/memmap.h"
#include "kernel/mm/page.h"

#define R	BOOT_MEM_USABLE
#define X	2		/* reserved */

/* The entries every SeaBIOS map has: low RAM, the EBDA, the BIOS ROM. */
#define SEABIOS_LOW \
	{ 0x0, 0x9fc00, R }, { 0x9fc00, 0x400, X }, { 0xf0000, 0x10000, X }
#define SEABIOS_FLASH	{ 0xfffc0000ULL, 0x40000, X }
#define SEABIOS_HT	{ 0xfd00000000ULL, 0x300000000ULL, X }	/* AMD HT hole */
#define SEABIOS_HIGH	SEABIOS_FLASH, SEABIOS_HT

static const struct boot_mmap_entry pc128[] = {
	SEABIOS_LOW,
	{ 0x100000, 0x7ee0000, R }, { 0x7fe0000, 0x20000, X },
	SEABIOS_HIGH,
};

static const struct boot_mmap_entry pc8g[] = {
	SEABIOS_LOW,
	{ 0x100000, 0xbfee0000ULL, R }, { 0xbffe0000ULL, 0x20000, X },
	SEABIOS_FLASH,
	{ 0x100000000ULL, 5ULL << 30, R },
	SEABIOS_HT,
};

static const struct boot_mmap_entry q35_8g[] = {
	SEABIOS_LOW,
	{ 0x100000, 0x7fedf000ULL, R }, { 0x7ffdf000ULL, 0x21000, X },
	{ 0xb0000000ULL, 0x10000000, X }, { 0xfed1c000ULL, 0x4000, X },
	SEABIOS_FLASH,
	{ 0x100000000ULL, 6ULL << 30, R },
	SEABIOS_HT,
};

/* A kernel image at 1 MiB and the loader's structures, as mm_init cuts them. */
static const struct mem_region cuts[] = {
	{ 0x100000, 0x35a123 },
	{ 0x9000, 0x9400 },
};

static bool sane(const struct memmap *m)
{
	unsigned i;

	for (i = 0; i < m->mm_nr; i++) {
		const struct mem_region *r = &m->mm_reg[i];

		if (r->mr_start >= r->mr_end || r->mr_start % PAGE_SIZE || r->mr_end % PAGE_SIZE)
			return false;
		if (r->mr_end > MEMMAP_PHYS_LIMIT)
			return false;
		/* Sorted, disjoint and not touching (touching ones merge). */
		if (i > 0 && m->mm_reg[i - 1].mr_end >= r->mr_start)
			return false;
	}
	return true;
}

static void test_pc128(void)
{
	struct memmap m;
	unsigned w = memmap_sanitize(&m, pc128, ARRAY_SIZE(pc128), 0, 0, 0,
				     cuts, ARRAY_SIZE(cuts));

	CHECK_EQ(w, 0);
	CHECK(sane(&m));
	CHECK_EQ(m.mm_nr, 3);
	CHECK_EQ(m.mm_reg[0].mr_start, 0x1000);
	CHECK_EQ(m.mm_reg[0].mr_end, 0x9000);
	CHECK_EQ(m.mm_reg[1].mr_start, 0xa000);
	CHECK_EQ(m.mm_reg[1].mr_end, 0x9f000);	/* 9fc00 rounds down */
	CHECK_EQ(m.mm_reg[2].mr_start, 0x35b000);	/* kernel end rounds up */
	CHECK_EQ(m.mm_reg[2].mr_end, 0x7fe0000);
}

static void test_pc8g(void)
{
	struct memmap m;
	unsigned w = memmap_sanitize(&m, pc8g, ARRAY_SIZE(pc8g), 0, 0, 0, NULL, 0);

	CHECK_EQ(w, 0);
	CHECK(sane(&m));
	CHECK_EQ(m.mm_nr, 3);
	CHECK_EQ(m.mm_reg[1].mr_start, 0x100000);
	CHECK_EQ(m.mm_reg[1].mr_end, 0xbffe0000ULL);
	CHECK_EQ(m.mm_reg[2].mr_start, 4ULL << 30);
	CHECK_EQ(m.mm_reg[2].mr_end, 9ULL << 30);
	CHECK_EQ(memmap_total(&m) - memmap_total_below(&m, 4ULL << 30), 5ULL << 30);
}

static void test_q35_8g(void)
{
	struct memmap m;
	unsigned w = memmap_sanitize(&m, q35_8g, ARRAY_SIZE(q35_8g), 0, 0, 0, NULL, 0);

	CHECK_EQ(w, 0);
	CHECK(sane(&m));
	CHECK_EQ(m.mm_nr, 3);
	CHECK_EQ(m.mm_reg[1].mr_end, 0x7ffdf000ULL);
	CHECK_EQ(m.mm_reg[2].mr_start, 4ULL << 30);
	CHECK_EQ(m.mm_reg[2].mr_end, 10ULL << 30);
}

/* The same map in reverse order, with a reserved range inside usable RAM. */
static void test_unsorted_overlap(void)
{
	struct boot_mmap_entry e[ARRAY_SIZE(q35_8g) + 2];
	struct memmap m;
	unsigned i, n = ARRAY_SIZE(q35_8g), w;

	for (i = 0; i < n; i++)
		e[i] = q35_8g[n - 1 - i];
	e[n++] = (struct boot_mmap_entry){ 0x2000000, 0x1800, X };	/* ACPI inside RAM */
	e[n++] = (struct boot_mmap_entry){ 0x1000000, 0x3000000, R };	/* usable over usable */
	w = memmap_sanitize(&m, e, n, 0, 0, 0, NULL, 0);
	CHECK(w & MEMMAP_W_UNSORTED);
	CHECK(w & MEMMAP_W_OVERLAP);
	CHECK(sane(&m));
	CHECK_EQ(m.mm_nr, 4);
	CHECK_EQ(m.mm_reg[1].mr_start, 0x100000);
	CHECK_EQ(m.mm_reg[1].mr_end, 0x2000000);
	CHECK_EQ(m.mm_reg[2].mr_start, 0x2002000);	/* the reserved page-and-a-half, rounded out */
	CHECK_EQ(m.mm_reg[2].mr_end, 0x7ffdf000ULL);
}

/* Reserved wins even when it comes first and usable claims it later. */
static void test_reserved_wins(void)
{
	static const struct boot_mmap_entry e[] = {
		{ 0x100000, 0x100000, X },
		{ 0x0, 0x1000000, R },
		{ 0x800000, 0x0, X },
	};
	struct memmap m;
	unsigned w = memmap_sanitize(&m, e, ARRAY_SIZE(e), 0, 0, 0, NULL, 0);

	CHECK(w & MEMMAP_W_OVERLAP);
	CHECK(w & MEMMAP_W_ZERO_LEN);
	CHECK(w & MEMMAP_W_FIXED_HOLE);	/* it claimed 640K..1M usable */
	CHECK(sane(&m));
	CHECK_EQ(m.mm_nr, 2);
	CHECK_EQ(m.mm_reg[0].mr_start, 0x1000);
	CHECK_EQ(m.mm_reg[0].mr_end, 0xa0000);
	CHECK_EQ(m.mm_reg[1].mr_start, 0x200000);
	CHECK_EQ(m.mm_reg[1].mr_end, 0x1000000);
}

static void test_hostile_ranges(void)
{
	static const struct boot_mmap_entry e[] = {
		{ 0x100000, 0x1000000, R },
		{ 0xfffffffffffff000ULL, 0x2000, R },	/* wraps */
		{ 63ULL << 30, 2ULL << 30, R },		/* straddles 64 GiB */
		{ 70ULL << 30, 1ULL << 30, R },		/* wholly above */
		{ 0xf0000000ULL, 0x10000000, R },	/* claims the APIC/flash range */
		{ 0x2000000, 0x0, R },
	};
	struct memmap m;
	unsigned w = memmap_sanitize(&m, e, ARRAY_SIZE(e), 0, 0, 0, NULL, 0);

	CHECK(w & MEMMAP_W_WRAP);
	CHECK(w & MEMMAP_W_ABOVE_LIMIT);
	CHECK(w & MEMMAP_W_ZERO_LEN);
	CHECK(w & MEMMAP_W_FIXED_HOLE);
	CHECK(sane(&m));
	CHECK_EQ(m.mm_nr, 3);
	CHECK_EQ(m.mm_reg[1].mr_start, 0xf0000000ULL);
	CHECK_EQ(m.mm_reg[1].mr_end, 0xfec00000ULL);
	CHECK_EQ(m.mm_reg[2].mr_start, 63ULL << 30);
	CHECK_EQ(m.mm_reg[2].mr_end, 64ULL << 30);
}

static void test_fallback(void)
{
	struct memmap m;
	unsigned w = memmap_sanitize(&m, NULL, 0, 639, 130048, 0, cuts, 1);

	CHECK_EQ(w, MEMMAP_W_FALLBACK);
	CHECK(sane(&m));
	CHECK_EQ(m.mm_nr, 2);
	CHECK_EQ(m.mm_reg[0].mr_start, 0x1000);
	CHECK_EQ(m.mm_reg[0].mr_end, 0x9f000);
	CHECK_EQ(m.mm_reg[1].mr_start, 0x35b000);
	CHECK_EQ(m.mm_reg[1].mr_end, 0x100000 + 130048ULL * 1024);

	w = memmap_sanitize(&m, NULL, 0, 0, 0, 0, NULL, 0);
	CHECK(w & MEMMAP_W_NO_RAM);
	CHECK_EQ(m.mm_nr, 0);
}

static void test_mem_limit(void)
{
	struct memmap m;
	unsigned w;

	w = memmap_sanitize(&m, q35_8g, ARRAY_SIZE(q35_8g), 0, 0, 3ULL << 30, NULL, 0);
	CHECK_EQ(w, MEMMAP_W_MEM_LIMIT);
	CHECK(sane(&m));
	/* The limit counts RAM before the fixed cuts: first page, 9fc00 rounding. */
	CHECK(memmap_total(&m) <= 3ULL << 30);
	CHECK(memmap_total(&m) > (3ULL << 30) - 0x2000);
	CHECK_EQ(m.mm_reg[m.mm_nr - 1].mr_start, 4ULL << 30);

	w = memmap_sanitize(&m, pc128, ARRAY_SIZE(pc128), 0, 0, 32ULL << 20, NULL, 0);
	CHECK_EQ(w, MEMMAP_W_MEM_LIMIT);
	/* 636 KiB below 640K count too (9fc00 rounds down to 9f000). */
	CHECK_EQ(m.mm_reg[m.mm_nr - 1].mr_end, 0x100000 + (32ULL << 20) - 0x9f000);

	/* A limit larger than the RAM changes nothing. */
	w = memmap_sanitize(&m, pc128, ARRAY_SIZE(pc128), 0, 0, 1ULL << 30, NULL, 0);
	CHECK_EQ(w, 0);
}

/* Hundreds of cuts: splits beyond the table size lose memory, never keep a cut. */
static void test_many_cuts(void)
{
	static struct mem_region c[600];
	struct memmap m;
	unsigned i, w;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		c[i].mr_start = 0x1000000 + (u64)i * 0x10000;
		c[i].mr_end = c[i].mr_start + 0x1000;
	}
	w = memmap_sanitize(&m, pc128, ARRAY_SIZE(pc128), 0, 0, 0, c, ARRAY_SIZE(c));
	CHECK(w & MEMMAP_W_TOO_MANY);
	CHECK(sane(&m));
	CHECK(m.mm_nr <= MEMMAP_MAX_REGIONS);
	for (i = 0; i < m.mm_nr; i++) {
		unsigned j;

		for (j = 0; j < ARRAY_SIZE(c); j++)
			CHECK(m.mm_reg[i].mr_end <= c[j].mr_start ||
			      m.mm_reg[i].mr_start >= c[j].mr_end);
	}

	/* More firmware entries than the boot_info table holds are refused, not read. */
	{
		static struct boot_mmap_entry big[BOOT_MAX_MMAP + 1];

		for (i = 0; i < ARRAY_SIZE(big); i++)
			big[i] = (struct boot_mmap_entry){ (u64)(i + 1) << 20, 0x1000, R };
		w = memmap_sanitize(&m, big, ARRAY_SIZE(big), 0, 0, 0, NULL, 0);
		CHECK(w & MEMMAP_W_TOO_MANY);
		CHECK_EQ(m.mm_nr, BOOT_MAX_MMAP);	/* the 129th is never read */
	}
}

static void test_carve(void)
{
	struct memmap m;
	u64 before, a, b;

	memmap_sanitize(&m, pc128, ARRAY_SIZE(pc128), 0, 0, 0, cuts, ARRAY_SIZE(cuts));
	before = memmap_total(&m);
	a = memmap_carve(&m, 3 * 4096 + 1, 2ULL << 20, 16ULL << 20, 64ULL << 20);
	CHECK_EQ(a, (64ULL << 20) - (2ULL << 20));
	CHECK(sane(&m));
	CHECK_EQ(memmap_total(&m), before - 4 * 4096);
	/* The carved range is gone, the rest of the region split around it. */
	CHECK(memmap_total_below(&m, 64ULL << 20) - memmap_total_below(&m, a) == 0x1fc000);

	b = memmap_carve(&m, 4096, 4096, 0, ~0ULL);
	CHECK_EQ(b, 0x7fe0000 - 4096);	/* highest page */
	CHECK_EQ(memmap_carve(&m, 1ULL << 30, 4096, 0, ~0ULL), 0);	/* too big */
	CHECK_EQ(memmap_carve(&m, 4096, 3000, 0, ~0ULL), 0);		/* bad alignment */
	CHECK_EQ(memmap_carve(&m, 4096, 4096, 0, 0x2000), 0x1000);	/* page 0 is never usable */
	CHECK_EQ(memmap_carve(&m, 4096, 4096, 0, 0x2000), 0);
	CHECK(sane(&m));
}

/*
 * Random maps inside 16 MiB, boundaries on 256-byte units, against an
 * oracle: a page is usable iff each unit is covered by a usable entry and
 * by no reserved one, and the page is none of the fixed cuts.
 */
#define UNIT		256
#define SPACE		(16u << 20)
static u8 cover[SPACE / UNIT];	/* bit 0: usable, bit 1: reserved */

static void test_random_oracle(void)
{
	struct boot_mmap_entry e[40];
	struct memmap m;
	unsigned round, i, u, p;

	srand(12345);
	for (round = 0; round < 200; round++) {
		unsigned n = 1 + rand() % 40;

		memset(cover, 0, sizeof(cover));
		for (i = 0; i < n; i++) {
			unsigned s = rand() % (SPACE / UNIT), len = rand() % 4096;

			if (s + len > SPACE / UNIT)
				len = SPACE / UNIT - s;
			e[i].base = (u64)s * UNIT;
			e[i].len = (u64)len * UNIT;
			e[i].type = rand() % 3 ? R : 1 + rand() % 5;
			for (u = s; u < s + len; u++)
				cover[u] |= e[i].type == R ? 1 : 2;
		}
		memmap_sanitize(&m, e, n, 0, 0, 0, NULL, 0);
		CHECK(sane(&m));
		for (p = 0; p < SPACE / PAGE_SIZE; p++) {
			u64 a = (u64)p * PAGE_SIZE;
			bool want = p != 0 && !(a >= 0xa0000 && a < 0x100000);
			bool got = false;

			for (u = 0; u < PAGE_SIZE / UNIT; u++)
				if (cover[p * (PAGE_SIZE / UNIT) + u] != 1)
					want = false;
			for (i = 0; i < m.mm_nr; i++)
				if (a >= m.mm_reg[i].mr_start && a < m.mm_reg[i].mr_end)
					got = true;
			if (got != want) {
				CHECK(got == want);
				return;
			}
		}
	}
}

/*
 * A GRUB EFI style map: fragmented, with types 3 (ACPI reclaimable),
 * 4 (ACPI NVS) and 20 (GRUB_MEMORY_CODE) between usable runs.  Only type 1
 * is usable; touching usable runs merge.
 */
static void test_efi_fragmented(void)
{
	static const struct boot_mmap_entry e[] = {
		{ 0x0, 0xa0000, R },
		{ 0x100000, 0x700000, R },
		{ 0x800000, 0x8000, 4 },
		{ 0x808000, 0x8000, R },
		{ 0x810000, 0xf0000, 4 },
		{ 0x900000, 0x3e000000, R },
		{ 0x3e900000, 0x200000, 20 },
		{ 0x3eb00000, 0x100000, R },
		{ 0x3ec00000, 0x100000, R },	/* touches the previous one */
		{ 0x3ed00000, 0x80000, 3 },
		{ 0x3ed80000, 0x1280000, R },
		{ 0xffc00000ULL, 0x400000, X },
	};
	struct memmap m;
	unsigned w = memmap_sanitize(&m, e, ARRAY_SIZE(e), 0, 0, 0, NULL, 0);

	CHECK_EQ(w, 0);
	CHECK(sane(&m));
	CHECK_EQ(m.mm_nr, 6);
	CHECK_EQ(m.mm_reg[2].mr_start, 0x808000);
	CHECK_EQ(m.mm_reg[2].mr_end, 0x810000);
	CHECK_EQ(m.mm_reg[4].mr_start, 0x3eb00000);
	CHECK_EQ(m.mm_reg[4].mr_end, 0x3ed00000);
	CHECK_EQ(m.mm_reg[5].mr_end, 0x40000000);
}

static const struct unit_case cases[] = {
	{ "grub_efi_fragmented", test_efi_fragmented },
	{ "qemu_pc_128m", test_pc128 },
	{ "qemu_pc_8g", test_pc8g },
	{ "qemu_q35_8g", test_q35_8g },
	{ "unsorted_overlap", test_unsorted_overlap },
	{ "reserved_wins", test_reserved_wins },
	{ "hostile_ranges", test_hostile_ranges },
	{ "fallback_mem_lower_upper", test_fallback },
	{ "mem_limit", test_mem_limit },
	{ "many_cuts", test_many_cuts },
	{ "carve", test_carve },
	{ "random_vs_oracle", test_random_oracle },
};

UNIT_MAIN("mm/memmap", cases)
