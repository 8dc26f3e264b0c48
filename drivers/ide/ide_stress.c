/*
 * idestress: an LBA-stamped random read/write stress on a block device,
 * written for the IDE driver's tests but usable on any disk or partition:
 *
 *	idestress DEV [sectors=N] [off=N] [ios=N] [qd=N] [seed=S]
 *
 * Layer: a shell command above the block layer; bios go through
 * submit_bio() on DEV (a disk or a partition, opened for writing, so the
 * writable= policy applies), through bounce, split, merge, the elevator
 * and the driver.
 *
 * Every 512-byte sector written carries the Linux peer's bench pattern
 * (block/bench.h): word 0 its absolute disk LBA, word 1 the seed, the
 * rest derived from both.  Phase 1 runs ios random bios, qd at a time,
 * never overlapping inside a batch: random start and length (1..256
 * sectors, so LBA28 and LBA48 commands, splits and merges all occur),
 * memory from a random zone (DMA, normal, or highmem: above 4 GiB when
 * there is RAM there, so a 32-bit device bounces) at a random offset
 * that is sometimes only 2-byte aligned; each sector written gets a new
 * generation (seed + generation), and each read checks the generation
 * last written.  Phase 2 writes the whole range with seed itself in
 * random-length pieces, issues a cache flush, and reads it all back.  So
 * afterwards every sector of [off, off + sectors) holds the pattern for
 * seed, which a host script checks in the image file.
 *
 * Output: "idestress DEV: ... above4g=N ... result=PASS" (N: pages above
 * 4 GiB that carried data) or result=FAIL with the first bad sectors
 * named; returns -EIO on a mismatch or an I/O error.
 */
#include "block/bdev.h"
#include "block/bench.h"
#include "block/blkdev.h"
#include "kernel/completion.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/shell.h"
#include "kernel/time.h"
#include "kernel/mm/highmem.h"
#include "kernel/mm/slab.h"
#include "lib/byteorder.h"
#include "lib/string.h"

#define STRESS_MAX_SECT		256u	/* sectors per bio */
#define STRESS_MAX_QD		32u
#define STRESS_DEF_QD		16u
#define STRESS_DEF_IOS		2000u
#define STRESS_DEF_SECTORS	65536u	/* 32 MiB */
#define STRESS_PAGES		(STRESS_MAX_SECT * SECTOR_SIZE / PAGE_SIZE + 1)
#define STRESS_WAIT_MS		120000u	/* one batch, retries and resets included */
#define STRESS_MAX_REPORTS	8	/* bad sectors named */
#define STRESS_4G		0x100000000ULL
#define STRESS_PLACE_TRIES	64	/* random starts tried for a bio of a batch */

struct stress_io {
	struct stress		*io_s;
	struct page		*io_pages[STRESS_PAGES];
	u32			io_npages;
	u32			io_off;		/* byte offset in io_pages[0] */
	sector_t		io_lba;		/* device-relative */
	u32			io_nr;		/* sectors */
	bool			io_write;
	int			io_err;
};

struct stress {
	struct block_device	*s_bdev;
	sector_t		s_base;		/* disk LBA of device sector 0 */
	sector_t		s_off;		/* the range, device-relative */
	u32			s_sectors;
	u64			s_seed;
	u64			s_rng;
	u16			*s_gen;		/* generation last written, 0: none */
	u32			s_qd;
	struct stress_io	s_io[STRESS_MAX_QD];
	struct completion	s_done;
	u32			s_pending;	/* [irq off] bios not ended */
	u64			s_bad;
	u64			s_checked;
	u64			s_above4g;	/* pages above 4 GiB used for I/O */
	int			s_err;
};

static u64 stress_rand(struct stress *s)
{
	u64 x = s->s_rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	s->s_rng = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static void stress_free_pages(struct stress_io *io)
{
	while (io->io_npages)
		__free_page(io->io_pages[--io->io_npages]);
}

/* Pages for io from a random zone, at a random offset.  0 or -ENOMEM. */
static int stress_alloc_pages(struct stress *s, struct stress_io *io)
{
	static const gfp_t zones[] = { GFP_KERNEL | __GFP_DMA, GFP_KERNEL, GFP_HIGHUSER };
	gfp_t gfp = zones[stress_rand(s) % ARRAY_SIZE(zones)];
	u32 i, bytes = io->io_nr * SECTOR_SIZE;

	io->io_off = (u32)(stress_rand(s) % (PAGE_SIZE / 8)) * 8;
	if (stress_rand(s) % 8 == 0)
		io->io_off += 2;	/* misaligned for a dword DMA engine: bounced */
	io->io_npages = 0;
	for (i = 0; i < DIV_ROUND_UP(io->io_off + bytes, PAGE_SIZE); i++) {
		struct page *p = alloc_page(gfp);

		if (!p)
			p = alloc_page(GFP_KERNEL);
		if (!p) {
			stress_free_pages(io);
			return -ENOMEM;
		}
		if (page_to_phys(p) >= STRESS_4G)
			s->s_above4g++;
		io->io_pages[io->io_npages++] = p;
	}
	return 0;
}

/* Copy one sector between buf and byte pos of io's memory. */
static void stress_copy(struct stress_io *io, u32 pos, u8 *buf, bool to_pages)
{
	u32 done = 0;

	pos += io->io_off;
	while (done < SECTOR_SIZE) {
		u32 in = pos & (PAGE_SIZE - 1), n = min(SECTOR_SIZE - done, (u32)PAGE_SIZE - in);
		u8 *va = kmap_atomic(io->io_pages[pos / PAGE_SIZE]);

		if (to_pages)
			memcpy(va + in, buf + done, n);
		else
			memcpy(buf + done, va + in, n);
		kunmap_atomic(va);
		pos += n;
		done += n;
	}
}

/* The seed sector lba carries after generation gen (0: the final seed). */
static u64 stress_seed(const struct stress *s, u16 gen)
{
	return s->s_seed + gen;
}

static void stress_endio(struct bio *bio, int error)
{
	struct stress_io *io = bio->bi_private;
	struct stress *s = io->io_s;

	io->io_err = error;
	bio_put(bio);
	if (--s->s_pending == 0)
		complete(&s->s_done);
}

/* Build and submit io's bio.  0 or -ENOMEM (then nothing is in flight for it). */
static int stress_submit(struct stress *s, struct stress_io *io)
{
	u32 bytes = io->io_nr * SECTOR_SIZE, pos = io->io_off, left = bytes, i = 0;
	struct bio *bio = bio_alloc(GFP_NOIO, io->io_npages);

	if (!bio)
		return -ENOMEM;
	bio->bi_bdev = s->s_bdev;
	bio->bi_iter.bi_sector = io->io_lba;
	bio->bi_rw = io->io_write ? REQ_WRITE : 0;
	while (left) {
		u32 in = pos & (PAGE_SIZE - 1), n = min(left, (u32)PAGE_SIZE - in);

		if (bio_add_page(bio, io->io_pages[i++], n, in)) {
			bio_put(bio);
			return -ENOMEM;
		}
		pos += n;
		left -= n;
	}
	bio->bi_private = io;
	bio->bi_end_io = stress_endio;
	io->io_err = 0;
	s->s_pending++;
	submit_bio(bio);
	return 0;
}

/* Submit n prepared ios and wait for all of them.  0, or -ETIMEDOUT (leaked). */
static int stress_run_batch(struct stress *s, u32 n)
{
	unsigned long flags;
	u32 i;
	int err = 0;

	init_completion(&s->s_done);
	local_irq_save(flags);
	s->s_pending = 1;	/* ours, so that no bio completes the batch early */
	local_irq_restore(flags);
	for (i = 0; i < n && !err; i++) {
		local_irq_save(flags);
		err = stress_submit(s, &s->s_io[i]);
		local_irq_restore(flags);
		if (err)
			s->s_io[i].io_err = err;
	}
	for (; i < n; i++)
		s->s_io[i].io_err = err;
	local_irq_save(flags);
	if (--s->s_pending == 0)
		complete(&s->s_done);
	local_irq_restore(flags);
	if (wait_for_completion_timeout(&s->s_done, STRESS_WAIT_MS))
		return -ETIMEDOUT;
	return err;
}

static void stress_bad(struct stress *s, sector_t lba, const u8 *buf, u64 seed)
{
	if (s->s_bad++ < STRESS_MAX_REPORTS)
		printk("idestress %s: LBA %llu: w0=%#llx w1=%#llx, wanted LBA %llu seed %#llx\n",
		       s->s_bdev->bd_name, (unsigned long long)(s->s_base + lba),
		       (unsigned long long)get_le64(buf), (unsigned long long)get_le64(buf + 8),
		       (unsigned long long)(s->s_base + lba), (unsigned long long)seed);
}

/* Stamp a write's sectors (gen 0: the final seed), or check a read's. */
static void stress_data(struct stress *s, struct stress_io *io, bool final, bool fill)
{
	u8 buf[SECTOR_SIZE];
	u32 i;

	for (i = 0; i < io->io_nr; i++) {
		sector_t rel = io->io_lba + i - s->s_off;
		u16 gen = final ? 0 : s->s_gen[rel];
		u64 seed = stress_seed(s, gen);

		if (fill) {
			bench_fill_sector(buf, s->s_base + io->io_lba + i, seed);
			stress_copy(io, i * SECTOR_SIZE, buf, true);
			continue;
		}
		if (!final && !gen)
			continue;	/* never written here: anything goes */
		stress_copy(io, i * SECTOR_SIZE, buf, false);
		s->s_checked++;
		if (!bench_check_sector(buf, s->s_base + io->io_lba + i, seed))
			stress_bad(s, io->io_lba + i, buf, seed);
	}
}

/* Does [lba, lba + nr) overlap one of the first n ios of the batch? */
static bool stress_overlaps(const struct stress *s, u32 n, sector_t lba, u32 nr)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (lba < s->s_io[i].io_lba + s->s_io[i].io_nr && s->s_io[i].io_lba < lba + nr)
			return true;
	return false;
}

/* Check and release a finished batch; records the first I/O error. */
static void stress_finish_batch(struct stress *s, u32 n, bool final)
{
	u32 i;

	for (i = 0; i < n; i++) {
		struct stress_io *io = &s->s_io[i];

		if (io->io_err && !s->s_err) {
			printk("idestress %s: %s at %llu+%u failed: %s\n", s->s_bdev->bd_name,
			       io->io_write ? "write" : "read", (unsigned long long)io->io_lba,
			       io->io_nr, errstr(io->io_err));
			s->s_err = io->io_err;
		}
		if (!io->io_err && !io->io_write)
			stress_data(s, io, final, false);
		stress_free_pages(io);
	}
}

/* Phase 1: random batches of non-overlapping reads and writes. */
static int stress_random(struct stress *s, u32 ios)
{
	u32 done = 0, n, i, j;
	int err;

	while (done < ios && !s->s_err) {
		if (shell_interrupted())
			return -EINTR;
		for (n = 0; n < s->s_qd && done + n < ios; n++) {
			struct stress_io *io = &s->s_io[n];
			u32 nr = 1 + (u32)(stress_rand(s) % min(STRESS_MAX_SECT, s->s_sectors));
			u32 tries = 0;
			sector_t lba;

			do {
				lba = s->s_off + stress_rand(s) % (s->s_sectors - nr + 1);
			} while (stress_overlaps(s, n, lba, nr) && ++tries < STRESS_PLACE_TRIES);
			if (tries == STRESS_PLACE_TRIES)
				break;	/* a small range is full: run the batch as it is */
			io->io_s = s;
			io->io_lba = lba;
			io->io_nr = nr;
			io->io_write = stress_rand(s) & 1;
			if (stress_alloc_pages(s, io)) {
				for (j = 0; j < n; j++)
					stress_free_pages(&s->s_io[j]);
				return -ENOMEM;
			}
			if (io->io_write) {
				for (i = 0; i < nr; i++) {
					u16 *g = &s->s_gen[lba + i - s->s_off];

					*g = (u16)(*g == 0xffff ? 1 : *g + 1);
				}
				stress_data(s, io, false, true);
			}
		}
		err = stress_run_batch(s, n);
		if (err == -ETIMEDOUT)
			return err;
		stress_finish_batch(s, n, false);
		done += n;
	}
	return s->s_err;
}

/* Phase 2 (write) and 3 (read back): the whole range in random pieces. */
static int stress_sweep(struct stress *s, bool write)
{
	sector_t lba = s->s_off, end = s->s_off + s->s_sectors;
	u32 n;
	int err;

	while (lba < end && !s->s_err) {
		for (n = 0; n < s->s_qd && lba < end; n++) {
			struct stress_io *io = &s->s_io[n];

			io->io_s = s;
			io->io_lba = lba;
			io->io_nr = (u32)min((sector_t)(1 + stress_rand(s) % STRESS_MAX_SECT),
					     end - lba);
			io->io_write = write;
			if (stress_alloc_pages(s, io)) {
				while (n--)
					stress_free_pages(&s->s_io[n]);
				return -ENOMEM;
			}
			if (write)
				stress_data(s, io, true, true);
			lba += io->io_nr;
		}
		err = stress_run_batch(s, n);
		if (err == -ETIMEDOUT)
			return err;
		stress_finish_batch(s, n, true);
	}
	return s->s_err;
}

static void stress_flush_end(struct bio *bio, int error)
{
	struct stress *s = bio->bi_private;

	s->s_err = s->s_err ? s->s_err : error;
	bio_put(bio);
	complete(&s->s_done);
}

/* An empty flush bio: the device's FLUSH CACHE.  0 or -errno. */
static int stress_flush(struct stress *s)
{
	struct bio *bio = bio_alloc(GFP_NOIO, 0);

	if (!bio)
		return -ENOMEM;
	init_completion(&s->s_done);
	bio->bi_bdev = s->s_bdev;
	bio->bi_rw = REQ_WRITE | REQ_PREFLUSH | REQ_SYNC;
	bio->bi_private = s;
	bio->bi_end_io = stress_flush_end;
	submit_bio(bio);
	if (wait_for_completion_timeout(&s->s_done, STRESS_WAIT_MS))
		return -ETIMEDOUT;
	return s->s_err;
}

static int stress_parse(struct stress *s, int argc, char **argv, u32 *ios)
{
	u64 v, cap = bdev_nr_sects(s->s_bdev);
	int i;

	s->s_sectors = (u32)min(cap, (u64)STRESS_DEF_SECTORS);
	s->s_qd = STRESS_DEF_QD;
	s->s_seed = 1;
	*ios = STRESS_DEF_IOS;
	for (i = 2; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq || str_to_u64(eq + 1, &v, false))
			return -EINVAL;
		*eq = '\0';
		if (!strcmp(argv[i], "sectors") && v && v <= 0x7fffffff)
			s->s_sectors = (u32)v;
		else if (!strcmp(argv[i], "off"))
			s->s_off = v;
		else if (!strcmp(argv[i], "ios"))
			*ios = (u32)min(v, (u64)0xffffffff);
		else if (!strcmp(argv[i], "qd") && v && v <= STRESS_MAX_QD)
			s->s_qd = (u32)v;
		else if (!strcmp(argv[i], "seed"))
			s->s_seed = v;
		else
			return -EINVAL;
	}
	if (s->s_off >= cap || s->s_sectors > cap - s->s_off) {
		printk("idestress: %u sectors at %llu do not fit in %s (%llu sectors)\n",
		       s->s_sectors, (unsigned long long)s->s_off, s->s_bdev->bd_name,
		       (unsigned long long)cap);
		return -ECANCELED;
	}
	return 0;
}

static int cmd_idestress(int argc, char **argv)
{
	struct stress *s;
	u64 t0;
	u32 ios;
	int err;

	if (argc < 2)
		return -EINVAL;
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	s->s_bdev = bdev_lookup(argv[1]);
	if (!s->s_bdev) {
		printk("idestress: no device %s\n", argv[1]);
		err = -ECANCELED;
		goto free_s;
	}
	err = bdev_open(s->s_bdev, FMODE_READ | FMODE_WRITE, NULL);
	if (err) {
		printk("idestress: cannot open %s for writing: %s\n", argv[1], errstr(err));
		err = -ECANCELED;
		goto put_bdev;
	}
	err = stress_parse(s, argc, argv, &ios);
	if (err)
		goto close_bdev;
	s->s_base = s->s_bdev->bd_start;
	s->s_rng = s->s_seed * 0x9E3779B97F4A7C15ULL | 1;
	s->s_gen = kcalloc(s->s_sectors, sizeof(*s->s_gen), GFP_KERNEL);
	if (!s->s_gen) {
		err = -ENOMEM;
		goto close_bdev;
	}
	t0 = ktime_ms();
	err = stress_random(s, ios);
	if (!err)
		err = stress_sweep(s, true);
	if (!err)
		err = stress_flush(s);
	if (!err)
		err = stress_sweep(s, false);
	printk("idestress %s: ios=%u qd=%u sectors=%u off=%llu seed=%llu checked=%llu bad=%llu"
	       " above4g=%llu ms=%llu result=%s\n", s->s_bdev->bd_name, ios, s->s_qd, s->s_sectors,
	       (unsigned long long)s->s_off, (unsigned long long)s->s_seed,
	       (unsigned long long)s->s_checked, (unsigned long long)s->s_bad,
	       (unsigned long long)s->s_above4g, (unsigned long long)(ktime_ms() - t0), !err && !s->s_bad ? "PASS" : "FAIL");
	if (!err && s->s_bad)
		err = -EIO;
	if (err == -ETIMEDOUT)
		return err;	/* bios may still point into s: leave it all */
	kfree(s->s_gen);
close_bdev:
	bdev_close(s->s_bdev, FMODE_READ | FMODE_WRITE, NULL);
put_bdev:
	bdev_put(s->s_bdev);
free_s:
	kfree(s);
	return err;
}
SHELL_COMMAND("idestress", cmd_idestress,
	      "idestress DEV [sectors=N] [off=N] [ios=N] [qd=N] [seed=S]",
	      "LBA-stamped random read/write stress, then a stamped sweep (destroys data)");
