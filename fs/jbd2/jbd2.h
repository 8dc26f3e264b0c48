/*
 * The JBD2 journal contract (fs/jbd2): an ext3/ext4-format journal inside
 * a filesystem, for fs/ext2.
 *
 * Files: jbd2_fs.h the on-disk format; format.c its helpers (tags,
 * checksums, escaping); blockmap.c a hash of block numbers; recovery.c
 * the three-pass replay; journal.c load, checkpoint and close;
 * transaction.c handles and the running transaction; commit.c writing a
 * transaction to the log; io.c (kernel) or tests/unit/fakes/jbd2_io_fake.c
 * (host) the block I/O with PREFLUSH/FUA.  Everything but io.c also
 * builds on the host.
 *
 * Model (one running transaction, serialised callers as in fs/vfs.h):
 * the filesystem brackets every modifying operation with
 * jbd2_handle_start()/jbd2_handle_stop() and hands every metadata buffer
 * it changed to jbd2_dirty_metadata() instead of mark_buffer_dirty().  Such
 * a buffer is pinned (a reference, not dirty) until its transaction
 * commits; then it is marked dirty and written home by the normal
 * write-back ("checkpointed").  A commit happens only between handles: at
 * jbd2_commit() (sync, fsync, unmount), and at a handle start when the
 * running transaction is older than the commit interval or too large for
 * the log.
 *
 * Commit (ordered data): 1. the filesystem's pre-commit hook copies its
 * in-core state into buffers; 2. every dirty buffer of the device (file
 * data and older checkpoint copies) is written and flushed; 3. descriptor
 * blocks, log copies and revoke blocks are written; 4. the commit block is
 * written with PREFLUSH|FUA, so it is durable only after all of the above
 * (jbd2.broken_commit=1, a test switch, drops the PREFLUSH); 5. the
 * buffers become dirty.  Checkpoint (when the log runs short, and at
 * close): commit, write back and flush everything, then move the log tail
 * in the journal superblock (FUA).  Nothing reaches its home location
 * before its commit is durable, except a block that an earlier committed
 * transaction also logged: replay would write that copy over it.
 *
 * Revoke: a freed block that the log may still hold gets a revoke record
 * (jbd2_revoke), so that replay never writes an old metadata copy over
 * the block's next life as file data.
 *
 * Lock legend: [I] immutable after jbd2_open, [v] serialised callers.
 */
#ifndef FS_JBD2_JBD2_H
#define FS_JBD2_JBD2_H

#include "kernel/compiler.h"
#include "fs/jbd2/jbd2_fs.h"

struct block_device;
struct buffer_head;

#define JBD2_MIN_BLOCKS		1024	/* smallest journal Linux and mke2fs accept */
#define JBD2_DEFAULT_COMMIT_S	5	/* commit interval, seconds */
#define JBD2_MAX_RUNS		4096	/* extents of the journal inode we keep */

#define JBD2_D_COMMIT	0x01
#define JBD2_D_RECOVER	0x02

/* The format parameters of one journal ([I] once loaded). */
struct jbd2_fmt {
	u32	f_bsize;		/* bytes per block */
	u32	f_first;		/* first log block */
	u32	f_maxlen;		/* blocks in the journal */
	u32	f_compat, f_incompat, f_ro_compat;
	u32	f_seed;			/* crc32c(~0, uuid) with csum v2/v3 */
};

/* One tag, unpacked. */
struct jbd2_tag_info {
	u64	ti_block;		/* home block */
	u32	ti_flags;		/* JBD2_FLAG_* */
	u32	ti_csum;		/* v2: 16 bits, v3: 32 */
};

/* A run of the journal inode: logical [r_lblk, +r_len) at disk block r_pblk. */
struct jbd2_run {
	u32	r_lblk;
	u32	r_len;
	u64	r_pblk;
};

/* format.c */
u32 jbd2_tag_bytes(const struct jbd2_fmt *f);
u32 jbd2_tags_per_desc(const struct jbd2_fmt *f);
u32 jbd2_revokes_per_block(const struct jbd2_fmt *f);
/*
 * Check a journal superblock for a filesystem of block size @fs_bsize
 * whose journal inode has @nblocks blocks, and fill @f.  Returns 0,
 * -EUCLEAN (damaged) or -EOPNOTSUPP (features we lack), with *why set.
 */
int jbd2_sb_load(struct jbd2_fmt *f, const struct jbd2_superblock *sb, u32 fs_bsize,
		 u32 nblocks, const char **why);
u32 jbd2_sb_csum(const struct jbd2_superblock *sb);
bool jbd2_tail_verify(const struct jbd2_fmt *f, const void *blk);
void jbd2_tail_set(const struct jbd2_fmt *f, void *blk);
bool jbd2_commit_verify(const struct jbd2_fmt *f, const void *blk);
void jbd2_commit_set(const struct jbd2_fmt *f, void *blk);
u32 jbd2_block_csum(const struct jbd2_fmt *f, u32 seq, const void *blk);
/* Unpack the tag at *off of a descriptor and advance past it (and its UUID); -EUCLEAN past the end. */
int jbd2_tag_get(const struct jbd2_fmt *f, const u8 *desc, u32 *off, struct jbd2_tag_info *t);
/* Pack a tag at *off (with @uuid after it unless SAME_UUID) and advance. */
void jbd2_tag_put(const struct jbd2_fmt *f, u8 *desc, u32 *off, const struct jbd2_tag_info *t,
		  const u8 *uuid);
bool jbd2_needs_escape(const void *blk);
/* on: zero the magic at the start of a log copy; off: put it back. */
void jbd2_escape(void *blk, bool on);
void jbd2_header_set(void *blk, u32 type, u32 seq);
bool jbd2_header_get(const void *blk, u32 *type, u32 *seq);
int jbd2_revoke_count(const struct jbd2_fmt *f, const void *blk, u32 *count);
int jbd2_revoke_get(const struct jbd2_fmt *f, const u8 *blk, u32 i, u32 count, u64 *block);
void jbd2_revoke_put(const struct jbd2_fmt *f, u8 *blk, u32 i, u64 block);

/* blockmap.c: block number -> u32, open addressing, grows as needed. */
struct jbd2_bmap {
	u64	*bm_keys;
	u32	*bm_vals;
	u8	*bm_state;		/* 0 free, 1 used, 2 deleted */
	u32	bm_cap;			/* a power of two, or 0 */
	u32	bm_used;		/* used + deleted slots */
	u32	bm_count;		/* used slots */
};
int jbd2_bmap_set(struct jbd2_bmap *m, u64 key, u32 val);
bool jbd2_bmap_get(const struct jbd2_bmap *m, u64 key, u32 *val);
void jbd2_bmap_del(struct jbd2_bmap *m, u64 key);
void jbd2_bmap_clear(struct jbd2_bmap *m);
void jbd2_bmap_free(struct jbd2_bmap *m);

/*
 * A journal, open on a mounted filesystem.  Lock legend: see the top.
 */
struct jbd2_journal {
	struct block_device	*j_bdev;	/* [I] */
	u64			j_fs_blocks;	/* [I] tags must name blocks below this */
	struct jbd2_fmt		j_fmt;		/* [I] */
	u8			j_uuid[JBD2_UUID_BYTES];	/* [I] */
	struct jbd2_run		*j_runs;	/* [I] the journal inode's blocks */
	u32			j_nruns;	/* [I] */
	u32			j_commit_ms;	/* [I] commit interval */
	bool			j_broken_commit;/* [I] test switch: commit without PREFLUSH */
	int			(*j_pre_commit)(void *arg);	/* [I] fs state into buffers */
	void			*j_arg;		/* [I] */
	u8			*j_stage;	/* [v] JBD2_STAGE blocks of staging */
	/* the log */
	u32			j_head;		/* [v] next log block to write */
	u32			j_tail;		/* [v] s_start on disk (0: empty) */
	u32			j_tail_tid;	/* [v] s_sequence on disk */
	struct jbd2_bmap	j_logged;	/* [v] blocks in the log since the tail */
	/* the running transaction */
	u32			j_tid;		/* [v] its id */
	struct buffer_head	**j_bufs;	/* [v] its pinned buffers */
	u32			j_nbufs, j_maxbufs;	/* [v] */
	u64			*j_revokes;	/* [v] its revoke records */
	u32			j_nrevokes, j_maxrevokes;	/* [v] */
	struct jbd2_bmap	j_inrun;	/* [v] block -> index in j_bufs */
	struct jbd2_bmap	j_freed;	/* [v] blocks it freed: not reusable until it commits */
	u64			j_tx_start_ms;	/* [v] first change of the running transaction */
	u32			j_handles;	/* [v] open handles (nesting) */
	int			j_error;	/* [v] aborted: the first error, else 0 */
	u64			j_commits;	/* [v] statistics */
	u64			j_checkpoints;	/* [v] */
};

#define JBD2_STAGE	32	/* blocks written to the log per bio, at most */

/* Result of a recovery. */
struct jbd2_recovery {
	u32	rc_start_tid;		/* first transaction found */
	u32	rc_end_tid;		/* first transaction not found */
	u32	rc_replayed;		/* blocks written home */
	u32	rc_revoked;		/* blocks skipped because revoked */
};

/* journal.c */
/**
 * jbd2_open - read and check the journal superblock
 * @j: zeroed by the caller, then j_bdev, j_fs_blocks, j_runs, j_nruns set
 *     (the runs are the journal's, owned by @j from now on)
 * @fs_bsize: the filesystem's block size
 * @why: set to the reason on failure
 *
 * Returns 0, -EUCLEAN, -EOPNOTSUPP, -EIO, -ENOMEM.  Writes nothing.
 */
int jbd2_open(struct jbd2_journal *j, u32 fs_bsize, const char **why);
/* The log holds transactions to replay (s_start != 0). */
bool jbd2_needs_recovery(const struct jbd2_journal *j);
/**
 * jbd2_start - make an opened (and recovered) journal ready for transactions
 * Resets the log (empty, next transaction s_sequence), sets the revoke
 * feature and writes the journal superblock.  @commit_s: commit interval.
 * Returns 0 or -errno.
 */
int jbd2_start(struct jbd2_journal *j, u32 commit_s,
	       int (*pre_commit)(void *arg), void *arg);
/**
 * jbd2_set_features - what the filesystem wants its journal to use from now on
 * @incompat: JBD2_FEATURE_INCOMPAT_64BIT and/or _CSUM_V3 (ext4 asks for them
 *	with 64bit and metadata_csum, as Linux does at mount)
 * Between jbd2_open (and any recovery) and jbd2_start, which writes them to
 * the journal superblock; the log is empty, so no old tag is misread.
 * Returns 0, -EINVAL (log not empty), -EOPNOTSUPP.
 */
int jbd2_set_features(struct jbd2_journal *j, u32 incompat);
/* Commit and checkpoint everything, mark the log empty.  Returns 0 or the first error. */
int jbd2_stop(struct jbd2_journal *j);
/* Free what jbd2_open and jbd2_start allocated (after jbd2_stop, or on a failed mount). */
void jbd2_close(struct jbd2_journal *j);
/* Write back everything and move the log tail: the log becomes empty.  No open handle. */
int jbd2_checkpoint(struct jbd2_journal *j);
/* Log block @lblk of the journal -> its disk block, 0 if unmapped. */
u64 jbd2_log_block(const struct jbd2_journal *j, u32 lblk);
/* Write the journal superblock (FUA) with tail @start (0: empty) and sequence @seq. */
int jbd2_write_sb(struct jbd2_journal *j, u32 start, u32 seq, bool set_revoke);

/* recovery.c */
/**
 * jbd2_recover - replay the log of an opened journal
 * Three passes as e2fsck and Linux do: scan (find the last committed
 * transaction, checking every header, tag, checksum and block number),
 * revoke (gather revoke records), replay (write the newest unrevoked copy
 * of each block home).  Anything corrupt is found by the scan, before a
 * single block is written: the call then fails with -EUCLEAN and *why set
 * and the disk is untouched.  On success the log is marked empty.
 */
int jbd2_recover(struct jbd2_journal *j, struct jbd2_recovery *rc, const char **why);

/* transaction.c */
/*
 * Open a handle; the outermost one may first commit or checkpoint when
 * @may_commit (see transaction.c).  Returns 0 or the journal's error.
 */
int jbd2_handle_start(struct jbd2_journal *j, bool may_commit);
/* Close a handle.  Returns 0 or the journal's error. */
int jbd2_handle_stop(struct jbd2_journal *j);
/**
 * jbd2_dirty_metadata - @bh (a metadata block the caller changed) joins the running transaction
 * Takes a reference of its own until the commit.  Cancels a revoke of
 * the block made in the same transaction.  Returns 0 or -errno (the
 * journal is then aborted).
 */
int jbd2_dirty_metadata(struct jbd2_journal *j, struct buffer_head *bh);
/**
 * jbd2_revoke - the filesystem freed block @blk
 * Drops it from the running transaction and, when the log may hold a
 * copy of it, records a revoke.  Returns 0 or -errno.
 */
int jbd2_revoke(struct jbd2_journal *j, u64 blk);
/*
 * Block @blk was freed by the running transaction: the last committed
 * state still uses it, so it must not be reused (and written) before the
 * commit, as Linux's allocator consults the committed bitmap.
 */
bool jbd2_block_busy(const struct jbd2_journal *j, u64 blk);
/* Commit the running transaction now (no open handle).  0 or -errno. */
int jbd2_commit(struct jbd2_journal *j);
/* The running transaction is older than the commit interval. */
bool jbd2_commit_due(const struct jbd2_journal *j);

/* commit.c */
/* Write the running transaction to the log (transaction.c calls this). */
int jbd2_write_transaction(struct jbd2_journal *j);
/* Log blocks the running transaction needs. */
u32 jbd2_tx_blocks(const struct jbd2_journal *j);
/* Free blocks in the log ring. */
u32 jbd2_log_free(const struct jbd2_journal *j);

/* io.c (kernel) or the host fake */
#define JBD2_IO_PREFLUSH	0x1
#define JBD2_IO_FUA		0x2
int jbd2_io_read(struct block_device *bdev, u64 blk, u32 bsize, void *buf);
/* Write @n consecutive blocks from @buf (kmalloc memory) with JBD2_IO_* @flags and wait. */
int jbd2_io_write(struct block_device *bdev, u64 blk, u32 bsize, const void *buf, u32 n,
		  unsigned flags);
int jbd2_io_flush(struct block_device *bdev);
u64 jbd2_now_ms(void);
u64 jbd2_now_s(void);
bool jbd2_io_broken_commit(void);
/* The commit interval (seconds) for mounts without commit= (jbd2.commit=). */
u32 jbd2_default_commit_s(void);

#endif
