/*
 * Host tests of the buffer cache (fs/buffer.c, buffer_io.c,
 * buffer_writeback.c) and of direct I/O (fs/direct_io.c), over a fake
 * block layer: a RAM disk behind submit_bio() that holds each bio until
 * the idle loop runs (the stand-in for the interrupt), and can fail reads,
 * writes or the building of a bio.
 *
 * The error cases pin down what a filesystem sees: a device error is
 * -EIO, a bio the cache could not build is -ENOMEM (nothing was sent; a
 * write stays dirty and goes out at the next sync).
 */
#include "tests/unit/unit.h"
#include "tests/unit/fakes/fakes.h"
#include "tests/unit/fakes/sched_fake.h"
#include "fs/buffer.h"
#include "fs/direct_io.h"
#include "fs/buffer_priv.h"
#include "block/bdev.h"
#include "block/bio.h"
#include "block/blkdev.h"
#include "block/blkdev_io.h"
#include "kernel/errno.h"
#include "kernel/mm/page.h"

#define DISK_BYTES	(1024 * 1024)	/* four of the cache's regions */
#define BS		1024
#define MAX_HELD	64

static struct {
	u8		data[DISK_BYTES];
	struct bio	*held[MAX_HELD];
	unsigned	nheld;
	unsigned	bios, reads, writes, flushes, direct;
	bool		fail_bio_alloc;		/* bio_alloc returns NULL */
	bool		fail_reads, fail_writes;	/* the device ends I/O with -EIO */
} disk;

static struct block_device dev = { .bd_name = "tst0" };

/* --- the fake block layer ------------------------------------------------ */

struct page *virt_to_page(const void *vaddr)
{
	return (struct page *)vaddr;	/* the "page" is the address itself */
}

bool virt_addr_valid(const void *vaddr) { return vaddr != NULL; }

void *get_free_pages(gfp_t gfp, unsigned order) { return calloc(1, PAGE_SIZE << order); }
void free_pages(void *addr, unsigned order) { free(addr); }

struct bio *bio_alloc(gfp_t gfp, unsigned nr_vecs)
{
	struct bio *bio;

	if (disk.fail_bio_alloc)
		return NULL;
	bio = calloc(1, sizeof(*bio) + nr_vecs * sizeof(struct bio_vec));
	bio->bi_io_vec = bio->bi_inline_vecs;
	bio->bi_max_vecs = (u16)nr_vecs;
	bio->bi_cnt = 1;
	return bio;
}

void bio_put(struct bio *bio)
{
	if (bio && --bio->bi_cnt == 0)
		free(bio);
}

int bio_add_page(struct bio *bio, struct page *page, u32 len, u32 offset)
{
	struct bio_vec *v;

	if (bio->bi_vcnt == bio->bi_max_vecs)
		return -ENOSPC;
	v = &bio->bi_io_vec[bio->bi_vcnt++];
	v->bv_page = page;
	v->bv_len = len;
	v->bv_offset = offset;
	bio->bi_iter.bi_size += len;
	return 0;
}

/* Move a bio's data now; it ends when the idle loop runs. */
void submit_bio(struct bio *bio)
{
	u64 pos = bio->bi_iter.bi_sector << SECTOR_SHIFT;
	bool write = bio_is_write(bio);
	u16 i;

	KASSERT(pos + bio->bi_iter.bi_size <= DISK_BYTES);
	KASSERT(disk.nheld < MAX_HELD);
	for (i = 0; i < bio->bi_vcnt; i++) {
		struct bio_vec *v = &bio->bi_io_vec[i];
		u8 *mem = (u8 *)v->bv_page;	/* see virt_to_page */

		if (write && !disk.fail_writes)
			memcpy(disk.data + pos, mem, v->bv_len);
		else if (!write && !disk.fail_reads)
			memcpy(mem, disk.data + pos, v->bv_len);
		pos += v->bv_len;
	}
	bio->bi_error = (write ? disk.fail_writes : disk.fail_reads) ? -EIO : 0;
	disk.bios++;
	if (write)
		disk.writes++;
	else
		disk.reads++;
	disk.held[disk.nheld++] = bio;
}

/* The "interrupt": end every bio submitted so far. */
static void end_held(void)
{
	while (disk.nheld) {
		struct bio *bio = disk.held[--disk.nheld];

		bio->bi_end_io(bio, bio->bi_error);
	}
}

void blk_unplug(struct request_queue *q) { }
struct request_queue *bdev_get_queue(struct block_device *bdev) { return NULL; }
bool bdev_read_only(const struct block_device *bdev) { return false; }
u64 blkdev_size(struct block_device *bdev) { return DISK_BYTES; }

int blkdev_flush(struct block_device *bdev)
{
	disk.flushes++;
	return 0;
}

long blkdev_pread(struct block_device *bdev, void *buf, size_t len, u64 off)
{
	if (disk.fail_reads)
		return -EIO;
	memcpy(buf, disk.data + off, len);
	disk.direct++;
	return (long)len;
}

long blkdev_pwrite(struct block_device *bdev, const void *buf, size_t len, u64 off)
{
	if (disk.fail_writes)
		return -EIO;
	memcpy(disk.data + off, buf, len);
	disk.direct++;
	return (long)len;
}

/* --- helpers ------------------------------------------------------------- */

/* A fresh disk whose block b holds the byte (u8)b, and an empty cache. */
static void setup(void)
{
	u32 b;

	host_idle_hook = end_held;
	host_slab_fail_after = -1;
	disk.fail_bio_alloc = disk.fail_reads = disk.fail_writes = false;
	CHECK_EQ(sync_blockdev(&dev), 0);	/* what the last case left */
	CHECK_EQ(invalidate_bdev(&dev), 0);
	memset(&disk, 0, sizeof(disk));
	for (b = 0; b < DISK_BYTES / BS; b++)
		memset(disk.data + b * BS, (u8)b, BS);
}

/* --- cases --------------------------------------------------------------- */

static void test_bread_reads_and_caches(void)
{
	struct buffer_head *bh;
	unsigned reads;

	setup();
	bh = bread(&dev, 7, BS);
	CHECK(!IS_ERR(bh));
	if (IS_ERR(bh))
		return;
	CHECK(buffer_uptodate(bh));
	CHECK(!buffer_locked(bh));
	CHECK_EQ(bh->b_data[0], 7);
	CHECK_EQ(bh->b_data[BS - 1], 7);
	brelse(bh);
	reads = disk.reads;
	bh = bread(&dev, 7, BS);	/* a hit: no I/O */
	CHECK(!IS_ERR(bh));
	CHECK_EQ(disk.reads, reads);
	brelse(bh);
	CHECK(IS_ERR(bread(&dev, DISK_BYTES / BS, BS)));	/* past the end */
	CHECK_EQ(PTR_ERR(bread(&dev, DISK_BYTES / BS, BS)), -ENXIO);
}

static void test_read_device_error_is_eio(void)
{
	struct buffer_head *bh;

	setup();
	disk.fail_reads = true;
	bh = bread(&dev, 3, BS);
	CHECK(IS_ERR(bh));
	CHECK_EQ(PTR_ERR(bh), -EIO);
}

/* The defect: the failure path said "report it as EIO" and set -ENOMEM,
 * and the callers folded it into -EIO.  Out of memory is -ENOMEM. */
static void test_read_bio_alloc_failure_is_enomem(void)
{
	struct buffer_head *bh;

	setup();
	disk.fail_bio_alloc = true;
	bh = bread(&dev, 5, BS);
	CHECK(IS_ERR(bh));
	CHECK_EQ(PTR_ERR(bh), -ENOMEM);
	CHECK_EQ(disk.bios, 0);
	disk.fail_bio_alloc = false;
	bh = bread(&dev, 5, BS);	/* memory is back: the read goes out */
	CHECK(!IS_ERR(bh));
	if (!IS_ERR(bh)) {
		CHECK_EQ(bh->b_data[0], 5);
		brelse(bh);
	}
}

static void test_read_io_alloc_failure_is_enomem(void)
{
	struct buffer_head *bh;

	setup();
	host_slab_fail_after = 2;	/* the buffer_head and its data, then not the I/O */
	bh = bread(&dev, 9, BS);
	host_slab_fail_after = -1;
	CHECK(IS_ERR(bh));
	CHECK_EQ(PTR_ERR(bh), -ENOMEM);
}

static void test_sync_dirty_buffer_enomem_keeps_dirty(void)
{
	struct buffer_head *bh;

	setup();
	bh = bread(&dev, 4, BS);
	CHECK(!IS_ERR(bh));
	if (IS_ERR(bh))
		return;
	memset(bh->b_data, 0xaa, BS);
	mark_buffer_dirty(bh);
	disk.fail_bio_alloc = true;
	CHECK_EQ(sync_dirty_buffer(bh), -ENOMEM);
	CHECK(buffer_dirty(bh));
	CHECK_EQ(disk.data[4 * BS], 4);
	disk.fail_bio_alloc = false;
	CHECK_EQ(sync_dirty_buffer(bh), 0);
	CHECK(!buffer_dirty(bh));
	CHECK_EQ(disk.data[4 * BS], 0xaa);
	brelse(bh);
}

static void test_sync_blockdev_write_error_is_eio(void)
{
	struct buffer_head *bh;

	setup();
	bh = getblk(&dev, 10, BS);
	CHECK(!IS_ERR(bh));
	if (IS_ERR(bh))
		return;
	memset(bh->b_data, 0x55, BS);
	mark_buffer_dirty(bh);
	brelse(bh);
	disk.fail_writes = true;
	CHECK_EQ(sync_blockdev(&dev), -EIO);
	disk.fail_writes = false;
	CHECK_EQ(sync_blockdev(&dev), 0);	/* still dirty: written now */
	CHECK_EQ(disk.data[10 * BS], 0x55);
}

/* Consecutive dirty blocks leave as one bio, in block order, then a flush. */
static void test_writeback_merges_runs(void)
{
	struct buffer_head *bh;
	u32 b;

	setup();
	for (b = 20; b < 28; b++) {
		bh = getblk(&dev, b, BS);
		CHECK(!IS_ERR(bh));
		if (IS_ERR(bh))
			return;
		memset(bh->b_data, 0x80 + (int)b, BS);
		mark_buffer_dirty(bh);
		brelse(bh);
	}
	disk.bios = disk.writes = 0;
	CHECK_EQ(sync_blockdev(&dev), 0);
	CHECK_EQ(disk.writes, 1);
	CHECK_EQ(disk.flushes, 1);
	for (b = 20; b < 28; b++)
		CHECK_EQ(disk.data[b * BS + 1], 0x80 + b);
}

/* A dirty cached block is read through its buffer, not from the disk. */
static void test_direct_read_sees_dirty_buffer(void)
{
	static u8 buf[4 * BS];
	struct buffer_head *bh;

	setup();
	bh = bread(&dev, 41, BS);
	CHECK(!IS_ERR(bh));
	if (IS_ERR(bh))
		return;
	memset(bh->b_data, 0xee, BS);
	mark_buffer_dirty(bh);
	brelse(bh);
	CHECK_EQ(direct_rw_blocks(&dev, 40, 4, BS, buf, false), 0);
	CHECK_EQ(buf[0], 40);
	CHECK_EQ(buf[BS], 0xee);
	CHECK_EQ(buf[2 * BS], 42);
	CHECK_EQ(buf[3 * BS], 43);
	CHECK_EQ(disk.direct, 2);	/* block 40, then 42..43 */
}

/* A direct write into a cached block lands in its buffer (dirty). */
static void test_direct_write_updates_buffer(void)
{
	static u8 buf[3 * BS];
	struct buffer_head *bh;

	setup();
	bh = bread(&dev, 61, BS);
	CHECK(!IS_ERR(bh));
	if (IS_ERR(bh))
		return;
	brelse(bh);
	memset(buf, 0x33, sizeof(buf));
	CHECK_EQ(direct_rw_blocks(&dev, 60, 3, BS, buf, true), 0);
	CHECK_EQ(disk.data[60 * BS], 0x33);
	CHECK_EQ(disk.data[62 * BS], 0x33);
	CHECK_EQ(disk.data[61 * BS], 61);	/* not yet: it is in the buffer */
	bh = bread(&dev, 61, BS);
	CHECK(!IS_ERR(bh));
	if (IS_ERR(bh))
		return;
	CHECK(buffer_dirty(bh));
	CHECK_EQ(bh->b_data[0], 0x33);
	brelse(bh);
	CHECK_EQ(sync_blockdev(&dev), 0);
	CHECK_EQ(disk.data[61 * BS], 0x33);
	CHECK_EQ(direct_rw_blocks(&dev, DISK_BYTES / BS - 1, 2, BS, buf, true), -ENXIO);
}

/*
 * A direct read across regions: one device call where nothing is cached,
 * a cached block in the middle of the run still seen (and only it looked
 * up one by one), one call again once the cache has forgotten it.
 */
static void test_direct_skips_uncached_regions(void)
{
	static u8 buf[DISK_BYTES] __aligned(BS);	/* else it goes through a bounce */
	struct buffer_head *bh;

	setup();
	CHECK_EQ(direct_rw_blocks(&dev, 0, DISK_BYTES / BS, BS, buf, false), 0);
	CHECK_EQ(disk.direct, 1);
	CHECK_EQ(buf[700 * BS], (u8)700);
	CHECK_EQ(buffer_uncached_span(&dev, 0, DISK_BYTES / BS, BS), DISK_BYTES / BS);
	bh = getblk(&dev, 700, BS);
	CHECK(!IS_ERR(bh));
	if (IS_ERR(bh))
		return;
	memset(bh->b_data, 0x5a, BS);
	set_buffer_uptodate(bh);
	mark_buffer_dirty(bh);
	brelse(bh);
	/* block 700 is in the third 256 KiB region: the first two are clear */
	CHECK_EQ(buffer_uncached_span(&dev, 0, DISK_BYTES / BS, BS), 512);
	CHECK_EQ(buffer_uncached_span(&dev, 600, 10, BS), 0);
	CHECK_EQ(buffer_uncached_span(&dev, 768, 256, BS), 256);
	disk.direct = 0;
	CHECK_EQ(direct_rw_blocks(&dev, 0, DISK_BYTES / BS, BS, buf, false), 0);
	CHECK_EQ(disk.direct, 2);	/* 0..699, then 701..1023 */
	CHECK_EQ(buf[699 * BS], (u8)699);
	CHECK_EQ(buf[700 * BS], 0x5a);
	CHECK_EQ(buf[701 * BS], (u8)701);
	CHECK_EQ(sync_blockdev(&dev), 0);
	CHECK_EQ(invalidate_bdev(&dev), 0);
	CHECK_EQ(buffer_uncached_span(&dev, 0, DISK_BYTES / BS, BS), DISK_BYTES / BS);
	disk.direct = 0;
	CHECK_EQ(direct_rw_blocks(&dev, 0, DISK_BYTES / BS, BS, buf, false), 0);
	CHECK_EQ(disk.direct, 1);
	CHECK_EQ(buf[700 * BS], 0x5a);	/* written back */
}

static void test_invalidate_reports_lost_and_busy(void)
{
	struct buffer_head *bh, *held;

	setup();
	bh = getblk(&dev, 70, BS);
	CHECK(!IS_ERR(bh));
	if (IS_ERR(bh))
		return;
	mark_buffer_dirty(bh);
	brelse(bh);
	CHECK_EQ(invalidate_bdev(&dev), -EIO);	/* a dirty block dropped */
	held = bread(&dev, 71, BS);
	CHECK(!IS_ERR(held));
	if (IS_ERR(held))
		return;
	CHECK_EQ(invalidate_bdev(&dev), -EBUSY);
	brelse(held);
	CHECK_EQ(invalidate_bdev(&dev), 0);
}

static const struct unit_case cases[] = {
	{ "bread_reads_and_caches", test_bread_reads_and_caches },
	{ "read_device_error_is_eio", test_read_device_error_is_eio },
	{ "read_bio_alloc_failure_is_enomem", test_read_bio_alloc_failure_is_enomem },
	{ "read_io_alloc_failure_is_enomem", test_read_io_alloc_failure_is_enomem },
	{ "sync_dirty_buffer_enomem_keeps_dirty", test_sync_dirty_buffer_enomem_keeps_dirty },
	{ "sync_blockdev_write_error_is_eio", test_sync_blockdev_write_error_is_eio },
	{ "writeback_merges_runs", test_writeback_merges_runs },
	{ "direct_read_sees_dirty_buffer", test_direct_read_sees_dirty_buffer },
	{ "direct_write_updates_buffer", test_direct_write_updates_buffer },
	{ "direct_skips_uncached_regions", test_direct_skips_uncached_regions },
	{ "invalidate_reports_lost_and_busy", test_invalidate_reports_lost_and_busy },
};

UNIT_MAIN("fs_buffer", cases)
