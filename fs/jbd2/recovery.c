/*
 * Journal recovery (fs/jbd2, portable): replay what a crash left in the
 * log, in three passes over it, as e2fsck and Linux do.
 *
 *  scan    from s_start/s_sequence, follow descriptor, revoke and commit
 *          blocks while their header has the magic and the expected
 *          sequence; the transactions that reached their commit block are
 *          the ones to replay.  Everything is checked here: tags that
 *          overrun their descriptor or name a block outside the
 *          filesystem, unknown block types, bad revoke counts and, with
 *          csum v2/v3, every descriptor, revoke, commit and data block
 *          checksum.  A fault inside a committed transaction fails the
 *          recovery before anything is written; a fault in the last,
 *          uncommitted transaction is the torn end of the log and ends it.
 *  revoke  gather every revoke record: block -> newest revoking tid.
 *  replay  write each tagged copy home (unescaped) unless a transaction
 *          at least as new revoked it; later copies overwrite earlier.
 * Then a flush and the journal superblock marked empty (s_start 0,
 * s_sequence the first unused tid), written with FUA.
 *
 * Bounds: a pass reads at most the log's length in blocks; sequence
 * comparisons are modulo 2^32 (tid_gt).
 */
#include "fs/jbd2/jbd2.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

enum { PASS_SCAN, PASS_REVOKE, PASS_REPLAY };

static bool tid_gt(u32 x, u32 y)
{
	return (s32)(x - y) > 0;
}

struct pass_state {
	struct jbd2_journal	*ps_j;
	int			ps_pass;
	u8			*ps_buf;	/* the block being parsed */
	u8			*ps_data;	/* a data block */
	struct jbd2_bmap	ps_revoked;	/* block -> tid */
	u32			ps_end;		/* first tid not committed (after the scan) */
	struct jbd2_recovery	*ps_rc;
	const char		*ps_why;	/* fault in the current transaction */
	int			ps_err;
};

static u32 log_next(const struct jbd2_journal *j, u32 b)
{
	return b + 1 >= j->j_fmt.f_maxlen ? j->j_fmt.f_first : b + 1;
}

static int read_log(struct jbd2_journal *j, u32 lblk, void *buf)
{
	u64 p = jbd2_log_block(j, lblk);

	if (!p)
		return -EUCLEAN;
	return jbd2_io_read(j->j_bdev, p, j->j_fmt.f_bsize, buf);
}

/* Note the first fault of the transaction being scanned. */
static void fault(struct pass_state *ps, const char *why)
{
	if (!ps->ps_why)
		ps->ps_why = why;
}

/*
 * One data block of a descriptor: checked (scan) or written home
 * (replay).  Returns 0 or an I/O error.
 */
static int data_block(struct pass_state *ps, u32 lblk, const struct jbd2_tag_info *t, u32 tid)
{
	struct jbd2_journal *j = ps->ps_j;
	const struct jbd2_fmt *f = &j->j_fmt;
	u32 rtid;
	int err;

	if (ps->ps_pass == PASS_SCAN) {
		if (t->ti_block >= j->j_fs_blocks) {
			fault(ps, "a tag names a block outside the filesystem");
			return 0;
		}
		if (!(f->f_incompat & (JBD2_FEATURE_INCOMPAT_CSUM_V2 |
				       JBD2_FEATURE_INCOMPAT_CSUM_V3)))
			return 0;
		err = read_log(j, lblk, ps->ps_data);
		if (err)
			return err;
		if (f->f_incompat & JBD2_FEATURE_INCOMPAT_CSUM_V3 ?
		    jbd2_block_csum(f, tid, ps->ps_data) != t->ti_csum :
		    (jbd2_block_csum(f, tid, ps->ps_data) & 0xFFFF) != t->ti_csum)
			fault(ps, "a logged block fails its checksum");
		return 0;
	}
	if (ps->ps_pass != PASS_REPLAY)
		return 0;
	if (jbd2_bmap_get(&ps->ps_revoked, t->ti_block, &rtid) && !tid_gt(tid, rtid)) {
		ps->ps_rc->rc_revoked++;
		return 0;
	}
	err = read_log(j, lblk, ps->ps_data);
	if (err)
		return err;
	if (t->ti_flags & JBD2_FLAG_ESCAPE)
		jbd2_escape(ps->ps_data, false);
	err = jbd2_io_write(j->j_bdev, t->ti_block, f->f_bsize, ps->ps_data, 1, 0);
	if (!err)
		ps->ps_rc->rc_replayed++;
	return err;
}

/* A descriptor at *lblk: its data blocks follow.  Advances *lblk past them. */
static int descriptor(struct pass_state *ps, u32 *lblk, u32 tid, u32 *budget)
{
	struct jbd2_journal *j = ps->ps_j;
	struct jbd2_tag_info t;
	u32 off = sizeof(struct jbd2_header);
	int err;

	if (ps->ps_pass == PASS_SCAN && !jbd2_tail_verify(&j->j_fmt, ps->ps_buf))
		fault(ps, "a descriptor block fails its checksum");
	*lblk = log_next(j, *lblk);
	for (;;) {
		if (jbd2_tag_get(&j->j_fmt, ps->ps_buf, &off, &t)) {
			if (ps->ps_pass == PASS_SCAN)
				fault(ps, "a descriptor block has no last tag");
			return 0;	/* as Linux: the tags that fit */
		}
		if (!*budget || !--*budget) {
			fault(ps, "the log is longer than the journal");
			return -EUCLEAN;
		}
		err = data_block(ps, *lblk, &t, tid);
		if (err)
			return err;
		*lblk = log_next(j, *lblk);
		if (t.ti_flags & JBD2_FLAG_LAST_TAG)
			return 0;
	}
}

static int revoke_block(struct pass_state *ps, u32 tid)
{
	const struct jbd2_fmt *f = &ps->ps_j->j_fmt;
	u32 count, i, old;
	u64 b;
	int err;

	if (jbd2_revoke_count(f, ps->ps_buf, &count)) {
		fault(ps, "a revoke block has a bad count");
		return 0;
	}
	if (ps->ps_pass == PASS_SCAN) {
		if (!jbd2_tail_verify(f, ps->ps_buf))
			fault(ps, "a revoke block fails its checksum");
		return 0;
	}
	if (ps->ps_pass != PASS_REVOKE)
		return 0;
	for (i = 0; !jbd2_revoke_get(f, ps->ps_buf, i, count, &b); i++) {
		if (jbd2_bmap_get(&ps->ps_revoked, b, &old) && !tid_gt(tid, old))
			continue;
		err = jbd2_bmap_set(&ps->ps_revoked, b, tid);
		if (err)
			return err;
	}
	return 0;
}

/* One pass over the log.  The scan sets ps_end; a fault fails it with ps_why. */
static int do_pass(struct pass_state *ps)
{
	struct jbd2_journal *j = ps->ps_j;
	u32 lblk = j->j_tail, tid = j->j_tail_tid, type, seq;
	u32 budget = j->j_fmt.f_maxlen - j->j_fmt.f_first;
	int err = 0;

	ps->ps_why = NULL;
	for (;;) {
		if (ps->ps_pass != PASS_SCAN && tid == ps->ps_end)
			break;
		if (!budget--) {
			fault(ps, "the log is longer than the journal");
			err = -EUCLEAN;
			break;
		}
		err = read_log(j, lblk, ps->ps_buf);
		if (err)
			break;
		if (!jbd2_header_get(ps->ps_buf, &type, &seq) || seq != tid) {
			if (ps->ps_pass == PASS_SCAN)
				break;		/* the end of the log */
			ps->ps_why = "the log changed between passes";
			err = -EIO;
			break;
		}
		switch (type) {
		case JBD2_DESCRIPTOR_BLOCK:
			err = descriptor(ps, &lblk, tid, &budget);
			break;
		case JBD2_REVOKE_BLOCK:
			err = revoke_block(ps, tid);
			lblk = log_next(j, lblk);
			break;
		case JBD2_COMMIT_BLOCK:
			if (ps->ps_pass == PASS_SCAN && !jbd2_commit_verify(&j->j_fmt, ps->ps_buf))
				fault(ps, "a commit block fails its checksum");
			if (ps->ps_why) {	/* a committed transaction is damaged */
				err = -EUCLEAN;
				break;
			}
			tid++;
			lblk = log_next(j, lblk);
			break;
		default:
			fault(ps, "a log block has an unknown type");
			if (ps->ps_pass == PASS_SCAN)
				goto out;	/* cannot go on; fatal if a commit would follow */
			err = -EUCLEAN;
			break;
		}
		if (err)
			break;
	}
out:
	if (ps->ps_pass == PASS_SCAN) {
		ps->ps_end = tid;
		if (!err)
			ps->ps_why = NULL;	/* faults after the last commit: the torn end */
		else if (!ps->ps_why)
			ps->ps_why = "cannot read the log";
	}
	return err;
}

int jbd2_recover(struct jbd2_journal *j, struct jbd2_recovery *rc, const char **why)
{
	struct pass_state ps = { .ps_j = j, .ps_rc = rc };
	int err = -ENOMEM;

	memset(rc, 0, sizeof(*rc));
	*why = NULL;
	rc->rc_start_tid = rc->rc_end_tid = j->j_tail_tid;
	if (!j->j_tail)
		return 0;
	ps.ps_buf = kmalloc(j->j_fmt.f_bsize, GFP_KERNEL);
	ps.ps_data = kmalloc(j->j_fmt.f_bsize, GFP_KERNEL);
	if (!ps.ps_buf || !ps.ps_data)
		goto out;
	for (ps.ps_pass = PASS_SCAN; ps.ps_pass <= PASS_REPLAY; ps.ps_pass++) {
		err = do_pass(&ps);
		if (err) {
			*why = ps.ps_why ? ps.ps_why : "I/O error";
			goto out;
		}
	}
	rc->rc_end_tid = ps.ps_end;
	DPRINTF(JBD2_D_RECOVER, "jbd2: replayed transactions %u..%u: %u blocks, %u revoked\n",
		j->j_tail_tid, ps.ps_end, rc->rc_replayed, rc->rc_revoked);
	err = jbd2_io_flush(j->j_bdev);
	if (!err)
		err = jbd2_write_sb(j, 0, ps.ps_end, false);
	if (err)
		*why = "cannot write the replayed blocks";
	else {
		j->j_tail = 0;
		j->j_tail_tid = ps.ps_end;
	}
out:
	jbd2_bmap_free(&ps.ps_revoked);
	kfree(ps.ps_data);
	kfree(ps.ps_buf);
	return err;
}
