/*
 * dd and hexdump: bytes between block devices and files.
 *
 * An endpoint is a block device when bdev_lookup() knows the name ("sda",
 * "sda1", "/dev/sda1", "PARTUUID=..."), otherwise an absolute path in the
 * VFS ("/sda2/file").
 * Devices are opened for writing only as dd's output, so writable= and the
 * exclusive claims of mounted filesystems apply (-EROFS, -EBUSY); dd ends
 * a device output with a cache flush, so what it reports copied is on the
 * medium.
 */
#include "block/bdev.h"
#include "block/blkdev_io.h"
#include "fs/vfs.h"
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/progress.h"
#include "kernel/shell.h"
#include "kernel/time.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

#define DD_MAX_BS	(4u << 20)	/* largest block size dd takes */
#define HEXDUMP_MAX	(1u << 20)

struct endpoint {
	struct block_device	*ep_bdev;
	fmode_t			ep_mode;
	struct vfs_file		*ep_file;
	const char		*ep_name;
};

static int ep_open(struct endpoint *ep, const char *name, bool write)
{
	int err;

	memset(ep, 0, sizeof(*ep));
	ep->ep_name = name;
	ep->ep_bdev = bdev_lookup(name);
	if (ep->ep_bdev) {
		ep->ep_mode = FMODE_READ | (write ? FMODE_WRITE : 0);
		err = bdev_open(ep->ep_bdev, ep->ep_mode, NULL);
		if (err) {
			bdev_put(ep->ep_bdev);
			ep->ep_bdev = NULL;
		}
		return err;
	}
	if (name[0] != '/')	/* not a path: a device that does not exist */
		return -ENODEV;
	return vfs_open(name, write ? VFS_O_WRONLY | VFS_O_CREAT : VFS_O_RDONLY, 0644,
			&ep->ep_file);
}

static void ep_close(struct endpoint *ep)
{
	if (ep->ep_bdev) {
		bdev_close(ep->ep_bdev, ep->ep_mode, NULL);
		bdev_put(ep->ep_bdev);
	} else if (ep->ep_file) {
		vfs_close(ep->ep_file);
	}
	ep->ep_bdev = NULL;
	ep->ep_file = NULL;
}

static long ep_pread(struct endpoint *ep, void *buf, size_t len, u64 off)
{
	if (ep->ep_bdev)
		return blkdev_pread(ep->ep_bdev, buf, len, off);
	return vfs_pread(ep->ep_file, buf, len, off);
}

static long ep_pwrite(struct endpoint *ep, const void *buf, size_t len, u64 off)
{
	if (ep->ep_bdev)
		return blkdev_pwrite(ep->ep_bdev, buf, len, off);
	return vfs_pwrite(ep->ep_file, buf, len, off);
}

static u64 ep_size(struct endpoint *ep)
{
	struct vfs_stat st;

	if (ep->ep_bdev)
		return blkdev_size(ep->ep_bdev);
	return vfs_fstat(ep->ep_file, &st) ? 0 : st.st_size;
}

static int parse_num(const char *s, u64 *v)
{
	return str_to_u64(s, v, true);
}

/* dd if=SRC of=DST [bs=N] [count=N] [skip=N] [seek=N] */
static int cmd_dd(int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	u64 bs = 512, count = ~0ULL, skip = 0, seek = 0, done = 0, t0, us;
	u64 full_in = 0, full_out = 0;		/* whole records read, written */
	unsigned int part_in = 0, part_out = 0;	/* a short last record */
	struct endpoint src, dst;
	struct progress pg = { 0 };	/* pg_follow NULL: a progress of its own */
	u8 *buf = NULL;
	int i, err = 0;

	for (i = 1; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		const char *k = argv[i];

		if (!eq)
			return -EINVAL;
		*eq = '\0';
		if (!strcmp(k, "if"))
			in = eq + 1;
		else if (!strcmp(k, "of"))
			out = eq + 1;
		else if ((!strcmp(k, "bs") && !parse_num(eq + 1, &bs)) ||
			 (!strcmp(k, "count") && !parse_num(eq + 1, &count)) ||
			 (!strcmp(k, "skip") && !parse_num(eq + 1, &skip)) ||
			 (!strcmp(k, "seek") && !parse_num(eq + 1, &seek)))
			continue;
		else
			return -EINVAL;
	}
	if (!in || !out || bs == 0 || bs > DD_MAX_BS) {
		if (bs > DD_MAX_BS)
			kprintf("dd: bs is at most %u\n", DD_MAX_BS);
		return -EINVAL;
	}
	err = ep_open(&src, in, false);
	if (err) {
		kprintf("dd: %s: %s\n", in, errstr(err));
		return -ECANCELED;
	}
	err = ep_open(&dst, out, true);
	if (err) {
		kprintf("dd: %s: %s\n", out, errstr(err));
		ep_close(&src);
		return -ECANCELED;
	}
	buf = kmalloc((size_t)bs, GFP_KERNEL);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	{
		u64 avail = ep_size(&src) > skip * bs ? ep_size(&src) - skip * bs : 0;

		progress_start(&pg, "dd", count != ~0ULL ? min(count * bs, avail) : avail);
	}
	t0 = ktime_ns();
	while (full_in < count) {
		long n = ep_pread(&src, buf, (size_t)bs, (skip + full_in) * bs), wrote;
		bool short_rec;

		if (n < 0) {
			kprintf("dd: reading %s: %s\n", in, errstr((int)n));
			err = (int)n;
			break;
		}
		if (n == 0)
			break;
		short_rec = (u64)n < bs;
		if (short_rec)
			part_in = 1;
		else
			full_in++;
		wrote = ep_pwrite(&dst, buf, (size_t)n, seek * bs + done);
		if (wrote != n) {
			err = wrote < 0 ? (int)wrote : -ENOSPC;
			kprintf("dd: writing %s: %s\n", out, errstr(err));
			break;
		}
		done += (u64)n;
		if (short_rec) {
			part_out = 1;
			break;
		}
		full_out++;
		if (progress_update(&pg, done))
			break;
	}
	progress_end(&pg, done);
	if (!err && dst.ep_bdev)
		err = blkdev_flush(dst.ep_bdev);
	us = (ktime_ns() - t0) / 1000;
	kprintf("%llu+%u records in\n%llu+%u records out\n", full_in, part_in, full_out, part_out);
	kprintf("%llu bytes copied, %llu.%06llu s, %llu KiB/s\n", done, us / 1000000, us % 1000000,
		us ? done * 1000000 / us / 1024 : 0);
out:
	kfree(buf);
	ep_close(&dst);
	ep_close(&src);
	return err ? -ECANCELED : 0;	/* reported above */
}
SHELL_COMMAND("dd", cmd_dd, "dd if=SRC of=DST [bs=N] [count=N] [skip=N] [seek=N]",
	      "copy blocks between devices and files (sizes take K/M/G)");

/* hexdump DEV|PATH [OFFSET [LEN]] */
static int cmd_hexdump(int argc, char **argv)
{
	u64 off = 0, len = 512, i;
	struct endpoint ep;
	u8 *buf;
	long n;
	int err;

	if (argc < 2 || argc > 4 || (argc > 2 && parse_num(argv[2], &off)) ||
	    (argc > 3 && parse_num(argv[3], &len)))
		return -EINVAL;
	if (len > HEXDUMP_MAX) {
		kprintf("hexdump: at most %u bytes at a time\n", HEXDUMP_MAX);
		return -ECANCELED;
	}
	err = ep_open(&ep, argv[1], false);
	if (err) {
		kprintf("hexdump: %s: %s\n", argv[1], errstr(err));
		return -ECANCELED;
	}
	buf = kmalloc(len ? (size_t)len : 1, GFP_KERNEL);
	if (!buf) {
		ep_close(&ep);
		return -ENOMEM;
	}
	n = ep_pread(&ep, buf, (size_t)len, off);
	if (n == 0 && len && off) {
		kprintf("hexdump: %s: offset %llu is at or past the end\n", argv[1],
			(unsigned long long)off);
		n = -ENXIO;
		goto out;
	}
	if (n < 0) {
		kprintf("hexdump: %s: %s\n", argv[1], errstr((int)n));
		goto out;
	}
	for (i = 0; i < (u64)n; i += 16) {
		char line[80];
		int p = snprintf(line, sizeof(line), "%08llx  ", off + i);
		unsigned j;

		for (j = 0; j < 16; j++)
			p += i + j < (u64)n ?
			     snprintf(line + p, sizeof(line) - p, j == 7 ? "%02x  " : "%02x ", buf[i + j]) :
			     snprintf(line + p, sizeof(line) - p, j == 7 ? "    " : "   ");
		p += snprintf(line + p, sizeof(line) - p, " |");
		for (j = 0; j < 16 && i + j < (u64)n; j++)
			line[p++] = buf[i + j] >= 0x20 && buf[i + j] < 0x7f ? (char)buf[i + j] : '.';
		kprintf("%.*s|\n", p, line);
	}
	kprintf("%08llx\n", off + (u64)n);
out:
	kfree(buf);
	ep_close(&ep);
	return n < 0 ? -ECANCELED : 0;
}
SHELL_COMMAND("hexdump", cmd_hexdump, "hexdump DEV|PATH [OFFSET [LEN]]",
	      "show bytes of a device or file in hex and ASCII (default 512 bytes)");
