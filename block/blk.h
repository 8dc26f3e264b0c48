/*
 * Block-core internals shared by the files of block/, not by drivers:
 * request pool management and the queue list.  Drivers and filesystems
 * include block/blkdev.h and block/bio.h only.
 */
#ifndef BLOCK_BLK_H
#define BLOCK_BLK_H

#include "block/blkdev.h"
#include "block/blk-trace.h"

/* blk-core.c: give a request back to its pool.  Queue lock held. */
void __blk_put_request(struct request_queue *q, struct request *rq);
/* blk-core.c: a request for a data-less command (flush).  Queue lock held. */
void blk_rq_init(struct request_queue *q, struct request *rq);
/* blk-core.c: the driver may be called now (not stopped, not plugged). */
bool blk_queue_runnable(const struct request_queue *q);

#endif
