/*
 * The crash command: deliberately raise an exception, so that a person
 * (and the tests) can see what the kernel's exception report looks like.
 */
#include "kernel/shell.h"
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/bootinfo.h"
#include "kernel/printk.h"
#include "lib/string.h"

/* Recurse until the stack runs into its guard page; the limit is never met. */
static __noinline int recurse(int depth, int limit)
{
	volatile char pad[512];

	pad[0] = (char)depth;
	if (depth == limit)
		return pad[0];
	return recurse(depth + 1, limit) + pad[0];
}

static int cmd_crash(int argc, char **argv)
{
	static const char *const kinds[] = { "null", "text", "divide", "stack", "panic" };
	unsigned i;

	if (argc != 2)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(kinds) && strcmp(argv[1], kinds[i]); i++)
		;
	if (i == ARRAY_SIZE(kinds))
		return -EINVAL;
	kprintf("crash: %s\n", argv[1]);
	if (!strcmp(argv[1], "null"))
		return *(volatile int *)NULL;
	if (!strcmp(argv[1], "text")) {
		*(volatile u8 *)_text = 0;	/* faults once text is read-only */
		return 0;
	}
	if (!strcmp(argv[1], "divide")) {
		volatile int zero = 0, quotient;

		quotient = 100 / zero;
		return quotient;
	}
	if (!strcmp(argv[1], "stack"))
		return recurse(0, -1);
	if (!strcmp(argv[1], "panic"))
		panic("crash command");
	return -EINVAL;
}
SHELL_COMMAND("crash", cmd_crash, "crash null|text|divide|stack|panic",
	      "raise an exception on purpose, to see the report");
