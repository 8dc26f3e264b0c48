/*
 * Shell commands over the block layer's own view of devices (queues by
 * name, as drivers named them), so they work without the registry:
 *
 *	iostat [DEV]                 per-queue counters, one line per queue
 *	blktrace DEV [on|off|clear]  the trace ring: start, stop, or print
 *	                             (while off: a note, the ring is empty)
 *	elevator DEV [NAME] [key=value...]  show or switch the scheduler, tune it
 *
 * Output formats are stable (tests read them); see blk_stat_format() for
 * the iostat columns.
 */
#include "block/blk-mq.h"
#include "block/blkdev.h"
#include "block/blk-trace.h"
#include "block/blk-mq.h"
#include "block/elevator.h"
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/shell.h"
#include "kernel/time.h"
#include "kernel/completion.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

#define BLKTRACE_PRINT_MAX	BLK_TRACE_ENTRIES

static struct request_queue *find_or_complain(const char *cmd, const char *name)
{
	struct request_queue *q = blk_queue_find(name);

	if (!q)
		kprintf("%s: no device %s\n", cmd, name);
	return q;
}

#define IOSTAT_MAX_QUEUES	32	/* devices one interval report keeps */


/* x.y with one decimal from a value scaled by 10. */
#define D10(v)	(unsigned long long)((v) / 10), (unsigned)((v) % 10)

/*
 * One report line for q: the raw counters since boot (interval 0, the
 * first report), or rates over the last interval (ms) from the previous
 * snapshot, as sysstat's iostat prints them; -x adds merges, waits,
 * queue size and utilisation.
 */
static void iostat_line(struct request_queue *q, const struct blk_stats *now,
			const struct blk_stats *then, u64 ms, bool extended)
{
	u64 rd = now->st_ios[0] - then->st_ios[0], wr = now->st_ios[1] - then->st_ios[1];
	u64 rkb = (now->st_sectors[0] - then->st_sectors[0]) / 2;
	u64 wkb = (now->st_sectors[1] - then->st_sectors[1]) / 2;
	u64 per = ms ? ms : 1;	/* rates per second, scaled by 10 */

	if (!extended) {
		kprintf("%-8s %9llu.%u %11llu.%u %11llu.%u %11llu %11llu\n", q->q_name,
			D10((rd + wr) * 10000 / per), D10(rkb * 10000 / per),
			D10(wkb * 10000 / per), (unsigned long long)rkb, (unsigned long long)wkb);
		return;
	}
	{
		u64 rm = now->st_merges[0] - then->st_merges[0];
		u64 wm = now->st_merges[1] - then->st_merges[1];
		u64 rt = (now->st_ticks_ns[0] - then->st_ticks_ns[0]) / 100000;	/* 0.1 ms */
		u64 wt = (now->st_ticks_ns[1] - then->st_ticks_ns[1]) / 100000;
		u64 util = (now->st_busy_ms - then->st_busy_ms) * 1000 / per;	/* 0.1 % */

		kprintf("%-8s %7llu.%u %7llu.%u %9llu.%u %9llu.%u %7llu.%u %7llu.%u %7llu.%u %7llu.%u %5llu.%u\n",
			q->q_name, D10(rd * 10000 / per), D10(wr * 10000 / per),
			D10(rkb * 10000 / per), D10(wkb * 10000 / per),
			D10(rm * 10000 / per), D10(wm * 10000 / per),
			D10(rd ? rt / rd : 0), D10(wr ? wt / wr : 0), D10(min(util, 1000ULL)));
	}
}

/* iostat [-x] [DEV] [INTERVAL [COUNT]] */
static int cmd_iostat(int argc, char **argv)
{
	struct request_queue *qs[IOSTAT_MAX_QUEUES], *q;
	struct blk_stats prev[IOSTAT_MAX_QUEUES], now;
	static const struct blk_stats zero;
	u64 interval = 0, count = 1, t0, elapsed, r;
	bool extended = false, raw = true;
	const char *dev = NULL;
	unsigned n = 0, i;
	int a = 1;

	if (a < argc && !strcmp(argv[a], "-x")) {
		extended = true;
		raw = false;
		a++;
	}
	if (a < argc && (argv[a][0] < '0' || argv[a][0] > '9'))
		dev = argv[a++];
	if (a < argc) {
		if (str_to_u64(argv[a++], &interval, false) || interval == 0)
			return -EINVAL;
		count = ~0ULL;
		raw = false;
	}
	if (a < argc && (str_to_u64(argv[a++], &count, false) || count == 0))
		return -EINVAL;
	if (a != argc)
		return -EINVAL;

	if (dev) {
		q = find_or_complain("iostat", dev);
		if (!q)
			return -ECANCELED;
		qs[n++] = q;
	} else {
		for (q = blk_queue_next(NULL); q && n < IOSTAT_MAX_QUEUES; q = blk_queue_next(q))
			qs[n++] = q;
	}
	if (raw) {	/* the plain form: every counter since boot */
		char line[256];

		kprintf("%-8s %s\n", "device",
			"rd_ios rd_merges rd_sectors rd_ms wr_ios wr_merges wr_sectors wr_ms "
			"in_flight busy_ms splits bounces requeues timeouts errors flushes tags");
		for (i = 0; i < n; i++) {
			blk_stat_format(qs[i], line, sizeof(line));
			kprintf("%s\n", line);
		}
		return 0;
	}
	for (i = 0; i < n; i++)
		prev[i] = zero;
	t0 = ktime_ms();
	elapsed = t0;	/* the first report covers the time since boot */
	for (r = 0; r < count; r++) {
		if (extended)
			kprintf("%-8s %9s %9s %11s %11s %9s %9s %9s %9s %7s\n", "device", "r/s", "w/s",
				"rkB/s", "wkB/s", "rrqm/s", "wrqm/s", "r_await", "w_await", "%util");
		else
			kprintf("%-8s %11s %13s %13s %11s %11s\n", "device", "tps", "kB_read/s",
				"kB_wrtn/s", "kB_read", "kB_wrtn");
		for (i = 0; i < n; i++) {
			blk_stat_read(qs[i], &now);
			iostat_line(qs[i], &now, &prev[i], elapsed, extended);
			prev[i] = now;
		}
		if (r + 1 == count)
			break;
		kprintf("\n");
		t0 = ktime_ms();
		while (ktime_ms() - t0 < interval * 1000) {
			if (shell_interrupted())
				return 0;
			cpu_idle_once();
		}
		elapsed = ktime_ms() - t0;
	}
	return 0;
}
SHELL_COMMAND("iostat", cmd_iostat, "iostat [-x] [DEV] [INTERVAL [COUNT]]",
	      "block I/O statistics: all counters, or rates per INTERVAL seconds (-x: extended)");

static int cmd_blktrace(int argc, char **argv)
{
	struct blk_trace_event *ev;
	struct request_queue *q;
	u32 n, i;

	if (argc < 2)
		return -EINVAL;
	q = find_or_complain("blktrace", argv[1]);
	if (!q)
		return -ECANCELED;
	if (argc > 2) {
		if (!strcmp(argv[2], "on"))
			return blk_trace_enable(q);
		if (!strcmp(argv[2], "off")) {
			blk_trace_disable(q);
			return 0;
		}
		if (!strcmp(argv[2], "clear")) {
			blk_trace_clear(q);
			return 0;
		}
		return -EINVAL;
	}
	if (!q->q_trace) {
		/* Off means no ring: an empty listing, not a failure. */
		kprintf("blktrace: %s: tracing is off (blktrace %s on)\n", argv[1], argv[1]);
		return 0;
	}
	ev = kcalloc(BLKTRACE_PRINT_MAX, sizeof(*ev), GFP_KERNEL);
	if (!ev)
		return -ENOMEM;
	n = blk_trace_read(q, 0, ev, BLKTRACE_PRINT_MAX);
	for (i = 0; i < n; i++)
		kprintf("%8llu %10llu.%06llu %-2s %c%s%s %llu + %u [%d]\n",
		       (unsigned long long)ev[i].te_seq,
		       (unsigned long long)(ev[i].te_time_ns / 1000000000ULL),
		       (unsigned long long)(ev[i].te_time_ns / 1000 % 1000000),
		       ev[i].te_act < BLK_TA_NR ? blk_trace_act_names[ev[i].te_act] : "?",
		       ev[i].te_rw & REQ_DISCARD ? 'D' : ev[i].te_rw & REQ_WRITE_ZEROES ? 'Z' :
		       ev[i].te_rw & REQ_WRITE ? 'W' : 'R',
		       ev[i].te_rw & REQ_FUA ? "F" : "",
		       ev[i].te_rw & REQ_PREFLUSH ? "P" : "",
		       (unsigned long long)ev[i].te_sector, ev[i].te_bytes >> SECTOR_SHIFT,
		       ev[i].te_arg);
	kfree(ev);
	return 0;
}
SHELL_COMMAND("blktrace", cmd_blktrace, "blktrace DEV [on|off|clear]",
	      "print a device's block trace ring (Q M F RM X B P U I D S T C R TO FL E)");

static int cmd_elevator(int argc, char **argv)
{
	const struct elevator_type *t;
	struct request_queue *q;
	int i, err;
	u64 val;
	u32 v;

	if (argc < 2)
		return -EINVAL;
	q = find_or_complain("elevator", argv[1]);
	if (!q)
		return -ECANCELED;
	if (!q->q_elevator && !queue_is_mq(q)) {
		kprintf("elevator: %s takes bios directly (no scheduler)\n", argv[1]);
		return -ECANCELED;
	}
	for (i = 2; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq) {
			err = elevator_switch(q, argv[i]);
			if (err == -EINVAL)
				kprintf("elevator: %s: no scheduler named %s\n", argv[1], argv[i]);
			if (err)
				return err == -EINVAL ? -ECANCELED : err;
			continue;
		}
		*eq = 0;
		if (str_to_u64(eq + 1, &val, false) || val > ~0u)
			return -EINVAL;
		err = elv_tunable_set(q, argv[i], (u32)val);
		if (err)
			return err;
	}
	kprintf("%s:", argv[1]);
	for (i = 0; (t = elv_type_at(i)); i++)
		if (q->q_elevator && t == q->q_elevator->e_type)
			kprintf(" [%s]", t->et_name);
		else
			kprintf(" %s", t->et_name);
	if (queue_is_mq(q))	/* software queues only: mq queues can go without */
		kprintf(q->q_elevator ? " %s" : " [%s]", ELV_NONE_NAME);
	kprintf("\n");
	if (!q->q_elevator)
		return 0;
	t = q->q_elevator->e_type;
	for (i = 0; i < (int)t->et_nr_tunables; i++)
		if (!elv_tunable_get(q, t->et_tunables[i].tn_name, &v))
			kprintf("  %s=%u %s\n", t->et_tunables[i].tn_name, v, t->et_tunables[i].tn_unit);
	return 0;
}
SHELL_COMMAND("elevator", cmd_elevator, "elevator DEV [NAME] [key=value...]",
	      "show or switch a device's I/O scheduler, and set its tunables");
