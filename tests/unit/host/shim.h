/* Controls for the host stand-ins of kernel services (kernel_shim.c). */
#ifndef TESTS_UNIT_HOST_SHIM_H
#define TESTS_UNIT_HOST_SHIM_H

#include "kernel/types.h"

extern bool host_printk_quiet;	/* default true: printk output dropped */
extern char host_printk_last[512];	/* what the last printk said, quiet or not */
extern u64 host_now_ns;		/* what ktime_ns() returns; tests advance it */

#endif
