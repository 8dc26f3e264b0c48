/*
 * kernel/idle_gov.c driven by a model of the host: each way of waiting
 * has a cost, and the governor must spin unless halting is clearly
 * cheaper, come back to spinning as soon as that is cheaper, follow the
 * costs when they swap, and pay for the other way only in its trials.
 */
#include "tests/unit/unit.h"
#include "kernel/idle_gov.h"

/* n waits of cost[halting] cycles, jittered by up to a quarter; the spun ones. */
static unsigned run(struct idle_gov *g, const u64 cost[2], unsigned n, u64 *seed)
{
	unsigned polled = 0, i;

	for (i = 0; i < n; i++) {
		bool poll = idle_gov_poll(g);
		u64 c = cost[!poll];

		*seed ^= *seed << 13; *seed ^= *seed >> 7; *seed ^= *seed << 17;
		polled += poll;
		idle_gov_note(g, c + *seed % (c / 4 + 1));
	}
	return polled;
}

#define ROUNDS(k)	((k) * IDLE_GOV_EPOCH * IDLE_GOV_TRIAL)

/* Zeroed, it spins, and a halt that is dearer changes nothing. */
static void test_spins(void)
{
	struct idle_gov g = { 0 };
	const u64 cost[2] = { 2000, 3000 };	/* spin 2000, halt 3000 cycles */
	u64 seed = 1;

	CHECK(idle_gov_poll(&g));
	CHECK_EQ(run(&g, cost, ROUNDS(10), &seed), ROUNDS(10) - ROUNDS(10) / IDLE_GOV_TRIAL);
	CHECK(!g.ig_halt);
	CHECK_EQ(g.ig_changes, 0);
	CHECK(g.ig_mean[0] >= 2000 && g.ig_mean[0] < 2500);
	CHECK(g.ig_mean[1] >= 3000 && g.ig_mean[1] < 3750);
}

/* A spin that slows the device by a third: it halts, and stays halted. */
static void test_finds_halt(void)
{
	struct idle_gov g = { 0 };
	const u64 cost[2] = { 2700, 2000 };
	u64 seed = 2;

	run(&g, cost, ROUNDS(1), &seed);
	CHECK(g.ig_halt);
	CHECK_EQ(g.ig_changes, 1);
	CHECK_EQ(run(&g, cost, ROUNDS(10), &seed), ROUNDS(10) / IDLE_GOV_TRIAL);
	CHECK_EQ(g.ig_changes, 1);
}

/* Halting cheaper by under an eighth is not enough to leave the spin. */
static void test_near_tie_spins(void)
{
	struct idle_gov g = { 0 };
	const u64 cost[2] = { 4000, 3700 };
	u64 seed = 3;

	run(&g, cost, ROUNDS(20), &seed);
	CHECK(!g.ig_halt);
	CHECK_EQ(g.ig_changes, 0);
}

/* The host changes (costs swap): the choice follows within a round. */
static void test_follows_change(void)
{
	struct idle_gov g = { 0 };
	const u64 a[2] = { 5000, 3000 }, b[2] = { 3000, 5000 };
	u64 seed = 4;

	run(&g, a, ROUNDS(1), &seed);
	CHECK(g.ig_halt);
	run(&g, b, ROUNDS(1), &seed);
	CHECK(!g.ig_halt);
	run(&g, a, ROUNDS(1), &seed);
	CHECK(g.ig_halt);
	CHECK_EQ(g.ig_changes, 3);
}

/* Long waits (an idle shell, a 1 ms tick) do not overflow the sums. */
static void test_long_waits(void)
{
	struct idle_gov g = { 0 };
	const u64 cost[2] = { 1ull << 40, 1ull << 39 };
	u64 seed = 5;

	run(&g, cost, ROUNDS(1), &seed);
	CHECK(g.ig_halt);
}

static const struct unit_case cases[] = {
	{ "spins", test_spins },
	{ "finds_halt", test_finds_halt },
	{ "near_tie_spins", test_near_tie_spins },
	{ "follows_change", test_follows_change },
	{ "long_waits", test_long_waits },
};

UNIT_MAIN("kernel/idle_gov", cases)
