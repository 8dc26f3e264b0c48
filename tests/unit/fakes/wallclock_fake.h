/* Controls of the host fake of wallclock_unix() (wallclock_fake.c). */
#ifndef TESTS_UNIT_FAKES_WALLCLOCK_FAKE_H
#define TESTS_UNIT_FAKES_WALLCLOCK_FAKE_H

#include "kernel/types.h"

extern u64 host_wallclock;	/* seconds since 1970 that wallclock_unix() returns */
extern u32 host_wallclock_ns;	/* nanoseconds past it, for wallclock_unix_ns() */

#endif
