/*
 * idestress: an LBA-stamped random read/write stress on a block device,
 * written for the IDE driver's tests but usable on any disk or partition:
 *
 *	idestress DEV[,DEV...] [sectors=N] [off=N] [ios=N] [qd=N] [seed=S]
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
 * memory from a random zone (DMA, normal, highmem, and RAM above 4 GiB
 * when there is some, which a 32-bit device needs bounced) at an offset
 * that is sometimes only 2-byte aligned; each sector written gets a new
 * generation (seed + generation), and each read checks the generation
 * last written.  Phase 2 writes the whole range with seed itself in
 * random-length pieces, issues a cache flush, and reads it all back, so
 * afterwards every sector of [off, off + sectors) holds the pattern for
 * seed, which a host script checks in the image file.  Several devices
 * (master and slave of one channel, say) run in lock-step rounds, each
 * round's bios in flight together.
 *
 * Output: "idestress DEV: ... above4g=N ... result=PASS" (N: pages above
 * 4 GiB that carried data) or result=FAIL with the first bad sectors
 * named; returns -EIO on a mismatch or an I/O error.
 *
 * Locking: everything belongs to the command's loop, which waits for a
 * whole round before touching it again, except io_err and g_pending,
 * which bi_end_io writes from interrupt context; the loop changes
 * g_pending only with interrupts off (one CPU).
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
#define STRESS_MAX_DEVS		4	/* devices stressed at once */
#define STRESS_MAX_REPORTS	8	/* bad sectors named */
#define STRESS_4G		0x100000000ULL
#define STRESS_HIGH_ORDER	10	/* 4 MiB blocks of RAM above 4 GiB */
#define STRESS_HIGH_BLOCKS	2	/* room for STRESS_MAX_QD slots of STRESS_PAGES */
#define STRESS_GRAB_MAX		4096	/* blocks held while looking for them: 16 GiB */
#define STRESS_PLACE_TRIES	64	/* random starts tried for a bio of a batch */

_Static_assert((1u << STRESS_HIGH_ORDER) / STRESS_PAGES * STRESS_HIGH_BLOCKS >= STRESS_MAX_QD,
	       "every slot has its pages above 4 GiB");

struct stress_io {
	struct stress		*io_s;
	struct page		*io_pages[STRESS_PAGES];
	u32			io_npages;
	u32			io_off;		/* byte offset in io_pages[0] */
	sector_t		io_lba;		/* device-relative */
	u32			io_nr;		/* sectors */
	bool			io_write;
	bool			io_pooled;	/* io_pages are the slot's, above 4 GiB */
	int			io_err;
};

struct stress;

/* Devices stressed together, in lock-step rounds. */
struct stress_group {
	struct stress		*g_s[STRESS_MAX_DEVS];
	u32			g_n;
	struct completion	g_done;
	u32			g_pending;	/* [irq off] bios not ended, +1 while submitting */
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
	u32			s_ios;		/* random ios to run */
	u32			s_ios_done;
	sector_t		s_sweep;	/* next sector of a sweep */
	u32			s_batch;	/* ios prepared for this round */
	struct stress_group	*s_group;
	struct stress_io	s_io[STRESS_MAX_QD];
	u64			s_bad;
	u64			s_checked;
	u64			s_above4g;	/* pages above 4 GiB used for I/O */
	struct page		*s_high[STRESS_HIGH_BLOCKS];	/* RAM above 4 GiB, or NULL */
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
	if (io->io_pooled)
		io->io_npages = 0;	/* the slot's pages above 4 GiB stay with the device */
	while (io->io_npages)
		__free_page(io->io_pages[--io->io_npages]);
}

/*
 * Blocks of RAM above 4 GiB, when the machine has some: the allocator may
 * serve lower highmem first, so what comes below is held until a block
 * above turns up, then given back.  Bounded; none found is not an error.
 */
static void stress_grab_high(struct stress *s)
{
	LIST_HEAD(held);
	struct page *p, *tmp;
	u32 n = 0, tries;

	for (tries = 0; tries < STRESS_GRAB_MAX && n < STRESS_HIGH_BLOCKS; tries++) {
		p = alloc_pages(GFP_HIGHUSER | __GFP_NOWARN, STRESS_HIGH_ORDER);
		if (!p)
			break;
		if (page_to_phys(p) >= STRESS_4G)
			s->s_high[n++] = p;
		else
			list_add(&p->lru, &held);
	}
	list_for_each_entry_safe(p, tmp, &held, lru) {
		list_del(&p->lru);
		__free_pages(p, STRESS_HIGH_ORDER);
	}
}

static void stress_release_high(struct stress *s)
{
	u32 i;

	for (i = 0; i < STRESS_HIGH_BLOCKS; i++)
		if (s->s_high[i])
			__free_pages(s->s_high[i], STRESS_HIGH_ORDER);
}

/* The page i of io's slot in the above-4 GiB blocks, or NULL if there are none. */
static struct page *stress_high_page(struct stress *s, struct stress_io *io, u32 i)
{
	u32 slot = (u32)(io - s->s_io), per = (1u << STRESS_HIGH_ORDER) / STRESS_PAGES;
	struct page *block = s->s_high[slot / per];

	if (!block)
		return NULL;
	return pfn_to_page(page_to_pfn(block) + (slot % per) * STRESS_PAGES + i);
}

/*
 * Memory for io: from the DMA zone, the normal zone, anywhere in highmem,
 * or above 4 GiB, at a random offset.  0 or -ENOMEM.
 */
static int stress_alloc_pages(struct stress *s, struct stress_io *io)
{
	static const gfp_t zones[] = { GFP_KERNEL | __GFP_DMA, GFP_KERNEL, GFP_HIGHUSER, 0 };
	u32 zone = (u32)(stress_rand(s) % ARRAY_SIZE(zones));
	u32 i, bytes = io->io_nr * SECTOR_SIZE;

	io->io_off = (u32)(stress_rand(s) % (PAGE_SIZE / 8)) * 8;
	if (stress_rand(s) % 8 == 0)
		io->io_off += 2;	/* misaligned for a dword DMA engine: bounced */
	io->io_npages = 0;
	io->io_pooled = !zones[zone] && stress_high_page(s, io, 0);
	for (i = 0; i < DIV_ROUND_UP(io->io_off + bytes, PAGE_SIZE); i++) {
		struct page *p;

		if (io->io_pooled)
			p = stress_high_page(s, io, i);
		else
			p = alloc_page(zones[zone] ? zones[zone] : GFP_HIGHUSER);
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
	if (--s->s_group->g_pending == 0)
		complete(&s->s_group->g_done);
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
	s->s_group->g_pending++;
	submit_bio(bio);
	return 0;
}

/*
 * Submit the prepared batch of every device of the group, then wait for
 * all of them: devices on one channel (master and slave) are busy at the
 * same time.  0, or -ETIMEDOUT (then the memory stays with the bios).
 */
static int stress_run_round(struct stress_group *g)
{
	unsigned long flags;
	u32 d, i;
	int err;

	init_completion(&g->g_done);
	local_irq_save(flags);
	g->g_pending = 1;	/* ours, so that no bio completes the round early */
	local_irq_restore(flags);
	for (d = 0; d < g->g_n; d++) {
		struct stress *s = g->g_s[d];

		for (err = 0, i = 0; i < s->s_batch; i++) {
			if (!err) {
				local_irq_save(flags);
				err = stress_submit(s, &s->s_io[i]);
				local_irq_restore(flags);
			}
			if (err)
				s->s_io[i].io_err = err;
		}
	}
	local_irq_save(flags);
	if (--g->g_pending == 0)
		complete(&g->g_done);
	local_irq_restore(flags);
	return wait_for_completion_timeout(&g->g_done, STRESS_WAIT_MS);
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

/* Prepare s's next random batch: non-overlapping reads and writes.  0 or -ENOMEM. */
static int stress_prep_random(struct stress *s)
{
	u32 n, i;

	for (n = 0; n < s->s_qd && s->s_ios_done + n < s->s_ios; n++) {
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
			while (n--)
				stress_free_pages(&s->s_io[n]);
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
	s->s_batch = n;
	s->s_ios_done += n;
	return 0;
}

/* Prepare s's next sweep batch: the range in order, random lengths.  0 or -ENOMEM. */
static int stress_prep_sweep(struct stress *s, bool write)
{
	sector_t end = s->s_off + s->s_sectors;
	u32 n;

	for (n = 0; n < s->s_qd && s->s_sweep < end; n++) {
		struct stress_io *io = &s->s_io[n];
		sector_t nr = 1 + stress_rand(s) % STRESS_MAX_SECT;	/* min() evaluates twice */

		io->io_s = s;
		io->io_lba = s->s_sweep;
		io->io_nr = (u32)min(nr, end - s->s_sweep);
		io->io_write = write;
		if (stress_alloc_pages(s, io)) {
			while (n--)
				stress_free_pages(&s->s_io[n]);
			return -ENOMEM;
		}
		if (write)
			stress_data(s, io, true, true);
		s->s_sweep += io->io_nr;
	}
	s->s_batch = n;
	return 0;
}

enum stress_phase { STRESS_RANDOM, STRESS_WRITE_ALL, STRESS_READ_ALL };

/*
 * Run one phase on every device of the group, round by round, until each
 * is done or has failed.  Returns 0, -ENOMEM, -EINTR or -ETIMEDOUT
 * (device errors are kept in each s_err).
 */
static int stress_phase(struct stress_group *g, enum stress_phase phase)
{
	u32 d, busy;
	int err;

	for (d = 0; d < g->g_n; d++)
		g->g_s[d]->s_sweep = g->g_s[d]->s_off;
	for (;;) {
		if (shell_interrupted())
			return -EINTR;
		for (busy = 0, d = 0; d < g->g_n; d++) {
			struct stress *s = g->g_s[d];

			s->s_batch = 0;
			if (s->s_err)
				continue;
			if (phase == STRESS_RANDOM)
				err = stress_prep_random(s);
			else
				err = stress_prep_sweep(s, phase == STRESS_WRITE_ALL);
			if (err) {
				while (d--)
					while (g->g_s[d]->s_batch)
						stress_free_pages(&g->g_s[d]->s_io[--g->g_s[d]->s_batch]);
				return err;
			}
			busy += s->s_batch;
		}
		if (!busy)
			return 0;
		err = stress_run_round(g);
		if (err)
			return err;
		for (d = 0; d < g->g_n; d++)
			stress_finish_batch(g->g_s[d], g->g_s[d]->s_batch, phase != STRESS_RANDOM);
	}
}

static void stress_flush_end(struct bio *bio, int error)
{
	struct stress *s = bio->bi_private;

	s->s_err = s->s_err ? s->s_err : error;
	bio_put(bio);
	complete(&s->s_group->g_done);
}

/* An empty flush bio: the device's FLUSH CACHE.  0, -ENOMEM or -ETIMEDOUT. */
static int stress_flush(struct stress *s)
{
	struct bio *bio = bio_alloc(GFP_NOIO, 0);

	if (!bio)
		return -ENOMEM;
	init_completion(&s->s_group->g_done);
	bio->bi_bdev = s->s_bdev;
	bio->bi_rw = REQ_WRITE | REQ_PREFLUSH | REQ_SYNC;
	bio->bi_private = s;
	bio->bi_end_io = stress_flush_end;
	submit_bio(bio);
	return wait_for_completion_timeout(&s->s_group->g_done, STRESS_WAIT_MS);
}

/* The key=value arguments, into the template t.  0 or -EINVAL. */
static int stress_parse(struct stress *t, int argc, char **argv)
{
	u64 v;
	int i;

	t->s_sectors = STRESS_DEF_SECTORS;
	t->s_qd = STRESS_DEF_QD;
	t->s_seed = 1;
	t->s_ios = STRESS_DEF_IOS;
	for (i = 2; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq || str_to_u64(eq + 1, &v, false))
			return -EINVAL;
		*eq = '\0';
		if (!strcmp(argv[i], "sectors") && v && v <= 0x7fffffff)
			t->s_sectors = (u32)v;
		else if (!strcmp(argv[i], "off"))
			t->s_off = v;
		else if (!strcmp(argv[i], "ios"))
			t->s_ios = (u32)min(v, (u64)0xffffffff);
		else if (!strcmp(argv[i], "qd") && v && v <= STRESS_MAX_QD)
			t->s_qd = (u32)v;
		else if (!strcmp(argv[i], "seed"))
			t->s_seed = v;
		else
			return -EINVAL;
	}
	return 0;
}

/* Open name for a stress shaped like t.  Returns it, or NULL (reported). */
static struct stress *stress_open(const struct stress *t, struct stress_group *g, const char *name)
{
	struct stress *s = kzalloc(sizeof(*s), GFP_KERNEL);
	sector_t cap;
	int err;

	if (!s)
		return NULL;
	s->s_bdev = bdev_lookup(name);
	if (!s->s_bdev) {
		printk("idestress: no device %s\n", name);
		goto free_s;
	}
	err = bdev_open(s->s_bdev, FMODE_READ | FMODE_WRITE, NULL);
	if (err) {
		printk("idestress: cannot open %s for writing: %s\n", name, errstr(err));
		goto put_bdev;
	}
	cap = bdev_nr_sects(s->s_bdev);
	s->s_off = t->s_off;
	s->s_sectors = (u32)min((u64)t->s_sectors, cap > t->s_off ? cap - t->s_off : 0);
	if (t->s_off >= cap || !s->s_sectors) {
		printk("idestress: nothing at sector %llu of %s (%llu sectors)\n",
		       (unsigned long long)t->s_off, name, (unsigned long long)cap);
		goto close_bdev;
	}
	s->s_gen = kcalloc(s->s_sectors, sizeof(*s->s_gen), GFP_KERNEL);
	if (!s->s_gen)
		goto close_bdev;
	s->s_base = s->s_bdev->bd_start;
	s->s_qd = t->s_qd;
	s->s_ios = t->s_ios;
	s->s_seed = t->s_seed;
	s->s_rng = (s->s_seed + s->s_base + ((u64)s->s_bdev->bd_dev << 32)) * 0x9E3779B97F4A7C15ULL | 1;
	s->s_group = g;
	stress_grab_high(s);
	return s;

close_bdev:
	bdev_close(s->s_bdev, FMODE_READ | FMODE_WRITE, NULL);
put_bdev:
	bdev_put(s->s_bdev);
free_s:
	kfree(s);
	return NULL;
}

static void stress_close(struct stress *s)
{
	stress_release_high(s);
	kfree(s->s_gen);
	bdev_close(s->s_bdev, FMODE_READ | FMODE_WRITE, NULL);
	bdev_put(s->s_bdev);
	kfree(s);
}

/* The three phases and the flush, on the whole group.  0 or -errno. */
static int stress_group_run(struct stress_group *g)
{
	u32 d;
	int err;

	err = stress_phase(g, STRESS_RANDOM);
	if (!err)
		err = stress_phase(g, STRESS_WRITE_ALL);
	for (d = 0; d < g->g_n && !err; d++)
		if (!g->g_s[d]->s_err)
			err = stress_flush(g->g_s[d]);
	if (!err)
		err = stress_phase(g, STRESS_READ_ALL);
	return err;
}

static int cmd_idestress(int argc, char **argv)
{
	struct stress_group *g;
	struct stress *t, *s;
	char *name, *next;
	u64 t0;
	u32 d;
	int err;

	if (argc < 2)
		return -EINVAL;
	g = kzalloc(sizeof(*g), GFP_KERNEL);
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	err = -ENOMEM;
	if (!g || !t)
		goto free;
	err = stress_parse(t, argc, argv);
	if (err)
		goto free;
	for (name = argv[1]; name; name = next) {
		next = strchr(name, ',');
		if (next)
			*next++ = '\0';
		err = -EINVAL;
		if (g->g_n == STRESS_MAX_DEVS)
			goto close;
		g->g_s[g->g_n] = stress_open(t, g, name);
		err = -ECANCELED;	/* reported by stress_open */
		if (!g->g_s[g->g_n])
			goto close;
		g->g_n++;
	}
	t0 = ktime_ms();
	err = stress_group_run(g);
	if (err == -ETIMEDOUT) {
		printk("idestress: no completion in %u ms; giving up\n", STRESS_WAIT_MS);
		return err;	/* bios may still point into the group: leave it all */
	}
	for (d = 0; d < g->g_n; d++) {
		s = g->g_s[d];
		printk("idestress %s: ios=%u qd=%u sectors=%u off=%llu seed=%llu checked=%llu"
		       " bad=%llu above4g=%llu ms=%llu result=%s\n", s->s_bdev->bd_name, s->s_ios,
		       s->s_qd, s->s_sectors, (unsigned long long)s->s_off,
		       (unsigned long long)s->s_seed, (unsigned long long)s->s_checked,
		       (unsigned long long)s->s_bad, (unsigned long long)s->s_above4g,
		       (unsigned long long)(ktime_ms() - t0),
		       !err && !s->s_err && !s->s_bad ? "PASS" : "FAIL");
		if (!err && (s->s_err || s->s_bad))
			err = -EIO;
	}
close:
	while (g->g_n)
		stress_close(g->g_s[--g->g_n]);
free:
	kfree(t);
	kfree(g);
	return err;
}
SHELL_COMMAND("idestress", cmd_idestress,
	      "idestress DEV[,DEV...] [sectors=N] [off=N] [ios=N] [qd=N] [seed=S]",
	      "LBA-stamped random read/write stress, then a stamped sweep (destroys data)");
