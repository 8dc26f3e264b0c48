/*
 * Progress lines: percent, rate and time left, in place on a terminal
 * (carriage return, erase to end of line), periodic lines otherwise.
 */
#include "kernel/progress.h"
#include "kernel/console.h"
#include "kernel/shell.h"
#include "kernel/time.h"
#include "lib/string.h"

void progress_start(struct progress *p, const char *what, u64 total_bytes)
{
	progress_start_share(p, what, total_bytes, NULL);
}

void progress_start_share(struct progress *p, const char *what, u64 total_bytes,
			  const struct progress *leader)
{
	p->pg_follow = leader;
	p->pg_what = what;
	p->pg_total = total_bytes;
	p->pg_start_ns = p->pg_last_ns = ktime_ns();
	p->pg_tty = console_is_tty();
	p->pg_drawn = false;
	p->pg_stopped = false;
	if (!p->pg_follow)
		shell_interrupted();	/* a Ctrl-C typed before the start is not for us */
}

static void draw(struct progress *p, u64 done, u64 now)
{
	u64 ms = (now - p->pg_start_ns) / NSEC_PER_MSEC;
	u64 rate = ms ? done * 1000 / ms : 0;	/* bytes per second */
	char eta[24] = "";

	if (p->pg_total && rate && done < p->pg_total) {
		u64 left = (p->pg_total - done) / rate;

		snprintf(eta, sizeof(eta), ", %llu:%02llu left", left / 60, left % 60);
	}
	if (p->pg_total)
		kprintf("%s%s: %llu%% of %llu MiB, %llu.%llu MiB/s%s%s",
			p->pg_tty ? "\r" : "", p->pg_what, done * 100 / p->pg_total,
			p->pg_total >> 20, rate >> 20, (rate % (1 << 20)) * 10 >> 20, eta,
			p->pg_tty ? "\033[K" : "\n");
	else
		kprintf("%s%s: %llu MiB, %llu.%llu MiB/s%s", p->pg_tty ? "\r" : "",
			p->pg_what, done >> 20, rate >> 20, (rate % (1 << 20)) * 10 >> 20,
			p->pg_tty ? "\033[K" : "\n");
	p->pg_drawn = p->pg_tty;
	p->pg_last_ns = now;
}

bool progress_update(struct progress *p, u64 done_bytes)
{
	u64 now = ktime_ns();
	u64 every = (p->pg_tty ? PROGRESS_TTY_MS : PROGRESS_PERIODIC_MS) * NSEC_PER_MSEC;

	if (p->pg_follow)
		return READ_ONCE(p->pg_follow->pg_stopped);
	if (shell_interrupted()) {
		p->pg_stopped = true;
		if (p->pg_drawn)
			kprintf("\r\033[K");
		p->pg_drawn = false;
		kprintf("%s: interrupted\n", p->pg_what);
	}
	if (p->pg_stopped)
		return true;
	if (now - p->pg_last_ns >= every)
		draw(p, done_bytes, now);
	return false;
}

void progress_end(struct progress *p, u64 done_bytes)
{
	if (p->pg_drawn)
		kprintf("\r\033[K");
	p->pg_drawn = false;
}
