/*
 * Host side of the unit-test harness: runs a table of cases and prints one
 * TAP-like line per case.  Exit status is 1 if any case failed.
 */
#include <stdarg.h>
#include "tests/unit/unit.h"

int unit_failed;
char unit_reason[256];

void unit_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	char msg[200];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (unit_failed++ == 0)
		snprintf(unit_reason, sizeof(unit_reason), "%s:%d: %s", file, line, msg);
	fprintf(stderr, "  check failed: %s:%d: %s\n", file, line, msg);
}

int unit_run(const char *suite, const struct unit_case *cases, int n)
{
	int i, bad = 0;

	for (i = 0; i < n; i++) {
		unit_failed = 0;
		unit_reason[0] = '\0';
		cases[i].fn();
		if (unit_failed) {
			bad++;
			printf("not ok %d - %s/%s # %s\n", i + 1, suite, cases[i].name, unit_reason);
		} else {
			printf("ok %d - %s/%s\n", i + 1, suite, cases[i].name);
		}
		fflush(stdout);
	}
	return bad ? 1 : 0;
}
