/*
 * Line editing on the console: cursor movement, history, kill commands,
 * and Tab completion through a callback.  Used by the shell.
 */
#ifndef KERNEL_READLINE_H
#define KERNEL_READLINE_H

#include "kernel/types.h"

/*
 * Complete the word in line[0..len) that ends at the cursor.  Call
 * emit(candidate) for every completion of the whole word; the editor
 * inserts the common prefix, and lists them when there is more than one.
 */
typedef void (*readline_emit_t)(void *ctx, const char *candidate);
typedef void (*readline_complete_t)(const char *line, size_t cursor,
				    readline_emit_t emit, void *ctx);

/*
 * Read a line into buf (at most size-1 characters), editing in place.
 * Returns its length, or -1 if Ctrl-C abandoned it.
 */
int readline(const char *prompt, char *buf, size_t size, readline_complete_t complete);

#endif
