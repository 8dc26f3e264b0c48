/*
 * Host tests of block/diag/bench_work.c against an oracle built the way the
 * Linux peer (shared/peer/src/init.c) computes: the C library's strtok_r,
 * strtoull(.., 0), strtod and atoi for the workload strings, printf's
 * %.Nf for numbers, and the documented pattern and xorshift64* formulas
 * evaluated here independently.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/unit/unit.h"
#include "block/diag/bench.h"

/* The peer's parse, with libc, as a reference. */
struct ref_work {
	char name[16];
	unsigned long long bytes, bs, off, span, ios, seed;
	double secs;
	int qd;
};

static unsigned long long ref_size(const char *s, unsigned long long unit)
{
	char *e;
	unsigned long long v = strtoull(s, &e, 0);

	switch (*e) {
	case 'k': case 'K': return v << 10;
	case 'm': case 'M': return v << 20;
	case 'g': case 'G': return v << 30;
	case 's': case 'S': return v * 512;
	default: return v * unit;
	}
}

static int ref_unknown;

static void ref_parse(char *spec, struct ref_work *w)
{
	char *save = NULL, *tok;
	int rnd;

	memset(w, 0, sizeof(*w));
	w->qd = 1;
	w->seed = 1;
	tok = strtok_r(spec, ":", &save);
	snprintf(w->name, sizeof(w->name), "%s", tok ? tok : "");
	while ((tok = strtok_r(NULL, ":", &save))) {
		char *eq = strchr(tok, '=');
		const char *k = tok, *v;

		if (!eq)
			continue;
		*eq = 0;
		v = eq + 1;
		if (!strcmp(k, "mib")) w->bytes = ref_size(v, 1 << 20);
		else if (!strcmp(k, "bs")) w->bs = ref_size(v, 1024);
		else if (!strcmp(k, "off")) w->off = ref_size(v, 1 << 20);
		else if (!strcmp(k, "span")) w->span = ref_size(v, 1 << 20);
		else if (!strcmp(k, "ios")) w->ios = strtoull(v, NULL, 0);
		else if (!strcmp(k, "secs")) w->secs = strtod(v, NULL);
		else if (!strcmp(k, "qd")) w->qd = atoi(v);
		else if (!strcmp(k, "seed")) w->seed = strtoull(v, NULL, 0);
		else ref_unknown++;
	}
	rnd = !strncmp(w->name, "rand", 4);
	if (!w->bs) w->bs = rnd ? 4096 : (1 << 20);
	if (!w->bytes && !rnd) w->bytes = 64 << 20;
	if (w->qd < 1) w->qd = 1;
	if (w->qd > 256) w->qd = 256;
	if (rnd && !w->ios && w->secs <= 0) w->secs = 10;
}

static int our_unknown;
static void count_warn(const char *key, void *arg) { our_unknown++; }

static void test_parse_matches_peer(void)
{
	static const char *specs[] = {
		"seqread:mib=256:bs=1M", "seqwrite:mib=1024:bs=1M:off=16", "randread:qd=32:secs=5",
		"randread:qd=1:bs=4K:ios=1000:span=64:seed=7", "randwrite:qd=0:bs=8", "verify:mib=64",
		"fill:mib=0x10:bs=010:seed=0x2a", "check::mib=8::bs=64s:", "randread:qd=999:secs=0.25",
		"randread:qd=-3:secs=-1", "seqread:bogus=1:mib=2G:noeq", "verylongworkloadname:mib=1",
		"", "randread", "seqread:mib=08:bs=0x", "randread:ios=12x:seed=18446744073709551615",
		"seqread:mib= 7:bs=+2k",
	};
	unsigned i;

	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		char a[128], b[128];
		struct ref_work r;
		struct bench_work w;

		snprintf(a, sizeof(a), "%s", specs[i]);
		snprintf(b, sizeof(b), "%s", specs[i]);
		ref_unknown = our_unknown = 0;
		ref_parse(a, &r);
		bench_parse_work(b, &w, count_warn, NULL);
		CHECK_STR(w.bw_name, r.name);
		CHECK(w.bw_bytes == r.bytes);
		CHECK(w.bw_bs == r.bs);
		CHECK(w.bw_off == r.off);
		CHECK(w.bw_span == r.span);
		CHECK(w.bw_ios == r.ios);
		CHECK(w.bw_seed == r.seed);
		CHECK_EQ(w.bw_qd, r.qd);
		CHECK_EQ(w.bw_secs_ms, r.secs > 0 ? (long long)(r.secs * 1000 + 0.5) : 0);
		CHECK_EQ(our_unknown, ref_unknown);
		if (unit_failed)
			fprintf(stderr, "  spec: %s\n", specs[i]);
	}
}

static void test_fmt_size(void)
{
	char buf[24];

	CHECK_STR(bench_fmt_size(1 << 20, buf, sizeof(buf)), "1M");
	CHECK_STR(bench_fmt_size(4096, buf, sizeof(buf)), "4K");
	CHECK_STR(bench_fmt_size(1536 * 1024, buf, sizeof(buf)), "1536K");
	CHECK_STR(bench_fmt_size(512, buf, sizeof(buf)), "512");
	CHECK_STR(bench_fmt_size(3ULL << 30, buf, sizeof(buf)), "3072M");
}

/* Fixed-point formatting against printf("%.Nf") of the exact quotient. */
static void test_fmt_fixed_matches_printf(void)
{
	unsigned long long x = 12345;
	int i;

	for (i = 0; i < 5000; i++) {
		unsigned long long num, den;
		unsigned d = (unsigned)(i % 4);
		char ours[64], ref[64];
		long double q;

		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		num = x % 100000000000ULL;
		den = (x >> 20) % 1000000000ULL + 1;
		bench_fmt_fixed(num, den, d, ours, sizeof(ours));
		q = (long double)num / (long double)den;
		/* Avoid exact half-way cases, where printf rounds to even. */
		{
			long double s = q;
			unsigned k;

			for (k = 0; k < d; k++)
				s *= 10;
			if (s - (long double)(unsigned long long)s == 0.5L)
				continue;
		}
		snprintf(ref, sizeof(ref), "%.*Lf", (int)d, q);
		CHECK_STR(ours, ref);
	}
}

/* The pattern, word by word, from the formula in the peer's README. */
static void test_sector_pattern(void)
{
	unsigned char s[512];
	unsigned long long lba = 0x123456789ULL, seed = 42, w;
	int i;

	bench_fill_sector(s, lba, seed);
	for (i = 0; i < 64; i++) {
		unsigned long long want = i == 0 ? lba : i == 1 ? seed :
			lba ^ seed ^ ((unsigned long long)i * 0x9E3779B97F4A7C15ULL);
		int k;

		w = 0;
		for (k = 7; k >= 0; k--)	/* little-endian, whatever the host */
			w = w << 8 | s[i * 8 + k];
		CHECK(w == want);
	}
	CHECK(bench_check_sector(s, lba, seed));
	CHECK(!bench_check_sector(s, lba + 1, seed));
	CHECK(!bench_check_sector(s, lba, seed + 1));
	s[511] ^= 1;
	CHECK(!bench_check_sector(s, lba, seed));
}

/* xorshift64* offsets, against the formula evaluated here. */
static void test_random_offsets(void)
{
	static const unsigned long long seeds[] = { 1, 2, 42, 0, ~0ULL };
	unsigned i, k;

	for (i = 0; i < 5; i++) {
		struct bench_work w = { .bw_bs = 4096, .bw_off = 1 << 20 };
		struct bench_rng r;
		unsigned long long x = seeds[i] * 0x9E3779B97F4A7C15ULL | 1;
		unsigned long long nblk = 262144 - 256;

		bench_rng_seed(&r, seeds[i]);
		for (k = 0; k < 1000; k++) {
			unsigned long long v;

			x ^= x >> 12;
			x ^= x << 25;
			x ^= x >> 27;
			v = x * 0x2545F4914F6CDD1DULL;
			CHECK(bench_next_off(&r, &w, nblk) == (1 << 20) + (v % nblk) * 4096);
		}
	}
	/* Fixed values (computed once with Python's big integers), so that the
	 * same slip on both sides of the comparison above is still caught. */
	{
		struct bench_rng r;

		bench_rng_seed(&r, 1);
		CHECK(bench_rng_next(&r) == 0x0d83b3e29a21487aULL);
		bench_rng_seed(&r, 42);
		bench_rng_next(&r);
		bench_rng_next(&r);
		CHECK(bench_rng_next(&r) == 0xc1cdcc7e24288d6fULL);
	}
}

static void test_sort(void)
{
	unsigned v[1000], i, x = 7;

	for (i = 0; i < 1000; i++) {
		x = x * 1103515245u + 12345u;
		v[i] = x % 500;
	}
	bench_sort_u32(v, 1000);
	for (i = 1; i < 1000; i++)
		CHECK(v[i - 1] <= v[i]);
	bench_sort_u32(v, 0);
	bench_sort_u32(v, 1);
}

/* mixed: its own keys and defaults; qd is the slots it needs. */
static void test_parse_mixed(void)
{
	struct bench_work w;
	char a[] = "mixed", b[] = "mixed:readqd=2:writeqd=0:wbs=128K:bs=8K:secs=3";
	char c[] = "mixed:readqd=0:writeqd=999";

	bench_parse_work(a, &w, NULL, NULL);
	CHECK_EQ(w.bw_readqd, 1);
	CHECK_EQ(w.bw_writeqd, 32);
	CHECK_EQ(w.bw_qd, 33);
	CHECK_EQ(w.bw_bs, 4096);
	CHECK_EQ(w.bw_wbs, 1 << 20);
	CHECK_EQ(w.bw_secs_ms, 10000);
	bench_parse_work(b, &w, NULL, NULL);
	CHECK_EQ(w.bw_readqd, 2);
	CHECK_EQ(w.bw_writeqd, 0);
	CHECK_EQ(w.bw_qd, 2);
	CHECK_EQ(w.bw_bs, 8192);
	CHECK_EQ(w.bw_wbs, 128 << 10);
	CHECK_EQ(w.bw_secs_ms, 3000);
	bench_parse_work(c, &w, NULL, NULL);
	CHECK_EQ(w.bw_readqd, 1);
	CHECK_EQ(w.bw_writeqd, BENCH_MAXQD / 2);
	CHECK(w.bw_qd <= BENCH_MAXQD);
}

static const struct unit_case cases[] = {
	{ "bench/parse_mixed", test_parse_mixed },
	{ "bench/parse_matches_peer", test_parse_matches_peer },
	{ "bench/fmt_size", test_fmt_size },
	{ "bench/fmt_fixed_matches_printf", test_fmt_fixed_matches_printf },
	{ "bench/sector_pattern", test_sector_pattern },
	{ "bench/random_offsets", test_random_offsets },
	{ "bench/sort", test_sort },
};

UNIT_MAIN("block_bench", cases)
