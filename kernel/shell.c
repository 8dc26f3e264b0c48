/*
 * The shell: commands registered with SHELL_COMMAND (kernel/shell.h), run
 * from the console with line editing, or from run="cmd; cmd" at boot.
 *
 * A line is split at ';' (outside quotes) into commands, and each command
 * into words; "double quotes" group words.  A command's result decides
 * what the shell says: nothing for 0, the usage for -EINVAL, nothing for
 * -ECANCELED (the command already explained), "NAME: error" otherwise.
 * With run=, the run ends after the commands, failed if any failed; init=
 * runs its commands and then gives the prompt.
 */
#include "kernel/shell.h"
#include "kernel/mm/slab.h"
#include "kernel/console.h"
#include "kernel/readline.h"
#include "kernel/param.h"
#include "kernel/printk.h"
#include "kernel/power.h"
#include "kernel/errno.h"
#include "lib/string.h"

#define MAX_ARGS	32
#define PROMPT		"# "

extern const struct shell_cmd __shellcmds_start[], __shellcmds_end[];

static const char *run_commands;
PARAM_STR("run", run_commands, "shell commands to run at boot, ';'-separated; then stop");

static const char *init_commands;
PARAM_STR("init", init_commands, "shell commands to run at boot before the prompt");

static shell_path_completer_t path_completer;
static void (*idle_fn)(void);

void shell_set_path_completer(shell_path_completer_t fn)
{
	path_completer = fn;
}

void shell_set_idle(void (*fn)(void))
{
	idle_fn = fn;
}

void shell_idle(void)
{
	if (idle_fn)
		idle_fn();
}

static const struct shell_cmd *find_cmd(const char *name)
{
	const struct shell_cmd *c;

	for (c = __shellcmds_start; c < __shellcmds_end; c++)
		if (!strcmp(c->sc_name, name))
			return c;
	return NULL;
}

/* Split s in place into words; returns the count, or -E2BIG. */
static int split_words(char *s, char **argv)
{
	int argc = 0;
	char *out;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			return argc;
		if (argc == MAX_ARGS)
			return -E2BIG;
		argv[argc++] = out = s;
		while (*s && *s != ' ' && *s != '\t') {
			if (*s == '"' || *s == '\'') {
				char q = *s++;

				while (*s && *s != q)
					*out++ = *s++;
				if (*s)
					s++;
			} else {
				*out++ = *s++;
			}
		}
		if (*s)
			s++;
		*out = '\0';
	}
}

static int run_one(char *cmdline)
{
	char *argv[MAX_ARGS + 1];
	const struct shell_cmd *c;
	int argc, r;

	argc = split_words(cmdline, argv);
	if (argc == -E2BIG) {
		kprintf("shell: more than %d words\n", MAX_ARGS);
		return argc;
	}
	if (argc == 0)
		return 0;
	argv[argc] = NULL;
	c = find_cmd(argv[0]);
	if (!c) {
		kprintf("%s: command not found (try help)\n", argv[0]);
		return -ENOENT;
	}
	r = c->sc_fn(argc, argv);
	if (r == -EINVAL)
		kprintf("usage: %s\n", c->sc_usage);
	else if (r < 0 && r != -ECANCELED)
		kprintf("%s: %s\n", argv[0], errstr(r));
	return r;
}

int shell_exec(const char *line)
{
	size_t len = strlen(line);
	char *buf, *p, *start;
	char quote = 0;
	int r, status = 0;

	buf = kmalloc(len + 1, GFP_KERNEL);	/* run= may hold the whole command line */
	if (!buf) {
		kprintf("shell: out of memory for the line\n");
		return -ENOMEM;
	}
	memcpy(buf, line, len + 1);
	for (p = start = buf;; p++) {
		if (*p == '"' || *p == '\'') {
			if (!quote)
				quote = *p;
			else if (quote == *p)
				quote = 0;
		}
		if ((*p == ';' && !quote) || !*p) {
			bool last = !*p;

			*p = '\0';
			r = run_one(start);
			if (r)
				status = r;
			if (last)
				break;
			start = p + 1;
		}
	}
	kfree(buf);
	return status;
}

static void complete(const char *line, size_t cursor, readline_emit_t emit, void *ctx)
{
	const struct shell_cmd *c;
	const char *word = line + cursor;

	while (word > line && word[-1] != ' ' && word[-1] != '=')
		word--;
	/* The first word of a command is a command name; later ones are paths. */
	{
		const char *p = word;

		while (p > line && p[-1] == ' ')
			p--;
		if (p == line || p[-1] == ';') {
			for (c = __shellcmds_start; c < __shellcmds_end; c++)
				emit(ctx, c->sc_name);
			return;
		}
	}
	if (path_completer)
		path_completer(word, emit, ctx);
}

/* Echo the run= commands whole: one kprintf formats at most a line buffer. */
static void echo_run(const char *cmds)
{
	size_t n;

	kprintf("run: ");
	for (; *cmds; cmds += n) {
		n = min(strlen(cmds), (size_t)256);
		kprintf("%.*s", (int)n, cmds);
	}
	kprintf("\n");
}

void shell_main(void)
{
	char line[SHELL_LINE_MAX];

	if (run_commands) {
		int r;

		echo_run(run_commands);
		r = shell_exec(run_commands);
		kprintf("run: %s\n", r ? "FAILED" : "done");
		machine_exit(r ? 1 : 0);
	}
	if (init_commands)
		shell_exec(init_commands);
	kprintf("Type help for the list of commands.\n");
	for (;;) {
		if (readline(PROMPT, line, sizeof(line), complete) > 0)
			shell_exec(line);
		shell_interrupted();	/* a Ctrl-C at the prompt is not for the next command */
	}
}

/* The command after prev in name order (the table is in link order). */
static const struct shell_cmd *next_by_name(const struct shell_cmd *prev)
{
	const struct shell_cmd *c, *next = NULL;

	for (c = __shellcmds_start; c < __shellcmds_end; c++)
		if ((!prev || strcmp(c->sc_name, prev->sc_name) > 0) &&
		    (!next || strcmp(c->sc_name, next->sc_name) < 0))
			next = c;
	return next;
}

static int cmd_help(int argc, char **argv)
{
	const struct shell_cmd *c;

	if (argc > 2)
		return -EINVAL;
	if (argc == 2) {
		c = find_cmd(argv[1]);
		if (!c) {
			kprintf("help: no command %s\n", argv[1]);
			return -ECANCELED;
		}
		kprintf("usage: %s\n  %s\n", c->sc_usage, c->sc_help);
		return 0;
	}
	for (c = next_by_name(NULL); c; c = next_by_name(c))
		kprintf("  %-40s %s\n", c->sc_usage, c->sc_help);
	return 0;
}
SHELL_COMMAND("help", cmd_help, "help [CMD]", "list the commands, or show how to use one");

static int cmd_echo(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		kprintf("%s%s", argv[i], i + 1 < argc ? " " : "");
	kprintf("\n");
	return 0;
}
SHELL_COMMAND("echo", cmd_echo, "echo [WORD...]", "print the words");
