/*
 * The journal's life on a mounted filesystem (fs/jbd2, portable): open
 * (read and check the journal superblock), start (an empty log for the
 * transactions of this mount), checkpoint (everything home, the log tail
 * moved) and stop/close.
 *
 * The journal superblock is log block 0.  Its s_start/s_sequence are the
 * log tail: the oldest transaction a replay needs.  This journal moves the
 * tail only by a full checkpoint (commit, write every dirty buffer home,
 * flush, then the superblock with FUA), so between checkpoints the log
 * holds every transaction since the last one, and s_start == 0 (empty)
 * is written only at clean shutdown and after a recovery.
 */
#include "fs/jbd2/jbd2.h"
#include "fs/buffer.h"
#include "block/bdev.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/mm/slab.h"
#include "lib/crc32c.h"
#include "lib/string.h"

u64 jbd2_log_block(const struct jbd2_journal *j, u32 lblk)
{
	u32 lo = 0, hi = j->j_nruns;

	while (lo < hi) {		/* runs are sorted by r_lblk */
		u32 mid = (lo + hi) / 2;
		const struct jbd2_run *r = &j->j_runs[mid];

		if (lblk < r->r_lblk)
			hi = mid;
		else if (lblk >= r->r_lblk + r->r_len)
			lo = mid + 1;
		else
			return r->r_pblk + (lblk - r->r_lblk);
	}
	return 0;
}

/* Blocks the runs map, from 0 without a hole. */
static u32 mapped_blocks(const struct jbd2_journal *j)
{
	u32 i, n = 0;

	for (i = 0; i < j->j_nruns && j->j_runs[i].r_lblk == n; i++)
		n += j->j_runs[i].r_len;
	return n;
}

/* Read the journal superblock into @sb (a block-sized buffer). */
static int read_sb(struct jbd2_journal *j, u32 bsize, void *sb)
{
	u64 p = jbd2_log_block(j, 0);

	if (!p)
		return -EUCLEAN;
	return jbd2_io_read(j->j_bdev, p, bsize, sb);
}

int jbd2_open(struct jbd2_journal *j, u32 fs_bsize, const char **why)
{
	struct jbd2_superblock *sb;
	int err;

	*why = NULL;
	sb = kmalloc(fs_bsize, GFP_KERNEL);
	if (!sb)
		return -ENOMEM;
	err = read_sb(j, fs_bsize, sb);
	if (err) {
		*why = "cannot read the journal superblock";
		goto out;
	}
	err = jbd2_sb_load(&j->j_fmt, sb, fs_bsize, mapped_blocks(j), why);
	if (err)
		goto out;
	memcpy(j->j_uuid, sb->s_uuid, JBD2_UUID_BYTES);
	j->j_tail = be32_to_cpu(sb->s_start);
	j->j_tail_tid = be32_to_cpu(sb->s_sequence);
out:
	kfree(sb);
	return err;
}

bool jbd2_needs_recovery(const struct jbd2_journal *j)
{
	return j->j_tail != 0;
}

int jbd2_write_sb(struct jbd2_journal *j, u32 start, u32 seq, bool set_revoke)
{
	u32 bsize = j->j_fmt.f_bsize;
	struct jbd2_superblock *sb;
	int err;

	sb = kmalloc(bsize, GFP_KERNEL);
	if (!sb)
		return -ENOMEM;
	err = read_sb(j, bsize, sb);
	if (err)
		goto out;
	sb->s_start = cpu_to_be32(start);
	sb->s_sequence = cpu_to_be32(seq);
	sb->s_errno = 0;
	if (set_revoke && be32_to_cpu(sb->s_header.h_blocktype) == JBD2_SUPERBLOCK_V2) {
		j->j_fmt.f_incompat |= JBD2_FEATURE_INCOMPAT_REVOKE;
		sb->s_feature_incompat = cpu_to_be32(j->j_fmt.f_incompat);
		sb->s_feature_compat = cpu_to_be32(j->j_fmt.f_compat);
		if (j->j_fmt.f_incompat & JBD2_FEATURE_INCOMPAT_CSUM_V3)
			sb->s_checksum_type = JBD2_CRC32C_CHKSUM;
	}
	if (j->j_fmt.f_incompat & (JBD2_FEATURE_INCOMPAT_CSUM_V2 | JBD2_FEATURE_INCOMPAT_CSUM_V3))
		sb->s_checksum = cpu_to_be32(jbd2_sb_csum(sb));
	err = jbd2_io_write(j->j_bdev, jbd2_log_block(j, 0), bsize, sb, 1,
			    JBD2_IO_PREFLUSH | JBD2_IO_FUA);
out:
	kfree(sb);
	return err;
}

int jbd2_set_features(struct jbd2_journal *j, u32 incompat)
{
	struct jbd2_fmt *f = &j->j_fmt;

	if (j->j_tail || j->j_bufs)
		return -EINVAL;		/* only an empty log, before jbd2_start */
	if (incompat & ~(JBD2_FEATURE_INCOMPAT_64BIT | JBD2_FEATURE_INCOMPAT_CSUM_V3))
		return -EOPNOTSUPP;
	if (incompat & JBD2_FEATURE_INCOMPAT_CSUM_V3) {
		/* v3 replaces the v1 commit-block checksum and v2 tags */
		f->f_compat &= ~JBD2_FEATURE_COMPAT_CHECKSUM;
		f->f_incompat &= ~JBD2_FEATURE_INCOMPAT_CSUM_V2;
		f->f_seed = crc32c(~0u, j->j_uuid, JBD2_UUID_BYTES);
	}
	f->f_incompat |= incompat;
	return 0;
}

int jbd2_start(struct jbd2_journal *j, u32 commit_s,
	       int (*pre_commit)(void *arg), void *arg)
{
	const struct jbd2_fmt *f = &j->j_fmt;
	u32 logsz = f->f_maxlen - f->f_first;
	int err;

	if (j->j_tail)
		return -EINVAL;		/* recover first */
	j->j_commit_ms = commit_s * 1000;
	j->j_pre_commit = pre_commit;
	j->j_arg = arg;
	j->j_broken_commit = jbd2_io_broken_commit();
	j->j_maxbufs = logsz / 2;
	j->j_maxrevokes = logsz;
	j->j_bufs = kmalloc(j->j_maxbufs * sizeof(*j->j_bufs), GFP_KERNEL);
	j->j_revokes = kmalloc(j->j_maxrevokes * sizeof(*j->j_revokes), GFP_KERNEL);
	j->j_stage = kmalloc(JBD2_STAGE * f->f_bsize, GFP_KERNEL);
	if (!j->j_bufs || !j->j_revokes || !j->j_stage)
		return -ENOMEM;		/* jbd2_close frees */
	j->j_head = f->f_first;
	/* One past the last sequence seen, as Linux: a torn transaction's blocks never match. */
	j->j_tid = j->j_tail_tid + 1;
	/* An empty log that knows its next transaction: s_start = head, s_sequence = tid. */
	err = jbd2_write_sb(j, j->j_head, j->j_tid, true);
	if (err)
		return err;
	j->j_tail = j->j_head;
	if (j->j_broken_commit)
		pr_warn("jbd2 (%s): TEST MODE jbd2.broken_commit=1: commit blocks are written "
			"WITHOUT the preceding flush; a power cut can corrupt this filesystem\n",
			bdev_name(j->j_bdev));
	return 0;
}

int jbd2_checkpoint(struct jbd2_journal *j)
{
	int err;

	if (j->j_handles)
		panic("jbd2_checkpoint: %u open handles", j->j_handles);
	err = jbd2_commit(j);
	if (err)
		return err;
	err = sync_blockdev(j->j_bdev);		/* every committed copy home, flushed */
	if (!err)
		err = jbd2_write_sb(j, j->j_head, j->j_tid, false);
	if (err) {
		if (!j->j_error)
			j->j_error = err;
		return err;
	}
	j->j_tail = j->j_head;
	j->j_tail_tid = j->j_tid;
	jbd2_bmap_clear(&j->j_logged);
	j->j_checkpoints++;
	return 0;
}

int jbd2_stop(struct jbd2_journal *j)
{
	int err = j->j_error;

	if (!err)
		err = jbd2_checkpoint(j);
	if (!err)
		err = jbd2_write_sb(j, 0, j->j_tid, false);	/* clean: nothing to replay */
	return err;
}

void jbd2_close(struct jbd2_journal *j)
{
	u32 i;

	for (i = 0; i < j->j_nbufs; i++)	/* an aborted transaction's pins */
		brelse(j->j_bufs[i]);
	j->j_nbufs = 0;
	jbd2_bmap_free(&j->j_logged);
	jbd2_bmap_free(&j->j_inrun);
	jbd2_bmap_free(&j->j_freed);
	kfree(j->j_stage);
	kfree(j->j_revokes);
	kfree(j->j_bufs);
	kfree(j->j_runs);
	j->j_stage = NULL;
	j->j_revokes = NULL;
	j->j_bufs = NULL;
	j->j_runs = NULL;
}
