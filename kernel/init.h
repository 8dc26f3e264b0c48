/*
 * Boot-time initialisation by registration: a subsystem names its init
 * function with one of the level macros and kernel/main.c runs each level
 * in order, never including the subsystem's header.  This is what keeps
 * kernel/ free of dependencies on block/, drivers/ and fs/.
 *
 * An init function returns 0 or a negative errno; a failure is reported
 * and boot continues.
 */
#ifndef KERNEL_INIT_H
#define KERNEL_INIT_H

#include "kernel/compiler.h"

typedef int (*initcall_t)(void);

struct initcall {
	initcall_t	ic_fn;
	const char	*ic_name;
};

#define __define_initcall(fn, level) \
	static const struct initcall __initcall_##fn __used \
	__section(".initcall." #level) = { fn, #fn }

#define core_initcall(fn)	__define_initcall(fn, 1)	/* mm, slab users */
#define arch_initcall(fn)	__define_initcall(fn, 2)	/* interrupts, PCI */
#define smp_initcall(fn)	__define_initcall(fn, 3)	/* the other CPUs */
#define subsys_initcall(fn)	__define_initcall(fn, 4)	/* block core */
#define fs_initcall(fn)		__define_initcall(fn, 5)	/* filesystems */
#define device_initcall(fn)	__define_initcall(fn, 6)	/* drivers */
#define late_initcall(fn)	__define_initcall(fn, 7)	/* mounts */

#endif
