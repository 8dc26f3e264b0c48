/*
 * stress: LBA-stamped data-integrity stress on any block device, through
 * the block layer (bios, the elevator, tags, bounce, split, merge):
 *
 *	stress DEV[,DEV...] [ios=N | secs=N] [qd=N] [seed=S] [off=SIZE] [span=SIZE]
 *	       [max=SECTORS] [op=both|write|read] [high=1] [at=N during='CMD']
 *
 * Every 512-byte sector written carries the Linux peer's pattern
 * (block/bench.h): word 0 its absolute disk LBA, word 1 a seed, the rest
 * derived from both, so a host tool (tools/lbapattern) can check an image
 * afterwards.  Sizes are bench's: a bare number is MiB, "2048s" sectors.
 *
 * Three phases on the range [off, off + span) of each device, qd I/Os in
 * flight per device, all devices at once (master and slave of an IDE
 * channel, say):
 *
 *   random  ios I/Os (or secs of them): reads, writes and cache flushes
 *           mixed, at random places and lengths (1..max sectors), never
 *           two overlapping in flight; each write stamps its sectors with
 *           a new generation (seed + n) and each read checks the last one.
 *   write   the whole range in shuffled chunks of 1..max sectors, stamped
 *           with seed itself, each chunk one request (REQ_NOMERGE, so an
 *           injected error fails exactly the chunk holding its sector),
 *           then a cache flush.
 *   read    the chunks again in another order, every sector checked.
 *
 * op=write keeps the random phase and the write (and flush), op=read only
 * the read phase (the device is then opened read-only); ios=0 skips the
 * random phase.  Memory comes from a random zone -- DMA,
 * normal, highmem, or RAM above 4 GiB when the machine has some -- at
 * offsets that are sometimes only 2-byte aligned (bounce fodder); high=1
 * takes every buffer from above 4 GiB, page-aligned.  during='CMD' runs a
 * shell command once, after the at-th submission, as soon as the driver
 * holds a request (a reset under load: during='ahcireset sda port').
 *
 * Output, stable for tests and people (one line each):
 *	STRESS eio DEV op=read|write|flush lba=L n=N err=E   a failed I/O
 *	STRESS bad DEV lba=L w0=X w1=Y seed=S                a sector that did not verify
 *	STRESS DEV ios=... seed=S ... eio=E bad=B maxtags=T above4g=P bounces=B
 *	       requeues=R ms=M result=PASS|FAIL|STOPPED
 * plus a progress line; Ctrl-C stops after the I/O in flight.  Returns
 * -EIO when an I/O failed or a sector did not verify.
 *
 * Locking: the slots belong to the command's loop; bi_end_io (interrupt
 * context) only writes a slot's io_err and then clears its io_busy.
 */
#include "block/bdev.h"
#include "block/diag/bench.h"
#include "block/blkdev.h"
#include "kernel/completion.h"
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/progress.h"
#include "kernel/shell.h"
#include "kernel/time.h"
#include "kernel/mm/highmem.h"
#include "kernel/mm/slab.h"
#include "lib/byteorder.h"
#include "lib/string.h"

#define STRESS_MAX_SECT		256u	/* sectors per I/O */
#define STRESS_DEF_MAX		128u
#define STRESS_MAX_QD		32u
#define STRESS_DEF_QD		16u
#define STRESS_DEF_IOS		1000u
#define STRESS_DEF_SPAN		(16ULL << 20)	/* bytes */
#define STRESS_MAX_DEVS		4
#define STRESS_PAGES		(STRESS_MAX_SECT * SECTOR_SIZE / PAGE_SIZE + 1)
#define STRESS_FLUSH_ONE_IN	16	/* random phase: one I/O in this many is a flush */
#define STRESS_STALL_MS		120000u	/* no completion for this long: give up */
#define STRESS_MAX_REPORTS	8	/* bad sectors named per device */
#define STRESS_PLACE_TRIES	64	/* random starts tried for one I/O */
#define STRESS_4G		0x100000000ULL
#define STRESS_HIGH_ORDER	10	/* 4 MiB blocks of RAM above 4 GiB */
#define STRESS_HIGH_BLOCKS	2	/* room for STRESS_MAX_QD slots of STRESS_PAGES */
#define STRESS_GRAB_MAX		4096	/* blocks held while looking for them: 16 GiB */
#define STRESS_CMD_LEN		64

_Static_assert((1u << STRESS_HIGH_ORDER) / STRESS_PAGES * STRESS_HIGH_BLOCKS >= STRESS_MAX_QD,
	       "every slot has its pages above 4 GiB");

enum stress_op { STRESS_IDLE, STRESS_READ, STRESS_WRITE, STRESS_FLUSH };
static const char *const stress_op_names[] = { "idle", "read", "write", "flush" };

enum stress_phase { PH_RANDOM, PH_WRITE, PH_FLUSH, PH_READ, PH_DONE };

struct stress_chunk {
	sector_t	c_lba;		/* device-relative */
	u32		c_nr;
};

struct stress_dev;

/* One I/O slot: [l] the command's loop; [e] written by bi_end_io. */
struct stress_io {
	struct stress_dev	*io_d;			/* [l] */
	struct page		*io_pages[STRESS_PAGES];	/* [l] */
	u32			io_npages;		/* [l] */
	u32			io_off;			/* [l] byte offset in io_pages[0] */
	sector_t		io_lba;			/* [l] device-relative */
	u32			io_nr;			/* [l] sectors */
	u8			io_op;			/* [l] enum stress_op */
	bool			io_final;		/* [l] stamped with the seed itself */
	bool			io_pooled;		/* [l] pages are the slot's, above 4 GiB */
	volatile bool		io_busy;		/* [e] cleared when the bio ends */
	volatile int		io_err;			/* [e] */
};

struct stress_dev {
	struct block_device	*d_bdev;
	struct request_queue	*d_q;
	sector_t		d_base;		/* disk LBA of device sector 0 */
	sector_t		d_off;		/* the range, device-relative */
	u32			d_sectors;
	u16			*d_gen;		/* generation last written, 0: none */
	struct bench_rng	d_rng;
	struct stress_chunk	*d_chunks;
	u32			d_nchunks;
	u32			d_next;		/* next chunk of the phase */
	u32			d_ios;		/* random I/Os submitted */
	bool			d_flushed;	/* the flush phase's flush is out */
	struct stress_io	d_io[STRESS_MAX_QD];
	struct page		*d_high[STRESS_HIGH_BLOCKS];	/* RAM above 4 GiB, or NULL */
	u64			d_count[4];	/* I/Os done, by enum stress_op */
	u64			d_checked, d_bad, d_eio, d_above4g;
	u32			d_maxtags;
};

struct stress {
	struct stress_dev	*s_dev[STRESS_MAX_DEVS];
	u32			s_ndev;
	u32			s_qd;
	u64			s_seed;
	u64			s_off, s_span;	/* bytes */
	u32			s_max;		/* sectors per I/O */
	u32			s_ios;
	u64			s_secs_ms;	/* 0: count ios instead */
	bool			s_write, s_read, s_high;
	u32			s_at;		/* run s_during after this many submissions */
	char			s_during[STRESS_CMD_LEN];
	u32			s_submitted;
	u64			s_deadline_ms;	/* end of the random phase with secs= */
	u64			s_bytes;	/* moved so far, for the progress line */
	struct progress		s_pg;
	bool			s_stop;		/* Ctrl-C: submit nothing more */
};

static u32 stress_rand(struct stress_dev *d, u32 n)
{
	return (u32)(bench_rng_next(&d->d_rng) % n);
}

/*
 * Blocks of RAM above 4 GiB, when the machine has some: the allocator may
 * serve lower highmem first, so what comes below is held until a block
 * above turns up, then given back.  Bounded; none found is not an error.
 */
static void stress_grab_high(struct stress_dev *d)
{
	LIST_HEAD(held);
	struct page *p, *tmp;
	u32 n = 0, tries;

	for (tries = 0; tries < STRESS_GRAB_MAX && n < STRESS_HIGH_BLOCKS; tries++) {
		p = alloc_pages(GFP_HIGHUSER | __GFP_NOWARN, STRESS_HIGH_ORDER);
		if (!p)
			break;
		if (page_to_phys(p) >= STRESS_4G)
			d->d_high[n++] = p;
		else
			list_add(&p->lru, &held);
	}
	list_for_each_entry_safe(p, tmp, &held, lru) {
		list_del(&p->lru);
		__free_pages(p, STRESS_HIGH_ORDER);
	}
}

/* Page i of io's share of the blocks above 4 GiB, or NULL if there are none. */
static struct page *stress_high_page(struct stress_dev *d, struct stress_io *io, u32 i)
{
	u32 slot = (u32)(io - d->d_io), per = (1u << STRESS_HIGH_ORDER) / STRESS_PAGES;
	struct page *block = d->d_high[slot / per];

	if (!block)
		return NULL;
	return pfn_to_page(page_to_pfn(block) + (slot % per) * STRESS_PAGES + i);
}

static void stress_free_pages(struct stress_io *io)
{
	if (io->io_pooled)
		io->io_npages = 0;	/* the slot's pages above 4 GiB stay with the device */
	while (io->io_npages)
		__free_page(io->io_pages[--io->io_npages]);
}

/*
 * Memory for io: from the DMA zone, the normal zone, anywhere in highmem
 * or above 4 GiB, at a random offset (high: above 4 GiB, page-aligned).
 * 0 or -ENOMEM.
 */
static int stress_alloc_pages(struct stress *st, struct stress_dev *d, struct stress_io *io)
{
	static const gfp_t zones[] = { GFP_KERNEL | __GFP_DMA, GFP_KERNEL, GFP_HIGHUSER, 0 };
	u32 zone = st->s_high ? ARRAY_SIZE(zones) - 1 : stress_rand(d, ARRAY_SIZE(zones));
	u32 i, bytes = io->io_nr * SECTOR_SIZE;

	io->io_off = 0;
	if (!st->s_high) {
		io->io_off = stress_rand(d, PAGE_SIZE / 8) * 8;
		if (stress_rand(d, 8) == 0)
			io->io_off += 2;	/* misaligned for a dword DMA engine: bounced */
	}
	io->io_npages = 0;
	io->io_pooled = false;
	if (!bytes)
		return 0;	/* a flush carries no data */
	io->io_pooled = !zones[zone] && stress_high_page(d, io, 0);
	for (i = 0; i < DIV_ROUND_UP(io->io_off + bytes, PAGE_SIZE); i++) {
		struct page *p;

		if (io->io_pooled)
			p = stress_high_page(d, io, i);
		else
			p = alloc_page(zones[zone] ? zones[zone] : GFP_HIGHUSER);
		if (!p)
			p = alloc_page(GFP_KERNEL);
		if (!p) {
			stress_free_pages(io);
			return -ENOMEM;
		}
		if (page_to_phys(p) >= STRESS_4G)
			d->d_above4g++;
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

/* Stamp a write's sectors, or check a read's against what was last written. */
static void stress_data(struct stress *st, struct stress_dev *d, struct stress_io *io, bool fill)
{
	u8 buf[SECTOR_SIZE];
	u32 i;

	for (i = 0; i < io->io_nr; i++) {
		sector_t lba = d->d_base + io->io_lba + i;
		u16 gen = io->io_final ? 0 : d->d_gen[io->io_lba + i - d->d_off];
		u64 seed = st->s_seed + gen;

		if (fill) {
			bench_fill_sector(buf, lba, seed);
			stress_copy(io, i * SECTOR_SIZE, buf, true);
			continue;
		}
		if (!io->io_final && !gen)
			continue;	/* never written by this run: anything goes */
		stress_copy(io, i * SECTOR_SIZE, buf, false);
		d->d_checked++;
		if (bench_check_sector(buf, lba, seed))
			continue;
		if (d->d_bad++ < STRESS_MAX_REPORTS)
			kprintf("STRESS bad %s lba=%llu w0=%#llx w1=%#llx seed=%#llx\n",
			       d->d_bdev->bd_name, (unsigned long long)lba,
			       (unsigned long long)get_le64(buf), (unsigned long long)get_le64(buf + 8),
			       (unsigned long long)seed);
	}
}

static void stress_endio(struct bio *bio, int error)
{
	struct stress_io *io = bio->bi_private;

	io->io_err = error;
	bio_put(bio);
	io->io_busy = false;
}

/* Build and submit io's bio.  0 or -ENOMEM (then nothing is in flight for it). */
static int stress_submit(struct stress *st, struct stress_dev *d, struct stress_io *io)
{
	u32 pos = io->io_off, left = io->io_nr * SECTOR_SIZE, i = 0;
	struct bio *bio = bio_alloc(GFP_NOIO, io->io_npages);

	if (!bio)
		return -ENOMEM;
	bio->bi_bdev = d->d_bdev;
	bio->bi_iter.bi_sector = io->io_lba;
	if (io->io_op == STRESS_FLUSH)
		bio->bi_rw = REQ_WRITE | REQ_PREFLUSH | REQ_SYNC;
	else
		bio->bi_rw = (io->io_op == STRESS_WRITE ? REQ_WRITE : 0) |
			     (io->io_final ? REQ_NOMERGE : 0);
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
	io->io_busy = true;
	submit_bio(bio);
	st->s_submitted++;
	if (d->d_q->q_tags && d->d_q->q_tags->bqt_busy > d->d_maxtags)
		d->d_maxtags = d->d_q->q_tags->bqt_busy;
	return 0;
}

/* Does [lba, lba + nr) overlap an I/O of d in flight? */
static bool stress_overlaps(const struct stress_dev *d, u32 qd, sector_t lba, u32 nr)
{
	u32 i;

	for (i = 0; i < qd; i++) {
		const struct stress_io *io = &d->d_io[i];

		if (io->io_op != STRESS_IDLE && io->io_op != STRESS_FLUSH &&
		    lba < io->io_lba + io->io_nr && io->io_lba < lba + nr)
			return true;
	}
	return false;
}

/* Choose a random I/O for io.  False when the phase is over or no place is free now. */
static bool stress_pick_random(struct stress *st, struct stress_dev *d, struct stress_io *io)
{
	u32 nr, tries = 0, i;
	sector_t lba;

	if (st->s_secs_ms ? ktime_ms() >= st->s_deadline_ms : d->d_ios >= st->s_ios)
		return false;
	if (stress_rand(d, STRESS_FLUSH_ONE_IN) == 0) {
		io->io_op = STRESS_FLUSH;
		io->io_lba = 0;
		io->io_nr = 0;
		return true;
	}
	nr = 1 + stress_rand(d, min(st->s_max, d->d_sectors));
	do {
		lba = d->d_off + stress_rand(d, d->d_sectors - nr + 1);
	} while (stress_overlaps(d, st->s_qd, lba, nr) && ++tries < STRESS_PLACE_TRIES);
	if (tries == STRESS_PLACE_TRIES)
		return false;	/* a small range is full: wait for completions */
	io->io_op = stress_rand(d, 2) ? STRESS_WRITE : STRESS_READ;
	io->io_lba = lba;
	io->io_nr = nr;
	if (io->io_op == STRESS_WRITE)
		for (i = 0; i < nr; i++) {
			u16 *g = &d->d_gen[lba + i - d->d_off];

			*g = (u16)(*g == 0xffff ? 1 : *g + 1);
		}
	return true;
}

/* Fill io with d's next I/O of phase ph.  False when d has none to start now. */
static bool stress_pick(struct stress *st, struct stress_dev *d, struct stress_io *io,
			enum stress_phase ph)
{
	io->io_final = ph != PH_RANDOM;
	switch (ph) {
	case PH_RANDOM:
		if (!stress_pick_random(st, d, io))
			return false;
		d->d_ios++;
		break;
	case PH_FLUSH:
		if (d->d_flushed)
			return false;
		d->d_flushed = true;
		io->io_op = STRESS_FLUSH;
		io->io_lba = 0;
		io->io_nr = 0;
		break;
	default:
		if (d->d_next == d->d_nchunks)
			return false;
		io->io_op = ph == PH_WRITE ? STRESS_WRITE : STRESS_READ;
		io->io_lba = d->d_chunks[d->d_next].c_lba;
		io->io_nr = d->d_chunks[d->d_next].c_nr;
		d->d_next++;
		break;
	}
	return true;
}

/* A finished I/O: count it, report its error or check what it read, free it. */
static void stress_reap(struct stress *st, struct stress_dev *d, struct stress_io *io)
{
	if (io->io_err) {
		d->d_eio++;
		kprintf("STRESS eio %s op=%s lba=%llu n=%u err=%d\n", d->d_bdev->bd_name,
		       stress_op_names[io->io_op], (unsigned long long)io->io_lba, io->io_nr,
		       io->io_err);
	} else if (io->io_op == STRESS_READ) {
		stress_data(st, d, io, false);
	}
	d->d_count[io->io_op]++;
	st->s_bytes += (u64)io->io_nr * SECTOR_SIZE;
	stress_free_pages(io);
	io->io_op = STRESS_IDLE;
}

/* Start I/O in every free slot of d.  The number in flight, or -ENOMEM. */
static int stress_fill_slots(struct stress *st, struct stress_dev *d, enum stress_phase ph)
{
	int busy = 0, err;
	u32 i;

	for (i = 0; i < st->s_qd; i++) {
		struct stress_io *io = &d->d_io[i];

		if (io->io_busy) {
			busy++;
			continue;
		}
		if (io->io_op != STRESS_IDLE)
			stress_reap(st, d, io);
		if (st->s_stop || !stress_pick(st, d, io, ph))
			continue;
		io->io_d = d;
		err = stress_alloc_pages(st, d, io);
		if (!err && io->io_op == STRESS_WRITE)
			stress_data(st, d, io, true);
		if (!err)
			err = stress_submit(st, d, io);
		if (err) {
			stress_free_pages(io);
			io->io_op = STRESS_IDLE;
			return err;
		}
		busy++;
	}
	return busy;
}

/*
 * Run phase ph on every device until each has nothing left and nothing in
 * flight.  0, -EINTR (Ctrl-C), -ENOMEM (with I/O still in flight drained),
 * or -ETIMEDOUT (then bios may still point at the slots: keep them).
 */
static int stress_phase(struct stress *st, enum stress_phase ph)
{
	u64 last = ktime_ms(), done = st->s_bytes;
	int busy, n, err = 0;
	u32 i;

	for (i = 0; i < st->s_ndev; i++)
		st->s_dev[i]->d_next = 0;
	if (ph == PH_RANDOM && st->s_secs_ms)
		st->s_deadline_ms = ktime_ms() + st->s_secs_ms;
	for (;;) {
		for (busy = 0, i = 0; i < st->s_ndev; i++) {
			n = stress_fill_slots(st, st->s_dev[i], ph);
			if (n < 0) {
				err = n;
				st->s_stop = true;	/* drain, then report */
				continue;
			}
			busy += n;
			blk_unplug(st->s_dev[i]->d_q);
		}
		if (!busy)
			return err ? err : st->s_stop ? -EINTR : 0;
		if (st->s_at && st->s_submitted >= st->s_at) {
			for (i = 0; i < st->s_ndev && !READ_ONCE(st->s_dev[i]->d_q->q_in_driver); i++)
				;
			if (i < st->s_ndev) {
				st->s_at = 0;	/* once, with requests in the driver */
				shell_exec(st->s_during);
			}
		}
		if (progress_update(&st->s_pg, st->s_bytes))
			st->s_stop = true;
		if (st->s_bytes != done) {
			done = st->s_bytes;
			last = ktime_ms();
		} else if (ktime_ms() - last > STRESS_STALL_MS) {
			return -ETIMEDOUT;
		}
		cpu_idle_once();
	}
}

/* Cut d's range into chunks of 1..max sectors (whole logical blocks), shuffled. */
static int stress_plan(struct stress *st, struct stress_dev *d)
{
	u32 lbs = d->d_q->q_limits.lim_logical_block_size >> SECTOR_SHIFT;
	sector_t pos = d->d_off, end = d->d_off + d->d_sectors;

	d->d_chunks = kcalloc(d->d_sectors / lbs + 1, sizeof(*d->d_chunks), GFP_KERNEL);
	if (!d->d_chunks)
		return -ENOMEM;
	while (pos < end) {
		u32 len = (1 + stress_rand(d, max(st->s_max / lbs, 1u))) * lbs;

		d->d_chunks[d->d_nchunks].c_lba = pos;
		d->d_chunks[d->d_nchunks].c_nr = (u32)min((sector_t)len, end - pos);
		pos += d->d_chunks[d->d_nchunks++].c_nr;
	}
	return 0;
}

static void stress_shuffle(struct stress_dev *d)
{
	struct stress_chunk t;
	u32 i, j;

	for (i = d->d_nchunks; i > 1; i--) {
		j = stress_rand(d, i);
		t = d->d_chunks[i - 1];
		d->d_chunks[i - 1] = d->d_chunks[j];
		d->d_chunks[j] = t;
	}
}

/* The key=value arguments after the device list.  0 or -EINVAL. */
static int stress_parse(struct stress *st, int argc, char **argv)
{
	u64 v;
	int i;

	st->s_qd = STRESS_DEF_QD;
	st->s_seed = 1;
	st->s_span = STRESS_DEF_SPAN;
	st->s_max = STRESS_DEF_MAX;
	st->s_ios = STRESS_DEF_IOS;
	st->s_write = st->s_read = true;
	for (i = 2; i < argc; i++) {
		char *k = argv[i], *eq = strchr(k, '=');

		if (!eq)
			return -EINVAL;
		*eq++ = '\0';
		if (!strcmp(k, "during")) {
			if (strlen(eq) >= sizeof(st->s_during))
				return -EINVAL;
			memcpy(st->s_during, eq, strlen(eq) + 1);
		} else if (!strcmp(k, "op")) {
			st->s_write = strcmp(eq, "read") != 0;
			st->s_read = strcmp(eq, "write") != 0;
			if (strcmp(eq, "read") && strcmp(eq, "write") && strcmp(eq, "both"))
				return -EINVAL;
		} else if (!strcmp(k, "off") || !strcmp(k, "span")) {
			v = bench_parse_size(eq, 1 << 20);
			if (v % SECTOR_SIZE || (!strcmp(k, "span") && !v))
				return -EINVAL;
			*(!strcmp(k, "off") ? &st->s_off : &st->s_span) = v;
		} else if (str_to_u64(eq, &v, false)) {
			return -EINVAL;
		} else if (!strcmp(k, "ios") && v <= 0xffffffffu) {
			st->s_ios = (u32)v;
		} else if (!strcmp(k, "secs") && v && v < 86400) {
			st->s_secs_ms = v * 1000;
		} else if (!strcmp(k, "qd") && v && v <= STRESS_MAX_QD) {
			st->s_qd = (u32)v;
		} else if (!strcmp(k, "seed")) {
			st->s_seed = v;
		} else if (!strcmp(k, "max") && v && v <= STRESS_MAX_SECT) {
			st->s_max = (u32)v;
		} else if (!strcmp(k, "high") && v <= 1) {
			st->s_high = v;
		} else if (!strcmp(k, "at") && v && v <= 0xffffffffu) {
			st->s_at = (u32)v;
		} else {
			return -EINVAL;
		}
	}
	return !st->s_at == !st->s_during[0] ? 0 : -EINVAL;
}

static void stress_close(struct stress *st, struct stress_dev *d)
{
	u32 i;

	for (i = 0; i < STRESS_HIGH_BLOCKS; i++)
		if (d->d_high[i])
			__free_pages(d->d_high[i], STRESS_HIGH_ORDER);
	kfree(d->d_chunks);
	kfree(d->d_gen);
	bdev_close(d->d_bdev, FMODE_READ | (st->s_write ? FMODE_WRITE : 0), NULL);
	bdev_put(d->d_bdev);
	kfree(d);
}

/* Open name for st's range.  The device, or NULL with *err set (and said). */
static struct stress_dev *stress_open(struct stress *st, const char *name, int *err)
{
	fmode_t mode = FMODE_READ | (st->s_write ? FMODE_WRITE : 0);
	struct stress_dev *d = kzalloc(sizeof(*d), GFP_KERNEL);
	sector_t cap, off = st->s_off / SECTOR_SIZE;

	*err = -ENOMEM;
	if (!d)
		return NULL;
	d->d_bdev = bdev_lookup(name);
	if (!d->d_bdev) {
		kprintf("stress: %s: no such block device\n", name);
		*err = -ECANCELED;
		goto free_d;
	}
	*err = bdev_open(d->d_bdev, mode, NULL);
	if (*err)
		goto put_bdev;	/* the shell says why: "read-only file system" */
	d->d_q = bdev_get_queue(d->d_bdev);
	cap = bdev_nr_sects(d->d_bdev);
	if (off >= cap) {
		kprintf("stress: nothing at sector %llu of %s (%llu sectors)\n",
		       (unsigned long long)off, name, (unsigned long long)cap);
		*err = -ECANCELED;
		goto close_bdev;
	}
	d->d_off = off;
	d->d_sectors = (u32)min(min(st->s_span / SECTOR_SIZE, (u64)(cap - off)), (u64)0x7fffffff);
	d->d_base = d->d_bdev->bd_start;
	bench_rng_seed(&d->d_rng, (st->s_seed + d->d_base + ((u64)d->d_bdev->bd_dev << 32)) | 1);
	*err = -ENOMEM;
	d->d_gen = kcalloc(d->d_sectors, sizeof(*d->d_gen), GFP_KERNEL);
	if (!d->d_gen || stress_plan(st, d))
		goto close_bdev;
	stress_grab_high(d);
	*err = 0;
	return d;

close_bdev:
	kfree(d->d_gen);
	bdev_close(d->d_bdev, mode, NULL);
put_bdev:
	bdev_put(d->d_bdev);
free_d:
	kfree(d);
	return NULL;
}

/* The phases op= and ios= ask for, in order.  0 or -errno. */
static int stress_run(struct stress *st)
{
	int err = 0;
	u32 i;

	if (st->s_write && (st->s_ios || st->s_secs_ms))
		err = stress_phase(st, PH_RANDOM);
	if (!err && st->s_write)
		err = stress_phase(st, PH_WRITE);
	if (!err && st->s_write)
		err = stress_phase(st, PH_FLUSH);
	for (i = 0; i < st->s_ndev && !err && st->s_read; i++)
		stress_shuffle(st->s_dev[i]);	/* another order for the reads */
	if (!err && st->s_read)
		err = stress_phase(st, PH_READ);
	return err;
}

/* d's line; STOPPED: interrupted before the end, with nothing wrong so far. */
static int stress_report(struct stress *st, struct stress_dev *d, u64 ms)
{
	struct request_queue *q = d->d_q;
	bool pass = !d->d_eio && !d->d_bad;

	kprintf("STRESS %s ios=%llu reads=%llu writes=%llu flushes=%llu off=%llu sectors=%u"
	       " seed=%llu qd=%u checked=%llu eio=%llu bad=%llu maxtags=%u above4g=%llu"
	       " bounces=%llu requeues=%llu ms=%llu result=%s\n", d->d_bdev->bd_name,
	       (unsigned long long)(d->d_count[STRESS_READ] + d->d_count[STRESS_WRITE] +
				    d->d_count[STRESS_FLUSH]),
	       (unsigned long long)d->d_count[STRESS_READ],
	       (unsigned long long)d->d_count[STRESS_WRITE],
	       (unsigned long long)d->d_count[STRESS_FLUSH], (unsigned long long)d->d_off,
	       d->d_sectors, (unsigned long long)st->s_seed, st->s_qd,
	       (unsigned long long)d->d_checked, (unsigned long long)d->d_eio,
	       (unsigned long long)d->d_bad, d->d_maxtags, (unsigned long long)d->d_above4g,
	       (unsigned long long)q->q_stats.st_bounces,
	       (unsigned long long)q->q_stats.st_requeues, (unsigned long long)ms,
	       !pass ? "FAIL" : st->s_stop ? "STOPPED" : "PASS");
	return pass ? 0 : -EIO;
}

static int cmd_stress(int argc, char **argv)
{
	struct stress *st;
	char *name, *next;
	u64 t0;
	int err, res;
	u32 i;

	if (argc < 2)
		return -EINVAL;
	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	err = stress_parse(st, argc, argv);
	for (name = argv[1]; name && !err; name = next) {
		next = strchr(name, ',');
		if (next)
			*next++ = '\0';
		if (st->s_ndev == STRESS_MAX_DEVS) {
			err = -EINVAL;
			break;
		}
		st->s_dev[st->s_ndev] = stress_open(st, name, &err);
		if (st->s_dev[st->s_ndev])
			st->s_ndev++;
	}
	if (err)
		goto close;
	t0 = ktime_ms();
	progress_start(&st->s_pg, "stress", 0);
	err = stress_run(st);
	progress_end(&st->s_pg, st->s_bytes);
	if (err == -ETIMEDOUT) {
		kprintf("stress: no completion in %u ms; giving up\n", STRESS_STALL_MS);
		return err;	/* bios may still point into the slots: leave it all */
	}
	for (i = 0; i < st->s_ndev; i++) {
		res = stress_report(st, st->s_dev[i], ktime_ms() - t0);
		err = err ? err : res;
	}
close:
	for (i = 0; i < st->s_ndev; i++)
		stress_close(st, st->s_dev[i]);
	kfree(st);
	return err;
}
SHELL_COMMAND("stress", cmd_stress,
	      "stress DEV[,DEV...] [ios=N|secs=N] [qd=N] [seed=S] [off=SIZE] [span=SIZE] [max=SECTORS] [op=both|write|read] [high=1] [at=N during='CMD']",
	      "LBA-stamped random read/write/flush stress, then a stamped sweep checked back (destroys data)");
