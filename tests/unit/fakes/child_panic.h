/*
 * Death tests for host unit tests: run a piece of kernel code that must
 * panic in a child process and check how the child died.  Used by the mm
 * tests (buddy, slab, mempool), whose misuse cases end in panic(), which
 * the host shim turns into abort().
 */
#ifndef TESTS_UNIT_FAKES_CHILD_PANIC_H
#define TESTS_UNIT_FAKES_CHILD_PANIC_H

#include <stdbool.h>

/*
 * Fork; in the child run setup() (may be NULL) and then fn() with stderr
 * captured.  True if the child died by SIGABRT and its stderr contains
 * msg; otherwise false, with what the child said printed to stderr.
 */
bool host_child_panics(void (*setup)(void), void (*fn)(void), const char *msg);

#endif
