/*
 * Controls of power_fake.c: register_shutdown_hook() on the host keeps
 * the hooks, and host_run_shutdown_hooks() runs them, as machine_exit()
 * would before the machine stops.
 */
#ifndef TESTS_UNIT_FAKES_POWER_FAKE_H
#define TESTS_UNIT_FAKES_POWER_FAKE_H

#include "kernel/power.h"

/* Run every registered hook in order; returns how many ran. */
int host_run_shutdown_hooks(void);

#endif
