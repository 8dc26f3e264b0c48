/*
 * SHA-256 as FIPS 180-4 specifies it: section 4.2.2 (the constants K),
 * 5.1.1 (padding), 5.3.3 (the initial hash value) and 6.2.2 (the
 * compression function).  Big-endian words; one 64-byte block at a time.
 */
#include "lib/sha256.h"
#include "kernel/compiler.h"
#include "lib/string.h"

/* FIPS 180-4 section 4.2.2 */
static const u32 sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline u32 ror(u32 x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static inline u32 load_be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static inline void store_be32(u8 *p, u32 v)
{
	p[0] = (u8)(v >> 24);
	p[1] = (u8)(v >> 16);
	p[2] = (u8)(v >> 8);
	p[3] = (u8)v;
}

/* FIPS 180-4 section 6.2.2: one block into the state. */
static void sha256_block(u32 st[8], const u8 *blk)
{
	u32 w[64], a, b, c, d, e, f, g, h, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = load_be32(blk + 4 * i);
	for (i = 16; i < 64; i++) {
		u32 s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
		u32 s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = st[0]; b = st[1]; c = st[2]; d = st[3];
	e = st[4]; f = st[5]; g = st[6]; h = st[7];
	for (i = 0; i < 64; i++) {
		t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) +
		     sha256_k[i] + w[i];
		t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		h = g; g = f; f = e; e = d + t1;
		d = c; c = b; b = a; a = t1 + t2;
	}
	st[0] += a; st[1] += b; st[2] += c; st[3] += d;
	st[4] += e; st[5] += f; st[6] += g; st[7] += h;
}

/* FIPS 180-4 section 5.3.3 */
void sha256_init(struct sha256_ctx *c)
{
	static const u32 h0[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(c->sc_state, h0, sizeof(h0));
	c->sc_bytes = 0;
}

void sha256_update(struct sha256_ctx *c, const void *data, size_t len)
{
	const u8 *p = data;
	size_t have = (size_t)(c->sc_bytes % SHA256_BLOCK_SIZE), n;

	c->sc_bytes += len;
	if (have) {
		n = min(len, (size_t)SHA256_BLOCK_SIZE - have);
		memcpy(c->sc_buf + have, p, n);
		p += n;
		len -= n;
		if (have + n < SHA256_BLOCK_SIZE)
			return;
		sha256_block(c->sc_state, c->sc_buf);
	}
	while (len >= SHA256_BLOCK_SIZE) {
		sha256_block(c->sc_state, p);
		p += SHA256_BLOCK_SIZE;
		len -= SHA256_BLOCK_SIZE;
	}
	memcpy(c->sc_buf, p, len);
}

/* FIPS 180-4 section 5.1.1: a 1 bit, zeroes, the length in bits. */
void sha256_final(struct sha256_ctx *c, u8 digest[SHA256_DIGEST_SIZE])
{
	size_t have = (size_t)(c->sc_bytes % SHA256_BLOCK_SIZE);
	u64 bits = c->sc_bytes * 8;
	int i;

	c->sc_buf[have++] = 0x80;
	if (have > SHA256_BLOCK_SIZE - 8) {
		memset(c->sc_buf + have, 0, SHA256_BLOCK_SIZE - have);
		sha256_block(c->sc_state, c->sc_buf);
		have = 0;
	}
	memset(c->sc_buf + have, 0, SHA256_BLOCK_SIZE - 8 - have);
	store_be32(c->sc_buf + 56, (u32)(bits >> 32));
	store_be32(c->sc_buf + 60, (u32)bits);
	sha256_block(c->sc_state, c->sc_buf);
	for (i = 0; i < 8; i++)
		store_be32(digest + 4 * i, c->sc_state[i]);
}

void sha256_hex(const u8 digest[SHA256_DIGEST_SIZE], char hex[2 * SHA256_DIGEST_SIZE + 1])
{
	static const char digits[] = "0123456789abcdef";
	int i;

	for (i = 0; i < SHA256_DIGEST_SIZE; i++) {
		hex[2 * i] = digits[digest[i] >> 4];
		hex[2 * i + 1] = digits[digest[i] & 15];
	}
	hex[2 * SHA256_DIGEST_SIZE] = '\0';
}
