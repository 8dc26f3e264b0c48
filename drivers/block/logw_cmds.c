/*
 * The shell's side of the write recorder (drivers/block/logw.c):
 *
 *   logw create DEV LOG [dropflush]   stack logwN over DEV, log to LOG
 *   logw stop NAME                    finish NAME's log; later writes fail
 *
 * Both disks must be named in writable= (and so must logwN, to write
 * through it).  "dropflush" is for the simulator's own test: flushes and
 * FUA are swallowed and not logged, so durability promises are broken.
 * stop prints the entry count and what went wrong, and fails if any
 * write went unrecorded.
 */
#include "drivers/block/logwvar.h"
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/shell.h"
#include "lib/string.h"

static int logw_cmd_create(int argc, char **argv)
{
	unsigned flags = 0;
	struct logw *lw;

	if (argc == 5 && !strcmp(argv[4], "dropflush"))
		flags |= LOGW_DROP_FLUSH;
	else if (argc != 4)
		return -EINVAL;
	lw = logw_create(argv[2], argv[3], flags);
	if (IS_ERR(lw))
		return -ECANCELED;	/* error already printed */
	kprintf("logw: %s over %s, log on %s\n", lw->lw_name, argv[2], argv[3]);
	return 0;
}

static int logw_cmd_stop(int argc, char **argv)
{
	struct logw *lw;
	int err;

	if (argc != 3)
		return -EINVAL;
	lw = logw_find(argv[2]);
	if (!lw) {
		kprintf("logw: %s: no such recorder\n", argv[2]);
		return -ECANCELED;
	}
	err = logw_stop(lw);
	kprintf("logw: %s: %llu entries, %llu log sectors, lost %llu, errors %llu, "
		"overlaps %llu\n", lw->lw_name, (unsigned long long)lw->lw_written,
		(unsigned long long)lw->lw_next_sector, (unsigned long long)lw->lw_lost,
		(unsigned long long)lw->lw_errors, (unsigned long long)lw->lw_overlaps);
	return err;
}

static int cmd_logw(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "create"))
		return logw_cmd_create(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "stop"))
		return logw_cmd_stop(argc, argv);
	return -EINVAL;
}
SHELL_COMMAND("logw", cmd_logw, "logw create DEV LOG [dropflush] | logw stop NAME",
	      "record every write, flush and FUA to DEV in a log on LOG (power-cut simulator)");
