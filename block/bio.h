/*
 * struct bio: the unit of block I/O.  A bio names a run of sectors on a
 * block device and the memory for it as a vector of {page, offset, len}
 * (never a virtual address: the page may be in highmem).  Where the I/O
 * stands is kept apart from the vector, in a bvec_iter, so that a bio can
 * be split at any sector inside any vector, and the halves (and clones)
 * share one vector array without copying it.
 *
 * One vector entry may span several physically contiguous pages (bv_page
 * is the first, bv_offset < PAGE_SIZE, bv_len any): bio_add_page() grows
 * the last entry when the next page continues it, so a megabyte of
 * contiguous memory is one entry, not 256.  Code that maps memory into
 * the kernel (kmap) walks single-page pieces with bio_for_each_segment;
 * code that only needs physical ranges (segment counting, scatter/gather,
 * the bounce check) walks whole entries with bio_for_each_bvec.
 *
 * Lifetime: bio_alloc() returns a bio with one reference; bio_put() drops
 * it.  bio_endio() ends the I/O exactly once: it records the first error,
 * waits for chained children (bio_chain), then calls bi_end_io.
 *
 * bi_end_io runs in interrupt context, possibly with the queue lock held:
 * it must not submit I/O itself (hand that to deferred work).
 *
 * Lock legend: [I] immutable after submission, [o] owner (the submitter
 * until submit, then the block layer/driver that holds it), [a] atomic.
 */
#ifndef BLOCK_BIO_H
#define BLOCK_BIO_H

#include "kernel/compiler.h"
#include "kernel/mm/gfp.h"
#include "kernel/mm/page.h"

struct page;
struct bio;
struct block_device;
struct request_queue;

/* bi_rw and rq_cmd_flags: what the I/O is. */
#define REQ_WRITE	0x0001u		/* data towards the device */
#define REQ_FUA		0x0004u		/* durable when it completes */
#define REQ_PREFLUSH	0x0008u		/* empty the write cache before the data */
#define REQ_NOMERGE	0x0010u		/* never merge with a neighbour */
#define REQ_DISCARD	0x0020u		/* with REQ_WRITE: the range's data may go */
#define REQ_WRITE_ZEROES 0x0040u	/* with REQ_WRITE: the range reads as zeroes */
#define REQ_FLUSH_DATA	(REQ_FUA | REQ_PREFLUSH)
#define REQ_NODATA	(REQ_DISCARD | REQ_WRITE_ZEROES)
#define REQ_NOMERGE_FLAGS (REQ_NOMERGE | REQ_FUA | REQ_PREFLUSH | REQ_NODATA)

/*
 * DISCARD and WRITE ZEROES are flags on a write, as in Linux 2.6.x, rather
 * than a separate op field: everything that must treat them as writes
 * (the read-only policy in bdev_remap, rq_is_write for stats, the
 * elevator's direction) does so with no change, and the one thing that
 * differs -- they carry a sector range (bi_iter.bi_size) and no data
 * pages (bi_vcnt == 0) -- is tested with bio_has_data() wherever the
 * vector is walked: segments, bounce, split, advance, scatter/gather.
 * They never merge (REQ_NOMERGE_FLAGS): a discard request is one range.
 */

/* bi_flags: what the block layer did to it. */
#define BIO_CLONED	0x0001u		/* shares another bio's vector */
#define BIO_BOUNCED	0x0002u		/* is a bounce copy of bi_private's bio */
#define BIO_CHAIN	0x0004u		/* completion goes to bi_parent */
#define BIO_SPLIT	0x0008u		/* front part of a split */
#define BIO_SEG_VALID	0x0010u		/* bi_phys_segs counts the rest, for bi_queue */

#define BIO_MAX_VECS	256u

struct bio_vec {
	struct page	*bv_page;
	u32		bv_len;
	u32		bv_offset;
};

/* Where a bio's I/O stands: the next sector and the bytes left. */
struct bvec_iter {
	sector_t	bi_sector;	/* next sector to transfer */
	u32		bi_size;	/* bytes left */
	u32		bi_idx;		/* current index into bi_io_vec */
	u32		bi_bvec_done;	/* bytes done in bi_io_vec[bi_idx] */
};

typedef void (bio_end_io_t)(struct bio *bio, int error);

struct bio {
	struct bvec_iter	bi_iter;	/* [o] */
	struct block_device	*bi_bdev;	/* [o] target; NULL with blk_queue_submit_bio() */
	struct request_queue	*bi_queue;	/* [o] set at submission */
	struct bio		*bi_next;	/* [o] request chain */
	u32			bi_rw;		/* [I] REQ_* */
	u32			bi_flags;	/* [o] BIO_* */
	u16			bi_vcnt;	/* [o] vectors filled in bi_io_vec */
	u16			bi_max_vecs;	/* [I] capacity of bi_io_vec */
	u32			bi_phys_segs;	/* [o] with BIO_SEG_VALID: counted by the split check */
	int			bi_error;	/* [a] first error seen */
	int			bi_cnt;		/* [a] references */
	int			bi_remaining;	/* [a] completions to wait for */
	struct bio		*bi_parent;	/* [I] with BIO_CHAIN */
	struct cpu		*bi_cpu;	/* [I] the CPU that made it, woken when it ends */
	bio_end_io_t		*bi_end_io;	/* [o] */
	void			*bi_private;	/* [o] the submitter's word */
	u64			bi_start_ns;	/* [o] submission time, for traces */
	struct bio_vec		*bi_io_vec;	/* [I] inline or pooled vector */
	void			*bi_pool;	/* [I] bio_set pool of bi_io_vec, NULL if inline */
	struct bio_vec		bi_inline_vecs[];
};

static inline bool bio_is_write(const struct bio *b) { return (b->bi_rw & REQ_WRITE) != 0; }
static inline u32 bio_sectors(const struct bio *b) { return b->bi_iter.bi_size >> SECTOR_SHIFT; }
static inline sector_t bio_end_sector(const struct bio *b)
{
	return b->bi_iter.bi_sector + bio_sectors(b);
}
/* Does the bio carry memory (not a DISCARD or WRITE ZEROES range)? */
static inline bool bio_has_data(const struct bio *b)
{
	return !(b->bi_rw & REQ_NODATA) && b->bi_iter.bi_size != 0;
}
static inline bool bio_is_discard(const struct bio *b) { return (b->bi_rw & REQ_DISCARD) != 0; }
static inline bool bio_is_write_zeroes(const struct bio *b)
{
	return (b->bi_rw & REQ_WRITE_ZEROES) != 0;
}
/* A pure flush: no data, just empty the cache. */
static inline bool bio_is_flush(const struct bio *b)
{
	return (b->bi_rw & REQ_PREFLUSH) && b->bi_iter.bi_size == 0;
}

/* The rest of the vector entry at iter, clipped to what is left: may span pages. */
static inline struct bio_vec mp_bvec_iter_bvec(const struct bio_vec *vec, struct bvec_iter it)
{
	const struct bio_vec *v = &vec[it.bi_idx];
	u32 off = v->bv_offset + it.bi_bvec_done;
	struct bio_vec bv;

	bv.bv_page = v->bv_page + (off >> PAGE_SHIFT);	/* a run's struct pages are adjacent */
	bv.bv_offset = off & (PAGE_SIZE - 1);
	bv.bv_len = min(v->bv_len - it.bi_bvec_done, it.bi_size);
	return bv;
}

/* The piece of memory at iter, clipped to its page and to what is left. */
static inline struct bio_vec bvec_iter_bvec(const struct bio_vec *vec, struct bvec_iter it)
{
	struct bio_vec bv = mp_bvec_iter_bvec(vec, it);

	bv.bv_len = min(bv.bv_len, (u32)PAGE_SIZE - bv.bv_offset);
	return bv;
}

/* Move iter on by bytes (which must not exceed bi_size). */
void bvec_iter_advance(const struct bio_vec *vec, struct bvec_iter *it, u32 bytes);

#define __bio_for_each(bv, bio, iter, start, get)				\
	for (iter = (start);							\
	     (iter).bi_size && ((bv = get((bio)->bi_io_vec, iter)), 1);	\
	     bvec_iter_advance((bio)->bi_io_vec, &(iter), (bv).bv_len))

/* Visit each piece of memory left to transfer, one page at most each. */
#define bio_for_each_segment(bv, bio, iter)					\
	__bio_for_each(bv, bio, iter, (bio)->bi_iter, bvec_iter_bvec)

/* Visit each physically contiguous range left to transfer (whole entries). */
#define bio_for_each_bvec(bv, bio, iter)					\
	__bio_for_each(bv, bio, iter, (bio)->bi_iter, mp_bvec_iter_bvec)

/*
 * Visit every page-sized piece of the whole vector, whatever the bio's
 * iterator says: for the owner of the pages, at completion.
 */
#define bio_for_each_segment_all(bv, bio, iter)				\
	__bio_for_each(bv, bio, iter, bio_vec_all(bio), bvec_iter_bvec)

/* bio.c */
int bio_init_pools(void);
struct bio *bio_alloc(gfp_t gfp, unsigned nr_vecs);
void bio_get(struct bio *bio);
void bio_cache_drain(void);
void bio_put(struct bio *bio);
int bio_add_page(struct bio *bio, struct page *page, u32 len, u32 offset);
struct bio *bio_clone(struct bio *src, gfp_t gfp);
struct bio *bio_split(struct bio *bio, u32 sectors, gfp_t gfp);
void bio_chain(struct bio *child, struct bio *parent);
void bio_advance(struct bio *bio, u32 bytes);
void bio_endio(struct bio *bio, int error);
u32 bio_nr_vecs_left(const struct bio *bio);
struct bvec_iter bio_vec_all(const struct bio *bio);

/* blk-core.c */
void submit_bio(struct bio *bio);
int submit_bio_wait(struct bio *bio);
void blk_queue_submit_bio(struct request_queue *q, struct bio *bio);

#endif
