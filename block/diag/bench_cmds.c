/*
 * The bench shell command: the Linux peer's workloads (block/diag/bench.h)
 * on a device, printing the peer's "BENCH ..." lines (block/diag/bench.c
 * runs them) and then a readable table.
 *
 *	bench DEV [WORKLOAD...]     e.g. bench nullb0 randread:qd=32:secs=5
 *	bench mm                    the memory allocator's figures
 *
 * DEV is what the registry knows ("sda", "sda2", "8:1", "PARTUUID=..."),
 * opened for writing only when a workload writes, and I/O goes through
 * submit_bio() with its partition remap; failing that, a queue by name
 * (a queue the registry does not know, such as a self-test's).  Without
 * workloads: seqread 1 GiB, then randread 4K at qd=1 and qd=32, 5 s each.
 * Buffers (one aio slot per unit of the deepest qd asked for, each the
 * largest bs) come from any zone, highmem included.  Fails when any
 * workload failed, did not verify or was stopped with Ctrl-C.
 */
#include "block/diag/bench_run.h"
#include "block/bdev.h"
#include "block/genhd.h"
#include "block/blkdev.h"
#include "block/elevator.h"
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/shell.h"
#include "kernel/time.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/slab.h"
#include "block/blk-mq.h"
#include "lib/string.h"

static void bench_warn(const char *key, void *arg)
{
	kprintf("BENCH warn unknown-key %s\n", key);
}

static void bench_print_info(struct bench_ctx *c, const char *dev)
{
	struct request_queue *q = c->c_q;
	char depth[12] = "1";

	if (q->q_tags)
		snprintf(depth, sizeof(depth), "%u", q->q_tags->bqt_depth);
	else if (queue_is_mq(q))
		snprintf(depth, sizeof(depth), "%ux%u", q->q_nr_hw_queues,
			 q->q_tag_set->queue_depth);
	kprintf("BENCH info dev=%s size_MiB=%llu driver=%s xfer_mode=none queue_depth=%s sched=%s max_sectors_kb=%u max_hw_sectors_kb=%u max_segments=%u nr_requests=%u\n",
	       dev, (unsigned long long)(c->c_devsize >> 20),
	       queue_is_mq(q) ? "blk-mq" : q->q_request_fn ? "request_fn" : "make_request", depth,
	       q->q_elevator ? q->q_elevator->e_type->et_name : "none",
	       q->q_limits.lim_max_sectors / 2, q->q_limits.lim_max_hw_sectors / 2,
	       q->q_limits.lim_max_segments, q->q_nr_requests);
}

static void bench_table(struct bench_ctx *c)
{
	char mibps[24], iops[24], secs[24];
	u32 i;

	kprintf("%-10s %4s %10s %9s %10s %10s\n", "workload", "qd", "ios", "secs", "MiB/s", "IOPS");
	for (i = 0; i < c->c_nres; i++) {
		struct bench_result *r = &c->c_res[i];

		bench_fixed(secs, sizeof(secs), r->r_ns, NSEC_PER_SEC, 3);
		bench_fixed(mibps, sizeof(mibps), r->r_bytes * (NSEC_PER_SEC / 1000), (r->r_ns / 1000) << 20, 1);
		bench_fixed(iops, sizeof(iops), r->r_ios * NSEC_PER_SEC, r->r_ns, 0);
		kprintf("%-10s %4u %10llu %9s %10s %10s\n", r->r_name, r->r_qd,
		       (unsigned long long)r->r_ios, secs, mibps, iops);
	}
}

static const char *const bench_defaults[] = {
	"seqread:mib=1024:bs=1M", "randread:qd=1:bs=4K:secs=5", "randread:qd=32:bs=4K:secs=5",
};

static void bench_run_one(struct bench_ctx *c, char *spec)
{
	struct bench_work w;

	bench_parse_work(spec, &w, bench_warn, NULL);
	bench_run_work(c, &w);
}

/* Does any of the n workload arguments (NULL: the defaults) write? */
static bool bench_writes(char **args, int n)
{
	static const char *const writers[] = { "seqwrite", "randwrite", "verify", "fill", "flush",
					       "mixed" };
	const char *a, *p;
	unsigned k;
	int i;

	for (i = 0; args && i < n; i++)
		for (a = args[i]; a; a = (p = strchr(a, ',')) ? p + 1 : NULL)
			for (k = 0; k < ARRAY_SIZE(writers); k++)
				if (str_starts(a, writers[k]))
					return true;
	return false;
}

/*
 * Find and open the device: the registry first, then a bare queue.
 * Return: 0, or -ECANCELED after saying why.
 */
static int bench_open(struct bench_ctx *c, const char *dev, char **args, int n)
{
	int err;

	c->c_bdev = bdev_lookup(dev);
	if (c->c_bdev) {
		c->c_mode = FMODE_READ | (bench_writes(args, n) ? FMODE_WRITE : 0);
		err = bdev_open(c->c_bdev, c->c_mode, NULL);
		if (err) {
			kprintf("bench: %s: %s\n", dev, errstr(err));
			bdev_put(c->c_bdev);
			c->c_bdev = NULL;
			return -ECANCELED;
		}
		c->c_q = bdev_get_queue(c->c_bdev);
		c->c_devsize = bdev_nr_sects(c->c_bdev) << SECTOR_SHIFT;
		return 0;
	}
	c->c_q = blk_queue_find(dev);
	if (!c->c_q || !c->c_q->q_nr_sectors) {
		kprintf("bench: no device %s\n", dev);
		return -ECANCELED;
	}
	c->c_devsize = c->c_q->q_nr_sectors << SECTOR_SHIFT;
	return 0;
}

static int cmd_bench(int argc, char **argv)
{
	struct bench_ctx *c;
	char spec[128], *p, *tok;
	u32 qd = 1, bs = 4096;
	int i, n, err = 0;

	if (argc < 2)
		return -EINVAL;
	if (argc == 2 && !strcmp(argv[1], "mm"))
		return mm_bench();	/* the memory allocator's figures */
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	n = argc > 2 ? argc - 2 : (int)ARRAY_SIZE(bench_defaults);
	err = bench_open(c, argv[1], argc > 2 ? argv + 2 : NULL, n);
	if (err)
		goto free_ctx;
	/* Size the buffers for the deepest and largest workload. */
	for (i = 0; i < n; i++) {
		str_copy(spec, argc > 2 ? argv[i + 2] : bench_defaults[i], sizeof(spec));
		for (p = spec; (tok = p); ) {
			struct bench_work w;

			p = strchr(p, ',');
			if (p)
				*p++ = 0;
			bench_parse_work(tok, &w, NULL, NULL);
			qd = max(qd, (u32)w.bw_qd);
			bs = max(bs, (u32)min(max(w.bw_bs, w.bw_wbs), (u64)BENCH_MAX_BS));
		}
	}
	if (bench_alloc_slots(c, qd, bs)) {
		kprintf("bench: no memory for %u buffers of %u bytes\n", qd, bs);
		err = -ECANCELED;
		goto close_dev;
	}
	bench_print_info(c, argv[1]);
	for (i = 0; i < n && !shell_interrupted(); i++) {
		str_copy(spec, argc > 2 ? argv[i + 2] : bench_defaults[i], sizeof(spec));
		for (p = spec; (tok = p); ) {
			p = strchr(p, ',');
			if (p)
				*p++ = 0;
			if (*tok)
				bench_run_one(c, tok);
		}
	}
	bench_table(c);
	aio_exit(&c->c_aio);
	if (c->c_failed)
		err = -ECANCELED;	/* the BENCH lines said what failed */
close_dev:
	if (c->c_bdev) {
		bdev_close(c->c_bdev, c->c_mode, NULL);
		bdev_put(c->c_bdev);
	}
free_ctx:
	kfree(c);
	return err;
}
SHELL_COMMAND("bench", cmd_bench, "bench DEV [WORKLOAD...] | bench mm",
	      "run the Linux peer's workloads (seqread, randread:qd=32, verify, ...) on a device");
