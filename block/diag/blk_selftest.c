/*
 * In-kernel self-tests of the block layer on the memory-backed disks
 * (selftest=block/...).  They make their own disks, so they need neither
 * the registry nor boot parameters.
 *
 * block/stress/...: thousands of bios of random size (1..64 sectors),
 * start, memory offset and zone (DMA, normal, highmem), up to 16 in
 * flight, never overlapping within a batch.  Every 512-byte sector
 * written carries the bench pattern with its own LBA and a generation
 * number as seed; reads check the generation last written (zeros if
 * none), and a final sweep reads the whole disk back.  Variants: each
 * elevator, plugging off, tiny limits that force splits everywhere, the
 * make_request disk, and a 4 GiB bounce limit (bounces expected exactly
 * when a page above 4 GiB was used; none without a limit).
 *
 * block/trace/...: the trace ring proves that sequential writes merge up
 * to max_sectors, that deadline serves an expired read out of sector
 * order, that a FUA+PREFLUSH write on a cached device is issued as
 * flush, write, flush, and that a tagged null device of depth 4 runs
 * four tagged requests at once.
 *
 * Their I/O runs on the diagnostics' aio engine (block/diag/aio.h): a
 * batch is built in its slots, submitted, then drained with a time limit.
 */
#include "drivers/block/ramvar.h"
#include "block/diag/aio.h"
#include "block/diag/bench.h"
#include "block/blkdev.h"
#include "block/blk-trace.h"
#include "block/elevator.h"
#include "kernel/completion.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/selftest.h"
#include "kernel/time.h"
#include "kernel/mm/highmem.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

#define ST_DISK_BYTES	(4 * MiB)
#define ST_SECTORS	(ST_DISK_BYTES / SECTOR_SIZE)
#define ST_BIOS		2000u
#define ST_BATCH	16u
#define ST_MAX_SECT	64u
#define ST_MAX_PAGES	(ST_MAX_SECT * SECTOR_SIZE / PAGE_SIZE + 1)
#define ST_WAIT_MS	10000u

/*
 * One test's I/O: an aio context of ST_BATCH slots on one queue, the
 * generation last written per sector, and the test's random numbers.
 */
struct st_run {
	struct aio_ctx		r_aio;
	struct request_queue	*r_q;
	u16			*r_gen;
	u64			r_rng;
	bool			r_above_4g;	/* a page above 4 GiB was used */
	bool			r_stuck;	/* I/O never ended: keep the buffers */
};

static u32 st_rand(struct st_run *r)
{
	r->r_rng ^= r->r_rng << 13;
	r->r_rng ^= r->r_rng >> 7;
	r->r_rng ^= r->r_rng << 17;
	return (u32)r->r_rng;
}

static void st_run_free(struct st_run *r)
{
	if (!r)
		return;
	if (!r->r_stuck)
		aio_exit(&r->r_aio);
	kfree(r->r_gen);
	kfree(r);
}

/* A run on q; NULL when memory ran out. */
static struct st_run *st_run_new(struct request_queue *q, u64 seed)
{
	struct st_run *r = kzalloc(sizeof(*r), GFP_KERNEL);

	if (!r)
		return NULL;
	r->r_q = q;
	r->r_rng = seed | 1;
	r->r_gen = kcalloc(ST_SECTORS, sizeof(u16), GFP_KERNEL);
	if (!r->r_gen || aio_init(&r->r_aio, ST_BATCH, ST_MAX_SECT * SECTOR_SIZE)) {
		r->r_stuck = true;	/* nothing to exit */
		st_run_free(r);
		return NULL;
	}
	aio_target(&r->r_aio, NULL, q);
	return r;
}

static struct page *st_page(struct st_run *r)
{
	static const gfp_t zones[] = { GFP_DMA, GFP_KERNEL, GFP_HIGHUSER };
	struct page *p = alloc_page(zones[st_rand(r) % 3]);

	if (!p)
		p = alloc_page(GFP_HIGHUSER);
	if (p && page_to_phys(p) >= 0x100000000ULL)
		r->r_above_4g = true;
	return p;
}

/*
 * Prepare slot s for nr sectors at sector: pages from random zones at a
 * random offset, stamped with their generation for a write.  Submitted
 * later by st_submit().  False when memory ran out.
 */
static bool st_build(struct st_run *r, struct aio_slot *s, sector_t sector, u32 nr, u32 rw)
{
	u32 off = st_rand(r) % 8 ? (st_rand(r) % 8) * SECTOR_SIZE : st_rand(r) % PAGE_SIZE;
	u32 i;
	u8 sec[SECTOR_SIZE];

	aio_buf_free(s);
	s->as_off = off;
	s->as_owned = true;
	s->as_sector = sector;
	s->as_bytes = nr * SECTOR_SIZE;
	s->as_rw = rw;
	for (i = 0; i < DIV_ROUND_UP(off + s->as_bytes, PAGE_SIZE); i++) {
		struct page *p = st_page(r);

		if (!p)
			return false;
		s->as_pages[s->as_npages++] = p;
	}
	if (rw & REQ_WRITE)
		for (i = 0; i < nr; i++) {
			bench_fill_sector(sec, sector + i, r->r_gen[sector + i]);
			aio_copy(s, i * SECTOR_SIZE, sec, SECTOR_SIZE, true);
		}
	return true;
}

/* Submit what st_build() prepared in slot s; 0 or st_fail. */
static int st_submit(struct st_run *r, struct aio_slot *s)
{
	int err = aio_submit(s, s->as_rw, s->as_sector, s->as_bytes);

	return err ? st_fail("%s: cannot submit: %d", r->r_q->q_name, err) : 0;
}

/* Check a finished read against the generations; 0 or st_fail. */
static int st_check(struct st_run *r, struct aio_slot *s)
{
	u8 sec[SECTOR_SIZE], zero[SECTOR_SIZE];
	u32 i;

	memset(zero, 0, sizeof(zero));
	for (i = 0; i < s->as_bytes / SECTOR_SIZE; i++) {
		sector_t lba = s->as_sector + i;
		u16 g = r->r_gen[lba];

		aio_copy(s, i * SECTOR_SIZE, sec, SECTOR_SIZE, false);
		if (g ? !bench_check_sector(sec, lba, g) : memcmp(sec, zero, SECTOR_SIZE) != 0)
			return st_fail("%s: sector %llu: not generation %u",
				       r->r_q->q_name, (unsigned long long)lba, g);
	}
	return 0;
}

/* Unplug and wait for slots 0..n-1; 0, or st_fail on error or timeout. */
static int st_wait(struct st_run *r, u32 n)
{
	u32 i;

	if (aio_drain(&r->r_aio, ST_WAIT_MS)) {
		r->r_stuck = true;
		return st_fail("%s: I/O did not complete in %u ms", r->r_q->q_name, ST_WAIT_MS);
	}
	for (i = 0; i < n; i++)
		if (r->r_aio.ac_slots[i].as_err)
			return st_fail("%s: I/O error %d at %llu", r->r_q->q_name,
				       r->r_aio.ac_slots[i].as_err,
				       (unsigned long long)r->r_aio.ac_slots[i].as_sector);
	return 0;
}

/* Does [sector, sector + nr) overlap one of slots 0..n-1? */
static bool overlaps(struct st_run *r, u32 n, sector_t sector, u32 nr)
{
	u32 i;

	for (i = 0; i < n; i++) {
		struct aio_slot *s = &r->r_aio.ac_slots[i];

		if (sector < s->as_sector + s->as_bytes / SECTOR_SIZE && s->as_sector < sector + nr)
			return true;
	}
	return false;
}

/* Build a batch of up to ST_BATCH non-overlapping random bios; how many, or st_fail. */
static int st_batch(struct st_run *r, u16 gen, u32 *nbuilt)
{
	u32 n, i, nr;
	sector_t sector;
	bool write;

	for (n = 0; n < ST_BATCH; n++) {
		nr = 1 + st_rand(r) % ST_MAX_SECT;
		sector = st_rand(r) % (ST_SECTORS - nr);
		if (overlaps(r, n, sector, nr))
			break;
		write = st_rand(r) % 5 < 3;
		if (write)
			for (i = 0; i < nr; i++)
				r->r_gen[sector + i] = gen;
		if (!st_build(r, &r->r_aio.ac_slots[n], sector, nr, write ? REQ_WRITE : 0)) {
			*nbuilt = n + 1;
			return st_fail("no memory for bio pages");
		}
	}
	*nbuilt = n;
	return 0;
}

/* The random phase and the full read-back; 0 or st_fail. */
static int stress_run(struct request_queue *q, u64 seed, bool *above_4g)
{
	struct st_run *r = st_run_new(q, seed);
	u32 done = 0, n, i, gen = 0;
	struct aio_slot *s;
	int err = 0, e;

	if (!r)
		return st_fail("no memory");
	while (!err && done < ST_BIOS) {
		err = st_batch(r, (u16)++gen, &n);
		for (i = 0; i < n && !err; i++)
			err = st_submit(r, &r->r_aio.ac_slots[i]);
		e = st_wait(r, n);	/* also after a failed submission: drain */
		err = err ? err : e;
		for (i = 0; i < n && !r->r_stuck; i++) {
			s = &r->r_aio.ac_slots[i];
			if (!err && !(s->as_rw & REQ_WRITE))
				err = st_check(r, s);
			aio_buf_free(s);
		}
		done += n;
	}
	/* Read everything back, 64 sectors at a time. */
	s = &r->r_aio.ac_slots[0];
	for (i = 0; !err && i < ST_SECTORS; i += ST_MAX_SECT) {
		if (!st_build(r, s, i, ST_MAX_SECT, 0))
			err = st_fail("no memory for read-back");
		if (!err)
			err = st_submit(r, s);
		if (!err)
			err = st_wait(r, 1);
		if (!err)
			err = st_check(r, s);
		if (!r->r_stuck)
			aio_buf_free(s);
	}
	if (above_4g)
		*above_4g = r->r_above_4g;
	st_run_free(r);
	return err;
}

/* A RAM disk with elevator elv; plugging and tiny limits as asked. */
static struct ramdisk *st_ram(const char *elv, bool plug, bool tiny)
{
	struct ramdisk *rd = ramdisk_create("st-ram", ST_DISK_BYTES);

	if (!rd)
		return NULL;
	if (elevator_switch(rd->rd_queue, elv)) {
		ramdisk_destroy(rd);
		return NULL;
	}
	blk_queue_plugging(rd->rd_queue, plug);
	if (tiny) {
		blk_queue_max_hw_sectors(rd->rd_queue, 8);
		blk_queue_max_sectors(rd->rd_queue, 5);
		blk_queue_max_segments(rd->rd_queue, 2);
		blk_queue_max_segment_size(rd->rd_queue, 1536);
		blk_queue_segment_boundary(rd->rd_queue, 0xFFF);
	}
	return rd;
}

static int stress_ram(const char *elv, bool plug, bool tiny, u64 seed)
{
	struct ramdisk *rd = st_ram(elv, plug, tiny);
	int err;

	if (!rd)
		return st_fail("cannot create a RAM disk");
	err = stress_run(rd->rd_queue, seed, NULL);
	if (!err && tiny && !rd->rd_queue->q_stats.st_splits)
		err = st_fail("tiny limits but no split");
	ramdisk_destroy(rd);
	return err;
}

static int st_ram_noop(void) { return stress_ram("noop", true, false, 1); }
static int st_ram_deadline(void) { return stress_ram("deadline", true, false, 2); }
static int st_ram_noplug(void) { return stress_ram("deadline", false, false, 3); }
static int st_ram_noop_noplug(void) { return stress_ram("noop", false, false, 4); }
static int st_ram_tiny(void) { return stress_ram("deadline", true, true, 5); }
static int st_ram_tiny_noop(void) { return stress_ram("noop", false, true, 6); }
static int st_ram_kyber(void) { return stress_ram("kyber", true, false, 7); }
SELFTEST("block/stress/ram_noop", st_ram_noop);
SELFTEST("block/stress/ram_deadline", st_ram_deadline);
SELFTEST("block/stress/ram_deadline_noplug", st_ram_noplug);
SELFTEST("block/stress/ram_noop_noplug", st_ram_noop_noplug);
SELFTEST("block/stress/ram_tiny_limits", st_ram_tiny);
SELFTEST("block/stress/ram_tiny_limits_noop", st_ram_tiny_noop);
SELFTEST("block/stress/ram_kyber", st_ram_kyber);

static int st_mem(void)
{
	struct memdisk *md = memdisk_create("st-mem", ST_DISK_BYTES);
	int err;

	if (!md)
		return st_fail("cannot create a memory disk");
	blk_queue_max_sectors(md->md_queue, 7);	/* splits on the bio path too */
	err = stress_run(md->md_queue, 7, NULL);
	memdisk_destroy(md);
	return err;
}
SELFTEST("block/stress/mem", st_mem);

/* A memory-backed multi-queue null device on elevator elv (blk-mq end to end). */
static int stress_nullb_mq(const char *elv, u32 hw, u32 irqmode, bool poll, u64 seed)
{
	const struct nullb_config cfg = {
		.nc_bytes = ST_DISK_BYTES, .nc_irqmode = irqmode, .nc_completion_us = 50,
		.nc_depth = 8, .nc_mq = true, .nc_hw_queues = hw, .nc_poll = poll,
		.nc_memory_backed = true,
	};
	struct nullb *nb = nullb_create("st-nullb-mq", &cfg);
	int err;

	if (!nb)
		return st_fail("cannot create a multi-queue null device");
	err = elevator_switch(nb->nb_queue, elv);
	/* kyber: at most 2 writes in flight, so that it holds requests back */
	if (!err && !strcmp(elv, "kyber"))
		err = elv_tunable_set(nb->nb_queue, "max_depth", 2);
	if (err)
		err = st_fail("elevator %s: %d", elv, err);
	else
		err = stress_run(nb->nb_queue, seed, NULL);
	nullb_destroy(nb);
	return err;
}

static int st_mq_none(void) { return stress_nullb_mq("none", 1, 0, false, 21); }
static int st_mq_deadline_timer(void) { return stress_nullb_mq("deadline", 1, 1, false, 22); }
static int st_mq_noop_4hw_soft(void) { return stress_nullb_mq("noop", 4, 2, false, 23); }
static int st_mq_none_4hw_poll(void) { return stress_nullb_mq("none", 4, 0, true, 24); }
static int st_mq_kyber_timer(void) { return stress_nullb_mq("kyber", 1, 1, false, 25); }
static int st_mq_kyber_4hw_soft(void) { return stress_nullb_mq("kyber", 4, 2, false, 26); }
SELFTEST("block/stress/mq_none", st_mq_none);
SELFTEST("block/stress/mq_deadline_timer", st_mq_deadline_timer);
SELFTEST("block/stress/mq_noop_4hw_soft", st_mq_noop_4hw_soft);
SELFTEST("block/stress/mq_none_4hw_poll", st_mq_none_4hw_poll);
SELFTEST("block/stress/mq_kyber_timer", st_mq_kyber_timer);
SELFTEST("block/stress/mq_kyber_4hw_soft", st_mq_kyber_4hw_soft);

/* Does this machine have RAM above 4 GiB (more frames than fit below)? */
static bool st_ram_above_4g(void)
{
	u64 frames = zone_total_pages(ZONE_DMA) + zone_total_pages(ZONE_NORMAL) +
		     zone_total_pages(ZONE_HIGHMEM);

	return frames > (3ULL << (30 - PAGE_SHIFT)) + (1ULL << (30 - PAGE_SHIFT)) / 2;
}

/* With a 4 GiB bounce limit, pages above it bounce; without, nothing does. */
static int st_bounce(void)
{
	struct ramdisk *rd;
	bool above = false;
	int err;

	rd = st_ram("noop", true, false);
	if (!rd)
		return st_fail("cannot create a RAM disk");
	if (blk_queue_bounce_limit(rd->rd_queue, BLK_BOUNCE_4G, false)) {
		ramdisk_destroy(rd);
		return st_fail("no bounce pool");
	}
	err = stress_run(rd->rd_queue, 8, &above);
	if (!err && !above && st_ram_above_4g())
		err = st_fail("RAM above 4 GiB exists but the test never got a page there");
	if (!err && above && !rd->rd_queue->q_stats.st_bounces)
		err = st_fail("pages above 4 GiB were used but nothing bounced");
	if (!err && !above && rd->rd_queue->q_stats.st_bounces)
		err = st_fail("bounced %llu bios with no page above 4 GiB",
			      (unsigned long long)rd->rd_queue->q_stats.st_bounces);
	ramdisk_destroy(rd);
	if (err)
		return err;
	rd = st_ram("deadline", true, false);
	if (!rd)
		return st_fail("cannot create a RAM disk");
	err = stress_run(rd->rd_queue, 9, NULL);
	if (!err && rd->rd_queue->q_stats.st_bounces)
		err = st_fail("bounces without a bounce limit");
	ramdisk_destroy(rd);
	return err;
}
SELFTEST("block/stress/bounce_4g", st_bounce);

/* Submit n bios of nr sectors at the given sectors and wait for them. */
static int st_submit_list(struct request_queue *q, const sector_t *sectors, u32 n, u32 nr, u32 rw)
{
	struct st_run *r = st_run_new(q, 11);
	u32 i;
	int err = 0, e;

	if (!r)
		return st_fail("no memory");
	for (i = 0; i < n && !err; i++)
		if (!st_build(r, &r->r_aio.ac_slots[i], sectors[i], nr, rw))
			err = st_fail("no memory");
	for (i = 0; i < n && !err; i++)
		err = st_submit(r, &r->r_aio.ac_slots[i]);
	e = st_wait(r, n);	/* also after a failed submission: drain */
	err = err ? err : e;
	st_run_free(r);
	return err;
}

/* The driver-issue events since seq, as sectors, in order. */
static u32 st_issued(struct request_queue *q, u64 seq, sector_t *out, u32 *bytes, u32 max)
{
	struct blk_trace_event *ev = kcalloc(BLK_TRACE_ENTRIES, sizeof(*ev), GFP_KERNEL);
	u32 n, i, k = 0;

	if (!ev)
		return 0;
	n = blk_trace_read(q, seq, ev, BLK_TRACE_ENTRIES);
	for (i = 0; i < n && k < max; i++)
		if (ev[i].te_act == BLK_TA_ISSUE) {
			if (bytes)
				bytes[k] = ev[i].te_bytes;
			out[k++] = ev[i].te_sector;
		}
	kfree(ev);
	return k;
}

static int st_trace_seq_merge(void)
{
	struct ramdisk *rd = st_ram("noop", true, false);
	sector_t sectors[32], issued[8];
	u32 bytes[8], i, n;
	u64 seq;
	int err;

	if (!rd)
		return st_fail("cannot create a RAM disk");
	blk_queue_max_sectors(rd->rd_queue, 64);
	rd->rd_queue->q_unplug_thresh = 1000;		/* only the explicit unplug: */
	rd->rd_queue->q_unplug_delay_ms = 60000;	/* a slow host must not split batches */
	blk_trace_enable(rd->rd_queue);
	seq = blk_trace_seq(rd->rd_queue);
	for (i = 0; i < 32; i++)
		sectors[i] = 1024 + i * 8;
	err = st_submit_list(rd->rd_queue, sectors, 16, 8, REQ_WRITE);
	if (!err)
		err = st_submit_list(rd->rd_queue, sectors + 16, 16, 8, REQ_WRITE);
	n = st_issued(rd->rd_queue, seq, issued, bytes, 8);
	if (!err && n != 4)
		err = st_fail("32 x 4 KiB writes issued as %u requests, expected 4", n);
	for (i = 0; !err && i < n; i++)
		if (issued[i] != 1024 + i * 64 || bytes[i] != 64 * SECTOR_SIZE)
			err = st_fail("request %u: %llu + %u bytes", i,
				      (unsigned long long)issued[i], bytes[i]);
	if (!err && blk_trace_count(rd->rd_queue, seq, BLK_TA_BACKMERGE) != 28)
		err = st_fail("expected 28 back merges");
	ramdisk_destroy(rd);
	return err;
}
SELFTEST("block/trace/seq_merge_to_limit", st_trace_seq_merge);

/* Reads 100, 50, 300 queued while stopped, served with fifo_batch 1. */
static int st_deadline_order(u32 read_expire_ms, const sector_t *want)
{
	struct ramdisk *rd = st_ram("deadline", true, false);
	static const sector_t in[] = { 100, 50, 300 };
	sector_t issued[3];
	unsigned long flags;
	struct request_queue *q;
	struct st_run *r;
	u64 seq;
	int err = 0;
	u32 i, n;

	if (!rd)
		return st_fail("cannot create a RAM disk");
	q = rd->rd_queue;
	elv_tunable_set(q, "fifo_batch", 1);
	elv_tunable_set(q, "read_expire", read_expire_ms);
	blk_trace_enable(q);
	spin_lock_irqsave(q->q_lock, flags);
	blk_stop_queue(q);
	spin_unlock_irqrestore(q->q_lock, flags);
	seq = blk_trace_seq(q);
	r = st_run_new(q, 13);
	if (!r)
		err = st_fail("no memory");
	for (i = 0; r && i < 3 && !err; i++) {
		if (!st_build(r, &r->r_aio.ac_slots[i], in[i], 8, 0))
			err = st_fail("no memory");
		else
			err = st_submit(r, &r->r_aio.ac_slots[i]);
	}
	if (!err && read_expire_ms < 100)
		mdelay(read_expire_ms + 5);	/* let them expire */
	spin_lock_irqsave(q->q_lock, flags);
	blk_start_queue(q);
	spin_unlock_irqrestore(q->q_lock, flags);
	if (r) {
		int e = st_wait(r, 3);

		err = err ? err : e;
	}
	st_run_free(r);
	n = st_issued(q, seq, issued, NULL, 3);
	for (i = 0; !err && i < 3; i++)
		if (n != 3 || issued[i] != want[i])
			err = st_fail("read_expire=%u: issue %u was sector %llu, expected %llu",
				      read_expire_ms, i, (unsigned long long)issued[i],
				      (unsigned long long)want[i]);
	ramdisk_destroy(rd);
	return err;
}

static int st_trace_deadline_expired(void)
{
	static const sector_t sorted[] = { 100, 300, 50 }, fifo[] = { 100, 50, 300 };
	int err = st_deadline_order(10000, sorted);

	return err ? err : st_deadline_order(1, fifo);
}
SELFTEST("block/trace/deadline_expired_read", st_trace_deadline_expired);

/* A FUA+PREFLUSH write on a cached device without FUA: flush, write, flush. */
static int st_trace_flush_order(void)
{
	struct ramdisk *rd = st_ram("deadline", true, false);
	struct blk_trace_event *ev;
	static const sector_t at[] = { 64 };
	char got[8];
	u32 n, i, k = 0;
	u64 seq;
	int err;

	if (!rd)
		return st_fail("cannot create a RAM disk");
	blk_queue_flush(rd->rd_queue, BLK_FLUSH_CACHE);
	blk_trace_enable(rd->rd_queue);
	seq = blk_trace_seq(rd->rd_queue);
	err = st_submit_list(rd->rd_queue, at, 1, 8, REQ_WRITE | REQ_FUA | REQ_PREFLUSH);
	ev = kcalloc(BLK_TRACE_ENTRIES, sizeof(*ev), GFP_KERNEL);
	if (!err && !ev)
		err = st_fail("no memory");
	n = ev ? blk_trace_read(rd->rd_queue, seq, ev, BLK_TRACE_ENTRIES) : 0;
	for (i = 0; i < n && k < sizeof(got) - 1; i++)
		if (ev[i].te_act == BLK_TA_ISSUE)
			got[k++] = ev[i].te_bytes ? 'W' : 'F';
	got[k] = 0;
	if (!err && strcmp(got, "FWF"))
		err = st_fail("issued %s, expected FWF", got);
	kfree(ev);
	ramdisk_destroy(rd);
	return err;
}
SELFTEST("block/trace/flush_order", st_trace_flush_order);

/* A tagged null device of depth 4, ending from its timer: 16 reads use tags 0..3. */
static int st_trace_nullb_tags(void)
{
	static const struct nullb_config cfg = {
		.nc_bytes = ST_DISK_BYTES, .nc_irqmode = 1, .nc_completion_us = 100,
		.nc_depth = 4, .nc_tags = true,
	};
	struct nullb *nb = nullb_create("st-nullb", &cfg);
	struct blk_trace_event *ev;
	sector_t at[ST_BATCH];
	u32 i, n, tags = 0, seen = 0;
	u64 seq;
	int err;

	if (!nb)
		return st_fail("cannot create a null device");
	blk_trace_enable(nb->nb_queue);
	seq = blk_trace_seq(nb->nb_queue);
	for (i = 0; i < ST_BATCH; i++)
		at[i] = i * 64;
	err = st_submit_list(nb->nb_queue, at, ST_BATCH, 8, REQ_NOMERGE);
	ev = kcalloc(BLK_TRACE_ENTRIES, sizeof(*ev), GFP_KERNEL);
	n = ev ? blk_trace_read(nb->nb_queue, seq, ev, BLK_TRACE_ENTRIES) : 0;
	for (i = 0; i < n; i++) {
		if (ev[i].te_act != BLK_TA_TAG)
			continue;
		tags++;
		if (ev[i].te_arg < 0 || ev[i].te_arg >= 4)
			err = err ? err : st_fail("tag %d outside depth 4", ev[i].te_arg);
		seen |= 1u << (ev[i].te_arg & 31);
	}
	if (!err && tags != ST_BATCH)
		err = st_fail("%u tags handed out for %u requests", tags, ST_BATCH);
	if (!err && seen != 0xF)
		err = st_fail("tags used 0x%x, expected all four in flight at some point", seen);
	kfree(ev);
	nullb_destroy(nb);
	return err;
}
SELFTEST("block/trace/nullb_tags", st_trace_nullb_tags);
