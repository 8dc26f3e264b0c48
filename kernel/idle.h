/*
 * The idle halt: how a CPU with nothing to do waits for an interrupt.
 */
#ifndef KERNEL_IDLE_H
#define KERNEL_IDLE_H

#include "kernel/compiler.h"

/*
 * Wait for an interrupt.  Called with interrupts off, after the caller
 * has checked the condition it waits on (so an interrupt that changes it
 * cannot be missed); returns with interrupts on, once an interrupt has
 * been taken or on a spurious wake-up: callers check again.  Not from
 * interrupt context.
 */
void idle_halt(void);

/* Is the CPU spinning in idle_halt() (for the profiler's tick)? */
bool idle_polling(void);

#endif
