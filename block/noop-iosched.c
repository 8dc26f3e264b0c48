/*
 * The noop scheduler: requests leave in the order they arrived.  Merging
 * still happens (the elevator core does it), so sequential streams still
 * become large requests; only sorting is left out.  For devices where
 * seek order means nothing (memory disks, flash) and as a baseline.
 */
#include "block/elevator.h"
#include "kernel/errno.h"
#include "kernel/mm/slab.h"

struct noop_data {
	struct list_head	nd_fifo;	/* [q] arrival order */
};

static int noop_init(struct request_queue *q, struct elevator_queue *e)
{
	struct noop_data *nd = kzalloc(sizeof(*nd), GFP_KERNEL);

	if (!nd)
		return -ENOMEM;
	INIT_LIST_HEAD(&nd->nd_fifo);
	e->e_data = nd;
	return 0;
}

static void noop_exit(struct elevator_queue *e)
{
	struct noop_data *nd = e->e_data;

	KASSERT(list_empty(&nd->nd_fifo));
	kfree(nd);
}

static void noop_add(struct request_queue *q, struct request *rq)
{
	struct noop_data *nd = q->q_elevator->e_data;

	list_add_tail(&rq->rq_fifo, &nd->nd_fifo);
}

static void noop_merged_requests(struct request_queue *q, struct request *rq,
				 struct request *next)
{
	list_del_init(&next->rq_fifo);
}

static struct request *noop_dispatch(struct request_queue *q, bool force)
{
	struct noop_data *nd = q->q_elevator->e_data;
	struct request *rq;

	if (list_empty(&nd->nd_fifo))
		return NULL;
	rq = list_first_entry(&nd->nd_fifo, struct request, rq_fifo);
	list_del_init(&rq->rq_fifo);
	return rq;
}

static const struct elevator_ops noop_ops = {
	.elv_init		= noop_init,
	.elv_exit		= noop_exit,
	.elv_add		= noop_add,
	.elv_merged_requests	= noop_merged_requests,
	.elv_dispatch		= noop_dispatch,
};

const struct elevator_type elevator_noop = {
	.et_name	= "noop",
	.et_ops		= &noop_ops,
};
