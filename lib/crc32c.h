/*
 * CRC-32C (Castagnoli), as ext4's metadata_csum and jbd2's csum_v2/v3
 * use it (ext4 wiki "Checksums"): reflected polynomial 0x82F63B78, the
 * register passed in and returned raw, with no inversion at either end.
 *
 * Interface:
 *	crc = crc32c(~0u, buf, len);			ext4's usual start
 *	crc = crc32c(crc32c(s, a, n), b, m);		== crc32c(s, a||b, n+m)
 * crc32c(~0u, "123456789", 9) ^ ~0u is the standard check value
 * 0xE3069283.
 */
#ifndef LIB_CRC32C_H
#define LIB_CRC32C_H

#include "kernel/types.h"

/*
 * crc32c - continue a CRC-32C over len more bytes
 * @crc: the register so far (~0u to start, as ext4 does)
 * @buf: the bytes; may be NULL when len is 0
 * @len: how many
 * Returns the register after them.  Pure, any context.
 */
u32 crc32c(u32 crc, const void *buf, size_t len);

#ifdef HOST_TEST
/* For the unit test: table entry i, and the same recomputed bit by bit. */
u32 crc32c_table_entry(unsigned int i);
u32 crc32c_bitwise_entry(unsigned int i);
#endif

#endif
