/*
 * The idle governor's arithmetic; the why is in idle_gov.h.
 */
#include "kernel/idle_gov.h"

static bool in_trial(const struct idle_gov *g)
{
	return g->ig_epoch == IDLE_GOV_TRIAL - 1;
}

static bool halting(const struct idle_gov *g)
{
	return g->ig_halt != in_trial(g);
}

bool idle_gov_poll(const struct idle_gov *g)
{
	return !halting(g);
}

/* Does a trial of the other way, with mean wait 'mean', win? */
static bool trial_wins(const struct idle_gov *g, bool halt, u64 mean)
{
	u64 chosen = g->ig_mean[!halt];

	return halt ? mean + mean / 8 < chosen : mean < chosen;
}

void idle_gov_note(struct idle_gov *g, u64 cycles)
{
	bool halt = halting(g);
	u64 mean;

	g->ig_sum += cycles;
	if (++g->ig_n < IDLE_GOV_EPOCH)
		return;
	mean = g->ig_sum / g->ig_n;
	g->ig_sum = 0;
	g->ig_n = 0;
	if (!in_trial(g)) {
		g->ig_mean[halt] = mean;
		g->ig_epoch++;
		return;
	}
	g->ig_epoch = 0;
	if (trial_wins(g, halt, mean)) {
		g->ig_halt = halt;
		g->ig_changes++;
	}
	g->ig_mean[halt] = mean;
}
