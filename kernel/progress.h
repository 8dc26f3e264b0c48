/*
 * Progress lines for long-running shell commands (bench, dd, cp, fill,
 * stress).  On an interactive console the line updates in place, at most
 * a few times a second; in a scripted run it is printed every
 * PROGRESS_PERIODIC_MS instead, so logs stay readable.  Ctrl-C is checked
 * at every update: the command stops between I/Os, after those in flight.
 *
 *	struct progress p;
 *	progress_start(&p, "dd", total_bytes);
 *	while (...) {
 *		...
 *		if (progress_update(&p, done_bytes))
 *			break;		// Ctrl-C: finish what is in flight, stop
 *	}
 *	progress_end(&p, done_bytes);
 */
#ifndef KERNEL_PROGRESS_H
#define KERNEL_PROGRESS_H

#include "kernel/types.h"

#define PROGRESS_TTY_MS		250	/* in-place refresh interval */
#define PROGRESS_PERIODIC_MS	5000	/* line interval when not interactive */

struct progress {
	const char	*pg_what;
	u64		pg_total;	/* bytes; 0 if unknown */
	u64		pg_start_ns;
	u64		pg_last_ns;	/* last line printed */
	bool		pg_tty;
	bool		pg_drawn;	/* an in-place line is on screen */
	bool		pg_stopped;	/* Ctrl-C seen */
	const struct progress *pg_follow;	/* see progress_start_share() */
};

void progress_start(struct progress *p, const char *what, u64 total_bytes);
/*
 * The progress of a share of a command's work run on another CPU: it
 * prints nothing and stops when leader, the command's own, does (which
 * alone watches for Ctrl-C).  leader NULL: as progress_start().
 */
void progress_start_share(struct progress *p, const char *what, u64 total_bytes,
			  const struct progress *leader);
/* Returns true if the user asked to stop (Ctrl-C). */
bool progress_update(struct progress *p, u64 done_bytes);
/* Clear the in-place line; prints nothing else. */
void progress_end(struct progress *p, u64 done_bytes);

#endif
