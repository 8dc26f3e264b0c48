/*
 * stress's phases (block/diag/stress_run.h; the command and what it does
 * are in block/diag/stress_cmds.c), on the aio engine: one context of
 * qd slots per device, all devices at once, every slot refilled from the
 * engine's loop as soon as its I/O ends.
 *
 *   random  reads, writes and cache flushes at random places and lengths,
 *           never two overlapping in flight; each write stamps its sectors
 *           with a new generation (seed + n), each read checks the last one.
 *   write   the range in shuffled chunks, stamped with the seed itself,
 *           one request each (REQ_NOMERGE); then a cache flush.
 *   read    the chunks again in another order, every sector checked.
 *
 * A slot's buffer is taken for each I/O from a random zone -- DMA,
 * normal, highmem, or RAM above 4 GiB when the machine has some -- at an
 * offset that is sometimes only 2-byte aligned (bounce fodder); high=1
 * takes every buffer from above 4 GiB, page-aligned.  Sectors carry the
 * Linux peer's pattern (block/diag/bench.h) so tools/lbapattern can check
 * an image afterwards.
 */
#include "block/diag/stress_run.h"
#include "block/bdev.h"
#include "block/blk-mq.h"
#include "kernel/completion.h"
#include "kernel/console.h"
#include "kernel/errno.h"
#include "kernel/shell.h"
#include "kernel/time.h"
#include "kernel/mm/highmem.h"
#include "kernel/mm/slab.h"
#include "lib/byteorder.h"
#include "lib/string.h"

#define STRESS_FLUSH_ONE_IN	16	/* random phase: one I/O in this many is a flush */
#define STRESS_MAX_REPORTS	8	/* bad sectors named per device */
#define STRESS_PLACE_TRIES	64	/* random starts tried for one I/O */
#define STRESS_4G		0x100000000ULL
#define STRESS_GRAB_MAX		4096	/* blocks held while looking for them: 16 GiB */

_Static_assert((1u << STRESS_HIGH_ORDER) / STRESS_PAGES * STRESS_HIGH_BLOCKS >= STRESS_MAX_QD,
	       "every slot has its pages above 4 GiB");

static const char *const stress_op_names[] = { "idle", "read", "write", "flush" };

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

/* Page i of slot's share of the blocks above 4 GiB, or NULL if there are none. */
static struct page *stress_high_page(struct stress_dev *d, u32 slot, u32 i)
{
	u32 per = (1u << STRESS_HIGH_ORDER) / STRESS_PAGES;
	struct page *block = d->d_high[slot / per];

	if (!block)
		return NULL;
	return pfn_to_page(page_to_pfn(block) + (slot % per) * STRESS_PAGES + i);
}

/*
 * A buffer in slot s for io: from the DMA zone, the normal zone, anywhere
 * in highmem or above 4 GiB, at a random offset (high: above 4 GiB,
 * page-aligned).  The slot's own pages above 4 GiB are lent, not owned,
 * so aio_buf_free() keeps them.  0 or -ENOMEM.
 */
static int stress_alloc_pages(struct stress *st, struct stress_dev *d, struct aio_slot *s,
			      struct stress_io *io)
{
	static const gfp_t zones[] = { GFP_KERNEL | __GFP_DMA, GFP_KERNEL, GFP_HIGHUSER, 0 };
	u32 zone = st->s_high ? ARRAY_SIZE(zones) - 1 : stress_rand(d, ARRAY_SIZE(zones));
	u32 i, bytes = io->io_nr * SECTOR_SIZE, slot = s->as_index % st->s_qd;

	aio_buf_free(s);
	if (!st->s_high) {
		s->as_off = stress_rand(d, PAGE_SIZE / 8) * 8;
		if (stress_rand(d, 8) == 0)
			s->as_off += 2;	/* misaligned for a dword DMA engine: bounced */
	}
	io->io_pooled = false;
	if (!bytes)
		return 0;	/* a flush carries no data */
	io->io_pooled = !zones[zone] && stress_high_page(d, slot, 0);
	s->as_owned = !io->io_pooled;
	for (i = 0; i < DIV_ROUND_UP(s->as_off + bytes, PAGE_SIZE); i++) {
		struct page *p;

		if (io->io_pooled)
			p = stress_high_page(d, slot, i);
		else
			p = alloc_page(zones[zone] ? zones[zone] : GFP_HIGHUSER);
		if (!p)
			p = alloc_page(GFP_KERNEL);
		if (!p) {
			aio_buf_free(s);
			return -ENOMEM;
		}
		if (page_to_phys(p) >= STRESS_4G)
			d->d_above4g++;
		s->as_pages[s->as_npages++] = p;
	}
	return 0;
}

/* Stamp a write's sectors, or check a read's against what was last written. */
static void stress_data(struct stress *st, struct stress_dev *d, struct aio_slot *s,
			struct stress_io *io, bool fill)
{
	u8 buf[SECTOR_SIZE];
	u32 i;

	for (i = 0; i < io->io_nr; i++) {
		sector_t lba = d->d_base + io->io_lba + i;
		u16 gen = io->io_final ? 0 : d->d_gen[io->io_lba + i - d->d_off];
		u64 seed = st->s_seed + gen;

		if (fill) {
			bench_fill_sector(buf, lba, seed);
			aio_copy(s, i * SECTOR_SIZE, buf, SECTOR_SIZE, true);
			continue;
		}
		if (!io->io_final && !gen)
			continue;	/* never written by this run: anything goes */
		aio_copy(s, i * SECTOR_SIZE, buf, SECTOR_SIZE, false);
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
	u32 lbs = d->d_q->q_limits.lim_logical_block_size >> SECTOR_SHIFT;
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
	/* Whole logical blocks: a 4096-byte-block disk refuses anything less. */
	nr = (1 + stress_rand(d, max(min(st->s_max, d->d_sectors) / lbs, 1u))) * lbs;
	do {
		lba = d->d_off + stress_rand(d, (d->d_sectors - nr) / lbs + 1) * lbs;
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


/* The device slot s belongs to, and what the slot is doing for it. */
static struct stress_dev *slot_dev(struct stress *st, struct aio_slot *s)
{
	return st->s_dev[s->as_index / st->s_qd];
}

static struct stress_io *slot_io(struct stress *st, struct aio_slot *s)
{
	return &slot_dev(st, s)->d_io[s->as_index % st->s_qd];
}

/* Submit io's bio from slot s.  0 or -errno (then nothing is in flight for it). */
static int stress_submit(struct stress *st, struct stress_dev *d, struct aio_slot *s,
			 struct stress_io *io)
{
	u32 rw;
	int err;

	if (io->io_op == STRESS_FLUSH)
		rw = REQ_WRITE | REQ_PREFLUSH;
	else
		rw = (io->io_op == STRESS_WRITE ? REQ_WRITE : 0) | (io->io_final ? REQ_NOMERGE : 0);
	err = aio_submit(s, rw, io->io_lba, io->io_nr * SECTOR_SIZE);
	if (err)
		return err;
	st->s_submitted++;
	if (d->d_q->q_tags && d->d_q->q_tags->bqt_busy > d->d_maxtags)
		d->d_maxtags = d->d_q->q_tags->bqt_busy;
	if (queue_is_mq(d->d_q) && blk_mq_tags_in_use(d->d_q) > d->d_maxtags)
		d->d_maxtags = blk_mq_tags_in_use(d->d_q);
	return 0;
}

/* aio end: count the I/O, report its error or check what it read, free its buffer. */
static void stress_end(struct aio_ctx *a, struct aio_slot *s, void *arg)
{
	struct stress *st = arg;
	struct stress_dev *d = slot_dev(st, s);
	struct stress_io *io = slot_io(st, s);

	if (s->as_err) {
		d->d_eio++;
		kprintf("STRESS eio %s op=%s lba=%llu n=%u err=%d\n", d->d_bdev->bd_name,
		       stress_op_names[io->io_op], (unsigned long long)io->io_lba, io->io_nr,
		       s->as_err);
	} else if (io->io_op == STRESS_READ) {
		stress_data(st, d, s, io, false);
	}
	d->d_count[io->io_op]++;
	aio_buf_free(s);
	io->io_op = STRESS_IDLE;
}

/* aio start: d's next I/O of the phase in slot s; 1, 0 (none now) or -errno. */
static int stress_start(struct aio_ctx *a, struct aio_slot *s, void *arg)
{
	struct stress *st = arg;
	struct stress_dev *d = slot_dev(st, s);
	struct stress_io *io = slot_io(st, s);
	int err;

	if (!stress_pick(st, d, io, st->s_phase))
		return 0;
	err = stress_alloc_pages(st, d, s, io);
	if (!err && io->io_op == STRESS_WRITE)
		stress_data(st, d, s, io, true);
	if (!err)
		err = stress_submit(st, d, s, io);
	if (err) {
		aio_buf_free(s);
		io->io_op = STRESS_IDLE;
		return err;
	}
	return 1;
}

/* aio poll: run during= once, after at= submissions, while a driver holds a request. */
static bool stress_poll(struct aio_ctx *a, void *arg)
{
	struct stress *st = arg;
	u32 i;

	if (!st->s_at || st->s_submitted < st->s_at)
		return false;
	for (i = 0; i < st->s_ndev && !blk_queue_in_driver(st->s_dev[i]->d_q); i++)
		;
	if (i < st->s_ndev) {
		st->s_at = 0;
		shell_exec(st->s_during);
	}
	return false;
}

static const struct aio_ops stress_ops = {
	.end = stress_end, .start = stress_start, .poll = stress_poll,
};

/* Run phase ph on every device until each has nothing left and nothing in flight. */
static int stress_phase(struct stress *st, enum stress_phase ph)
{
	u32 i;

	for (i = 0; i < st->s_ndev; i++)
		st->s_dev[i]->d_next = 0;
	if (ph == PH_RANDOM && st->s_secs_ms)
		st->s_deadline_ms = ktime_ms() + st->s_secs_ms;
	st->s_phase = ph;
	return aio_run(&st->s_aio, &stress_ops, st);
}

int stress_run(struct stress *st)
{
	int err;
	u32 i;

	err = aio_init(&st->s_aio, st->s_ndev * st->s_qd, STRESS_MAX_SECT * SECTOR_SIZE);
	if (err)
		return err;
	for (i = 0; i < st->s_ndev; i++)
		st->s_dev[i]->d_index = (u32)aio_target(&st->s_aio, st->s_dev[i]->d_bdev,
							st->s_dev[i]->d_q);
	for (i = 0; i < st->s_aio.ac_nslots; i++)
		st->s_aio.ac_slots[i].as_target = i / st->s_qd;
	st->s_aio.ac_pg = &st->s_pg;
	st->s_aio.ac_stall_ms = STRESS_STALL_MS;
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
	if (err != -ETIMEDOUT)
		aio_exit(&st->s_aio);
	return err;
}

int stress_dev_init(struct stress *st, struct stress_dev *d)
{
	bench_rng_seed(&d->d_rng, (st->s_seed + d->d_base + ((u64)d->d_bdev->bd_dev << 32)) | 1);
	d->d_gen = kcalloc(d->d_sectors, sizeof(*d->d_gen), GFP_KERNEL);
	if (!d->d_gen || stress_plan(st, d)) {
		kfree(d->d_gen);
		d->d_gen = NULL;
		return -ENOMEM;
	}
	stress_grab_high(d);
	return 0;
}

void stress_dev_free(struct stress_dev *d)
{
	u32 i;

	for (i = 0; i < STRESS_HIGH_BLOCKS; i++)
		if (d->d_high[i])
			__free_pages(d->d_high[i], STRESS_HIGH_ORDER);
	kfree(d->d_chunks);
	kfree(d->d_gen);
}
