/*
 * lib/vsprintf.c against the host C library: every format in a table is
 * rendered by both and must agree, including truncation and return values.
 */
#include <stdio.h>
#include <stdarg.h>
#include <stdint.h>
#include "tests/unit/unit.h"

int k_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int k_snprintf(char *buf, size_t size, const char *fmt, ...);

#define SAME(...) do { \
	char a[128], b[128]; \
	int na = k_snprintf(a, sizeof(a), __VA_ARGS__); \
	int nb = snprintf(b, sizeof(b), __VA_ARGS__); \
	if (na != nb || strcmp(a, b) != 0) \
		unit_fail(__FILE__, __LINE__, "%s: got \"%s\" (%d), libc \"%s\" (%d)", \
			  #__VA_ARGS__, a, na, b, nb); \
} while (0)

static void test_integers(void)
{
	SAME("%d %i %u", -42, 17, 3000000000u);
	SAME("%5d|%-5d|%05d", 42, 42, 42);
	SAME("%+d % d %+d", 5, 5, -5);
	SAME("%x %X %#x %#X %o", 0xbeefu, 0xbeefu, 0x1fu, 0x1fu, 8u);
	SAME("%08x", 0xabcu);
	SAME("%lld %llu %llx", -9223372036854775807LL - 1, 18446744073709551615ULL, 0x123456789abcdefULL);
	SAME("%ld %lu %zu %zd", -1L, 4000000000UL, (size_t)12345, (ssize_t)-3);
	SAME("%hhd %hd %hhu", 300, 70000, 257);
	SAME("%.3d|%8.3d|%-8.3d|%.0d", 7, 7, 7, 0);
	SAME("%*d|%-*d|%.*d", 6, 1, 6, 1, 4, 2);
	SAME("%d", 0);
	SAME("%#x %#o", 0u, 0u);
}

static void test_strings(void)
{
	SAME("%s|%10s|%-10s|%.2s", "abc", "abc", "abc", "abc");
	SAME("%c%c%3c%-3c|", 'a', 'b', 'c', 'd');
	SAME("100%%");
}

static void test_pointer(void)
{
	char a[32];

	k_snprintf(a, sizeof(a), "%p", (void *)0x1234);
	CHECK_STR(a, "0x1234");
}

static void test_truncation(void)
{
	char b[8];

	CHECK_EQ(k_snprintf(b, sizeof(b), "%s", "0123456789"), 10);
	CHECK_STR(b, "0123456");
	CHECK_EQ(k_snprintf(b, 1, "%d", 12345), 5);
	CHECK_STR(b, "");
	CHECK_EQ(k_snprintf(NULL, 0, "%d", 12345), 5);
}

static const struct unit_case cases[] = {
	{ "integers", test_integers },
	{ "strings", test_strings },
	{ "pointer", test_pointer },
	{ "truncation", test_truncation },
};

UNIT_MAIN("lib/vsprintf", cases)
