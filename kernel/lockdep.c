/*
 * Lock statistics and the lock-order checker (kernel/lockdep.h).
 *
 * lockstat: each CPU counts in its own table (no atomics, no shared cache
 * line), with interrupts off while it updates a slot; the shell sums the
 * tables.  A class is found by its name's address (names are literals),
 * by open addressing; a full table drops the sample and counts the drop.
 *
 * lockdep: each CPU keeps the stack of locks it holds.  Taking B while
 * holding A records the edge A->B with both call sites in one shared
 * table, guarded by a bare exchange lock (a spinlock_t would recurse into
 * this code).  If B->A is there already, the inversion is reported once.
 */
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/errno.h"
#include "kernel/lockdep.h"
#include "kernel/param.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "lib/string.h"

#define LOCKDEP_EDGES	1024	/* ordered pairs of classes remembered */

bool lockdep_on;
PARAM_BOOL("lockdep", lockdep_on, "check the order locks are taken in; report inversions");

u32 lockdep_inversions;
static u32 lockstat_dropped;		/* [a] samples with no free slot */

struct lockstat_entry lockstat_boot_table[LOCKSTAT_SLOTS];

static u32 class_hash(const char *name)
{
	return ((u32)(unsigned long)name >> 2) * 2654435761u;
}

void lockstat_contended(struct spinlock *l, u64 cycles)
{
	struct lockstat_entry *t = this_cpu()->c_lockstat, *e;
	const char *name = l->sl_name ? l->sl_name : "?";
	unsigned long flags;
	u32 i, h;

	if (!t)
		return;
	local_irq_save(flags);
	h = class_hash(name);
	for (i = 0; i < LOCKSTAT_SLOTS; i++) {
		e = &t[(h + i) % LOCKSTAT_SLOTS];
		if (e->ls_name == name || !e->ls_name)
			break;
	}
	if (i == LOCKSTAT_SLOTS) {
		__atomic_add_fetch(&lockstat_dropped, 1, __ATOMIC_RELAXED);
	} else {
		e->ls_name = name;
		e->ls_contended++;
		e->ls_wait_cycles += cycles;
		e->ls_max_cycles = max(e->ls_max_cycles, cycles);
	}
	local_irq_restore(flags);
}

void lockstat_reset(void)
{
	struct cpu *c;
	unsigned long flags;
	u32 i;

	for_each_cpu(c, i) {
		if (!c->c_lockstat)
			continue;
		local_irq_save(flags);
		memset(c->c_lockstat, 0, LOCKSTAT_SLOTS * sizeof(*c->c_lockstat));
		local_irq_restore(flags);
	}
	lockstat_dropped = 0;
}

/* --- lock order ----------------------------------------------------------- */

struct lockdep_edge {
	const char	*le_from, *le_to;		/* classes; NULL: free */
	const char	*le_from_where, *le_to_where;	/* where they were taken */
	bool		le_reported;
};

static struct lockdep_edge edges[LOCKDEP_EDGES];	/* [edge_lock] */
static volatile u32 edge_lock;
static u32 edges_dropped;				/* [edge_lock] */

static void edge_lock_take(void)
{
	while (__atomic_exchange_n(&edge_lock, 1, __ATOMIC_ACQUIRE))
		cpu_relax();
}

static void edge_lock_drop(void)
{
	__atomic_store_n(&edge_lock, 0, __ATOMIC_RELEASE);
}

/* The slot of edge from->to, or the free slot where it would go; NULL if full. */
static struct lockdep_edge *edge_slot(const char *from, const char *to)
{
	u32 h = class_hash(from) ^ (class_hash(to) >> 7), i;

	for (i = 0; i < LOCKDEP_EDGES; i++) {
		struct lockdep_edge *e = &edges[(h + i) % LOCKDEP_EDGES];

		if (!e->le_from || (e->le_from == from && e->le_to == to))
			return e;
	}
	return NULL;
}

/* Record held->taking; an inversion found is copied out to be printed unlocked. */
static bool edge_add(const struct lockdep_held *held, const char *to, const char *to_where,
		     struct lockdep_edge *inverse)
{
	struct lockdep_edge *e, *rev;
	bool found = false;

	edge_lock_take();
	e = edge_slot(held->lh_name, to);
	if (!e) {
		edges_dropped++;
	} else if (!e->le_from) {
		e->le_from = held->lh_name;
		e->le_to = to;
		e->le_from_where = held->lh_where;
		e->le_to_where = to_where;
		rev = edge_slot(to, held->lh_name);
		if (rev && rev->le_from && !rev->le_reported) {
			rev->le_reported = e->le_reported = true;
			*inverse = *rev;
			found = true;
		}
	}
	edge_lock_drop();
	return found;
}

void lockdep_acquire(struct spinlock *l, const char *where)
{
	struct cpu *c = this_cpu();
	const char *name = l->sl_name ? l->sl_name : "?";
	struct lockdep_edge inv;
	u32 i;

	if (c->c_in_lockdep)
		return;
	c->c_in_lockdep = true;
	for (i = 0; i < c->c_nheld; i++) {
		const struct lockdep_held *h = &c->c_held[i];

		if (h->lh_name == name || !edge_add(h, name, where, &inv))
			continue;
		__atomic_add_fetch(&lockdep_inversions, 1, __ATOMIC_RELAXED);
		pr_err("lockdep: lock order inversion on CPU %u: %s (taken at %s) then %s (at %s),\n"
		       "lockdep:   but earlier %s (taken at %s) then %s (at %s)\n", c->c_id,
		       h->lh_name, h->lh_where, name, where, inv.le_from, inv.le_from_where,
		       inv.le_to, inv.le_to_where);
	}
	if (c->c_nheld < LOCKDEP_HELD_MAX) {
		c->c_held[c->c_nheld].lh_name = name;
		c->c_held[c->c_nheld].lh_where = where;
		c->c_held[c->c_nheld].lh_lock = l;
		c->c_nheld++;
	}
	c->c_in_lockdep = false;
}

/* Locks may be released in any order; one never seen taken is ignored. */
void lockdep_release(struct spinlock *l)
{
	struct cpu *c = this_cpu();
	u32 i;

	for (i = c->c_nheld; i-- > 0;) {
		if (c->c_held[i].lh_lock != l)
			continue;
		memmove(&c->c_held[i], &c->c_held[i + 1],
			(c->c_nheld - i - 1) * sizeof(c->c_held[0]));
		c->c_nheld--;
		return;
	}
}
