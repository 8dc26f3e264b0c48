/* Controls of the host console fake (console_fake.c). */
#ifndef TESTS_UNIT_FAKES_CONSOLE_FAKE_H
#define TESTS_UNIT_FAKES_CONSOLE_FAKE_H

#include <stdio.h>

/* Where kprintf output goes; NULL (the default) means stdout. */
extern FILE *host_console;

#endif
