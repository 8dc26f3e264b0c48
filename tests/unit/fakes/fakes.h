/*
 * Host fakes of kernel APIs, for unit tests of code that uses them.  Unlike
 * tests/unit/host/ (linked into every test), a fake is listed explicitly in
 * the SRCS of the tests that want it, so the real implementation can be
 * tested elsewhere without a clash.  Each fake's controls are declared here.
 */
#ifndef TESTS_UNIT_FAKES_FAKES_H
#define TESTS_UNIT_FAKES_FAKES_H

#include "kernel/types.h"

/* slab_fake.c: kmalloc & kmem_cache over malloc. */
extern long host_slab_fail_after;
extern long host_slab_live;

#endif
