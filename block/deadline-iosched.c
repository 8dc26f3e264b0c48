/*
 * The deadline scheduler.  Requests wait in two orders per direction: a
 * tree sorted by start sector, from which batches are served in
 * ascending order (one sweep of the disk), and a FIFO by arrival, whose
 * head is served first once its deadline has passed.  Reads expire
 * sooner than writes (someone usually waits for a read), and reads are
 * preferred, but writes are not starved for more than writes_starved
 * read batches in a row.
 *
 * Tunables, per queue (elevator DEV deadline name=value):
 *   read_expire    ms before a read must be served (500)
 *   write_expire   ms before a write must be served (5000)
 *   fifo_batch     requests served in a row in one direction (16)
 *   writes_starved read batches allowed to pass waiting writes (2)
 */
#include "block/elevator.h"
#include "kernel/errno.h"
#include "kernel/time.h"
#include "kernel/mm/slab.h"

#define DL_READ_EXPIRE_MS	500u	/* max time before a read is served, ms */
#define DL_WRITE_EXPIRE_MS	5000u	/* max time before a write is served, ms */
#define DL_FIFO_BATCH		16u	/* requests per batch */
#define DL_WRITES_STARVED	2u	/* read batches before writes get a turn */

struct deadline_data {
	struct rb_root		dd_sort[2];	/* [q] by sector, [0] reads [1] writes */
	struct list_head	dd_fifo[2];	/* [q] by deadline */
	struct request		*dd_next_rq[2];	/* [q] next in the current sweep */
	u32			dd_batching;	/* [q] served in this batch */
	u32			dd_starved;	/* [q] read batches while writes waited */
	u32			dd_read_expire;	/* [q] ms */
	u32			dd_write_expire; /* [q] ms */
	u32			dd_fifo_batch;	/* [q] */
	u32			dd_writes_starved; /* [q] */
};

static struct deadline_data *dd_of(struct request_queue *q)
{
	return q->q_elevator->e_data;
}

static void dl_sort_add(struct deadline_data *dd, struct request *rq)
{
	struct rb_root *root = &dd->dd_sort[rq_data_dir(rq)];
	struct rb_node **link = &root->rb_node, *parent = NULL;

	while (*link) {
		parent = *link;
		if (blk_rq_pos(rq) < blk_rq_pos(rb_entry(parent, struct request, rq_rb)))
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(&rq->rq_rb, parent, link);
	rb_insert_color(&rq->rq_rb, root);
}

static struct request *dl_latter(struct request_queue *q, struct request *rq)
{
	struct rb_node *n = rb_next(&rq->rq_rb);

	return n ? rb_entry(n, struct request, rq_rb) : NULL;
}

static struct request *dl_former(struct request_queue *q, struct request *rq)
{
	struct rb_node *n = rb_prev(&rq->rq_rb);

	return n ? rb_entry(n, struct request, rq_rb) : NULL;
}

static void dl_sort_del(struct request_queue *q, struct deadline_data *dd, struct request *rq)
{
	int dir = rq_data_dir(rq);

	if (dd->dd_next_rq[dir] == rq)
		dd->dd_next_rq[dir] = dl_latter(q, rq);
	rb_erase(&rq->rq_rb, &dd->dd_sort[dir]);
}

static int deadline_init(struct request_queue *q, struct elevator_queue *e)
{
	struct deadline_data *dd = kzalloc(sizeof(*dd), GFP_KERNEL);

	if (!dd)
		return -ENOMEM;
	dd->dd_sort[0] = dd->dd_sort[1] = RB_ROOT;
	INIT_LIST_HEAD(&dd->dd_fifo[0]);
	INIT_LIST_HEAD(&dd->dd_fifo[1]);
	dd->dd_read_expire = DL_READ_EXPIRE_MS;
	dd->dd_write_expire = DL_WRITE_EXPIRE_MS;
	dd->dd_fifo_batch = DL_FIFO_BATCH;
	dd->dd_writes_starved = DL_WRITES_STARVED;
	e->e_data = dd;
	return 0;
}

static void deadline_exit(struct elevator_queue *e)
{
	struct deadline_data *dd = e->e_data;

	KASSERT(list_empty(&dd->dd_fifo[0]) && list_empty(&dd->dd_fifo[1]));
	kfree(dd);
}

static void deadline_add(struct request_queue *q, struct request *rq)
{
	struct deadline_data *dd = dd_of(q);
	int dir = rq_data_dir(rq);
	u32 ms = dir ? dd->dd_write_expire : dd->dd_read_expire;

	dl_sort_add(dd, rq);
	rq->rq_fifo_time = ktime_ns() + (u64)ms * NSEC_PER_MSEC;
	list_add_tail(&rq->rq_fifo, &dd->dd_fifo[dir]);
}

/* A front merge moved rq's start sector: re-sort it. */
static void deadline_merged(struct request_queue *q, struct request *rq, bool front)
{
	struct deadline_data *dd = dd_of(q);
	int dir = rq_data_dir(rq);

	if (!front)
		return;
	rb_erase(&rq->rq_rb, &dd->dd_sort[dir]);
	dl_sort_add(dd, rq);
}

static void deadline_merged_requests(struct request_queue *q, struct request *rq,
				     struct request *next)
{
	struct deadline_data *dd = dd_of(q);

	/* rq inherits next's place in the FIFO if next was due sooner. */
	if (next->rq_fifo_time < rq->rq_fifo_time) {
		list_del(&rq->rq_fifo);
		list_add(&rq->rq_fifo, &next->rq_fifo);
		rq->rq_fifo_time = next->rq_fifo_time;
	}
	list_del_init(&next->rq_fifo);
	dl_sort_del(q, dd, next);
}

/* Has the oldest request of dir passed its deadline? */
static bool dl_fifo_expired(struct deadline_data *dd, int dir)
{
	struct request *rq;

	if (list_empty(&dd->dd_fifo[dir]))
		return false;
	rq = list_first_entry(&dd->dd_fifo[dir], struct request, rq_fifo);
	return ktime_ns() >= rq->rq_fifo_time;
}

static void dl_move_out(struct request_queue *q, struct deadline_data *dd, struct request *rq)
{
	int dir = rq_data_dir(rq);

	dd->dd_next_rq[!dir] = NULL;
	dd->dd_next_rq[dir] = dl_latter(q, rq);
	rb_erase(&rq->rq_rb, &dd->dd_sort[dir]);
	list_del_init(&rq->rq_fifo);
}

static struct request *deadline_dispatch(struct request_queue *q, bool force)
{
	struct deadline_data *dd = dd_of(q);
	bool reads = !list_empty(&dd->dd_fifo[0]), writes = !list_empty(&dd->dd_fifo[1]);
	struct request *rq = dd->dd_next_rq[1] ? dd->dd_next_rq[1] : dd->dd_next_rq[0];
	int dir;

	/* Keep sweeping in the current batch while it lasts. */
	if (rq && dd->dd_batching < dd->dd_fifo_batch)
		goto dispatch;

	if (reads && !(writes && dd->dd_starved++ >= dd->dd_writes_starved)) {
		dir = 0;
	} else if (writes) {
		dd->dd_starved = 0;
		dir = 1;
	} else {
		return NULL;
	}

	/* A new batch: from the expired FIFO head, else on with the sweep. */
	if (dl_fifo_expired(dd, dir) || !dd->dd_next_rq[dir])
		rq = list_first_entry(&dd->dd_fifo[dir], struct request, rq_fifo);
	else
		rq = dd->dd_next_rq[dir];
	dd->dd_batching = 0;

dispatch:
	dd->dd_batching++;
	dl_move_out(q, dd, rq);
	return rq;
}

static const struct elevator_ops deadline_ops = {
	.elv_init		= deadline_init,
	.elv_exit		= deadline_exit,
	.elv_add		= deadline_add,
	.elv_merged		= deadline_merged,
	.elv_merged_requests	= deadline_merged_requests,
	.elv_dispatch		= deadline_dispatch,
	.elv_former		= dl_former,
	.elv_latter		= dl_latter,
};

static const struct elv_tunable deadline_tunables[] = {
	{ "read_expire", offsetof(struct deadline_data, dd_read_expire), 1, 600000, "ms" },
	{ "write_expire", offsetof(struct deadline_data, dd_write_expire), 1, 600000, "ms" },
	{ "fifo_batch", offsetof(struct deadline_data, dd_fifo_batch), 1, 1024, "requests" },
	{ "writes_starved", offsetof(struct deadline_data, dd_writes_starved), 0, 1024, "batches" },
};

const struct elevator_type elevator_deadline = {
	.et_name	= "deadline",
	.et_ops		= &deadline_ops,
	.et_tunables	= deadline_tunables,
	.et_nr_tunables	= ARRAY_SIZE(deadline_tunables),
};
