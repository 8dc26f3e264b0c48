/*
 * Slab allocator: kmem_cache for fixed-size objects and kmalloc size
 * classes on top (kernel/mm/slab.h, statistics in kernel/mm/slab_info.h).
 *
 * Layer: mm, above the buddy allocator; pure logic given page_address()
 * and virt_to_page(), so the host tests run it on the real buddy code.
 *
 * A slab is one buddy block of lowmem frames cut into equal objects.  Its
 * descriptor (struct slab) sits at the start of the block for small
 * objects, or comes from the slab_hdr cache for objects of 512 bytes and
 * more, so that those keep their natural alignment without wasting an
 * object.  Every frame of a slab is flagged PG_slab with page->private
 * pointing at the descriptor: kfree() finds the cache from the address.
 * Free objects form a chain through their first word; the second word
 * holds SLAB_FREE_MAGIC, which makes a double free cheap to detect (a
 * freed object carrying the magic is looked for on the chain).
 *
 * kmalloc() rounds up to a power of two from 16 bytes to 128 KiB, so its
 * objects are aligned to their class size (up to the page size, and for
 * the bigger classes to the class size too: slabs are buddy blocks).
 * Larger requests, and __GFP_DMA requests, take whole buddy blocks
 * flagged PG_large with the order in page->private.
 *
 * Lock legend: [I] immutable after creation; [c] cache->c_lock;
 * [g] slab_caches_lock.  Both locks are taken with interrupts off:
 * GFP_ATOMIC allocations come from interrupt handlers.
 */
#include "kernel/mm/slab_info.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "lib/string.h"

#define SLAB_MIN_OBJS		8		/* grow the slab order until this many fit... */
#define SLAB_MAX_BYTES		(64 * 1024)	/* ...or the slab reaches this size */
#define SLAB_OFFSLAB_MIN	512		/* bytes: objects this big keep descriptors off-slab */
#define SLAB_KEEP_FREE		1		/* empty slabs kept per cache; more go back */
#define SLAB_DEFAULT_ALIGN	8		/* bytes */
#define SLAB_FREE_MAGIC		0x5AB0F4EEUL	/* second word of a free object */

struct slab {
	struct list_head	s_list;		/* [c] on c_partial, c_full or c_free */
	struct kmem_cache	*s_cache;	/* [I] */
	u8			*s_mem;		/* [I] first object */
	void			*s_free;	/* [c] chain of free objects */
	u32			s_inuse;	/* [c] objects handed out */
	struct page		*s_page;	/* [I] head frame of the block */
};

struct kmem_cache {
	spinlock_t		c_lock;
	char			c_name[KMEM_CACHE_NAME_MAX];	/* [I] */
	u32			c_objsize;	/* [I] bytes asked for */
	u32			c_stride;	/* [I] bytes per object, aligned */
	u32			c_align;	/* [I] */
	u32			c_order;	/* [I] buddy order of a slab */
	u32			c_per_slab;	/* [I] objects per slab */
	bool			c_offslab;	/* [I] descriptor from slab_hdr_cache */
	bool			c_static;	/* [I] built in, never destroyed */
	struct list_head	c_partial;	/* [c] slabs with free and used objects */
	struct list_head	c_full;		/* [c] */
	struct list_head	c_free;		/* [c] slabs with no object in use */
	u32			c_nr_free;	/* [c] slabs on c_free */
	u64			c_active;	/* [c] objects handed out */
	u64			c_slabs;	/* [c] */
	struct list_head	c_link;		/* [g] on slab_caches */
};

static LIST_HEAD(slab_caches);
static DEFINE_SPINLOCK(slab_caches_lock);

/* The built-in caches: descriptors of caches and of off-slab slabs, and kmalloc. */
static struct kmem_cache cache_cache;
static struct kmem_cache slab_hdr_cache;
static struct kmem_cache kmalloc_caches[KMALLOC_NR_CLASSES];
static unsigned long large_pages;	/* [a] frames held by PG_large blocks */

/* Lay out slabs for c: stride, order and objects per slab. */
static void cache_layout(struct kmem_cache *c)
{
	u32 hdr, order;

	c->c_stride = ALIGN_UP(max(c->c_objsize, (u32)(2 * sizeof(void *))), c->c_align);
	c->c_offslab = c->c_stride >= SLAB_OFFSLAB_MIN;
	hdr = c->c_offslab ? 0 : ALIGN_UP((u32)sizeof(struct slab), c->c_align);
	for (order = 0; order < MAX_ORDER; order++) {
		u32 bytes = PAGE_SIZE << order;
		u32 n = (bytes - hdr) / c->c_stride;

		if (n == 0)
			continue;
		c->c_order = order;
		c->c_per_slab = n;
		if (n >= SLAB_MIN_OBJS || bytes >= SLAB_MAX_BYTES)
			break;
	}
}

/* Fill in c; false if size or align cannot be served. */
static bool cache_setup(struct kmem_cache *c, const char *name, size_t size, size_t align)
{
	unsigned long flags;

	if (align == 0)
		align = SLAB_DEFAULT_ALIGN;
	if (size == 0 || size > KMALLOC_MAX_CACHE_SIZE || !is_power_of_2(align) ||
	    align > PAGE_SIZE)
		return false;
	memset(c, 0, sizeof(*c));
	spin_lock_init(&c->c_lock, "kmem_cache");
	str_copy(c->c_name, name ? name : "?", sizeof(c->c_name));
	c->c_objsize = (u32)size;
	c->c_align = (u32)align;
	INIT_LIST_HEAD(&c->c_partial);
	INIT_LIST_HEAD(&c->c_full);
	INIT_LIST_HEAD(&c->c_free);
	cache_layout(c);
	spin_lock_irqsave(&slab_caches_lock, flags);
	list_add_tail(&c->c_link, &slab_caches);
	spin_unlock_irqrestore(&slab_caches_lock, flags);
	return true;
}

void slab_init(void)
{
	unsigned i;

	INIT_LIST_HEAD(&slab_caches);
	large_pages = 0;
	cache_setup(&cache_cache, "kmem_cache", sizeof(struct kmem_cache), 0);
	cache_setup(&slab_hdr_cache, "slab_hdr", sizeof(struct slab), 0);
	cache_cache.c_static = slab_hdr_cache.c_static = true;
	for (i = 0; i < KMALLOC_NR_CLASSES; i++) {
		u32 size = KMALLOC_MIN_SIZE << i;
		char name[KMEM_CACHE_NAME_MAX];

		snprintf(name, sizeof(name), "kmalloc-%u", size);
		/* Natural alignment: DMA descriptors rely on it. */
		cache_setup(&kmalloc_caches[i], name, size, min(size, (u32)PAGE_SIZE));
		kmalloc_caches[i].c_static = true;
	}
}

/* Allocate and carve a new slab for c, outside the cache lock; NULL if no memory. */
static struct slab *slab_grow(struct kmem_cache *c, gfp_t gfp)
{
	struct page *page;
	struct slab *s;
	u8 *mem;
	u32 i;

	gfp &= ~(__GFP_HIGHMEM | __GFP_ZERO | __GFP_DMA);
	page = alloc_pages(gfp | __GFP_NOWARN, c->c_order);
	if (!page)
		return NULL;
	mem = page_address(page);
	if (c->c_offslab) {
		s = kmem_cache_alloc(&slab_hdr_cache, gfp);
		if (!s)
			goto free_pages;
		s->s_mem = mem;
	} else {
		s = (struct slab *)mem;
		s->s_mem = mem + ALIGN_UP((u32)sizeof(struct slab), c->c_align);
	}
	s->s_cache = c;
	s->s_page = page;
	s->s_inuse = 0;
	s->s_free = NULL;
	/* Chain the objects so that the lowest address is handed out first. */
	for (i = c->c_per_slab; i-- > 0;) {
		void **obj = (void **)(s->s_mem + i * c->c_stride);

		obj[0] = s->s_free;
		obj[1] = (void *)SLAB_FREE_MAGIC;
		s->s_free = obj;
	}
	for (i = 0; i < (1U << c->c_order); i++) {
		page[i].flags |= PG_slab;
		page[i].private = (unsigned long)s;
	}
	return s;

free_pages:
	__free_pages(page, c->c_order);
	return NULL;
}

/* Give an empty slab's memory back; outside the cache lock. */
static void slab_release(struct kmem_cache *c, struct slab *s)
{
	struct page *page = s->s_page;
	u32 i;

	for (i = 0; i < (1U << c->c_order); i++) {
		page[i].flags &= ~PG_slab;
		page[i].private = 0;
	}
	if (c->c_offslab)
		kmem_cache_free(&slab_hdr_cache, s);
	__free_pages(page, c->c_order);
}

/**
 * kmem_cache_alloc - one object from a cache
 * @c: the cache
 * @gfp: GFP_KERNEL, GFP_ATOMIC (interrupt context), __GFP_ZERO
 *
 * Returns the object, aligned as the cache was created, or NULL.
 */
void *kmem_cache_alloc(struct kmem_cache *c, gfp_t gfp)
{
	unsigned long flags;
	struct slab *s;
	void **obj;

	spin_lock_irqsave(&c->c_lock, flags);
	while (list_empty(&c->c_partial)) {
		if (!list_empty(&c->c_free)) {
			list_move(c->c_free.next, &c->c_partial);
			c->c_nr_free--;
			break;
		}
		spin_unlock_irqrestore(&c->c_lock, flags);
		s = slab_grow(c, gfp);
		if (!s)
			return NULL;
		spin_lock_irqsave(&c->c_lock, flags);
		list_add(&s->s_list, &c->c_partial);
		c->c_slabs++;
	}
	s = list_first_entry(&c->c_partial, struct slab, s_list);
	obj = s->s_free;
	s->s_free = obj[0];
	if (++s->s_inuse == c->c_per_slab)
		list_move(&s->s_list, &c->c_full);
	c->c_active++;
	spin_unlock_irqrestore(&c->c_lock, flags);

	obj[0] = NULL;
	obj[1] = NULL;
	if (gfp & __GFP_ZERO)
		memset(obj, 0, c->c_objsize);
	return obj;
}

void *kmem_cache_zalloc(struct kmem_cache *c, gfp_t gfp)
{
	return kmem_cache_alloc(c, gfp | __GFP_ZERO);
}

/* The slab an object lives in; panics for an address no slab owns. */
static struct slab *obj_to_slab(const void *obj, const char *who)
{
	struct page *page = virt_to_page(obj);

	if (!page || !(page->flags & PG_slab))
		panic("%s: %p is not slab memory", who, obj);
	return (struct slab *)page->private;
}

/* Return obj to its slab; the caller checked that s belongs to c. */
static void slab_free(struct kmem_cache *c, struct slab *s, void *objp, const char *who)
{
	struct slab *victim = NULL;
	unsigned long flags;
	void **obj = objp;
	uintptr_t off = (uintptr_t)((u8 *)objp - s->s_mem);

	if ((u8 *)objp < s->s_mem || off % c->c_stride || off / c->c_stride >= c->c_per_slab)
		panic("%s: %p is not an object start in cache %s", who, objp, c->c_name);

	spin_lock_irqsave(&c->c_lock, flags);
	if (obj[1] == (void *)SLAB_FREE_MAGIC) {
		void **f = s->s_free;
		u32 n;

		/* Bounded: a chain longer than the slab is corruption too. */
		for (n = 0; f && n <= c->c_per_slab; n++, f = f[0])
			if (f == obj)
				panic("%s: double free of %p in cache %s", who, objp, c->c_name);
	}
	KASSERT(s->s_inuse > 0);
	obj[0] = s->s_free;
	obj[1] = (void *)SLAB_FREE_MAGIC;
	s->s_free = obj;
	c->c_active--;
	if (s->s_inuse-- == c->c_per_slab)
		list_move(&s->s_list, &c->c_partial);
	if (s->s_inuse == 0) {
		if (c->c_nr_free >= SLAB_KEEP_FREE) {
			list_del_init(&s->s_list);
			c->c_slabs--;
			victim = s;
		} else {
			list_move(&s->s_list, &c->c_free);
			c->c_nr_free++;
		}
	}
	spin_unlock_irqrestore(&c->c_lock, flags);
	if (victim)
		slab_release(c, victim);
}

/**
 * kmem_cache_free - give an object back to its cache
 * @c: the cache it came from; @obj: the object, or NULL
 *
 * Panics on an address no slab owns, on an object of another cache, an
 * interior pointer or a double free.  Any context.
 */
void kmem_cache_free(struct kmem_cache *c, void *obj)
{
	struct slab *s;

	if (!obj)
		return;
	s = obj_to_slab(obj, "kmem_cache_free");
	if (s->s_cache != c)
		panic("kmem_cache_free: %p belongs to %s, not %s", obj,
		      s->s_cache->c_name, c->c_name);
	slab_free(c, s, obj, "kmem_cache_free");
}

/**
 * kmem_cache_create - a cache of objects of one size
 * @name: for meminfo (copied)
 * @size: object size in bytes, 1..128 KiB
 * @align: power of two up to the page size; 0 for 8 bytes
 *
 * Returns the cache or NULL (bad size or alignment, no memory).
 */
struct kmem_cache *kmem_cache_create(const char *name, size_t size, size_t align)
{
	struct kmem_cache *c = kmem_cache_alloc(&cache_cache, GFP_KERNEL);

	if (!c)
		return NULL;
	if (!cache_setup(c, name, size, align)) {
		kmem_cache_free(&cache_cache, c);
		return NULL;
	}
	return c;
}

/* Destroy an unused cache.  A cache with live objects is reported and kept. */
void kmem_cache_destroy(struct kmem_cache *c)
{
	struct slab *s, *t;
	unsigned long flags;
	LIST_HEAD(dead);

	if (!c)
		return;
	KASSERT(!c->c_static);
	spin_lock_irqsave(&c->c_lock, flags);
	if (c->c_active) {
		spin_unlock_irqrestore(&c->c_lock, flags);
		pr_err("kmem_cache_destroy: %s still has %llu objects in use; kept\n",
		       c->c_name, (unsigned long long)c->c_active);
		return;
	}
	list_splice_tail_init(&c->c_free, &dead);
	c->c_nr_free = 0;
	c->c_slabs = 0;
	spin_unlock_irqrestore(&c->c_lock, flags);

	spin_lock_irqsave(&slab_caches_lock, flags);
	list_del_init(&c->c_link);
	spin_unlock_irqrestore(&slab_caches_lock, flags);
	list_for_each_entry_safe(s, t, &dead, s_list) {
		list_del_init(&s->s_list);
		slab_release(c, s);
	}
	kmem_cache_free(&cache_cache, c);
}

/* Index of the smallest class holding size bytes (size <= KMALLOC_MAX_CACHE_SIZE). */
static unsigned kmalloc_index(size_t size)
{
	unsigned i = 0;

	while ((size_t)(KMALLOC_MIN_SIZE << i) < size)
		i++;
	return i;
}

/* A whole buddy block for large or DMA requests. */
static void *kmalloc_large(size_t size, gfp_t gfp)
{
	unsigned order = 0;
	struct page *page;

	while ((PAGE_SIZE << order) < size) {
		if (++order >= MAX_ORDER)
			return NULL;
	}
	page = alloc_pages(gfp & ~__GFP_HIGHMEM, order);
	if (!page)
		return NULL;
	page->flags |= PG_large;
	page->private = order;
	__atomic_add_fetch(&large_pages, 1UL << order, __ATOMIC_RELAXED);
	return page_address(page);
}

/**
 * kmalloc - memory for size bytes, lowmem, aligned to the size's class
 * @size: bytes; up to 4 MiB (larger returns NULL)
 * @gfp: GFP_KERNEL, GFP_ATOMIC, GFP_DMA (below 16 MiB), __GFP_ZERO
 */
void *kmalloc(size_t size, gfp_t gfp)
{
	if (size > KMALLOC_MAX_CACHE_SIZE || (gfp & __GFP_DMA))
		return kmalloc_large(size, gfp);
	return kmem_cache_alloc(&kmalloc_caches[kmalloc_index(size)], gfp);
}

void *kzalloc(size_t size, gfp_t gfp)
{
	return kmalloc(size, gfp | __GFP_ZERO);
}

/* kzalloc(n * size), or NULL when the product overflows. */
void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	if (size && n > (size_t)-1 / size)
		return NULL;
	return kzalloc(n * size, gfp);
}

/**
 * kfree - free what kmalloc(), kzalloc() or kcalloc() returned
 * @p: the pointer, or NULL
 *
 * Panics on memory that did not come from kmalloc.  Any context.
 */
void kfree(const void *p)
{
	struct page *page;
	struct slab *s;

	if (!p)
		return;
	page = virt_to_page(p);
	if (page && (page->flags & PG_large)) {
		unsigned order = (unsigned)page->private;

		if (page_address(page) != p)
			panic("kfree: %p is inside a large block, not its start", p);
		page->flags &= ~PG_large;
		page->private = 0;
		__atomic_sub_fetch(&large_pages, 1UL << order, __ATOMIC_RELAXED);
		__free_pages(page, order);
		return;
	}
	s = obj_to_slab(p, "kfree");
	if (s->s_cache < kmalloc_caches || s->s_cache >= kmalloc_caches + KMALLOC_NR_CLASSES)
		panic("kfree: %p belongs to cache %s, not kmalloc", p, s->s_cache->c_name);
	slab_free(s->s_cache, s, (void *)p, "kfree");
}

void kmem_cache_get_stats(struct kmem_cache *c, struct kmem_cache_stats *st)
{
	unsigned long flags;

	spin_lock_irqsave(&c->c_lock, flags);
	memcpy(st->cs_name, c->c_name, sizeof(st->cs_name));
	st->cs_objsize = c->c_objsize;
	st->cs_stride = c->c_stride;
	st->cs_per_slab = c->c_per_slab;
	st->cs_order = c->c_order;
	st->cs_active = c->c_active;
	st->cs_slabs = c->c_slabs;
	st->cs_total = c->c_slabs * c->c_per_slab;
	spin_unlock_irqrestore(&c->c_lock, flags);
}

/*
 * The statistics of the idx-th cache on the list into *st; false past the
 * end.  The lock is held for one snapshot only, never across the caller's
 * fn (meminfo prints, which is slow with interrupts off).
 */
static bool slab_cache_stats_at(unsigned idx, struct kmem_cache_stats *st)
{
	struct kmem_cache *c;
	unsigned long flags;
	unsigned i = 0;
	bool found = false;

	spin_lock_irqsave(&slab_caches_lock, flags);
	list_for_each_entry(c, &slab_caches, c_link) {
		if (i++ == idx) {
			kmem_cache_get_stats(c, st);
			found = true;
			break;
		}
	}
	spin_unlock_irqrestore(&slab_caches_lock, flags);
	return found;
}

int slab_for_each_cache(int (*fn)(const struct kmem_cache_stats *st, void *arg), void *arg)
{
	struct kmem_cache_stats st;
	unsigned idx;
	int ret;

	/* Quadratic in the number of caches, a few dozen: cheaper than holding the lock. */
	for (idx = 0; slab_cache_stats_at(idx, &st); idx++) {
		ret = fn(&st, arg);
		if (ret)
			return ret;
	}
	return 0;
}

u64 kmalloc_large_pages(void)
{
	return __atomic_load_n(&large_pages, __ATOMIC_RELAXED);
}
