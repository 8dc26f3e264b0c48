/*
 * stress: LBA-stamped data-integrity stress on any block device, through
 * the block layer (bios, the elevator, tags, bounce, split, merge):
 *
 *	stress DEV[,DEV...] [ios=N | secs=N] [qd=N] [seed=S] [off=SIZE] [span=SIZE]
 *	       [max=SECTORS] [op=both|write|read] [high=1] [cpus=N|all]
 *	       [at=N during='CMD']
 *
 * Every 512-byte sector written carries the Linux peer's pattern
 * (block/diag/bench.h): word 0 its absolute disk LBA, word 1 a seed, the rest
 * derived from both, so a host tool (tools/lbapattern) can check an image
 * afterwards.  Sizes are bench's: a bare number is MiB, "2048s" sectors.
 *
 * Three phases on [off, off + span) of each device, all devices at once
 * with qd I/Os in flight on each: random reads, writes and flushes, each
 * read checking the generation last written; a stamped sweep of the
 * range (then a flush); the sweep read back and checked (block/diag/
 * stress.c says how).  op=write: the first two, op=read: the last (the
 * device opened read-only); ios=0 skips the random phase.  during='CMD'
 * runs a shell command once, after the at-th submission, while a driver
 * holds a request (a reset under load: during='ahcireset sda port').
 * cpus=N runs it from N CPUs at once (all: every CPU online), each on its
 * own slice of the range on every device named (stress_on_cpus), all
 * slices with the same seed: DEV1,DEV2 cpus=all keeps every device busy
 * from every CPU at the same time.
 *
 * Output, stable for tests and people (one line each):
 *	STRESS eio DEV op=read|write|flush lba=L n=N err=E   a failed I/O
 *	STRESS bad DEV lba=L w0=X w1=Y seed=S                a sector that did not verify
 *	STRESS DEV ios=... off=O sectors=N seed=S ... eio=E bad=B maxtags=T
 *	       above4g=P bounces=B requeues=R cpu=C start=T ms=M
 *	       result=PASS|FAIL|STOPPED
 * one line per device and CPU: off/sectors its slice, cpu the CPU that
 * submitted it, start the ktime_ms() it began at and ms how long it took
 * (so a test sees the shares overlap); bounces and requeues are the
 * queue's, shared by every CPU.
 * plus a progress line; Ctrl-C stops after the I/O in flight.  Returns
 * -EIO when an I/O failed or a sector did not verify.
 */
#include "block/diag/stress_run.h"
#include "block/bdev.h"
#include "block/blkdev.h"
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/shell.h"
#include "kernel/smp.h"
#include "kernel/time.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

/*
 * The key=value arguments after the device list.  0, -EINVAL, or
 * -ECANCELED for a bad cpus= (said here: the usage cannot say why).
 */
static int stress_parse(struct stress *st, int argc, char **argv)
{
	u64 v;
	int i;

	st->s_qd = STRESS_DEF_QD;
	st->s_seed = 1;
	st->s_span = STRESS_DEF_SPAN;
	st->s_max = STRESS_DEF_MAX;
	st->s_ios = STRESS_DEF_IOS;
	st->s_write = st->s_read = true;
	st->s_cpus = 1;
	for (i = 2; i < argc; i++) {
		char *k = argv[i], *eq = strchr(k, '=');

		if (!eq)
			return -EINVAL;
		*eq++ = '\0';
		if (!strcmp(k, "during")) {
			if (strlen(eq) >= sizeof(st->s_during))
				return -EINVAL;
			memcpy(st->s_during, eq, strlen(eq) + 1);
		} else if (!strcmp(k, "op")) {
			st->s_write = strcmp(eq, "read") != 0;
			st->s_read = strcmp(eq, "write") != 0;
			if (strcmp(eq, "read") && strcmp(eq, "write") && strcmp(eq, "both"))
				return -EINVAL;
		} else if (!strcmp(k, "cpus") && !strcmp(eq, "all")) {
			st->s_cpus = NR_CPUS;
		} else if (!strcmp(k, "cpus") && (str_to_u64(eq, &v, false) || !v ||
						  v > NR_CPUS)) {
			kprintf("stress: cpus=%s: want 1 to %u, or all\n", eq, NR_CPUS);
			return -ECANCELED;
		} else if (!strcmp(k, "off") || !strcmp(k, "span")) {
			v = bench_parse_size(eq, 1 << 20);
			if (v % SECTOR_SIZE || (!strcmp(k, "span") && !v))
				return -EINVAL;
			*(!strcmp(k, "off") ? &st->s_off : &st->s_span) = v;
		} else if (str_to_u64(eq, &v, false)) {
			return -EINVAL;
		} else if (!strcmp(k, "ios") && v <= 0xffffffffu) {
			st->s_ios = (u32)v;
		} else if (!strcmp(k, "secs") && v && v < 86400) {
			st->s_secs_ms = v * 1000;
		} else if (!strcmp(k, "qd") && v && v <= STRESS_MAX_QD) {
			st->s_qd = (u32)v;
		} else if (!strcmp(k, "seed")) {
			st->s_seed = v;
		} else if (!strcmp(k, "max") && v && v <= STRESS_MAX_SECT) {
			st->s_max = (u32)v;
		} else if (!strcmp(k, "high") && v <= 1) {
			st->s_high = v;
		} else if (!strcmp(k, "at") && v && v <= 0xffffffffu) {
			st->s_at = (u32)v;
		} else if (!strcmp(k, "cpus") && v && v <= NR_CPUS) {
			st->s_cpus = (u32)v;
		} else {
			return -EINVAL;
		}
	}
	return !st->s_at == !st->s_during[0] ? 0 : -EINVAL;
}

static void stress_close(struct stress *st, struct stress_dev *d)
{
	stress_dev_free(d);
	bdev_close(d->d_bdev, FMODE_READ | (st->s_write ? FMODE_WRITE : 0), NULL);
	bdev_put(d->d_bdev);
	kfree(d);
}

/* Open name for st's range.  The device, or NULL with *err set (and said). */
static struct stress_dev *stress_open(struct stress *st, const char *name, int *err)
{
	fmode_t mode = FMODE_READ | (st->s_write ? FMODE_WRITE : 0);
	struct stress_dev *d = kzalloc(sizeof(*d), GFP_KERNEL);
	sector_t cap, off = st->s_off / SECTOR_SIZE;

	*err = -ENOMEM;
	if (!d)
		return NULL;
	d->d_bdev = bdev_lookup(name);
	if (!d->d_bdev) {
		kprintf("stress: %s: no such block device\n", name);
		*err = -ECANCELED;
		goto free_d;
	}
	*err = bdev_open(d->d_bdev, mode, NULL);
	if (*err)
		goto put_bdev;	/* the shell says why: "read-only file system" */
	d->d_q = bdev_get_queue(d->d_bdev);
	cap = bdev_nr_sects(d->d_bdev);
	if (off >= cap) {
		kprintf("stress: nothing at sector %llu of %s (%llu sectors)\n",
		       (unsigned long long)off, name, (unsigned long long)cap);
		*err = -ECANCELED;
		goto close_bdev;
	}
	d->d_off = off;
	d->d_sectors = (u32)min(min(st->s_span / SECTOR_SIZE, (u64)(cap - off)), (u64)0x7fffffff);
	d->d_base = d->d_bdev->bd_start;
	*err = stress_dev_init(st, d);
	if (*err)
		goto close_bdev;
	return d;

close_bdev:
	bdev_close(d->d_bdev, mode, NULL);
put_bdev:
	bdev_put(d->d_bdev);
free_d:
	kfree(d);
	return NULL;
}

/*
 * d's line for the share that ran on cpu from ktime_ms() t0 until now;
 * STOPPED: interrupted before the end, with nothing wrong so far.
 */
static int stress_report(struct stress *st, struct stress_dev *d, u32 cpu, u64 t0)
{
	struct request_queue *q = d->d_q;
	bool pass = !d->d_eio && !d->d_bad;

	kprintf("STRESS %s ios=%llu reads=%llu writes=%llu flushes=%llu off=%llu sectors=%u"
	       " seed=%llu qd=%u checked=%llu eio=%llu bad=%llu maxtags=%u above4g=%llu"
	       " bounces=%llu requeues=%llu cpu=%u start=%llu ms=%llu result=%s\n",
	       d->d_bdev->bd_name,
	       (unsigned long long)(d->d_count[STRESS_READ] + d->d_count[STRESS_WRITE] +
				    d->d_count[STRESS_FLUSH]),
	       (unsigned long long)d->d_count[STRESS_READ],
	       (unsigned long long)d->d_count[STRESS_WRITE],
	       (unsigned long long)d->d_count[STRESS_FLUSH], (unsigned long long)d->d_off,
	       d->d_sectors, (unsigned long long)st->s_seed, st->s_qd,
	       (unsigned long long)d->d_checked, (unsigned long long)d->d_eio,
	       (unsigned long long)d->d_bad, d->d_maxtags, (unsigned long long)d->d_above4g,
	       (unsigned long long)q->q_stats.st_bounces,
	       (unsigned long long)q->q_stats.st_requeues, cpu, (unsigned long long)t0,
	       (unsigned long long)(ktime_ms() - t0),
	       !pass ? "FAIL" : st->s_aio.ac_stop ? "STOPPED" : "PASS");
	return pass ? 0 : -EIO;
}

/* Open the devices of names (modified), run st on them, report and close. */
static int stress_devices(struct stress *st, char *names)
{
	char *name, *next;
	u32 cpu = smp_processor_id(), i;	/* work stays on its CPU */
	int err = 0, res;
	u64 t0;

	for (name = names; name && !err; name = next) {
		next = strchr(name, ',');
		if (next)
			*next++ = '\0';
		if (st->s_ndev == STRESS_MAX_DEVS) {
			err = -EINVAL;
			break;
		}
		st->s_dev[st->s_ndev] = stress_open(st, name, &err);
		if (st->s_dev[st->s_ndev])
			st->s_ndev++;
	}
	if (err)
		goto close;
	t0 = ktime_ms();
	progress_start_share(&st->s_pg, "stress", 0, st->s_pg_leader);
	err = stress_run(st);
	progress_end(&st->s_pg, st->s_aio.ac_bytes);
	if (err == -ETIMEDOUT) {
		kprintf("stress: no completion in %u ms; giving up\n", STRESS_STALL_MS);
		return err;	/* bios may still point into the slots: leave it all */
	}
	for (i = 0; i < st->s_ndev; i++) {
		res = stress_report(st, st->s_dev[i], cpu, t0);
		err = err ? err : res;
	}
close:
	for (i = 0; i < st->s_ndev; i++)
		stress_close(st, st->s_dev[i]);
	return err;
}

/*
 * cpus=N: N shares, each on its own CPU, each with the devices' range cut
 * in N pieces (whole pages), so the CPUs stamp different sectors and the
 * range checks from the host as one.  Share 0 runs here and alone runs
 * during= and watches for Ctrl-C.
 */
struct stress_cpus {
	struct stress	*p_st[NR_CPUS];
	char		p_names[NR_CPUS][SHELL_LINE_MAX];
	int		p_err[NR_CPUS];
};

static void stress_share(void *data, u32 idx)
{
	struct stress_cpus *p = data;

	p->p_err[idx] = stress_devices(p->p_st[idx], p->p_names[idx]);
	if (p->p_err[idx] != -ETIMEDOUT)
		kfree(p->p_st[idx]);
}

static int stress_on_cpus(struct stress *st, const char *names)
{
	struct stress_cpus *p = kzalloc(sizeof(*p), GFP_KERNEL);
	u32 cpus[NR_CPUS], n, i;
	u64 piece;
	int err = 0;

	n = smp_run_cpus(st->s_cpus, cpus);
	piece = st->s_span / n / PAGE_SIZE * PAGE_SIZE;
	if (!p || !piece) {
		kprintf("stress: %s\n", p ? "span too small for cpus=" : "no memory");
		kfree(p);
		return p ? -EINVAL : -ENOMEM;
	}
	if (n < st->s_cpus && st->s_cpus < NR_CPUS)
		kprintf("stress: cpus=%u but %u online: running on %u\n", st->s_cpus, n, n);
	for (i = 0; i < n; i++) {
		p->p_st[i] = kmalloc(sizeof(*st), GFP_KERNEL);
		if (!p->p_st[i]) {
			err = -ENOMEM;
			break;
		}
		memcpy(p->p_st[i], st, sizeof(*st));
		p->p_st[i]->s_off = st->s_off + i * piece;
		p->p_st[i]->s_span = i + 1 < n ? piece : st->s_span - i * piece;
		if (i) {
			p->p_st[i]->s_at = 0;
			p->p_st[i]->s_during[0] = '\0';
			p->p_st[i]->s_pg_leader = &p->p_st[0]->s_pg;
		}
		str_copy(p->p_names[i], names, sizeof(p->p_names[i]));
	}
	if (err) {
		for (i = 0; i < n; i++)
			kfree(p->p_st[i]);
		goto out;
	}
	smp_run_parallel(n, stress_share, p);	/* each share frees its st */
	for (i = 0; i < n && !err; i++)
		err = p->p_err[i];
out:
	kfree(p);
	return err;
}

static int cmd_stress(int argc, char **argv)
{
	struct stress *st;
	int err;

	if (argc < 2)
		return -EINVAL;
	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	err = stress_parse(st, argc, argv);
	if (!err && st->s_cpus > 1)
		err = stress_on_cpus(st, argv[1]);
	else if (!err)
		err = stress_devices(st, argv[1]);
	if (err != -ETIMEDOUT || st->s_cpus > 1)
		kfree(st);
	return err;
}
SHELL_COMMAND("stress", cmd_stress,
	      "stress DEV[,DEV...] [ios=N|secs=N] [qd=N] [seed=S] [off=SIZE] [span=SIZE] [max=SECTORS] [op=both|write|read] [high=1] [cpus=N|all] [at=N during='CMD']",
	      "LBA-stamped random read/write/flush stress, then a stamped sweep checked back (destroys data)");
