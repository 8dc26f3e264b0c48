/*
 * Temporary mappings of any page frame (kernel/mm/highmem.h).
 *
 * Layer: mm, kernel only.  Lowmem pages need nothing: both calls return
 * page_address().  Highmem pages get a PTE in one of two areas
 * (kernel/mm/mm_internal.h):
 *
 *  - pkmap, LAST_PKMAP persistent slots for kmap(): counted, so mapping
 *    the same page twice shares one slot; a hash on the frame number finds
 *    it.  The PTE is cleared (and the TLB entry invalidated) when the last
 *    user unmaps.  With every slot taken kmap() waits in the idle loop for
 *    one to come free, for at most KMAP_WAIT_MS.  Not from interrupts.
 *  - fixmap, KM_SLOTS slots used as a stack by kmap_atomic(): interrupt
 *    handlers push above whatever they interrupted and pop before they
 *    return, so one depth counter per CPU suffices.  Works with interrupts
 *    on or off; the caller must not wait while holding one.
 *
 * Lock legend: [k] pkmap.pk_lock ("kmap_lock"); [i] this CPU with
 * interrupts off.
 */
#include "kernel/mm/highmem.h"
#include "kernel/mm/mm_internal.h"
#include "kernel/completion.h"
#include "kernel/irq.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"
#include "lib/string.h"

#define KMAP_WAIT_MS	10000	/* ms a kmap() may wait for a free slot */
#define PKMAP_HASH	64	/* buckets; a power of two */
#define PKMAP_NONE	0xffffu

struct pkmap_slot {
	struct page	*ps_page;	/* [k] NULL when free */
	u32		ps_count;	/* [k] kmap() calls not yet undone */
	u16		ps_next;	/* [k] hash chain */
};

static struct pkmap_area {
	spinlock_t		pk_lock;
	struct pkmap_slot	pk_slot[LAST_PKMAP];	/* [k] */
	u16			pk_hash[PKMAP_HASH];	/* [k] first slot of each chain */
	unsigned		pk_used;		/* [k] slots with a page */
	unsigned		pk_next;		/* [k] where the free-slot search starts */
} pkmap = { .pk_lock = SPINLOCK_INIT("kmap_lock") };

/* Per CPU (one CPU today): the kmap_atomic stack depth. */
static unsigned km_depth;	/* [i] */

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
	}
	pkmap.pk_used = 0;
	pkmap.pk_next = 0;
	km_depth = 0;
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
		if (!pkmap.pk_slot[i].ps_page)
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
	pkmap.pk_used++;
	pgtable_map(pkmap_addr(i), page_to_phys(page), PTE_RW | pte_nx);
	return i;
}

/**
 * kmap - a kernel address for any page, until kunmap()
 * @page: the page; lowmem pages return page_address()
 *
 * May wait for a free slot (bounded; panics after KMAP_WAIT_MS, which
 * means slots leak).  Not from interrupt context.
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
		if (i == PKMAP_NONE)
			i = __pkmap_new(page);
		if (i != PKMAP_NONE) {
			pkmap.pk_slot[i].ps_count++;
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
 * The slot is freed (PTE cleared, TLB entry invalidated) with its last
 * user.  Panics if page is not kmapped.  Any context but NMI.
 */
void kunmap(struct page *page)
{
	struct pkmap_slot *s;
	unsigned long flags;
	unsigned i;

	if (!PageHighMem(page))
		return;
	spin_lock_irqsave(&pkmap.pk_lock, flags);
	i = __pkmap_find(page);
	if (i == PKMAP_NONE)
		panic("kunmap: frame %#llx is not kmapped",
		      (unsigned long long)page_to_pfn(page));
	s = &pkmap.pk_slot[i];
	if (--s->ps_count == 0) {
		u16 *link = &pkmap.pk_hash[pkmap_bucket(page)];

		while (*link != i)
			link = &pkmap.pk_slot[*link].ps_next;
		*link = s->ps_next;
		s->ps_next = PKMAP_NONE;
		s->ps_page = NULL;
		pkmap.pk_used--;
		pgtable_unmap(pkmap_addr(i));
	}
	spin_unlock_irqrestore(&pkmap.pk_lock, flags);
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

	if (!PageHighMem(page))
		return page_address(page);
	local_irq_save(flags);
	if (km_depth >= KM_SLOTS)
		panic("kmap_atomic: nested more than %u deep", KM_SLOTS);
	va = FIXMAP_BASE + (unsigned long)km_depth * PAGE_SIZE;
	km_depth++;
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

	if (va < FIXMAP_BASE || va >= FIXMAP_BASE + KM_SLOTS * PAGE_SIZE)
		return;		/* a lowmem page: nothing was mapped */
	local_irq_save(flags);
	if (km_depth == 0 || va != FIXMAP_BASE + (km_depth - 1) * PAGE_SIZE)
		panic("kunmap_atomic: %p is not the innermost mapping (depth %u)",
		      addr, km_depth);
	pgtable_unmap(va);
	km_depth--;
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
	return READ_ONCE(km_depth);
}
