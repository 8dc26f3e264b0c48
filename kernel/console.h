/*
 * Consoles: where kernel output goes and where the shell's input comes
 * from.  Output goes to every registered console (serial, VGA text or
 * the framebuffer console); input from any of them lands in one ring that the shell
 * reads.  Ctrl-C is also noted as an interrupt request for long commands.
 */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include "kernel/compiler.h"

struct console {
	const char	*con_name;
	void		(*con_write)(struct console *con, const char *s, size_t n);
	/* optional: the input ring has room again after the driver held back */
	void		(*con_unthrottle)(struct console *con);
	/* optional: the log level (0-7) of the next writes, -1 for plain output */
	void		(*con_level)(struct console *con, int level);
	struct console	*con_next;	/* [console lock] */
};

void console_register(struct console *con);
/* Take con off the list again (a console that only listens for a while). */
void console_unregister(struct console *con);
/* Write to every console; safe in interrupt context and during panic. */
void console_write(const char *s, size_t n);
/* The same for a log message of level 0-7, which a console may colour. */
void console_write_level(const char *s, size_t n, int level);

/* Formatted output straight to the consoles, not the log: shell output. */
int kprintf(const char *fmt, ...) __printf(1, 2);

/*
 * Input side: drivers push characters (from their interrupt handlers).
 * A character that finds the ring full is dropped, so a driver that can
 * hold input back (a UART keeps it in its FIFO, and QEMU behind it) asks
 * console_input_full() first, stops taking input while it says so, and
 * starts again when con_unthrottle is called.
 */
void console_input(char c);
bool console_input_full(void);
/* Next input character, or -1 if none is waiting. */
int console_getc(void);
/* Wait up to timeout_ms (0: forever) for a character; -1 on timeout. */
int console_getc_wait(u32 timeout_ms);

/*
 * True once a person has typed on a console: then progress lines update in
 * place; a scripted run (run="...", no input) gets periodic lines instead.
 */
bool console_is_tty(void);

/*
 * Early serial and VGA bring-up (before interrupts), and their IRQ setup.
 * The framebuffer console starts later, once ioremap works: fbcon.h.
 */
void serial_early_init(void);
int serial_irq_init(void);
void vga_init(void);

#endif
