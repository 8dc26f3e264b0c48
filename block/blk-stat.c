/*
 * Per-queue I/O statistics (block/blk-stat.h), kept like /proc/diskstats:
 * completed requests, merges, sectors and time per direction, time busy,
 * requests in flight; plus the block layer's own splits, bounces,
 * requeues, timeouts, errors, flushes and tags.  Read by the iostat shell
 * command through blk_stat_format().
 *
 * Request times come from ktime_ns(), busy time from jiffies.
 */
#include "block/blk.h"
#include "block/blk-mq-priv.h"
#include "kernel/errno.h"
#include "kernel/time.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

int blk_stat_init(struct request_queue *q)
{
	q->q_stats_ncpu = max(blk_mq_nr_cpus(), 1u);
	q->q_stats_cpu = kcalloc(q->q_stats_ncpu, sizeof(*q->q_stats_cpu), GFP_KERNEL);
	q->q_io_stamp = (u32)get_jiffies_64();
	return q->q_stats_cpu ? 0 : -ENOMEM;
}

void blk_stat_exit(struct request_queue *q)
{
	kfree(q->q_stats_cpu);
	q->q_stats_cpu = NULL;
}

static struct blk_stats_cpu *blk_stat_this_cpu(struct request_queue *q)
{
	u32 cpu = blk_mq_this_cpu();

	return &q->q_stats_cpu[cpu < q->q_stats_ncpu ? cpu : 0];
}

static u32 blk_stat_in_flight(const struct request_queue *q)
{
	s32 n = 0;
	u32 i;

	for (i = 0; i < q->q_stats_ncpu; i++)
		n += READ_ONCE(q->q_stats_cpu[i].sc_in_flight);
	return n > 0 ? (u32)n : 0;
}

/*
 * Count busy time up to now: the first CPU to see a new jiffy moves the
 * stamp and adds the jiffies since, if requests were in flight over them
 * (end: the caller's request was).
 */
static void blk_stat_io_tick(struct request_queue *q, bool end)
{
	u32 now = (u32)get_jiffies_64();
	u32 stamp = __atomic_load_n(&q->q_io_stamp, __ATOMIC_RELAXED);

	if (now != stamp &&
	    __atomic_compare_exchange_n(&q->q_io_stamp, &stamp, now, false, __ATOMIC_RELAXED,
					__ATOMIC_RELAXED) &&
	    (end || blk_stat_in_flight(q)))
		__atomic_add_fetch(&q->q_io_ticks, now - stamp, __ATOMIC_RELAXED);
}

void blk_stat_rq_start(struct request_queue *q, struct request *rq)
{
	blk_stat_io_tick(q, false);
	blk_stat_this_cpu(q)->sc_in_flight++;
	rq->rq_bytes_done = 0;
}

void blk_stat_rq_bytes(struct request_queue *q, struct request *rq, u32 bytes)
{
	blk_stat_this_cpu(q)->sc_sectors[rq_data_dir(rq)] += bytes >> SECTOR_SHIFT;
	rq->rq_bytes_done += bytes;
}

void blk_stat_rq_done(struct request_queue *q, struct request *rq)
{
	struct blk_stats_cpu *sc = blk_stat_this_cpu(q);
	int dir = rq_data_dir(rq);

	if (rq->rq_bytes_done) {
		sc->sc_ios[dir]++;
		sc->sc_ticks_ns[dir] += ktime_ns() - rq->rq_start_ns;
	}
	blk_stat_io_tick(q, true);
	sc->sc_in_flight--;
}

void blk_stat_merge(struct request_queue *q, int dir)
{
	blk_stat_this_cpu(q)->sc_merges[dir]++;
}

void blk_stat_tagged(struct request_queue *q)
{
	blk_stat_this_cpu(q)->sc_tagged++;
}

/*
 * Zero the counters (not what is in flight).  The per-CPU shares are
 * zeroed with their owners possibly counting: a count lost in the race
 * is one request's, and only right after a reset.
 */
void blk_stat_reset(struct request_queue *q)
{
	unsigned long flags;
	u32 i;

	spin_lock_irqsave(q->q_lock, flags);
	memset(&q->q_stats, 0, sizeof(q->q_stats));
	spin_unlock_irqrestore(q->q_lock, flags);
	for (i = 0; i < q->q_stats_ncpu; i++) {
		struct blk_stats_cpu *sc = &q->q_stats_cpu[i];

		memset(sc->sc_ios, 0, sizeof(sc->sc_ios));
		memset(sc->sc_merges, 0, sizeof(sc->sc_merges));
		memset(sc->sc_sectors, 0, sizeof(sc->sc_sectors));
		memset(sc->sc_ticks_ns, 0, sizeof(sc->sc_ticks_ns));
		sc->sc_tagged = 0;
	}
	__atomic_store_n(&q->q_io_ticks, 0, __ATOMIC_RELAXED);
}

void blk_stat_read(struct request_queue *q, struct blk_stats *out)
{
	unsigned long flags;
	u32 i, d, stamp;

	blk_stat_io_tick(q, false);
	spin_lock_irqsave(q->q_lock, flags);
	*out = q->q_stats;
	spin_unlock_irqrestore(q->q_lock, flags);
	for (i = 0; i < q->q_stats_ncpu; i++) {
		const struct blk_stats_cpu *sc = &q->q_stats_cpu[i];

		for (d = 0; d < 2; d++) {
			out->st_ios[d] += READ_ONCE(sc->sc_ios[d]);
			out->st_merges[d] += READ_ONCE(sc->sc_merges[d]);
			out->st_sectors[d] += READ_ONCE(sc->sc_sectors[d]);
			out->st_ticks_ns[d] += READ_ONCE(sc->sc_ticks_ns[d]);
		}
		out->st_tagged += READ_ONCE(sc->sc_tagged);
	}
	out->st_in_flight = blk_stat_in_flight(q);
	stamp = __atomic_load_n(&q->q_io_stamp, __ATOMIC_RELAXED);
	out->st_busy_ms = jiffies_to_msecs((u64)__atomic_load_n(&q->q_io_ticks, __ATOMIC_RELAXED) +
					   (out->st_in_flight ? (u32)get_jiffies_64() - stamp : 0));
}

/*
 * One line, stable format:
 * NAME rd_ios rd_merges rd_sectors rd_ms wr_ios wr_merges wr_sectors wr_ms
 *      in_flight busy_ms splits bounces requeues timeouts errors flushes tags
 */
int blk_stat_format(struct request_queue *q, char *buf, size_t len)
{
	struct blk_stats s;

	blk_stat_read(q, &s);
	return snprintf(buf, len,
		"%-8s %llu %llu %llu %llu %llu %llu %llu %llu %u %llu %llu %llu %llu %llu %llu %llu %llu",
		q->q_name,
		(unsigned long long)s.st_ios[0], (unsigned long long)s.st_merges[0],
		(unsigned long long)s.st_sectors[0],
		(unsigned long long)(s.st_ticks_ns[0] / NSEC_PER_MSEC),
		(unsigned long long)s.st_ios[1], (unsigned long long)s.st_merges[1],
		(unsigned long long)s.st_sectors[1],
		(unsigned long long)(s.st_ticks_ns[1] / NSEC_PER_MSEC),
		s.st_in_flight, (unsigned long long)s.st_busy_ms,
		(unsigned long long)s.st_splits, (unsigned long long)s.st_bounces,
		(unsigned long long)s.st_requeues, (unsigned long long)s.st_timeouts,
		(unsigned long long)s.st_errors, (unsigned long long)s.st_flushes,
		(unsigned long long)s.st_tagged);
}
