/*
 * Completions: the one way to wait.  There are no processes: a waiter
 * halts the CPU until an interrupt changes the state it waits on, running
 * deferred work (kernel/work.h) in between.  complete() is safe from
 * interrupt context.
 */
#ifndef KERNEL_COMPLETION_H
#define KERNEL_COMPLETION_H

#include "kernel/compiler.h"

struct completion {
	volatile unsigned	c_done;
};

static inline void init_completion(struct completion *c) { c->c_done = 0; }
static inline bool completion_done(const struct completion *c) { return c->c_done != 0; }
void complete(struct completion *c);
void wait_for_completion(struct completion *c);
/* Returns 0, or -ETIMEDOUT after timeout_ms milliseconds. */
int wait_for_completion_timeout(struct completion *c, u32 timeout_ms);

/*
 * Halt until the next interrupt, after running deferred work.  The wait
 * loop behind completions; also for code that polls a condition that an
 * interrupt changes.
 */
void cpu_idle_once(void);

#endif
