/*
 * Message rate limits (contract in kernel/ratelimit.h).
 */
#include "kernel/ratelimit.h"
#include "kernel/printk.h"
#include "kernel/time.h"

void ratelimit_init(struct ratelimit *rl, u32 interval_ms, u32 burst)
{
	spin_lock_init(&rl->rl_lock, "ratelimit");
	rl->rl_interval_ms = interval_ms;
	rl->rl_burst = burst;
	rl->rl_begin_ms = 0;
	rl->rl_passed = rl->rl_missed = 0;
}

bool ratelimit_ok(struct ratelimit *rl, const char *who)
{
	u64 now = ktime_ms();
	unsigned long flags;
	u32 missed = 0;
	bool ok;

	spin_lock_irqsave(&rl->rl_lock, flags);
	if (now - rl->rl_begin_ms >= rl->rl_interval_ms) {
		missed = rl->rl_missed;
		rl->rl_begin_ms = now;
		rl->rl_passed = rl->rl_missed = 0;
	}
	ok = rl->rl_passed < rl->rl_burst;
	if (ok)
		rl->rl_passed++;
	else
		rl->rl_missed++;
	spin_unlock_irqrestore(&rl->rl_lock, flags);
	if (missed)
		pr_warn("%s: %u messages suppressed\n", who, missed);
	return ok;
}
