/*
 * Host fake of the kernel's boolean, unsigned and size parameter setters
 * (kernel/cmdline.c), for unit tests of code that registers such a
 * parameter: the registration lands in a section nobody reads on the
 * host, but the setters it names must link.  Tests set the variables (or
 * the softc fields they feed) directly.
 */
#include "kernel/param.h"
#include "kernel/errno.h"

int param_set_bool(const char *val, void *arg)
{
	*(bool *)arg = true;
	return val && val[0] == '0' ? (*(bool *)arg = false, 0) : 0;
}

int param_set_uint(const char *val, void *arg)
{
	unsigned v = 0;

	if (!val || !*val)
		return -EINVAL;
	for (; *val; val++) {
		if (*val < '0' || *val > '9')
			return -EINVAL;
		v = v * 10 + (unsigned)(*val - '0');
	}
	*(unsigned *)arg = v;
	return 0;
}

/* Plain bytes only (no K/M/G/T suffix): enough for a test to link. */
int param_set_size(const char *val, void *arg)
{
	u64 v = 0;

	if (!val || !*val)
		return -EINVAL;
	for (; *val; val++) {
		if (*val < '0' || *val > '9')
			return -EINVAL;
		v = v * 10 + (u64)(*val - '0');
	}
	*(u64 *)arg = v;
	return 0;
}
