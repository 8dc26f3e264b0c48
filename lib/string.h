/*
 * String and memory functions.  The standard ones (lib/string.c) are the
 * kernel's own; host builds take them from the C library instead, with
 * the same prototypes.  The extras (lib/strutil.c) build in both.
 */
#ifndef LIB_STRING_H
#define LIB_STRING_H

#include "kernel/types.h"

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *hay, const char *needle);

/* Copy at most size-1 bytes and always terminate; returns strlen(src). */
size_t str_copy(char *dst, const char *src, size_t size);
/* Does s start with prefix? */
bool str_starts(const char *s, const char *prefix);
/* Case-insensitive ASCII compare. */
int str_casecmp(const char *a, const char *b);
/* Glob match with '*' and '?'; used by selftest=PATTERN and the shell. */
bool str_glob(const char *pattern, const char *s);

/*
 * Parse an unsigned number: decimal, 0x hex, or 0 octal-free decimal; with
 * allow_suffix, K/M/G/T (binary) may follow.  Returns 0 or -EINVAL/-ERANGE.
 */
int str_to_u64(const char *s, u64 *out, bool allow_suffix);
int str_to_s64(const char *s, s64 *out);

/* snprintf family: lib/vsprintf.c.  %d %i %u %x %X %o %c %s %p %%, with
 * flags '-' '0' '+' ' ', width and precision (also '*'), length modifiers
 * hh h l ll z t j.  Returns the length the full output would have had. */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
