/*
 * kernel/idle_gov.c driven by a model of the host: each way of waiting
 * has a cost, and the governor must settle on the cheaper one, come back
 * when the costs swap, keep its choice when they are equal, and go on
 * paying for the other way only in its trial epochs.
 */
#include "tests/unit/unit.h"
#include "kernel/idle_gov.h"

/* Waits of cost[way] cycles, jittered by up to a quarter, for n waits; polled waits out of n. */
static unsigned run(struct idle_gov *g, const u64 cost[2], unsigned n, u64 *seed)
{
	unsigned polled = 0, i;

	for (i = 0; i < n; i++) {
		bool poll = idle_gov_poll(g);

		*seed ^= *seed << 13; *seed ^= *seed >> 7; *seed ^= *seed << 17;
		polled += poll;
		idle_gov_note(g, cost[poll] + *seed % (cost[poll] / 4 + 1));
	}
	return polled;
}

#define EPOCHS(k)	((k) * IDLE_GOV_EPOCH * IDLE_GOV_TRIAL)

/* Zeroed, it halts; polling found cheaper is chosen at the first trial. */
static void test_finds_poll(void)
{
	struct idle_gov g = { 0 };
	const u64 cost[2] = { 3000, 2000 };	/* halt 3000, poll 2000 cycles */
	u64 seed = 1;

	CHECK(!idle_gov_poll(&g));
	run(&g, cost, EPOCHS(1), &seed);
	CHECK(g.ig_poll);
	CHECK_EQ(g.ig_changes, 1);
	CHECK(g.ig_mean[0] >= 3000 && g.ig_mean[0] < 3750);
	CHECK(g.ig_mean[1] >= 2000 && g.ig_mean[1] < 2500);
	/* Settled: it polls in all but the trial epochs, and does not waver. */
	CHECK_EQ(run(&g, cost, EPOCHS(10), &seed), EPOCHS(10) - EPOCHS(10) / IDLE_GOV_TRIAL);
	CHECK_EQ(g.ig_changes, 1);
}

/* A spin that slows the device makes the waits longer: it halts. */
static void test_keeps_halt(void)
{
	struct idle_gov g = { 0 };
	const u64 cost[2] = { 2000, 2600 };
	u64 seed = 2;

	CHECK_EQ(run(&g, cost, EPOCHS(10), &seed), EPOCHS(10) / IDLE_GOV_TRIAL);
	CHECK(!g.ig_poll);
	CHECK_EQ(g.ig_changes, 0);
}

/* The host changes (costs swap): the choice follows within two trials. */
static void test_follows_change(void)
{
	struct idle_gov g = { 0 };
	const u64 a[2] = { 5000, 3000 }, b[2] = { 3000, 5000 };
	u64 seed = 3;

	run(&g, a, EPOCHS(2), &seed);
	CHECK(g.ig_poll);
	run(&g, b, EPOCHS(2), &seed);
	CHECK(!g.ig_poll);
	run(&g, a, EPOCHS(2), &seed);
	CHECK(g.ig_poll);
	CHECK_EQ(g.ig_changes, 3);
}

/* Within a sixteenth of each other the ways are a tie: no flapping. */
static void test_tie_holds(void)
{
	struct idle_gov g = { 0 };
	const u64 cost[2] = { 4000, 3900 };
	u64 seed = 4;

	run(&g, cost, EPOCHS(20), &seed);
	CHECK_EQ(g.ig_changes, 0);
	CHECK(!g.ig_poll);
}

/* Long waits (an idle shell, a 1 ms tick) do not overflow the sums. */
static void test_long_waits(void)
{
	struct idle_gov g = { 0 };
	const u64 cost[2] = { 1ull << 40, 1ull << 39 };
	u64 seed = 5;

	run(&g, cost, EPOCHS(1), &seed);
	CHECK(g.ig_poll);
}

static const struct unit_case cases[] = {
	{ "finds_poll", test_finds_poll },
	{ "keeps_halt", test_keeps_halt },
	{ "follows_change", test_follows_change },
	{ "tie_holds", test_tie_holds },
	{ "long_waits", test_long_waits },
};

UNIT_MAIN("kernel/idle_gov", cases)
