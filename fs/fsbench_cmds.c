/*
 * fsbench: filesystem throughput through the VFS, printed as BENCH lines
 * in the format of the block layer's bench (block/diag/bench.h), so they sit
 * beside the raw device's sequential figures:
 *
 *	fsbench DIR [MIB]
 *	BENCH fswrite bs=1M MiB=64 secs=1.234 MiBps=51.864
 *	BENCH fsread bs=1M MiB=64 secs=0.800 MiBps=80.000 cache=cold verify=PASS
 *	BENCH fscreate files=1000 secs=0.500 filesps=2000.000
 *
 * fswrite writes a new file of MIB MiB (default 64) in 1 MiB calls and
 * includes the final sync.  Then the filesystem holding DIR is unmounted
 * and mounted again, so that fsread reads the file back from the disk as
 * after a reboot: no block of it, no indirect block, not even its inode
 * is cached (cache=cold).  Where the filesystem cannot be unmounted (files
 * open, or another filesystem mounted inside it) the read goes on without
 * it and says cache=warm.  fscreate makes 1,000 empty files in a new
 * directory and syncs.  Everything is removed afterwards.
 *
 * Then the file is read a second time, untimed, and compared with what
 * was written: every 4 KiB of it begin with a stamp of their offset, the
 * rest is the fill pattern (fs/fillgen.h, seed 1), so a misplaced, stale
 * or lost block is caught; a difference fails the command with -EIO and
 * no fsread line (which says verify=PASS when it is printed).  The
 * comparison is kept out of the timed pass, not just out of its clock: a
 * guest busy between its reads makes the host serve its I/O later, and
 * the raw bench it is set beside does nothing between its I/Os either.
 * The stamps of a write are only kept out of its clock: nothing is in
 * flight while a chunk is stamped.
 */
#include "fs/vfs.h"
#include "fs/fillgen.h"
#include "fs/automount.h"
#include "block/bdev.h"
#include "block/diag/bench.h"
#include "kernel/errno.h"
#include "kernel/console.h"
#include "kernel/printk.h"
#include "kernel/shell.h"
#include "kernel/time.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

#define FSBENCH_CHUNK	(1024 * 1024)	/* bytes per read/write call */
#define FSBENCH_FILES	1000		/* files made by fscreate */
#define FSBENCH_STAMP_STEP 4096	/* bytes between offset stamps */
#define FSBENCH_STAMP	0x6673626e63680000ULL	/* "fsbnch", XORed with the offset */

/* What fsbench_rw works with: two 1 MiB buffers and a path. */
struct fsbench {
	u8		*fb_wbuf;	/* the pattern, stamped for the chunk at hand */
	u8		*fb_rbuf;	/* what a read brought back */
	char		*fb_mpath;	/* the mount point, for the remount */
	u64		fb_mib;
	u64		fb_read_ns;	/* the timed read pass */
};

static void fsbench_line(const char *name, u64 count, const char *unit, u64 ns, bool mib,
			 const char *cache)
{
	char secs[32], rate[32];

	bench_fmt_fixed(ns, NSEC_PER_SEC, 3, secs, sizeof(secs));
	bench_fmt_fixed(count * NSEC_PER_SEC, ns ? ns : 1, 3, rate, sizeof(rate));
	if (mib)
		kprintf("BENCH %s bs=1M MiB=%llu secs=%s MiBps=%s%s%s%s\n", name,
		       (unsigned long long)count, secs, rate, cache ? " cache=" : "",
		       cache ? cache : "", cache ? " verify=PASS" : "");
	else
		kprintf("BENCH %s %s=%llu secs=%s %sps=%s\n", name, unit,
		       (unsigned long long)count, secs, unit, rate);
}

/* Stamp every FSBENCH_STAMP_STEP bytes of the chunk at file offset @pos. */
static void fsbench_stamp(u8 *buf, u64 pos)
{
	u32 off;

	for (off = 0; off < FSBENCH_CHUNK; off += FSBENCH_STAMP_STEP)
		*(u64 *)(buf + off) = FSBENCH_STAMP ^ (pos + off);
}

/*
 * Unmount and mount again the filesystem holding @dir, so that nothing of
 * it stays cached.  Returns 1 when done, 0 when it is busy (still mounted,
 * nothing changed), or -errno (reported; if the mount failed, the
 * filesystem is left unmounted).
 */
static int fsbench_remount(const char *dir, char *mpath)
{
	struct block_device *bdev;
	struct vfs_mount *m;
	const char *type;
	unsigned flags;
	int err;

	err = vfs_path_mount(dir, &m);
	if (err)
		return err;
	if (!m)
		return 0;		/* "/" itself: nothing to unmount */
	err = vfs_mount_path(m, mpath, VFS_PATH_MAX);
	if (err)
		return err;
	bdev = bdev_get(m->mnt_bdev);
	type = m->mnt_type->ft_name;
	flags = m->mnt_flags;
	err = fs_umount(m);
	if (err) {
		bdev_put(bdev);
		if (err == -EBUSY)
			return 0;
		kprintf("fsbench: %s: unmount failed (%s)\n", mpath, errstr(err));
		return err;
	}
	err = fs_mount_bdev(bdev, mpath, type, flags);	/* takes the reference */
	if (err) {
		kprintf("fsbench: %s: not mounted again (%s)\n", mpath, errstr(err));
		return err;
	}
	return 1;
}

static int fsbench_write(struct fsbench *b, const char *path)
{
	struct vfs_file *f;
	u64 t0, t1, i;
	long n;
	int err;

	fillgen(1, 0, b->fb_wbuf, FSBENCH_CHUNK);
	t0 = ktime_ns();
	err = vfs_open(path, VFS_O_WRONLY | VFS_O_CREAT | VFS_O_TRUNC, 0644, &f);
	if (err)
		return err;
	for (i = 0; i < b->fb_mib && !err; i++) {
		t1 = ktime_ns();
		fsbench_stamp(b->fb_wbuf, i * FSBENCH_CHUNK);
		t0 += ktime_ns() - t1;	/* the stamps are the test's work, not the write's */
		n = vfs_write(f, b->fb_wbuf, FSBENCH_CHUNK);
		err = n < 0 ? (int)n : n != FSBENCH_CHUNK ? -ENOSPC : 0;
	}
	vfs_close(f);
	if (!err)
		err = vfs_sync();
	if (!err)
		fsbench_line("fswrite", b->fb_mib, NULL, ktime_ns() - t0, true, NULL);
	return err;
}

/*
 * Read the file back; @check: compare each chunk with what was written,
 * else time the pass (fb_read_ns).
 */
static int fsbench_read(struct fsbench *b, const char *path, bool check)
{
	struct vfs_file *f;
	u64 t0 = ktime_ns(), i;
	long n;
	int err;

	err = vfs_open(path, VFS_O_RDONLY, 0, &f);
	if (err)
		return err;
	for (i = 0; i < b->fb_mib && !err; i++) {
		n = vfs_read(f, b->fb_rbuf, FSBENCH_CHUNK);
		err = n < 0 ? (int)n : n != FSBENCH_CHUNK ? -EIO : 0;
		if (err || !check)
			continue;
		fsbench_stamp(b->fb_wbuf, i * FSBENCH_CHUNK);
		if (memcmp(b->fb_rbuf, b->fb_wbuf, FSBENCH_CHUNK)) {
			kprintf("fsbench: %s: MiB %llu read back is not what was written\n", path,
				(unsigned long long)i);
			err = -EIO;
		}
	}
	vfs_close(f);
	b->fb_read_ns = ktime_ns() - t0;
	return err;
}

/* fswrite, the remount, fsread. */
static int fsbench_rw(struct fsbench *b, const char *dir, const char *path)
{
	int err, cold;
	u64 ns;

	err = fsbench_write(b, path);
	if (err)
		return err;
	cold = fsbench_remount(dir, b->fb_mpath);
	if (cold < 0)
		return cold;
	err = fsbench_read(b, path, false);
	ns = b->fb_read_ns;
	if (!err)
		err = fsbench_read(b, path, true);
	if (!err)
		fsbench_line("fsread", b->fb_mib, NULL, ns, true, cold ? "cold" : "warm");
	return err;
}

static int fsbench_create(const char *dir, char *path, size_t size)
{
	struct vfs_file *f;
	u64 t0 = ktime_ns();
	int i, err;

	err = vfs_mkdir(dir, 0755);
	for (i = 0; i < FSBENCH_FILES && !err; i++) {
		snprintf(path, size, "%s/f%04d", dir, i);
		err = vfs_open(path, VFS_O_WRONLY | VFS_O_CREAT | VFS_O_EXCL, 0644, &f);
		if (!err)
			err = vfs_close(f);
	}
	if (!err)
		err = vfs_sync();
	if (!err)
		fsbench_line("fscreate", FSBENCH_FILES, "files", ktime_ns() - t0, false, NULL);
	for (i = 0; i < FSBENCH_FILES; i++) {
		snprintf(path, size, "%s/f%04d", dir, i);
		vfs_unlink(path);
	}
	vfs_rmdir(dir);
	return err;
}

static int cmd_fsbench(int argc, char **argv)
{
	struct fsbench b = { .fb_mib = 64 };
	char *path, *dir;
	int err, e;

	if (argc < 2 || argc > 3 || (argc == 3 && str_to_u64(argv[2], &b.fb_mib, false)))
		return -EINVAL;
	b.fb_wbuf = kmalloc(FSBENCH_CHUNK, GFP_KERNEL);
	b.fb_rbuf = kmalloc(FSBENCH_CHUNK, GFP_KERNEL);
	path = kmalloc(3 * VFS_PATH_MAX, GFP_KERNEL);
	err = -ENOMEM;
	if (!b.fb_wbuf || !b.fb_rbuf || !path)
		goto out;
	dir = path + VFS_PATH_MAX;
	b.fb_mpath = dir + VFS_PATH_MAX;
	snprintf(path, VFS_PATH_MAX, "%s/fsbench.dat", argv[1]);
	err = fsbench_rw(&b, argv[1], path);
	vfs_unlink(path);
	snprintf(dir, VFS_PATH_MAX, "%s/fsbench.d", argv[1]);
	if (!err)
		err = fsbench_create(dir, path, VFS_PATH_MAX);
	e = vfs_sync();
	if (!err)
		err = e;
out:
	kfree(path);
	kfree(b.fb_rbuf);
	kfree(b.fb_wbuf);
	return err;
}
SHELL_COMMAND("fsbench", cmd_fsbench, "fsbench DIR [MIB]",
	      "file write and cold-cache read throughput, 1,000-file creation, as BENCH lines");
