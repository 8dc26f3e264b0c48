/*
 * Shell commands by registration.  A command is a function of argc/argv
 * that returns 0 on success.  On failure it returns a negative errno: the
 * shell prints the usage for -EINVAL and "NAME: error text" for the rest,
 * unless the command printed its own message and returns -ECANCELED
 * ("already reported").  Output formats are stable; tests read them.
 */
#ifndef KERNEL_SHELL_H
#define KERNEL_SHELL_H

#include "kernel/compiler.h"

struct shell_cmd {
	const char	*sc_name;
	int		(*sc_fn)(int argc, char **argv);
	const char	*sc_usage;	/* "lsblk [DEV]" */
	const char	*sc_help;	/* one line: what it does */
};

#define SHELL_COMMAND(name, fn, usage, help) \
	static const struct shell_cmd __shell_cmd_##fn __used \
	__section(".shellcmds") = { name, fn, usage, help }

#define SHELL_LINE_MAX	256	/* one typed line */

/* Run one command line (may hold several commands separated by ';'). */
int shell_exec(const char *line);
/* The interactive loop: read a line, run it, forever (from kmain). */
void shell_main(void);

/*
 * Tab completion of paths: the filesystem layer registers a function that
 * calls emit(ctx, candidate) for each entry whose path starts with prefix.
 */
typedef void (*shell_path_completer_t)(const char *prefix,
				       void (*emit)(void *ctx, const char *candidate),
				       void *ctx);
void shell_set_path_completer(shell_path_completer_t fn);

/*
 * Timed work that must run between commands, never inside one (the
 * filesystems' commit interval): the shell calls fn every SHELL_IDLE_MS
 * while it waits for a key.  shell_idle() is that call, for the line editor.
 */
#define SHELL_IDLE_MS	250
void shell_set_idle(void (*fn)(void));
void shell_idle(void);

/*
 * True once the user pressed Ctrl-C since the last call; long-running
 * commands poll it between I/Os and stop cleanly.
 */
bool shell_interrupted(void);

#endif
