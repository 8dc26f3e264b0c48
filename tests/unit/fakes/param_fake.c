/*
 * Host fake of the kernel's parameter setters (kernel/cmdline.c), for unit
 * tests of code that registers a command-line parameter: the registration
 * lands in a section nobody reads on the host, but the setter it names
 * must link.  Tests set the variable directly instead.
 */
#include "kernel/param.h"
#include "kernel/errno.h"

int param_set_str(const char *val, void *arg)
{
	if (!val)
		return -EINVAL;
	*(const char **)arg = val;
	return 0;
}
