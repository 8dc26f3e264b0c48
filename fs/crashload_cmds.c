/*
 * crashload: the power-cut simulator's scripted workload (tools/crashsim
 * checks what it prints against every crash state of the write log).
 *
 *   crashload MNT SEED N
 *
 * runs N operations chosen by SEED in MNT/cl on the filesystem mounted at
 * MNT: create, append, overwrite, truncate, rename, unlink, hard link,
 * mkdir, rmdir, fsync of a file or a directory, an O_SYNC append, and
 * sync.  Each operation
 * first puts a mark in the device's write stream (block/blk-mark.h; the
 * device must record, e.g. logw0) and prints
 *
 *   CRASH OP <pos> <op> <path,path,...> <ino,ino,...>
 *
 * naming every path whose entry or listing it changes (parents included)
 * and every inode whose data it changes ("-" for none).  After an fsync
 * or sync returns it marks again and prints what is now promised:
 *
 *   CRASH SYNCED <pos> F <path> <ino> <size> <crc32>    a file's content
 *   CRASH SYNCED <pos> D <path> <name,name,...|->       a directory's names
 *
 * (fsync and O_SYNC write: that file or directory; sync: everything under
 * MNT/cl), and "CRASH DONE <pos> <ops>" at the end.  <pos> is the mark's
 * entry number: every write before it in the log came before the
 * promise.  The CRC is zlib's CRC-32 of the whole file.
 */
#include "fs/vfs.h"
#include "block/bdev.h"
#include "block/blk-mark.h"
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/shell.h"
#include "kernel/mm/slab.h"
#include "lib/crc32.h"
#include "lib/string.h"

#define CL_MAX_FILES	24	/* names alive at once */
#define CL_MAX_DIRS	6	/* subdirectories of cl alive at once */
#define CL_MAX_WRITE	24576	/* bytes of one create, append or overwrite */
#define CL_MAX_SIZE	98304	/* a file grows no larger */
#define CL_PATH_MAX	96
#define CL_BUF		(CL_MAX_WRITE > 4096 ? CL_MAX_WRITE : 4096)

enum cl_op {
	CL_CREATE, CL_APPEND, CL_OVERWRITE, CL_TRUNCATE, CL_RENAME, CL_UNLINK,
	CL_LINK, CL_MKDIR, CL_RMDIR, CL_FSYNC, CL_FSYNCDIR, CL_SYNCWRITE, CL_SYNC, CL_NR_OPS
};
static const char *const cl_op_names[CL_NR_OPS] = {
	"create", "append", "overwrite", "truncate", "rename", "unlink",
	"link", "mkdir", "rmdir", "fsync", "fsyncdir", "syncwrite", "sync",
};
static const u8 cl_op_weight[CL_NR_OPS] = { 14, 14, 9, 8, 9, 7, 6, 4, 3, 9, 4, 4, 4 };

/* The workload's state: its names, its random stream and its device. */
struct cl_ctx {
	struct request_queue	*c_queue;
	char			c_root[CL_PATH_MAX];		/* MNT/cl */
	char			c_files[CL_MAX_FILES][CL_PATH_MAX];	/* "" free */
	char			c_dirs[CL_MAX_DIRS][CL_PATH_MAX];	/* [0] is c_root */
	u32			c_rng;
	u32			c_next_name;
	u8			*c_buf;				/* CL_BUF bytes */
};

static u32 cl_rand(struct cl_ctx *c)
{
	u32 x = c->c_rng;		/* xorshift32 */

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	c->c_rng = x;
	return x;
}

static u32 cl_below(struct cl_ctx *c, u32 n)
{
	return n ? cl_rand(c) % n : 0;
}

/* A random used slot of @n paths, or -1. */
static int cl_pick(struct cl_ctx *c, char (*slots)[CL_PATH_MAX], int n, int first)
{
	int i, used = 0, k;

	for (i = first; i < n; i++)
		used += slots[i][0] != '\0';
	if (!used)
		return -1;
	k = (int)cl_below(c, (u32)used);
	for (i = first; i < n; i++)
		if (slots[i][0] && k-- == 0)
			return i;
	return -1;
}

static int cl_free_slot(char (*slots)[CL_PATH_MAX], int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!slots[i][0])
			return i;
	return -1;
}

/* The directory part of @path into @dir. */
static void cl_parent(const char *path, char *dir)
{
	const char *s = strrchr(path, '/');

	str_copy(dir, path, (size_t)(s - path) + 1);
}

/* A new name in a random live directory. */
static void cl_new_path(struct cl_ctx *c, char *out, char kind)
{
	int d = cl_pick(c, c->c_dirs, CL_MAX_DIRS, 0);

	snprintf(out, CL_PATH_MAX, "%s/%c%u", c->c_dirs[d < 0 ? 0 : d], kind, c->c_next_name++);
}

static int cl_mark(struct cl_ctx *c, const char *text, u64 *pos)
{
	int err = blk_mark(c->c_queue, text, pos);

	if (err)
		kprintf("crashload: cannot mark the write stream: %s\n", errstr(err));
	return err;
}

static u64 cl_ino(const char *path)
{
	struct vfs_stat st;

	return vfs_stat(path, &st) ? 0 : st.st_ino;
}

/* Fill buf with len bytes of the random stream and write them at pos. */
static int cl_write(struct cl_ctx *c, const char *path, unsigned oflags, u64 pos, u32 len)
{
	struct vfs_file *f;
	u32 i;
	long n;
	int err;

	for (i = 0; i < len; i++)
		c->c_buf[i] = (u8)cl_rand(c);
	err = vfs_open(path, VFS_O_WRONLY | oflags, 0644, &f);
	if (err)
		return err;
	/* seek + write, not pwrite: the O_SYNC promise is vfs_write's */
	err = vfs_seek(f, (s64)pos, VFS_SEEK_SET, NULL);
	n = err ? err : vfs_write(f, c->c_buf, len);
	err = vfs_close(f);
	if (n != (long)len)
		err = n < 0 ? (int)n : -ENOSPC;
	return err;
}

/* Print the promise for the file at @path. */
static int cl_print_file(struct cl_ctx *c, u64 pos, const char *path)
{
	struct vfs_stat st;
	struct vfs_file *f;
	u64 size = 0;
	u32 crc = 0;
	long n;
	int err;

	err = vfs_open(path, VFS_O_RDONLY, 0, &f);
	if (err)
		return err;
	while ((n = vfs_read(f, c->c_buf, CL_BUF)) > 0) {
		crc = crc32(crc, c->c_buf, (size_t)n);
		size += (u64)n;
	}
	err = n < 0 ? (int)n : vfs_fstat(f, &st);
	vfs_close(f);
	if (!err)
		kprintf("CRASH SYNCED %llu F %s %llu %llu %08x\n", (unsigned long long)pos, path,
			(unsigned long long)st.st_ino, (unsigned long long)size, crc);
	return err;
}

/* Print the promise for the directory at @path: its names. */
static int cl_print_dir(u64 pos, const char *path)
{
	struct vfs_dirent *de = kmalloc(sizeof(*de), GFP_KERNEL);
	char line[CL_MAX_FILES * 8 + CL_MAX_DIRS * 8 + 8];
	struct vfs_file *f;
	size_t used = 0;
	int err, r;

	if (!de)
		return -ENOMEM;
	err = vfs_open(path, VFS_O_RDONLY | VFS_O_DIRECTORY, 0, &f);
	if (err)
		goto free;
	line[0] = '\0';
	while ((r = vfs_readdir(f, de)) > 0) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (used + de->d_namlen + 2 > sizeof(line)) {
			err = -ENAMETOOLONG;
			break;
		}
		used += (size_t)snprintf(line + used, sizeof(line) - used, "%s%s",
					 used ? "," : "", de->d_name);
	}
	if (r < 0)
		err = r;
	vfs_close(f);
	if (!err)
		kprintf("CRASH SYNCED %llu D %s %s\n", (unsigned long long)pos, path,
			used ? line : "-");
free:
	kfree(de);
	return err;
}

/* After a sync: everything under cl is promised. */
static int cl_print_all(struct cl_ctx *c, u64 pos)
{
	int i, err = 0;

	for (i = 0; i < CL_MAX_DIRS && !err; i++)
		if (c->c_dirs[i][0])
			err = cl_print_dir(pos, c->c_dirs[i]);
	for (i = 0; i < CL_MAX_FILES && !err; i++)
		if (c->c_files[i][0])
			err = cl_print_file(c, pos, c->c_files[i]);
	return err;
}

/* Do one operation of kind op; -ENOENT-free by construction, others are real errors. */
static int cl_do(struct cl_ctx *c, enum cl_op op, u32 nr)
{
	char p1[CL_PATH_MAX], p2[CL_PATH_MAX], d1[CL_PATH_MAX], d2[CL_PATH_MAX];
	char paths[4 * CL_PATH_MAX + 4], text[BLK_MARK_TEXT_MAX];
	u64 pos, ino = 0, size;
	int fi = cl_pick(c, c->c_files, CL_MAX_FILES, 0), slot, err = 0;
	struct vfs_stat st;

	p1[0] = p2[0] = '\0';
	if (fi < 0 && op != CL_MKDIR && op != CL_RMDIR && op != CL_SYNC && op != CL_FSYNCDIR)
		op = CL_CREATE;		/* nothing to work on yet */
	if (fi >= 0) {
		str_copy(p1, c->c_files[fi], sizeof(p1));
		ino = cl_ino(p1);
	}
	slot = cl_free_slot(c->c_files, CL_MAX_FILES);
	if ((op == CL_CREATE || op == CL_LINK) && slot < 0)
		op = CL_UNLINK;
	if (op == CL_MKDIR && cl_free_slot(c->c_dirs, CL_MAX_DIRS) < 0)
		op = CL_SYNC;
	if (op == CL_CREATE || op == CL_LINK || op == CL_RENAME)
		cl_new_path(c, p2, 'f');
	if (op == CL_MKDIR)
		cl_new_path(c, p2, 'd');

	/* What the operation may change, for the checker. */
	switch (op) {
	case CL_CREATE: case CL_MKDIR:
		cl_parent(p2, d2);
		snprintf(paths, sizeof(paths), "%s,%s", p2, d2);
		break;
	case CL_LINK: case CL_RENAME:
		cl_parent(p1, d1);
		cl_parent(p2, d2);
		snprintf(paths, sizeof(paths), "%s,%s,%s,%s", p1, d1, p2, d2);
		break;
	case CL_UNLINK:
		cl_parent(p1, d1);
		snprintf(paths, sizeof(paths), "%s,%s", p1, d1);
		break;
	case CL_RMDIR:
		slot = cl_pick(c, c->c_dirs, CL_MAX_DIRS, 1);
		if (slot < 0) {
			op = CL_SYNC;
			break;
		}
		str_copy(p1, c->c_dirs[slot], sizeof(p1));
		cl_parent(p1, d1);
		snprintf(paths, sizeof(paths), "%s,%s", p1, d1);
		break;
	case CL_APPEND: case CL_OVERWRITE: case CL_TRUNCATE: case CL_SYNCWRITE:
		snprintf(paths, sizeof(paths), "%s", p1);
		break;
	default:
		break;
	}
	if (op == CL_SYNC || op == CL_FSYNC || op == CL_FSYNCDIR)
		str_copy(paths, "-", sizeof(paths));
	snprintf(text, sizeof(text), "op %u %s", nr, cl_op_names[op]);
	err = cl_mark(c, text, &pos);
	if (err)
		return err;
	kprintf("CRASH OP %llu %s %s %llu\n", (unsigned long long)pos, cl_op_names[op], paths,
		(unsigned long long)((op == CL_APPEND || op == CL_OVERWRITE || op == CL_TRUNCATE ||
				      op == CL_SYNCWRITE) ? ino : 0));

	size = vfs_stat(p1, &st) ? 0 : st.st_size;
	switch (op) {
	case CL_CREATE:
		err = cl_write(c, p2, VFS_O_CREAT | VFS_O_EXCL, 0, cl_below(c, CL_MAX_WRITE));
		if (!err)
			str_copy(c->c_files[slot], p2, CL_PATH_MAX);
		break;
	case CL_APPEND:
		if (size < CL_MAX_SIZE)
			err = cl_write(c, p1, 0, size, 1 + cl_below(c, CL_MAX_WRITE - 1));
		break;
	case CL_SYNCWRITE:	/* durable when the write returns */
		err = cl_write(c, p1, VFS_O_SYNC, size < CL_MAX_SIZE ? size : 0,
			       1 + cl_below(c, 8192));
		if (!err)
			err = cl_mark(c, "synced", &pos);
		if (!err)
			err = cl_print_file(c, pos, p1);
		break;
	case CL_OVERWRITE:
		err = cl_write(c, p1, 0, cl_below(c, (u32)size + 1), 1 + cl_below(c, 8192));
		break;
	case CL_TRUNCATE:
		err = vfs_truncate(p1, cl_below(c, (u32)size + 8192));
		break;
	case CL_RENAME:
		err = vfs_rename(p1, p2);
		if (!err)
			str_copy(c->c_files[fi], p2, CL_PATH_MAX);
		break;
	case CL_UNLINK:
		err = vfs_unlink(p1);
		if (!err)
			c->c_files[fi][0] = '\0';
		break;
	case CL_LINK:
		err = vfs_link(p1, p2);
		if (!err)
			str_copy(c->c_files[slot], p2, CL_PATH_MAX);
		break;
	case CL_MKDIR:
		err = vfs_mkdir(p2, 0755);
		if (!err)
			str_copy(c->c_dirs[cl_free_slot(c->c_dirs, CL_MAX_DIRS)], p2, CL_PATH_MAX);
		break;
	case CL_RMDIR:
		err = vfs_rmdir(p1);
		if (err == -ENOTEMPTY)
			err = 0;	/* files live there: a harmless refusal */
		else if (!err)
			c->c_dirs[slot][0] = '\0';
		break;
	case CL_FSYNC: case CL_FSYNCDIR: case CL_SYNC:
		if (op == CL_FSYNCDIR)
			str_copy(p1, c->c_dirs[cl_pick(c, c->c_dirs, CL_MAX_DIRS, 0)], sizeof(p1));
		err = op == CL_SYNC ? vfs_sync() : vfs_fsync(p1);
		if (!err)
			err = cl_mark(c, "synced", &pos);
		if (err)
			break;
		if (op == CL_SYNC)
			err = cl_print_all(c, pos);
		else if (op == CL_FSYNC)
			err = cl_print_file(c, pos, p1);
		else
			err = cl_print_dir(pos, p1);
		break;
	default:
		break;
	}
	if (err)
		kprintf("crashload: %s %s: %s\n", cl_op_names[op], p1[0] ? p1 : p2, errstr(err));
	return err;
}

static enum cl_op cl_choose(struct cl_ctx *c)
{
	u32 total = 0, r;
	int i;

	for (i = 0; i < CL_NR_OPS; i++)
		total += cl_op_weight[i];
	r = cl_below(c, total);
	for (i = 0; i < CL_NR_OPS - 1 && r >= cl_op_weight[i]; i++)
		r -= cl_op_weight[i];
	return (enum cl_op)i;
}

static int cmd_crashload(int argc, char **argv)
{
	struct vfs_mount *mnt;
	struct cl_ctx *c;
	u64 seed, n, pos, i;
	int err;

	if (argc != 4 || str_to_u64(argv[2], &seed, false) || str_to_u64(argv[3], &n, false) ||
	    strlen(argv[1]) > CL_PATH_MAX - 32)
		return -EINVAL;
	err = vfs_find_mount(argv[1], &mnt);
	if (err) {
		kprintf("crashload: %s: not a mounted filesystem\n", argv[1]);
		return -ECANCELED;
	}
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->c_buf = kmalloc(CL_BUF, GFP_KERNEL);
	err = -ENOMEM;
	if (!c->c_buf)
		goto free;
	c->c_queue = bdev_get_queue(mnt->mnt_bdev);
	c->c_rng = (u32)(seed * 2654435761u) ^ 0x9e3779b9u;
	if (!c->c_rng)
		c->c_rng = 1;
	snprintf(c->c_root, sizeof(c->c_root), "%s/cl", strcmp(argv[1], "/") ? argv[1] : "");
	str_copy(c->c_dirs[0], c->c_root, CL_PATH_MAX);
	err = cl_mark(c, "start", &pos);
	if (err) {
		err = -ECANCELED;	/* reported: the device does not record */
		goto free;
	}
	kprintf("CRASH OP %llu mkdir %s -\n", (unsigned long long)pos, c->c_root);
	err = vfs_mkdir(c->c_root, 0755);
	if (err) {
		kprintf("crashload: %s: %s\n", c->c_root, errstr(err));
		err = -ECANCELED;
		goto free;
	}
	for (i = 0; i < n && !err; i++)
		err = cl_do(c, cl_choose(c), (u32)i);
	if (!err)
		err = cl_mark(c, "done", &pos);
	if (!err)
		kprintf("CRASH DONE %llu %llu\n", (unsigned long long)pos, (unsigned long long)n);
	else
		err = -ECANCELED;	/* reported */
free:
	kfree(c->c_buf);
	kfree(c);
	return err;
}
SHELL_COMMAND("crashload", cmd_crashload, "crashload MNT SEED N",
	      "run N seeded file operations in MNT/cl, printing sync promises (power-cut simulator)");
