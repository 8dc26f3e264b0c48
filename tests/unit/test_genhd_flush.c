/*
 * Host tests of the write-cache flush at shutdown (block/genhd_flush.c)
 * over the real registry and request queues of RAM test devices: only
 * whole disks whose queue declares a write cache get a flush, one each,
 * through their queue; a disk that never answers costs a bounded wait and
 * an error, and the others are flushed all the same.
 */
#include "tests/unit/unit.h"
#include "tests/unit/blk_testdev.h"
#include "tests/unit/fakes/sched_fake.h"
#include "block/genhd.h"
#include "kernel/errno.h"
#include "lib/string.h"

#define SD_MAJOR	8
#define TD_SECTORS	2048

static const struct block_device_operations no_ops = { 0 };

/* Disk index i ("sda", ...) over td, with a write cache or not. */
static struct gendisk *add_td_disk(unsigned i, struct tdev *td, bool wcache)
{
	struct gendisk *disk = alloc_disk(16);

	KASSERT(disk);
	disk_name_letters(disk->gd_name, sizeof(disk->gd_name), "sd", i);
	disk->gd_major = SD_MAJOR;
	disk->gd_first_minor = (int)(16 * i);
	disk->gd_fops = &no_ops;
	disk->gd_queue = td->td_q;
	set_capacity(disk, TD_SECTORS);
	blk_queue_flush(td->td_q, wcache ? BLK_FLUSH_CACHE : 0);
	CHECK_EQ(add_disk(disk), 0);	/* the scan reads zeros: no table */
	td->td_nlog = 0;		/* what it read is not under test */
	return disk;
}

static void drop(struct gendisk *disk, struct tdev *td)
{
	CHECK_EQ(del_gendisk(disk), 0);
	put_disk(disk);
	tdev_destroy(td);
}

/* A driver that keeps giving its request more time: it never ends. */
static enum blk_eh_timer_return keep_waiting(struct request *rq)
{
	return BLK_EH_RESET_TIMER;
}

static void test_only_disks_with_a_cache(void)
{
	struct tdev *a = tdev_create(TD_SECTORS, "noop"), *b = tdev_create(TD_SECTORS, "noop");
	struct gendisk *da, *db;

	CHECK_EQ(register_blkdev(SD_MAJOR, "sd"), SD_MAJOR);
	da = add_td_disk(0, a, true);
	db = add_td_disk(1, b, false);
	CHECK_EQ(disk_flush_caches(), 0);
	CHECK_EQ(a->td_flushes, 1);		/* one flush, to the whole disk only */
	CHECK_EQ(a->td_nlog, 1);
	CHECK(a->td_log[0].l_flush);
	CHECK_EQ(b->td_flushes, 0);		/* no cache, nothing sent */
	CHECK_EQ(b->td_nlog, 0);
	drop(da, a);
	drop(db, b);
	CHECK_EQ(unregister_blkdev(SD_MAJOR, "sd"), 0);
}

static void test_dead_disk_is_bounded(void)
{
	struct tdev *dead = tdev_create(TD_SECTORS, "noop"), *ok = tdev_create(TD_SECTORS, "noop");
	struct gendisk *dd, *dk;
	u64 t0, ms, bound;

	CHECK_EQ(register_blkdev(SD_MAJOR, "sd"), SD_MAJOR);
	dd = add_td_disk(0, dead, true);	/* its scan still gets answers */
	dead->td_async = true;			/* holds the flush forever */
	blk_queue_rq_timed_out(dead->td_q, keep_waiting);
	blk_queue_rq_timeout(dead->td_q, 500);
	dk = add_td_disk(1, ok, true);
	bound = 500 * (dead->td_q->q_max_retries + 1) + 1000;
	t0 = ktime_ms();
	CHECK_EQ(disk_flush_caches(), -ETIMEDOUT);
	ms = ktime_ms() - t0;
	CHECK(ms >= bound && ms <= bound + 10);
	CHECK_EQ(dead->td_nheld, 1);		/* it reached the disk, which kept it */
	CHECK_EQ(ok->td_flushes, 1);		/* the next disk was flushed all the same */
	drop(dd, dead);				/* ends the held flush: its bio goes */
	drop(dk, ok);
	CHECK_EQ(unregister_blkdev(SD_MAJOR, "sd"), 0);
}

static const struct unit_case cases[] = {
	{ "only_disks_with_a_cache", test_only_disks_with_a_cache },
	{ "dead_disk_is_bounded", test_dead_disk_is_bounded },
};
UNIT_MAIN("genhd_flush", cases)
