/*
 * Request queues and requests: the contract between the block core, its
 * elevators and the drivers.
 *
 * One request_queue per device, allocated dynamically, with one spinlock
 * (the driver's, or the queue's own) guarding all of its state; there is
 * no global I/O lock.  Two driver styles:
 *  - request_fn: blk_init_queue(fn, lock).  The core merges bios into
 *    requests, sorts them through the elevator, and calls fn with the
 *    queue lock held; fn pulls with blk_fetch_request() (or peek + start),
 *    and later ends each request with blk_end_request().
 *  - make_request: blk_alloc_queue() + blk_queue_make_request(q, fn).  fn
 *    gets every bio, already split to the queue's limits and bounced.
 *
 * Lock legend: [I] immutable once the queue is set up, [q] queue lock,
 * [t] tag map lock, [d] the driver that started the request.
 */
#ifndef BLOCK_BLKDEV_H
#define BLOCK_BLKDEV_H

#include "block/bio.h"
#include "block/blk-stat.h"
#include "kernel/printk.h"
#include "kernel/ratelimit.h"
#include "kernel/spinlock.h"
#include "kernel/timer.h"
#include "kernel/work.h"
#include "lib/list.h"
#include "lib/rbtree.h"

struct request;
struct request_queue;
struct elevator_queue;
struct blk_trace;
struct blk_queue_tag;
struct mempool;
struct blk_mq_ops;
struct blk_mq_tag_set;
struct blk_mq_hw_ctx;
struct blk_mq_ctx;

/*
 * The registry (block/bdev.h) provides these; declared here with the same
 * signatures so that the core builds without it.  bdev_remap() turns a
 * partition-relative sector into a disk sector: -EIO past the end,
 * -EROFS for a write to a read-only device.
 */
struct request_queue *bdev_get_queue(struct block_device *bdev);
int bdev_remap(struct block_device *bdev, sector_t *sector, u32 nr_sectors, bool is_write);

/* Per-queue limits; "sectors" are always 512 bytes. */
struct queue_limits {
	u32		lim_max_hw_sectors;	/* what the device can take at once */
	u32		lim_max_sectors;	/* soft cap, <= hw; requests stop here */
	u32		lim_max_segments;	/* scatter/gather entries per request */
	u32		lim_max_segment_size;	/* bytes per s/g entry */
	u64		lim_seg_boundary_mask;	/* an entry never crosses (addr | mask) */
	u32		lim_logical_block_size;	/* bytes: splits land on these */
	u32		lim_physical_block_size;
	u32		lim_dma_alignment;	/* mask: address and length of every entry */
	phys_addr_t	lim_bounce_limit;	/* highest physical byte the device reaches */
	bool		lim_bounce_highmem;	/* the driver needs a kernel mapping */
	/* DISCARD and WRITE ZEROES: 0 sectors = unsupported (-EOPNOTSUPP at submit). */
	u32		lim_max_discard_sectors;	/* per request */
	u32		lim_discard_granularity;	/* bytes: the device's unmap unit */
	u32		lim_discard_alignment;		/* bytes: where the first unit starts */
	u32		lim_max_write_zeroes_sectors;	/* per request */
};

#define BLK_DEF_MAX_SECTORS	1024u		/* 512 KiB */
#define BLK_MAX_SEGMENTS	128u
#define BLK_MAX_SEGMENT_SIZE	65536u
#define BLK_SEG_BOUNDARY_NONE	(~0ULL)
#define BLK_BOUNCE_NONE		(~0ULL)			/* reaches everything */
#define BLK_BOUNCE_4G		0xFFFFFFFFULL		/* 32-bit DMA */
#define BLK_BOUNCE_ISA		0x00FFFFFFULL		/* 24-bit DMA */
#define BLK_DEF_NR_REQUESTS	128u
#define BLK_DEF_TIMEOUT_MS	30000u
#define BLK_DEF_MAX_RETRIES	3u
#define BLK_UNPLUG_THRESH	4u		/* requests queued before an unplug */
#define BLK_UNPLUG_DELAY_MS	3u		/* longest a plug holds I/O back */
#define BLK_FLUSH_PENDING_MS	5000u		/* longest a flush waits for data steps */

/* rq_state */
#define RQF_STARTED	0x0001u		/* handed to the driver */
#define RQF_PREPPED	0x0002u		/* prep_rq_fn built its command */
#define RQF_QUEUED	0x0004u		/* holds a tag */
#define RQF_FLUSH_SEQ	0x0008u		/* owned by the flush sequencer */
#define RQF_SORTED	0x0010u		/* in the elevator */
#define RQF_HASHED	0x0020u		/* in the merge hashes */
#define RQF_POOL	0x0040u		/* from the queue's pool (else atomic) */
#define RQF_TIMED	0x0080u		/* on the timeout list */
#define RQF_TIMING_OUT	0x0100u		/* mq: past its deadline, with ops->timeout */
#define RQF_ELV_COUNTED	0x0200u		/* the elevator counts it in flight (kyber) */
#define RQF_NOLOCK	0x0400u		/* mq: made with no elevator, ended without the
					 * queue lock (block/blk-mq.c) */

typedef void (rq_end_io_fn)(struct request *rq, int error);

struct request {
	struct list_head	rq_queuelist;	/* [q] dispatch list or free pool */
	struct request_queue	*rq_q;		/* [I] */
	u32			rq_cmd_flags;	/* [q] REQ_* of its bios */
	u32			rq_state;	/* [q] RQF_* */
	sector_t		rq_sector;	/* [q] next sector to transfer */
	u32			rq_data_len;	/* [q] bytes left */
	u32			rq_bytes_done;	/* [q] bytes ended so far, for stats */
	u32			rq_nr_phys_segments; /* [q] upper bound of s/g entries */
	struct bio		*rq_bio;	/* [q] first bio not yet ended */
	struct bio		*rq_biotail;	/* [q] */
	int			rq_tag;		/* [q] -1 when untagged */
	int			rq_errors;	/* [q] first error while ending */
	u32			rq_retries;	/* [q] timeouts retried */
	u64			rq_start_ns;	/* [q] allocation time, for stats */
	u64			rq_fifo_time;	/* [q] elevator: deadline, ns */
	u64			rq_deadline;	/* [q] timeout, jiffies */
	struct list_head	rq_fifo;	/* [q] elevator FIFO */
	struct rb_node		rq_rb;		/* [q] elevator sort tree */
	struct list_head	rq_hash_back;	/* [q] merge hash by end sector */
	struct list_head	rq_hash_front;	/* [q] merge hash by start sector */
	struct list_head	rq_timeout_list; /* [q] */
	void			*rq_special;	/* [d] the driver's command */
	rq_end_io_fn		*rq_end_io;	/* [q] instead of returning to the pool */
	void			*rq_end_io_data; /* [q] */
	u32			rq_flush_seq;	/* [q] flush steps done or not needed */
	struct list_head	rq_flush_list;	/* [q] on a flush list (blk-flush.c) */
	rq_end_io_fn		*rq_flush_saved_end_io; /* [q] */
	/* Multi-queue requests (block/blk-mq.h): set with the tag, NULL otherwise. */
	struct blk_mq_hw_ctx	*rq_mq_hctx;	/* its hardware queue */
	struct blk_mq_ctx	*rq_mq_ctx;	/* the software queue it was made on */
};

static inline sector_t blk_rq_pos(const struct request *rq) { return rq->rq_sector; }
static inline u32 blk_rq_bytes(const struct request *rq) { return rq->rq_data_len; }
static inline u32 blk_rq_sectors(const struct request *rq) { return rq->rq_data_len >> SECTOR_SHIFT; }
static inline bool rq_is_write(const struct request *rq) { return (rq->rq_cmd_flags & REQ_WRITE) != 0; }
static inline int rq_data_dir(const struct request *rq) { return rq_is_write(rq) ? 1 : 0; }
/* A DISCARD or WRITE ZEROES range: no pages, the driver must not map it. */
static inline bool blk_rq_is_discard(const struct request *rq)
{
	return (rq->rq_cmd_flags & REQ_DISCARD) != 0;
}
static inline bool blk_rq_is_write_zeroes(const struct request *rq)
{
	return (rq->rq_cmd_flags & REQ_WRITE_ZEROES) != 0;
}
/* A cache flush command, with no data: the driver issues FLUSH CACHE. */
static inline bool blk_rq_is_flush(const struct request *rq)
{
	return (rq->rq_cmd_flags & REQ_PREFLUSH) && rq->rq_data_len == 0;
}

/* Iterate over every piece of memory of a request. */
struct req_iterator {
	struct bvec_iter	iter;
	struct bio		*bio;
};
#define rq_for_each_segment(bv, rq, it)					\
	for ((it).bio = (rq)->rq_bio; (it).bio; (it).bio = (it).bio->bi_next) \
		bio_for_each_segment(bv, (it).bio, (it).iter)
/* The same, by physically contiguous ranges (see block/bio.h). */
#define rq_for_each_bvec(bv, rq, it)					\
	for ((it).bio = (rq)->rq_bio; (it).bio; (it).bio = (it).bio->bi_next) \
		bio_for_each_bvec(bv, (it).bio, (it).iter)

typedef void (request_fn_proc)(struct request_queue *q);
typedef void (make_request_fn)(struct request_queue *q, struct bio *bio);
/* Build the device command once; BLKPREP_OK, _DEFER (retry later), _KILL (fail -EIO). */
typedef int (prep_rq_fn)(struct request_queue *q, struct request *rq);
#define BLKPREP_OK	0
#define BLKPREP_DEFER	1
#define BLKPREP_KILL	2

enum blk_eh_timer_return {
	BLK_EH_RETRY,		/* the driver reset the device: requeue the request */
	BLK_EH_RESET_TIMER,	/* still in progress: give it another timeout */
	BLK_EH_FAIL,		/* end it with -EIO */
	BLK_EH_HANDLED,		/* the driver ended it itself */
};
/* Called with the queue lock held for a started request past its deadline. */
typedef enum blk_eh_timer_return (rq_timed_out_fn)(struct request *rq);

/* q_flush_flags: the device's write cache. */
#define BLK_FLUSH_CACHE	0x1u	/* volatile write cache: flushes matter */
#define BLK_FLUSH_FUA	0x2u	/* the device honours FUA writes natively */

/* q_flags */
#define QUEUE_FLAG_STOPPED	0x0001u	/* driver said stop */
#define QUEUE_FLAG_PLUGGED	0x0002u	/* holding I/O back to batch it */
#define QUEUE_FLAG_DEAD		0x0004u	/* being torn down: fail new I/O */
#define QUEUE_FLAG_NOPLUG	0x0008u	/* never plug (tests, latency) */
#define QUEUE_FLAG_NOMERGES	0x0010u	/* never merge */
#define QUEUE_FLAG_BYPASS	0x0020u	/* elevator switch: FIFO, no sorting */

/*
 * Flush sequences (blk-flush.c).  Sequences waiting for a flush are on
 * fq_list[fq_pending_idx]; the flush in flight covers those on
 * fq_list[fq_running_idx].  The two indexes differ exactly while
 * fq_flush_rq is in flight.
 */
struct blk_flush_queue {
	struct list_head	fq_list[2];		/* [q] requests, by rq_flush_list */
	u32			fq_pending_idx;		/* [q] the list that new arrivals join */
	u32			fq_running_idx;		/* [q] the list the flush in flight covers */
	u32			fq_data_in_flight;	/* [q] sequences in their data step */
	u64			fq_pending_since;	/* [q] ms: the pending list's oldest arrival */
	struct request		fq_flush_rq;		/* [q] the one flush command */
	/* [I] the flush command used: &fq_flush_rq, or on a multi-queue
	 * queue one allocated with the driver's bytes after it (blk-mq.c). */
	struct request		*fq_rq;
};

struct request_queue {
	spinlock_t		*q_lock;		/* [I] guards everything [q] */
	spinlock_t		q_lock_internal;	/* used when the driver gives none */
	char			q_name[16];		/* [I] for logs and shell commands */
	struct queue_limits	q_limits;		/* [q] */
	u32			q_flags;		/* [q] QUEUE_FLAG_* */
	u32			q_flush_flags;		/* [q] BLK_FLUSH_* */

	request_fn_proc		*q_request_fn;		/* [I] */
	make_request_fn		*q_make_request_fn;	/* [I] */
	prep_rq_fn		*q_prep_rq_fn;		/* [I] may be NULL */
	rq_timed_out_fn		*q_rq_timed_out_fn;	/* [I] may be NULL */
	void			*q_queuedata;		/* [I] the driver's context */
	sector_t		q_nr_sectors;		/* [I] device capacity, for tools and
							 * tests that run without the registry */

	struct list_head	q_dispatch;		/* [q] sorted, ready for the driver */
	struct elevator_queue	*q_elevator;		/* [q] */
	struct request		*q_last_merge;		/* [q] merge cache */
	u32			q_in_elevator;		/* [q] requests sorted, not dispatched */
	u32			q_in_driver;		/* [q] started, not ended (not mq: there
							 * each hctx counts its own) */
	bool			q_running;		/* [q] inside q_request_fn */
	bool			q_rerun;		/* [q] run again when it returns; mq: run
							 * the hardware queues at unlock */

	struct list_head	q_rq_free;		/* [q] the request pool */
	struct request		*q_rq_pool;		/* [I] its storage */
	u32			q_nr_requests;		/* [I] pool size */
	u32			q_rq_in_use;		/* [q] (not mq: there the tags count) */
	u32			q_rq_waiters;		/* [q] submitters waiting for one;
							 * mq: [atomic] */
	u32			q_rq_fails;		/* [q] I/Os failed for want of one */
	u64			q_rq_fail_log_ms;	/* [q] when that was last logged */
	struct ratelimit	q_err_rl;		/* drivers' lines of failed requests */

	struct timer_list	q_unplug_timer;		/* [q] */
	u32			q_unplug_thresh;	/* [q] requests */
	u32			q_unplug_delay_ms;	/* [q] ms */

	struct list_head	q_timeout_list;		/* [q] started requests, timed */
	struct timer_list	q_timeout_timer;	/* [q] */
	u32			q_rq_timeout_ms;	/* [q] */
	u32			q_max_retries;		/* [q] */

	struct blk_queue_tag	*q_tags;		/* [q] NULL: untagged */
	struct blk_flush_queue	q_flush;		/* [q] */
	struct blk_stats	q_stats;		/* [q] the rare events (blk-stat.h) */
	struct blk_stats_cpu	*q_stats_cpu;		/* [I] per CPU: the per-request counters */
	u32			q_stats_ncpu;		/* [I] how many */
	u32			q_io_stamp;		/* [atomic] jiffies busy time counted to */
	u32			q_io_ticks;		/* [atomic] jiffies with requests in flight
							 * (wraps after 2^32: 49 days busy) */
	struct blk_trace	*q_trace;		/* [q] NULL: tracing off */
	struct mempool		*q_bounce_pool;		/* [I] pages below the bounce limit */

	/* Multi-queue devices (block/blk-mq.h); q_mq_ops NULL otherwise. */
	const struct blk_mq_ops	*q_mq_ops;		/* [I] */
	struct blk_mq_tag_set	*q_tag_set;		/* [I] */
	struct blk_mq_hw_ctx	**q_hctx;		/* [I] q_nr_hw_queues of them */
	u32			q_nr_hw_queues;		/* [I] */
	struct list_head	q_tag_set_link;		/* [set lock] on the set's tag_list */
	struct blk_mq_ctx	*q_ctx;			/* [I] the software queues, one per CPU */
	u32			q_nr_ctx;		/* [I] how many */
	struct work		q_mq_timeout_work;	/* [I] timeouts run here, not in the timer */
	struct timer_list	q_mq_poll_timer;	/* [q] polled queues: a poll every tick */
	struct work		q_mq_poll_work;		/* [I] ... run from deferred work */
	struct bio		*q_mq_wait_head;	/* [q] bios from interrupt context */
	struct bio		*q_mq_wait_tail;	/* [q] waiting for a free tag */
	struct list_head	q_all;			/* [blk_queues_lock] blk_queue_list */
};

/* blk-settings.c */
void blk_set_default_limits(struct queue_limits *lim);
void blk_queue_max_hw_sectors(struct request_queue *q, u32 sectors);
void blk_queue_max_sectors(struct request_queue *q, u32 sectors);
void blk_queue_max_segments(struct request_queue *q, u32 segs);
void blk_queue_max_segment_size(struct request_queue *q, u32 bytes);
void blk_queue_segment_boundary(struct request_queue *q, u64 mask);
void blk_queue_logical_block_size(struct request_queue *q, u32 bytes);
void blk_queue_physical_block_size(struct request_queue *q, u32 bytes);
int blk_queue_dma_alignment(struct request_queue *q, u32 mask);
int blk_queue_bounce_limit(struct request_queue *q, phys_addr_t max_addr, bool need_kmap);
void blk_queue_flush(struct request_queue *q, u32 flush_flags);
void blk_queue_max_discard_sectors(struct request_queue *q, u32 sectors);
void blk_queue_discard_granularity(struct request_queue *q, u32 bytes, u32 alignment);
void blk_queue_max_write_zeroes_sectors(struct request_queue *q, u32 sectors);
void blk_queue_prep_rq(struct request_queue *q, prep_rq_fn *fn);
void blk_queue_rq_timed_out(struct request_queue *q, rq_timed_out_fn *fn);
void blk_queue_rq_timeout(struct request_queue *q, u32 ms);
void blk_queue_make_request(struct request_queue *q, make_request_fn *fn);
void blk_queue_plugging(struct request_queue *q, bool on);

/* blk-core.c */
struct request_queue *blk_alloc_queue(const char *name);
struct request_queue *blk_init_queue(request_fn_proc *fn, spinlock_t *lock, const char *name);
void blk_cleanup_queue(struct request_queue *q);
struct request_queue *blk_queue_find(const char *name);
struct request_queue *blk_queue_next(struct request_queue *prev);
void blk_queue_bio(struct request_queue *q, struct bio *bio);

/*
 * blk-plug.c.  The plugging rule (Linux 2.6): whoever is about to sleep
 * waiting for I/O it submitted unplugs the queue first, with
 * blk_unplug() -- submit_bio_wait() does, and so must any other waiter
 * (the buffer cache, self-tests, benchmarks).  Nothing else releases a
 * plug early but BLK_UNPLUG_THRESH waiting requests and flush sequences;
 * otherwise the unplug timer does, after q_unplug_delay_ms.  A bio's
 * flags never unplug.
 */
void blk_unplug(struct request_queue *q);

/*
 * A CPU's batch (Linux 2.6.39's on-stack plug).  Between blk_start_plug()
 * and blk_finish_plug(), the requests this CPU makes outside interrupts
 * are held back -- staged on its software queue, or behind the queue's
 * plug past BLK_UNPLUG_THRESH -- up to BLK_PLUG_MAX of them, and reach
 * the drivers together at the finish: one doorbell for the batch, not one
 * per request.  A start inside a batch joins it.  Whatever a batch holds
 * is let go before this CPU halts (blk_flush_plug from the idle paths),
 * so no wait is ever on I/O its own CPU holds back.
 */
#define BLK_PLUG_MAX		32u	/* requests one batch holds back */
#define BLK_PLUG_QUEUES		4u	/* queues one batch holds back */

struct blk_plug {
	u32			bp_count;		/* requests held */
	u32			bp_nq;			/* entries below */
	struct request_queue	*bp_q[BLK_PLUG_QUEUES];
	struct blk_mq_hw_ctx	*bp_hctx[BLK_PLUG_QUEUES];	/* NULL: the queue's plug */
};

void blk_start_plug(struct blk_plug *plug);
void blk_finish_plug(struct blk_plug *plug);
void blk_flush_plug(void);

void __blk_run_queue(struct request_queue *q);
void blk_run_queue(struct request_queue *q);
/* Requests of q the driver holds now: a snapshot, no lock needed. */
u32 blk_queue_in_driver(const struct request_queue *q);
int blk_drain_queue(struct request_queue *q, u32 timeout_ms);

/* blk-request.c */
struct request *blk_peek_request(struct request_queue *q);
void blk_start_request(struct request *rq);
struct request *blk_fetch_request(struct request_queue *q);
void blk_requeue_request(struct request_queue *q, struct request *rq);
void blk_stop_queue(struct request_queue *q);
void blk_start_queue(struct request_queue *q);
bool blk_end_request(struct request *rq, int error, u32 nr_bytes);
bool __blk_end_request(struct request *rq, int error, u32 nr_bytes);
void blk_end_request_all(struct request *rq, int error);
void __blk_end_request_all(struct request *rq, int error);
void __blk_insert_request(struct request_queue *q, struct request *rq, bool at_head);

/*
 * May a driver log one more failed request of q?  RATELIMIT_BURST lines in
 * any RATELIMIT_INTERVAL_MS per queue, then a count of those dropped
 * (kernel/ratelimit.h).  Any context.
 */
static inline bool blk_ratelimit_ok(struct request_queue *q)
{
	return ratelimit_ok(&q->q_err_rl, q->q_name);
}

/* blk-timeout.c */
void blk_add_timer(struct request *rq);
void blk_delete_timer(struct request *rq);
void blk_timeout_init(struct request_queue *q);
void blk_timeout_check(struct request_queue *q);

/* blk-merge.c */
struct scatterlist {
	dma_addr_t	sg_addr;	/* physical: no IOMMU on this machine */
	u32		sg_len;
};
u32 blk_bio_segments(const struct queue_limits *lim, const struct bio *bio);
u32 blk_bio_split_point(const struct queue_limits *lim, const struct bio *bio);
struct bio *blk_queue_split(struct request_queue *q, struct bio *bio);
int blk_rq_map_sg(struct request_queue *q, struct request *rq,
		  struct scatterlist *sg, u32 max_sg);
bool blk_rq_merge_ok(const struct request *rq, const struct bio *bio);
bool blk_try_back_merge(struct request_queue *q, struct request *rq, struct bio *bio);
bool blk_try_front_merge(struct request_queue *q, struct request *rq, struct bio *bio);
bool blk_attempt_req_merge(struct request_queue *q, struct request *rq, struct request *next);

/* blk-flush.c */
#define BLK_FLUSH_STEP_PREFLUSH	0x1u
#define BLK_FLUSH_STEP_DATA	0x2u
#define BLK_FLUSH_STEP_POSTFLUSH 0x4u
#define BLK_FLUSH_STEP_DONE	0x8u
u32 blk_flush_policy(u32 q_flush_flags, u32 rw_flags, bool has_data);
void blk_flush_init(struct request_queue *q);
bool blk_flush_busy(const struct request_queue *q);
void blk_insert_flush(struct request *rq);

/* bounce.c */
bool blk_bio_needs_bounce(const struct queue_limits *lim, const struct bio *bio);
struct bio *blk_bounce_split(struct request_queue *q, struct bio *bio);
struct bio *blk_queue_bounce(struct request_queue *q, struct bio *bio);
int blk_bounce_init(struct request_queue *q);
void blk_bounce_exit(struct request_queue *q);

/* blk-tag.c */
#define BLK_TAG_MAX_DEPTH	32u
struct blk_queue_tag {
	spinlock_t	bqt_lock;			/* guards [t] */
	struct request	*bqt_index[BLK_TAG_MAX_DEPTH];	/* [t] */
	u32		bqt_map;			/* [t] bit n: tag n busy */
	u32		bqt_depth;			/* [t] */
	u32		bqt_busy;			/* [t] */
	int		bqt_refcnt;			/* [t] queues sharing it */
};
int blk_queue_init_tags(struct request_queue *q, u32 depth, struct blk_queue_tag *shared);
void blk_queue_free_tags(struct request_queue *q);
int blk_queue_resize_tags(struct request_queue *q, u32 depth);
int blk_queue_start_tag(struct request_queue *q, struct request *rq);
void blk_queue_end_tag(struct request_queue *q, struct request *rq);
struct request *blk_queue_find_tag(struct request_queue *q, int tag);
int blk_queue_invalidate_tags(struct request_queue *q);
static inline bool blk_queue_tagged(const struct request_queue *q) { return q->q_tags != NULL; }

#endif
