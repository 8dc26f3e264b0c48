/*
 * Console multiplexing and the input ring.
 *
 * Lock legend:
 *	[c] console_lock (irqsave): the console list and every write, so that
 *	    lines from interrupt handlers do not interleave mid-line
 *	[i] input ring: written by interrupt handlers, read with interrupts off
 * During a panic the lock is ignored: the report must get out.
 */
#include "kernel/console.h"
#include "kernel/spinlock.h"
#include "kernel/panic.h"
#include "kernel/completion.h"
#include "kernel/time.h"
#include "kernel/shell.h"
#include "lib/string.h"

#define INPUT_RING_SIZE	4096	/* characters typed ahead, as Linux's n_tty holds */
#define CTRL_C		0x03

static DEFINE_SPINLOCK(console_lock);
static struct console *consoles;	/* [c] */

static char input_ring[INPUT_RING_SIZE];	/* [i] */
static volatile unsigned input_head, input_tail;	/* [i] */
static volatile bool interrupt_requested;
static volatile bool input_seen;

void console_register(struct console *con)
{
	unsigned long flags;

	spin_lock_irqsave(&console_lock, flags);
	con->con_next = consoles;
	consoles = con;
	spin_unlock_irqrestore(&console_lock, flags);
}

void console_unregister(struct console *con)
{
	struct console **pp;
	unsigned long flags;

	spin_lock_irqsave(&console_lock, flags);
	for (pp = &consoles; *pp; pp = &(*pp)->con_next) {
		if (*pp == con) {
			*pp = con->con_next;
			break;
		}
	}
	spin_unlock_irqrestore(&console_lock, flags);
}

void console_write_level(const char *s, size_t n, int level)
{
	unsigned long flags;
	struct console *con;
	bool locked = !panic_in_progress;

	local_irq_save(flags);
	if (locked)
		spin_lock(&console_lock);
	for (con = consoles; con; con = con->con_next) {
		if (con->con_level)
			con->con_level(con, level);
		con->con_write(con, s, n);
		if (con->con_level)
			con->con_level(con, -1);
	}
	if (locked)
		spin_unlock(&console_lock);
	local_irq_restore(flags);
}

void console_write(const char *s, size_t n)
{
	console_write_level(s, n, -1);
}

int kprintf(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	console_write(buf, min((size_t)n, sizeof(buf) - 1));
	return n;
}

bool console_is_tty(void)
{
	return input_seen;
}

/* Called from interrupt handlers with interrupts off. */
void console_input(char c)
{
	unsigned next = (input_head + 1) % INPUT_RING_SIZE;

	input_seen = true;
	if (c == CTRL_C)
		interrupt_requested = true;
	if (next == input_tail)
		return;		/* full: drop, as a terminal would */
	input_ring[input_head] = c;
	input_head = next;
}

bool console_input_full(void)
{
	return (input_head + 1) % INPUT_RING_SIZE == input_tail;
}

/* The ring has room again: drivers that held input back may send it. */
static void console_unthrottle(void)
{
	struct console *con;

	spin_lock(&console_lock);
	for (con = consoles; con; con = con->con_next)
		if (con->con_unthrottle)
			con->con_unthrottle(con);
	spin_unlock(&console_lock);
}

int console_getc(void)
{
	unsigned long flags;
	bool was_full;
	int c = -1;

	local_irq_save(flags);
	if (input_tail != input_head) {
		was_full = console_input_full();
		c = (unsigned char)input_ring[input_tail];
		input_tail = (input_tail + 1) % INPUT_RING_SIZE;
		if (was_full)
			console_unthrottle();
	}
	local_irq_restore(flags);
	return c;
}

int console_getc_wait(u32 timeout_ms)
{
	u64 deadline = ktime_ms() + timeout_ms;
	int c;

	while ((c = console_getc()) < 0) {
		if (timeout_ms && ktime_ms() >= deadline)
			return -1;
		cpu_idle_once();
	}
	return c;
}

bool shell_interrupted(void)
{
	bool r = interrupt_requested;

	interrupt_requested = false;
	return r;
}
