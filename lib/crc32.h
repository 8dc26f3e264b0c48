/*
 * CRC-32 as IEEE 802.3, zlib, PNG and the UEFI GPT header use it: the
 * reflected polynomial 0xEDB88320, initial value and final XOR ~0.
 *
 * Interface (the zlib convention, so partial sums chain):
 *	crc = crc32(0, buf, len);			one buffer
 *	crc = crc32(crc32(0, a, n), b, m);		== crc32(0, a||b, n+m)
 * The check value of "123456789" is 0xCBF43926.
 */
#ifndef LIB_CRC32_H
#define LIB_CRC32_H

#include "kernel/types.h"

/*
 * crc32 - continue a CRC-32 over len more bytes
 * @crc: the CRC of everything before buf (0 to start)
 * @buf: the bytes; may be NULL when len is 0
 * @len: how many
 * Returns the CRC of the whole sequence.  Pure, any context.
 */
u32 crc32(u32 crc, const void *buf, size_t len);

#ifdef HOST_TEST
/* For the unit test: table entry i, and the same recomputed bit by bit. */
u32 crc32_table_entry(unsigned int i);
u32 crc32_bitwise_entry(unsigned int i);
#endif

#endif
