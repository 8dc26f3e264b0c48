/*
 * A small host unit-test harness.  A test file defines its cases in a
 * table and ends with UNIT_MAIN(cases); CHECK() records a failure and
 * carries on, so one run reports every broken case.  Output is the same
 * TAP-like form the kernel's self-tests use, which tests/run counts:
 *
 *	ok 1 - partitions/msdos_basic
 *	not ok 2 - partitions/ebr_loop # test_msdos.c:88: n == 3
 */
#ifndef TESTS_UNIT_UNIT_H
#define TESTS_UNIT_UNIT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct unit_case {
	const char	*name;
	void		(*fn)(void);
};

extern int unit_failed;		/* checks failed in the running case */
extern char unit_reason[256];	/* the first failed check of the case */

void unit_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int unit_run(const char *suite, const struct unit_case *cases, int n);

#define CHECK(cond) \
	do { if (!(cond)) unit_fail(__FILE__, __LINE__, "%s", #cond); } while (0)

#define CHECK_EQ(a, b) \
	do { long long __a = (long long)(a), __b = (long long)(b); \
	     if (__a != __b) unit_fail(__FILE__, __LINE__, "%s == %lld, expected %lld", \
				       #a, __a, __b); } while (0)

#define CHECK_STR(a, b) \
	do { const char *__a = (a), *__b = (b); \
	     if (strcmp(__a, __b) != 0) unit_fail(__FILE__, __LINE__, "%s == \"%s\", expected \"%s\"", \
						  #a, __a, __b); } while (0)

#define UNIT_MAIN(suite, cases) \
	int main(void) { return unit_run(suite, cases, (int)(sizeof(cases) / sizeof(cases[0]))); }

#endif
