/*
 * Bounce buffers: copies of I/O memory the device cannot use as it is.
 *
 * A piece of a bio is bounced when it lies above the queue's bounce limit
 * (a 32-bit DMA engine and a page above 4 GiB), when it is in highmem and
 * the driver needs a kernel mapping, or when its address or length breaks
 * the queue's DMA alignment.  Nothing the device can reach is copied.
 *
 * Bounced pieces are packed, in order, into pages from a pool below the
 * limit (the normal zone for limits of 4 GiB and up, the DMA zone below);
 * once an unaligned piece starts a packed run, the run goes on until its
 * length is aligned again, so every entry the device sees is aligned.
 * Writes are copied at submission, reads copied back at completion.
 *
 * The bounce bio's vector holds the I/O pieces in its first half and, at
 * the same index in its second half, the original memory of each bounced
 * piece (bv_page NULL for pieces passed through).  At most
 * BOUNCE_MAX_VECS vectors are bounced at once (blk_bounce_split), which
 * bounds the pieces to 2 per vector and the whole to BIO_MAX_VECS.
 */
#include "block/blk.h"
#include "kernel/errno.h"
#include "kernel/mm/highmem.h"
#include "kernel/mm/mempool.h"
#include "kernel/mm/page.h"

#define BOUNCE_POOL_MIN	16u	/* pages kept in reserve per queue */
#define BOUNCE_MAX_VECS	(BIO_MAX_VECS / 4)

static void *isa_page_alloc(gfp_t gfp, void *data)
{
	return alloc_pages((gfp & ~__GFP_HIGHMEM) | __GFP_DMA, 0);
}

static void isa_page_free(void *page, void *data)
{
	__free_pages(page, 0);
}

static bool queue_may_bounce(const struct queue_limits *lim)
{
	return lim->lim_bounce_limit != BLK_BOUNCE_NONE || lim->lim_bounce_highmem ||
	       lim->lim_dma_alignment;
}

/**
 * blk_bounce_init - (re)create q's bounce pool for its current limits.
 * Setup time only, before I/O.  Return: 0 or -ENOMEM.
 */
int blk_bounce_init(struct request_queue *q)
{
	const struct queue_limits *lim = &q->q_limits;
	mempool_t *pool;

	blk_bounce_exit(q);
	if (!queue_may_bounce(lim))
		return 0;
	if (lim->lim_bounce_limit < BLK_BOUNCE_4G)
		pool = mempool_create(BOUNCE_POOL_MIN, isa_page_alloc, isa_page_free, NULL);
	else
		pool = mempool_create_page_pool(BOUNCE_POOL_MIN, 0);
	if (!pool)
		return -ENOMEM;
	q->q_bounce_pool = pool;
	return 0;
}

void blk_bounce_exit(struct request_queue *q)
{
	if (q->q_bounce_pool)
		mempool_destroy(q->q_bounce_pool);
	q->q_bounce_pool = NULL;
}

/*
 * Does the contiguous range bv (one page or several) need a bounce copy?
 * HighMem is the top of memory, so if any page of a range is highmem its
 * last one is.
 */
static bool piece_needs_bounce(const struct queue_limits *lim, const struct bio_vec *bv)
{
	phys_addr_t phys = page_to_phys(bv->bv_page) + bv->bv_offset;
	const struct page *last = bv->bv_page + ((bv->bv_offset + bv->bv_len - 1) >> PAGE_SHIFT);

	return phys + bv->bv_len - 1 > lim->lim_bounce_limit ||
	       (lim->lim_bounce_highmem && PageHighMem(last)) ||
	       ((phys | bv->bv_len) & lim->lim_dma_alignment);
}

/* Does any piece of the rest of bio need a bounce copy? */
bool blk_bio_needs_bounce(const struct queue_limits *lim, const struct bio *bio)
{
	struct bvec_iter it;
	struct bio_vec bv;

	if (!queue_may_bounce(lim) || !bio_has_data(bio))
		return false;	/* a DISCARD or WRITE ZEROES range has no pages */
	bio_for_each_bvec(bv, bio, it)
		if (piece_needs_bounce(lim, &bv))
			return true;
	return false;
}

/**
 * blk_bounce_split - the next part of bio small enough to bounce at once.
 * Return: bio itself (fits, or needs no bounce), a front part chained to
 * bio, or ERR_PTR(-EINVAL) when one logical block spans more than
 * BOUNCE_MAX_VECS vectors.
 */
struct bio *blk_bounce_split(struct request_queue *q, struct bio *bio)
{
	const struct queue_limits *lim = &q->q_limits;
	struct bvec_iter it;
	struct bio_vec bv;
	u32 n = 0, bytes = 0;
	unsigned long flags;
	struct bio *front;

	if (!blk_bio_needs_bounce(lim, bio) || bio_nr_vecs_left(bio) <= BOUNCE_MAX_VECS)
		return bio;
	bio_for_each_segment(bv, bio, it) {
		if (n++ == BOUNCE_MAX_VECS)
			break;
		bytes += bv.bv_len;
	}
	bytes -= bytes % lim->lim_logical_block_size;
	if (!bytes)
		return ERR_PTR(-EINVAL);
	front = bio_split(bio, bytes >> SECTOR_SHIFT, GFP_NOIO);
	spin_lock_irqsave(q->q_lock, flags);
	q->q_stats.st_splits++;
	__blk_trace(q, BLK_TA_SPLIT, front->bi_iter.bi_sector, bytes, front->bi_rw,
		    (s32)(bytes >> SECTOR_SHIFT));
	spin_unlock_irqrestore(q->q_lock, flags);
	return front;
}

/*
 * The bounce bio ended: copy reads back, then free its pages, then end
 * the original.  A bounce page holds several pieces (blk_queue_bounce
 * packs them), so no page may go back before every piece is copied out
 * of it: another CPU could take it at once and write into it.  Each page
 * is freed once, at the piece that starts it (offset 0).
 */
static void bounce_end_io(struct bio *b, int error)
{
	struct bio *orig = b->bi_private;
	mempool_t *pool = b->bi_queue->q_bounce_pool;
	const struct bio_vec *ov = b->bi_io_vec + b->bi_max_vecs / 2;
	const struct bio_vec *bv = b->bi_io_vec;
	u32 i;

	for (i = 0; i < b->bi_vcnt && !error && !bio_is_write(orig); i++)
		if (ov[i].bv_page)
			copy_page_range(ov[i].bv_page, ov[i].bv_offset,
					bv[i].bv_page, bv[i].bv_offset, bv[i].bv_len);
	for (i = 0; i < b->bi_vcnt; i++)
		if (ov[i].bv_page && bv[i].bv_offset == 0)
			mempool_free(bv[i].bv_page, pool);
	bio_put(b);
	bio_endio(orig, error);
}

/**
 * blk_queue_bounce - the bio to send to q's device in place of bio.
 * Return: bio itself when nothing needs bouncing, else a bounce bio that
 * ends bio when it ends.  bio must have passed blk_bounce_split().
 */
struct bio *blk_queue_bounce(struct request_queue *q, struct bio *bio)
{
	const struct queue_limits *lim = &q->q_limits;
	u32 align = lim->lim_dma_alignment, k = 0, pos = PAGE_SIZE, off, take, pages = 0;
	struct bio_vec *out, *ov;
	struct page *page = NULL;
	unsigned long flags;
	struct bvec_iter it;
	struct bio_vec bv;
	struct bio *b;
	u32 run = 0;

	if (!blk_bio_needs_bounce(lim, bio))
		return bio;
	KASSERT(q->q_bounce_pool && bio_nr_vecs_left(bio) <= BOUNCE_MAX_VECS);
	b = bio_alloc(GFP_NOIO, 4 * bio_nr_vecs_left(bio));
	out = b->bi_io_vec;
	ov = b->bi_io_vec + b->bi_max_vecs / 2;
	bio_for_each_segment(bv, bio, it) {
		if (!piece_needs_bounce(lim, &bv) && !(run & align)) {
			out[k] = bv;
			ov[k].bv_page = NULL;
			k++;
			run = 0;
			continue;
		}
		for (off = 0; off < bv.bv_len; off += take) {
			if (pos == PAGE_SIZE) {
				page = mempool_alloc(q->q_bounce_pool, GFP_NOIO);
				pos = 0;
				pages++;
			}
			take = min(bv.bv_len - off, (u32)PAGE_SIZE - pos);
			out[k] = (struct bio_vec){ page, take, pos };
			ov[k] = (struct bio_vec){ bv.bv_page, take, bv.bv_offset + off };
			if (bio_is_write(bio))
				copy_page_range(page, pos, bv.bv_page, bv.bv_offset + off, take);
			k++;
			pos += take;
			run += take;
		}
	}
	b->bi_vcnt = (u16)k;
	b->bi_iter.bi_sector = bio->bi_iter.bi_sector;
	b->bi_iter.bi_size = bio->bi_iter.bi_size;
	b->bi_rw = bio->bi_rw;
	b->bi_bdev = bio->bi_bdev;
	b->bi_queue = q;
	b->bi_start_ns = bio->bi_start_ns;
	b->bi_flags |= BIO_BOUNCED;
	b->bi_private = bio;
	b->bi_end_io = bounce_end_io;
	spin_lock_irqsave(q->q_lock, flags);
	q->q_stats.st_bounces++;
	q->q_stats.st_bounce_pages += pages;
	__blk_trace(q, BLK_TA_BOUNCE, bio->bi_iter.bi_sector, bio->bi_iter.bi_size, bio->bi_rw,
		    (s32)pages);
	spin_unlock_irqrestore(q->q_lock, flags);
	return b;
}
