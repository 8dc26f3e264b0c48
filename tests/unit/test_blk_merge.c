/*
 * Host tests of bio handling and the pure merge logic (block/bio.c,
 * block/blk-merge.c): vector building, split at every sector of a
 * multi-page bio, chained completion, segment counting, split points
 * under every limit, and scatter/gather mapping with segment boundaries,
 * maximum segment sizes and 64-bit addresses.
 */
#include "tests/unit/unit.h"
#include "tests/unit/blk_testdev.h"
#include "tests/unit/fakes/sched_fake.h"
#include "kernel/errno.h"

static struct queue_limits lim_default(void)
{
	struct queue_limits l;

	blk_set_default_limits(&l);
	return l;
}

/* Two physically contiguous normal pages (pfns n, n+1). */
static void contiguous_pair(struct page **a, struct page **b)
{
	*a = host_alloc_page_in(HOST_MEM_NORMAL);
	*b = host_alloc_page_in(HOST_MEM_NORMAL);
	KASSERT(page_to_pfn(*b) == page_to_pfn(*a) + 1);
}

static void test_add_page_merges(void)
{
	struct page *a, *b;
	struct bio *bio;

	bio_init_pools();
	contiguous_pair(&a, &b);
	bio = bio_alloc(GFP_NOIO, 4);
	CHECK_EQ(bio_add_page(bio, a, 512, 0), 0);
	CHECK_EQ(bio_add_page(bio, a, 512, 512), 0);	/* continues: same vector */
	CHECK_EQ(bio->bi_vcnt, 1);
	CHECK_EQ(bio_add_page(bio, b, 1024, 0), 0);	/* another page: a new vector */
	CHECK_EQ(bio->bi_vcnt, 2);
	CHECK_EQ(bio->bi_iter.bi_size, 2048);
	CHECK_EQ(bio_add_page(bio, a, 0, 0), -EINVAL);
	CHECK_EQ(bio_add_page(bio, a, 512, 4096), -EINVAL);
	__free_page(a);
	__free_page(b);
	bio_put(bio);
	CHECK_EQ(host_bios_live(), 0);
}

/* Contiguous pages make one entry, whole or as a run; the two iterators see it differently. */
static void test_multipage_entry(void)
{
	struct page *a, *b;
	struct bvec_iter it;
	struct bio_vec bv;
	struct bio *bio;
	u32 n = 0;

	contiguous_pair(&a, &b);
	bio = bio_alloc(GFP_NOIO, 4);
	CHECK_EQ(bio_add_page(bio, a, 4096, 0), 0);
	CHECK_EQ(bio_add_page(bio, b, 4096, 0), 0);
	CHECK_EQ(bio->bi_vcnt, 1);
	CHECK_EQ(bio->bi_io_vec[0].bv_len, 8192);
	bio_for_each_bvec(bv, bio, it)
		CHECK(n++ == 0 && bv.bv_page == a && bv.bv_len == 8192);
	n = 0;
	bio_for_each_segment(bv, bio, it) {
		CHECK(bv.bv_page == (n ? b : a) && bv.bv_offset == 0 && bv.bv_len == 4096);
		n++;
	}
	CHECK_EQ(n, 2);
	CHECK_EQ(bio_nr_vecs_left(bio), 2);
	bio_advance(bio, 9 * 512);			/* into the second page */
	bv = bvec_iter_bvec(bio->bi_io_vec, bio->bi_iter);
	CHECK(bv.bv_page == b && bv.bv_offset == 512 && bv.bv_len == 3584);
	n = 0;
	bio_for_each_segment_all(bv, bio, it)		/* the owner still sees all */
		n += bv.bv_len;
	CHECK_EQ(n, 8192);
	bio_put(bio);

	/* One call may add a run that crosses into the next page; more may follow it. */
	bio = bio_alloc(GFP_NOIO, 1);
	CHECK_EQ(bio_add_page(bio, a, 4096 + 512, 1024), 0);	/* a[1024..] and b[..1536] */
	CHECK_EQ(bio_add_page(bio, b, 1024, 1536), 0);		/* continues it */
	CHECK_EQ(bio->bi_vcnt, 1);
	CHECK_EQ(bio->bi_io_vec[0].bv_len, 4096 + 1536);
	n = 0;
	bio_for_each_segment(bv, bio, it) {
		CHECK(n ? bv.bv_page == b && bv.bv_offset == 0 && bv.bv_len == 2560
			: bv.bv_page == a && bv.bv_offset == 1024 && bv.bv_len == 3072);
		n++;
	}
	CHECK_EQ(n, 2);
	__free_page(a);
	__free_page(b);
	bio_put(bio);
}

static void test_add_page_respects_queue(void)
{
	struct tdev *td = tdev_create(1024, NULL);
	struct page *p[4];
	struct bio *bio;
	int i;

	blk_queue_max_hw_sectors(td->td_q, 8);
	blk_queue_max_segments(td->td_q, 2);
	bio = bio_alloc(GFP_NOIO, 4);
	bio->bi_queue = td->td_q;
	for (i = 0; i < 4; i++)
		p[i] = host_alloc_page_in(HOST_MEM_HIGH);
	/*
	 * Non-contiguous 1 KiB pieces: the third goes past max_segments, which
	 * submission meets by splitting, so it is taken; max_hw_sectors is not.
	 */
	CHECK_EQ(bio_add_page(bio, p[0], 1024, 0), 0);
	CHECK_EQ(bio_add_page(bio, p[2], 1024, 0), 0);
	CHECK_EQ(bio_add_page(bio, p[1], 1024, 2048), 0);
	CHECK_EQ(bio_add_page(bio, p[1], 1024, 3072), 0);	/* continues: same entry */
	CHECK_EQ(bio->bi_vcnt, 3);
	CHECK_EQ(bio->bi_iter.bi_size, 4096);
	CHECK_EQ(blk_bio_segments(&td->td_q->q_limits, bio), 3);
	CHECK_EQ(bio_add_page(bio, p[3], 512, 0), -E2BIG);	/* past 8 sectors */
	for (i = 0; i < 4; i++)
		__free_page(p[i]);
	bio_put(bio);
	tdev_destroy(td);
}

/* Split a 5-page, odd-offset bio at every sector; the halves cover it exactly. */
static void test_split_every_sector(void)
{
	u32 total = 36, s;

	bio_init_pools();
	for (s = 1; s < total; s++) {
		struct bio *bio = tbio_alloc(HOST_MEM_NORMAL, REQ_WRITE, 1000, total, 1536);
		struct tbio_result r = { 0, 0 };
		struct bio *front;
		struct bvec_iter it;
		struct bio_vec bv;
		u32 bytes = 0;

		bio->bi_end_io = tbio_endio;
		bio->bi_private = &r;
		front = bio_split(bio, s, GFP_NOIO);
		CHECK_EQ(front->bi_iter.bi_sector, 1000);
		CHECK_EQ(front->bi_iter.bi_size, s * 512);
		CHECK_EQ(bio->bi_iter.bi_sector, 1000 + s);
		CHECK_EQ(bio->bi_iter.bi_size, (total - s) * 512);
		bio_for_each_segment(bv, front, it)
			bytes += bv.bv_len;
		CHECK_EQ(bytes, s * 512);
		bio_endio(bio, 0);
		CHECK_EQ(r.r_calls, 0);		/* waits for the front */
		bio_endio(front, -EIO);
		CHECK_EQ(r.r_calls, 1);
		CHECK_EQ(r.r_error, -EIO);	/* the first error of any part */
		tbio_free(bio);
	}
	CHECK_EQ(host_bios_live(), 0);
	CHECK_EQ(host_pages_live, 0);
}

/* Physical address of byte pos of the whole vector, from the entries. */
static u64 vec_phys(const struct bio *bio, u32 pos)
{
	u32 i;

	for (i = 0; i < bio->bi_vcnt; i++) {
		const struct bio_vec *v = &bio->bi_io_vec[i];

		if (pos < v->bv_len)
			return page_to_phys(v->bv_page) + v->bv_offset + pos;
		pos -= v->bv_len;
	}
	return ~0ull;
}

/* Memory position of the rest after a split, computed independently. */
static void test_split_memory_position(void)
{
	u32 s;

	for (s = 1; s < 20; s++) {
		struct bio *bio = tbio_alloc(HOST_MEM_NORMAL, 0, 0, 20, 3584);
		struct bio *front = bio_split(bio, s, GFP_NOIO);
		u32 byte = 3584 + s * 512;	/* from the start of page 0 */
		struct bio_vec bv = bvec_iter_bvec(bio->bi_io_vec, bio->bi_iter);

		CHECK_EQ(page_to_phys(bv.bv_page) + bv.bv_offset, vec_phys(bio, s * 512));
		CHECK_EQ(bv.bv_offset, byte % 4096);
		bio_endio(front, 0);
		bio_endio(bio, 0);
		tbio_free(bio);
	}
}

/* The split check leaves its count in the bio; moving the bio on forgets it. */
static void test_segments_cached_by_split_check(void)
{
	struct tdev *td = tdev_create(1024, NULL);
	struct bio *bio = tbio_alloc(HOST_MEM_HIGH, 0, 0, 16, 0);	/* 2 pages */
	u32 fresh;

	blk_queue_max_segment_size(td->td_q, 4096);		/* one entry per page */
	bio->bi_queue = td->td_q;
	fresh = blk_bio_segments(&td->td_q->q_limits, bio);
	CHECK_EQ(fresh, 2);
	CHECK(blk_queue_split(td->td_q, bio) == bio);		/* fits: no split */
	CHECK(bio->bi_flags & BIO_SEG_VALID);
	CHECK_EQ(blk_bio_segments(&td->td_q->q_limits, bio), fresh);
	bio_advance(bio, 4096);
	CHECK(!(bio->bi_flags & BIO_SEG_VALID));
	CHECK_EQ(blk_bio_segments(&td->td_q->q_limits, bio), 1);
	tbio_free(bio);
	tdev_destroy(td);
}

static void test_segments_count(void)
{
	struct queue_limits l = lim_default();
	struct page *a, *b;
	struct bio *bio = bio_alloc(GFP_NOIO, 4);

	contiguous_pair(&a, &b);
	bio_add_page(bio, a, 4096, 0);
	bio_add_page(bio, b, 4096, 0);
	CHECK_EQ(blk_bio_segments(&l, bio), 1);		/* contiguous: one entry */
	l.lim_max_segment_size = 4096;
	CHECK_EQ(blk_bio_segments(&l, bio), 2);
	l.lim_max_segment_size = 3000;			/* 3000+1096 | 1904+2192... */
	CHECK_EQ(blk_bio_segments(&l, bio), 3);
	l = lim_default();
	/* A boundary at the page between them splits the entry. */
	l.lim_seg_boundary_mask = 4095;
	CHECK_EQ(blk_bio_segments(&l, bio), 2);
	__free_page(a);
	__free_page(b);
	bio_put(bio);
}

static void test_split_points(void)
{
	struct queue_limits l = lim_default();
	struct bio *bio = tbio_alloc(HOST_MEM_HIGH, 0, 0, 64, 0);	/* 8 pages */
	bool contiguous = true;
	u32 i;

	for (i = 1; i < bio->bi_vcnt; i++)
		contiguous &= page_to_pfn(bio->bi_io_vec[i].bv_page) ==
			      page_to_pfn(bio->bi_io_vec[i - 1].bv_page) + 1;
	CHECK(contiguous);
	CHECK_EQ(blk_bio_split_point(&l, bio), 0);
	l.lim_max_sectors = 24;
	CHECK_EQ(blk_bio_split_point(&l, bio), 24);
	l.lim_max_sectors = 13;				/* inside a vector */
	CHECK_EQ(blk_bio_split_point(&l, bio), 13);
	l.lim_logical_block_size = 4096;
	CHECK_EQ(blk_bio_split_point(&l, bio), 8);	/* rounded down to 4 KiB */
	l = lim_default();
	l.lim_max_segment_size = 4096;
	l.lim_max_segments = 3;
	CHECK_EQ(blk_bio_split_point(&l, bio), 24);
	l.lim_max_segment_size = 1000;			/* entries of 1000 bytes */
	CHECK_EQ(blk_bio_split_point(&l, bio), 5);	/* 3000 bytes -> 5 sectors */
	l.lim_max_segments = 1;
	l.lim_max_segment_size = 512;
	CHECK_EQ(blk_bio_split_point(&l, bio), 1);
	l.lim_logical_block_size = 4096;		/* one block at least */
	CHECK_EQ(blk_bio_split_point(&l, bio), 8);
	tbio_free(bio);
}

/* map_sg against an independent model: byte-by-byte entry building. */
static void test_map_sg_model(void)
{
	struct tdev *td = tdev_create(4096, "noop");
	struct request_queue *q = td->td_q;
	static const u64 masks[] = { ~0ULL, 4095, 8191, 0xFFFF };
	static const u32 sizes[] = { 65536, 4096, 1536, 512 };
	unsigned mi, si;

	for (mi = 0; mi < ARRAY_SIZE(masks); mi++)
		for (si = 0; si < ARRAY_SIZE(sizes); si++) {
			struct bio *bio = tbio_alloc(HOST_MEM_HIGH4G, 0, 0, 40, 1024);
			struct request rq;
			struct scatterlist sg[128];
			u64 total = 0;
			int n, i;

			blk_set_default_limits(&q->q_limits);
			blk_queue_segment_boundary(q, masks[mi]);
			blk_queue_max_segment_size(q, sizes[si]);
			blk_rq_init(q, &rq);
			rq.rq_bio = rq.rq_biotail = bio;
			rq.rq_data_len = bio->bi_iter.bi_size;
			n = blk_rq_map_sg(q, &rq, sg, 128);
			CHECK(n > 0);
			CHECK_EQ((u32)n, blk_bio_segments(&q->q_limits, bio));
			for (i = 0; i < n; i++) {
				CHECK(sg[i].sg_len <= sizes[si]);
				CHECK((sg[i].sg_addr | masks[mi]) ==
				      ((sg[i].sg_addr + sg[i].sg_len - 1) | masks[mi]));
				CHECK(sg[i].sg_addr >= 0x100000000ULL);	/* 64-bit */
				if (i)	/* maximal: could not have extended the previous */
					CHECK(sg[i - 1].sg_addr + sg[i - 1].sg_len != sg[i].sg_addr ||
					      sg[i - 1].sg_len == sizes[si] ||
					      ((sg[i - 1].sg_addr | masks[mi]) !=
					       (sg[i].sg_addr | masks[mi])));
				total += sg[i].sg_len;
			}
			CHECK_EQ(total, 40 * 512);
			CHECK_EQ(sg[0].sg_addr, page_to_phys(bio->bi_io_vec[0].bv_page) + 1024);
			CHECK_EQ(blk_rq_map_sg(q, &rq, sg, 1), n > 1 ? -EOVERFLOW : 1);
			tbio_free(bio);
		}
	tdev_destroy(td);
}

static void test_clone_shares_vector(void)
{
	struct bio *bio = tbio_alloc(HOST_MEM_DMA, REQ_WRITE | REQ_FUA, 77, 16, 0);
	struct bio *c = bio_clone(bio, GFP_NOIO);

	CHECK(c->bi_io_vec == bio->bi_io_vec);
	CHECK_EQ(c->bi_iter.bi_sector, 77);
	CHECK_EQ(c->bi_iter.bi_size, 16 * 512);
	CHECK(c->bi_flags & BIO_CLONED);
	CHECK_EQ(c->bi_rw, REQ_WRITE | REQ_FUA);
	CHECK_EQ(bio_add_page(c, bio->bi_io_vec[0].bv_page, 512, 0), -EINVAL);
	bio_put(c);
	tbio_free(bio);
	CHECK_EQ(host_bios_live(), 0);
}

static void test_split_keeps_ordering_flags(void)
{
	struct bio *bio = tbio_alloc(HOST_MEM_NORMAL, REQ_WRITE | REQ_FUA | REQ_PREFLUSH, 0, 16, 0);
	struct bio *front = bio_split(bio, 8, GFP_NOIO);

	CHECK(front->bi_rw & REQ_PREFLUSH);
	CHECK(!(front->bi_rw & REQ_FUA));
	CHECK(bio->bi_rw & REQ_FUA);
	CHECK(!(bio->bi_rw & REQ_PREFLUSH));
	bio_endio(front, 0);
	bio_endio(bio, 0);
	tbio_free(bio);
}

/* Which bios may join a request, and where the limits stop them. */
static void test_merge_decisions(void)
{
	struct tdev *td = tdev_create(4096, "noop");
	struct request_queue *q = td->td_q;
	struct bio *base = tbio_alloc(HOST_MEM_NORMAL, REQ_WRITE, 100, 8, 0);
	struct bio *next = tbio_alloc(HOST_MEM_NORMAL, REQ_WRITE, 108, 8, 0);
	struct bio *prev = tbio_alloc(HOST_MEM_NORMAL, REQ_WRITE, 92, 8, 0);
	struct bio *rd = tbio_alloc(HOST_MEM_NORMAL, 0, 108, 8, 0);
	struct bio *far = tbio_alloc(HOST_MEM_NORMAL, REQ_WRITE, 200, 8, 0);
	struct request rq;

	blk_rq_init(q, &rq);
	rq.rq_cmd_flags = REQ_WRITE;
	rq.rq_sector = 100;
	rq.rq_data_len = 8 * 512;
	rq.rq_bio = rq.rq_biotail = base;
	rq.rq_nr_phys_segments = 1;
	spin_lock_irq(q->q_lock);
	CHECK(blk_rq_merge_ok(&rq, next));
	CHECK(!blk_rq_merge_ok(&rq, rd));		/* other direction */
	next->bi_rw |= REQ_FUA;
	CHECK(!blk_rq_merge_ok(&rq, next));		/* ordering flags never merge */
	next->bi_rw = REQ_WRITE;
	rq.rq_state |= RQF_STARTED;
	CHECK(!blk_rq_merge_ok(&rq, next));		/* the driver has it */
	rq.rq_state &= ~RQF_STARTED;
	CHECK(!blk_try_back_merge(q, &rq, far));	/* not adjacent */
	CHECK(!blk_try_front_merge(q, &rq, next));	/* wrong side */
	blk_queue_max_sectors(q, 12);
	CHECK(!blk_try_back_merge(q, &rq, next));	/* 16 sectors > 12 */
	blk_queue_max_sectors(q, 16);
	blk_queue_max_segments(q, 1);
	CHECK(!blk_try_back_merge(q, &rq, next));	/* 2 segments > 1 */
	blk_queue_max_segments(q, 4);
	CHECK(blk_try_back_merge(q, &rq, next));
	CHECK_EQ(blk_rq_sectors(&rq), 16);
	CHECK(rq.rq_biotail == next);
	blk_queue_max_sectors(q, 24);
	CHECK(blk_try_front_merge(q, &rq, prev));
	CHECK_EQ(blk_rq_pos(&rq), 92);
	CHECK(rq.rq_bio == prev);
	CHECK_EQ(rq.rq_nr_phys_segments, 3);
	spin_unlock_irq(q->q_lock);
	CHECK_EQ(blk_stat_snapshot(q).st_merges[1], 2);
	tbio_free(base);
	tbio_free(next);
	tbio_free(prev);
	tbio_free(rd);
	tbio_free(far);
	tdev_destroy(td);
}

static const struct unit_case cases[] = {
	{ "merge/decisions", test_merge_decisions },
	{ "bio/add_page_merges", test_add_page_merges },
	{ "bio/multipage_entry", test_multipage_entry },
	{ "bio/add_page_respects_queue", test_add_page_respects_queue },
	{ "bio/split_every_sector", test_split_every_sector },
	{ "bio/split_memory_position", test_split_memory_position },
	{ "bio/clone_shares_vector", test_clone_shares_vector },
	{ "bio/split_keeps_ordering_flags", test_split_keeps_ordering_flags },
	{ "merge/segments_count", test_segments_count },
	{ "bio/segments_cached_by_split_check", test_segments_cached_by_split_check },
	{ "merge/split_points", test_split_points },
	{ "merge/map_sg_model", test_map_sg_model },
};

UNIT_MAIN("block_merge", cases)
