/*
 * Marks: a named point in a device's write stream.  A recording layer
 * (drivers/block/logw.c, the power-cut simulator's write log) registers
 * a hook on its queue; a workload that has just been promised something
 * (fsync or sync returned) calls blk_mark() on the queue below its
 * filesystem, and the hook records the text in the stream and says where
 * it landed, so that a host tool can tell which writes came before the
 * promise.  Queues without a hook answer -EOPNOTSUPP.
 *
 * Context: process context (a hook may write its log and sleep).
 */
#ifndef BLOCK_BLK_MARK_H
#define BLOCK_BLK_MARK_H

#include "kernel/compiler.h"

struct request_queue;

#define BLK_MARK_TEXT_MAX	128	/* bytes of a mark's text, terminator included */
#define BLK_MARK_MAX_HOOKS	8	/* queues with a hook at once */

/* Record @text in @q's stream; 0 and its position in *@pos, or -errno. */
typedef int (blk_mark_fn)(struct request_queue *q, const char *text, u64 *pos);

/**
 * blk_mark_register - give @q a mark hook
 * Return: 0, -EBUSY if @q has one already, -ENOSPC if the table is full.
 */
int blk_mark_register(struct request_queue *q, blk_mark_fn *fn);
/* Remove @q's hook, if any. */
void blk_mark_unregister(struct request_queue *q);

/**
 * blk_mark - record @text in @q's write stream
 * @pos: where it landed (the recorder's entry number)
 * Context: process context; may sleep.
 * Return: 0, -EOPNOTSUPP if nothing records @q, or the hook's error.
 */
int blk_mark(struct request_queue *q, const char *text, u64 *pos);

#endif
