/*
 * The kyber scheduler: low read latency next to a saturating writer,
 * by limiting how many writes the device holds at once.
 *
 * Why this design: on a queueing device (NCQ, NVMe, virtio) a read that
 * arrives behind 32 large writes waits for the device to work through
 * them, whatever order the scheduler keeps; sorting (deadline) and
 * fairness between processes (BFQ, CFQ) cannot help there, only a
 * limit on what is in flight can.  Linux's Kyber (4.12) showed that such
 * a limit, steered by measured latency, needs very little state: a
 * FIFO and a token count per class of request.  This is the same idea,
 * with its own feedback rule.
 *
 * Requests fall in three classes: reads, writes, and the rest (flushes,
 * discards, write-zeroes).  Each waits in arrival order.  Reads are
 * dispatched first and never limited; writes and the rest only while
 * their depth has room.  The depth counts tokens, not requests: a write
 * takes one for each KY_TOKEN_BYTES of it begun, the rest one each.
 * Writes held back are merged while they wait, and a count of requests
 * would let ever bigger ones through as the depth fell.  A waiting write
 * grows by merging only while the depth could pass it whole; one that
 * came bigger than the depth still goes, alone.
 *
 * Every window_ms the read latencies measured in the window (dispatch to
 * completion, in a small histogram) are compared with the target: a 99th
 * percentile above it halves the write depth, down to min_depth; one at
 * or below it, or a window without reads, grows it by a quarter, back up
 * to max_depth.  A writer alone thus keeps the whole queue, and a reader
 * makes room for itself within a few windows.  The floor is one token, as
 * in Linux's Kyber: on QEMU's AHCI beside 1 MiB writes 32 deep, a floor
 * of 1 MiB gave reads a p99 of 5-10 times their idle one at 0.73-0.91 of
 * noop's write rate, and floors of 2 and 4 MiB 9-10x and 18x at
 * 0.85-1.05 (docs/BENCHMARKS.md).
 *
 * The target is read_lat_us, or with read_lat_us=0 (the default) twice
 * the device's own read latency, learnt from reads that ran while no
 * write was in flight: the scheduler adapts to a fast disk and a slow
 * one alike.  Requests dispatched while another scheduler ran, or while
 * the queue was in bypass, were not counted and are not uncounted; those
 * an earlier kyber of the same queue counted end as free tokens.
 *
 * Tunables, per queue (elevator DEV kyber name=value):
 *   read_lat_us  target read p99, us; 0 = twice the learnt idle latency
 *   window_ms    how often the write depth is adjusted (50)
 *   min_depth    fewest write tokens in flight the feedback may leave (1)
 *   max_depth    most write tokens in flight (32: a full NCQ queue of
 *                writes up to 1 MiB)
 */
#include "block/elevator.h"
#include "kernel/errno.h"
#include "kernel/time.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

#define KY_WINDOW_MS		50u
#define KY_TOKEN_BYTES		(1u << 20)	/* the slice of a request a token covers */
#define KY_MIN_DEPTH		1u
#define KY_MAX_DEPTH		32u
#define KY_LAT_BUCKETS		24	/* bucket i: latency < 2^i us (i < 23), else 23 */
#define KY_IDLE_INIT_US		1000u	/* idle read latency before any is measured */
#define KY_IDLE_SHIFT		3	/* the idle latency moves 1/8 toward each sample */

enum ky_class { KY_READ, KY_WRITE, KY_OTHER, KY_NR };

struct kyber_data {
	struct list_head	kd_fifo[KY_NR];		/* [q] waiting, oldest first */
	u32			kd_inflight[KY_NR];	/* [q] tokens dispatched, not yet ended */
	u32			kd_write_depth;		/* [q] current limit of writes and rest */
	u32			kd_hist[KY_LAT_BUCKETS]; /* [q] read latencies this window */
	u32			kd_samples;		/* [q] in kd_hist */
	u64			kd_window_ns;		/* [q] when the window began */
	u32			kd_idle_us;		/* [q] learnt read latency, no writes */
	u32			kd_throttles;		/* [q] windows that halved the depth */
	/* tunables */
	u32			kd_read_lat_us;
	u32			kd_window_ms;
	u32			kd_min_depth;
	u32			kd_max_depth;
};

_Static_assert(KY_LAT_BUCKETS <= 32, "bucket index fits the shift");

static struct kyber_data *kd_of(struct request_queue *q)
{
	return q->q_elevator->e_data;
}

static enum ky_class ky_class(const struct request *rq)
{
	if (blk_rq_is_discard(rq) || !rq->rq_bio || (rq->rq_cmd_flags & REQ_PREFLUSH))
		return KY_OTHER;
	return rq_is_write(rq) ? KY_WRITE : KY_READ;
}

static int kyber_init(struct request_queue *q, struct elevator_queue *e)
{
	struct kyber_data *kd = kzalloc(sizeof(*kd), GFP_KERNEL);
	int i;

	if (!kd)
		return -ENOMEM;
	for (i = 0; i < KY_NR; i++)
		INIT_LIST_HEAD(&kd->kd_fifo[i]);
	kd->kd_window_ms = KY_WINDOW_MS;
	kd->kd_min_depth = KY_MIN_DEPTH;
	kd->kd_max_depth = KY_MAX_DEPTH;
	kd->kd_write_depth = KY_MAX_DEPTH;
	kd->kd_idle_us = KY_IDLE_INIT_US;
	kd->kd_window_ns = ktime_ns();
	e->e_data = kd;
	return 0;
}

static void kyber_exit(struct elevator_queue *e)
{
	struct kyber_data *kd = e->e_data;
	int i;

	for (i = 0; i < KY_NR; i++)
		KASSERT(list_empty(&kd->kd_fifo[i]));
	kfree(kd);
}

static void kyber_add(struct request_queue *q, struct request *rq)
{
	list_add_tail(&rq->rq_fifo, &kd_of(q)->kd_fifo[ky_class(rq)]);
}

static void kyber_merged_requests(struct request_queue *q, struct request *rq,
				  struct request *next)
{
	list_del_init(&next->rq_fifo);
}

/*
 * From dispatch to completion rq_fifo_time holds the dispatch time, with
 * the tokens in bits 3-7 and the class in bits 1-2 (neither can be told
 * from a request once its bios have ended), and in bit 0 whether no
 * write was in flight.
 */
#define KY_STAMP_BITS	8
#define KY_MAX_COST	31u	/* the tokens bits 3-7 hold */

static u64 ky_stamp(u64 now, enum ky_class c, u32 cost, bool idle)
{
	return (now & ~((1ull << KY_STAMP_BITS) - 1)) | (u64)cost << 3 | (u64)c << 1 | idle;
}

static enum ky_class ky_stamp_class(u64 stamp)
{
	return (enum ky_class)((stamp >> 1) & 3);
}

static u32 ky_stamp_cost(u64 stamp)
{
	return (u32)(stamp >> 3) & KY_MAX_COST;
}

static u64 ky_stamp_ns(u64 stamp)
{
	return stamp & ~((1ull << KY_STAMP_BITS) - 1);
}

/*
 * The tokens a request takes: a write one per KY_TOKEN_BYTES of data
 * begun; anything else one (a discard's length is not data moved).
 */
static u32 ky_cost(enum ky_class c, u64 bytes)
{
	u64 n = DIV_ROUND_UP(bytes, KY_TOKEN_BYTES);

	return c == KY_WRITE ? (u32)clamp(n, (u64)1, (u64)KY_MAX_COST) : 1;
}

/* Tokens of writes and the rest now with the driver. */
static u32 ky_busy(const struct kyber_data *kd)
{
	return kd->kd_inflight[KY_WRITE] + kd->kd_inflight[KY_OTHER];
}

static u32 ky_depth(const struct kyber_data *kd)
{
	return min(kd->kd_write_depth, kd->kd_max_depth);
}

/* May a request of class c, taking cost tokens, go to the driver now? */
static bool ky_has_token(const struct kyber_data *kd, enum ky_class c, u32 cost)
{
	u32 busy = ky_busy(kd);

	return c == KY_READ || !busy || busy + cost <= ky_depth(kd);
}

/* A held-back write grows only as far as the depth lets it through whole. */
static bool kyber_allow_merge(struct request_queue *q, const struct request *rq, u32 bytes)
{
	const struct kyber_data *kd = kd_of(q);

	return ky_class(rq) != KY_WRITE ||
	       ky_cost(KY_WRITE, (u64)blk_rq_bytes(rq) + bytes) <= ky_depth(kd);
}

static struct request *kyber_dispatch(struct request_queue *q, bool force)
{
	struct kyber_data *kd = kd_of(q);
	struct request *rq;
	u32 cost;
	int c;

	for (c = 0; c < KY_NR; c++) {
		if (list_empty(&kd->kd_fifo[c]))
			continue;
		rq = list_first_entry(&kd->kd_fifo[c], struct request, rq_fifo);
		cost = ky_cost(c, blk_rq_bytes(rq));
		if (!force && !ky_has_token(kd, c, cost))
			continue;
		list_del_init(&rq->rq_fifo);
		rq->rq_fifo_time = ky_stamp(ktime_ns(), c, cost, ky_busy(kd) == 0);
		rq->rq_state |= RQF_ELV_COUNTED;
		kd->kd_inflight[c] += cost;
		return rq;
	}
	return NULL;
}

static u32 ky_bucket(u64 us)
{
	u32 b = 0;

	while (b < KY_LAT_BUCKETS - 1 && us >= (1ull << b))
		b++;
	return b;
}

/* The upper bound, in us, of the bucket holding the window's 99th percentile. */
static u64 ky_p99_us(const struct kyber_data *kd)
{
	u32 want = kd->kd_samples - kd->kd_samples / 100, seen = 0, b;

	for (b = 0; b < KY_LAT_BUCKETS; b++) {
		seen += kd->kd_hist[b];
		if (seen >= want)
			break;
	}
	return 1ull << min(b, (u32)KY_LAT_BUCKETS - 1);
}

/* The end of a window: steer the write depth by the reads' p99. */
static void ky_adjust(struct request_queue *q, struct kyber_data *kd, u64 now)
{
	u64 target = kd->kd_read_lat_us ? kd->kd_read_lat_us : 2ull * kd->kd_idle_us;
	u32 depth = ky_depth(kd);	/* max_depth may have shrunk */

	if (kd->kd_samples && ky_p99_us(kd) > target) {
		depth = max(depth / 2, min(kd->kd_min_depth, depth));
		kd->kd_throttles++;
	} else {
		depth = min(depth + max(depth / 4, 1u), kd->kd_max_depth);
	}
	if (depth > kd->kd_write_depth)
		q->q_rerun = true;	/* requests held back may go now */
	kd->kd_write_depth = depth;
	memset(kd->kd_hist, 0, sizeof(kd->kd_hist));
	kd->kd_samples = 0;
	kd->kd_window_ns = now;
}

static void kyber_completed(struct request_queue *q, struct request *rq)
{
	struct kyber_data *kd = kd_of(q);
	enum ky_class c = ky_stamp_class(rq->rq_fifo_time);
	u64 now, us;

	if (!(rq->rq_state & RQF_ELV_COUNTED))
		return;
	rq->rq_state &= ~RQF_ELV_COUNTED;
	now = ktime_ns();
	/* Fewer: counted by an earlier kyber of this queue. */
	kd->kd_inflight[c] -= min(kd->kd_inflight[c], ky_stamp_cost(rq->rq_fifo_time));
	if (c == KY_READ) {
		us = (now - ky_stamp_ns(rq->rq_fifo_time)) / NSEC_PER_USEC;
		kd->kd_hist[ky_bucket(us)]++;
		kd->kd_samples++;
		if (rq->rq_fifo_time & 1) {
			s64 d = (s64)min(us, (u64)0xffffffffu) - (s64)kd->kd_idle_us;

			kd->kd_idle_us = (u32)max((s64)kd->kd_idle_us + d / (1 << KY_IDLE_SHIFT), 1ll);
		}
	} else if (!list_empty(&kd->kd_fifo[KY_WRITE]) || !list_empty(&kd->kd_fifo[KY_OTHER])) {
		q->q_rerun = true;	/* a token came back to requests that wait for one */
	}
	if (now - kd->kd_window_ns >= (u64)kd->kd_window_ms * NSEC_PER_MSEC)
		ky_adjust(q, kd, now);
}

static const struct elevator_ops kyber_ops = {
	.elv_init		= kyber_init,
	.elv_exit		= kyber_exit,
	.elv_add		= kyber_add,
	.elv_allow_merge	= kyber_allow_merge,
	.elv_merged_requests	= kyber_merged_requests,
	.elv_dispatch		= kyber_dispatch,
	.elv_completed		= kyber_completed,
};

static const struct elv_tunable kyber_tunables[] = {
	{ "read_lat_us", offsetof(struct kyber_data, kd_read_lat_us), 0, 10000000, "us" },
	{ "window_ms", offsetof(struct kyber_data, kd_window_ms), 1, 10000, "ms" },
	{ "min_depth", offsetof(struct kyber_data, kd_min_depth), 1, 1024, "requests" },
	{ "max_depth", offsetof(struct kyber_data, kd_max_depth), 1, 1024, "requests" },
};

const struct elevator_type elevator_kyber = {
	.et_name	= "kyber",
	.et_ops		= &kyber_ops,
	.et_tunables	= kyber_tunables,
	.et_nr_tunables	= ARRAY_SIZE(kyber_tunables),
};
