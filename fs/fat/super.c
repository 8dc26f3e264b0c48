/*
 * FAT (vfat): probe, mount, unmount, sync and statfs, the FSInfo sector,
 * the volume dirty flag, and the volume's identity for blkid.
 *
 * Layer: a filesystem type under the VFS (fs/vfs.h), on the buffer cache
 * (fs/buffer.h) in blocks of one sector.  Probe takes a device whose
 * sector 0 has the boot signature, a jump instruction and a sane sector
 * and cluster size; mount then checks the whole BPB (fat_bpb.c) and says
 * which rule a bad one breaks.  FAT12, FAT16 and FAT32 follow from the
 * cluster count.
 *
 * Read-write mounts clear the ClnShutBit of FAT[1] (fatgen103 "FAT Volume
 * Dirty Flags", FAT16 and FAT32; FAT12 has none) while mounted; unmount
 * writes everything back, FSInfo's free count and next-free hint (exact,
 * counted from the FAT; on mount they are hints only and never trusted
 * for the free count), and then restores FAT[1] as it was found -- clean
 * unless corruption was seen or the write-back failed, so that the next
 * fsck checks it.
 */
#include "fs/fat/fat.h"
#include "block/bdev.h"
#include "block/blkdev_io.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

s64 fat_now(void)
{
	return (s64)wallclock_unix();
}

/* Report corruption once, where it was found, and remember it (the volume stays dirty). */
void fat_error(struct fat_fs *fs, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pr_err("vfat (%s): error: %s\n", bdev_name(fs->fs_bdev), msg);
	fs->fs_error = true;
}

/* Sector @sector of the volume, refusing numbers outside it. */
struct buffer_head *fat_bread(struct fat_fs *fs, u32 sector)
{
	if (sector >= fs->fs_g.g_total) {
		fat_error(fs, "sector %u beyond the volume (%u sectors)", sector, fs->fs_g.g_total);
		return ERR_PTR(-EUCLEAN);
	}
	return bread(fs->fs_bdev, sector, fs->fs_g.g_bps);
}

/* A buffer for sector @sector, zero-filled and dirty. */
struct buffer_head *fat_getblk_zero(struct fat_fs *fs, u32 sector)
{
	struct buffer_head *bh;

	if (sector >= fs->fs_g.g_total)
		return ERR_PTR(-EUCLEAN);
	bh = getblk(fs->fs_bdev, sector, fs->fs_g.g_bps);
	if (IS_ERR(bh))
		return bh;
	memset(bh->b_data, 0, bh->b_size);
	set_buffer_uptodate(bh);
	mark_buffer_dirty(bh);
	return bh;
}

/*
 * Sector 0 of @bdev as a FAT boot sector: 1 and @g, 0 if it is not one at
 * all, -EINVAL with *why for a FAT boot sector that breaks a rule, or an
 * I/O error.
 */
static int fat_read_boot(struct block_device *bdev, struct fat_geom *g, const char **why)
{
	u64 size = blkdev_size(bdev);
	struct buffer_head *bh;
	int r;

	*why = NULL;
	if (size < FAT_MIN_SECTOR)
		return 0;
	bh = bread(bdev, 0, FAT_MIN_SECTOR);
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	r = 0;
	if (fat_bpb_plausible(bh->b_data))
		r = fat_bpb_parse(bh->b_data, FAT_MIN_SECTOR, size / 512, g, why) ?: 1;
	brelse(bh);
	return r;
}

static int fat_probe(struct block_device *bdev)
{
	struct fat_geom g;
	const char *why;
	int r = fat_read_boot(bdev, &g, &why);

	/* A FAT boot sector with a bad BPB is still ours: mount says what is wrong. */
	return r == -EINVAL ? 1 : r;
}

/* FSInfo's next-free hint, if the sector is one (FAT32). */
static void fat_read_fsinfo(struct fat_fs *fs)
{
	const struct fat_fsinfo *fi;
	struct buffer_head *bh;
	u32 next;

	if (!fs->fs_g.g_fsinfo)
		return;
	bh = fat_bread(fs, fs->fs_g.g_fsinfo);
	if (IS_ERR(bh))
		return;		/* a hint only */
	fi = (const struct fat_fsinfo *)bh->b_data;
	if (le32_to_cpu(fi->fsi_leadsig) == FAT_FSI_LEADSIG &&
	    le32_to_cpu(fi->fsi_strucsig) == FAT_FSI_STRUCSIG) {
		next = le32_to_cpu(fi->fsi_nxt_free);
		if (fat_valid_cluster(&fs->fs_g, next))
			fs->fs_next_free = next;
	} else {
		fs->fs_g.g_fsinfo = 0;	/* not an FSInfo: never write one there */
	}
	brelse(bh);
}

/* FSInfo with the exact free count and the next-free hint. */
static int fat_write_fsinfo(struct fat_fs *fs)
{
	struct fat_fsinfo *fi;
	struct buffer_head *bh;
	int err;

	if (!fs->fs_g.g_fsinfo || fs->fs_rdonly)
		return 0;
	err = fat_count_free(fs);
	if (err)
		return err;
	bh = fat_bread(fs, fs->fs_g.g_fsinfo);
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	fi = (struct fat_fsinfo *)bh->b_data;
	if (le32_to_cpu(fi->fsi_free_count) != fs->fs_free ||
	    le32_to_cpu(fi->fsi_nxt_free) != fs->fs_next_free) {
		fi->fsi_free_count = cpu_to_le32(fs->fs_free);
		fi->fsi_nxt_free = cpu_to_le32(fs->fs_next_free);
		mark_buffer_dirty(bh);
	}
	brelse(bh);
	return 0;
}

static u32 fat_clnshut(const struct fat_fs *fs)
{
	return fs->fs_g.g_type == 32 ? FAT32_CLNSHUT : FAT16_CLNSHUT;
}

static int fat_mount(struct vfs_mount *mnt, struct block_device *bdev)
{
	const char *dev = bdev_name(bdev), *why;
	bool ro = (mnt->mnt_flags & VFS_MNT_RDONLY) || bdev_read_only(bdev);
	struct fat_node *root = NULL;
	struct fat_fs *fs;
	int err;

	fs = kzalloc(sizeof(*fs), GFP_KERNEL);
	if (!fs)
		return -ENOMEM;
	fs->fs_bdev = bdev;
	fs->fs_mnt = mnt;
	fs->fs_rdonly = true;		/* nothing may be written until we know */
	fs->fs_free = FAT_FREE_UNKNOWN;
	fs->fs_next_free = FAT_FIRST_CLUSTER;
	INIT_LIST_HEAD(&fs->fs_nodes);

	err = fat_read_boot(bdev, &fs->fs_g, &why);
	if (err == 0) {
		pr_err("vfat (%s): no FAT boot sector\n", dev);
		err = -EINVAL;
	} else if (err == -EINVAL) {
		pr_err("vfat (%s): bad boot sector: %s\n", dev, why);
	} else if (err < 0) {
		pr_err("vfat (%s): cannot read the boot sector: %s\n", dev, errstr(err));
	}
	if (err < 0)
		goto free_fs;
	fat_read_fsinfo(fs);
	err = fat_iget_root(fs, &root);
	if (err) {
		pr_err("vfat (%s): cannot read the root directory: %s\n", dev, errstr(err));
		goto put_root;
	}
	if (!ro) {
		fs->fs_rdonly = false;
		if (fs->fs_g.g_type != 12) {
			err = fat_get(fs, 1, &fs->fs_fat1);
			if (!err && !(fs->fs_fat1 & fat_clnshut(fs)))
				pr_warn("vfat (%s): mounting a volume not cleanly unmounted; "
					"run fsck.fat\n", dev);
			if (!err)
				err = fat_set(fs, 1, fs->fs_fat1 & ~fat_clnshut(fs));
			if (!err)
				err = sync_blockdev(bdev);
			if (err) {
				pr_err("vfat (%s): cannot mark the volume in use: %s\n", dev,
				       errstr(err));
				fs->fs_rdonly = true;
				goto put_root;
			}
		}
	} else {
		mnt->mnt_flags |= VFS_MNT_RDONLY;
	}
	mnt->mnt_priv = fs;
	mnt->mnt_root = &root->n_vnode;
	DPRINTF(FAT_D_MOUNT, "vfat (%s): FAT%u, %u clusters of %u bytes%s\n", dev,
		fs->fs_g.g_type, fs->fs_g.g_clusters, fs->fs_g.g_csize, ro ? ", read-only" : "");
	return 0;

put_root:
	if (root)
		vnode_put(&root->n_vnode);
free_fs:
	invalidate_bdev(bdev);
	mnt->mnt_priv = NULL;
	kfree(fs);
	return err;
}

/* Write back every in-core node, FSInfo and the buffers, then flush. */
static int fat_flush(struct fat_fs *fs)
{
	struct fat_node *n;
	int err = 0, e;

	if (fs->fs_rdonly)
		return 0;
	list_for_each_entry(n, &fs->fs_nodes, n_link) {
		e = fat_write_node(n);
		if (e && !err)
			err = e;
	}
	e = fat_write_fsinfo(fs);
	if (e && !err)
		err = e;
	e = sync_blockdev(fs->fs_bdev);
	if (e && !err)
		err = e;
	return err;
}

static int fat_sync(struct vfs_mount *mnt)
{
	return fat_flush(mnt->mnt_priv);
}

static int fat_umount(struct vfs_mount *mnt)
{
	struct fat_fs *fs = mnt->mnt_priv;
	struct fat_node *n;
	int err, e;

	list_for_each_entry(n, &fs->fs_nodes, n_link)
		if (&n->n_vnode == mnt->mnt_root ? n->n_vnode.v_count > 1 : n->n_vnode.v_count > 0)
			return -EBUSY;
	err = vnode_put(mnt->mnt_root);
	mnt->mnt_root = NULL;
	e = fat_flush(fs);
	if (e && !err)
		err = e;
	if (!fs->fs_rdonly && fs->fs_g.g_type != 12) {
		/* Clean only if everything else reached the disk: FAT[1] goes last. */
		u32 v = fs->fs_fat1;

		if (e)
			pr_err("vfat (%s): write-back failed at unmount; leaving the volume "
			       "marked dirty\n", bdev_name(fs->fs_bdev));
		if (e || fs->fs_error)
			v &= ~fat_clnshut(fs);
		e = fat_set(fs, 1, v);
		if (!e)
			e = sync_blockdev(fs->fs_bdev);
		if (e && !err)
			err = e;
	}
	if (fs->fs_nnodes)
		panic("fat_umount: %u in-core nodes left", fs->fs_nnodes);
	e = invalidate_bdev(fs->fs_bdev);
	if (e && !err)
		err = e;
	kfree(fs);
	mnt->mnt_priv = NULL;
	return err;
}

static int fat_statfs(struct vfs_mount *mnt, struct vfs_statfs *st)
{
	struct fat_fs *fs = mnt->mnt_priv;
	int err = fat_count_free(fs);

	if (err)
		return err;
	memset(st, 0, sizeof(*st));
	st->f_type = "vfat";
	st->f_bsize = fs->fs_g.g_csize;
	st->f_blocks = fs->fs_g.g_clusters;
	st->f_bfree = fs->fs_free;
	st->f_bavail = fs->fs_free;
	put_le32(st->f_uuid, fs->fs_g.g_volid);
	str_copy(st->f_label, fs->fs_g.g_label, sizeof(st->f_label));
	st->f_rdonly = fs->fs_rdonly;
	st->f_errors = fs->fs_error;
	return 0;
}

const struct vfs_fstype fat_fstype = {
	.ft_name	= "vfat",
	.ft_probe	= fat_probe,
	.ft_mount	= fat_mount,
	.ft_umount	= fat_umount,
	.ft_sync	= fat_sync,
	.ft_statfs	= fat_statfs,
};

/**
 * fat_read_id - volume ID and label of the FAT on @bdev, for blkid and UUID=
 * @uuid:  at least 10 bytes: "XXXX-XXXX", the volume serial number as
 *         blkid prints it
 * @label: at least 12 bytes: the BPB's label without trailing spaces
 *
 * Returns 1 when @bdev holds a valid FAT (then also *type "FAT12" ..), 0 if
 * not, or -errno.  Process context.
 */
int fat_read_id(struct block_device *bdev, char *uuid, char *label, u32 *type)
{
	struct fat_geom g;
	const char *why;
	int r = fat_read_boot(bdev, &g, &why);

	if (r != 1)
		return r == -EINVAL ? 0 : r;
	snprintf(uuid, 10, "%04X-%04X", g.g_volid >> 16, g.g_volid & 0xFFFF);
	str_copy(label, g.g_label, 12);
	*type = g.g_type;
	return 1;
}

static int fat_init(void)
{
	return vfs_register_fstype(&fat_fstype);
}
fs_initcall(fat_init);
