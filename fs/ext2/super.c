/*
 * ext2: mount, unmount, sync and statfs, and writing the superblock and
 * the group descriptor table back.  ext3 (has_journal) and ext4 (any
 * feature ext3 lacks: extents, 64bit, flex_bg, metadata_csum...) are the
 * same driver under two more type names; the probes run ext4, ext3, ext2.
 *
 * Layer: a filesystem type under the VFS (fs/vfs.h), on the buffer cache
 * (fs/buffer.h).  Mount reads the superblock at byte 1024 and has
 * super_check.c check it and the group descriptors before anything uses
 * them (the disk is hostile), then refuses descriptors whose structures
 * overlap (meta.c).  Read-write mounts
 * clear EXT2_VALID_FS on disk while mounted and bump s_mnt_count; unmount
 * writes everything back, then the superblock with the state found at
 * mount, plus EXT2_ERROR_FS if corruption was seen (as Linux does) or the
 * write-back failed (so that the next e2fsck -p checks it).
 *
 * The in-core superblock and descriptors are the authority while mounted
 * (the allocators update them); ext2_write_super() copies them to their
 * blocks: right after the superblock, or with meta_bg (which mke2fs picks
 * for groups too small to hold the whole table) one block at the start of
 * each meta group, the groups one descriptor block describes.  Each
 * descriptor is written fs_desc_size bytes wide with its checksum, the
 * superblock with its own (csum.c).  Backup
 * copies in other groups are left alone, as Linux leaves them: e2fsck
 * only uses them when the primary is damaged.
 */
#include "fs/ext2/ext2.h"
#include "fs/jbd2/jbd2.h"
#include "block/bdev.h"
#include "block/blkdev_io.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "kernel/init.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

u32 ext2_now(void)
{
	return (u32)wallclock_unix();
}

/*
 * Report corruption once per call, where it was found, and remember it:
 * a read-write filesystem gets EXT2_ERROR_FS on disk at the next sync.
 */
void ext2_error(struct ext2_fs *fs, const char *where, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pr_err("ext2 (%s): error in %s: %s\n", bdev_name(fs->fs_bdev), where, msg);
	fs->fs_error = true;
	if (!fs->fs_rdonly) {
		fs->fs_sb.s_state = cpu_to_le16(le16_to_cpu(fs->fs_sb.s_state) | EXT2_ERROR_FS);
		fs->fs_sb_dirty = true;
	}
}

/* Read filesystem block @blk, refusing numbers outside the filesystem. */
struct buffer_head *ext2_bread(struct ext2_fs *fs, u32 blk)
{
	if (blk >= fs->fs_blocks_count) {
		ext2_error(fs, "bread", "block %u beyond the filesystem (%u blocks)",
			   blk, fs->fs_blocks_count);
		return ERR_PTR(-EUCLEAN);
	}
	return bread(fs->fs_bdev, blk, fs->fs_bsize);
}

/* A buffer for newly allocated block @blk, zero-filled and dirty. */
struct buffer_head *ext2_getblk_zero(struct ext2_fs *fs, u32 blk)
{
	struct buffer_head *bh = getblk(fs->fs_bdev, blk, fs->fs_bsize);

	if (IS_ERR(bh))
		return bh;
	memset(bh->b_data, 0, bh->b_size);
	set_buffer_uptodate(bh);
	mark_buffer_dirty(bh);
	return bh;
}

/* Copy the in-core superblock and descriptors to their blocks (dirty). */
int ext2_write_super(struct ext2_fs *fs)
{
	u32 i, k, per = fs->fs_desc_per_block, dsize = fs->fs_desc_size;
	u32 copy = min(dsize, (u32)sizeof(struct ext2_group_desc));
	struct buffer_head *bh;

	if (fs->fs_rdonly)
		return 0;
	if (fs->fs_gd_dirty) {
		for (i = 0; i < fs->fs_gdt_blocks; i++) {
			u32 n = min(per, fs->fs_groups - i * per);

			bh = ext2_bread(fs, ext2_desc_block(fs, i));
			if (IS_ERR(bh))
				return PTR_ERR(bh);
			for (k = 0; k < n; k++) {
				struct ext2_group_desc *gd = &fs->fs_gd[i * per + k];
				u8 *d = bh->b_data + k * dsize;

				/* bytes past 64 of a wider descriptor stay as they are */
				memcpy(d, gd, copy);
				if (fs->fs_gdt_csum) {
					gd->bg_checksum = cpu_to_le16(ext2_gd_csum(fs, i * per + k, d));
					memcpy(d + offsetof(struct ext2_group_desc, bg_checksum),
					       &gd->bg_checksum, sizeof(gd->bg_checksum));
				}
			}
			ext2_dirty_meta(fs, bh);
			brelse(bh);
		}
		fs->fs_gd_dirty = false;
	}
	if (fs->fs_sb_dirty) {
		fs->fs_sb.s_wtime = cpu_to_le32(ext2_now());
		bh = ext2_bread(fs, EXT2_SUPER_OFFSET / fs->fs_bsize);
		if (IS_ERR(bh))
			return PTR_ERR(bh);
		ext2_sb_csum_set(&fs->fs_sb);
		memcpy(bh->b_data + EXT2_SUPER_OFFSET % fs->fs_bsize, &fs->fs_sb, EXT2_SUPER_SIZE);
		ext2_dirty_meta(fs, bh);
		brelse(bh);
		fs->fs_sb_dirty = false;
	}
	return 0;
}

static int ext2_probe(struct block_device *bdev)
{
	struct buffer_head *bh;
	struct ext2_super_block *sb;
	int found;

	if (blkdev_size(bdev) < EXT2_SUPER_OFFSET + EXT2_SUPER_SIZE)
		return 0;
	bh = bread(bdev, EXT2_SUPER_OFFSET / EXT2_SUPER_SIZE, EXT2_SUPER_SIZE);
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	sb = (struct ext2_super_block *)bh->b_data;
	/* The magic alone: a damaged superblock is ext2's to refuse, with the reason. */
	found = le16_to_cpu(sb->s_magic) == EXT2_SUPER_MAGIC;
	brelse(bh);
	return found;
}

static void ext2_free_fs(struct ext2_fs *fs)
{
	kfree(fs->fs_zones);
	kfree(fs->fs_gstate);
	kfree(fs->fs_gd);
	kfree(fs);
}

/*
 * One attempt at mounting.  *again is set when the journal was replayed:
 * everything read so far may be stale, and the caller starts over.
 */
static int ext2_mount_once(struct vfs_mount *mnt, struct block_device *bdev, bool *again)
{
	const char *dev = bdev_name(bdev);
	struct ext2_inode_info *root;
	struct buffer_head *bh;
	struct ext2_fs *fs;
	bool ro = (mnt->mnt_flags & VFS_MNT_RDONLY) || bdev_read_only(bdev);
	int err;

	fs = kzalloc(sizeof(*fs), GFP_KERNEL);
	if (!fs)
		return -ENOMEM;
	fs->fs_bdev = bdev;
	fs->fs_mnt = mnt;
	fs->fs_rdonly = true;		/* nothing may be written until we know */
	fs->fs_commit_s = mnt->mnt_flags >> VFS_MNT_COMMIT_SHIFT;	/* commit=, 0: default */
	INIT_LIST_HEAD(&fs->fs_inodes);

	if (blkdev_size(bdev) < EXT2_SUPER_OFFSET + EXT2_SUPER_SIZE) {
		err = -EINVAL;
		goto free_fs;
	}
	bh = bread(bdev, EXT2_SUPER_OFFSET / EXT2_SUPER_SIZE, EXT2_SUPER_SIZE);
	if (IS_ERR(bh)) {
		pr_err("ext2 (%s): cannot read the superblock: %s\n", dev, errstr(PTR_ERR(bh)));
		err = PTR_ERR(bh);
		goto free_fs;
	}
	memcpy(&fs->fs_sb, bh->b_data, EXT2_SUPER_SIZE);
	brelse(bh);

	err = ext2_check_geometry(fs, &fs->fs_sb, blkdev_size(bdev), dev);
	if (err)
		goto free_fs;
	err = ext2_check_features(fs, dev, &ro);
	if (err)
		goto free_fs;
	fs->fs_max_size = ext2_max_size(fs);
	err = ext2_load_groups(fs, dev, &ro);
	if (!err)
		err = ext2_meta_init(fs, dev);
	if (!err)
		err = ext2_journal_mount(fs, dev, ro, again);
	if (err || *again)
		goto free_fs;

	err = ext2_iget(fs, EXT2_ROOT_INO, &root);
	if (err) {
		pr_err("ext2 (%s): cannot read the root directory: %s\n", dev, errstr(err));
		goto free_fs;
	}
	if (!ext2_isdir(root)) {
		pr_err("ext2 (%s): the root inode is not a directory\n", dev);
		err = -EINVAL;
		goto put_root;
	}

	if (!ro) {
		u16 state = le16_to_cpu(fs->fs_sb.s_state);

		if (!(state & EXT2_VALID_FS))
			pr_warn("ext2 (%s): mounting an unchecked filesystem; run e2fsck\n", dev);
		else if (state & EXT2_ERROR_FS)
			pr_warn("ext2 (%s): mounting a filesystem with errors; run e2fsck\n", dev);
		struct jbd2_journal *j = fs->fs_journal;

		fs->fs_rdonly = false;
		/* With a journal, needs_recovery marks the mount and VALID_FS stays (as ext4). */
		if (!j)
			fs->fs_sb.s_state = cpu_to_le16(state & ~EXT2_VALID_FS);
		fs->fs_sb.s_mnt_count = cpu_to_le16(le16_to_cpu(fs->fs_sb.s_mnt_count) + 1);
		fs->fs_sb.s_mtime = cpu_to_le32(ext2_now());
		fs->fs_sb_dirty = true;
		fs->fs_mount_state = state;
		ext2_journal_mark(fs);
		fs->fs_journal = NULL;		/* this superblock write goes in place */
		err = ext2_write_super(fs);
		if (!err)
			err = sync_blockdev(bdev);
		fs->fs_journal = j;
		if (err) {
			pr_err("ext2 (%s): cannot write the superblock: %s\n", dev, errstr(err));
			goto put_root;
		}
		err = ext2_journal_start(fs);
		if (err)
			goto put_root;
	} else {
		mnt->mnt_flags |= VFS_MNT_RDONLY;
	}
	mnt->mnt_priv = fs;
	mnt->mnt_root = &root->ei_vnode;
	DPRINTF(EXT2_D_MOUNT, "ext2 (%s): %u blocks of %u, %u groups%s\n", dev,
		fs->fs_blocks_count, fs->fs_bsize, fs->fs_groups, ro ? ", read-only" : "");
	return 0;

put_root:
	ext2_iput(root);
free_fs:
	ext2_journal_free(fs);
	invalidate_bdev(bdev);
	mnt->mnt_priv = NULL;
	ext2_free_fs(fs);
	return err;
}

static int ext2_mount(struct vfs_mount *mnt, struct block_device *bdev)
{
	bool again = false;
	int err;

	err = ext2_mount_once(mnt, bdev, &again);
	if (!err && again)		/* replayed: the log is empty now */
		err = ext2_mount_once(mnt, bdev, &again);
	if (!err && again) {
		pr_err("ext3 (%s): the journal still needs recovery after a replay\n",
		       bdev_name(bdev));
		err = -EINVAL;
	}
	return err;
}

/*
 * Write every dirty in-core inode, the descriptors and the superblock;
 * with a journal, commit them and flush.
 */
static int ext2_flush(struct ext2_fs *fs)
{
	struct ext2_inode_info *ei;
	int err = 0, e;

	if (fs->fs_rdonly)
		return 0;
	if (fs->fs_journal)
		return ext2_journal_sync(fs);
	list_for_each_entry(ei, &fs->fs_inodes, ei_link) {
		e = ext2_write_inode(ei);
		if (e && !err)
			err = e;
	}
	e = ext2_write_super(fs);
	if (e && !err)
		err = e;
	e = sync_blockdev(fs->fs_bdev);
	if (e && !err)
		err = e;
	return err;
}

static int ext2_sync(struct vfs_mount *mnt)
{
	return ext2_flush(mnt->mnt_priv);
}

static int ext2_umount(struct vfs_mount *mnt)
{
	struct ext2_fs *fs = mnt->mnt_priv;
	struct ext2_inode_info *ei;
	int err, e;

	list_for_each_entry(ei, &fs->fs_inodes, ei_link)
		if (&ei->ei_vnode == mnt->mnt_root ? ei->ei_vnode.v_count > 1
						   : ei->ei_vnode.v_count > 0)
			return -EBUSY;
	err = vnode_put(mnt->mnt_root);
	mnt->mnt_root = NULL;
	e = ext2_flush(fs);
	if (e && !err)
		err = e;
	if (!fs->fs_rdonly && fs->fs_journal) {
		int je = ext2_journal_stop(fs);	/* reported; the superblock now goes in place */

		if (je && !e)
			e = je;
		if (je && !err)
			err = je;
	}
	if (!fs->fs_rdonly) {
		/* Clean only if everything else reached the disk: the superblock goes last. */
		u16 state = fs->fs_mount_state;

		if (e)
			pr_err("ext2 (%s): write-back failed at unmount; marking the filesystem "
			       "with errors\n", bdev_name(fs->fs_bdev));
		if (e || fs->fs_error || (le16_to_cpu(fs->fs_sb.s_state) & EXT2_ERROR_FS))
			state |= EXT2_ERROR_FS;
		fs->fs_sb.s_state = cpu_to_le16(state);
		fs->fs_sb_dirty = true;
		e = ext2_flush(fs);
		if (e && !err)
			err = e;
	}
	if (fs->fs_ninodes)
		panic("ext2_umount: %u in-core inodes left", fs->fs_ninodes);
	e = invalidate_bdev(fs->fs_bdev);
	if (e && !err)
		err = e;
	ext2_free_fs(fs);
	mnt->mnt_priv = NULL;
	return err;
}

static int ext2_statfs(struct vfs_mount *mnt, struct vfs_statfs *st)
{
	struct ext2_fs *fs = mnt->mnt_priv;
	const struct ext2_super_block *sb = &fs->fs_sb;
	u64 bfree = ext2_sb_free_blocks(sb);
	u64 r = le32_to_cpu(sb->s_r_blocks_count);

	memset(st, 0, sizeof(*st));
	st->f_type = fs->fs_ext4 ? "ext4" : ext2_has_journal(fs) ? "ext3" : "ext2";
	st->f_bsize = fs->fs_bsize;
	st->f_blocks = fs->fs_blocks_count;
	st->f_bfree = bfree;
	st->f_bavail = bfree > r ? bfree - r : 0;
	st->f_files = fs->fs_inodes_count;
	st->f_ffree = le32_to_cpu(sb->s_free_inodes_count);
	memcpy(st->f_uuid, sb->s_uuid, sizeof(st->f_uuid));
	memcpy(st->f_label, sb->s_volume_name, sizeof(sb->s_volume_name));
	st->f_label[16] = '\0';
	st->f_rdonly = fs->fs_rdonly;
	st->f_errors = fs->fs_error || (le16_to_cpu(sb->s_state) & EXT2_ERROR_FS);
	return 0;
}

const struct vfs_fstype ext2_fstype = {
	.ft_name	= "ext2",
	.ft_probe	= ext2_probe,
	.ft_mount	= ext2_mount,
	.ft_umount	= ext2_umount,
	.ft_sync	= ext2_sync,
	.ft_statfs	= ext2_statfs,
};

/* The superblock of the ext2 on @bdev (brelse it), NULL if none, or ERR_PTR. */
static struct buffer_head *ext2_probe_super(struct block_device *bdev)
{
	int found = ext2_probe(bdev);

	if (found != 1)
		return found < 0 ? ERR_PTR(found) : NULL;
	return bread(bdev, EXT2_SUPER_OFFSET / EXT2_SUPER_SIZE, EXT2_SUPER_SIZE);
}

/**
 * ext2_read_id - UUID and label of the ext2 on @bdev, for blkid and UUID=
 * Returns 1 and fills @uuid and @label (17 bytes, terminated) when @bdev
 * holds an ext2 superblock, 0 if not, or -errno.
 */
int ext2_read_id(struct block_device *bdev, u8 uuid[16], char label[17])
{
	struct buffer_head *bh = ext2_probe_super(bdev);
	struct ext2_super_block *sb;

	if (!bh || IS_ERR(bh))
		return bh ? PTR_ERR(bh) : 0;
	sb = (struct ext2_super_block *)bh->b_data;
	memcpy(uuid, sb->s_uuid, 16);
	memcpy(label, sb->s_volume_name, 16);
	label[16] = '\0';
	brelse(bh);
	return 1;
}

/* ext3: the same driver, picked by the probe for filesystems with a journal. */
static int ext3_probe(struct block_device *bdev)
{
	struct buffer_head *bh = ext2_probe_super(bdev);
	struct ext2_super_block *sb;
	int found;

	if (!bh || IS_ERR(bh))
		return bh ? PTR_ERR(bh) : 0;
	sb = (struct ext2_super_block *)bh->b_data;
	found = le32_to_cpu(sb->s_rev_level) >= EXT2_DYNAMIC_REV &&
		(le32_to_cpu(sb->s_feature_compat) & EXT3_FEATURE_COMPAT_HAS_JOURNAL) &&
		!ext2_sb_is_ext4(sb);
	brelse(bh);
	return found;
}

/* ext4: the same driver, picked for filesystems with a feature ext3 lacks. */
static int ext4_probe(struct block_device *bdev)
{
	struct buffer_head *bh = ext2_probe_super(bdev);
	int found;

	if (!bh || IS_ERR(bh))
		return bh ? PTR_ERR(bh) : 0;
	found = ext2_sb_is_ext4((struct ext2_super_block *)bh->b_data);
	brelse(bh);
	return found;
}

/*
 * Between commands: commit a transaction older than the commit interval,
 * so that an idle shell still makes its last changes durable in time.
 */
static void ext3_idle(struct vfs_mount *mnt)
{
	struct ext2_fs *fs = mnt->mnt_priv;

	if (fs->fs_journal && jbd2_commit_due(fs->fs_journal))
		ext2_journal_sync(fs);	/* an error aborts the journal and is logged */
}

const struct vfs_fstype ext3_fstype = {
	.ft_name	= "ext3",
	.ft_probe	= ext3_probe,
	.ft_mount	= ext2_mount,
	.ft_umount	= ext2_umount,
	.ft_sync	= ext2_sync,
	.ft_idle	= ext3_idle,
	.ft_statfs	= ext2_statfs,
};

const struct vfs_fstype ext4_fstype = {
	.ft_name	= "ext4",
	.ft_probe	= ext4_probe,
	.ft_mount	= ext2_mount,
	.ft_umount	= ext2_umount,
	.ft_sync	= ext2_sync,
	.ft_idle	= ext3_idle,
	.ft_statfs	= ext2_statfs,
};

static int ext2_init(void)
{
	/* narrowest probe first: ext4's features, then ext3's journal, then the magic */
	int err = vfs_register_fstype(&ext4_fstype);

	if (!err)
		err = vfs_register_fstype(&ext3_fstype);
	return err ? err : vfs_register_fstype(&ext2_fstype);
}
fs_initcall(ext2_init);
