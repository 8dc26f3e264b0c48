/* Host tests for lib/sha256.c (FIPS 180-4 examples) and fs/fillgen.c. */
#include "tests/unit/unit.h"
#include "lib/sha256.h"
#include "fs/fillgen.h"

static void hash(const void *p, size_t n, char hex[65])
{
	struct sha256_ctx c;
	u8 d[SHA256_DIGEST_SIZE];

	sha256_init(&c);
	sha256_update(&c, p, n);
	sha256_final(&c, d);
	sha256_hex(d, hex);
}

static void test_sha256_vectors(void)
{
	char hex[65];

	hash("", 0, hex);
	CHECK_STR(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	hash("abc", 3, hex);
	CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	hash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, hex);
	CHECK_STR(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

/* One million 'a' fed in odd-sized pieces: exercises the partial-block paths. */
static void test_sha256_incremental(void)
{
	static char a[1000];
	struct sha256_ctx c;
	u8 d[SHA256_DIGEST_SIZE];
	char hex[65];
	size_t done = 0, step = 1;

	memset(a, 'a', sizeof(a));
	sha256_init(&c);
	while (done < 1000000) {
		size_t n = step < 1000000 - done ? step : 1000000 - done;

		sha256_update(&c, a, n);
		done += n;
		step = step % 900 + 61;	/* 61..960: within a[] */
	}
	sha256_final(&c, d);
	sha256_hex(d, hex);
	CHECK_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* Any window of the sequence equals the same slice of the whole. */
static void test_fillgen_seekable(void)
{
	static u8 whole[4096], part[200];
	size_t off;

	fillgen(42, 0, whole, sizeof(whole));
	for (off = 0; off < 300; off += 7) {
		fillgen(42, off, part, sizeof(part));
		CHECK(memcmp(part, whole + off, sizeof(part)) == 0);
	}
	fillgen(43, 0, part, sizeof(part));
	CHECK(memcmp(part, whole, sizeof(part)) != 0);
}

/* The first word for seed 0 is splitmix64's first output for state 0. */
static void test_fillgen_known(void)
{
	u8 b[8];
	u64 w = 0;
	int i;

	fillgen(0, 0, b, 8);
	for (i = 7; i >= 0; i--)
		w = w << 8 | b[i];
	CHECK(w == 0xe220a8397b1dcdafULL);
}

static const struct unit_case cases[] = {
	{ "sha256_vectors", test_sha256_vectors },
	{ "sha256_incremental", test_sha256_incremental },
	{ "fillgen_seekable", test_fillgen_seekable },
	{ "fillgen_known_first_word", test_fillgen_known },
};

UNIT_MAIN("fs_lib", cases)
