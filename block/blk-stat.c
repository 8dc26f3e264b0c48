/*
 * Per-queue I/O statistics (block/blk-stat.h), kept like /proc/diskstats:
 * completed requests, merges, sectors and time per direction, time busy,
 * requests in flight; plus the block layer's own splits, bounces,
 * requeues, timeouts, errors, flushes and tags.  Read by the iostat shell
 * command through blk_stat_format().
 *
 * Every update runs under the queue lock; times come from ktime_ns().
 */
#include "block/blkdev.h"
#include "kernel/time.h"
#include "lib/string.h"

void blk_stat_rq_start(struct request_queue *q, struct request *rq)
{
	struct blk_stats *st = &q->q_stats;

	if (st->st_in_flight++ == 0)
		st->st_busy_since = ktime_ns();
	rq->rq_bytes_done = 0;
}

void blk_stat_rq_bytes(struct request_queue *q, struct request *rq, u32 bytes)
{
	q->q_stats.st_sectors[rq_data_dir(rq)] += bytes >> SECTOR_SHIFT;
	rq->rq_bytes_done += bytes;
}

void blk_stat_rq_done(struct request_queue *q, struct request *rq)
{
	struct blk_stats *st = &q->q_stats;
	u64 now = ktime_ns();
	int dir = rq_data_dir(rq);

	if (rq->rq_bytes_done) {
		st->st_ios[dir]++;
		st->st_ticks_ns[dir] += now - rq->rq_start_ns;
	}
	if (st->st_in_flight && --st->st_in_flight == 0)
		st->st_busy_ns += now - st->st_busy_since;
}

/* Zero the counters (not what is in flight). */
void blk_stat_reset(struct request_queue *q)
{
	unsigned long flags;
	u32 in_flight;

	spin_lock_irqsave(q->q_lock, flags);
	in_flight = q->q_stats.st_in_flight;
	memset(&q->q_stats, 0, sizeof(q->q_stats));
	q->q_stats.st_in_flight = in_flight;
	q->q_stats.st_busy_since = ktime_ns();
	spin_unlock_irqrestore(q->q_lock, flags);
}

/*
 * One line, stable format:
 * NAME rd_ios rd_merges rd_sectors rd_ms wr_ios wr_merges wr_sectors wr_ms
 *      in_flight busy_ms splits bounces requeues timeouts errors flushes tags
 */
int blk_stat_format(struct request_queue *q, char *buf, size_t len)
{
	struct blk_stats s;
	unsigned long flags;
	u64 busy;

	spin_lock_irqsave(q->q_lock, flags);
	s = q->q_stats;
	busy = s.st_busy_ns + (s.st_in_flight ? ktime_ns() - s.st_busy_since : 0);
	spin_unlock_irqrestore(q->q_lock, flags);
	return snprintf(buf, len,
		"%-8s %llu %llu %llu %llu %llu %llu %llu %llu %u %llu %llu %llu %llu %llu %llu %llu %llu",
		q->q_name,
		(unsigned long long)s.st_ios[0], (unsigned long long)s.st_merges[0],
		(unsigned long long)s.st_sectors[0],
		(unsigned long long)(s.st_ticks_ns[0] / NSEC_PER_MSEC),
		(unsigned long long)s.st_ios[1], (unsigned long long)s.st_merges[1],
		(unsigned long long)s.st_sectors[1],
		(unsigned long long)(s.st_ticks_ns[1] / NSEC_PER_MSEC),
		s.st_in_flight, (unsigned long long)(busy / NSEC_PER_MSEC),
		(unsigned long long)s.st_splits, (unsigned long long)s.st_bounces,
		(unsigned long long)s.st_requeues, (unsigned long long)s.st_timeouts,
		(unsigned long long)s.st_errors, (unsigned long long)s.st_flushes,
		(unsigned long long)s.st_tagged);
}
