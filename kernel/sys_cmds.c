/*
 * The kernel's own shell commands: the log, time, the command line,
 * self-tests and power.  Each is a thin view over its subsystem's
 * contract (printk.h, time.h, param.h, selftest.h, power.h); none keeps
 * state of its own but dmesg's copy buffer.
 *
 *	dmesg			the log ring, oldest line first
 *	fbcon			the framebuffer console's mode and font
 *	uptime, date		monotonic time since boot; the wall clock (UTC)
 *	params			the command line and every parameter it takes
 *	selftest PATTERN|-l	run matching self-tests, or list them all
 *	poweroff, exit, reboot	flush disks, then stop or restart
 */
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/fbcon.h"
#include "kernel/param.h"
#include "kernel/power.h"
#include "kernel/printk.h"
#include "kernel/selftest.h"
#include "kernel/shell.h"
#include "kernel/time.h"
#include "lib/string.h"

/* A whole ring's worth: too large for the stack, so dmesg owns it. */
static char dmesg_copy[LOG_BUF_SIZE];

static int cmd_dmesg(int argc, char **argv)
{
	size_t n;

	if (argc != 1)
		return -EINVAL;
	n = log_read(dmesg_copy, sizeof(dmesg_copy));
	console_write(dmesg_copy, n);
	return 0;
}
SHELL_COMMAND("dmesg", cmd_dmesg, "dmesg", "print the kernel log");

static int cmd_fbcon(int argc, char **argv)
{
	char line[SHELL_LINE_MAX];

	if (argc != 1)
		return -EINVAL;
	if (fbcon_describe(line, sizeof(line)) < 0)
		kprintf("no framebuffer console\n");
	else
		kprintf("%s\n", line);
	return 0;
}
SHELL_COMMAND("fbcon", cmd_fbcon, "fbcon", "show the framebuffer console's mode and font");

static int cmd_uptime(int argc, char **argv)
{
	u64 ms = ktime_ms();

	if (argc != 1)
		return -EINVAL;
	kprintf("up %llu.%03llu s, %llu ticks\n", ms / 1000, ms % 1000,
		(unsigned long long)get_jiffies_64());
	return 0;
}
SHELL_COMMAND("uptime", cmd_uptime, "uptime", "time since boot");

static int cmd_date(int argc, char **argv)
{
	struct rtc_time t;

	if (argc != 1)
		return -EINVAL;
	rtc_time_from_unix(wallclock_unix(), &t);
	kprintf("%04u-%02u-%02u %02u:%02u:%02u UTC\n", t.year, t.mon, t.mday,
		t.hour, t.min, t.sec);
	return 0;
}
SHELL_COMMAND("date", cmd_date, "date", "the wall-clock time (from the CMOS clock)");

static int cmd_params(int argc, char **argv)
{
	const struct kernel_param *p;

	if (argc != 1)
		return -EINVAL;
	kprintf("command line: %s\n", cmdline_get());
	for (p = __params_start; p < __params_end; p++)
		kprintf("  %-20s %s\n", p->kp_name, p->kp_help ? p->kp_help : "");
	return 0;
}
SHELL_COMMAND("params", cmd_params, "params", "the kernel command line and every parameter it takes");

static int cmd_selftest(int argc, char **argv)
{
	const struct selftest *t;

	if (argc == 2 && !strcmp(argv[1], "-l")) {
		for (t = __selftests_start; t < __selftests_end; t++)
			kprintf("%s\n", t->st_name);
		return 0;
	}
	if (argc != 2)
		return -EINVAL;
	return selftest_run(argv[1]) ? -ECANCELED : 0;
}
SHELL_COMMAND("selftest", cmd_selftest, "selftest PATTERN | selftest -l",
	      "run the self-tests whose names match PATTERN (a glob), or list them");

static int cmd_poweroff(int argc, char **argv)
{
	if (argc != 1)
		return -EINVAL;
	machine_exit(0);
}
SHELL_COMMAND("poweroff", cmd_poweroff, "poweroff", "flush disks and stop the machine (QEMU exits)");

static int cmd_exit(int argc, char **argv)
{
	return cmd_poweroff(argc, argv);
}
SHELL_COMMAND("exit", cmd_exit, "exit", "same as poweroff");

static int cmd_reboot(int argc, char **argv)
{
	if (argc != 1)
		return -EINVAL;
	machine_reboot();
}
SHELL_COMMAND("reboot", cmd_reboot, "reboot", "flush disks and restart the machine");
