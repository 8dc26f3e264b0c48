/*
 * Mounting block devices: every disk or partition holding a recognisable
 * filesystem is mounted at /NAME at boot (late_initcall, after the disk
 * drivers added their disks), read-write only if the device is writable
 * (the writable= policy of the registry), otherwise read-only; the
 * shell's mount and umount (fs/mount_cmds.c) do the rest by hand through
 * the calls in fs/automount.h, and shutdown unmounts everything.  ext2's
 * identity (type, UUID, label) also joins blkid through the registry's
 * filesystem-probe hook.
 *
 * A mounted device is opened and claimed (FMODE_EXCL) for as long as it
 * is mounted; this file keeps each mount's device and open mode so that
 * umount closes exactly what mount opened.
 */
#include "fs/automount.h"
#include "fs/vfs.h"
#include "block/bdev.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/power.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "kernel/mm/slab.h"
#include "lib/list.h"
#include "lib/string.h"

/* A device this file opened for a mount.  [l] fs_claims_lock. */
struct fs_claim {
	struct list_head	fc_link;	/* [l] on fs_claims */
	struct block_device	*fc_bdev;	/* [I] referenced, open */
	fmode_t			fc_mode;	/* [I] as passed to bdev_open */
};

static LIST_HEAD(fs_claims);		/* [l] */
static DEFINE_SPINLOCK(fs_claims_lock);	/* mount commands may run on any CPU */
static char fs_holder;			/* the claim holder for mounted devices */

int fs_mount_bdev(struct block_device *bdev, const char *dir, const char *fstype,
			 unsigned flags)
{
	fmode_t mode = FMODE_READ | FMODE_EXCL;
	struct fs_claim *c;
	int err;

	if (!(flags & VFS_MNT_RDONLY) && !bdev_read_only(bdev))
		mode |= FMODE_WRITE;
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c) {
		err = -ENOMEM;
		goto put_bdev;
	}
	err = bdev_open(bdev, mode, &fs_holder);
	if (err)
		goto free_claim;
	err = vfs_mount(bdev, dir, fstype, flags);
	if (err)
		goto close_bdev;
	c->fc_bdev = bdev;
	c->fc_mode = mode;
	spin_lock(&fs_claims_lock);
	list_add_tail(&c->fc_link, &fs_claims);
	spin_unlock(&fs_claims_lock);
	return 0;
close_bdev:
	bdev_close(bdev, mode, &fs_holder);
free_claim:
	kfree(c);
put_bdev:
	bdev_put(bdev);
	return err;
}

static int fs_automount(void)
{
	struct block_device *bdev = NULL;
	int err;

	while ((bdev = bdev_next(bdev)) != NULL) {
		bdev_get(bdev);		/* bdev_next drops the one it hands out next time */
		err = fs_mount_bdev(bdev, bdev->bd_name, NULL, 0);
		if (!err)
			pr_info("fs: mounted %s at /%s%s\n", bdev->bd_name, bdev->bd_name,
				bdev_read_only(bdev) ? " (read-only)" : "");
		else if (err != -ENODEV && err != -EBUSY)
			pr_warn("fs: %s: not mounted: %s\n", bdev->bd_name, errstr(err));
	}
	return 0;
}
late_initcall(fs_automount);

/* blkid's view of an ext2: type, UUID in the usual text form, label. */
static int ext2_blkid_probe(struct block_device *bdev, struct bdev_fs_info *info)
{
	char label[17];
	u8 u[16];
	int r;

	r = ext2_read_id(bdev, u, label);
	if (r != 1)
		return r;
	str_copy(info->fi_type, "ext2", sizeof(info->fi_type));
	snprintf(info->fi_uuid, sizeof(info->fi_uuid),
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11],
		 u[12], u[13], u[14], u[15]);
	str_copy(info->fi_label, label, sizeof(info->fi_label));
	return 1;
}

static const struct bdev_fs_probe ext2_blkid = {
	.fp_name	= "ext2",
	.fp_probe	= ext2_blkid_probe,
};

/* blkid's view of a FAT volume, as util-linux prints it: TYPE="vfat", UUID="XXXX-XXXX". */
static int fat_blkid_probe(struct block_device *bdev, struct bdev_fs_info *info)
{
	char uuid[10], label[12];
	u32 type;
	int r;

	r = fat_read_id(bdev, uuid, label, &type);
	if (r != 1)
		return r;
	str_copy(info->fi_type, "vfat", sizeof(info->fi_type));
	str_copy(info->fi_uuid, uuid, sizeof(info->fi_uuid));
	str_copy(info->fi_label, label, sizeof(info->fi_label));
	return 1;
}

static const struct bdev_fs_probe fat_blkid = {
	.fp_name	= "vfat",
	.fp_probe	= fat_blkid_probe,
};

static int fs_blkid_init(void)
{
	int err = bdev_register_fs_probe(&ext2_blkid);

	return err ? err : bdev_register_fs_probe(&fat_blkid);
}
fs_initcall(fs_blkid_init);

struct block_device *fs_lookup_uuid(const char *uuid)
{
	struct block_device *bdev = NULL;
	struct bdev_fs_info info;

	while ((bdev = bdev_next(bdev)) != NULL) {
		if (bdev_probe_fs(bdev, &info) == 1 && !str_casecmp(info.fi_uuid, uuid))
			return bdev;	/* the iteration's reference becomes the caller's */
	}
	return NULL;
}

static int mount_uses(struct vfs_mount *m, void *bdev)
{
	return m->mnt_bdev == bdev;
}

int fs_umount(struct vfs_mount *m)
{
	struct block_device *bdev = m->mnt_bdev;
	struct fs_claim *c, *found = NULL;
	int err;

	err = vfs_umount(m);
	if (vfs_for_each_mount(mount_uses, bdev))
		return err;		/* still mounted */
	spin_lock(&fs_claims_lock);
	list_for_each_entry(c, &fs_claims, fc_link) {
		if (c->fc_bdev == bdev) {
			list_del(&c->fc_link);
			found = c;
			break;
		}
	}
	spin_unlock(&fs_claims_lock);
	if (found) {
		bdev_close(found->fc_bdev, found->fc_mode, &fs_holder);
		bdev_put(found->fc_bdev);
		kfree(found);
	}
	return err;
}

static int last_mount(struct vfs_mount *m, void *last)
{
	*(struct vfs_mount **)last = m;
	return 0;
}

/*
 * At power-off, reboot and the end of a run=: unmount everything, last
 * mounted first so that each mount goes before the one it sits on.  That
 * writes back, flushes and marks each filesystem clean, so the next mount
 * (here, or Linux's e2fsck) finds it consistent.  A filesystem whose
 * write-back fails is unmounted all the same (marked with errors) and the
 * others still go; one that cannot be unmounted (files open) stops the
 * walk, and everything is at least synced.  Runs before the block
 * layer's hook, which flushes the disks' write caches.
 */
static void fs_shutdown(void)
{
	char name[BDEV_NAME_LEN];
	struct block_device *bdev;
	struct vfs_mount *m;
	int err;

	for (;;) {
		m = NULL;
		vfs_for_each_mount(last_mount, &m);
		if (!m)
			return;
		bdev = m->mnt_bdev;
		str_copy(name, bdev_name(bdev), sizeof(name));
		err = fs_umount(m);
		if (!err)
			continue;
		if (vfs_for_each_mount(mount_uses, bdev)) {
			pr_err("fs: %s: cannot unmount at shutdown: %s; syncing instead\n",
			       name, errstr(err));
			vfs_sync();
			return;
		}
		pr_err("fs: %s: unmounted at shutdown, with errors: %s\n", name, errstr(err));
	}
}

static struct shutdown_hook fs_shutdown_hook = {
	.sh_name = "filesystems",
	.sh_fn = fs_shutdown,
};

static int fs_shutdown_init(void)
{
	register_shutdown_hook(&fs_shutdown_hook);
	return 0;
}
fs_initcall(fs_shutdown_init);
