/*
 * Shell commands over the block layer's own view of devices (queues by
 * name, as drivers named them), so they work without the registry:
 *
 *	iostat [DEV]                 per-queue counters, one line per queue
 *	blktrace DEV [on|off|clear]  the trace ring: start, stop, or print
 *	elevator DEV [NAME] [key=value...]  show or switch the scheduler, tune it
 *
 * Output formats are stable (tests read them); see blk_stat_format() for
 * the iostat columns.
 */
#include "block/blkdev.h"
#include "block/blk-trace.h"
#include "block/elevator.h"
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/shell.h"
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

static int cmd_iostat(int argc, char **argv)
{
	struct request_queue *q;
	char line[256];

	kprintf("%-8s %s\n", "device",
	       "rd_ios rd_merges rd_sectors rd_ms wr_ios wr_merges wr_sectors wr_ms "
	       "in_flight busy_ms splits bounces requeues timeouts errors flushes tags");
	if (argc > 1) {
		q = find_or_complain("iostat", argv[1]);
		if (!q)
			return -ECANCELED;
		blk_stat_format(q, line, sizeof(line));
		kprintf("%s\n", line);
		return 0;
	}
	for (q = blk_queue_next(NULL); q; q = blk_queue_next(q)) {
		blk_stat_format(q, line, sizeof(line));
		kprintf("%s\n", line);
	}
	return 0;
}
SHELL_COMMAND("iostat", cmd_iostat, "iostat [DEV]",
	      "block I/O statistics: ios, merges, sectors, splits, bounces, tags...");

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
		kprintf("blktrace: %s: tracing is off (blktrace %s on)\n", argv[1], argv[1]);
		return -ECANCELED;
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
	if (!q->q_elevator) {
		kprintf("elevator: %s takes bios directly (no scheduler)\n", argv[1]);
		return -ECANCELED;
	}
	for (i = 2; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq) {
			err = elevator_switch(q, argv[i]);
			if (err)
				return err;
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
		if (t == q->q_elevator->e_type)
			kprintf(" [%s]", t->et_name);
		else
			kprintf(" %s", t->et_name);
	kprintf("\n");
	t = q->q_elevator->e_type;
	for (i = 0; i < (int)t->et_nr_tunables; i++)
		if (!elv_tunable_get(q, t->et_tunables[i].tn_name, &v))
			kprintf("  %s=%u %s\n", t->et_tunables[i].tn_name, v, t->et_tunables[i].tn_unit);
	return 0;
}
SHELL_COMMAND("elevator", cmd_elevator, "elevator DEV [NAME] [key=value...]",
	      "show or switch a device's I/O scheduler, and set its tunables");
