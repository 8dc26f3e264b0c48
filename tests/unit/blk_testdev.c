/*
 * The host tests' RAM-backed request_fn device; see blk_testdev.h.
 */
#include <stdlib.h>
#include <string.h>
#include "tests/unit/blk_testdev.h"
#include "tests/unit/fakes/sched_fake.h"
#include "kernel/mm/highmem.h"
#include "kernel/errno.h"

static struct tdev *idle_dev;

static int tdev_transfer(struct tdev *td, struct request *rq)
{
	sector_t pos = blk_rq_pos(rq);
	u64 byte = pos << SECTOR_SHIFT;
	struct req_iterator it;
	struct bio_vec bv;
	u8 *p;

	if (td->td_fail_sector != (sector_t)-1 && td->td_fail_sector >= pos &&
	    td->td_fail_sector < pos + blk_rq_sectors(rq))
		return -EIO;
	if (pos + blk_rq_sectors(rq) > td->td_nr_sectors)
		return -EIO;
	if (rq->rq_cmd_flags & REQ_NODATA) {	/* DISCARD or WRITE ZEROES: both zero */
		memset(td->td_data + byte, 0, blk_rq_bytes(rq));
		return 0;
	}
	rq_for_each_segment(bv, rq, it) {
		p = (u8 *)kmap_atomic(bv.bv_page) + bv.bv_offset;
		if (rq_is_write(rq))
			memcpy(td->td_data + byte, p, bv.bv_len);
		else
			memcpy(p, td->td_data + byte, bv.bv_len);
		kunmap_atomic(p);
		byte += bv.bv_len;
	}
	return 0;
}

/* Do rq now and end it; queue lock held. */
static void tdev_finish(struct tdev *td, struct request *rq, bool locked)
{
	u32 left = blk_rq_bytes(rq), n;
	int err = 0;

	if (blk_rq_is_flush(rq) && td->td_fail_flushes) {
		td->td_fail_flushes--;
		err = -EIO;
	} else if (blk_rq_is_flush(rq)) {
		td->td_flushes++;
		td->td_writes_since_flush = 0;
	} else {
		err = tdev_transfer(td, rq);
		if (!err && rq_is_write(rq) && !(rq->rq_cmd_flags & REQ_FUA))
			td->td_writes_since_flush++;
	}
	if (err || !td->td_chunk || !left) {
		if (locked)
			__blk_end_request_all(rq, err);
		else
			blk_end_request_all(rq, err);
		return;
	}
	while (left) {
		n = min(left, td->td_chunk);
		left -= n;
		if (locked)
			__blk_end_request(rq, 0, n);
		else
			blk_end_request(rq, 0, n);
	}
}

static void tdev_request_fn(struct request_queue *q)
{
	struct tdev *td = q->q_queuedata;
	struct request *rq;
	struct tdev_log *l;

	while ((rq = blk_peek_request(q))) {
		if (td->td_tags) {
			if (blk_queue_start_tag(q, rq))
				return;		/* all tags busy: wait for a completion */
		} else {
			blk_start_request(rq);
		}
		if (td->td_busy_once > 0) {
			td->td_busy_once--;
			blk_requeue_request(q, rq);
			blk_stop_queue(q);
			return;
		}
		if (td->td_nlog < TDEV_LOG) {
			l = &td->td_log[td->td_nlog++];
			l->l_pos = blk_rq_pos(rq);
			l->l_bytes = blk_rq_bytes(rq);
			l->l_flags = rq->rq_cmd_flags;
			l->l_tag = rq->rq_tag;
			l->l_flush = blk_rq_is_flush(rq);
		}
		if (td->td_async) {
			KASSERT(td->td_nheld < TDEV_HELD);
			td->td_held[td->td_nheld++] = rq;
			td->td_max_held = max(td->td_max_held, td->td_nheld);
			continue;
		}
		tdev_finish(td, rq, true);
	}
}

struct tdev *tdev_create(sector_t nr_sectors, const char *elv)
{
	struct tdev *td = calloc(1, sizeof(*td));

	bio_init_pools();
	td->td_data = calloc(nr_sectors, SECTOR_SIZE);
	td->td_nr_sectors = nr_sectors;
	td->td_fail_sector = (sector_t)-1;
	td->td_q = blk_init_queue(tdev_request_fn, NULL, "tdev");
	KASSERT(td->td_q);
	td->td_q->q_queuedata = td;
	if (elv)
		KASSERT(elevator_switch(td->td_q, elv) == 0);
	blk_trace_enable(td->td_q);
	return td;
}

void tdev_destroy(struct tdev *td)
{
	if (idle_dev == td) {
		idle_dev = NULL;
		host_idle_hook = NULL;
	}
	td->td_async = false;
	tdev_complete(td);
	blk_cleanup_queue(td->td_q);
	free(td->td_data);
	free(td);
}

void tdev_complete_one(struct tdev *td, u32 i)
{
	struct request *rq = td->td_held[i];

	KASSERT(i < td->td_nheld);
	memmove(td->td_held + i, td->td_held + i + 1, (--td->td_nheld - i) * sizeof(td->td_held[0]));
	host_in_interrupt = true;
	tdev_finish(td, rq, false);
	host_in_interrupt = false;
}

u32 tdev_complete(struct tdev *td)
{
	u32 n = 0, want = td->td_nheld;

	while (td->td_nheld && n < want) {
		tdev_complete_one(td, 0);
		n++;
	}
	return n;
}

static void tdev_idle(void)
{
	if (idle_dev)
		tdev_complete(idle_dev);
	host_advance_ns(NSEC_PER_MSEC);
}

void tdev_set_idle(struct tdev *td)
{
	idle_dev = td;
	host_idle_hook = tdev_idle;
}

struct bio *tbio_alloc(enum host_mem_range r, u32 rw, sector_t sector, u32 nr, u32 off)
{
	u32 bytes = nr * SECTOR_SIZE, n = (off + bytes + PAGE_SIZE - 1) / PAGE_SIZE, len;
	struct bio *b = bio_alloc(GFP_NOIO, n);

	KASSERT(b);
	b->bi_iter.bi_sector = sector;
	b->bi_rw = rw;
	while (bytes) {
		struct page *p = host_alloc_page_in(r);

		KASSERT(p);
		len = min(bytes, (u32)PAGE_SIZE - off);
		KASSERT(bio_add_page(b, p, len, off) == 0);
		bytes -= len;
		off = 0;
	}
	return b;
}

void tbio_free(struct bio *bio)
{
	struct bvec_iter it;
	struct bio_vec bv;

	bio_for_each_segment_all(bv, bio, it)	/* one piece per page here */
		__free_pages(bv.bv_page, 0);
	bio_put(bio);
}

/* Sector pattern: every u32 of sector L is L * 2654435761 ^ gen ^ index. */
static u32 pat(sector_t lba, u32 gen, u32 i)
{
	return (u32)lba * 2654435761u ^ gen ^ (i * 0x01000193u) ^ (u32)(lba >> 32);
}

static u8 pat_byte(sector_t lba, u32 gen, u32 byte_in_sector)
{
	return (u8)(pat(lba, gen, byte_in_sector / 4) >> (8 * (byte_in_sector % 4)));
}

/* Byte by byte, so that vectors of any length and offset work. */
static void walk(struct bio *bio, sector_t lba, u32 gen, bool check, bool *ok)
{
	struct bvec_iter it;
	struct bio_vec bv;
	u64 byte = 0;
	u32 k;

	bio_for_each_segment_all(bv, bio, it) {
		u8 *p = (u8 *)host_page_buf(bv.bv_page) + bv.bv_offset;

		for (k = 0; k < bv.bv_len; k++, byte++) {
			u8 w = pat_byte(lba + byte / SECTOR_SIZE, gen, byte % SECTOR_SIZE);

			if (!check)
				p[k] = w;
			else if (p[k] != w)
				*ok = false;
		}
	}
}

void tbio_stamp(struct bio *bio, u32 gen)
{
	bool ok = true;

	walk(bio, bio->bi_iter.bi_sector, gen, false, &ok);
}

bool tbio_check(struct bio *bio, sector_t sector, u32 gen)
{
	bool ok = true;

	walk(bio, sector, gen, true, &ok);
	return ok;
}

bool tdev_check(struct tdev *td, sector_t sector, u32 nr, u32 gen)
{
	u32 i, k, w, got;

	for (i = 0; i < nr; i++)
		for (k = 0; k < SECTOR_SIZE / 4; k++) {
			w = pat(sector + i, gen, k);
			memcpy(&got, td->td_data + (sector + i) * SECTOR_SIZE + k * 4, 4);
			if (got != w)
				return false;
		}
	return true;
}

void tbio_endio(struct bio *bio, int error)
{
	struct tbio_result *r = bio->bi_private;

	r->r_calls++;
	r->r_error = error;
}

struct bio *tbios[TBIO_SLOTS];
struct tbio_result tres[TBIO_SLOTS];

/* Record b's completion in slot i (tres[i], tbios[i]). */
static struct bio *tbio_track(struct bio *b, int i)
{
	tres[i].r_calls = 0;
	tres[i].r_error = 1;
	b->bi_private = &tres[i];
	b->bi_end_io = tbio_endio;
	tbios[i] = b;
	return b;
}

struct bio *tbio_slot(enum host_mem_range r, u32 rw, sector_t sector, u32 nr, u32 off, int i)
{
	return tbio_track(tbio_alloc(r, rw, sector, nr, off), i);
}

struct bio *tbio_range_slot(u32 rw, sector_t sector, u32 nr, int i)
{
	struct bio *b = bio_alloc(GFP_NOIO, 0);

	b->bi_rw = rw;
	b->bi_iter.bi_sector = sector;
	b->bi_iter.bi_size = nr << SECTOR_SHIFT;
	return tbio_track(b, i);
}

void tbio_free_slots(int n)
{
	int i;

	for (i = 0; i < n; i++)
		tbio_free(tbios[i]);
}
