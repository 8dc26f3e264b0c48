/*
 * The self-test runner: selftest=PATTERN at boot (then the run ends with
 * the verdict) or the selftest shell command.  Tests come from the
 * .selftests section, in link order; each line of output is TAP-like so
 * that tests/run can count it.
 */
#include "kernel/selftest.h"
#include "kernel/console.h"
#include "kernel/printk.h"
#include "kernel/param.h"
#include "kernel/time.h"
#include "kernel/errno.h"
#include "lib/string.h"


static char fail_reason[200];

const char *selftest_pattern;
PARAM_STR("selftest", selftest_pattern, "run the self-tests matching this glob, then stop");

int st_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fail_reason, sizeof(fail_reason), fmt, ap);
	va_end(ap);
	return -1;
}

int selftest_run(const char *pattern)
{
	const struct selftest *t;
	int n = 0, failed = 0;

	for (t = __selftests_start; t < __selftests_end; t++) {
		u64 t0;
		int r;

		if (!str_glob(pattern, t->st_name))
			continue;
		n++;
		fail_reason[0] = '\0';
		t0 = ktime_ms();
		r = t->st_fn();
		if (r == 0) {
			kprintf("ok %d - %s # %llu ms\n", n, t->st_name,
				(unsigned long long)(ktime_ms() - t0));
		} else {
			failed++;
			kprintf("not ok %d - %s # %s\n", n, t->st_name,
				fail_reason[0] ? fail_reason : "failed");
		}
	}
	if (n == 0)
		kprintf("not ok 1 - selftest # no test matches \"%s\"\n", pattern);
	kprintf("selftest: %d passed, %d failed\n", n - failed, n ? failed : 1);
	return n ? failed : 1;
}
