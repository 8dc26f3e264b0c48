/*
 * Host tests of the blk-mq tag allocator (block/blk-mq-tag.c): every
 * depth from 1 to BLK_MQ_MAX_DEPTH handed out to exhaustion and back,
 * the reserved range kept apart, frees and reallocation in random order
 * against a model of which tags are out, and the argument checks.
 */
#include "tests/unit/unit.h"
#include "block/blk-mq.h"
#include "block/blk-mq-tag.h"

static u32 rnd_state = 12345;

static u32 rnd(void)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return rnd_state >> 8;
}

/* Take every tag of one range: each once, all inside the range, then none. */
static void take_all(struct blk_mq_tags *t, bool reserved, u32 first, u32 nr, u8 *seen)
{
	u32 i;
	int tag;

	for (i = 0; i < nr; i++) {
		tag = blk_mq_get_tag(t, reserved);
		if (tag < (int)first || tag >= (int)(first + nr) || seen[tag]) {
			CHECK(!"tag out of its range or handed out twice");
			return;
		}
		seen[tag] = 1;
		CHECK(blk_mq_tag_busy(t, (u32)tag));
	}
	CHECK_EQ(blk_mq_get_tag(t, reserved), BLK_MQ_NO_TAG);
}

static void test_every_depth(void)
{
	static u8 seen[BLK_MQ_MAX_DEPTH];
	struct blk_mq_tags *t;
	u32 depth, i;

	for (depth = 1; depth <= BLK_MQ_MAX_DEPTH; depth++) {
		t = blk_mq_init_tags(depth, 0);
		CHECK(t != NULL);
		if (!t)
			return;
		memset(seen, 0, sizeof(seen));
		take_all(t, false, 0, depth, seen);
		CHECK_EQ(t->busy, depth);
		CHECK_EQ(blk_mq_get_tag(t, true), BLK_MQ_NO_TAG);	/* none reserved */
		for (i = 0; i < depth; i++)
			blk_mq_put_tag(t, i);
		CHECK_EQ(t->busy, 0);
		memset(seen, 0, sizeof(seen));
		take_all(t, false, 0, depth, seen);		/* all back, all again */
		blk_mq_free_tags(t);
	}
}

static void test_reserved(void)
{
	static const u32 shapes[][2] = { { 2, 1 }, { 32, 1 }, { 33, 32 }, { 64, 4 }, { 1024, 63 },
					 { 1024, 1023 }, { 100, 50 } };
	static u8 seen[BLK_MQ_MAX_DEPTH];
	struct blk_mq_tags *t;
	u32 i, d, r;
	int tag;

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		d = shapes[i][0];
		r = shapes[i][1];
		t = blk_mq_init_tags(d, r);
		CHECK(t != NULL);
		if (!t)
			return;
		memset(seen, 0, sizeof(seen));
		take_all(t, false, r, d - r, seen);	/* normal ones never dip into reserved */
		take_all(t, true, 0, r, seen);		/* reserved still all there */
		CHECK_EQ(t->busy, d);
		blk_mq_put_tag(t, 0);
		tag = blk_mq_get_tag(t, false);
		CHECK_EQ(tag, BLK_MQ_NO_TAG);		/* a free reserved tag is not for them */
		CHECK_EQ(blk_mq_get_tag(t, true), 0);
		blk_mq_put_tag(t, d - 1);
		CHECK_EQ(blk_mq_get_tag(t, true), BLK_MQ_NO_TAG);
		CHECK_EQ(blk_mq_get_tag(t, false), (int)(d - 1));
		blk_mq_free_tags(t);
	}
}

/* Random frees and takes against a model: never a tag twice, never a lost one. */
static void test_random_free_realloc(void)
{
	static u8 out[BLK_MQ_MAX_DEPTH];
	static const u32 depths[] = { 1, 31, 32, 33, 64, 65, 255, 1000, 1024 };
	struct blk_mq_tags *t;
	u32 k, i, d, nout, tag;
	int got;

	for (k = 0; k < sizeof(depths) / sizeof(depths[0]); k++) {
		d = depths[k];
		t = blk_mq_init_tags(d, 0);
		CHECK(t != NULL);
		if (!t)
			return;
		memset(out, 0, sizeof(out));
		nout = 0;
		for (i = 0; i < 20000; i++) {
			if (nout && rnd() % 2) {
				do
					tag = rnd() % d;
				while (!out[tag]);
				blk_mq_put_tag(t, tag);
				out[tag] = 0;
				nout--;
				continue;
			}
			got = blk_mq_get_tag(t, false);
			if (nout == d) {
				CHECK_EQ(got, BLK_MQ_NO_TAG);
				continue;
			}
			if (got < 0 || got >= (int)d || out[got]) {
				CHECK(!"a free tag was not found, or a busy one handed out");
				break;
			}
			out[got] = 1;
			nout++;
		}
		CHECK_EQ(t->busy, nout);
		for (tag = 0; tag < d; tag++)
			CHECK_EQ(blk_mq_tag_busy(t, tag), out[tag]);
		blk_mq_free_tags(t);
	}
}

/* A freed tag in an otherwise full map is found at once, wherever it is. */
static void test_hint_finds_the_hole(void)
{
	static u8 seen[BLK_MQ_MAX_DEPTH];
	struct blk_mq_tags *t = blk_mq_init_tags(1024, 0);
	u32 hole;

	CHECK(t != NULL);
	if (!t)
		return;
	take_all(t, false, 0, 1024, seen);
	for (hole = 0; hole < 1024; hole += 37) {
		blk_mq_put_tag(t, hole);
		CHECK_EQ(blk_mq_get_tag(t, false), (int)hole);
	}
	blk_mq_free_tags(t);
}

static void test_bad_arguments(void)
{
	CHECK(blk_mq_init_tags(0, 0) == NULL);
	CHECK(blk_mq_init_tags(BLK_MQ_MAX_DEPTH + 1, 0) == NULL);
	CHECK(blk_mq_init_tags(4, 4) == NULL);
	CHECK(blk_mq_init_tags(4, 5) == NULL);
}

static const struct unit_case cases[] = {
	{ "mq_tag/every_depth_1_to_1024", test_every_depth },
	{ "mq_tag/reserved_kept_apart", test_reserved },
	{ "mq_tag/random_free_realloc", test_random_free_realloc },
	{ "mq_tag/hint_finds_the_hole", test_hint_finds_the_hole },
	{ "mq_tag/bad_arguments", test_bad_arguments },
};

UNIT_MAIN("block_mq_tag", cases)
