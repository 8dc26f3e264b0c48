/*
 * Segments, splitting, scatter/gather and merge decisions.
 *
 * Layer: block core, under blk-core.c.  Pure logic over a queue's limits
 * and the pages of bios: no locks taken here (the callers that touch a
 * request hold the queue lock).
 *
 * One segment walker decides, for every piece of memory in order, whether
 * it extends the current scatter/gather entry (physically contiguous, the
 * entry stays within lim_max_segment_size and does not cross the segment
 * boundary) or starts a new one.  Counting (blk_bio_segments), splitting
 * (blk_bio_split_point) and mapping (blk_rq_map_sg) all use it, so the
 * count a request was built with is never below what map_sg produces.
 * Counts across a bio boundary are not merged: the per-request count is a
 * safe upper bound.
 *
 * Splits land on logical-block boundaries anywhere, inside a vector too.
 */
#include "block/blk.h"
#include "block/blk-trace.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/mm/page.h"

struct seg_walk {
	const struct queue_limits *sw_lim;
	u64			sw_addr;	/* current entry: start */
	u32			sw_len;		/* current entry: bytes, 0 = none yet */
	u32			sw_nsegs;
	struct scatterlist	*sw_sg;		/* output, or NULL to count */
};

/* Bytes an entry [seg, seg + len) may still grow by at its end. */
static u32 seg_room(const struct queue_limits *lim, u64 seg, u32 len)
{
	u64 end = seg + len, last = seg | lim->lim_seg_boundary_mask;
	u32 room;

	if (len >= lim->lim_max_segment_size || (len && end - 1 == last))
		return 0;	/* full, or it ends on the boundary */
	room = lim->lim_max_segment_size - len;
	if (last - end < (u64)room - 1)
		room = (u32)(last - end) + 1;
	return room;
}

/*
 * Feed [addr, addr + len) to the walker, opening at most up to max_segs
 * entries in all.  Returns the bytes taken: less than len when the entry
 * budget ran out.
 */
static u32 seg_feed(struct seg_walk *w, u64 addr, u32 len, u32 max_segs)
{
	u32 taken = 0, take, room;

	while (len) {
		room = w->sw_len && w->sw_addr + w->sw_len == addr ?
		       seg_room(w->sw_lim, w->sw_addr, w->sw_len) : 0;
		if (room) {
			take = min(len, room);
			w->sw_len += take;
			if (w->sw_sg)
				w->sw_sg[w->sw_nsegs - 1].sg_len += take;
		} else {
			if (w->sw_nsegs >= max_segs)
				break;
			take = min(len, seg_room(w->sw_lim, addr, 0));
			w->sw_addr = addr;
			w->sw_len = take;
			if (w->sw_sg) {
				w->sw_sg[w->sw_nsegs].sg_addr = addr;
				w->sw_sg[w->sw_nsegs].sg_len = take;
			}
			w->sw_nsegs++;
		}
		addr += take;
		len -= take;
		taken += take;
	}
	return taken;
}

static inline u64 bvec_phys(const struct bio_vec *bv)
{
	return page_to_phys(bv->bv_page) + bv->bv_offset;
}

/*
 * Scatter/gather entries the rest of a bio needs on its own.  The split
 * check (blk_queue_split) leaves its count in the bio, so a bio that was
 * not split is walked once on its way into a request, not twice.
 */
u32 blk_bio_segments(const struct queue_limits *lim, const struct bio *bio)
{
	struct seg_walk w = { .sw_lim = lim };
	struct bvec_iter it;
	struct bio_vec bv;

	if (bio->bi_flags & BIO_SEG_VALID)
		return bio->bi_phys_segs;
	if (!bio_has_data(bio))
		return 0;
	bio_for_each_bvec(bv, bio, it)
		seg_feed(&w, bvec_phys(&bv), bv.bv_len, ~0u);
	return w.sw_nsegs;
}

/*
 * Where a bio must be split to fit a request alone: 0 when it fits whole
 * (then *nsegs is its segment count), else the sectors of the front part:
 * as many as fit lim_max_sectors and lim_max_segments, rounded down to the
 * logical block size (one logical block at least, even if that alone
 * breaks max_segments: a device that cannot take one block cannot work).
 */
static u32 split_point(const struct queue_limits *lim, const struct bio *bio, u32 *nsegs)
{
	struct seg_walk w = { .sw_lim = lim };
	u32 max_bytes = lim->lim_max_sectors << SECTOR_SHIFT, bytes = 0, t, want;
	u32 lbs = lim->lim_logical_block_size;
	struct bvec_iter it;
	struct bio_vec bv;

	if (!bio->bi_iter.bi_size) {
		*nsegs = 0;
		return 0;
	}
	/* The usual small bio: what is left of it is one entry, one segment. */
	bv = mp_bvec_iter_bvec(bio->bi_io_vec, bio->bi_iter);
	if (bv.bv_len == bio->bi_iter.bi_size && bv.bv_len <= max_bytes &&
	    bv.bv_len <= seg_room(lim, bvec_phys(&bv), 0)) {
		*nsegs = 1;
		return 0;
	}
	bio_for_each_bvec(bv, bio, it) {
		want = min(bv.bv_len, max_bytes - bytes);
		t = seg_feed(&w, bvec_phys(&bv), want, lim->lim_max_segments);
		bytes += t;
		if (t < bv.bv_len)
			goto split;
	}
	*nsegs = w.sw_nsegs;
	return 0;

split:
	bytes -= bytes % lbs;
	if (!bytes)
		bytes = lbs;
	if (bytes >= bio->bi_iter.bi_size) {
		*nsegs = w.sw_nsegs;
		return 0;
	}
	return bytes >> SECTOR_SHIFT;
}

/*
 * Where a DISCARD or WRITE ZEROES range must be split: 0 when it fits,
 * else the sectors of the front part.  Discards are cut at most
 * lim_max_discard_sectors long and, where the device has an unmap unit
 * larger than a sector, so that the front ends on a unit boundary (the
 * back then starts on one, and the device unmaps whole units of it).
 */
static u32 range_split_point(const struct queue_limits *lim, const struct bio *bio)
{
	u32 left = bio_sectors(bio), max, gran, align, end_off;
	sector_t start = bio->bi_iter.bi_sector;

	max = bio_is_discard(bio) ? lim->lim_max_discard_sectors :
				    lim->lim_max_write_zeroes_sectors;
	if (!max || left <= max)
		return 0;
	gran = lim->lim_discard_granularity >> SECTOR_SHIFT;
	if (!bio_is_discard(bio) || gran <= 1 || max < gran)
		return max;
	align = lim->lim_discard_alignment >> SECTOR_SHIFT;
	/* Units start at sectors == align (mod gran): end the front on one. */
	end_off = (u32)((start + max + gran - align % gran) % gran);
	if (end_off < max)
		return max - end_off;
	return max;
}

/* blk_bio_split_point - split_point() for callers that want only the sectors. */
u32 blk_bio_split_point(const struct queue_limits *lim, const struct bio *bio)
{
	u32 nsegs;

	if (bio->bi_rw & REQ_NODATA)
		return range_split_point(lim, bio);
	return split_point(lim, bio, &nsegs);
}

/**
 * blk_queue_split - the next part of a bio to submit to q.
 * Return: bio itself when it fits q's limits; else a front part chained to
 * bio (bio now starts after it).  The caller submits the part and calls
 * again until bio itself comes back.
 */
struct bio *blk_queue_split(struct request_queue *q, struct bio *bio)
{
	unsigned long flags;
	struct bio *front;
	u32 nsegs = 0, sectors;

	if (bio->bi_rw & REQ_NODATA)
		sectors = range_split_point(&q->q_limits, bio);
	else
		sectors = split_point(&q->q_limits, bio, &nsegs);

	if (!sectors) {
		bio->bi_phys_segs = nsegs;
		bio->bi_flags |= BIO_SEG_VALID;
		return bio;
	}
	front = bio_split(bio, sectors, GFP_NOIO);
	spin_lock_irqsave(q->q_lock, flags);
	q->q_stats.st_splits++;
	__blk_trace(q, BLK_TA_SPLIT, front->bi_iter.bi_sector, front->bi_iter.bi_size,
		    front->bi_rw, (s32)sectors);
	spin_unlock_irqrestore(q->q_lock, flags);
	return front;
}

/**
 * blk_rq_map_sg - build the scatter list of a request.
 * Merges physically contiguous pieces within max segment size, never
 * across the segment boundary.  Addresses are 64-bit physical.
 * Return: the number of entries, or -EOVERFLOW when max_sg is too small.
 */
int blk_rq_map_sg(struct request_queue *q, struct request *rq,
		  struct scatterlist *sg, u32 max_sg)
{
	struct seg_walk w = { .sw_lim = &q->q_limits, .sw_sg = sg };
	struct req_iterator it;
	struct bio_vec bv;

	if (rq->rq_cmd_flags & REQ_NODATA)
		return 0;		/* a range: nothing to map */
	rq_for_each_bvec(bv, rq, it) {
		if (seg_feed(&w, bvec_phys(&bv), bv.bv_len, max_sg) < bv.bv_len)
			return -EOVERFLOW;
	}
	return (int)w.sw_nsegs;
}

/* May bio join rq at all, ignoring position and size? */
bool blk_rq_merge_ok(const struct request *rq, const struct bio *bio)
{
	if ((rq->rq_cmd_flags | bio->bi_rw) & REQ_NOMERGE_FLAGS)
		return false;
	if ((rq->rq_cmd_flags ^ bio->bi_rw) & REQ_WRITE)
		return false;
	if (rq->rq_state & (RQF_STARTED | RQF_FLUSH_SEQ))
		return false;
	if (!rq->rq_bio || !bio->bi_iter.bi_size)
		return false;
	return !(rq->rq_q->q_flags & QUEUE_FLAG_NOMERGES);
}

/* Would rq grown by sectors and segs still fit the limits? */
static bool rq_fits(const struct request *rq, u32 sectors, u32 segs)
{
	const struct queue_limits *lim = &rq->rq_q->q_limits;

	return (u64)blk_rq_sectors(rq) + sectors <= lim->lim_max_sectors &&
	       (u64)rq->rq_nr_phys_segments + segs <= lim->lim_max_segments;
}

/**
 * blk_try_back_merge - append bio to rq if it continues rq on disk.
 * Return: true when merged.  The lock that guards rq held: the queue
 * lock, or for a request staged on a multi-queue software queue with no
 * elevator, that queue's ctx->lock (interrupts off either way).
 */
bool blk_try_back_merge(struct request_queue *q, struct request *rq, struct bio *bio)
{
	u32 segs;

	if (!blk_rq_merge_ok(rq, bio) ||
	    blk_rq_pos(rq) + blk_rq_sectors(rq) != bio->bi_iter.bi_sector)
		return false;
	segs = blk_bio_segments(&q->q_limits, bio);
	if (!rq_fits(rq, bio_sectors(bio), segs))
		return false;
	rq->rq_biotail->bi_next = bio;
	rq->rq_biotail = bio;
	bio->bi_next = NULL;
	rq->rq_data_len += bio->bi_iter.bi_size;
	rq->rq_nr_phys_segments += segs;
	blk_stat_merge(q, rq_data_dir(rq));
	__blk_trace(q, BLK_TA_BACKMERGE, bio->bi_iter.bi_sector, bio->bi_iter.bi_size,
		    bio->bi_rw, 0);
	return true;
}

/**
 * blk_try_front_merge - prepend bio to rq if rq continues bio on disk.
 * Return: true when merged (rq's start sector moved).  Locks: as
 * blk_try_back_merge().
 */
bool blk_try_front_merge(struct request_queue *q, struct request *rq, struct bio *bio)
{
	u32 segs;

	if (!blk_rq_merge_ok(rq, bio) || bio_end_sector(bio) != blk_rq_pos(rq))
		return false;
	segs = blk_bio_segments(&q->q_limits, bio);
	if (!rq_fits(rq, bio_sectors(bio), segs))
		return false;
	bio->bi_next = rq->rq_bio;
	rq->rq_bio = bio;
	rq->rq_sector = bio->bi_iter.bi_sector;
	rq->rq_data_len += bio->bi_iter.bi_size;
	rq->rq_nr_phys_segments += segs;
	blk_stat_merge(q, rq_data_dir(rq));
	__blk_trace(q, BLK_TA_FRONTMERGE, bio->bi_iter.bi_sector, bio->bi_iter.bi_size,
		    bio->bi_rw, 0);
	return true;
}

/**
 * blk_attempt_req_merge - append next's bios to rq, when next continues rq.
 * The caller takes next out of the elevator and frees it on success.
 * Return: true when merged.  Queue lock held.
 */
bool blk_attempt_req_merge(struct request_queue *q, struct request *rq, struct request *next)
{
	assert_spin_locked(q->q_lock);
	if (!next->rq_bio || !blk_rq_merge_ok(rq, next->rq_bio) ||
	    ((next->rq_cmd_flags & REQ_NOMERGE_FLAGS) ||
	     (next->rq_state & (RQF_STARTED | RQF_FLUSH_SEQ))) ||
	    blk_rq_pos(rq) + blk_rq_sectors(rq) != blk_rq_pos(next) ||
	    !rq_fits(rq, blk_rq_sectors(next), next->rq_nr_phys_segments))
		return false;
	rq->rq_biotail->bi_next = next->rq_bio;
	rq->rq_biotail = next->rq_biotail;
	rq->rq_data_len += next->rq_data_len;
	rq->rq_nr_phys_segments += next->rq_nr_phys_segments;
	if (next->rq_start_ns < rq->rq_start_ns)
		rq->rq_start_ns = next->rq_start_ns;
	next->rq_bio = next->rq_biotail = NULL;
	next->rq_data_len = 0;
	__blk_trace(q, BLK_TA_RQMERGE, blk_rq_pos(rq), rq->rq_data_len, rq->rq_cmd_flags, 0);
	return true;
}
