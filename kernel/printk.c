/*
 * printk and the kernel log.
 *
 * Every message is formatted once, stamped with the time since boot
 * ("[    1.234567] "), appended to a ring of LOG_BUF_SIZE bytes that dmesg
 * reads, and written to the consoles when its level is at or below
 * loglevel (command line loglevel=N, default 6: all but debug).
 *
 * Lock legend: [l] log_lock (irqsave) guards log_buf and log_total.
 * During a panic the lock is bypassed.
 */
#include "kernel/printk.h"
#include "kernel/console.h"
#include "kernel/spinlock.h"
#include "kernel/panic.h"
#include "kernel/param.h"
#include "kernel/time.h"
#include "kernel/errno.h"
#include "lib/string.h"

#define LINE_MAX	512		/* one printk call, formatted */
#define DEFAULT_LEVEL	6		/* KERN_INFO */

static char log_buf[LOG_BUF_SIZE];	/* [l] */
static u64 log_total;			/* [l] bytes ever logged */
static DEFINE_SPINLOCK(log_lock);
static bool line_open;			/* [l] the last message had no newline */

static unsigned loglevel = DEFAULT_LEVEL;
PARAM_UINT("loglevel", loglevel, "console log level 0-7 (default 6)");

static void log_append(const char *s, size_t n)
{
	while (n--) {
		log_buf[log_total % LOG_BUF_SIZE] = *s++;
		log_total++;
	}
}

int vprintk(const char *fmt, va_list ap)
{
	char line[LINE_MAX + 24];
	unsigned level = DEFAULT_LEVEL;
	bool cont = false, locked = !panic_in_progress;
	unsigned long flags;
	size_t n = 0;
	int len;

	if (fmt[0] == '\001' && fmt[1]) {
		if (fmt[1] == 'c')
			cont = true;
		else if (fmt[1] >= '0' && fmt[1] <= '7')
			level = (unsigned)(fmt[1] - '0');
		fmt += 2;
	}

	local_irq_save(flags);
	if (locked)
		spin_lock(&log_lock);
	if (!cont || !line_open) {
		u64 us = ktime_us();

		n = (size_t)snprintf(line, sizeof(line), "[%5u.%06u] ",
				     (unsigned)(us / 1000000), (unsigned)(us % 1000000));
	}
	len = vsnprintf(line + n, LINE_MAX, fmt, ap);
	n += min((size_t)len, (size_t)LINE_MAX - 1);
	line_open = n && line[n - 1] != '\n';
	log_append(line, n);
	if (locked)
		spin_unlock(&log_lock);
	local_irq_restore(flags);

	if (level <= loglevel || panic_in_progress)
		console_write_level(line, n, cont ? -1 : (int)level);
	return len;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

size_t log_read(char *dst, size_t size)
{
	unsigned long flags;
	u64 start, end, i;
	size_t n = 0;

	spin_lock_irqsave(&log_lock, flags);
	end = log_total;
	start = end > LOG_BUF_SIZE ? end - LOG_BUF_SIZE : 0;
	if (end - start > size)
		start = end - size;
	if (start > 0)
		while (start < end && log_buf[start++ % LOG_BUF_SIZE] != '\n')
			;
	for (i = start; i < end; i++)
		dst[n++] = log_buf[i % LOG_BUF_SIZE];
	spin_unlock_irqrestore(&log_lock, flags);
	return n;
}
