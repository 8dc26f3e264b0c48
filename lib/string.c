/*
 * The C library's memory and string functions, for the kernel only (host
 * builds use their libc).  The compiler also emits calls to memcpy,
 * memset, memmove and memcmp on its own, for struct copies and the like.
 * Plain loops with rep movs/stos for the bulk: short, and fast enough that
 * the block layer never copies data on its hot path anyway.
 */
#include "lib/string.h"

void *memcpy(void *dst, const void *src, size_t n)
{
	void *d = dst;
	size_t words = n >> 2;

	__asm__ __volatile__("rep movsl" : "+D"(d), "+S"(src), "+c"(words) :: "memory");
	n &= 3;
	__asm__ __volatile__("rep movsb" : "+D"(d), "+S"(src), "+c"(n) :: "memory");
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	/* Overlap with dst above src: copy backwards. */
	while (n--)
		d[n] = s[n];
	return dst;
}

/* Words, then the tail: a string instruction costs per iteration under emulation. */
void *memset(void *dst, int c, size_t n)
{
	void *d = dst;
	size_t words = n >> 2;
	u32 v = (u8)c * 0x01010101u;

	__asm__ __volatile__("rep stosl" : "+D"(d), "+c"(words) : "a"(v) : "memory");
	n &= 3;
	__asm__ __volatile__("rep stosb" : "+D"(d), "+c"(n) : "a"(v) : "memory");
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			break;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

char *strstr(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (strncmp(hay, needle, n) == 0)
			return (char *)hay;
	return n ? NULL : (char *)hay;
}
