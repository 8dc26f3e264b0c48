/*
 * Writing the running transaction to the log (fs/jbd2, portable).
 *
 * Order on the wire (ordered data mode, jbd2.h): every dirty buffer of
 * the device (file data, and home copies of transactions already
 * committed) written and flushed; then, at the log head, descriptor
 * blocks each followed by the copies its tags name, then revoke blocks,
 * all written and completed; then the commit block with PREFLUSH|FUA: the
 * flush makes the log blocks durable before the commit block can be, FUA
 * makes the commit durable when the write completes.  Only then are the
 * transaction's buffers released to write-back.
 *
 * A descriptor describes at most JBD2_STAGE - 1 blocks, so that it and
 * its copies are staged and written together (one bio per physically
 * contiguous stretch of the log).
 */
#include "fs/jbd2/jbd2.h"
#include "fs/buffer.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/string.h"

/* Blocks described by one descriptor. */
static u32 per_desc(const struct jbd2_journal *j)
{
	return min(jbd2_tags_per_desc(&j->j_fmt), (u32)JBD2_STAGE - 1);
}

static u32 div_up(u32 a, u32 b)
{
	return (a + b - 1) / b;
}

u32 jbd2_tx_blocks(const struct jbd2_journal *j)
{
	if (!j->j_nbufs && !j->j_nrevokes)
		return 0;
	return j->j_nbufs + div_up(j->j_nbufs, per_desc(j)) +
	       div_up(j->j_nrevokes, jbd2_revokes_per_block(&j->j_fmt)) + 1;
}

u32 jbd2_log_free(const struct jbd2_journal *j)
{
	u32 logsz = j->j_fmt.f_maxlen - j->j_fmt.f_first;
	u32 used = (j->j_head + logsz - j->j_tail) % logsz;

	return logsz - used - 1;	/* the head never catches up with the tail */
}

static u32 log_next(const struct jbd2_journal *j, u32 b)
{
	return b + 1 >= j->j_fmt.f_maxlen ? j->j_fmt.f_first : b + 1;
}

/* Write @n staged blocks that belong at log blocks @lblk.. (wrapping). */
static int stage_write(struct jbd2_journal *j, u32 lblk, u32 n, unsigned flags)
{
	u32 bsize = j->j_fmt.f_bsize, i = 0, k;
	int err;

	while (i < n) {
		u64 p = jbd2_log_block(j, lblk);
		u32 l = lblk;

		for (k = 1; i + k < n; k++) {
			u32 nl = log_next(j, l);

			if (nl != l + 1 || jbd2_log_block(j, nl) != p + k)
				break;
			l = nl;
		}
		err = jbd2_io_write(j->j_bdev, p, bsize, j->j_stage + i * bsize, k, flags);
		if (err)
			return err;
		for (; k; k--, i++)
			lblk = log_next(j, lblk);
	}
	return 0;
}

/* Descriptor + copies of j_bufs[from, from+n) at the head.  */
static int write_descriptor(struct jbd2_journal *j, u32 from, u32 n)
{
	const struct jbd2_fmt *f = &j->j_fmt;
	u32 bsize = f->f_bsize, off = sizeof(struct jbd2_header), i, lblk = j->j_head;
	u8 *d = j->j_stage;
	int err;

	memset(d, 0, bsize);
	jbd2_header_set(d, JBD2_DESCRIPTOR_BLOCK, j->j_tid);
	for (i = 0; i < n; i++) {
		struct buffer_head *bh = j->j_bufs[from + i];
		u8 *copy = j->j_stage + (i + 1) * bsize;
		struct jbd2_tag_info t = { .ti_block = bh->b_blocknr };

		memcpy(copy, bh->b_data, bsize);
		if (jbd2_needs_escape(copy)) {
			jbd2_escape(copy, true);
			t.ti_flags |= JBD2_FLAG_ESCAPE;
		}
		if (i)
			t.ti_flags |= JBD2_FLAG_SAME_UUID;
		if (i == n - 1)
			t.ti_flags |= JBD2_FLAG_LAST_TAG;
		t.ti_csum = jbd2_block_csum(f, j->j_tid, copy);
		if (!(f->f_incompat & (JBD2_FEATURE_INCOMPAT_CSUM_V2 | JBD2_FEATURE_INCOMPAT_CSUM_V3)))
			t.ti_csum = 0;
		jbd2_tag_put(f, d, &off, &t, j->j_uuid);
	}
	jbd2_tail_set(f, d);
	err = stage_write(j, lblk, n + 1, 0);
	if (err)
		return err;
	for (i = 0; i <= n; i++)
		j->j_head = log_next(j, j->j_head);
	return 0;
}

static int write_revokes(struct jbd2_journal *j)
{
	const struct jbd2_fmt *f = &j->j_fmt;
	u32 per = jbd2_revokes_per_block(f), i, k;
	u8 *r = j->j_stage;
	int err;

	for (i = 0; i < j->j_nrevokes; i += per) {
		memset(r, 0, f->f_bsize);
		jbd2_header_set(r, JBD2_REVOKE_BLOCK, j->j_tid);
		for (k = 0; k < per && i + k < j->j_nrevokes; k++)
			jbd2_revoke_put(f, r, k, j->j_revokes[i + k]);
		jbd2_tail_set(f, r);
		err = stage_write(j, j->j_head, 1, 0);
		if (err)
			return err;
		j->j_head = log_next(j, j->j_head);
	}
	return 0;
}

static int write_commit(struct jbd2_journal *j)
{
	struct jbd2_commit_header *c = (struct jbd2_commit_header *)j->j_stage;
	u64 now = jbd2_now_s();
	unsigned flags = JBD2_IO_FUA | (j->j_broken_commit ? 0 : JBD2_IO_PREFLUSH);
	int err;

	memset(j->j_stage, 0, j->j_fmt.f_bsize);
	jbd2_header_set(c, JBD2_COMMIT_BLOCK, j->j_tid);
	c->h_commit_sec[0] = cpu_to_be32((u32)(now >> 32));
	c->h_commit_sec[1] = cpu_to_be32((u32)now);
	jbd2_commit_set(&j->j_fmt, c);
	err = stage_write(j, j->j_head, 1, flags);
	if (!err)
		j->j_head = log_next(j, j->j_head);
	return err;
}

int jbd2_write_transaction(struct jbd2_journal *j)
{
	u32 need = jbd2_tx_blocks(j), i, n, per = per_desc(j);
	int err;

	if (need > jbd2_log_free(j)) {
		pr_err("jbd2: transaction of %u blocks does not fit the %u free in the log\n",
		       need, jbd2_log_free(j));
		return -ENOSPC;
	}
	err = sync_blockdev(j->j_bdev);		/* ordered data, and older checkpoints */
	if (err)
		return err;
	for (i = 0; i < j->j_nbufs; i += n) {
		n = min(per, j->j_nbufs - i);
		err = write_descriptor(j, i, n);
		if (err)
			return err;
	}
	err = write_revokes(j);
	if (!err)
		err = write_commit(j);
	if (err)
		return err;
	DPRINTF(JBD2_D_COMMIT, "jbd2: committed %u: %u blocks, %u revokes\n",
		j->j_tid, j->j_nbufs, j->j_nrevokes);
	/* Durable: the copies may go home now, and the log holds them until a checkpoint. */
	for (i = 0; i < j->j_nbufs; i++) {
		struct buffer_head *bh = j->j_bufs[i];

		err = jbd2_bmap_set(&j->j_logged, bh->b_blocknr, j->j_tid);
		mark_buffer_dirty(bh);
		brelse(bh);
		if (err)
			break;
	}
	/* The rest are still pinned on an error; jbd2_close releases them. */
	if (err) {
		memmove(j->j_bufs, j->j_bufs + i + 1, (j->j_nbufs - i - 1) * sizeof(*j->j_bufs));
		j->j_nbufs -= i + 1;
		return err;
	}
	j->j_nbufs = 0;
	j->j_nrevokes = 0;
	jbd2_bmap_clear(&j->j_inrun);
	jbd2_bmap_clear(&j->j_freed);	/* their freeing is durable: reusable */
	j->j_tid++;
	j->j_commits++;
	return 0;
}
