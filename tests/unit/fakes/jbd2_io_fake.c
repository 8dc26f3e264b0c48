/*
 * Host fake of fs/jbd2/io.c: journal block I/O over a buffer_file device
 * (tests/unit/fakes/buffer_file.h).  Writes go straight to the backing
 * store through direct_rw_blocks (coherent with the fake cache); a store
 * without a volatile cache needs no flush, so PREFLUSH and FUA only count.
 * Time comes from the wallclock fake; jbd2_fake_broken_commit mirrors the
 * kernel's test switch.
 */
#include "fs/jbd2/jbd2.h"
#include "fs/buffer.h"
#include "fs/direct_io.h"
#include "kernel/time.h"

bool jbd2_fake_broken_commit;
u64 jbd2_fake_flushes, jbd2_fake_fua;

u32 jbd2_default_commit_s(void)
{
	return JBD2_DEFAULT_COMMIT_S;
}

bool jbd2_io_broken_commit(void)
{
	return jbd2_fake_broken_commit;
}

u64 jbd2_now_ms(void)
{
	return wallclock_unix() * 1000;
}

u64 jbd2_now_s(void)
{
	return wallclock_unix();
}

int jbd2_io_read(struct block_device *bdev, u64 blk, u32 bsize, void *buf)
{
	return direct_rw_blocks(bdev, blk, 1, bsize, buf, false);
}

int jbd2_io_write(struct block_device *bdev, u64 blk, u32 bsize, const void *buf, u32 n,
		  unsigned flags)
{
	if (flags & JBD2_IO_PREFLUSH)
		jbd2_fake_flushes++;
	if (flags & JBD2_IO_FUA)
		jbd2_fake_fua++;
	return direct_rw_blocks(bdev, blk, n, bsize, (void *)buf, true);
}

int jbd2_io_flush(struct block_device *bdev)
{
	jbd2_fake_flushes++;
	return 0;
}
