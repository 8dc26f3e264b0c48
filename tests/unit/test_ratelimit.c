/*
 * Host tests for kernel/ratelimit.c: a burst per window, nothing more
 * until the window has run out, then a line that counts what was held
 * back; and limiters that do not share their windows.
 */
#include "tests/unit/unit.h"
#include "tests/unit/host/shim.h"
#include "kernel/ratelimit.h"
#include "kernel/time.h"

static void advance_ms(u64 ms) { host_now_ns += ms * NSEC_PER_MSEC; }

static void test_burst_then_count(void)
{
	struct ratelimit rl;
	int i;

	host_now_ns = 7 * NSEC_PER_SEC;
	ratelimit_init(&rl, 5000, 10);
	for (i = 0; i < 10; i++)
		CHECK(ratelimit_ok(&rl, "sda"));
	for (i = 0; i < 5; i++)
		CHECK(!ratelimit_ok(&rl, "sda"));
	advance_ms(4999);
	CHECK(!ratelimit_ok(&rl, "sda"));
	host_printk_last[0] = 0;
	advance_ms(1);
	CHECK(ratelimit_ok(&rl, "sda"));
	CHECK(strstr(host_printk_last, "sda: 6 messages suppressed") != NULL);
	/* A window that dropped nothing says nothing. */
	host_printk_last[0] = 0;
	advance_ms(5000);
	CHECK(ratelimit_ok(&rl, "sda"));
	CHECK_STR(host_printk_last, "");
}

static void test_independent(void)
{
	struct ratelimit a, b;
	int i;

	host_now_ns = 0;		/* a clock that starts at zero */
	ratelimit_init(&a, 1000, 2);
	ratelimit_init(&b, 1000, 2);
	CHECK(ratelimit_ok(&a, "a") && ratelimit_ok(&a, "a"));
	CHECK(!ratelimit_ok(&a, "a"));
	for (i = 0; i < 2; i++)
		CHECK(ratelimit_ok(&b, "b"));
	CHECK(!ratelimit_ok(&b, "b"));
}

static const struct unit_case cases[] = {
	{ "burst_then_count", test_burst_then_count },
	{ "independent", test_independent },
};

UNIT_MAIN("ratelimit", cases)
