/*
 * Little-endian field access for on-disk and on-wire structures.
 *
 * x86 is little-endian, so the conversions are identities; they are still
 * written at every use so that a reader sees which values come from disk,
 * and the get_/put_ forms read possibly unaligned fields through memcpy
 * (which the compiler turns into a plain load).
 */
#ifndef LIB_BYTEORDER_H
#define LIB_BYTEORDER_H

#include "kernel/types.h"

typedef u16 le16;
typedef u32 le32;
typedef u64 le64;
typedef u16 be16;
typedef u32 be32;

static inline u16 le16_to_cpu(le16 v) { return v; }
static inline u32 le32_to_cpu(le32 v) { return v; }
static inline u64 le64_to_cpu(le64 v) { return v; }
static inline le16 cpu_to_le16(u16 v) { return v; }
static inline le32 cpu_to_le32(u32 v) { return v; }
static inline le64 cpu_to_le64(u64 v) { return v; }
static inline u16 be16_to_cpu(be16 v) { return __builtin_bswap16(v); }
static inline u32 be32_to_cpu(be32 v) { return __builtin_bswap32(v); }
static inline be16 cpu_to_be16(u16 v) { return __builtin_bswap16(v); }
static inline be32 cpu_to_be32(u32 v) { return __builtin_bswap32(v); }

static inline u16 get_le16(const void *p)
{
	u16 v;
	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static inline u32 get_le32(const void *p)
{
	u32 v;
	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static inline u64 get_le64(const void *p)
{
	u64 v;
	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static inline void put_le16(void *p, u16 v) { __builtin_memcpy(p, &v, sizeof(v)); }
static inline void put_le32(void *p, u32 v) { __builtin_memcpy(p, &v, sizeof(v)); }
static inline void put_le64(void *p, u64 v) { __builtin_memcpy(p, &v, sizeof(v)); }

#endif
