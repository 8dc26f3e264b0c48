/*
 * fsmix: a random filesystem workload from several CPUs at once, in one
 * shared directory, checked against a model as it goes (issue 19: ext2
 * correct under concurrent readers and writers of the same file and
 * directory).
 *
 *   fsmix DIR SEED N [cpus=K|all]
 *
 * makes DIR/mix and runs N operations on each of K CPUs (kernel/smp_run.c)
 * at once.  CPU i owns the names "c<i>-<k>" there: it creates them,
 * appends to them, renames and unlinks them, reads them back whole and
 * lists the directory, and each time the file's size and CRC, or the set
 * of its names in the listing, must be what its model says.  All CPUs
 * also share FSMIX_SHARED files "s<j>" of FSMIX_CHUNKS(K) chunks each:
 * chunk c is written only by CPU c mod K, as one pwrite whose first four
 * bytes are a version number and whose rest follows from (file, chunk,
 * version); any CPU reads any chunk, which must hold a whole version no
 * older than its owner had published before the read (exactly the last
 * one, for the owner itself).  Chunks are not block-aligned, so CPUs
 * write different parts of the same block.
 *
 * At the end it prints the model, one line a file, and syncs:
 *
 *   FSMIX F <path> <size> <crc32>		(zlib's CRC-32 of the whole file)
 *   FSMIX DONE <ops> <cpus> <errors>
 *
 * so the host can check the image against it (tests/qemu/fs-smp.sh).
 * It also says how long the run took and how often a CPU had to wait
 * for vfs_lock.  Errors are printed where found ("fsmix: cpu I: ..."), counted, and make
 * the command fail.
 */
#include "fs/vfs_priv.h"
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/shell.h"
#include "kernel/smp.h"
#include "kernel/time.h"
#include "kernel/mm/slab.h"
#include "lib/crc32.h"
#include "lib/string.h"

#define FSMIX_SHARED		3	/* shared files */
#define FSMIX_CHUNK		1536	/* bytes: not a block size, so chunks share blocks */
#define FSMIX_CHUNKS(k)		(4 * (k))	/* chunks of a shared file, K CPUs */
#define FSMIX_OWN		6	/* names one CPU has at once */
#define FSMIX_MAX_WRITE		6000	/* bytes of one create or append */
#define FSMIX_MAX_SIZE		40000	/* an own file grows no larger */
#define FSMIX_PATH		96
#define FSMIX_BUF		(FSMIX_MAX_SIZE > 2 * FSMIX_CHUNK ? FSMIX_MAX_SIZE : 2 * FSMIX_CHUNK)

/* A file one CPU owns: [c] that CPU's share only. */
struct fsmix_own {
	u32	o_name;		/* k of "c<i>-<k>"; 0: free slot */
	u32	o_size;
	u32	o_crc;		/* of the whole content */
	u32	o_rng;		/* content stream: the next bytes appended */
};

/* One CPU's share. */
struct fsmix_cpu {
	struct fsmix_own	c_own[FSMIX_OWN];
	u32			c_rng;
	u32			c_next;		/* the next name number */
	u32			c_errors;
	u8			*c_buf;		/* FSMIX_BUF bytes */
	u8			*c_want;	/* 2 * FSMIX_CHUNK bytes */
};

/* The run: [I] after setup, [a] the published versions. */
struct fsmix {
	char			m_dir[FSMIX_PATH];	/* DIR/mix */
	u32			m_seed;
	u32			m_ncpu;
	u64			m_ops;			/* per CPU */
	u32			*m_ver;			/* [a] [file][chunk]: last written */
	struct fsmix_cpu	*m_cpu;			/* m_ncpu of them */
};

static u32 fsmix_next(u32 *x)
{
	u32 v = *x ? *x : 0x6d2b79f5u;	/* xorshift32 */

	v ^= v << 13;
	v ^= v >> 17;
	v ^= v << 5;
	*x = v;
	return v;
}

static u32 fsmix_below(u32 *x, u32 n)
{
	return n ? fsmix_next(x) % n : 0;
}

#define fsmix_err(c, i, ...)						\
	do {								\
		kprintf("fsmix: cpu %u: ", (unsigned)(i));		\
		kprintf(__VA_ARGS__);					\
		(c)->c_errors++;					\
	} while (0)

static u32 *fsmix_ver(struct fsmix *m, u32 file, u32 chunk)
{
	return &m->m_ver[file * FSMIX_CHUNKS(m->m_ncpu) + chunk];
}

/* Version @ver of a chunk: 0 is never written (zeros); else the version, then a stream. */
static void fsmix_chunk(const struct fsmix *m, u32 file, u32 chunk, u32 ver, u8 *buf)
{
	u32 x = m->m_seed ^ (file << 24) ^ (chunk << 12) ^ (ver * 2654435761u), i;

	if (!ver) {
		memset(buf, 0, FSMIX_CHUNK);
		return;
	}
	memcpy(buf, &ver, 4);
	for (i = 4; i < FSMIX_CHUNK; i++)
		buf[i] = (u8)fsmix_next(&x);
}

static void fsmix_shared_path(const struct fsmix *m, u32 file, char *p)
{
	snprintf(p, FSMIX_PATH, "%s/s%u", m->m_dir, file);
}

static void fsmix_own_path(const struct fsmix *m, u32 cpu, u32 name, char *p)
{
	snprintf(p, FSMIX_PATH, "%s/c%u-%u", m->m_dir, cpu, name);
}

/* Write the next version of one of my chunks, then publish it. */
static void fsmix_swrite(struct fsmix *m, struct fsmix_cpu *c, u32 i)
{
	u32 file = fsmix_below(&c->c_rng, FSMIX_SHARED);
	u32 chunk = i + m->m_ncpu * fsmix_below(&c->c_rng, FSMIX_CHUNKS(m->m_ncpu) / m->m_ncpu);
	u32 ver = __atomic_load_n(fsmix_ver(m, file, chunk), __ATOMIC_RELAXED) + 1;
	char path[FSMIX_PATH];
	struct vfs_file *f;
	long n;
	int err;

	fsmix_shared_path(m, file, path);
	fsmix_chunk(m, file, chunk, ver, c->c_buf);
	err = vfs_open(path, VFS_O_WRONLY, 0, &f);
	if (err) {
		fsmix_err(c, i, "open %s: %s\n", path, errstr(err));
		return;
	}
	n = vfs_pwrite(f, c->c_buf, FSMIX_CHUNK, (u64)chunk * FSMIX_CHUNK);
	if (n != FSMIX_CHUNK)
		fsmix_err(c, i, "write %s chunk %u: %ld\n", path, chunk, n);
	else
		__atomic_store_n(fsmix_ver(m, file, chunk), ver, __ATOMIC_RELEASE);
	vfs_close(f);
}

/* Read any chunk: a whole version between what was published before and after (+1). */
static void fsmix_sread(struct fsmix *m, struct fsmix_cpu *c, u32 i)
{
	u32 file = fsmix_below(&c->c_rng, FSMIX_SHARED);
	u32 chunk = fsmix_below(&c->c_rng, FSMIX_CHUNKS(m->m_ncpu));
	u32 *pv = fsmix_ver(m, file, chunk), lo, hi, ver = 0;
	char path[FSMIX_PATH];
	struct vfs_file *f;
	long n;
	int err;

	fsmix_shared_path(m, file, path);
	err = vfs_open(path, VFS_O_RDONLY, 0, &f);
	if (err) {
		fsmix_err(c, i, "open %s: %s\n", path, errstr(err));
		return;
	}
	lo = __atomic_load_n(pv, __ATOMIC_ACQUIRE);
	n = vfs_pread(f, c->c_buf, FSMIX_CHUNK, (u64)chunk * FSMIX_CHUNK);
	hi = __atomic_load_n(pv, __ATOMIC_ACQUIRE);
	vfs_close(f);
	if (chunk % m->m_ncpu != i)
		hi++;			/* written, not yet published by its owner */
	if (n != FSMIX_CHUNK) {
		fsmix_err(c, i, "read %s chunk %u: %ld\n", path, chunk, n);
		return;
	}
	memcpy(&ver, c->c_buf, 4);
	if (ver < lo || ver > hi) {
		fsmix_err(c, i, "%s chunk %u holds version %u, expected %u..%u\n", path, chunk,
			  ver, lo, hi);
		return;
	}
	fsmix_chunk(m, file, chunk, ver, c->c_want);
	if (memcmp(c->c_buf, c->c_want, FSMIX_CHUNK))
		fsmix_err(c, i, "%s chunk %u: not version %u's bytes\n", path, chunk, ver);
}

/* Append @len bytes of @o's stream to its file (create: @flags VFS_O_CREAT | VFS_O_EXCL). */
static void fsmix_append(struct fsmix *m, struct fsmix_cpu *c, u32 i, struct fsmix_own *o,
			 u32 len, unsigned flags)
{
	char path[FSMIX_PATH];
	struct vfs_file *f;
	u32 k;
	long n;
	int err;

	fsmix_own_path(m, i, o->o_name, path);
	for (k = 0; k < len; k++)
		c->c_buf[k] = (u8)fsmix_next(&o->o_rng);
	err = vfs_open(path, VFS_O_WRONLY | VFS_O_APPEND | flags, 0644, &f);
	if (err) {
		fsmix_err(c, i, "open %s: %s\n", path, errstr(err));
		o->o_name = 0;
		return;
	}
	n = vfs_write(f, c->c_buf, len);
	vfs_close(f);
	if (n != (long)len) {
		fsmix_err(c, i, "append %s: %ld of %u\n", path, n, len);
		return;
	}
	o->o_size += len;
	o->o_crc = crc32(o->o_crc, c->c_buf, len);
}

/* Read my file back whole: its size and CRC as the model says. */
static void fsmix_verify(struct fsmix *m, struct fsmix_cpu *c, u32 i, struct fsmix_own *o)
{
	char path[FSMIX_PATH];
	struct vfs_file *f;
	u32 crc = 0, size = 0;
	long n;
	int err;

	fsmix_own_path(m, i, o->o_name, path);
	err = vfs_open(path, VFS_O_RDONLY, 0, &f);
	if (err) {
		fsmix_err(c, i, "open %s: %s\n", path, errstr(err));
		return;
	}
	while ((n = vfs_read(f, c->c_buf, FSMIX_BUF)) > 0) {
		crc = crc32(crc, c->c_buf, (size_t)n);
		size += (u32)n;
	}
	vfs_close(f);
	if (n < 0 || size != o->o_size || crc != o->o_crc)
		fsmix_err(c, i, "%s: size %u crc %08x (read %ld), model %u %08x\n", path, size, crc,
			  n, o->o_size, o->o_crc);
}

/* List the directory: my names in it are exactly my model's. */
static void fsmix_list(struct fsmix *m, struct fsmix_cpu *c, u32 i)
{
	struct vfs_dirent *de = (struct vfs_dirent *)c->c_buf;
	char prefix[16];
	struct vfs_file *f;
	u32 seen = 0, want = 0, k;
	u64 name;
	int r, s;

	snprintf(prefix, sizeof(prefix), "c%u-", i);
	r = vfs_open(m->m_dir, VFS_O_RDONLY | VFS_O_DIRECTORY, 0, &f);
	if (r) {
		fsmix_err(c, i, "open %s: %s\n", m->m_dir, errstr(r));
		return;
	}
	while ((r = vfs_readdir(f, de)) == 1) {
		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		if (str_to_u64(de->d_name + strlen(prefix), &name, false))
			name = 0;
		for (s = 0; s < FSMIX_OWN && (!name || c->c_own[s].o_name != name); s++)
			;
		if (s == FSMIX_OWN)
			fsmix_err(c, i, "%s/%s listed, not in the model\n", m->m_dir, de->d_name);
		else
			seen++;
	}
	vfs_close(f);
	for (k = 0; k < FSMIX_OWN; k++)
		want += c->c_own[k].o_name != 0;
	if (r < 0 || seen != want)
		fsmix_err(c, i, "listing: %u of my %u names (%d)\n", seen, want, r);
}

/* One operation on my own names. */
static void fsmix_own_op(struct fsmix *m, struct fsmix_cpu *c, u32 i)
{
	struct fsmix_own *o = &c->c_own[fsmix_below(&c->c_rng, FSMIX_OWN)];
	char from[FSMIX_PATH], to[FSMIX_PATH];
	u32 len = 1 + fsmix_below(&c->c_rng, FSMIX_MAX_WRITE);
	int err;

	if (!o->o_name) {				/* create */
		o->o_name = c->c_next++;
		o->o_size = 0;
		o->o_crc = 0;
		o->o_rng = fsmix_next(&c->c_rng);
		fsmix_append(m, c, i, o, len, VFS_O_CREAT | VFS_O_EXCL);
		return;
	}
	switch (fsmix_below(&c->c_rng, 5)) {
	case 0:
		if (o->o_size + len <= FSMIX_MAX_SIZE) {
			fsmix_append(m, c, i, o, len, 0);
			break;
		}
		__attribute__((fallthrough));	/* full: unlink it */
	case 1:
		fsmix_own_path(m, i, o->o_name, from);
		err = vfs_unlink(from);
		if (err)
			fsmix_err(c, i, "unlink %s: %s\n", from, errstr(err));
		o->o_name = 0;
		break;
	case 2:
		fsmix_own_path(m, i, o->o_name, from);
		o->o_name = c->c_next++;
		fsmix_own_path(m, i, o->o_name, to);
		err = vfs_rename(from, to);
		if (err) {
			fsmix_err(c, i, "rename %s %s: %s\n", from, to, errstr(err));
			o->o_name = 0;
		}
		break;
	case 3:
		fsmix_verify(m, c, i, o);
		break;
	default:
		fsmix_list(m, c, i);
		break;
	}
}

/* Share @i: m_ops operations from CPU number @i of the run. */
static void fsmix_share(void *data, u32 i)
{
	struct fsmix *m = data;
	struct fsmix_cpu *c = &m->m_cpu[i];
	u64 n;
	u32 r;

	for (n = 0; n < m->m_ops; n++) {
		r = fsmix_below(&c->c_rng, 10);
		if (r < 3)
			fsmix_swrite(m, c, i);
		else if (r < 6)
			fsmix_sread(m, c, i);
		else
			fsmix_own_op(m, c, i);
	}
}

/* DIR/mix and its shared files, all chunks at version 0 (a hole). */
static int fsmix_setup(struct fsmix *m)
{
	char path[FSMIX_PATH];
	struct vfs_file *f;
	u32 j;
	int err;

	err = vfs_mkdir(m->m_dir, 0755);
	if (err) {
		kprintf("fsmix: mkdir %s: %s\n", m->m_dir, errstr(err));
		return -ECANCELED;
	}
	for (j = 0; j < FSMIX_SHARED; j++) {
		fsmix_shared_path(m, j, path);
		err = vfs_open(path, VFS_O_WRONLY | VFS_O_CREAT | VFS_O_EXCL, 0644, &f);
		if (!err) {
			err = vfs_ftruncate(f, (u64)FSMIX_CHUNKS(m->m_ncpu) * FSMIX_CHUNK);
			vfs_close(f);
		}
		if (err) {
			kprintf("fsmix: %s: %s\n", path, errstr(err));
			return -ECANCELED;
		}
	}
	return 0;
}

/* The model's final state, one line a file. */
static void fsmix_print_model(struct fsmix *m)
{
	u8 *buf = m->m_cpu[0].c_want;
	char path[FSMIX_PATH];
	u32 i, j, k, crc;

	for (j = 0; j < FSMIX_SHARED; j++) {
		crc = 0;
		for (k = 0; k < FSMIX_CHUNKS(m->m_ncpu); k++) {
			fsmix_chunk(m, j, k, *fsmix_ver(m, j, k), buf);
			crc = crc32(crc, buf, FSMIX_CHUNK);
		}
		fsmix_shared_path(m, j, path);
		kprintf("FSMIX F %s %u %08x\n", path, FSMIX_CHUNKS(m->m_ncpu) * FSMIX_CHUNK, crc);
	}
	for (i = 0; i < m->m_ncpu; i++) {
		for (k = 0; k < FSMIX_OWN; k++) {
			const struct fsmix_own *o = &m->m_cpu[i].c_own[k];

			if (!o->o_name)
				continue;
			fsmix_own_path(m, i, o->o_name, path);
			kprintf("FSMIX F %s %u %08x\n", path, o->o_size, o->o_crc);
		}
	}
}

static void fsmix_free(struct fsmix *m)
{
	u32 i;

	for (i = 0; m->m_cpu && i < m->m_ncpu; i++) {
		kfree(m->m_cpu[i].c_buf);
		kfree(m->m_cpu[i].c_want);
	}
	kfree(m->m_cpu);
	kfree(m->m_ver);
	kfree(m);
}

static struct fsmix *fsmix_alloc(u32 ncpu)
{
	struct fsmix *m = kzalloc(sizeof(*m), GFP_KERNEL);
	u32 i;

	if (!m)
		return NULL;
	m->m_ncpu = ncpu;
	m->m_ver = kzalloc(FSMIX_SHARED * FSMIX_CHUNKS(ncpu) * sizeof(u32), GFP_KERNEL);
	m->m_cpu = kzalloc(ncpu * sizeof(*m->m_cpu), GFP_KERNEL);
	if (!m->m_ver || !m->m_cpu)
		goto fail;
	for (i = 0; i < ncpu; i++) {
		m->m_cpu[i].c_buf = kmalloc(FSMIX_BUF, GFP_KERNEL);
		m->m_cpu[i].c_want = kmalloc(2 * FSMIX_CHUNK, GFP_KERNEL);
		if (!m->m_cpu[i].c_buf || !m->m_cpu[i].c_want)
			goto fail;
	}
	return m;
fail:
	fsmix_free(m);
	return NULL;
}

static int cmd_fsmix(int argc, char **argv)
{
	u32 cpus[NR_CPUS], want = 1, ncpu, i, errors = 0, waits;
	struct fsmix *m;
	u64 seed, ops, v, t0;
	int err;

	if (argc < 4 || argc > 5 || str_to_u64(argv[2], &seed, false) ||
	    str_to_u64(argv[3], &ops, false) || strlen(argv[1]) > FSMIX_PATH - 24)
		return -EINVAL;
	if (argc == 5) {
		if (!strcmp(argv[4], "cpus=all"))
			want = NR_CPUS;
		else if (strncmp(argv[4], "cpus=", 5) || str_to_u64(argv[4] + 5, &v, false) ||
			 !v || v > NR_CPUS)
			return -EINVAL;
		else
			want = (u32)v;
	}
	ncpu = smp_run_cpus(want, cpus);
	if (ncpu < want && want < NR_CPUS)
		kprintf("fsmix: cpus=%u but %u online: running on %u\n", want, ncpu, ncpu);
	m = fsmix_alloc(ncpu);
	if (!m)
		return -ENOMEM;
	m->m_seed = (u32)(seed * 2654435761u) ^ 0x9e3779b9u;
	m->m_ops = ops;
	snprintf(m->m_dir, sizeof(m->m_dir), "%s/mix", strcmp(argv[1], "/") ? argv[1] : "");
	for (i = 0; i < ncpu; i++) {
		m->m_cpu[i].c_rng = m->m_seed + 0x10001u * (i + 1);
		m->m_cpu[i].c_next = 1;
	}
	err = fsmix_setup(m);
	if (err)
		goto free;
	waits = READ_ONCE(vfs_lock.m_contended);
	t0 = ktime_ns();
	if (smp_run_parallel(ncpu, fsmix_share, m) != ncpu) {
		kprintf("fsmix: a CPU went away during the run\n");
		err = -ECANCELED;
		goto free;
	}
	kprintf("fsmix: %llu operations on %u CPUs in %llu ms; vfs_lock waited for %u times\n",
		(unsigned long long)(ops * ncpu), ncpu,
		(unsigned long long)((ktime_ns() - t0) / NSEC_PER_MSEC),
		READ_ONCE(vfs_lock.m_contended) - waits);
	for (i = 0; i < ncpu; i++)
		errors += m->m_cpu[i].c_errors;
	fsmix_print_model(m);
	err = vfs_sync();
	if (err)
		kprintf("fsmix: sync: %s\n", errstr(err));
	kprintf("FSMIX DONE %llu %u %u\n", (unsigned long long)(ops * ncpu), ncpu, errors);
	if (errors || err)
		err = -EIO;
free:
	fsmix_free(m);
	return err;
}
SHELL_COMMAND("fsmix", cmd_fsmix, "fsmix DIR SEED N [cpus=K|all]",
	      "N random file operations per CPU in DIR/mix from K CPUs at once, checked against a model");
