/*
 * File shell commands over the VFS: ls [-l], cat, stat, df, mkdir, rm,
 * rmdir, mv, ln [-s], cp, write [--sync], fill, sha256sum, sync, fsync.
 *
 * Output formats are stable (tests read them):
 *	ls -l:     "drwxr-xr-x    2        1024 name" (mode, links, size, name)
 *	stat:      "ino=12 mode=100644 nlink=1 uid=0 gid=0 size=6 blocks=2 mtime=1700000000"
 *	sha256sum: "<64 hex digits>  PATH", as the host's sha256sum prints
 *	df:        "Filesystem 1K-blocks Used Available Use% Mounted on" and one line a mount
 * fill writes the content defined in fs/fillgen.h (tools/fillgen.py makes
 * the same bytes on the host), with seed 1 unless one is given.  Long copies and fills stop at Ctrl-C.
 * Errors name the path they concern: "cat: /a/b: is a directory".
 */
#include "fs/vfs.h"
#include "block/bdev.h"
#include "fs/fillgen.h"
#include "kernel/errno.h"
#include "kernel/console.h"
#include "kernel/init.h"
#include "kernel/printk.h"
#include "kernel/progress.h"
#include "kernel/shell.h"
#include "kernel/mm/slab.h"
#include "lib/sha256.h"
#include "lib/string.h"

#define FS_CMDS_CHUNK	(64 * 1024)	/* bytes per read/write call */

/*
 * Report a filesystem error against the path it concerns, as "cmd: path:
 * error text" (or "cmd: from -> to: ..." when it may concern either of
 * two, mv and ln), and return what the shell prints nothing more for.
 * Success passes through.
 */
static int paths_err(const char *cmd, const char *path, const char *to, int err)
{
	if (err >= 0 || err == -ECANCELED)
		return err;
	if (to)
		kprintf("%s: %s -> %s: %s\n", cmd, path, to, errstr(err));
	else
		kprintf("%s: %s: %s\n", cmd, path, errstr(err));
	return -ECANCELED;
}

static int path_err(const char *cmd, const char *path, int err)
{
	return paths_err(cmd, path, NULL, err);
}

static void mode_string(u32 mode, char s[11])
{
	static const char rwx[] = "rwxrwxrwx";
	int i;

	s[0] = VFS_S_ISDIR(mode) ? 'd' : VFS_S_ISLNK(mode) ? 'l' : VFS_S_ISREG(mode) ? '-' : '?';
	for (i = 0; i < 9; i++)
		s[1 + i] = mode & (1U << (8 - i)) ? rwx[i] : '-';
	s[10] = '\0';
}

static int ls_one(const char *dir, const struct vfs_dirent *de, bool longfmt)
{
	char *path, mode[11];
	struct vfs_stat st;
	int err;

	if (!longfmt) {
		kprintf("%s\n", de->d_name);
		return 0;
	}
	path = kmalloc(VFS_PATH_MAX + VFS_NAME_MAX + 2, GFP_KERNEL);
	if (!path)
		return -ENOMEM;
	snprintf(path, VFS_PATH_MAX + VFS_NAME_MAX + 2, "%s/%s", dir, de->d_name);
	err = vfs_lstat(path, &st);
	if (!err) {
		mode_string(st.st_mode, mode);
		kprintf("%s %4u %11llu %s\n", mode, st.st_nlink,
		       (unsigned long long)st.st_size, de->d_name);
	}
	kfree(path);
	return err;
}

static int cmd_ls(int argc, char **argv)
{
	bool longfmt = argc > 1 && !strcmp(argv[1], "-l");
	const char *path = argc > 1 + longfmt ? argv[1 + longfmt] : "/";
	struct vfs_dirent *de;
	struct vfs_file *f;
	int err;

	if (argc > 2 + longfmt)
		return -EINVAL;
	de = kmalloc(sizeof(*de), GFP_KERNEL);
	if (!de)
		return -ENOMEM;
	err = vfs_open(path, VFS_O_RDONLY | VFS_O_DIRECTORY, 0, &f);
	if (err)
		goto free_de;
	while ((err = vfs_readdir(f, de)) == 1) {
		err = ls_one(path, de, longfmt);
		if (err)
			break;
	}
	vfs_close(f);
free_de:
	kfree(de);
	return path_err("ls", path, err < 0 ? err : 0);
}
SHELL_COMMAND("ls", cmd_ls, "ls [-l] [PATH]", "list a directory");

/* Read @path to the end, printing it if @print and hashing it into @hex if set. */
static int read_through(const char *path, bool print, char *hex)
{
	struct sha256_ctx c;
	u8 digest[SHA256_DIGEST_SIZE];
	struct vfs_file *f;
	char *buf;
	long n;
	int err;

	buf = kmalloc(FS_CMDS_CHUNK + 1, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	err = vfs_open(path, VFS_O_RDONLY, 0, &f);
	if (err)
		goto free_buf;
	sha256_init(&c);
	while ((n = vfs_read(f, buf, FS_CMDS_CHUNK)) > 0) {
		if (print)
			console_write(buf, (size_t)n);	/* the bytes as they are */
		if (hex)
			sha256_update(&c, buf, (size_t)n);
		if (shell_interrupted()) {
			n = -EINTR;
			break;
		}
	}
	err = n < 0 ? (int)n : 0;
	vfs_close(f);
	if (!err && hex) {
		sha256_final(&c, digest);
		sha256_hex(digest, hex);
	}
free_buf:
	kfree(buf);
	return err;
}

static int cmd_cat(int argc, char **argv)
{
	if (argc != 2)
		return -EINVAL;
	return path_err("cat", argv[1], read_through(argv[1], true, NULL));
}
SHELL_COMMAND("cat", cmd_cat, "cat PATH", "print a file");

static int cmd_sha256sum(int argc, char **argv)
{
	char hex[2 * SHA256_DIGEST_SIZE + 1];
	int err;

	if (argc != 2)
		return -EINVAL;
	err = read_through(argv[1], false, hex);
	if (!err)
		kprintf("%s  %s\n", hex, argv[1]);
	return path_err("sha256sum", argv[1], err);
}
SHELL_COMMAND("sha256sum", cmd_sha256sum, "sha256sum PATH", "SHA-256 of a file's contents");

static int cmd_stat(int argc, char **argv)
{
	struct vfs_stat st;
	int err;

	if (argc != 2)
		return -EINVAL;
	err = vfs_lstat(argv[1], &st);
	if (err)
		return path_err("stat", argv[1], err);
	kprintf("ino=%llu mode=%o nlink=%u uid=%u gid=%u size=%llu blocks=%llu mtime=%lld\n",
	       (unsigned long long)st.st_ino, st.st_mode, st.st_nlink, st.st_uid, st.st_gid,
	       (unsigned long long)st.st_size, (unsigned long long)st.st_blocks,
	       (long long)st.st_mtime);
	return 0;
}
SHELL_COMMAND("stat", cmd_stat, "stat PATH", "show a file's inode");

static int df_one(struct vfs_mount *m, void *path)
{
	struct vfs_statfs st;
	u64 k, used;
	int err;

	err = vfs_mount_path(m, path, VFS_PATH_MAX);
	if (!err)
		err = vfs_statfs(path, &st);	/* the mounted root: this mount */
	if (err)
		return err;
	k = st.f_bsize / 1024;
	used = st.f_blocks - st.f_bfree;
	kprintf("%-10s %-5s %10llu %10llu %10llu %3llu%% %s%s%s\n", bdev_name(m->mnt_bdev),
	       st.f_type ? st.f_type : "?", (unsigned long long)(st.f_blocks * k), (unsigned long long)(used * k),
	       (unsigned long long)(st.f_bavail * k),
	       (unsigned long long)(st.f_blocks ? (used * 100 + st.f_blocks - 1) / st.f_blocks : 0),
	       (char *)path, st.f_rdonly ? " (ro)" : "", st.f_errors ? " (errors)" : "");
	return 0;
}

static int cmd_df(int argc, char **argv)
{
	char *path;
	int err;

	if (argc != 1)
		return -EINVAL;
	path = kmalloc(VFS_PATH_MAX, GFP_KERNEL);
	if (!path)
		return -ENOMEM;
	kprintf("Filesystem Type   1K-blocks       Used  Available Use%% Mounted on\n");
	err = vfs_for_each_mount(df_one, path);
	kfree(path);
	return err;
}
SHELL_COMMAND("df", cmd_df, "df", "space on each mounted filesystem");

static int cmd_mkdir(int argc, char **argv)
{
	return argc == 2 ? path_err("mkdir", argv[1], vfs_mkdir(argv[1], 0755)) : -EINVAL;
}
SHELL_COMMAND("mkdir", cmd_mkdir, "mkdir PATH", "make a directory");

static int cmd_rmdir(int argc, char **argv)
{
	return argc == 2 ? path_err("rmdir", argv[1], vfs_rmdir(argv[1])) : -EINVAL;
}
SHELL_COMMAND("rmdir", cmd_rmdir, "rmdir PATH", "remove an empty directory");

static int cmd_rm(int argc, char **argv)
{
	return argc == 2 ? path_err("rm", argv[1], vfs_unlink(argv[1])) : -EINVAL;
}
SHELL_COMMAND("rm", cmd_rm, "rm PATH", "remove a file");

static int cmd_mv(int argc, char **argv)
{
	return argc == 3 ? paths_err("mv", argv[1], argv[2], vfs_rename(argv[1], argv[2])) : -EINVAL;
}
SHELL_COMMAND("mv", cmd_mv, "mv FROM TO", "rename");

static int cmd_ln(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "-s"))
		return path_err("ln", argv[3], vfs_symlink(argv[2], argv[3]));
	return argc == 3 ? paths_err("ln", argv[1], argv[2], vfs_link(argv[1], argv[2])) : -EINVAL;
}
SHELL_COMMAND("ln", cmd_ln, "ln [-s] TARGET PATH", "make a hard or symbolic link");

static int cmd_sync(int argc, char **argv)
{
	return argc == 1 ? vfs_sync() : -EINVAL;
}
SHELL_COMMAND("sync", cmd_sync, "sync", "write every filesystem back to its disk");

/*
 * fsync PATH: PATH's file durable; prints "SYNCED PATH" once it is (a
 * power-cut test kills the machine right after that line).
 */
static int cmd_fsync(int argc, char **argv)
{
	int err;

	if (argc != 2)
		return -EINVAL;
	err = vfs_fsync(argv[1]);
	if (!err)
		kprintf("SYNCED %s\n", argv[1]);
	return path_err("fsync", argv[1], err);
}
SHELL_COMMAND("fsync", cmd_fsync, "fsync PATH", "make a file (and what leads to it) durable");

/* Write all of @len bytes of @buf; -ENOSPC for a short write. */
static int write_full(struct vfs_file *f, const void *buf, size_t len)
{
	long n = vfs_write(f, buf, len);

	if (n < 0)
		return (int)n;
	return (size_t)n == len ? 0 : -ENOSPC;
}

static int cmd_write(int argc, char **argv)
{
	unsigned flags = VFS_O_WRONLY | VFS_O_CREAT | VFS_O_TRUNC;
	struct vfs_file *f;
	int err, e;

	if (argc == 4 && !strcmp(argv[1], "--sync")) {
		flags |= VFS_O_SYNC;
		argc--;
		argv++;
	}
	if (argc != 3)
		return -EINVAL;
	err = vfs_open(argv[1], flags, 0644, &f);
	if (err)
		return path_err("write", argv[1], err);
	err = write_full(f, argv[2], strlen(argv[2]));
	e = vfs_close(f);
	if (!err && !e && (flags & VFS_O_SYNC))
		kprintf("SYNCED %s\n", argv[1]);
	return path_err("write", argv[1], err ? err : e);
}
SHELL_COMMAND("write", cmd_write, "write [--sync] PATH TEXT",
	      "replace a file's contents with TEXT (--sync: durable when it returns)");

/*
 * cp's destination: DST itself, or DST/name-of-SRC when DST is a
 * directory, as cp(1) does.  The result is in buf (VFS_PATH_MAX bytes).
 */
static int cp_target(const char *src, const char *dst, char *buf)
{
	const char *base = strrchr(src, '/');
	struct vfs_stat st;

	base = base ? base + 1 : src;
	if (vfs_stat(dst, &st) || !VFS_S_ISDIR(st.st_mode) || !*base)
		return str_copy(buf, dst, VFS_PATH_MAX) < VFS_PATH_MAX ? 0 : -ENAMETOOLONG;
	if ((size_t)snprintf(buf, VFS_PATH_MAX, "%s%s%s", dst,
			     dst[strlen(dst) - 1] == '/' ? "" : "/", base) >= VFS_PATH_MAX)
		return -ENAMETOOLONG;
	return 0;
}

static int cmd_cp(int argc, char **argv)
{
	struct vfs_file *in, *out;
	const char *bad;
	struct vfs_stat st;
	struct progress pg = { 0 };	/* pg_follow NULL: a progress of its own */
	u64 done = 0;
	char *buf, *dst;
	long n;
	int err, e;

	if (argc != 3)
		return -EINVAL;
	buf = kmalloc(FS_CMDS_CHUNK + VFS_PATH_MAX, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	dst = buf + FS_CMDS_CHUNK;
	bad = argv[1];
	err = vfs_open(argv[1], VFS_O_RDONLY, 0, &in);
	if (err)
		goto free_buf;
	bad = argv[2];
	err = cp_target(argv[1], argv[2], dst);
	if (err)
		goto close_in;
	bad = dst;
	err = vfs_open(dst, VFS_O_WRONLY | VFS_O_CREAT | VFS_O_TRUNC, 0644, &out);
	if (err)
		goto close_in;
	progress_start(&pg, "cp", vfs_fstat(in, &st) ? 0 : st.st_size);
	while ((n = vfs_read(in, buf, FS_CMDS_CHUNK)) > 0) {
		err = write_full(out, buf, (size_t)n);
		done += (u64)n;
		if (!err && progress_update(&pg, done))
			err = -EINTR;
		if (err)
			break;
	}
	progress_end(&pg, done);
	if (n < 0 && !err) {
		err = (int)n;
		bad = argv[1];
	}
	e = vfs_close(out);
	if (!err)
		err = e;
close_in:
	vfs_close(in);
free_buf:
	err = path_err("cp", bad, err);
	kfree(buf);
	return err;
}
SHELL_COMMAND("cp", cmd_cp, "cp SRC DST", "copy a file (into DST if DST is a directory)");

/* The seed of `fill PATH BYTES`: `tools/fillgen.py BYTES 1` makes the same bytes. */
#define FILL_DEFAULT_SEED	1

static int cmd_fill(int argc, char **argv)
{
	u64 bytes, seed, done = 0;
	struct vfs_file *f;
	struct progress pg = { 0 };	/* pg_follow NULL: a progress of its own */
	char *buf;
	int err, e;

	seed = FILL_DEFAULT_SEED;
	if (argc < 3 || argc > 4 || str_to_u64(argv[2], &bytes, true) ||
	    (argc == 4 && str_to_u64(argv[3], &seed, false)))
		return -EINVAL;
	buf = kmalloc(FS_CMDS_CHUNK, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	err = vfs_open(argv[1], VFS_O_WRONLY | VFS_O_CREAT | VFS_O_TRUNC, 0644, &f);
	if (err)
		goto free_buf;
	progress_start(&pg, "fill", bytes);
	while (done < bytes && !err) {
		size_t n = (size_t)min(bytes - done, (u64)FS_CMDS_CHUNK);

		fillgen(seed, done, buf, n);
		err = write_full(f, buf, n);
		done += n;
		if (!err && progress_update(&pg, done))
			err = -EINTR;
	}
	progress_end(&pg, done);
	e = vfs_close(f);
	if (!err)
		err = e;
free_buf:
	kfree(buf);
	return path_err("fill", argv[1], err);
}
SHELL_COMMAND("fill", cmd_fill, "fill PATH BYTES [SEED]",
	      "write BYTES of deterministic content (tools/fillgen.py; SEED 1 if not given) to PATH");

#define COMPLETE_MAX	256	/* the shell's longest line */

/*
 * Tab completion of paths for the shell: the entries of the directory
 * named by prefix up to its last '/', whose names start with the rest;
 * directories get a trailing '/' so that completion can go on into them.
 */
static void complete_path(const char *prefix, void (*emit)(void *ctx, const char *cand),
			  void *ctx)
{
	const char *slash = strrchr(prefix, '/');
	char dir[COMPLETE_MAX], cand[COMPLETE_MAX];
	size_t dlen, plen;
	struct vfs_dirent *de;
	struct vfs_file *f;

	if (!slash)
		return;
	dlen = (size_t)(slash - prefix) + 1;
	if (dlen >= sizeof(dir))
		return;
	memcpy(dir, prefix, dlen);
	dir[dlen] = '\0';
	plen = strlen(slash + 1);
	de = kmalloc(sizeof(*de), GFP_KERNEL);
	if (!de)
		return;
	if (vfs_open(dir, VFS_O_RDONLY | VFS_O_DIRECTORY, 0, &f) == 0) {
		while (vfs_readdir(f, de) == 1) {
			if (de->d_name[0] == '.' && (de->d_name[1] == '\0' ||
			    (de->d_name[1] == '.' && de->d_name[2] == '\0')))
				continue;
			if (strncmp(de->d_name, slash + 1, plen) != 0)
				continue;
			snprintf(cand, sizeof(cand), "%s%s%s", dir, de->d_name,
				 de->d_type == VFS_DT_DIR ? "/" : "");
			emit(ctx, cand);
		}
		vfs_close(f);
	}
	kfree(de);
}

static int complete_path_init(void)
{
	shell_set_path_completer(complete_path);
	shell_set_idle(vfs_idle);
	return 0;
}
late_initcall(complete_path_init);
