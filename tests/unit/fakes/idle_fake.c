/*
 * Host fake of the idle wait (kernel/completion.h cpu_idle_once) and of
 * in_interrupt() (kernel/irq.h).  A test sets host_idle_hook to play the
 * interrupt handler that the waiting code is waiting for.
 */
#include "kernel/completion.h"
#include "kernel/irq.h"
#include "tests/unit/host/shim.h"
#include "tests/unit/fakes/idle_fake.h"

void (*host_idle_hook)(void *arg);
void *host_idle_arg;
u64 host_idle_calls;
u64 host_idle_step_ns = 1000000;
bool host_in_interrupt;

static void (*wait_prepare)(void);

void wait_prepare_register(void (*fn)(void))
{
	wait_prepare = fn;
}

void cpu_idle_once(void)
{
	host_idle_calls++;
	if (wait_prepare)
		wait_prepare();
	host_now_ns += host_idle_step_ns;
	if (host_idle_hook)
		host_idle_hook(host_idle_arg);
}

bool in_interrupt(void)
{
	return host_in_interrupt;
}
