/*
 * Host fake of wallclock_unix() (kernel/time.h) for code that stamps
 * times: returns host_wallclock, which tests may set (wallclock_fake.h).
 */
#include "kernel/time.h"
#include "tests/unit/fakes/wallclock_fake.h"

u64 host_wallclock = 1700000000;	/* 2023-11-14, the oracle images' time */

u32 host_wallclock_ns;			/* and nanoseconds into that second */

u64 wallclock_unix(void)
{
	return host_wallclock;
}

u64 wallclock_unix_ns(void)
{
	return host_wallclock * NSEC_PER_SEC + host_wallclock_ns;
}
