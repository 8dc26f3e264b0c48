/* Host tests for lib/strutil.c and lib/errstr.c. */
#include "tests/unit/unit.h"
#include "lib/string.h"
#include "kernel/errno.h"

static void test_copy(void)
{
	char b[4];

	CHECK_EQ(str_copy(b, "abcdef", sizeof(b)), 6);
	CHECK_STR(b, "abc");
	CHECK_EQ(str_copy(b, "", sizeof(b)), 0);
	CHECK_STR(b, "");
}

static void test_glob(void)
{
	CHECK(str_glob("*", ""));
	CHECK(str_glob("mm/*", "mm/buddy/all"));
	CHECK(str_glob("*/tsc*", "kernel/timer/tsc_vs_pit"));
	CHECK(str_glob("a?c", "abc"));
	CHECK(!str_glob("a?c", "ac"));
	CHECK(!str_glob("block/*", "mm/x"));
	CHECK(str_glob("*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaab"));
	CHECK(!str_glob("*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaa"));
}

static void test_numbers(void)
{
	u64 v;
	s64 s;

	CHECK_EQ(str_to_u64("123", &v, false), 0);
	CHECK_EQ(v, 123);
	CHECK_EQ(str_to_u64("0x1F", &v, false), 0);
	CHECK_EQ(v, 31);
	CHECK_EQ(str_to_u64("64M", &v, true), 0);
	CHECK_EQ(v, 64ULL << 20);
	CHECK_EQ(str_to_u64("3T", &v, true), 0);
	CHECK_EQ(v, 3ULL << 40);
	CHECK_EQ(str_to_u64("4KiB", &v, true), 0);
	CHECK_EQ(v, 4096);
	CHECK_EQ(str_to_u64("64M", &v, false), -EINVAL);
	CHECK_EQ(str_to_u64("", &v, false), -EINVAL);
	CHECK_EQ(str_to_u64("0x", &v, false), -EINVAL);
	CHECK_EQ(str_to_u64("12x", &v, true), -EINVAL);
	CHECK_EQ(str_to_u64("18446744073709551615", &v, false), 0);
	CHECK(v == ~0ULL);
	CHECK_EQ(str_to_u64("18446744073709551616", &v, false), -ERANGE);
	CHECK_EQ(str_to_u64("16777216T", &v, true), -ERANGE);
	CHECK_EQ(str_to_s64("-42", &s), 0);
	CHECK_EQ(s, -42);
	CHECK_EQ(str_to_s64("-9223372036854775808", &s), 0);
	CHECK(s == INT64_MIN);
	CHECK_EQ(str_to_s64("9223372036854775808", &s), -ERANGE);
}

static void test_errstr(void)
{
	CHECK_STR(errstr(-EIO), "I/O error");
	CHECK_STR(errstr(EROFS), "read-only file system");
	CHECK_STR(errstr(-9999), "unknown error");
}

static const struct unit_case cases[] = {
	{ "copy", test_copy },
	{ "glob", test_glob },
	{ "numbers", test_numbers },
	{ "errstr", test_errstr },
};

UNIT_MAIN("lib/strutil", cases)
