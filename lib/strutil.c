/*
 * String helpers beyond the C standard ones: bounded copy, prefix test,
 * glob matching, and number parsing with size suffixes.  Portable: built
 * into the kernel and into host tests alike.
 */
#include "lib/string.h"
#include "kernel/errno.h"

size_t str_copy(char *dst, const char *src, size_t size)
{
	size_t n = strlen(src);

	if (size) {
		size_t k = n < size - 1 ? n : size - 1;

		memcpy(dst, src, k);
		dst[k] = '\0';
	}
	return n;
}

bool str_starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

int str_casecmp(const char *a, const char *b)
{
	while (*a && lower(*a) == lower(*b)) {
		a++;
		b++;
	}
	return lower((unsigned char)*a) - lower((unsigned char)*b);
}

/*
 * Iterative glob with single-star backtracking: O(len(p) * len(s)) at
 * worst, no recursion, so a hostile pattern cannot exhaust the stack.
 */
bool str_glob(const char *p, const char *s)
{
	const char *star = NULL, *resume = NULL;

	while (*s) {
		if (*p == '*') {
			star = p++;
			resume = s;
		} else if (*p == '?' || *p == *s) {
			p++;
			s++;
		} else if (star) {
			p = star + 1;
			s = ++resume;
		} else {
			return false;
		}
	}
	while (*p == '*')
		p++;
	return *p == '\0';
}

static int digit_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = lower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int str_to_u64(const char *s, u64 *out, bool allow_suffix)
{
	unsigned base = 10, shift = 0;
	u64 v = 0;
	int d, ndigits = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	for (; (d = digit_value(*s)) >= 0 && (unsigned)d < base; s++, ndigits++) {
		if (v > (~0ULL - (u64)d) / base)
			return -ERANGE;
		v = v * base + (u64)d;
	}
	if (ndigits == 0)
		return -EINVAL;
	if (allow_suffix && *s) {
		switch (lower(*s)) {
		case 'k': shift = 10; break;
		case 'm': shift = 20; break;
		case 'g': shift = 30; break;
		case 't': shift = 40; break;
		default: return -EINVAL;
		}
		s++;
		if (lower(*s) == 'i' && lower(s[1]) == 'b')	/* "MiB" */
			s += 2;
		else if (lower(*s) == 'b')			/* "MB" means MiB here */
			s++;
		if (v > (~0ULL >> shift))
			return -ERANGE;
		v <<= shift;
	}
	if (*s)
		return -EINVAL;
	*out = v;
	return 0;
}

int str_to_s64(const char *s, s64 *out)
{
	bool neg = false;
	u64 v;
	int err;

	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	err = str_to_u64(s, &v, false);
	if (err)
		return err;
	if (v > (u64)INT64_MAX + neg)
		return -ERANGE;
	*out = neg ? (s64)(0 - v) : (s64)v;
	return 0;
}
