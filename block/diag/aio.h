/*
 * The diagnostics' asynchronous I/O engine (block/diag/aio.c): a context
 * of N slots over one or a few block devices, each slot a page-backed
 * buffer with at most one bio in flight.  bench, stress and the block
 * self-tests are built on it.
 *
 *	aio_init(c, nslots, max_bytes);       slots, no buffers yet
 *	aio_target(c, bdev, q);               device 0, 1, ... (bdev may be NULL)
 *	aio_buf_alloc(s, bytes, gfp) / or fill s->as_pages yourself
 *	aio_submit(s, rw, sector, bytes);     one bio from the slot's buffer
 *	aio_unplug(c);                        end of a batch: run the queues
 *	aio_wait(s) / aio_drain(c, ms)        sleep until it / all have ended
 *	aio_rw(s, rw, sector, bytes)          submit and wait
 *	aio_run(c, ops, arg)                  keep slots busy through callbacks
 *	aio_exit(c);                          frees what aio_buf_alloc gave
 *
 * Whoever waits for I/O unplugs first (the rule above blk_unplug()).
 *
 * Latencies run from aio_submit() to the moment the waiter sees the end
 * (aio_reap), the time a synchronous caller waits.
 *
 * Locking: a context belongs to the one command or test using it ([l]);
 * bi_end_io (interrupt context) writes a slot's as_err, then sets
 * as_state to AIO_ENDED ([e]); nothing else runs there.
 */
#ifndef BLOCK_DIAG_AIO_H
#define BLOCK_DIAG_AIO_H

#include "kernel/types.h"
#include "kernel/mm/gfp.h"

struct aio_ctx;
struct block_device;
struct page;
struct progress;
struct request_queue;

#define AIO_MAX_TARGETS	4

enum aio_state { AIO_IDLE, AIO_BUSY, AIO_ENDED };

struct aio_slot {
	struct aio_ctx	*as_ctx;	/* [I] */
	u32		as_index;	/* [I] position in the context */
	u32		as_target;	/* [l] device the next I/O goes to */
	struct page	**as_pages;	/* [I] room for the context's max pages */
	u32		as_npages;	/* [l] pages in the buffer */
	unsigned	as_order;	/* [l] as_pages come in blocks of 2^as_order */
	bool		as_owned;	/* [l] aio_buf_alloc's: aio_buf_free frees them */
	u32		as_off;		/* [l] byte offset of the data in the buffer */
	u32		as_rw;		/* [l] REQ_* of the last I/O */
	sector_t	as_sector;	/* [l] its first sector (target-relative) */
	u32		as_bytes;	/* [l] its length */
	u64		as_start_ns;	/* [l] when it was submitted */
	u64		as_end_ns;	/* [l] when aio_reap() saw it end */
	void		*as_priv;	/* [l] the user's */
	volatile u8	as_state;	/* [l/e] enum aio_state */
	volatile int	as_err;		/* [e] the bio's error */
};

struct aio_target {
	struct block_device	*at_bdev;	/* NULL: submit to the bare queue */
	struct request_queue	*at_q;
};

/*
 * What aio_run() calls, never from interrupt context.  end: a slot's I/O
 * ended (the slot is idle again).  start: offer an idle slot; submit on it
 * and return 1, or return 0 (nothing now) or -errno (stop the run).
 * poll: once a pass, after the queues were unplugged; true stops the run.
 */
struct aio_ops {
	void	(*end)(struct aio_ctx *c, struct aio_slot *s, void *arg);
	int	(*start)(struct aio_ctx *c, struct aio_slot *s, void *arg);
	bool	(*poll)(struct aio_ctx *c, void *arg);
};

struct aio_ctx {
	struct aio_slot		*ac_slots;		/* [I] */
	u32			ac_nslots;		/* [I] */
	u32			ac_max_pages;		/* [I] per slot */
	struct aio_target	ac_targets[AIO_MAX_TARGETS];	/* [l] */
	u32			ac_ntargets;		/* [l] */
	struct progress		*ac_pg;			/* [l] Ctrl-C and the progress line, or NULL */
	u32			ac_stall_ms;		/* [l] aio_run: no end for this long, give up */
	bool			ac_stop;		/* [l] start nothing more */
	bool			ac_interrupted;		/* [l] the user asked to stop */
	/* Statistics, [l], updated as ends are seen: */
	u64			ac_ios;			/* I/Os ended without error */
	u64			ac_errors;		/* and with one */
	u64			ac_bytes;		/* bytes of all ended I/Os */
	u32			*ac_lat;		/* latencies in ns, or NULL */
	u32			ac_lat_cap, ac_lat_n;
	u64			ac_clock_ns;		/* the last end aio_reap() timed, 0: none */
};

/* Slots and page arrays for buffers of up to max_bytes; 0 or -ENOMEM. */
int aio_init(struct aio_ctx *c, u32 nslots, u32 max_bytes);
/* Free the slots and every buffer aio_buf_alloc() gave.  Nothing in flight. */
void aio_exit(struct aio_ctx *c);
/* Add a device; its index, or -ENOSPC. */
int aio_target(struct aio_ctx *c, struct block_device *bdev, struct request_queue *q);
/* Keep up to cap latencies (aio_lat_sorted() sorts them); 0 or -ENOMEM. */
int aio_lat_keep(struct aio_ctx *c, u32 cap);
void aio_lat_sorted(struct aio_ctx *c);

/*
 * A buffer of bytes for s, in blocks as large as the buddy allocator
 * gives (one block, one bio vector, when it can).  0 or -ENOMEM.
 */
int aio_buf_alloc(struct aio_slot *s, u32 bytes, gfp_t gfp);
/* Give back an aio_buf_alloc() buffer; a buffer the user filled in is only forgotten. */
void aio_buf_free(struct aio_slot *s);
/* Copy len bytes between buf and byte pos of the slot's data (kmaps highmem). */
void aio_copy(struct aio_slot *s, u32 pos, void *buf, u32 len, bool to_slot);
/* Physical address of the page holding byte pos of the slot's data. */
phys_addr_t aio_phys(struct aio_slot *s, u32 pos);

/*
 * Submit one bio of bytes (0: a flush or other empty bio) from the slot's
 * buffer at as_off to its target.  Does not unplug.  0, or -ENOMEM /
 * -EINVAL (the buffer does not fit the queue's limits): nothing in flight.
 */
int aio_submit(struct aio_slot *s, u32 rw, sector_t sector, u32 bytes);
/* blk_unplug() every target's queue: what a submitter does before waiting. */
void aio_unplug(struct aio_ctx *c);
/*
 * Unplug, sleep until s has ended, count it; its error.  No time limit:
 * a queue ends every request within its own timeout, and giving up here
 * would leave a bio writing into a buffer about to be freed.
 */
int aio_wait(struct aio_slot *s);
/*
 * Synchronous I/O: aio_submit() and aio_wait().  With latencies kept the
 * clock is read once per I/O: each starts where the context's last timed
 * end left off, as a closed loop sees it (the first one: now).
 */
int aio_rw(struct aio_slot *s, u32 rw, sector_t sector, u32 bytes);
/* Unplug and wait for every slot; 0, or -ETIMEDOUT after ms (0: no limit). */
int aio_drain(struct aio_ctx *c, u32 ms);
/* Account an ended slot (aio_wait, aio_drain and aio_run do this). */
void aio_reap(struct aio_slot *s);

/*
 * Keep slots busy: each pass hands ended slots to ops->end, offers idle
 * ones to ops->start (not after a stop), unplugs, then calls ops->poll.
 * Returns when nothing is in flight and nothing was started: 0, the first
 * -errno of start, -EINTR after Ctrl-C, or -ETIMEDOUT when no I/O ended
 * for ac_stall_ms (then bios may still point at the slots: keep them).
 */
int aio_run(struct aio_ctx *c, const struct aio_ops *ops, void *arg);

#endif
