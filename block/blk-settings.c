/*
 * Queue limits and driver hooks: what a driver tells the block layer
 * about its device before the first I/O.  Values are sanity-clamped
 * (a limit of 0 would stall every split) rather than refused: a driver
 * bug must not make the queue unusable.  Called at setup, before I/O,
 * or with the queue lock held.
 */
#include "block/blk.h"
#include "kernel/errno.h"
#include "kernel/mm/page.h"

void blk_set_default_limits(struct queue_limits *lim)
{
	lim->lim_max_hw_sectors = BLK_DEF_MAX_SECTORS;
	lim->lim_max_sectors = BLK_DEF_MAX_SECTORS;
	lim->lim_max_segments = BLK_MAX_SEGMENTS;
	lim->lim_max_segment_size = BLK_MAX_SEGMENT_SIZE;
	lim->lim_seg_boundary_mask = BLK_SEG_BOUNDARY_NONE;
	lim->lim_logical_block_size = SECTOR_SIZE;
	lim->lim_physical_block_size = SECTOR_SIZE;
	lim->lim_dma_alignment = 0;
	lim->lim_bounce_limit = BLK_BOUNCE_NONE;
	lim->lim_bounce_highmem = false;
	lim->lim_max_discard_sectors = 0;
	lim->lim_discard_granularity = SECTOR_SIZE;
	lim->lim_discard_alignment = 0;
	lim->lim_max_write_zeroes_sectors = 0;
}

/* The device's own cap; the soft cap follows it down (and up to the default). */
void blk_queue_max_hw_sectors(struct request_queue *q, u32 sectors)
{
	struct queue_limits *lim = &q->q_limits;

	sectors = max(sectors, (u32)(PAGE_SIZE >> SECTOR_SHIFT));
	lim->lim_max_hw_sectors = sectors;
	lim->lim_max_sectors = min(sectors, (u32)BLK_DEF_MAX_SECTORS);
}

/* The soft cap requests are built to, at most the hardware's. */
void blk_queue_max_sectors(struct request_queue *q, u32 sectors)
{
	struct queue_limits *lim = &q->q_limits;

	sectors = max(sectors, lim->lim_logical_block_size >> SECTOR_SHIFT);
	lim->lim_max_sectors = min(sectors, lim->lim_max_hw_sectors);
}

void blk_queue_max_segments(struct request_queue *q, u32 segs)
{
	q->q_limits.lim_max_segments = max(segs, 1u);
}

/* At least 512 bytes: a sector must fit in one entry. */
void blk_queue_max_segment_size(struct request_queue *q, u32 bytes)
{
	q->q_limits.lim_max_segment_size = max(bytes, (u32)SECTOR_SIZE);
}

/* Entries never cross an (addr | mask) boundary; mask + 1 >= 512. */
void blk_queue_segment_boundary(struct request_queue *q, u64 mask)
{
	q->q_limits.lim_seg_boundary_mask = mask | (SECTOR_SIZE - 1);
}

/* A power of two from 512 to PAGE_SIZE; others are ignored. */
void blk_queue_logical_block_size(struct request_queue *q, u32 bytes)
{
	struct queue_limits *lim = &q->q_limits;

	if (!is_power_of_2(bytes) || bytes < SECTOR_SIZE || bytes > PAGE_SIZE)
		return;
	lim->lim_logical_block_size = bytes;
	if (lim->lim_physical_block_size < bytes)
		lim->lim_physical_block_size = bytes;
	if (lim->lim_max_sectors < (bytes >> SECTOR_SHIFT))
		lim->lim_max_sectors = bytes >> SECTOR_SHIFT;
}

void blk_queue_physical_block_size(struct request_queue *q, u32 bytes)
{
	struct queue_limits *lim = &q->q_limits;

	if (is_power_of_2(bytes) && bytes >= lim->lim_logical_block_size)
		lim->lim_physical_block_size = bytes;
}

/*
 * mask: 1 for 2-byte, 3 for 4-byte alignment of every s/g entry; < 512.
 * Return: 0, or -ENOMEM when the bounce pool this needs cannot be made.
 */
int blk_queue_dma_alignment(struct request_queue *q, u32 mask)
{
	q->q_limits.lim_dma_alignment = mask & (SECTOR_SIZE - 1);
	return blk_bounce_init(q);
}

/**
 * blk_queue_bounce_limit - the highest physical byte the device reaches.
 * @need_kmap: the driver touches data through a kernel mapping of its
 *	own (page_address), so highmem pages must be bounced too.
 * Return: 0, or -ENOMEM when a pool of 24-bit DMA pages cannot be made.
 */
int blk_queue_bounce_limit(struct request_queue *q, phys_addr_t max_addr, bool need_kmap)
{
	q->q_limits.lim_bounce_limit = max_addr;
	q->q_limits.lim_bounce_highmem = need_kmap;
	return blk_bounce_init(q);
}

/* What the device's write cache needs: BLK_FLUSH_CACHE, BLK_FLUSH_FUA. */
void blk_queue_flush(struct request_queue *q, u32 flush_flags)
{
	if (!(flush_flags & BLK_FLUSH_CACHE))
		flush_flags = 0;	/* FUA means nothing without a cache */
	q->q_flush_flags = flush_flags;
}

/*
 * A range request's byte count (rq_data_len, bi_size) is 32 bits: no
 * DISCARD or WRITE ZEROES request may cover 4 GiB.
 */
#define BLK_MAX_RANGE_SECTORS	(0xFFFFFFFFu >> SECTOR_SHIFT)

/* Sectors per DISCARD request, 0 = the device has none; whole logical blocks. */
void blk_queue_max_discard_sectors(struct request_queue *q, u32 sectors)
{
	struct queue_limits *lim = &q->q_limits;
	u32 lbs = lim->lim_logical_block_size >> SECTOR_SHIFT;

	sectors = min(sectors, BLK_MAX_RANGE_SECTORS);
	lim->lim_max_discard_sectors = sectors - sectors % lbs;
}

/*
 * The device's unmap unit and where the first one starts, in bytes:
 * granularity a power of two (at least a logical block), alignment a
 * multiple of 512 below it.  Splits land on unit boundaries.
 */
void blk_queue_discard_granularity(struct request_queue *q, u32 bytes, u32 alignment)
{
	struct queue_limits *lim = &q->q_limits;

	if (!is_power_of_2(bytes) || bytes < lim->lim_logical_block_size)
		bytes = lim->lim_logical_block_size;
	lim->lim_discard_granularity = bytes;
	lim->lim_discard_alignment = (alignment % bytes) & ~(u32)(SECTOR_SIZE - 1);
}

/* Sectors per WRITE ZEROES request, 0 = none; whole logical blocks. */
void blk_queue_max_write_zeroes_sectors(struct request_queue *q, u32 sectors)
{
	struct queue_limits *lim = &q->q_limits;
	u32 lbs = lim->lim_logical_block_size >> SECTOR_SHIFT;

	sectors = min(sectors, BLK_MAX_RANGE_SECTORS);
	lim->lim_max_write_zeroes_sectors = sectors - sectors % lbs;
}

void blk_queue_prep_rq(struct request_queue *q, prep_rq_fn *fn) { q->q_prep_rq_fn = fn; }
void blk_queue_rq_timed_out(struct request_queue *q, rq_timed_out_fn *fn) { q->q_rq_timed_out_fn = fn; }
void blk_queue_make_request(struct request_queue *q, make_request_fn *fn) { q->q_make_request_fn = fn; }

void blk_queue_rq_timeout(struct request_queue *q, u32 ms)
{
	q->q_rq_timeout_ms = max(ms, 1u);
}

/* Plugging on (the default) or off (each request goes to the driver at once). */
void blk_queue_plugging(struct request_queue *q, bool on)
{
	unsigned long flags;

	spin_lock_irqsave(q->q_lock, flags);
	if (on)
		q->q_flags &= ~QUEUE_FLAG_NOPLUG;
	else
		q->q_flags |= QUEUE_FLAG_NOPLUG;
	spin_unlock_irqrestore(q->q_lock, flags);
	if (!on)
		blk_unplug(q);
}
