/*
 * The idle governor's arithmetic; the why is in idle_gov.h.
 */
#include "kernel/idle_gov.h"

static bool in_trial(const struct idle_gov *g)
{
	return g->ig_epoch == IDLE_GOV_TRIAL - 1;
}

bool idle_gov_poll(const struct idle_gov *g)
{
	return g->ig_poll != in_trial(g);
}

void idle_gov_note(struct idle_gov *g, u64 cycles)
{
	bool poll = idle_gov_poll(g);
	u64 mean;

	g->ig_sum += cycles;
	if (++g->ig_n < IDLE_GOV_EPOCH)
		return;
	mean = g->ig_sum / g->ig_n;
	g->ig_mean[poll] = mean;
	g->ig_sum = 0;
	g->ig_n = 0;
	if (!in_trial(g)) {
		g->ig_epoch++;
		return;
	}
	g->ig_epoch = 0;
	if (mean + mean / 16 < g->ig_mean[!poll]) {
		g->ig_poll = poll;
		g->ig_changes++;
	}
}
