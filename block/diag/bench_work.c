/*
 * The portable half of bench (block/diag/bench.h): workload parsing, the sector
 * pattern, the random-offset generator and number formatting, written to
 * give exactly what the Linux peer's init.c gives for the same input:
 *  - sizes go through strtoull(s, &end, 0) (so "0x10" is hex and "010" is
 *    octal), then a K/M/G/s suffix, else times the key's unit;
 *  - tokens are split at ':' with empty ones skipped (strtok_r), a token
 *    without '=' is ignored, an unknown key is warned about;
 *  - qd goes through atoi() and is clamped to 1..256, secs through strtod
 *    (kept here in milliseconds, no floating point in the kernel);
 *  - the pattern: w[0] = L, w[1] = seed, w[i] = L ^ seed ^ i*0x9E3779B97F4A7C15;
 *  - xorshift64*: state = seed*0x9E3779B97F4A7C15 | 1; x ^= x >> 12;
 *    x ^= x << 25; x ^= x >> 27; r = x * 0x2545F4914F6CDD1D.
 */
#include "block/diag/bench.h"
#include "lib/byteorder.h"
#include "lib/string.h"

#define GOLDEN		0x9E3779B97F4A7C15ULL
#define XS_MULT		0x2545F4914F6CDD1DULL

static bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

static int digit_val(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 10;
	return 99;
}

/* strtoull(s, end, 0): sign, 0x hex, 0 octal; wraps like C on overflow (saturates). */
static u64 parse_ull(const char *s, const char **end)
{
	const char *p = s, *start;
	bool neg = false, over = false;
	unsigned base = 10;
	u64 v = 0;
	int d;

	while (is_space(*p))
		p++;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && digit_val(p[2]) < 16) {
		base = 16;
		p += 2;
	} else if (p[0] == '0') {
		base = 8;
	}
	start = p;
	while ((d = digit_val(*p)) < (int)base) {
		if (v > (~0ULL - (u64)d) / base)
			over = true;
		v = v * base + (u64)d;
		p++;
	}
	if (p == start) {
		*end = s;
		return 0;
	}
	*end = p;
	if (over)
		return ~0ULL;
	return neg ? (u64)-v : v;
}

/* atoi(): optional sign and decimal digits, 0 when none. */
static int parse_int(const char *s)
{
	bool neg = false;
	long v = 0;

	while (is_space(*s))
		s++;
	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	while (*s >= '0' && *s <= '9' && v < 100000000)
		v = v * 10 + (*s++ - '0');
	return (int)(neg ? -v : v);
}

/* strtod() for plain decimals ("5", "0.25"), in milliseconds; <= 0 is 0. */
static u64 parse_secs_ms(const char *s)
{
	u64 ms = 0, scale = 1000;
	bool neg = false;

	while (is_space(*s))
		s++;
	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	while (*s >= '0' && *s <= '9' && ms < (1ULL << 50))
		ms = ms * 10 + (u64)(*s++ - '0') * 1000;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++) {
			scale /= 10;
			ms += (u64)(*s - '0') * scale;
		}
	return neg ? 0 : ms;
}

u64 bench_parse_size(const char *s, u64 unit)
{
	const char *e;
	u64 v = parse_ull(s, &e);

	switch (*e) {
	case 'k': case 'K': return v << 10;
	case 'm': case 'M': return v << 20;
	case 'g': case 'G': return v << 30;
	case 's': case 'S': return v * 512;
	default: return v * unit;
	}
}

/* Next ':'-separated token, skipping empty ones (strtok_r). */
static char *next_token(char **save)
{
	char *p = *save, *t;

	while (*p == ':')
		p++;
	if (!*p) {
		*save = p;
		return NULL;
	}
	t = p;
	while (*p && *p != ':')
		p++;
	if (*p)
		*p++ = 0;
	*save = p;
	return t;
}

/* mixed's own keys: defaults, bounds, and qd as the slots it needs. */
static void parse_mixed(struct bench_work *w)
{
	if (w->bw_readqd <= 0)
		w->bw_readqd = 1;
	if (w->bw_writeqd < 0)		/* not given */
		w->bw_writeqd = 32;
	if (w->bw_readqd > BENCH_MAXQD / 2)
		w->bw_readqd = BENCH_MAXQD / 2;
	if (w->bw_writeqd > BENCH_MAXQD / 2)
		w->bw_writeqd = BENCH_MAXQD / 2;
	if (!w->bw_wbs)
		w->bw_wbs = 1 << 20;
	w->bw_qd = w->bw_readqd + w->bw_writeqd;
}

/**
 * bench_parse_work - parse one workload "NAME:key=val:..." (modified in place).
 * warn(key, arg) is called for each unknown key, as the peer prints
 * "BENCH warn unknown-key KEY".
 */
void bench_parse_work(char *spec, struct bench_work *w, bench_warn_fn *warn, void *arg)
{
	char *save = spec, *tok, *eq;
	const char *k, *v;
	bool rnd;

	memset(w, 0, sizeof(*w));
	w->bw_qd = 1;
	w->bw_seed = 1;
	w->bw_writeqd = -1;
	tok = next_token(&save);
	str_copy(w->bw_name, tok ? tok : "", sizeof(w->bw_name));
	while ((tok = next_token(&save))) {
		eq = strchr(tok, '=');
		if (!eq)
			continue;
		*eq = 0;
		k = tok;
		v = eq + 1;
		if (!strcmp(k, "mib"))
			w->bw_bytes = bench_parse_size(v, 1 << 20);
		else if (!strcmp(k, "bs"))
			w->bw_bs = bench_parse_size(v, 1024);
		else if (!strcmp(k, "off"))
			w->bw_off = bench_parse_size(v, 1 << 20);
		else if (!strcmp(k, "span"))
			w->bw_span = bench_parse_size(v, 1 << 20);
		else if (!strcmp(k, "ios"))
			w->bw_ios = parse_ull(v, &v);
		else if (!strcmp(k, "secs"))
			w->bw_secs_ms = parse_secs_ms(v);
		else if (!strcmp(k, "qd"))
			w->bw_qd = parse_int(v);
		else if (!strcmp(k, "seed"))
			w->bw_seed = parse_ull(v, &v);
		else if (!strcmp(k, "readqd"))
			w->bw_readqd = parse_int(v);
		else if (!strcmp(k, "writeqd"))
			w->bw_writeqd = parse_int(v);
		else if (!strcmp(k, "wbs"))
			w->bw_wbs = bench_parse_size(v, 1024);
		else if (!strcmp(k, "cpus"))
			w->bw_cpus = !strcmp(v, "all") ? BENCH_MAXCPUS : (u32)parse_int(v);
		else if (warn)
			warn(k, arg);
	}
	if (!strcmp(w->bw_name, "mixed"))
		parse_mixed(w);
	rnd = !strncmp(w->bw_name, "rand", 4) || !strcmp(w->bw_name, "mixed");
	if (!w->bw_bs)
		w->bw_bs = rnd ? 4096 : (1 << 20);
	if (!w->bw_bytes && !rnd)
		w->bw_bytes = 64 << 20;
	if (w->bw_qd < 1)
		w->bw_qd = 1;
	if (w->bw_qd > BENCH_MAXQD)
		w->bw_qd = BENCH_MAXQD;
	if (w->bw_cpus < 1 || w->bw_cpus > BENCH_MAXCPUS)
		w->bw_cpus = w->bw_cpus ? BENCH_MAXCPUS : 1;
	if (rnd && !w->bw_ios && !w->bw_secs_ms)
		w->bw_secs_ms = 10000;
}

const char *bench_fmt_size(u64 b, char *buf, size_t len)
{
	if (b >= (1u << 20) && !(b & ((1u << 20) - 1)))
		snprintf(buf, len, "%lluM", (unsigned long long)(b >> 20));
	else if (b >= 1024 && !(b & 1023))
		snprintf(buf, len, "%lluK", (unsigned long long)(b >> 10));
	else
		snprintf(buf, len, "%llu", (unsigned long long)b);
	return buf;
}

const char *bench_fmt_fixed(u64 num, u64 den, unsigned decimals, char *buf, size_t len)
{
	u64 ip = num / den, r = num % den, frac = 0, pow = 1;
	unsigned i;

	/* One digit more than wanted, then round half up. */
	for (i = 0; i <= decimals; i++) {
		u64 d;

		if (r > ~0ULL / 10) {	/* huge den: scale both down */
			r >>= 4;
			den >>= 4;
		}
		d = r * 10 / den;
		r = r * 10 % den;
		if (i < decimals) {
			frac = frac * 10 + d;
			pow *= 10;
		} else if (d >= 5) {
			frac++;
			if (frac == pow) {
				frac = 0;
				ip++;
			}
		}
	}
	if (!decimals)
		snprintf(buf, len, "%llu", (unsigned long long)ip);
	else
		snprintf(buf, len, "%llu.%0*llu", (unsigned long long)ip, (int)decimals,
			 (unsigned long long)frac);
	return buf;
}

void bench_rng_seed(struct bench_rng *r, u64 seed)
{
	r->r_state = seed * GOLDEN | 1;
}

u64 bench_rng_next(struct bench_rng *r)
{
	u64 x = r->r_state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	r->r_state = x;
	return x * XS_MULT;
}

u64 bench_next_off(struct bench_rng *r, const struct bench_work *w, u64 nblk)
{
	return w->bw_off + (bench_rng_next(r) % nblk) * w->bw_bs;
}

void bench_fill_sector(void *sector, u64 lba, u64 seed)
{
	u8 *p = sector;
	le64 v;
	u64 i;

	for (i = 0; i < 64; i++) {
		v = cpu_to_le64(i == 0 ? lba : i == 1 ? seed : lba ^ seed ^ (i * GOLDEN));
		memcpy(p + i * 8, &v, 8);
	}
}

bool bench_check_sector(const void *sector, u64 lba, u64 seed)
{
	const u8 *p = sector;
	le64 v;
	u64 i;

	for (i = 0; i < 64; i++) {
		memcpy(&v, p + i * 8, 8);
		if (le64_to_cpu(v) != (i == 0 ? lba : i == 1 ? seed : lba ^ seed ^ (i * GOLDEN)))
			return false;
	}
	return true;
}

static void sift_down(u32 *v, u32 root, u32 n)
{
	u32 child, t;

	while ((child = 2 * root + 1) < n) {
		if (child + 1 < n && v[child + 1] > v[child])
			child++;
		if (v[root] >= v[child])
			return;
		t = v[root];
		v[root] = v[child];
		v[child] = t;
		root = child;
	}
}

void bench_sort_u32(u32 *v, u32 n)
{
	u32 i, t;

	for (i = n / 2; i-- > 0;)
		sift_down(v, i, n);
	for (i = n; i-- > 1;) {
		t = v[0];
		v[0] = v[i];
		v[i] = t;
		sift_down(v, 0, i);
	}
}
