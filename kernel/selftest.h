/*
 * In-kernel self-tests.  A test registers under a name "subsystem/what"
 * and returns 0 for pass or a negative number for fail, after saying why
 * with st_fail() (or through the ST_ macros).  selftest=PATTERN on the
 * command line runs the tests whose names match the glob at boot and ends
 * the run; the output is TAP-like:
 *
 *	ok 3 - kernel/timer/tsc_vs_pit
 *	not ok 4 - mm/buddy/all_pages # zone Normal: 12 pages missing
 *	selftest: 3 passed, 1 failed
 */
#ifndef KERNEL_SELFTEST_H
#define KERNEL_SELFTEST_H

#include "kernel/compiler.h"

struct selftest {
	const char	*st_name;
	int		(*st_fn)(void);
};

#define SELFTEST(name, fn) \
	static const struct selftest __selftest_##fn __used \
	__section(".selftests") = { name, fn }

/* Record the reason the running test fails; returns -1 for "return st_fail(...)". */
int st_fail(const char *fmt, ...) __printf(1, 2);

#define ST_ASSERT(cond) \
	do { if (!(cond)) \
		return st_fail("%s:%d: %s", __FILE__, __LINE__, #cond); } while (0)

#define ST_EQ(a, b) \
	do { long long __a = (long long)(a), __b = (long long)(b); \
	     if (__a != __b) \
		return st_fail("%s:%d: %s == %lld, expected %lld", \
			       __FILE__, __LINE__, #a, __a, __b); } while (0)

/* Run matching tests; returns the number that failed. */
int selftest_run(const char *pattern);
/* Every registered self-test, as the linker gathered them. */
extern const struct selftest __selftests_start[], __selftests_end[];

/*
 * For tests that expect a CPU exception (a write to kernel text, a NULL
 * dereference, a jump into the heap): run fn(arg); if it raises an
 * exception, the trap handler unwinds to here instead of panicking.
 * Returns the vector (14 for a page fault), or -1 if fn returned normally.
 * *cr2 gets the faulting address of a page fault (may be NULL).
 */
int selftest_catch_fault(void (*fn)(void *), void *arg, u32 *cr2);

#endif
