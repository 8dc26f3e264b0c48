/*
 * ext2's side of the ext3 journal (fs/jbd2/jbd2.h): finding the journal
 * inode, replaying at mount, starting and stopping the journal, and the
 * calls the rest of fs/ext2 makes while mounted.
 *
 * A filesystem with has_journal (ext3, the ext4 wiki's "Journal (jbd2)")
 * and an internal journal (s_journal_inum) is journaled when mounted
 * read-write: every metadata block change goes through
 * ext2_dirty_meta() into the running transaction, every vnode operation
 * that changes anything runs inside a handle (the ext2_vnode_ops entries
 * are wrapped below), a freed block is revoked, and the pre-commit hook
 * copies the in-core inodes, superblock and descriptors into their
 * buffers so that each commit is a consistent state.  File data is
 * ordered (jbd2.h): written before the commit that points at it.
 *
 * Mount (ext2_journal_mount, called before anything but the superblock
 * and descriptors is read): the journal inode's block map is read, then
 * the journal superblock.  If the log holds transactions (Linux or this
 * kernel stopped without unmounting) they are replayed, needs_recovery is
 * cleared, and the mount starts over from the superblock, since any block
 * may have changed.  A journal that is damaged or has features we lack
 * refuses the mount with the reason, before a single block is written.
 * A read-only device with a log to replay is refused too.
 *
 * While mounted read-write, needs_recovery is set on disk (so that e2fsck
 * and Linux replay after a crash) and s_state keeps EXT2_VALID_FS, as ext4
 * does when it has a journal.  Unmount checkpoints, marks the log empty
 * and clears needs_recovery last.
 */
#include "fs/ext2/ext2.h"
#include "fs/jbd2/jbd2.h"
#include "block/bdev.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/mm/slab.h"
#include "lib/crc32c.h"
#include "lib/string.h"

bool ext2_has_journal(const struct ext2_fs *fs)
{
	return le32_to_cpu(fs->fs_sb.s_rev_level) >= EXT2_DYNAMIC_REV &&
	       (le32_to_cpu(fs->fs_sb.s_feature_compat) & EXT3_FEATURE_COMPAT_HAS_JOURNAL);
}

static bool needs_recovery_flag(const struct ext2_fs *fs)
{
	return le32_to_cpu(fs->fs_sb.s_feature_incompat) & EXT3_FEATURE_INCOMPAT_RECOVER;
}

static void set_recover_flag(struct ext2_fs *fs, bool on)
{
	u32 v = le32_to_cpu(fs->fs_sb.s_feature_incompat);

	v = on ? v | EXT3_FEATURE_INCOMPAT_RECOVER : v & ~EXT3_FEATURE_INCOMPAT_RECOVER;
	fs->fs_sb.s_feature_incompat = cpu_to_le32(v);
	fs->fs_sb_dirty = true;
}

/* The journal inode's blocks as runs, into @j (j_runs, j_nruns). */
static int map_journal(struct ext2_fs *fs, u32 ino, struct jbd2_journal *j, const char *dev)
{
	struct ext2_inode_info *ei;
	struct jbd2_run *runs;
	u64 size, nblocks, lblk = 0;
	int err;

	err = ext2_iget_journal(fs, ino, &ei);
	if (err) {
		pr_err("ext3 (%s): cannot read the journal inode %u: %s\n", dev, ino, errstr(err));
		return err;
	}
	size = ext2_isize(ei);
	nblocks = size >> fs->fs_bshift;
	runs = kmalloc(JBD2_MAX_RUNS * sizeof(*runs), GFP_KERNEL);
	err = -ENOMEM;
	if (!runs)
		goto put;
	err = -EUCLEAN;
	if (!ext2_isreg(ei) || nblocks < JBD2_MIN_BLOCKS || nblocks > 0x7fffffff) {
		pr_err("ext3 (%s): the journal inode %u is not a journal (%llu blocks)\n",
		       dev, ino, (unsigned long long)nblocks);
		goto free_runs;
	}
	j->j_nruns = 0;
	while (lblk < nblocks) {
		struct ext2_map m = { .m_lblk = lblk, .m_len = (u32)min(nblocks - lblk, (u64)(1u << 30)) };

		err = ext2_map_blocks(ei, &m, 0);
		if (err)
			goto free_runs;
		if (!m.m_pblk) {
			pr_err("ext3 (%s): the journal has a hole at block %llu\n", dev,
			       (unsigned long long)lblk);
			err = -EUCLEAN;
			goto free_runs;
		}
		if (j->j_nruns == JBD2_MAX_RUNS) {
			pr_err("ext3 (%s): the journal is too fragmented\n", dev);
			err = -EUCLEAN;
			goto free_runs;
		}
		runs[j->j_nruns++] = (struct jbd2_run){ .r_lblk = (u32)lblk, .r_len = m.m_len,
							.r_pblk = m.m_pblk };
		lblk += m.m_len;
	}
	j->j_runs = runs;
	err = 0;
	goto put;
free_runs:
	kfree(runs);
put:
	ext2_iput(ei);
	return err;
}

/* The pre-commit hook: the in-core state into buffers (joins the transaction). */
static int ext2_journal_pre_commit(void *arg)
{
	struct ext2_fs *fs = arg;
	struct ext2_inode_info *ei;
	int err = 0, e;

	list_for_each_entry(ei, &fs->fs_inodes, ei_link) {
		e = ext2_write_inode(ei);
		if (e && !err)
			err = e;
	}
	e = ext2_write_super(fs);
	return err ? err : e;
}

/* Clear needs_recovery on disk right after a replay (the in-core copy is stale). */
static int clear_recover_on_disk(struct ext2_fs *fs)
{
	struct buffer_head *bh = bread(fs->fs_bdev, EXT2_SUPER_OFFSET / EXT2_SUPER_SIZE,
				       EXT2_SUPER_SIZE);
	struct ext2_super_block *sb;
	int err;

	if (IS_ERR(bh))
		return PTR_ERR(bh);
	sb = (struct ext2_super_block *)bh->b_data;
	sb->s_feature_incompat = cpu_to_le32(le32_to_cpu(sb->s_feature_incompat) &
					     ~EXT3_FEATURE_INCOMPAT_RECOVER);
	ext2_sb_csum_set(sb);		/* metadata_csum: csum.c */
	mark_buffer_dirty(bh);
	brelse(bh);
	err = sync_blockdev(fs->fs_bdev);
	return err;
}

int ext2_journal_mount(struct ext2_fs *fs, const char *dev, bool ro, bool *again)
{
	u32 ino = le32_to_cpu(fs->fs_sb.s_journal_inum);
	struct jbd2_recovery rc;
	struct jbd2_journal *j;
	const char *why;
	int err;

	*again = false;
	if (!ext2_has_journal(fs)) {
		if (needs_recovery_flag(fs)) {
			pr_err("ext3 (%s): the filesystem needs recovery but has no journal; run e2fsck\n", dev);
			return -EINVAL;
		}
		return 0;
	}
	if (!ino) {
		pr_err("ext3 (%s): external journals are not supported; refusing to mount\n", dev);
		return -EINVAL;
	}
	if (ino >= fs->fs_first_ino || ino > fs->fs_inodes_count || ino == EXT2_ROOT_INO) {
		pr_err("ext3 (%s): journal inode %u is not a reserved inode\n", dev, ino);
		return -EINVAL;
	}
	j = kzalloc(sizeof(*j), GFP_KERNEL);
	if (!j)
		return -ENOMEM;
	j->j_bdev = fs->fs_bdev;
	j->j_fs_blocks = fs->fs_blocks_count;
	err = map_journal(fs, ino, j, dev);
	if (err)
		goto refuse;
	err = jbd2_open(j, fs->fs_bsize, &why);
	if (err) {
		pr_err("ext3 (%s): %s; refusing to mount\n", dev, why);
		goto refuse;
	}
	if (jbd2_needs_recovery(j)) {
		if (bdev_read_only(fs->fs_bdev)) {
			pr_err("ext3 (%s): the journal needs recovery but the device is read-only; "
			       "refusing to mount\n", dev);
			err = -EINVAL;
			goto close;
		}
		err = jbd2_recover(j, &rc, &why);
		if (err) {
			pr_err("ext3 (%s): the journal is corrupt: %s; nothing replayed, refusing to "
			       "mount (run e2fsck)\n", dev, why);
			err = -EINVAL;
			goto close;
		}
		if (rc.rc_end_tid == rc.rc_start_tid)
			pr_info("ext3 (%s): recovered the journal: no committed transaction\n",
				dev);
		else
			pr_info("ext3 (%s): recovered the journal: transactions %u..%u, %u blocks "
				"replayed, %u revoked\n", dev, rc.rc_start_tid, rc.rc_end_tid - 1,
				rc.rc_replayed, rc.rc_revoked);
		err = invalidate_bdev(fs->fs_bdev);	/* every cached block may be stale */
		if (!err)
			err = clear_recover_on_disk(fs);
		if (err)
			goto close;
		*again = true;
		goto close;
	}
	if (ro) {			/* nothing to replay, nothing to write */
		err = 0;
		goto close;
	}
	fs->fs_journal = j;
	return 0;

refuse:
	if (err != -ENOMEM)
		err = -EINVAL;
close:
	jbd2_close(j);
	kfree(j);
	return err;
}

int ext2_journal_start(struct ext2_fs *fs)
{
	struct jbd2_journal *j = fs->fs_journal;
	u32 commit_s = fs->fs_commit_s ? fs->fs_commit_s : jbd2_default_commit_s();
	int err;

	if (!j)
		return 0;
	/* As Linux's ext4: 64-bit tags with 64bit, checksummed (v3) ones with metadata_csum. */
	err = jbd2_set_features(j, (ext2_incompat_feature(fs, EXT4_FEATURE_INCOMPAT_64BIT) ?
				    JBD2_FEATURE_INCOMPAT_64BIT : 0) |
				   (fs->fs_csum ? JBD2_FEATURE_INCOMPAT_CSUM_V3 : 0));
	if (!err)
		err = jbd2_start(j, commit_s ? commit_s : JBD2_DEFAULT_COMMIT_S,
				 ext2_journal_pre_commit, fs);
	if (err)
		pr_err("ext3 (%s): cannot start the journal: %s\n", bdev_name(fs->fs_bdev),
		       errstr(err));
	return err;
}

/* needs_recovery on the in-core superblock, for the mount's superblock write. */
void ext2_journal_mark(struct ext2_fs *fs)
{
	if (fs->fs_journal)
		set_recover_flag(fs, true);
}

int ext2_journal_stop(struct ext2_fs *fs)
{
	struct jbd2_journal *j = fs->fs_journal;
	int err;

	if (!j)
		return 0;
	err = jbd2_stop(j);
	if (err)
		pr_err("ext3 (%s): the journal could not be emptied (%s); e2fsck will replay it\n",
		       bdev_name(fs->fs_bdev), errstr(err));
	fs->fs_journal = NULL;		/* from here the superblock is written in place */
	if (!err)
		set_recover_flag(fs, false);
	jbd2_close(j);
	kfree(j);
	return err;
}

void ext2_journal_free(struct ext2_fs *fs)
{
	if (fs->fs_journal) {
		jbd2_close(fs->fs_journal);
		kfree(fs->fs_journal);
		fs->fs_journal = NULL;
	}
}

int ext2_journal_sync(struct ext2_fs *fs)
{
	int err = jbd2_commit(fs->fs_journal);
	int e = sync_blockdev(fs->fs_bdev);	/* data overwrites that changed no metadata */

	return err ? err : e;
}

int ext2_dirty_meta(struct ext2_fs *fs, struct buffer_head *bh)
{
	int err;

	if (!fs->fs_journal) {
		mark_buffer_dirty(bh);
		return 0;
	}
	err = jbd2_dirty_metadata(fs->fs_journal, bh);
	if (err)
		fs->fs_error = true;	/* reported by the journal */
	return err;
}

int ext2_journal_forget(struct ext2_fs *fs, u32 blk)
{
	if (!fs->fs_journal)
		return 0;
	return jbd2_revoke(fs->fs_journal, blk);
}

bool ext2_block_busy(const struct ext2_fs *fs, u32 blk)
{
	return fs->fs_journal && jbd2_block_busy(fs->fs_journal, blk);
}

int ext2_journal_begin(struct ext2_fs *fs, bool may_commit)
{
	if (!fs->fs_journal)
		return 0;
	return jbd2_handle_start(fs->fs_journal, may_commit);
}

int ext2_journal_end(struct ext2_fs *fs, int ret)
{
	int err;

	if (!fs->fs_journal)
		return ret;
	err = jbd2_handle_stop(fs->fs_journal);
	return ret < 0 || !err ? ret : err;
}
