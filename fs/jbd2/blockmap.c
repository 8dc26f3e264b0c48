/*
 * A map from block numbers to 32-bit values (fs/jbd2, portable): the
 * recovery's revoke table (block -> newest revoking transaction), the
 * blocks the log holds and the running transaction's buffers.
 *
 * Open addressing with linear probing over a power-of-two table that
 * doubles at 1/2 load (deleted slots count as load until the next
 * rehash).  A zeroed struct is an empty map.
 */
#include "fs/jbd2/jbd2.h"
#include "kernel/errno.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

#define BMAP_MIN_CAP	64
#define BMAP_FREE	0
#define BMAP_USED	1
#define BMAP_DELETED	2

static u32 bmap_hash(u64 key, u32 cap)
{
	u64 h = key * 0x9E3779B97F4A7C15ull;	/* Fibonacci hashing */

	return (u32)(h >> 32) & (cap - 1);
}

static int bmap_grow(struct jbd2_bmap *m)
{
	struct jbd2_bmap n = { 0 };
	u32 i, cap = m->bm_cap ? m->bm_cap * 2 : BMAP_MIN_CAP;

	if (m->bm_count * 4 < m->bm_cap)	/* mostly deleted: rehash in place size */
		cap = m->bm_cap;
	n.bm_keys = kmalloc(cap * sizeof(u64), GFP_KERNEL);
	n.bm_vals = kmalloc(cap * sizeof(u32), GFP_KERNEL);
	n.bm_state = kzalloc(cap, GFP_KERNEL);
	if (!n.bm_keys || !n.bm_vals || !n.bm_state) {
		jbd2_bmap_free(&n);
		return -ENOMEM;
	}
	n.bm_cap = cap;
	for (i = 0; i < m->bm_cap; i++) {
		if (m->bm_state[i] == BMAP_USED) {
			u32 k = bmap_hash(m->bm_keys[i], cap);

			while (n.bm_state[k] == BMAP_USED)
				k = (k + 1) & (cap - 1);
			n.bm_state[k] = BMAP_USED;
			n.bm_keys[k] = m->bm_keys[i];
			n.bm_vals[k] = m->bm_vals[i];
			n.bm_used++;
			n.bm_count++;
		}
	}
	jbd2_bmap_free(m);
	*m = n;
	return 0;
}

/* The slot holding @key, or -1. */
static long bmap_find(const struct jbd2_bmap *m, u64 key)
{
	u32 k, n;

	if (!m->bm_cap)
		return -1;
	k = bmap_hash(key, m->bm_cap);
	for (n = 0; n < m->bm_cap && m->bm_state[k] != BMAP_FREE; n++) {
		if (m->bm_state[k] == BMAP_USED && m->bm_keys[k] == key)
			return k;
		k = (k + 1) & (m->bm_cap - 1);
	}
	return -1;
}

int jbd2_bmap_set(struct jbd2_bmap *m, u64 key, u32 val)
{
	long s = bmap_find(m, key);
	u32 k;
	int err;

	if (s >= 0) {
		m->bm_vals[s] = val;
		return 0;
	}
	if ((m->bm_used + 1) * 2 > m->bm_cap) {
		err = bmap_grow(m);
		if (err)
			return err;
	}
	k = bmap_hash(key, m->bm_cap);
	while (m->bm_state[k] == BMAP_USED)
		k = (k + 1) & (m->bm_cap - 1);
	if (m->bm_state[k] == BMAP_FREE)
		m->bm_used++;
	m->bm_state[k] = BMAP_USED;
	m->bm_keys[k] = key;
	m->bm_vals[k] = val;
	m->bm_count++;
	return 0;
}

bool jbd2_bmap_get(const struct jbd2_bmap *m, u64 key, u32 *val)
{
	long s = bmap_find(m, key);

	if (s < 0)
		return false;
	if (val)
		*val = m->bm_vals[s];
	return true;
}

void jbd2_bmap_del(struct jbd2_bmap *m, u64 key)
{
	long s = bmap_find(m, key);

	if (s < 0)
		return;
	m->bm_state[s] = BMAP_DELETED;
	m->bm_count--;
}

void jbd2_bmap_clear(struct jbd2_bmap *m)
{
	if (m->bm_cap)
		memset(m->bm_state, BMAP_FREE, m->bm_cap);
	m->bm_used = 0;
	m->bm_count = 0;
}

void jbd2_bmap_free(struct jbd2_bmap *m)
{
	kfree(m->bm_keys);
	kfree(m->bm_vals);
	kfree(m->bm_state);
	memset(m, 0, sizeof(*m));
}
