/*
 * Shell commands for DISCARD and WRITE ZEROES: blkdiscard and blkzeroout.
 *
 * Layer: diagnostics, above the block layer's sync helper
 * (block/blkdev_io.h).  Both take a device (disk or partition) and an
 * optional byte range OFF LEN (K/M/G suffixes as in dd), the whole
 * device without it; both must be whole logical blocks.  The device is
 * opened for writing first, so one not named in writable= is refused
 * with a message before any I/O is built (bdev_remap would refuse it
 * too, but without saying why in words a user can act on).
 *
 * blkdiscard fails on a device without discard ("not supported");
 * blkzeroout always works, by WRITE ZEROES or by writing zeroes.
 */
#include "block/bdev.h"
#include "block/blkdev_io.h"
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/shell.h"
#include "lib/string.h"

typedef int (range_fn)(struct block_device *bdev, sector_t sector, u64 nr_sects);

/* Parse DEV [OFF LEN], open DEV for writing and run fn on the range. */
static int range_cmd(const char *cmd, int argc, char **argv, range_fn *fn)
{
	struct block_device *b;
	u64 off = 0, len = 0, size;
	int err;

	if (argc != 2 && argc != 4)
		return -EINVAL;
	if (argc == 4 && (str_to_u64(argv[2], &off, true) || str_to_u64(argv[3], &len, true)))
		return -EINVAL;
	b = bdev_lookup(argv[1]);
	if (!b) {
		kprintf("%s: %s: no such block device\n", cmd, argv[1]);
		return -ECANCELED;
	}
	err = bdev_open(b, FMODE_WRITE, NULL);
	if (err == -EROFS) {
		kprintf("%s: %s: read-only (name it in writable= to allow this)\n", cmd, argv[1]);
		err = -ECANCELED;
		goto put;
	}
	if (err)
		goto put;
	size = blkdev_size(b);
	if (argc == 2)
		len = size;
	if (off > size || len > size - off) {
		kprintf("%s: %s: range past the end (%llu bytes)\n", cmd, argv[1],
			(unsigned long long)size);
		err = -ECANCELED;
		goto close;
	}
	if ((off | len) & (SECTOR_SIZE - 1)) {
		kprintf("%s: OFF and LEN must be whole sectors\n", cmd);
		err = -ECANCELED;
		goto close;
	}
	err = fn(b, off >> SECTOR_SHIFT, len >> SECTOR_SHIFT);
	if (err == -EOPNOTSUPP) {
		kprintf("%s: %s: not supported by the device\n", cmd, argv[1]);
		err = -ECANCELED;
	} else if (!err) {
		kprintf("%s: %s: %llu bytes at %llu\n", cmd, argv[1],
			(unsigned long long)len, (unsigned long long)off);
	}
close:
	bdev_close(b, FMODE_WRITE, NULL);
put:
	bdev_put(b);
	return err;
}

static int cmd_blkdiscard(int argc, char **argv)
{
	return range_cmd("blkdiscard", argc, argv, blkdev_issue_discard);
}
SHELL_COMMAND("blkdiscard", cmd_blkdiscard, "blkdiscard DEV [OFF LEN]",
	      "discard (TRIM) a byte range of a device, all of it without OFF LEN");

static int cmd_blkzeroout(int argc, char **argv)
{
	return range_cmd("blkzeroout", argc, argv, blkdev_issue_zeroout);
}
SHELL_COMMAND("blkzeroout", cmd_blkzeroout, "blkzeroout DEV [OFF LEN]",
	      "make a byte range of a device read as zeroes (WRITE ZEROES or writes)");
