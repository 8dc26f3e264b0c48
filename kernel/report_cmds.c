/*
 * `report': a read-only look at a machine's storage for a person in
 * front of it with no serial cable -- the GRUB menu's "disk report" entry
 * runs it (init=report) and leaves the shell prompt below its verdict.
 *
 * It is made of other shell commands only, so kernel/ depends on no
 * block or filesystem code (docs/DESIGN.md): storage controllers (lspci),
 * disks and partitions (lsblk, blkid), filesystems (mount, df), then a
 * short read benchmark of every disk lsblk listed (bench, reads only).
 * The disk names are taken from lsblk's output, a stable format, heard
 * through a console registered for that one command.  Nothing is
 * written: writable= is not given by the menu, so every disk is
 * read-only anyway.
 *
 * The last line is the verdict:
 *	report: VERDICT: PASS, 7 steps, 2 disks read
 *	report: VERDICT: FAIL, 1 of 7 steps failed: bench sda ...
 */
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/shell.h"
#include "lib/string.h"

#define REPORT_MAX_DISKS	16
#define REPORT_NAME_MAX		32
#define REPORT_CAPTURE		8192	/* bytes of lsblk output looked at */
#define REPORT_BENCH		"seqread:mib=64:bs=1M randread:qd=32:bs=4K:secs=2"
#define LSBLK_TYPE_FIELD	5	/* NAME MAJ:MIN SIZE SECTORS RO TYPE MODEL */

static const char *const report_steps[] = {
	"lspci -d ::01", "lsblk", "blkid", "mount", "df",
};

struct capture {
	char		cap_buf[REPORT_CAPTURE];
	size_t		cap_len;
	struct console	cap_con;
};

static struct capture capture;

static void capture_write(struct console *con, const char *s, size_t n)
{
	struct capture *c = container_of(con, struct capture, cap_con);

	n = min(n, sizeof(c->cap_buf) - 1 - c->cap_len);
	memcpy(c->cap_buf + c->cap_len, s, n);
	c->cap_len += n;
	c->cap_buf[c->cap_len] = '\0';
}

/* The names of the disks in lsblk's output (TYPE "disk"); returns how many. */
static unsigned parse_disks(char *out, char names[][REPORT_NAME_MAX], unsigned max)
{
	char *line, *next, *f[LSBLK_TYPE_FIELD + 1];
	unsigned n = 0, i;

	for (line = out; line && *line && n < max; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		for (i = 0; i <= LSBLK_TYPE_FIELD; i++) {
			while (*line == ' ')
				line++;
			f[i] = line;
			while (*line && *line != ' ')
				line++;
			if (*line)
				*line++ = '\0';
		}
		if (!strcmp(f[LSBLK_TYPE_FIELD], "disk") && *f[0])
			str_copy(names[n++], f[0], REPORT_NAME_MAX);
	}
	return n;
}

/* Run one step, say how it went; true if it passed. */
static bool step(const char *line, unsigned *steps, const char **failed)
{
	int err;

	kprintf("\nreport: --- %s\n", line);
	err = shell_exec(line);
	(*steps)++;
	if (!err)
		return true;
	kprintf("report: \"%s\" failed (%s)\n", line, errstr(err));
	if (!*failed)
		*failed = line;
	return false;
}

static int cmd_report(int argc, char **argv)
{
	static char names[REPORT_MAX_DISKS][REPORT_NAME_MAX];
	static char lines[REPORT_MAX_DISKS][REPORT_NAME_MAX + sizeof(REPORT_BENCH) + 8];
	const char *failed = NULL;
	unsigned i, n, steps = 0, bad = 0;

	if (argc != 1)
		return -EINVAL;
	kprintf("report: storage on this machine, read-only (no disk is written)\n");
	for (i = 0; i < ARRAY_SIZE(report_steps); i++) {
		bool listen = !strcmp(report_steps[i], "lsblk");

		if (listen) {
			capture.cap_len = 0;
			capture.cap_con.con_name = "report";
			capture.cap_con.con_write = capture_write;
			console_register(&capture.cap_con);
		}
		if (!step(report_steps[i], &steps, &failed))
			bad++;
		if (listen)
			console_unregister(&capture.cap_con);
	}
	n = parse_disks(capture.cap_buf, names, REPORT_MAX_DISKS);
	for (i = 0; i < n; i++) {
		snprintf(lines[i], sizeof(lines[i]), "bench %s %s", names[i], REPORT_BENCH);
		if (!step(lines[i], &steps, &failed))
			bad++;
	}
	if (bad)
		kprintf("\nreport: VERDICT: FAIL, %u of %u steps failed, first: %s\n", bad, steps,
			failed);
	else
		kprintf("\nreport: VERDICT: PASS, %u steps, %u disk%s read\n", steps, n,
			n == 1 ? "" : "s");
	return bad ? -EIO : 0;
}
SHELL_COMMAND("report", cmd_report, "report",
	      "read-only storage report: controllers, disks, partitions, filesystems, "
	      "a short read benchmark of every disk, and a verdict");
