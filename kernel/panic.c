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
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "lib/string.h"

volatile bool panic_in_progress;
static struct cpu *panic_cpu;		/* [a] the CPU that reports */

/*
 * One CPU reports a panic.  A second CPU that panics meanwhile halts and
 * is stopped, with its backtrace, by the first; a panic inside the
 * reporting CPU's own report stops the machine at once.
 */
void panic_begin(void)
{
	struct cpu *me = this_cpu(), *was = NULL;

	local_irq_disable();
	if (!__atomic_compare_exchange_n(&panic_cpu, &was, me, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		if (was == me)
			machine_fail_now();
		halt_forever();
	}
	panic_in_progress = true;
}

/* Stop the other CPUs (each says where it was), then the machine. */
static void __noreturn panic_stop(void)
{
	smp_stop_others();
	machine_fail_now();
}

void panic_end(const char *reason)
{
	printk(KERN_EMERG "Kernel panic: %s\n", reason);
	panic_stop();
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
	printk(KERN_EMERG "\nKernel panic: %s (CPU %u)\n", msg, smp_processor_id());
	__asm__ __volatile__("movl %%ebp, %0" : "=r"(ebp));
	backtrace_print((u32)__builtin_return_address(0), *(u32 *)ebp);
	panic_stop();
}
