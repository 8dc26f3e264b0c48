/*
 * The deterministic file content of the `fill` shell command; the format
 * is defined in fs/fillgen.h and mirrored by tools/fillgen.py.
 */
#include "fs/fillgen.h"

#define FILLGEN_GAMMA	0x9E3779B97F4A7C15ULL	/* splitmix64's increment */

static u64 fillgen_word(u64 seed, u64 k)
{
	u64 z = seed + (k + 1) * FILLGEN_GAMMA;

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

void fillgen(u64 seed, u64 pos, void *buf, size_t len)
{
	u8 *p = buf;
	u64 k = pos / 8, w = 0;
	unsigned i = (unsigned)(pos % 8);

	if (len)
		w = fillgen_word(seed, k);
	while (len--) {
		*p++ = (u8)(w >> (8 * i));
		if (++i == 8 && len) {
			i = 0;
			w = fillgen_word(seed, ++k);
		}
	}
}
