/*
 * Host tests of DISCARD and WRITE ZEROES through the block core
 * (block/blk-core.c, blk-merge.c, blk-settings.c) against the RAM test
 * device, which zeroes the range of either: -EOPNOTSUPP before the
 * driver when the queue's limits say the device has no such command,
 * splits at max_discard_sectors landing on the unmap unit, no merge with
 * reads or writes (nor with each other), the partition remap with its
 * bounds and read-only policy, and the statistics and trace.
 */
#include "tests/unit/unit.h"
#include "tests/unit/blk_testdev.h"
#include "tests/unit/fakes/bdev_fake.h"
#include "tests/unit/fakes/sched_fake.h"
#include "kernel/errno.h"
#include "lib/string.h"

#define DISCARD		(REQ_WRITE | REQ_DISCARD)
#define ZEROES		(REQ_WRITE | REQ_WRITE_ZEROES)

/* Is every byte of sectors [s, s + n) of td equal to v? */
static bool tdev_bytes(struct tdev *td, sector_t s, u32 n, u8 v)
{
	u32 i;

	for (i = 0; i < n * SECTOR_SIZE; i++)
		if (td->td_data[s * SECTOR_SIZE + i] != v)
			return false;
	return true;
}

static struct tdev *tdev_filled(sector_t nr)
{
	struct tdev *td = tdev_create(nr, "noop");

	memset(td->td_data, 0xab, nr * SECTOR_SIZE);
	blk_queue_plugging(td->td_q, false);
	return td;
}

/* Without the limits set, both fail -EOPNOTSUPP and the driver sees nothing. */
static void test_unsupported(void)
{
	struct tdev *td = tdev_filled(256);

	blk_queue_submit_bio(td->td_q, tbio_range_slot(DISCARD, 8, 8, 0));
	blk_queue_submit_bio(td->td_q, tbio_range_slot(ZEROES, 8, 8, 1));
	CHECK(tres[0].r_calls == 1 && tres[0].r_error == -EOPNOTSUPP);
	CHECK(tres[1].r_calls == 1 && tres[1].r_error == -EOPNOTSUPP);
	CHECK_EQ(td->td_nlog, 0);
	CHECK(tdev_bytes(td, 0, 256, 0xab));
	/* Supported discard does not imply write zeroes, nor the reverse. */
	blk_queue_max_discard_sectors(td->td_q, 64);
	blk_queue_submit_bio(td->td_q, tbio_range_slot(ZEROES, 8, 8, 2));
	CHECK_EQ(tres[2].r_error, -EOPNOTSUPP);
	/* A discard must be a write without pages. */
	blk_queue_submit_bio(td->td_q, tbio_range_slot(REQ_DISCARD, 8, 8, 3));
	CHECK_EQ(tres[3].r_error, -EOPNOTSUPP);
	CHECK_EQ(td->td_nlog, 0);
	tbio_free_slots(4);
	tdev_destroy(td);
	CHECK_EQ(host_bios_live(), 0);
}

/* A supported discard and write zeroes reach the driver as one range each. */
static void test_range_reaches_driver(void)
{
	struct tdev *td = tdev_filled(256);

	blk_queue_max_discard_sectors(td->td_q, 1024);
	blk_queue_max_write_zeroes_sectors(td->td_q, 1024);
	blk_queue_submit_bio(td->td_q, tbio_range_slot(DISCARD, 16, 32, 0));
	blk_queue_submit_bio(td->td_q, tbio_range_slot(ZEROES, 100, 8, 1));
	CHECK(tres[0].r_calls == 1 && tres[0].r_error == 0);
	CHECK(tres[1].r_calls == 1 && tres[1].r_error == 0);
	CHECK_EQ(td->td_nlog, 2);
	CHECK(td->td_log[0].l_pos == 16 && td->td_log[0].l_bytes == 32 * 512);
	CHECK(td->td_log[0].l_flags & REQ_DISCARD);
	CHECK(td->td_log[1].l_flags & REQ_WRITE_ZEROES);
	CHECK(tdev_bytes(td, 0, 16, 0xab) && tdev_bytes(td, 16, 32, 0) &&
	      tdev_bytes(td, 48, 52, 0xab) && tdev_bytes(td, 100, 8, 0) &&
	      tdev_bytes(td, 108, 148, 0xab));
	CHECK_EQ(blk_stat_snapshot(td->td_q).st_ios[1], 2);	/* counted as writes */
	CHECK_EQ(blk_stat_snapshot(td->td_q).st_sectors[1], 40);
	tbio_free_slots(2);
	tdev_destroy(td);
	CHECK_EQ(host_bios_live(), 0);
}

/* Split at max_discard_sectors, the cuts on the unmap unit's boundaries. */
static void test_split_by_limits(void)
{
	struct tdev *td = tdev_filled(4096);
	struct queue_limits *lim = &td->td_q->q_limits;
	u32 i;

	blk_queue_max_discard_sectors(td->td_q, 100);
	CHECK_EQ(lim->lim_max_discard_sectors, 100);
	blk_queue_submit_bio(td->td_q, tbio_range_slot(DISCARD, 0, 250, 0));
	CHECK(tres[0].r_calls == 1 && tres[0].r_error == 0);
	CHECK_EQ(td->td_nlog, 3);
	CHECK(td->td_log[0].l_pos == 0 && td->td_log[0].l_bytes == 100 * 512);
	CHECK(td->td_log[1].l_pos == 100 && td->td_log[1].l_bytes == 100 * 512);
	CHECK(td->td_log[2].l_pos == 200 && td->td_log[2].l_bytes == 50 * 512);
	CHECK(tdev_bytes(td, 0, 250, 0) && tdev_bytes(td, 250, 10, 0xab));

	/* 4 KiB units starting at sector 2: cuts at 2 + 8k, at most 100 long. */
	td->td_nlog = 0;
	blk_queue_discard_granularity(td->td_q, 4096, 1024);
	CHECK(lim->lim_discard_granularity == 4096 && lim->lim_discard_alignment == 1024);
	blk_queue_submit_bio(td->td_q, tbio_range_slot(DISCARD, 1000, 300, 1));
	CHECK(tres[1].r_calls == 1 && tres[1].r_error == 0);
	CHECK_EQ(td->td_nlog, 4);
	CHECK(td->td_log[0].l_pos == 1000 && td->td_log[0].l_bytes == 98 * 512);
	for (i = 1; i < td->td_nlog; i++)
		CHECK_EQ((td->td_log[i].l_pos - 2) % 8, 0);
	CHECK_EQ(td->td_log[3].l_pos + td->td_log[3].l_bytes / 512, 1300);
	CHECK(blk_stat_snapshot(td->td_q).st_splits >= 5);

	/* Write zeroes splits by its own limit, ignoring the discard unit. */
	td->td_nlog = 0;
	blk_queue_max_write_zeroes_sectors(td->td_q, 64);
	blk_queue_submit_bio(td->td_q, tbio_range_slot(ZEROES, 3, 130, 2));
	CHECK(tres[2].r_calls == 1 && tres[2].r_error == 0);
	CHECK_EQ(td->td_nlog, 3);
	CHECK(td->td_log[1].l_pos == 67 && td->td_log[2].l_bytes == 2 * 512);
	CHECK_EQ(blk_bio_split_point(lim, tbios[2]), 0);	/* what is left of it fits */
	tbio_free_slots(3);
	tdev_destroy(td);
	CHECK_EQ(host_bios_live(), 0);
}

/* Adjacent writes merge around a discard, never into it. */
static void test_no_merge_with_data(void)
{
	struct tdev *td = tdev_create(1024, "noop");
	u64 seq = blk_trace_seq(td->td_q);

	blk_queue_max_discard_sectors(td->td_q, 1024);
	blk_unplug(td->td_q);
	td->td_q->q_unplug_thresh = 1000;
	blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 0, 8, 0, 0));
	blk_queue_submit_bio(td->td_q, tbio_range_slot(DISCARD, 8, 8, 1));	/* after it */
	blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 16, 8, 0, 2));
	blk_queue_submit_bio(td->td_q, tbio_range_slot(DISCARD, 24, 8, 3));	/* discard + discard */
	blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, 0, 32, 8, 0, 4));
	blk_queue_submit_bio(td->td_q, tbio_slot(HOST_MEM_NORMAL, REQ_WRITE, 40, 8, 0, 5));
	blk_queue_submit_bio(td->td_q, tbio_range_slot(DISCARD, 32, 8, 6));
	CHECK_EQ(td->td_nlog, 0);
	blk_unplug(td->td_q);
	CHECK_EQ(td->td_nlog, 7);
	CHECK_EQ(blk_trace_count(td->td_q, seq, BLK_TA_BACKMERGE), 0);
	CHECK_EQ(blk_trace_count(td->td_q, seq, BLK_TA_FRONTMERGE), 0);
	CHECK_EQ(blk_trace_count(td->td_q, seq, BLK_TA_RQMERGE), 0);
	CHECK_EQ(blk_stat_snapshot(td->td_q).st_merges[1], 0);
	tbio_free_slots(7);
	tdev_destroy(td);
	CHECK_EQ(host_bios_live(), 0);
}

/* Through a partition: remapped, bounded, refused on a read-only one. */
static void test_partition_remap(void)
{
	struct tdev *td = tdev_filled(1024);
	struct block_device part = { td->td_q, 100, 50, false };
	struct bio *b;

	blk_queue_max_discard_sectors(td->td_q, 1024);
	blk_queue_max_write_zeroes_sectors(td->td_q, 1024);
	b = tbio_range_slot(DISCARD, 10, 8, 0);
	b->bi_bdev = &part;
	submit_bio(b);
	CHECK(tres[0].r_calls == 1 && tres[0].r_error == 0);
	CHECK_EQ(td->td_log[0].l_pos, 110);
	CHECK(tdev_bytes(td, 100, 10, 0xab) && tdev_bytes(td, 110, 8, 0) &&
	      tdev_bytes(td, 118, 10, 0xab));
	b = tbio_range_slot(DISCARD, 45, 8, 1);			/* past the end */
	b->bi_bdev = &part;
	submit_bio(b);
	CHECK_EQ(tres[1].r_error, -EIO);
	part.bd_read_only = true;
	b = tbio_range_slot(ZEROES, 0, 8, 2);
	b->bi_bdev = &part;
	submit_bio(b);
	CHECK_EQ(tres[2].r_error, -EROFS);
	b = tbio_range_slot(DISCARD, 0, 8, 3);
	b->bi_bdev = &part;
	submit_bio(b);
	CHECK_EQ(tres[3].r_error, -EROFS);
	CHECK_EQ(td->td_nlog, 1);
	CHECK(tdev_bytes(td, 100, 8, 0xab));
	tbio_free_slots(4);
	tdev_destroy(td);
	CHECK_EQ(host_bios_live(), 0);
}

/* A driver that ends a range in pieces: the bio's range advances without a vector. */
static void test_partial_completion(void)
{
	struct tdev *td = tdev_filled(256);

	blk_queue_max_discard_sectors(td->td_q, 1024);
	td->td_chunk = 1024;
	blk_queue_submit_bio(td->td_q, tbio_range_slot(DISCARD, 8, 16, 0));
	CHECK(tres[0].r_calls == 1 && tres[0].r_error == 0);
	CHECK(tdev_bytes(td, 8, 16, 0) && tdev_bytes(td, 24, 8, 0xab));
	tbio_free_slots(1);
	tdev_destroy(td);
	CHECK_EQ(host_bios_live(), 0);
}

/* The limit setters round to whole logical blocks and sane units. */
static void test_limit_setters(void)
{
	struct tdev *td = tdev_create(256, "noop");
	struct queue_limits *lim = &td->td_q->q_limits;

	CHECK(lim->lim_max_discard_sectors == 0 && lim->lim_max_write_zeroes_sectors == 0);
	blk_queue_logical_block_size(td->td_q, 4096);
	blk_queue_max_discard_sectors(td->td_q, 21);
	CHECK_EQ(lim->lim_max_discard_sectors, 16);
	blk_queue_max_write_zeroes_sectors(td->td_q, 0xFFFFFFFFu);
	CHECK_EQ(lim->lim_max_write_zeroes_sectors % 8, 0);
	CHECK((u64)lim->lim_max_write_zeroes_sectors * 512 <= 0xFFFFFFFFu);
	blk_queue_discard_granularity(td->td_q, 3000, 512);
	CHECK(lim->lim_discard_granularity == 4096 && lim->lim_discard_alignment == 512);
	tdev_destroy(td);
}

static const struct unit_case cases[] = {
	{ "discard/unsupported", test_unsupported },
	{ "discard/range_reaches_driver", test_range_reaches_driver },
	{ "discard/split_by_limits", test_split_by_limits },
	{ "discard/no_merge_with_data", test_no_merge_with_data },
	{ "discard/partition_remap", test_partition_remap },
	{ "discard/partial_completion", test_partial_completion },
	{ "discard/limit_setters", test_limit_setters },
};

UNIT_MAIN("block_discard", cases)
