/*
 * Temporary mappings of any page frame (kernel/mm/highmem.h).
 *
 * Layer: mm, kernel only.  Lowmem pages need nothing: both calls return
 * page_address().  Highmem pages get a PTE in one of two areas
 * (kernel/mm/mm_internal.h):
 *
 *  - pkmap, LAST_PKMAP persistent slots for kmap(), shared by all CPUs:
 *    counted, so mapping the same page twice shares one slot; a hash on
 *    the frame number finds it.  When the last user unmaps, the slot stays
 *    mapped, idle, and a later kmap() of the same page takes it back as
 *    it is.  Only when no slot is free does kmap() reclaim the idle ones
 *    at once: their entries are cleared, then one TLB shootdown
 *    (flush_tlb_kernel_range) makes every CPU forget them, and only then
 *    are they free: no CPU can reach a frame through a reused slot.  With
 *    every slot in use kmap() waits in the idle loop for one to come
 *    free, for at most KMAP_WAIT_MS.  Not from interrupts, and with
 *    interrupts on (the shootdown interrupts the other CPUs).
 *  - fixmap, KM_SLOTS slots per CPU used as a stack by kmap_atomic():
 *    interrupt handlers push above whatever they interrupted and pop
 *    before they return, so a depth counter per CPU suffices, and no
 *    other CPU ever uses these addresses, so invalidating this CPU's TLB
 *    is enough.  Works with interrupts on or off; the caller must not
 *    wait while holding one.
 *
 * Lock legend: [k] pkmap.pk_lock ("kmap_lock"); [i] this CPU with
 * interrupts off.
 */
#include "kernel/mm/highmem.h"
#include "kernel/mm/mm_internal.h"
#include "kernel/completion.h"
#include "kernel/irq.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"
#include "lib/string.h"

#define KMAP_WAIT_MS	10000	/* ms a kmap() may wait for a free slot */
#define PKMAP_HASH	64	/* buckets; a power of two */
#define PKMAP_NONE	0xffffu

/*
 * A slot is free (no page, entry clear, in no TLB), in use (a page and
 * users), idle (a page and no users: still mapped, maybe cached by any
 * CPU) or stale (entry cleared by a reclaim whose shootdown has not
 * finished: not free yet).
 */
struct pkmap_slot {
	struct page	*ps_page;	/* [k] NULL when free or stale */
	u32		ps_count;	/* [k] kmap() calls not yet undone */
	u16		ps_next;	/* [k] hash chain */
	bool		ps_stale;	/* [k] */
};

static struct pkmap_area {
	spinlock_t		pk_lock;
	struct pkmap_slot	pk_slot[LAST_PKMAP];	/* [k] */
	u16			pk_hash[PKMAP_HASH];	/* [k] first slot of each chain */
	unsigned		pk_used;		/* [k] slots in use */
	unsigned		pk_next;		/* [k] where the free-slot search starts */
	bool			pk_reclaiming;		/* [k] a shootdown is under way */
} pkmap = { .pk_lock = SPINLOCK_INIT("kmap_lock") };

static unsigned long pkmap_addr(unsigned i)
{
	return PKMAP_BASE + (unsigned long)i * PAGE_SIZE;
}

static unsigned pkmap_bucket(const struct page *page)
{
	return (unsigned)(page_to_pfn(page) & (PKMAP_HASH - 1));
}

void kmap_init(void)
{
	unsigned i;

	for (i = 0; i < PKMAP_HASH; i++)
		pkmap.pk_hash[i] = PKMAP_NONE;
	for (i = 0; i < LAST_PKMAP; i++) {
		pkmap.pk_slot[i].ps_page = NULL;
		pkmap.pk_slot[i].ps_count = 0;
		pkmap.pk_slot[i].ps_next = PKMAP_NONE;
		pkmap.pk_slot[i].ps_stale = false;
	}
	pkmap.pk_used = 0;
	pkmap.pk_next = 0;
	pkmap.pk_reclaiming = false;
	this_cpu()->c_km_depth = 0;
}

/* Slot mapping page, or PKMAP_NONE.  Caller holds kmap_lock. */
static unsigned __pkmap_find(const struct page *page)
{
	unsigned i = pkmap.pk_hash[pkmap_bucket(page)];

	while (i != PKMAP_NONE && pkmap.pk_slot[i].ps_page != page)
		i = pkmap.pk_slot[i].ps_next;
	return i;
}

/* Map page into a free slot; PKMAP_NONE if all are taken.  Caller holds kmap_lock. */
static unsigned __pkmap_new(struct page *page)
{
	unsigned n, i, b;

	for (n = 0; n < LAST_PKMAP; n++) {
		i = (pkmap.pk_next + n) % LAST_PKMAP;
		if (!pkmap.pk_slot[i].ps_page && !pkmap.pk_slot[i].ps_stale)
			break;
	}
	if (n == LAST_PKMAP)
		return PKMAP_NONE;
	pkmap.pk_next = (i + 1) % LAST_PKMAP;
	b = pkmap_bucket(page);
	pkmap.pk_slot[i].ps_page = page;
	pkmap.pk_slot[i].ps_count = 0;
	pkmap.pk_slot[i].ps_next = pkmap.pk_hash[b];
	pkmap.pk_hash[b] = (u16)i;
	pgtable_map(pkmap_addr(i), page_to_phys(page), PTE_RW | pte_nx);
	return i;
}

/* Unlink idle slot i from its hash chain and clear its entry.  kmap_lock held. */
static void __pkmap_retire(unsigned i)
{
	struct pkmap_slot *s = &pkmap.pk_slot[i];
	u16 *link = &pkmap.pk_hash[pkmap_bucket(s->ps_page)];

	while (*link != i)
		link = &pkmap.pk_slot[*link].ps_next;
	*link = s->ps_next;
	s->ps_next = PKMAP_NONE;
	s->ps_page = NULL;
	s->ps_stale = true;
	pgtable_unmap(pkmap_addr(i));
}

/*
 * Free every idle slot: clear their entries, shoot their translations
 * down on every CPU, then let them be handed out.  Called and returns
 * with kmap_lock held (flags as saved), dropping it for the shootdown.
 * false if there was nothing idle, or another CPU is reclaiming.
 */
static bool __pkmap_reclaim(unsigned long *flags)
{
	unsigned i, n = 0;

	if (pkmap.pk_reclaiming)
		return false;
	for (i = 0; i < LAST_PKMAP; i++) {
		if (pkmap.pk_slot[i].ps_page && !pkmap.pk_slot[i].ps_count) {
			__pkmap_retire(i);
			n++;
		}
	}
	if (!n)
		return false;
	pkmap.pk_reclaiming = true;
	spin_unlock_irqrestore(&pkmap.pk_lock, *flags);
	flush_tlb_kernel_range(PKMAP_BASE, pkmap_addr(LAST_PKMAP));
	spin_lock_irqsave(&pkmap.pk_lock, *flags);
	for (i = 0; i < LAST_PKMAP; i++)
		pkmap.pk_slot[i].ps_stale = false;
	pkmap.pk_reclaiming = false;
	return true;
}

/**
 * kmap - a kernel address for any page, until kunmap()
 * @page: the page; lowmem pages return page_address()
 *
 * May wait for a free slot (bounded; panics after KMAP_WAIT_MS, which
 * means slots leak).  Not from interrupt context; interrupts on.
 */
void *kmap(struct page *page)
{
	unsigned long flags;
	bool waited = false;
	u64 start = 0;
	unsigned i;

	if (!PageHighMem(page))
		return page_address(page);
	KASSERT(!in_interrupt());
	for (;;) {
		spin_lock_irqsave(&pkmap.pk_lock, flags);
		i = __pkmap_find(page);
		if (i == PKMAP_NONE) {
			i = __pkmap_new(page);
			if (i == PKMAP_NONE && __pkmap_reclaim(&flags))
				i = __pkmap_new(page);
		}
		if (i != PKMAP_NONE) {
			if (pkmap.pk_slot[i].ps_count++ == 0)
				pkmap.pk_used++;
			spin_unlock_irqrestore(&pkmap.pk_lock, flags);
			return (void *)pkmap_addr(i);
		}
		spin_unlock_irqrestore(&pkmap.pk_lock, flags);
		if (!waited) {
			waited = true;
			start = ktime_ms();
		} else if (ktime_ms() - start > KMAP_WAIT_MS) {
			panic("kmap: all %u slots held for %u ms", LAST_PKMAP, KMAP_WAIT_MS);
		}
		cpu_idle_once();
	}
}

/**
 * kunmap - undo one kmap() of page
 * @page: as given to kmap(); lowmem pages need nothing
 *
 * With its last user gone the slot turns idle: still mapped, until a
 * kmap() reclaims it.  Panics if page is not kmapped.  Any context but NMI.
 */
void kunmap(struct page *page)
{
	unsigned long flags;
	unsigned i;

	if (!PageHighMem(page))
		return;
	spin_lock_irqsave(&pkmap.pk_lock, flags);
	i = __pkmap_find(page);
	if (i == PKMAP_NONE || pkmap.pk_slot[i].ps_count == 0)
		panic("kunmap: frame %#llx is not kmapped",
		      (unsigned long long)page_to_pfn(page));
	if (--pkmap.pk_slot[i].ps_count == 0)
		pkmap.pk_used--;
	spin_unlock_irqrestore(&pkmap.pk_lock, flags);
}

/* This CPU's kmap_atomic slot at depth d. */
static unsigned long km_addr(const struct cpu *c, unsigned d)
{
	return FIXMAP_BASE + ((unsigned long)c->c_id * KM_SLOTS + d) * PAGE_SIZE;
}

/**
 * kmap_atomic - a short-lived kernel address for any page
 * @page: the page; lowmem pages return page_address()
 *
 * Any context.  Undo with kunmap_atomic() in reverse order, before waiting.
 */
void *kmap_atomic(struct page *page)
{
	unsigned long flags, va;
	struct cpu *c;

	if (!PageHighMem(page))
		return page_address(page);
	local_irq_save(flags);
	c = this_cpu();
	if (c->c_km_depth >= KM_SLOTS)
		panic("kmap_atomic: nested more than %u deep", KM_SLOTS);
	va = km_addr(c, c->c_km_depth++);
	pgtable_map(va, page_to_phys(page), PTE_RW | pte_nx);
	local_irq_restore(flags);
	return (void *)va;
}

/**
 * kunmap_atomic - undo the innermost kmap_atomic()
 * @addr: what it returned; a lowmem address is ignored
 *
 * Panics when addr is not the innermost mapping: nesting is a stack.
 */
void kunmap_atomic(void *addr)
{
	unsigned long va = (unsigned long)addr & PAGE_MASK, flags;
	struct cpu *c;

	if (va < FIXMAP_BASE)
		return;		/* a lowmem page: nothing was mapped */
	local_irq_save(flags);
	c = this_cpu();
	if (c->c_km_depth == 0 || va != km_addr(c, c->c_km_depth - 1))
		panic("kunmap_atomic: %p is not CPU %u's innermost mapping (depth %u)",
		      addr, c->c_id, c->c_km_depth);
	pgtable_unmap(va);
	c->c_km_depth--;
	local_irq_restore(flags);
}

/* Copy len bytes between two pages of any zone; the ranges stay inside each page. */
void copy_page_range(struct page *dst, unsigned dst_off,
		     struct page *src, unsigned src_off, unsigned len)
{
	u8 *d, *s;

	KASSERT(dst_off <= PAGE_SIZE && len <= PAGE_SIZE - dst_off);
	KASSERT(src_off <= PAGE_SIZE && len <= PAGE_SIZE - src_off);
	d = kmap_atomic(dst);
	s = kmap_atomic(src);
	memcpy(d + dst_off, s + src_off, len);
	kunmap_atomic(s);
	kunmap_atomic(d);
}

/* Zero [off, off + len) of a page of any zone. */
void zero_page_range(struct page *page, unsigned off, unsigned len)
{
	u8 *p;

	KASSERT(off <= PAGE_SIZE && len <= PAGE_SIZE - off);
	p = kmap_atomic(page);
	memset(p + off, 0, len);
	kunmap_atomic(p);
}

unsigned kmap_slots_used(void)
{
	return READ_ONCE(pkmap.pk_used);
}

unsigned kmap_atomic_depth(void)
{
	return READ_ONCE(this_cpu()->c_km_depth);
}
