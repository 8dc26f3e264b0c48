/*
 * Handles and the running transaction (fs/jbd2, portable).
 *
 * Callers are serialised (fs/vfs.h), so a handle is a nesting count: it
 * marks the span of one filesystem operation, inside which no commit may
 * happen (the metadata would be half-changed).  Commits happen at
 * jbd2_commit() and at the outermost handle start that allows it, when
 * the running transaction is older than the commit interval or has grown
 * past a quarter of the log (so that one more operation still fits).  When
 * the free log space drops below half, that start checkpoints first (see
 * journal.c).  A start that must not commit is one that continues the
 * previous operation (ext2's release of an inode its unlink just freed):
 * the two must land in one transaction.
 *
 * A buffer handed to jbd2_dirty_metadata() is pinned: the journal keeps a
 * reference (it cannot be evicted) and does not mark it dirty (write-back
 * leaves it alone) until its commit is durable.
 *
 * An error aborts the journal: every later call returns it, nothing more
 * is committed, and the filesystem reports it (the last committed state
 * stays replayable).
 */
#include "fs/jbd2/jbd2.h"
#include "fs/buffer.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/string.h"

static int abort_journal(struct jbd2_journal *j, int err, const char *what)
{
	if (!j->j_error) {
		j->j_error = err;
		pr_err("jbd2: journal aborted: %s: error %d\n", what, err);
	}
	return err;
}

static bool tx_empty(const struct jbd2_journal *j)
{
	return !j->j_nbufs && !j->j_nrevokes;
}

bool jbd2_commit_due(const struct jbd2_journal *j)
{
	return !tx_empty(j) && jbd2_now_ms() - j->j_tx_start_ms >= j->j_commit_ms;
}

int jbd2_handle_start(struct jbd2_journal *j, bool may_commit)
{
	u32 logsz = j->j_fmt.f_maxlen - j->j_fmt.f_first;
	int err;

	if (j->j_error)
		return j->j_error;
	if (j->j_handles || !may_commit)
		goto open;
	/* commit and checkpoint run outside any handle: before this one opens */
	if (jbd2_commit_due(j) || jbd2_tx_blocks(j) > logsz / 4) {
		err = jbd2_commit(j);
		if (err)
			return err;
	}
	if (jbd2_log_free(j) < logsz / 2) {
		err = jbd2_checkpoint(j);
		if (err)
			return err;
	}
open:
	j->j_handles++;
	return 0;
}

int jbd2_handle_stop(struct jbd2_journal *j)
{
	if (!j->j_handles)
		panic("jbd2_handle_stop: no open handle");
	j->j_handles--;
	return j->j_error;
}

/* Forget a revoke record of @blk made in the running transaction. */
static void cancel_revoke(struct jbd2_journal *j, u64 blk)
{
	u32 i;

	for (i = 0; i < j->j_nrevokes; i++) {
		if (j->j_revokes[i] == blk) {
			j->j_revokes[i] = j->j_revokes[--j->j_nrevokes];
			return;
		}
	}
}

int jbd2_dirty_metadata(struct jbd2_journal *j, struct buffer_head *bh)
{
	struct buffer_head *ref;
	int err;

	if (j->j_error)
		return j->j_error;
	if (jbd2_bmap_get(&j->j_inrun, bh->b_blocknr, NULL))
		return 0;
	if (j->j_nbufs == j->j_maxbufs)
		return abort_journal(j, -ENOSPC, "transaction larger than half the log");
	ref = bread(bh->b_bdev, bh->b_blocknr, bh->b_size);	/* a cached hit: our reference */
	if (IS_ERR(ref))
		return abort_journal(j, PTR_ERR(ref), "pinning a buffer");
	if (ref != bh)
		panic("jbd2_dirty_metadata: two buffers for block %llu",
		      (unsigned long long)bh->b_blocknr);
	err = jbd2_bmap_set(&j->j_inrun, bh->b_blocknr, j->j_nbufs);
	if (err) {
		brelse(ref);
		return abort_journal(j, err, "tracking a buffer");
	}
	if (tx_empty(j))
		j->j_tx_start_ms = jbd2_now_ms();
	cancel_revoke(j, bh->b_blocknr);
	j->j_bufs[j->j_nbufs++] = bh;
	return 0;
}

bool jbd2_block_busy(const struct jbd2_journal *j, u64 blk)
{
	return jbd2_bmap_get(&j->j_freed, blk, NULL);
}

int jbd2_revoke(struct jbd2_journal *j, u64 blk)
{
	u32 i;
	int err;

	if (j->j_error)
		return j->j_error;
	err = jbd2_bmap_set(&j->j_freed, blk, 0);
	if (err)
		return abort_journal(j, err, "tracking a freed block");
	if (jbd2_bmap_get(&j->j_inrun, blk, &i)) {	/* freed in its own transaction */
		struct buffer_head *bh = j->j_bufs[i];

		jbd2_bmap_del(&j->j_inrun, blk);
		j->j_bufs[i] = j->j_bufs[--j->j_nbufs];
		if (i < j->j_nbufs) {
			err = jbd2_bmap_set(&j->j_inrun, j->j_bufs[i]->b_blocknr, i);

			if (err)
				return abort_journal(j, err, "tracking a buffer");
		}
		/*
		 * Its contents are garbage now; if nothing dirty remains the
		 * old home copy stays, which is what a replay would expect.
		 */
		brelse(bh);
	}
	if (!jbd2_bmap_get(&j->j_logged, blk, NULL))
		return 0;		/* the log holds no copy to cancel */
	for (i = 0; i < j->j_nrevokes; i++)
		if (j->j_revokes[i] == blk)
			return 0;
	if (j->j_nrevokes == j->j_maxrevokes)
		return abort_journal(j, -ENOSPC, "too many revoke records");
	if (tx_empty(j))
		j->j_tx_start_ms = jbd2_now_ms();
	j->j_revokes[j->j_nrevokes++] = blk;
	return 0;
}

int jbd2_commit(struct jbd2_journal *j)
{
	int err;

	if (j->j_error)
		return j->j_error;
	if (j->j_handles)
		panic("jbd2_commit: inside a handle");
	if (j->j_pre_commit) {
		j->j_handles++;		/* the hook dirties metadata like an operation */
		err = j->j_pre_commit(j->j_arg);
		j->j_handles--;
		if (err)
			return abort_journal(j, err, "writing the filesystem's state");
	}
	if (tx_empty(j))
		return 0;
	err = jbd2_write_transaction(j);
	if (err)
		return abort_journal(j, err, "writing a transaction");
	return 0;
}
