/*
 * Rate limits for messages that a failing device can repeat without end
 * (the idea of Linux's ratelimit_state): at most rl_burst of them in a
 * window of rl_interval_ms.  The first message a new window lets through,
 * after one that held some back, is preceded by a line saying how many
 * were dropped, so the log still says that errors went on.
 *
 * A console on a framebuffer draws each line in software: a disk that
 * fails every request must not stall the machine behind its own log.
 */
#ifndef KERNEL_RATELIMIT_H
#define KERNEL_RATELIMIT_H

#include "kernel/spinlock.h"

#define RATELIMIT_INTERVAL_MS	5000	/* Linux's DEFAULT_RATELIMIT_INTERVAL */
#define RATELIMIT_BURST		10	/* and DEFAULT_RATELIMIT_BURST */

struct ratelimit {
	spinlock_t	rl_lock;
	u32		rl_interval_ms;	/* [I] */
	u32		rl_burst;	/* [I] */
	u64		rl_begin_ms;	/* [rl_lock] the window's start; the first at 0 */
	u32		rl_passed;	/* [rl_lock] let through in this window */
	u32		rl_missed;	/* [rl_lock] held back in this window */
};

void ratelimit_init(struct ratelimit *rl, u32 interval_ms, u32 burst);

/*
 * May one more message go now?  @who names the source in the line that
 * counts what an earlier window dropped.  Any context.
 */
bool ratelimit_ok(struct ratelimit *rl, const char *who);

#endif
