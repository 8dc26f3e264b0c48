/*
 * I/O schedulers ("elevators"): the pluggable part of a request queue
 * that orders requests between the merge step and the driver.
 *
 * The core (elevator.c) owns what every scheduler needs: the merge hashes
 * (requests by end sector for back merges, by start sector for front
 * merges), request-to-request merging, the queued count, and switching a
 * queue's scheduler at run time.  A scheduler is a const elevator_type
 * whose ops keep their own order; optional hooks may be NULL.
 *
 * Every op runs with the queue lock held.
 */
#ifndef BLOCK_ELEVATOR_H
#define BLOCK_ELEVATOR_H

#include "block/blkdev.h"

struct elevator_queue;

struct elevator_ops {
	/* Set up e->e_data for q; 0 or -ENOMEM. */
	int (*elv_init)(struct request_queue *q, struct elevator_queue *e);
	/* Free e->e_data; the scheduler is empty. */
	void (*elv_exit)(struct elevator_queue *e);
	/* May waiting rq grow by bytes in a merge? (optional: yes) */
	bool (*elv_allow_merge)(struct request_queue *q, const struct request *rq, u32 bytes);
	/* rq grew by a merge; front is true if its start sector moved. */
	void (*elv_merged)(struct request_queue *q, struct request *rq, bool front);
	/* next was merged into rq and leaves the scheduler. */
	void (*elv_merged_requests)(struct request_queue *q, struct request *rq,
				    struct request *next);
	/* Take a new request. */
	void (*elv_add)(struct request_queue *q, struct request *rq);
	/* Remove and return the request to dispatch next, or NULL to wait. */
	struct request *(*elv_dispatch)(struct request_queue *q, bool force);
	/* A request it dispatched was ended (optional). */
	void (*elv_completed)(struct request_queue *q, struct request *rq);
	/* Neighbours in sector order, for merge lookups (optional). */
	struct request *(*elv_former)(struct request_queue *q, struct request *rq);
	struct request *(*elv_latter)(struct request_queue *q, struct request *rq);
};

/* A run-time tunable: name, and where it lives in e_data (a u32). */
struct elv_tunable {
	const char	*tn_name;
	size_t		tn_offset;
	u32		tn_min, tn_max;
	const char	*tn_unit;
};

struct elevator_type {
	const char			*et_name;
	const struct elevator_ops	*et_ops;
	const struct elv_tunable	*et_tunables;
	u32				et_nr_tunables;
};

/* A multi-queue queue without a scheduler (its software queues only). */
#define ELV_NONE_NAME	"none"

#define ELV_HASH_BITS	6
#define ELV_HASH_SIZE	(1u << ELV_HASH_BITS)

/* Lock legend: all [q]. */
struct elevator_queue {
	const struct elevator_type	*e_type;
	void				*e_data;	/* the scheduler's state */
	struct list_head		e_hash_back[ELV_HASH_SIZE];	/* by end sector */
	struct list_head		e_hash_front[ELV_HASH_SIZE];	/* by start sector */
};

extern const struct elevator_type elevator_noop;
extern const struct elevator_type elevator_deadline;
extern const struct elevator_type elevator_kyber;

/* elevator.c */
const struct elevator_type *elv_find(const char *name);
const struct elevator_type *elv_type_at(unsigned i);
int elevator_init(struct request_queue *q, const char *name);
void elevator_exit(struct request_queue *q);
int elevator_switch(struct request_queue *q, const char *name);
const char *elv_default_name(void);
int elv_tunable_get(struct request_queue *q, const char *name, u32 *val);
int elv_tunable_set(struct request_queue *q, const char *name, u32 val);

/* Queue-lock held, core use (blk-core.c, blk-request.c). */
bool elv_bio_merge(struct request_queue *q, struct bio *bio);
void elv_add_request(struct request_queue *q, struct request *rq);
struct request *elv_next_request(struct request_queue *q);
void elv_completed_request(struct request_queue *q, struct request *rq);

#endif
