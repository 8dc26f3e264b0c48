/*
 * Host tests for fs/ext2/htree_hash.c: the six htree hash versions against
 * values printed by e2fsprogs' `debugfs -R "dx_hash -h V -s SEED NAME"`
 * (1.47.0), with a name holding bytes above 0x7f (where the signed and
 * unsigned variants differ), one longer than an MD4 chunk, and the zero
 * seed (which means the MD4 initial values).
 */
#include "tests/unit/unit.h"
#include "fs/ext2/ext2.h"
#include "fs/ext2/htree_fs.h"

/* 0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0 as s_hash_seed holds it (le32 words) */
static const u32 seed[4] = { 0x3c2d1e0f, 0x78695a4b, 0xb4a59687, 0xf0e1d2c3 };
static const u32 no_seed[4];

static const char *const names[] = {
	"a", "name-number-17", "h\xe9llo\xff",
	"a-name-that-is-longer-than-thirty-two-bytes-for-md4-chunks",
};

/* debugfs dx_hash -h VERSION -s <seed above> NAME, per version and name */
static const u32 want[6][4] = {
	{ 0xe74b53e2, 0x8685264c, 0xbdbc7c5e, 0x79612608 },	/* legacy */
	{ 0x3e64fde2, 0x81e41ddc, 0x529a7c60, 0x6646f598 },	/* half_md4 */
	{ 0xa9217068, 0x30fbb8ce, 0x506ce70a, 0xca97a7c6 },	/* tea */
	{ 0xe74b53e2, 0x8685264c, 0x729c6054, 0x79612608 },	/* legacy, unsigned */
	{ 0x3e64fde2, 0x81e41ddc, 0x00074d30, 0x6646f598 },	/* half_md4, unsigned */
	{ 0xa9217068, 0x30fbb8ce, 0x626714a8, 0xca97a7c6 },	/* tea, unsigned */
};

static void test_versions(void)
{
	unsigned v, i;

	for (v = 0; v < 6; v++)
		for (i = 0; i < 4; i++)
			CHECK_EQ(ext2_dx_hash(v, seed, names[i], strlen(names[i])), want[v][i]);
}

/* debugfs dx_hash -h 1 a (no seed) */
static void test_zero_seed(void)
{
	CHECK_EQ(ext2_dx_hash(DX_HASH_HALF_MD4, no_seed, "a", 1), 0xd5fa7d7au);
}

static void test_unknown_version(void)
{
	CHECK_EQ(ext2_dx_hash(DX_HASH_SIPHASH, seed, "a", 1), 0u);
	CHECK_EQ(ext2_dx_hash(42, seed, "a", 1), 0u);
}

static const struct unit_case cases[] = {
	{ "versions", test_versions },
	{ "zero_seed", test_zero_seed },
	{ "unknown_version", test_unknown_version },
};

UNIT_MAIN("fs/htree_hash", cases)
