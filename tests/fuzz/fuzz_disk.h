/*
 * The fuzzed disk: how a fuzz input becomes a sparse disk for the
 * partition parsers, and the invariants every parse result must keep.
 *
 * Input layout (all little-endian):
 *	byte 0		bit 0: 4096-byte blocks (else 512); bits 1-7: minors limit - 1
 *	bytes 1-8	capacity in blocks (raised to the data present, capped at 2^40)
 *	bytes 9-	whole blocks of data: the first half is the start of the
 *			disk, the second half its end; everything between reads as zeros
 * tests/fuzz/mkseeds.py writes real images in this form.
 */
#ifndef TESTS_FUZZ_FUZZ_DISK_H
#define TESTS_FUZZ_FUZZ_DISK_H

#include <stddef.h>
#include <stdint.h>
#include "block/partitions/check.h"

#define FUZZ_HDR_LEN	9

/* Parse the input with one format probe and check the result; aborts on a violation. */
int fuzz_disk_run(const uint8_t *data, size_t size, const struct part_format *fmt);

#endif
