/*
 * SHA-256 (FIPS 180-4), for checksums of files the shell prints and tests
 * compare against the host's sha256sum.  Incremental: init, any number of
 * updates, final.  Portable: kernel and host builds.
 */
#ifndef LIB_SHA256_H
#define LIB_SHA256_H

#include "kernel/types.h"

#define SHA256_DIGEST_SIZE	32
#define SHA256_BLOCK_SIZE	64

struct sha256_ctx {
	u32	sc_state[8];
	u64	sc_bytes;			/* message length so far */
	u8	sc_buf[SHA256_BLOCK_SIZE];	/* a partial block */
};

void sha256_init(struct sha256_ctx *c);
void sha256_update(struct sha256_ctx *c, const void *data, size_t len);
void sha256_final(struct sha256_ctx *c, u8 digest[SHA256_DIGEST_SIZE]);
/* 64 hex digits and a terminator into @hex. */
void sha256_hex(const u8 digest[SHA256_DIGEST_SIZE], char hex[2 * SHA256_DIGEST_SIZE + 1]);

#endif
