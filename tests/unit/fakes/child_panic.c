/*
 * Death tests for the host unit tests (contract: child_panic.h).
 *
 * The code under test runs in a forked child so that its panic(), which
 * the host shim turns into abort(), ends only the child.  The child's
 * stderr comes back through a pipe that the parent reads until EOF (at
 * most CHILD_OUT_MAX bytes are kept, the rest is drained), so the child
 * never blocks on a full pipe before it dies.  Then the parent checks the
 * signal and looks for the expected message.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "tests/unit/fakes/child_panic.h"

#define CHILD_OUT_MAX	512	/* bytes of the child's stderr kept */

bool host_child_panics(void (*setup)(void), void (*fn)(void), const char *msg)
{
	char buf[CHILD_OUT_MAX], sink[256];
	size_t total = 0;
	ssize_t len;
	int fds[2], status;
	pid_t pid;

	if (pipe(fds) != 0)
		return false;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return false;
	}
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], 2);
		if (setup)
			setup();
		fn();
		_exit(0);
	}
	close(fds[1]);
	for (;;) {
		if (total < sizeof(buf) - 1)
			len = read(fds[0], buf + total, sizeof(buf) - 1 - total);
		else
			len = read(fds[0], sink, sizeof(sink));	/* drain the rest */
		if (len <= 0)
			break;
		if (total < sizeof(buf) - 1)
			total += (size_t)len;
	}
	buf[total] = '\0';
	close(fds[0]);
	if (waitpid(pid, &status, 0) != pid)
		return false;
	if (!strstr(buf, msg))
		fprintf(stderr, "  child said: %s\n", buf);
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT && strstr(buf, msg) != NULL;
}
