/*
 * The name hashes of ext4 hash tree directories (ext4 wiki "Hash Tree
 * Directories", "Directory Hash"): legacy (a multiplicative mix), half MD4
 * (three rounds of MD4 on 32-byte chunks) and TEA (16 rounds on 16-byte
 * chunks), each in a signed and an unsigned variant that differ only in
 * how name bytes above 0x7f widen (the platform's char signedness when
 * the filesystem was made, recorded in s_flags).
 *
 * Contract: ext2_dx_hash() is pure: it depends on the version, the seed
 * (s_hash_seed; all zero means the MD4 initial values) and the name only,
 * and returns the major hash with bit 0 clear (bit 0 marks a continued
 * hash in index entries).  Used by htree.c; built on the host for tests.
 */
#include "fs/ext2/ext2.h"
#include "fs/ext2/htree_fs.h"

#define DX_TEA_DELTA	0x9E3779B9u
#define DX_HTREE_EOF	0x7fffffffu	/* reserved: the end of a readdir walk */

static inline u32 rol32(u32 x, unsigned s)
{
	return (x << s) | (x >> (32 - s));
}

/* The legacy hash; @sign widens bytes as signed char. */
static u32 dx_hack_hash(const u8 *name, size_t len, bool sign)
{
	u32 hash, hash0 = 0x12a3fe2d, hash1 = 0x37abe8f9;

	while (len--) {
		s32 c = sign ? (s32)(s8)*name++ : (s32)*name++;

		hash = hash1 + (hash0 ^ ((u32)c * 7152373u));
		if (hash & 0x80000000u)
			hash -= 0x7fffffff;
		hash1 = hash0;
		hash0 = hash;
	}
	return hash0 << 1;
}

/*
 * Pack up to @num words of the name into @buf, big-endian within a word,
 * padding with the length repeated in every byte.
 */
static void dx_str2hashbuf(const u8 *msg, size_t len, u32 *buf, int num, bool sign)
{
	u32 pad, val;
	size_t i;

	pad = (u32)len | ((u32)len << 8);
	pad |= pad << 16;
	val = pad;
	if (len > (size_t)num * 4)
		len = (size_t)num * 4;
	for (i = 0; i < len; i++) {
		s32 c = sign ? (s32)(s8)msg[i] : (s32)msg[i];

		val = (u32)c + (val << 8);
		if (i % 4 == 3) {
			*buf++ = val;
			val = pad;
			num--;
		}
	}
	if (--num >= 0)
		*buf++ = val;
	while (--num >= 0)
		*buf++ = pad;
}

static void dx_tea_transform(u32 buf[4], const u32 in[4])
{
	u32 sum = 0, b0 = buf[0], b1 = buf[1];
	u32 a = in[0], b = in[1], c = in[2], d = in[3];
	int n;

	for (n = 0; n < 16; n++) {
		sum += DX_TEA_DELTA;
		b0 += ((b1 << 4) + a) ^ (b1 + sum) ^ ((b1 >> 5) + b);
		b1 += ((b0 << 4) + c) ^ (b0 + sum) ^ ((b0 >> 5) + d);
	}
	buf[0] += b0;
	buf[1] += b1;
}

#define MD4_F(x, y, z)	((z) ^ ((x) & ((y) ^ (z))))
#define MD4_G(x, y, z)	(((x) & (y)) + (((x) ^ (y)) & (z)))
#define MD4_H(x, y, z)	((x) ^ (y) ^ (z))
#define MD4_ROUND(f, a, b, c, d, x, s)	((a) += f((b), (c), (d)) + (x), (a) = rol32((a), (s)))
#define MD4_K2		013240474631u	/* sqrt(2) * 2^30, as in MD4 */
#define MD4_K3		015666365641u	/* sqrt(3) * 2^30 */

/* MD4's three rounds with half the message words. */
static void dx_half_md4_transform(u32 buf[4], const u32 in[8])
{
	u32 a = buf[0], b = buf[1], c = buf[2], d = buf[3];

	MD4_ROUND(MD4_F, a, b, c, d, in[0], 3);
	MD4_ROUND(MD4_F, d, a, b, c, in[1], 7);
	MD4_ROUND(MD4_F, c, d, a, b, in[2], 11);
	MD4_ROUND(MD4_F, b, c, d, a, in[3], 19);
	MD4_ROUND(MD4_F, a, b, c, d, in[4], 3);
	MD4_ROUND(MD4_F, d, a, b, c, in[5], 7);
	MD4_ROUND(MD4_F, c, d, a, b, in[6], 11);
	MD4_ROUND(MD4_F, b, c, d, a, in[7], 19);

	MD4_ROUND(MD4_G, a, b, c, d, in[1] + MD4_K2, 3);
	MD4_ROUND(MD4_G, d, a, b, c, in[3] + MD4_K2, 5);
	MD4_ROUND(MD4_G, c, d, a, b, in[5] + MD4_K2, 9);
	MD4_ROUND(MD4_G, b, c, d, a, in[7] + MD4_K2, 13);
	MD4_ROUND(MD4_G, a, b, c, d, in[0] + MD4_K2, 3);
	MD4_ROUND(MD4_G, d, a, b, c, in[2] + MD4_K2, 5);
	MD4_ROUND(MD4_G, c, d, a, b, in[4] + MD4_K2, 9);
	MD4_ROUND(MD4_G, b, c, d, a, in[6] + MD4_K2, 13);

	MD4_ROUND(MD4_H, a, b, c, d, in[3] + MD4_K3, 3);
	MD4_ROUND(MD4_H, d, a, b, c, in[7] + MD4_K3, 9);
	MD4_ROUND(MD4_H, c, d, a, b, in[2] + MD4_K3, 11);
	MD4_ROUND(MD4_H, b, c, d, a, in[6] + MD4_K3, 15);
	MD4_ROUND(MD4_H, a, b, c, d, in[1] + MD4_K3, 3);
	MD4_ROUND(MD4_H, d, a, b, c, in[5] + MD4_K3, 9);
	MD4_ROUND(MD4_H, c, d, a, b, in[0] + MD4_K3, 11);
	MD4_ROUND(MD4_H, b, c, d, a, in[4] + MD4_K3, 15);

	buf[0] += a;
	buf[1] += b;
	buf[2] += c;
	buf[3] += d;
}

/**
 * ext2_dx_hash - the htree hash of a name
 * @version: DX_HASH_* (0-5)
 * @seed: the four words of s_hash_seed, in CPU order
 * Returns the major hash, bit 0 clear; 0 for an unknown version (callers
 * check the version first).
 */
u32 ext2_dx_hash(unsigned version, const u32 seed[4], const char *name, size_t len)
{
	const u8 *p = (const u8 *)name;
	u32 buf[4] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 };
	u32 in[8], hash;
	bool sign = version < DX_HASH_LEGACY_UNSIGNED;
	long left = (long)len;

	if (seed[0] | seed[1] | seed[2] | seed[3]) {
		buf[0] = seed[0];
		buf[1] = seed[1];
		buf[2] = seed[2];
		buf[3] = seed[3];
	}
	switch (version) {
	case DX_HASH_LEGACY:
	case DX_HASH_LEGACY_UNSIGNED:
		hash = dx_hack_hash(p, len, sign);
		break;
	case DX_HASH_HALF_MD4:
	case DX_HASH_HALF_MD4_UNSIGNED:
		for (; left > 0; left -= 32, p += 32) {
			dx_str2hashbuf(p, (size_t)left, in, 8, sign);
			dx_half_md4_transform(buf, in);
		}
		hash = buf[1];
		break;
	case DX_HASH_TEA:
	case DX_HASH_TEA_UNSIGNED:
		for (; left > 0; left -= 16, p += 16) {
			dx_str2hashbuf(p, (size_t)left, in, 4, sign);
			dx_tea_transform(buf, in);
		}
		hash = buf[0];
		break;
	default:
		return 0;
	}
	hash &= ~1u;
	if (hash == DX_HTREE_EOF << 1)
		hash = (DX_HTREE_EOF - 1) << 1;
	return hash;
}
