/*
 * Kernel command-line parameters, registered by the subsystem that owns
 * them.  The line is "key=value key="quoted value" flag ..."; names may
 * hold dots ("ram.size").  A parameter's set function gets the value (or
 * NULL for a bare flag) and returns 0 or -EINVAL; an unknown name or a
 * rejected value is reported as a warning and boot goes on.
 *
 * Parameters are applied early, before any initcall runs, so an owner's
 * variable holds the boot value by the time its init function reads it.
 */
#ifndef KERNEL_PARAM_H
#define KERNEL_PARAM_H

#include "kernel/compiler.h"

struct kernel_param {
	const char	*kp_name;
	int		(*kp_set)(const char *val, void *arg);
	void		*kp_arg;
	const char	*kp_help;
};

#define KERNEL_PARAM(name, set, arg, help) \
	static const struct kernel_param __param_##arg __used \
	__section(".params") = { name, set, &(arg), help }

int param_set_bool(const char *val, void *arg);	/* bool: 1/0/y/n/on/off; bare flag = true */
int param_set_uint(const char *val, void *arg);	/* unsigned int */
int param_set_u64(const char *val, void *arg);	/* u64 */
int param_set_size(const char *val, void *arg);	/* u64 bytes, with K/M/G/T */
int param_set_str(const char *val, void *arg);	/* const char *: points into the saved line */

#define PARAM_BOOL(name, var, help)	KERNEL_PARAM(name, param_set_bool, var, help)
#define PARAM_UINT(name, var, help)	KERNEL_PARAM(name, param_set_uint, var, help)
#define PARAM_U64(name, var, help)	KERNEL_PARAM(name, param_set_u64, var, help)
#define PARAM_SIZE(name, var, help)	KERNEL_PARAM(name, param_set_size, var, help)
#define PARAM_STR(name, var, help)	KERNEL_PARAM(name, param_set_str, var, help)

/* The whole command line as the boot loader gave it. */
const char *cmdline_get(void);
/* Every parameter the kernel takes, as the linker gathered them. */
extern const struct kernel_param __params_start[], __params_end[];
/* Boot: split the saved command line and apply every option it names. */
void cmdline_parse(void);

#endif
