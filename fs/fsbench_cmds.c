/*
 * fsbench: filesystem throughput through the VFS, printed as BENCH lines
 * in the format of the block layer's bench (block/diag/bench.h), so they sit
 * beside the raw device's sequential figures:
 *
 *	fsbench DIR [MIB]
 *	BENCH fswrite bs=1M MiB=64 secs=1.234 MiBps=51.864
 *	BENCH fsread bs=1M MiB=64 secs=0.800 MiBps=80.000
 *	BENCH fscreate files=1000 secs=0.500 filesps=2000.000
 *
 * fswrite writes a new file of MIB MiB (default 64) in 1 MiB calls and
 * includes the final sync; fsread reads it back (whatever the cache still
 * holds counts as read); fscreate makes 1,000 empty files in a new
 * directory and syncs.  Everything is removed afterwards.
 */
#include "fs/vfs.h"
#include "fs/fillgen.h"
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

static void fsbench_line(const char *name, u64 count, const char *unit, u64 ns, bool mib)
{
	char secs[32], rate[32];

	bench_fmt_fixed(ns, NSEC_PER_SEC, 3, secs, sizeof(secs));
	bench_fmt_fixed(count * NSEC_PER_SEC, ns ? ns : 1, 3, rate, sizeof(rate));
	if (mib)
		kprintf("BENCH %s bs=1M MiB=%llu secs=%s MiBps=%s\n", name,
		       (unsigned long long)count, secs, rate);
	else
		kprintf("BENCH %s %s=%llu secs=%s %sps=%s\n", name, unit,
		       (unsigned long long)count, secs, unit, rate);
}

static int fsbench_rw(const char *path, u64 mib, char *buf)
{
	struct vfs_file *f;
	u64 t0, i;
	long n;
	int err;

	fillgen(1, 0, buf, FSBENCH_CHUNK);
	t0 = ktime_ns();
	err = vfs_open(path, VFS_O_WRONLY | VFS_O_CREAT | VFS_O_TRUNC, 0644, &f);
	if (err)
		return err;
	for (i = 0; i < mib && !err; i++) {
		n = vfs_write(f, buf, FSBENCH_CHUNK);
		err = n < 0 ? (int)n : n != FSBENCH_CHUNK ? -ENOSPC : 0;
	}
	vfs_close(f);
	if (!err)
		err = vfs_sync();
	if (err)
		return err;
	fsbench_line("fswrite", mib, NULL, ktime_ns() - t0, true);

	t0 = ktime_ns();
	err = vfs_open(path, VFS_O_RDONLY, 0, &f);
	if (err)
		return err;
	for (i = 0; i < mib && !err; i++) {
		n = vfs_read(f, buf, FSBENCH_CHUNK);
		err = n < 0 ? (int)n : n != FSBENCH_CHUNK ? -EIO : 0;
	}
	vfs_close(f);
	if (!err)
		fsbench_line("fsread", mib, NULL, ktime_ns() - t0, true);
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
		fsbench_line("fscreate", FSBENCH_FILES, "files", ktime_ns() - t0, false);
	for (i = 0; i < FSBENCH_FILES; i++) {
		snprintf(path, size, "%s/f%04d", dir, i);
		vfs_unlink(path);
	}
	vfs_rmdir(dir);
	return err;
}

static int cmd_fsbench(int argc, char **argv)
{
	char *buf, *path, *dir;
	u64 mib = 64;
	int err, e;

	if (argc < 2 || argc > 3 || (argc == 3 && str_to_u64(argv[2], &mib, false)))
		return -EINVAL;
	buf = kmalloc(FSBENCH_CHUNK + 2 * VFS_PATH_MAX, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	path = buf + FSBENCH_CHUNK;
	dir = path + VFS_PATH_MAX;
	snprintf(path, VFS_PATH_MAX, "%s/fsbench.dat", argv[1]);
	err = fsbench_rw(path, mib, buf);
	vfs_unlink(path);
	snprintf(dir, VFS_PATH_MAX, "%s/fsbench.d", argv[1]);
	if (!err)
		err = fsbench_create(dir, path, VFS_PATH_MAX);
	e = vfs_sync();
	kfree(buf);
	return err ? err : e;
}
SHELL_COMMAND("fsbench", cmd_fsbench, "fsbench DIR [MIB]",
	      "file write/read throughput and 1,000-file creation, as BENCH lines");
