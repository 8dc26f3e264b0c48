/*
 * Mounting block devices: every disk or partition holding a recognisable
 * filesystem is mounted at /NAME at boot (late_initcall, after the disk
 * drivers registered their disks), read-write only if its disk was named
 * writable; the shell's `mount DEV|UUID=... DIR [ro]`, `mount` (list) and
 * `umount DIR` do the rest by hand.
 *
 * Devices come from the gendisk registry through fs/blkdev_iface.h.  A
 * mounted device stays open until its unmount; this file keeps the
 * (mount name, device) pairs so that umount can close the right one.
 */
#include "fs/vfs.h"
#include "fs/buffer.h"
#include "fs/blkdev_iface.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/printk.h"
#include "kernel/shell.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

/* Mount @bdev at /@name; on failure the device is closed. */
static int automount_dev(struct block_device *bdev, const char *dir, unsigned flags)
{
	int err = vfs_mount(bdev, dir, NULL, flags);

	if (err)
		blkdev_close(bdev);
	return err;
}

static int automount_one(const char *name, void *arg)
{
	struct block_device *bdev = blkdev_open_by_name(name);
	int err;

	if (IS_ERR(bdev))
		return 0;	/* gone since it was listed: not an error for boot */
	err = automount_dev(bdev, name, 0);
	if (!err)
		pr_info("fs: mounted %s at /%s%s\n", name, name,
			bdev_read_only(bdev) ? " (read-only)" : "");
	else if (err != -ENODEV)
		pr_warn("fs: %s: not mounted: %s\n", name, errstr(err));
	return 0;
}

static int fs_automount(void)
{
	return blkdev_for_each_name(automount_one, NULL);
}
late_initcall(fs_automount);

struct uuid_search {
	u8	us_uuid[16];
	char	us_name[VFS_MNTNAME_MAX];
	bool	us_found;
};

static int uuid_match(const char *name, void *arg)
{
	struct uuid_search *s = arg;
	struct block_device *bdev = blkdev_open_by_name(name);
	u8 uuid[16];
	char label[17];
	int r;

	if (IS_ERR(bdev))
		return 0;
	r = ext2_read_id(bdev, uuid, label);
	blkdev_close(bdev);
	if (r == 1 && !memcmp(uuid, s->us_uuid, 16)) {
		str_copy(s->us_name, name, sizeof(s->us_name));
		s->us_found = true;
		return 1;
	}
	return 0;
}

/* "01234567-89ab-cdef-0123-456789abcdef" -> 16 bytes; 0 or -EINVAL. */
static int parse_uuid(const char *s, u8 out[16])
{
	int i = 0, hi = -1;

	for (; *s; s++) {
		int v;

		if (*s == '-')
			continue;
		if (*s >= '0' && *s <= '9')
			v = *s - '0';
		else if ((*s | 0x20) >= 'a' && (*s | 0x20) <= 'f')
			v = (*s | 0x20) - 'a' + 10;
		else
			return -EINVAL;
		if (hi < 0) {
			hi = v;
			continue;
		}
		if (i == 16)
			return -EINVAL;
		out[i++] = (u8)(hi << 4 | v);
		hi = -1;
	}
	return i == 16 && hi < 0 ? 0 : -EINVAL;
}

static int mount_list_one(struct vfs_mount *m, void *arg)
{
	printk("%s on /%s type %s (%s)\n", bdev_name(m->mnt_bdev), m->mnt_name,
	       m->mnt_type->ft_name, m->mnt_flags & VFS_MNT_RDONLY ? "ro" : "rw");
	return 0;
}

static int cmd_mount(int argc, char **argv)
{
	struct uuid_search s;
	struct block_device *bdev;
	const char *dev;
	unsigned flags = 0;

	if (argc == 1)
		return vfs_for_each_mount(mount_list_one, NULL);
	if (argc == 4 && !strcmp(argv[3], "ro"))
		flags = VFS_MNT_RDONLY;
	else if (argc != 3)
		return -EINVAL;
	dev = argv[1];
	if (str_starts(dev, "UUID=")) {
		memset(&s, 0, sizeof(s));
		if (parse_uuid(dev + 5, s.us_uuid))
			return -EINVAL;
		blkdev_for_each_name(uuid_match, &s);
		if (!s.us_found)
			return -ENODEV;
		dev = s.us_name;
	}
	bdev = blkdev_open_by_name(dev);
	if (IS_ERR(bdev))
		return PTR_ERR(bdev);
	return automount_dev(bdev, argv[2], flags);
}
SHELL_COMMAND("mount", cmd_mount, "mount [DEV|UUID=... DIR [ro]]",
	      "mount a filesystem at /DIR, or list mounts");

struct umount_req {
	const char		*ur_name;
	struct block_device	*ur_bdev;
};

static int umount_find(struct vfs_mount *m, void *arg)
{
	struct umount_req *r = arg;
	const char *n = r->ur_name;

	while (*n == '/')
		n++;
	if (strcmp(m->mnt_name, n))
		return 0;
	r->ur_bdev = m->mnt_bdev;
	return 1;
}

static int cmd_umount(int argc, char **argv)
{
	struct umount_req r = { .ur_name = argc == 2 ? argv[1] : "" };
	int err;

	if (argc != 2)
		return -EINVAL;
	if (!vfs_for_each_mount(umount_find, &r))
		return -ENOENT;
	err = vfs_umount(argv[1]);
	if (err != -EBUSY)
		blkdev_close(r.ur_bdev);
	return err;
}
SHELL_COMMAND("umount", cmd_umount, "umount DIR", "write back and unmount a filesystem");
