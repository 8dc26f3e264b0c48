/*
 * Bitmaps in arrays of u32: bit i is bit i % 32 of word i / 32.  No
 * locking: callers hold whatever lock guards the map.
 */
#ifndef LIB_BITMAP_H
#define LIB_BITMAP_H

#include "kernel/types.h"

#define BITMAP_WORDS(nbits)	(((nbits) + 31) / 32)

static inline bool bitmap_test(const u32 *map, unsigned i)
{
	return map[i / 32] & (1u << (i % 32));
}

static inline void bitmap_set(u32 *map, unsigned i)
{
	map[i / 32] |= 1u << (i % 32);
}

static inline void bitmap_clear(u32 *map, unsigned i)
{
	map[i / 32] &= ~(1u << (i % 32));
}

/* Set the lowest clear bit below nbits and return its index; -1 if all are set. */
static inline int bitmap_take_lowest(u32 *map, unsigned nbits)
{
	unsigned i;

	for (i = 0; i < nbits; i++) {
		if (!bitmap_test(map, i)) {
			bitmap_set(map, i);
			return (int)i;
		}
	}
	return -1;
}

#endif
