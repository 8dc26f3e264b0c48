/*
 * Host stand-ins for the kernel services that portable code calls:
 * printk, panic, spinlocks (checked, single-threaded), interrupt flags,
 * and a settable fake clock for code that reads time.  Tests that need a
 * quiet log set host_printk_quiet; tests of a message read
 * host_printk_last.
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"
#include "tests/unit/host/shim.h"

bool host_printk_quiet = true;
char host_printk_last[512];
u64 host_now_ns;

int vprintk(const char *fmt, va_list ap)
{
	va_list copy;

	if (fmt[0] == '\001' && fmt[1])
		fmt += 2;
	va_copy(copy, ap);
	vsnprintf(host_printk_last, sizeof(host_printk_last), fmt, copy);
	va_end(copy);
	if (host_printk_quiet)
		return 0;
	return vfprintf(stderr, fmt, ap);
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

void panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "panic: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	abort();
}

/* The host's PAUSE is a real one (kernel/cpu.h cpu_relax). */
bool cpu_pause_costly;

/* One CPU on the host. */
struct cpu *this_cpu(void)
{
	static struct cpu host_cpu = { .c_self = &host_cpu, .c_state = CPU_ONLINE };

	return &host_cpu;
}

void spin_lock_init(spinlock_t *l, const char *name)
{
	l->sl_ticket = 0;
	l->sl_name = name;
	l->sl_owner = NULL;
}

void spin_lock(spinlock_t *l)
{
	if (l->sl_ticket)
		panic("spin_lock: recursion on %s", l->sl_name ? l->sl_name : "?");
	l->sl_ticket = 1;
}

void spin_unlock(spinlock_t *l)
{
	if (!l->sl_ticket)
		panic("spin_unlock: %s not held", l->sl_name ? l->sl_name : "?");
	l->sl_ticket = 0;
}

bool spin_trylock(spinlock_t *l)
{
	if (l->sl_ticket)
		return false;
	l->sl_ticket = 1;
	return true;
}

bool spin_is_locked(const spinlock_t *l)
{
	return l->sl_ticket != 0;
}

static unsigned long host_irq_flag = 1;

unsigned long arch_irq_save(void)
{
	unsigned long f = host_irq_flag;

	host_irq_flag = 0;
	return f;
}

void arch_irq_restore(unsigned long flags) { host_irq_flag = flags; }
void arch_irq_enable(void) { host_irq_flag = 1; }
void arch_irq_disable(void) { host_irq_flag = 0; }

u64 ktime_ns(void) { return host_now_ns; }
u64 get_jiffies_64(void) { return host_now_ns / (NSEC_PER_SEC / HZ); }

/* One CPU: nobody else to wake. */
void cpu_wake(struct cpu *c)
{
}
