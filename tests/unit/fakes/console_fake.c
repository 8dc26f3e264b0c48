/*
 * Host fake of the console output of kernel/console.h: kprintf, which the
 * shell commands use for their output, written to host_console (stdout by
 * default) so tests can capture and compare it.
 */
#include <stdarg.h>
#include "kernel/console.h"
#include "tests/unit/fakes/console_fake.h"

FILE *host_console;

int kprintf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfprintf(host_console ? host_console : stdout, fmt, ap);
	va_end(ap);
	return n;
}
