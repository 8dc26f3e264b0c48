/*
 * Completions: the one way to wait.  There are no processes: a waiter
 * halts its CPU until an interrupt or another CPU changes the state it
 * waits on, running its CPU's deferred work (kernel/work.h) in between.
 * complete() is safe from interrupt context and from any CPU.
 */
#ifndef KERNEL_COMPLETION_H
#define KERNEL_COMPLETION_H

#include "kernel/compiler.h"

/* One word (kernel/completion.c): 0, done, or the CPU that waits. [a] */
struct completion {
	u32	c_state;
};

static inline void init_completion(struct completion *c) { c->c_state = 0; }
static inline bool completion_done(const struct completion *c)
{
	return __atomic_load_n(&c->c_state, __ATOMIC_ACQUIRE) == 1;
}
/* Mark c done and wake its waiter, wherever it waits.  Any context. */
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
/* cpu_idle_once() for ever: an application processor's life after start-up. */
void __noreturn cpu_idle_loop(void);

/*
 * Set, once at boot, what a waiter lets go of before it waits: work its
 * own CPU holds back that the wait may depend on (the block layer's CPU
 * batches, block/blkdev.h, which the kernel core does not include).
 */
void wait_prepare_register(void (*fn)(void));

#endif
