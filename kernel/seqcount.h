/*
 * Sequence counters: a value several words wide (a 64-bit sector count on
 * a 32-bit CPU) read without a lock by many CPUs and written rarely, by
 * writers that already exclude each other with a lock of their own.
 *
 *	writer (its lock held)		reader (no lock)
 *	write_seqcount_begin(&s);	do {
 *	value = new;				seq = read_seqcount_begin(&s);
 *	write_seqcount_end(&s);			copy = value;
 *					} while (read_seqcount_retry(&s, seq));
 *
 * The count is odd while a write is in progress; a reader that saw an odd
 * count, or a different one at the end, copied a torn value and retries.
 * x86 keeps loads in order with loads and stores with stores (Intel SDM
 * vol. 3, 9.2.2), so the barriers only stop the compiler from moving the
 * accesses across the count.
 */
#ifndef KERNEL_SEQCOUNT_H
#define KERNEL_SEQCOUNT_H

#include "kernel/compiler.h"

typedef struct {
	u32	sequence;
} seqcount_t;

#define SEQCOUNT_INIT	{ 0 }

static inline u32 read_seqcount_begin(const seqcount_t *s)
{
	u32 seq;

	while ((seq = READ_ONCE(s->sequence)) & 1)
		barrier();
	barrier();
	return seq;
}

static inline bool read_seqcount_retry(const seqcount_t *s, u32 start)
{
	barrier();
	return READ_ONCE(s->sequence) != start;
}

static inline void write_seqcount_begin(seqcount_t *s)
{
	WRITE_ONCE(s->sequence, s->sequence + 1);
	barrier();
}

static inline void write_seqcount_end(seqcount_t *s)
{
	barrier();
	WRITE_ONCE(s->sequence, s->sequence + 1);
}

#endif
