/*
 * The kernel self-test of the registry (block/diag/genhd_selftest.c, included
 * here) run on the host, so it is known to pass before it meets QEMU.
 */
#include <stdarg.h>
#include "block/diag/genhd_selftest.c"
#include "tests/unit/unit.h"
#include "tests/unit/fakes/fakes.h"

int st_fail(const char *fmt, ...)
{
	char why[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	unit_fail(__FILE__, __LINE__, "st_fail: %s", why);
	return -1;
}

static void test_ramdisk(void)
{
	CHECK_EQ(bio_init_pools(), 0);		/* an initcall in the kernel */
	CHECK_EQ(st_genhd_ramdisk(), 0);
	CHECK_EQ(host_slab_live_drained(), 0);
}

static const struct unit_case cases[] = {
	{ "ramdisk", test_ramdisk },
};

UNIT_MAIN("block/genhd_selftest", cases)
