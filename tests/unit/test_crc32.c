/* Host tests for lib/crc32.c: the table, published check values, chaining. */
#include "tests/unit/unit.h"
#include "lib/crc32.h"

static void test_table(void)
{
	unsigned int i;

	for (i = 0; i < 256; i++)
		if (crc32_table_entry(i) != crc32_bitwise_entry(i))
			unit_fail(__FILE__, __LINE__, "table[%u] == %#x, expected %#x", i,
				  crc32_table_entry(i), crc32_bitwise_entry(i));
}

/* Check values from the CRC catalogue (CRC-32/ISO-HDLC) and zlib. */
static void test_vectors(void)
{
	static const u8 zeros[32];
	static const u8 ones[32] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	};

	CHECK_EQ(crc32(0, "123456789", 9), 0xCBF43926u);
	CHECK_EQ(crc32(0, NULL, 0), 0);
	CHECK_EQ(crc32(0, "a", 1), 0xE8B7BE43u);
	CHECK_EQ(crc32(0, "abc", 3), 0x352441C2u);
	CHECK_EQ(crc32(0, "The quick brown fox jumps over the lazy dog", 43), 0x414FA339u);
	/* 32 zero and 32 0xFF bytes, as zlib.crc32 computes them. */
	CHECK_EQ(crc32(0, zeros, 32), 0x190A55ADu);
	CHECK_EQ(crc32(0, ones, 32), 0xFF6CAB0Bu);
}

static void test_chaining(void)
{
	const char *s = "The quick brown fox jumps over the lazy dog";
	size_t cut;

	for (cut = 0; cut <= 43; cut++)
		CHECK_EQ(crc32(crc32(0, s, cut), s + cut, 43 - cut), 0x414FA339u);
}

static const struct unit_case cases[] = {
	{ "table", test_table },
	{ "vectors", test_vectors },
	{ "chaining", test_chaining },
};

UNIT_MAIN("lib/crc32", cases)
