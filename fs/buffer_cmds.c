/*
 * The buffer cache's shell command (diagnostics over fs/buffer_priv.h):
 *
 *	buffers		size of the cache and its counters, one line:
 *	buffer cache: N blocks, N KiB of N KiB; hits N, misses N,
 *	read ahead N, written N; direct N
 *
 * The format is read by tests; the counters are the cache's own, since
 * boot (hits and misses of bread, blocks read ahead and written back,
 * blocks moved by direct_rw_blocks around the cache).
 */
#include "fs/buffer_priv.h"
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/shell.h"

static int cmd_buffers(int argc, char **argv)
{
	if (argc != 1)
		return -EINVAL;
	kprintf("buffer cache: %llu blocks, %llu KiB of %llu KiB; hits %llu, misses %llu, "
		"read ahead %llu, written %llu; direct %llu\n",
		(unsigned long long)bcache.nr_buffers, (unsigned long long)(bcache.bytes >> 10),
		(unsigned long long)(bcache_limit >> 10), (unsigned long long)bcache.hits,
		(unsigned long long)bcache.misses, (unsigned long long)bcache.readahead,
		(unsigned long long)bcache.writes, (unsigned long long)bcache.direct);
	return 0;
}
SHELL_COMMAND("buffers", cmd_buffers, "buffers", "buffer cache size and hit counts");
