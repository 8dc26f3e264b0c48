/*
 * Controls of idle_fake.c: the host's cpu_idle_once() and in_interrupt(),
 * for tests of code that waits for an interrupt to change something.
 */
#ifndef TESTS_UNIT_FAKES_IDLE_FAKE_H
#define TESTS_UNIT_FAKES_IDLE_FAKE_H

#include "kernel/types.h"

/*
 * Each cpu_idle_once() counts a call, advances the fake clock by
 * host_idle_step_ns (default 1 ms) and then runs host_idle_hook(arg), if
 * set: the "interrupt" that ends the halt.  host_in_interrupt is what
 * in_interrupt() returns.
 */
extern void (*host_idle_hook)(void *arg);
extern void *host_idle_arg;
extern u64 host_idle_calls;
extern u64 host_idle_step_ns;
extern bool host_in_interrupt;

#endif
