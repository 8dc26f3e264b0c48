/*
 * The multi-queue block layer (blk-mq): the contract between the block
 * core and drivers of devices with several deep hardware queues (NVMe,
 * virtio-blk).  AHCI and IDE keep the request_fn style of block/blkdev.h;
 * both kinds of queue are a struct request_queue to everyone above.
 *
 *   bio -> software queue (one per CPU; one CPU today)
 *       -> scheduler (none, or mq-deadline), merging, plugging
 *       -> hardware queue: its dispatch list, then ops->queue_rq()
 *       -> the device
 *   completion (interrupt, or ops->poll) -> blk_mq_end_request()
 *
 * A driver fills a blk_mq_tag_set (ops, number of hardware queues, depth,
 * bytes of per-request driver data), calls blk_mq_alloc_tag_set() once
 * per device, then blk_mq_init_queue() once per namespace / disk: several
 * queues may share one tag set (NVMe namespaces share the controller's
 * queues).  A request's tag is its index in its hardware queue's tag
 * space, so it can be the device's command identifier.
 *
 * queue_rq() is called with no block-layer lock held, interrupts on, for
 * one request at a time in dispatch order; bd_last says whether more
 * follow at once (ring the doorbell now, or wait for commit_rqs()).  It
 * answers:
 *   BLK_MQ_RQ_OK      the device has it;
 *   BLK_MQ_RQ_BUSY    no room now: the core keeps the request at the head
 *                     of the dispatch list and runs the hardware queue
 *                     again when a request of that queue completes (or
 *                     when the driver calls blk_mq_run_hw_queues());
 *   negative errno    the request is ended with that error.
 *
 * Completion may be called from interrupt context, from ops->poll(), or
 * from the driver's error handler; each request is ended exactly once.
 * Outside interrupt context blk_mq_end_request() may run the hardware
 * queue -- call queue_rq() -- before it returns (inside queue_rq() the
 * run is folded into the one in progress): do not hold a lock there that
 * queue_rq() takes.
 *
 * Lock legend: [I] immutable after set-up, [h] hctx->lock,
 * [c] ctx->lock, [t] the tag bitmap's own atomic operations, [d] driver,
 * [r] whoever set BLK_MQ_S_RUNNING (the one dispatcher of the hctx).
 */
#ifndef BLOCK_BLK_MQ_H
#define BLOCK_BLK_MQ_H

#include "block/blkdev.h"

struct blk_mq_hw_ctx;
struct blk_mq_tags;

#define BLK_MQ_MAX_HW_QUEUES	64u
#define BLK_MQ_MAX_DEPTH	1024u

/* queue_rq() answers (besides negative errnos). */
#define BLK_MQ_RQ_OK		0
#define BLK_MQ_RQ_BUSY		1

/* blk_mq_tag_set.flags */
#define BLK_MQ_F_SHOULD_MERGE	0x1u	/* merge bios into requests */
#define BLK_MQ_F_NO_SCHED	0x2u	/* never an elevator (admin queues) */
#define BLK_MQ_F_BLOCKING	0x4u	/* queue_rq may sleep (USB) */
#define BLK_MQ_F_POLLED		0x8u	/* no completion interrupt: the core and
					 * waiters call ops->poll (blk_poll) */

struct blk_mq_queue_data {
	struct request	*rq;
	bool		last;		/* no further request follows at once */
};

struct blk_mq_ops {
	/* Issue one request; see above.  Required. */
	int (*queue_rq)(struct blk_mq_hw_ctx *hctx, const struct blk_mq_queue_data *bd);
	/* The batch ended without a bd->last request: ring the doorbell (optional). */
	void (*commit_rqs)(struct blk_mq_hw_ctx *hctx);
	/* Bind hctx to the driver's queue number idx: set hctx->driver_data (optional). */
	int (*init_hctx)(struct blk_mq_hw_ctx *hctx, void *set_data, u32 idx);
	/* Set up the driver data of a request once, when the set is allocated (optional). */
	int (*init_request)(struct blk_mq_tag_set *set, struct request *rq, u32 hctx_idx);
	/* A started request passed its deadline (queue-lock-free; see blkdev.h).
	 * From deferred work.  Optional: without it the clock just restarts. */
	enum blk_eh_timer_return (*timeout)(struct request *rq);
	/* Reap completions of hctx without an interrupt; the number ended (optional). */
	int (*poll)(struct blk_mq_hw_ctx *hctx);
};

struct blk_mq_tag_set {
	const struct blk_mq_ops	*ops;		/* [I] */
	u32			nr_hw_queues;	/* [I] 1..BLK_MQ_MAX_HW_QUEUES */
	u32			queue_depth;	/* [I] tags per hardware queue */
	u32			reserved_tags;	/* [I] of those, kept for internal commands */
	u32			cmd_size;	/* [I] driver bytes after each request */
	u32			timeout_ms;	/* [I] 0: BLK_DEF_TIMEOUT_MS */
	u32			flags;		/* [I] BLK_MQ_F_* */
	void			*driver_data;	/* [I] */
	/* Filled by blk_mq_alloc_tag_set(): */
	struct blk_mq_tags	**tags;		/* [I] one per hardware queue */
	struct list_head	tag_list;	/* [set lock] queues using this set */
	spinlock_t		tag_list_lock;
};

/*
 * One hardware queue of one request_queue.  Queues sharing a tag set have
 * one hctx each per hardware queue, sharing that queue's tags.
 */
struct blk_mq_hw_ctx {
	spinlock_t		lock;		/* guards [h] */
	struct list_head	dispatch;	/* [h] taken from the scheduler, not yet issued */
	u32			state;		/* [h] BLK_MQ_S_* */
	u32			queue_num;	/* [I] */
	struct request_queue	*queue;		/* [I] */
	struct blk_mq_tags	*tags;		/* [I] the set's tags for this queue */
	void			*driver_data;	/* [I] set by ops->init_hctx */
	u64			queued;		/* [h] requests issued, for stats */
	u64			run;		/* [h] times the queue was run */
	u64			busy;		/* [h] BUSY answers */
	u32			nr_in_driver;	/* [h] started, not ended */
	struct list_head	timeout_list;	/* [h] started requests, by deadline order of start */
	u32			nr_completed;	/* [t] requests ended: a BUSY answer
						 * re-checks it (no lost restart) */
	struct request		*started_early;	/* [r] issued directly: the core
						 * started it before queue_rq() */
	struct work		run_work;	/* [I] runs the queue from deferred work */
};

#define BLK_MQ_S_STOPPED	0x1u	/* driver said stop (reset in progress) */
#define BLK_MQ_S_RESTART	0x2u	/* BUSY seen: rerun on the next completion */
#define BLK_MQ_S_RUNNING	0x4u	/* inside the dispatch loop (not re-entered) */
#define BLK_MQ_S_RERUN		0x8u	/* run asked for while running: loop again */

/* The driver bytes of a request, and back. */
static inline void *blk_mq_rq_to_pdu(struct request *rq) { return rq + 1; }
static inline struct request *blk_mq_rq_from_pdu(void *pdu) { return (struct request *)pdu - 1; }

int blk_mq_alloc_tag_set(struct blk_mq_tag_set *set);
void blk_mq_free_tag_set(struct blk_mq_tag_set *set);
/* A request_queue on set; ERR_PTR on failure.  Teardown: blk_cleanup_queue(). */
struct request_queue *blk_mq_init_queue(struct blk_mq_tag_set *set, const char *name);

/* The request holding tag in hardware queue hctx_idx, or NULL if it is free. */
struct request *blk_mq_tag_to_rq(struct blk_mq_tag_set *set, u32 hctx_idx, u32 tag);
/**
 * blk_mq_alloc_request - a request with no bio, for a command of the
 * driver's own (its tag is the command identifier): from the reserved
 * tags if reserved, else from the normal ones of this CPU's hardware
 * queue.  The driver issues it itself and gives it back with
 * blk_mq_free_request().  Waits for a tag, bounded, outside interrupts.
 * Return: the request, or ERR_PTR(-EAGAIN) (interrupt context, no free
 * tag), ERR_PTR(-EIO) (none came back in time).
 */
struct request *blk_mq_alloc_request(struct request_queue *q, u32 rw, bool reserved);
void blk_mq_free_request(struct request *rq);
/* Mark rq as on the device: starts its timeout.  Call from queue_rq(). */
void blk_mq_start_request(struct request *rq);
/* End every bio of rq with error (0 or negative), free its tag.  Any context. */
void blk_mq_end_request(struct request *rq, int error);
/*
 * End n requests, rqs[i] with errs[i], as blk_mq_end_request() each, in
 * one queue-lock round per run of requests of one queue.  Any context.
 */
void blk_mq_end_requests(struct request *const *rqs, const int *errs, u32 n);
/* Put a started request back at the head of its dispatch list (retry after a reset). */
void blk_mq_requeue_request(struct request *rq, bool kick);

/* Hardware queue control, for error handling and resets. */
void blk_mq_stop_hw_queues(struct request_queue *q);
void blk_mq_start_hw_queues(struct request_queue *q);
void blk_mq_run_hw_queues(struct request_queue *q, bool async);
/* Wait until no queue_rq() call is running on q (after stopping it). */
void blk_mq_quiesce_queue(struct request_queue *q);
/* Call fn on every started request of every queue on set; fn may end or requeue it. */
void blk_mq_tagset_busy_iter(struct blk_mq_tag_set *set,
			     bool (*fn)(struct request *rq, void *data), void *data);
/* Poll hctx for completions (the nvme.poll path); the number reaped. */
int blk_mq_poll(struct blk_mq_hw_ctx *hctx);
/* Run the hardware queue now (async: from deferred work; always so in interrupt context). */
void blk_mq_run_hw_queue(struct blk_mq_hw_ctx *hctx, bool async);

/**
 * blk_poll - reap completions of every hardware queue of q without an
 * interrupt.  Waiters on a polled queue (BLK_MQ_F_POLLED) call it in
 * their wait loop; on any other queue it returns 0 at once.
 * Return: the number of requests ended.  Not from interrupt context.
 */
int blk_poll(struct request_queue *q);
/* Does a waiter on q have to poll (blk_poll) to see its I/O end? */
bool blk_queue_polled(const struct request_queue *q);
/*
 * blk_wait_io - wait a little for q's I/O to move on (process context):
 * on a polled queue reap it, or spin if nothing ended (no interrupt would
 * wake a halted CPU); on any other queue idle until an interrupt.  The
 * caller looks again at what it waits for and calls again.
 */
void blk_wait_io(struct request_queue *q);

/* Would blk_unplug(q) do anything?  A lock-free peek (blk-plug.c). */
bool blk_mq_unplug_needed(struct request_queue *q);

/* Tags of q's hardware queues in use now (shared sets: every queue's). */
u32 blk_mq_tags_in_use(const struct request_queue *q);

static inline bool queue_is_mq(const struct request_queue *q) { return q->q_mq_ops != NULL; }

#endif
