/*
 * The content of `fill PATH BYTES [SEED]`: deterministic, seekable, and
 * reproducible on the host by tools/fillgen.py.
 *
 * The file is a sequence of 64-bit little-endian words; word k (bytes
 * 8k .. 8k+7) is splitmix64's output function applied to
 * SEED + (k + 1) * 0x9E3779B97F4A7C15 (mod 2^64):
 *
 *	z = x;  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
 *	        z = (z ^ (z >> 27)) * 0x94D049BB133111EB;  word = z ^ (z >> 31)
 *
 * A file of BYTES bytes is the first BYTES bytes of that sequence, so any
 * range can be produced without the bytes before it.
 */
#ifndef FS_FILLGEN_H
#define FS_FILLGEN_H

#include "kernel/types.h"

/* Fill @buf with bytes [@pos, @pos + @len) of the sequence for @seed. */
void fillgen(u64 seed, u64 pos, void *buf, size_t len);

#endif
