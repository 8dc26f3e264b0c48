/*
 * A sampling profiler.  While `profile CMD` runs CMD, every timer tick
 * records the address it interrupted; afterwards the samples are grouped
 * by function (through the kernel's symbol table) and the busiest
 * functions are printed.  Ticks that land in the idle halt count as
 * idle, so the report also says how much of the time the CPU waited
 * for devices.
 */
#ifndef KERNEL_PROFILE_H
#define KERNEL_PROFILE_H

#include "kernel/types.h"

/* Called by the tick with the interrupted instruction pointer. */
void profile_tick(u32 pc);

/* Start sampling into a fresh buffer.  0, or -ENOMEM. */
int profile_start(void);
/* Stop sampling, print the busiest functions, free the buffer. */
void profile_stop(void);

#endif
