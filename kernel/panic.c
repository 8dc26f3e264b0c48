/*
 * panic(): print the message and a backtrace on every console, then stop.
 * The log lock and console lock are bypassed from here on, and a panic
 * inside a panic stops at once.  Disks are not flushed: the kernel's
 * state is not to be trusted any more.
 */
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/ksyms.h"
#include "kernel/power.h"
#include "kernel/spinlock.h"
#include "lib/string.h"

volatile bool panic_in_progress;

void panic_begin(void)
{
	local_irq_disable();
	if (panic_in_progress)
		machine_fail_now();	/* panic while panicking: stop now */
	panic_in_progress = true;
}

void panic_end(const char *reason)
{
	printk(KERN_EMERG "Kernel panic: %s\n", reason);
	machine_fail_now();
}

void panic(const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	u32 ebp;

	panic_begin();
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printk(KERN_EMERG "\nKernel panic: %s\n", msg);
	__asm__ __volatile__("movl %%ebp, %0" : "=r"(ebp));
	backtrace_print((u32)__builtin_return_address(0), *(u32 *)ebp);
	machine_fail_now();
}
