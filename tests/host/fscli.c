/*
 * fscli: the host build of the VFS and ext2 driven by a script, for tests
 * that compare what our code reads and writes with e2fsprogs and sha256sum.
 *
 *	fscli [-r] [-t TYPE] [-o OFFSET] [-s SIZE] [-c NBUF] IMAGE < SCRIPT
 *
 * mounts the ext2 (or -t vfat: the FAT) in IMAGE (at byte OFFSET, SIZE bytes;
 * -r read-only) at
 * /d and runs SCRIPT, one command per line, words split on blanks:
 *
 *	ls P | stat P | lstat P | sha P [OFF LEN] | cat P | readlink P | df
 *	get P HOSTFILE | put HOSTFILE P
 *	write P TEXT | append P TEXT | pwrite P OFF TEXT | truncate P SIZE
 *	fill P BYTES SEED [OFF]      (create if needed, write fillgen bytes at OFF)
 *	mkdir P | rmdir P | rm P | mv A B | ln A B | symlink TARGET P
 *	sync | fsync P | remount [ro] | mkdirs P N (N subdirectories or files) | touchn P N
 *	mount HOSTIMAGE DIR [ro] | umount DIR | mounts (each mount's path)
 *	open P | close       (hold one file open, or let it go)
 *	times P (atime, mtime, ctime) | clock SECONDS [NS] (what the clock says now)
 *	ntimes P (the same as SECONDS.NANOSECONDS)
 *	snapshot HOSTFILE    (copy IMAGE as the disk holds it now: a power cut,
 *			      nothing the cache holds dirty; for journal tests)
 *
 * Every command ends with a line "= RC" (0 or -errno).  At the end fscli
 * unmounts (the other mounts first), closes the devices and checks that no buffer reference and no
 * allocation is left; the exit status is 0 only if all of that held.
 * Paths are used as given ("/d/x").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fs/vfs.h"
#include "fs/fillgen.h"
#include "lib/sha256.h"
#include "kernel/errno.h"
#include "tests/unit/fakes/fakes.h"
#include "tests/unit/fakes/buffer_file.h"
#include "tests/unit/fakes/wallclock_fake.h"
#include "tests/unit/host/shim.h"

#define CHUNK		(256 * 1024)
#define MAX_MOUNTS	8	/* images mounted besides the one at /d */

static struct block_device *bdev;
static struct block_device *others[MAX_MOUNTS];	/* devices of `mount`, in mount order */
static struct vfs_file *held;			/* the file of `open` */
static bool ro;
static const char *fstype = "ext2";
static u8 *iobuf;
static const char *image_path;	/* IMAGE, for snapshot */

static int do_ls(const char *path)
{
	struct vfs_dirent de;
	struct vfs_stat st;
	struct vfs_file *f;
	char p[VFS_PATH_MAX + VFS_NAME_MAX + 2];
	int err;

	err = vfs_open(path, VFS_O_RDONLY | VFS_O_DIRECTORY, 0, &f);
	if (err)
		return err;
	while ((err = vfs_readdir(f, &de)) == 1) {
		if (!strcmp(de.d_name, ".") || !strcmp(de.d_name, "..")) {
			printf("%llu %s\n", (unsigned long long)de.d_ino, de.d_name);
			continue;
		}
		snprintf(p, sizeof(p), "%s/%s", path, de.d_name);
		err = vfs_lstat(p, &st);
		if (err)
			break;
		printf("%llu %o %u %u %u %llu %s\n", (unsigned long long)de.d_ino, st.st_mode,
		       st.st_nlink, st.st_uid, st.st_gid, (unsigned long long)st.st_size, de.d_name);
	}
	vfs_close(f);
	return err < 0 ? err : 0;
}

static int do_stat(const char *path, bool follow)
{
	struct vfs_stat st;
	int err = follow ? vfs_stat(path, &st) : vfs_lstat(path, &st);

	if (err)
		return err;
	printf("ino=%llu mode=%o nlink=%u uid=%u gid=%u size=%llu blocks=%llu mtime=%lld\n",
	       (unsigned long long)st.st_ino, st.st_mode, st.st_nlink, st.st_uid, st.st_gid,
	       (unsigned long long)st.st_size, (unsigned long long)st.st_blocks,
	       (long long)st.st_mtime);
	return 0;
}

/*
 * Read @path from @off, @len bytes or to the end if sooner, feeding @out
 * (may be NULL) and a SHA-256.
 */
static int read_range(const char *path, u64 off, u64 len, FILE *out, char hex[65])
{
	struct sha256_ctx c;
	struct vfs_file *f;
	u8 d[SHA256_DIGEST_SIZE];
	long n = 0;
	int err;

	err = vfs_open(path, VFS_O_RDONLY, 0, &f);
	if (err)
		return err;
	sha256_init(&c);
	while (len && (n = vfs_pread(f, iobuf, len < CHUNK ? (size_t)len : CHUNK, off)) > 0) {
		sha256_update(&c, iobuf, (size_t)n);
		if (out)
			fwrite(iobuf, 1, (size_t)n, out);
		off += (u64)n;
		len -= (u64)n;
	}
	vfs_close(f);
	if (n < 0)
		return (int)n;
	sha256_final(&c, d);
	sha256_hex(d, hex);
	return 0;
}

static int write_at(const char *path, unsigned flags, u64 off, const void *data, size_t len)
{
	struct vfs_file *f;
	long n;
	int err;

	err = vfs_open(path, VFS_O_WRONLY | VFS_O_CREAT | flags, 0644, &f);
	if (err)
		return err;
	if (flags & VFS_O_APPEND)
		n = vfs_write(f, data, len);
	else
		n = vfs_pwrite(f, data, len, off);
	err = vfs_close(f);
	if (n < 0)
		return (int)n;
	if ((size_t)n != len)
		return -ENOSPC;
	return err;
}

static int do_fill(const char *path, u64 bytes, u64 seed, u64 off)
{
	struct vfs_file *f;
	u64 done = 0;
	long n = 0;
	int err;

	err = vfs_open(path, VFS_O_WRONLY | VFS_O_CREAT, 0644, &f);
	if (err)
		return err;
	while (done < bytes) {
		size_t len = (size_t)(bytes - done < CHUNK ? bytes - done : CHUNK);

		fillgen(seed, off + done, iobuf, len);
		n = vfs_pwrite(f, iobuf, len, off + done);
		if (n <= 0)
			break;
		done += (u64)n;
	}
	err = vfs_close(f);
	if (n < 0)
		return (int)n;
	if (done != bytes)
		return -ENOSPC;
	return err;
}

static int do_put(const char *host, const char *path)
{
	FILE *in = fopen(host, "rb");
	struct vfs_file *f;
	size_t n;
	long w = 0;
	int err;

	if (!in)
		return -ENOENT;
	err = vfs_open(path, VFS_O_WRONLY | VFS_O_CREAT | VFS_O_TRUNC, 0644, &f);
	if (err)
		goto close_in;
	while ((n = fread(iobuf, 1, CHUNK, in)) > 0) {
		w = vfs_write(f, iobuf, n);
		if (w < 0 || (size_t)w != n)
			break;
	}
	err = vfs_close(f);
	if (w < 0)
		err = (int)w;
close_in:
	fclose(in);
	return err;
}

static int do_df(void)
{
	struct vfs_statfs st;
	int err = vfs_statfs("/d", &st);

	if (err)
		return err;
	printf("bsize=%u blocks=%llu bfree=%llu files=%llu ffree=%llu label=%s%s%s type=%s\n",
	       st.f_bsize, (unsigned long long)st.f_blocks, (unsigned long long)st.f_bfree,
	       (unsigned long long)st.f_files, (unsigned long long)st.f_ffree, st.f_label,
	       st.f_rdonly ? " ro" : "", st.f_errors ? " errors" : "", st.f_type);
	return 0;
}

/* N entries NAME0..NAME(N-1) under @path: directories or empty files. */
static int do_many(const char *path, long n, bool dirs)
{
	char p[VFS_PATH_MAX];
	long i;
	int err;

	for (i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "%s/entry-%06ld", path, i);
		err = dirs ? vfs_mkdir(p, 0755) : write_at(p, 0, 0, "", 0);
		if (err)
			return err;
	}
	return 0;
}

/* mount HOSTIMAGE DIR [ro]: one more image, on any directory. */
static int do_mount(const char *img, const char *dir, bool readonly)
{
	struct block_device *b;
	size_t i;
	int err;

	for (i = 0; i < MAX_MOUNTS && others[i]; i++)
		;
	if (i == MAX_MOUNTS)
		return -ENOSPC;
	b = bdev_file_open(img, 0, 0, readonly);
	if (!b)
		return -ENOENT;
	err = vfs_mount(b, dir, fstype, readonly ? VFS_MNT_RDONLY : 0);
	if (err) {
		bdev_file_close(b);
		return err;
	}
	others[i] = b;
	return 0;
}

/* Unmount @m and close its device if `mount` opened it. */
static int umount_close(struct vfs_mount *m)
{
	struct block_device *b = m->mnt_bdev;
	size_t i;
	int err = vfs_umount(m);

	if (err == -EBUSY || b == bdev)
		return err;
	for (i = 0; i < MAX_MOUNTS && others[i] != b; i++)
		;
	if (i < MAX_MOUNTS) {
		memmove(&others[i], &others[i + 1], (MAX_MOUNTS - 1 - i) * sizeof(others[0]));
		others[MAX_MOUNTS - 1] = NULL;
		if (bdev_file_close(b) && !err)
			err = -EBUSY;	/* a buffer reference leaked */
	}
	return err;
}

static int do_umount(const char *dir)
{
	struct vfs_mount *m;
	int err = vfs_find_mount(dir, &m);

	return err ? err : umount_close(m);
}

static int do_ntimes(const char *path)
{
	struct vfs_stat st;
	int err = vfs_lstat(path, &st);

	if (!err)
		printf("atime=%lld.%09u mtime=%lld.%09u ctime=%lld.%09u blocks=%llu\n",
		       (long long)st.st_atime, st.st_atime_ns, (long long)st.st_mtime,
		       st.st_mtime_ns, (long long)st.st_ctime, st.st_ctime_ns,
		       (unsigned long long)st.st_blocks);
	return err;
}

static int print_mount(struct vfs_mount *m, void *arg)
{
	char path[VFS_PATH_MAX];
	int err = vfs_mount_path(m, path, sizeof(path));

	if (!err)
		printf("%s%s\n", path, m->mnt_flags & VFS_MNT_RDONLY ? " ro" : "");
	return err;
}

static int do_times(const char *path)
{
	struct vfs_stat st;
	int err = vfs_lstat(path, &st);

	if (!err)
		printf("atime=%lld mtime=%lld ctime=%lld\n", (long long)st.st_atime,
		       (long long)st.st_mtime, (long long)st.st_ctime);
	return err;
}

static int last_mount(struct vfs_mount *m, void *last)
{
	*(struct vfs_mount **)last = m;
	return 0;
}

static int mount_d(bool readonly)
{
	return vfs_mount(bdev, "/d", fstype, readonly ? VFS_MNT_RDONLY : 0);
}

static u64 num(const char *s)
{
	return strtoull(s, NULL, 0);
}

/* Copy the image file (as the disk holds it now) to @dst. */
static int do_snapshot(const char *dst)
{
	FILE *in = fopen(image_path, "rb"), *out = fopen(dst, "wb");
	size_t n;
	int err = 0;

	if (!in || !out) {
		err = -EIO;
		goto out;
	}
	while ((n = fread(iobuf, 1, CHUNK, in)) > 0)
		if (fwrite(iobuf, 1, n, out) != n)
			err = -EIO;
out:
	if (in)
		fclose(in);
	if (out && fclose(out))
		err = -EIO;
	return err;
}

static int run(int argc, char **av)
{
	const char *c = av[0];
	char hex[65], buf[4096];
	int err;

#define NEED(n) do { if (argc != (n)) return -EINVAL; } while (0)
	if (!strcmp(c, "ls")) { NEED(2); return do_ls(av[1]); }
	if (!strcmp(c, "stat")) { NEED(2); return do_stat(av[1], true); }
	if (!strcmp(c, "lstat")) { NEED(2); return do_stat(av[1], false); }
	if (!strcmp(c, "sha")) {
		if (argc != 2 && argc != 4)
			return -EINVAL;
		err = read_range(av[1], argc == 4 ? num(av[2]) : 0, argc == 4 ? num(av[3]) : ~0ULL,
				 NULL, hex);
		if (!err)
			printf("%s  %s\n", hex, av[1]);
		return err;
	}
	if (!strcmp(c, "cat")) { NEED(2); return read_range(av[1], 0, ~0ULL, stdout, hex); }
	if (!strcmp(c, "get")) {
		FILE *out;

		NEED(3);
		out = fopen(av[2], "wb");
		if (!out)
			return -EIO;
		err = read_range(av[1], 0, ~0ULL, out, hex);
		fclose(out);
		return err;
	}
	if (!strcmp(c, "put")) { NEED(3); return do_put(av[1], av[2]); }
	if (!strcmp(c, "readlink")) {
		NEED(2);
		err = vfs_readlink(av[1], buf, sizeof(buf) - 1);
		if (err >= 0) {
			buf[min(err, (int)sizeof(buf) - 1)] = '\0';
			printf("%s\n", buf);
			err = 0;
		}
		return err;
	}
	if (!strcmp(c, "df")) { NEED(1); return do_df(); }
	if (!strcmp(c, "write")) {
		NEED(3);
		return write_at(av[1], VFS_O_TRUNC, 0, av[2], strlen(av[2]));
	}
	if (!strcmp(c, "append")) {
		NEED(3);
		return write_at(av[1], VFS_O_APPEND, 0, av[2], strlen(av[2]));
	}
	if (!strcmp(c, "pwrite")) { NEED(4); return write_at(av[1], 0, num(av[2]), av[3], strlen(av[3])); }
	if (!strcmp(c, "truncate")) { NEED(3); return vfs_truncate(av[1], num(av[2])); }
	if (!strcmp(c, "fill")) {
		if (argc != 4 && argc != 5)
			return -EINVAL;
		return do_fill(av[1], num(av[2]), num(av[3]), argc == 5 ? num(av[4]) : 0);
	}
	if (!strcmp(c, "mkdir")) { NEED(2); return vfs_mkdir(av[1], 0755); }
	if (!strcmp(c, "rmdir")) { NEED(2); return vfs_rmdir(av[1]); }
	if (!strcmp(c, "rm")) { NEED(2); return vfs_unlink(av[1]); }
	if (!strcmp(c, "mv")) { NEED(3); return vfs_rename(av[1], av[2]); }
	if (!strcmp(c, "ln")) { NEED(3); return vfs_link(av[1], av[2]); }
	if (!strcmp(c, "symlink")) { NEED(3); return vfs_symlink(av[1], av[2]); }
	if (!strcmp(c, "sync")) { NEED(1); return vfs_sync(); }
	if (!strcmp(c, "fsync")) { NEED(2); return vfs_fsync(av[1]); }
	if (!strcmp(c, "mkdirs")) { NEED(3); return do_many(av[1], (long)num(av[2]), true); }
	if (!strcmp(c, "touchn")) { NEED(3); return do_many(av[1], (long)num(av[2]), false); }
	if (!strcmp(c, "remount")) {
		err = do_umount("/d");
		if (err)
			return err;
		return mount_d(ro || (argc == 2 && !strcmp(av[1], "ro")));
	}
	if (!strcmp(c, "mount")) {
		if (argc != 3 && !(argc == 4 && !strcmp(av[3], "ro")))
			return -EINVAL;
		return do_mount(av[1], av[2], argc == 4);
	}
	if (!strcmp(c, "umount")) { NEED(2); return do_umount(av[1]); }
	if (!strcmp(c, "mounts")) { NEED(1); return vfs_for_each_mount(print_mount, NULL); }
	if (!strcmp(c, "open")) {
		NEED(2);
		if (held)
			return -EBUSY;
		return vfs_open(av[1], VFS_O_RDONLY, 0, &held);
	}
	if (!strcmp(c, "close")) {
		NEED(1);
		if (!held)
			return -EBADF;
		err = vfs_close(held);
		held = NULL;
		return err;
	}
	if (!strcmp(c, "times")) { NEED(2); return do_times(av[1]); }
	if (!strcmp(c, "ntimes")) { NEED(2); return do_ntimes(av[1]); }
	if (!strcmp(c, "clock")) {
		if (argc != 2 && argc != 3)
			return -EINVAL;
		host_wallclock = num(av[1]);
		host_wallclock_ns = argc == 3 ? (u32)num(av[2]) : 0;
		return 0;
	}
	if (!strcmp(c, "snapshot")) { NEED(2); return do_snapshot(av[1]); }
#undef NEED
	return -ENOSYS;
}

int main(int argc, char **argv)
{
	u64 off = 0, size = 0;
	char line[8192], *av[16];
	struct bdev_stats bs;
	int opt, err, status = 0;
	u32 nbuf = 0;

	while ((opt = getopt(argc, argv, "rt:o:s:c:")) != -1) {
		switch (opt) {
		case 'r': ro = true; break;
		case 't': fstype = optarg; break;
		case 'o': off = num(optarg); break;
		case 's': size = num(optarg); break;
		case 'c': nbuf = (u32)num(optarg); break;
		default: return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: fscli [-r] [-t TYPE] [-o OFFSET] [-s SIZE] [-c NBUF] IMAGE < SCRIPT\n");
		return 2;
	}
	host_printk_quiet = getenv("FSCLI_VERBOSE") == NULL;
	image_path = argv[optind];
	iobuf = malloc(CHUNK);
	bdev = bdev_file_open(argv[optind], off, size, ro);
	if (!bdev || !iobuf) {
		perror(argv[optind]);
		return 2;
	}
	if (nbuf)
		bdev_set_cache_limit(bdev, nbuf);
	vfs_register_fstype(&ext2_fstype);
	vfs_register_fstype(&fat_fstype);
	err = mount_d(ro);
	printf("mount = %d\n", err);
	if (err) {
		bdev_file_close(bdev);
		return 3;
	}
	while (fgets(line, sizeof(line), stdin)) {
		int n = 0;
		char *s = line, *tok;

		while ((tok = strsep(&s, " \t\n")) != NULL && n < 16)
			if (*tok)
				av[n++] = tok;
		if (n == 0 || av[0][0] == '#')
			continue;
		err = run(n, av);
		fflush(stdout);
		printf("= %d\n", err);
	}
	if (held)
		vfs_close(held);
	for (;;) {
		struct vfs_mount *m = NULL;

		vfs_for_each_mount(last_mount, &m);	/* last mounted first */
		if (!m)
			break;
		err = umount_close(m);
		if (err) {
			printf("umount = %d\n", err);
			status = 1;
			break;
		}
	}
	bdev_get_stats(bdev, &bs);
	if (bs.bs_referenced) {
		printf("leak: %u buffers still referenced\n", bs.bs_referenced);
		status = 1;
	}
	err = bdev_file_close(bdev);
	if (err) {
		printf("close = %d\n", err);
		status = 1;
	}
	free(iobuf);
	if (host_slab_live) {
		printf("leak: %ld allocations not freed\n", host_slab_live);
		status = 1;
	}
	return status;
}
