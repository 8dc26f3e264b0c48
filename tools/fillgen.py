#!/usr/bin/env python3
"""Reproduce the content of the kernel shell's `fill PATH BYTES [SEED]`
(the shell's SEED is 1 when not given).

Usage: fillgen.py BYTES SEED [OFFSET] > file

The format (fs/fillgen.h): 64-bit little-endian words; word k is the
splitmix64 output function of SEED + (k + 1) * 0x9E3779B97F4A7C15 mod 2^64.
Byte i of the file is byte i % 8 of word i // 8.  OFFSET starts the output
at that byte of the sequence (default 0).
"""
import struct
import sys

M = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


def word(seed, k):
    z = (seed + (k + 1) * GAMMA) & M
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return z ^ (z >> 31)


def fill(nbytes, seed, offset=0):
    first, last = offset // 8, (offset + nbytes + 7) // 8
    raw = b"".join(struct.pack("<Q", word(seed, k)) for k in range(first, last))
    skip = offset - first * 8
    return raw[skip:skip + nbytes]


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    nbytes, seed = int(sys.argv[1], 0), int(sys.argv[2], 0) & M
    offset = int(sys.argv[3], 0) if len(sys.argv) == 4 else 0
    out = sys.stdout.buffer
    chunk = 1 << 20
    done = 0
    while done < nbytes:
        n = min(chunk, nbytes - done)
        out.write(fill(n, seed, offset + done))
        done += n


if __name__ == "__main__":
    main()
