/* Host tests for lib/crc32c.c: the table, RFC 3720 vectors, chaining. */
#include "tests/unit/unit.h"
#include "lib/crc32c.h"

static void test_table(void)
{
	unsigned int i;

	for (i = 0; i < 256; i++)
		if (crc32c_table_entry(i) != crc32c_bitwise_entry(i))
			unit_fail(__FILE__, __LINE__, "table[%u] == %#x, expected %#x", i,
				  crc32c_table_entry(i), crc32c_bitwise_entry(i));
}

/* The check value (CRC-32/ISCSI) and RFC 3720 B.4, finished with ^ ~0. */
static void test_vectors(void)
{
	u8 zeros[32] = { 0 }, ones[32], inc[32];
	unsigned int i;

	for (i = 0; i < 32; i++) {
		ones[i] = 0xff;
		inc[i] = (u8)i;
	}
	CHECK_EQ(crc32c(~0u, "123456789", 9) ^ ~0u, 0xE3069283u);
	CHECK_EQ(crc32c(~0u, NULL, 0), ~0u);
	CHECK_EQ(crc32c(~0u, "a", 1) ^ ~0u, 0xC1D04330u);
	CHECK_EQ(crc32c(~0u, zeros, 32) ^ ~0u, 0x8A9136AAu);
	CHECK_EQ(crc32c(~0u, ones, 32) ^ ~0u, 0x62A8AB43u);
	CHECK_EQ(crc32c(~0u, inc, 32) ^ ~0u, 0x46DD794Eu);
}

static void test_chaining(void)
{
	const char *s = "The quick brown fox jumps over the lazy dog";
	size_t cut;

	for (cut = 0; cut <= 43; cut++)
		CHECK_EQ(crc32c(crc32c(~0u, s, cut), s + cut, 43 - cut) ^ ~0u, 0x22620404u);
}

static const struct unit_case cases[] = {
	{ "table", test_table },
	{ "vectors", test_vectors },
	{ "chaining", test_chaining },
};

UNIT_MAIN("lib/crc32c", cases)
