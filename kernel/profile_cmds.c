/*
 * `profile CMD [ARG...]`: run one shell command under the sampling
 * profiler (kernel/profile.h) and print where the CPU spent its time.
 * The command's words are joined back into one line, quoting those that
 * hold blanks, and run through the shell as if typed.
 */
#include "kernel/errno.h"
#include "kernel/profile.h"
#include "kernel/shell.h"
#include "lib/string.h"

/* Join argv back into one command line, quoting words that hold blanks. */
static int join_words(int argc, char **argv, char *line, size_t size)
{
	size_t len = 0;
	int i;

	line[0] = '\0';
	for (i = 0; i < argc; i++) {
		bool quote = strchr(argv[i], ' ') || strchr(argv[i], '\t');
		size_t need = strlen(argv[i]) + (quote ? 2 : 0) + 1;

		if (len + need >= size)
			return -E2BIG;
		len += snprintf(line + len, size - len, "%s%s%s%s", i ? " " : "",
				quote ? "\"" : "", argv[i], quote ? "\"" : "");
	}
	return 0;
}

static int cmd_profile(int argc, char **argv)
{
	char line[SHELL_LINE_MAX];
	int err;

	if (argc < 2 || !strcmp(argv[1], "profile"))
		return -EINVAL;
	err = join_words(argc - 1, argv + 1, line, sizeof(line));
	if (err)
		return err;
	err = profile_start();
	if (err)
		return err;
	err = shell_exec(line);
	profile_stop();
	return err < 0 ? -ECANCELED : 0;
}
SHELL_COMMAND("profile", cmd_profile, "profile CMD [ARG...]",
	      "run a command and show where the CPU spent its time (sampled each tick)");
