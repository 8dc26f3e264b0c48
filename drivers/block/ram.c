/*
 * ram: a RAM disk driven by the simplest request_fn loop, the seed's
 * "simple request loop for straightforward devices": fetch a request,
 * copy its data, end it, repeat.  The store is an array of pages taken
 * at boot from any zone, highmem included, so every transfer goes through
 * kmap_atomic as a real driver's PIO path would.
 *
 * Parameters: ram.count (disks, default 1), ram.size (bytes each, default
 * 16M), ram.bounce (a bounce limit to impose, e.g. 4G; default none).
 * Disks are ram0, ram1, ...; ramdisk_create() makes more for self-tests.
 */
#include "drivers/block/ramvar.h"
#include "block/blkdev.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/param.h"
#include "kernel/printk.h"
#include "kernel/mm/highmem.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

static unsigned ram_count;	/* none unless asked: they take memory */
static u64 ram_size = 16 * MiB;
static u64 ram_bounce;
PARAM_UINT("ram.count", ram_count, "number of RAM disks (request_fn style)");
PARAM_SIZE("ram.size", ram_size, "size of each RAM disk, bytes (K/M/G)");
PARAM_SIZE("ram.bounce", ram_bounce, "bounce limit to impose on RAM disks (0: none)");

#define RAM_MAX_RANGE_SECTORS	8192u	/* 4 MiB per DISCARD/WRITE ZEROES: bounds the
					 * time the queue lock is held zeroing */

/* Copy len bytes between the store at byte pos and a piece of a bio. */
static void ram_copy(struct ramdisk *rd, u64 pos, struct page *page, u32 off, u32 len, bool write)
{
	u32 n, so;
	struct page *sp;

	while (len) {
		sp = rd->rd_pages[pos >> PAGE_SHIFT];
		so = (u32)(pos & (PAGE_SIZE - 1));
		n = min(len, (u32)PAGE_SIZE - so);
		if (write)
			copy_page_range(sp, so, page, off, n);
		else
			copy_page_range(page, off, sp, so, n);
		pos += n;
		off += n;
		len -= n;
	}
}

/* Zero len bytes of the store at byte pos: DISCARD and WRITE ZEROES alike. */
static void ram_zero(struct ramdisk *rd, u64 pos, u32 len)
{
	u32 n, so;

	while (len) {
		so = (u32)(pos & (PAGE_SIZE - 1));
		n = min(len, (u32)PAGE_SIZE - so);
		zero_page_range(rd->rd_pages[pos >> PAGE_SHIFT], so, n);
		pos += n;
		len -= n;
	}
}

/* Move one request's data; 0 or -EIO past the end. */
static int ram_do_request(struct ramdisk *rd, struct request *rq)
{
	u64 pos = blk_rq_pos(rq) << SECTOR_SHIFT;
	struct req_iterator it;
	struct bio_vec bv;

	if (blk_rq_is_flush(rq))
		return 0;	/* nothing volatile to flush */
	if (blk_rq_pos(rq) + blk_rq_sectors(rq) > rd->rd_nr_sectors)
		return -EIO;
	if (rq->rq_cmd_flags & REQ_NODATA) {	/* a range, no pages */
		ram_zero(rd, pos, blk_rq_bytes(rq));
		return 0;
	}
	rq_for_each_segment(bv, rq, it) {
		ram_copy(rd, pos, bv.bv_page, bv.bv_offset, bv.bv_len, rq_is_write(rq));
		pos += bv.bv_len;
	}
	return 0;
}

/* The request loop; queue lock held. */
static void ram_request_fn(struct request_queue *q)
{
	struct ramdisk *rd = q->q_queuedata;
	struct request *rq;

	while ((rq = blk_fetch_request(q)))
		__blk_end_request_all(rq, ram_do_request(rd, rq));
}

/**
 * ramdisk_create - a RAM disk of bytes (rounded down to pages).
 * Return: the disk, or NULL when memory ran out (already reported).
 */
struct ramdisk *ramdisk_create(const char *name, u64 bytes)
{
	struct ramdisk *rd = kzalloc(sizeof(*rd), GFP_KERNEL);
	u64 i;

	if (!rd)
		goto fail;
	spin_lock_init(&rd->rd_lock, "ram");
	rd->rd_nr_pages = bytes >> PAGE_SHIFT;
	rd->rd_nr_sectors = rd->rd_nr_pages << (PAGE_SHIFT - SECTOR_SHIFT);
	rd->rd_pages = kcalloc(rd->rd_nr_pages, sizeof(struct page *), GFP_KERNEL);
	if (!rd->rd_pages)
		goto free_rd;
	for (i = 0; i < rd->rd_nr_pages; i++) {
		rd->rd_pages[i] = alloc_page(GFP_HIGHUSER | __GFP_ZERO);
		if (!rd->rd_pages[i])
			goto free_pages;
	}
	rd->rd_queue = blk_init_queue(ram_request_fn, &rd->rd_lock, name);
	if (!rd->rd_queue)
		goto free_pages;
	rd->rd_queue->q_queuedata = rd;
	rd->rd_queue->q_nr_sectors = rd->rd_nr_sectors;
	/* A discarded range reads as zeroes, so both are one memset. */
	blk_queue_max_discard_sectors(rd->rd_queue, RAM_MAX_RANGE_SECTORS);
	blk_queue_discard_granularity(rd->rd_queue, PAGE_SIZE, 0);
	blk_queue_max_write_zeroes_sectors(rd->rd_queue, RAM_MAX_RANGE_SECTORS);
	return rd;

free_pages:
	while (i-- > 0)
		__free_page(rd->rd_pages[i]);
	kfree(rd->rd_pages);
free_rd:
	kfree(rd);
fail:
	pr_err("%s: cannot allocate %llu bytes\n", name, (unsigned long long)bytes);
	return NULL;
}

/* Tear down a disk made by ramdisk_create(); its queue must be idle. */
void ramdisk_destroy(struct ramdisk *rd)
{
	u64 i;

	blk_cleanup_queue(rd->rd_queue);
	for (i = 0; i < rd->rd_nr_pages; i++)
		__free_page(rd->rd_pages[i]);
	kfree(rd->rd_pages);
	kfree(rd);
}

static int ram_init(void)
{
	char name[16];
	struct ramdisk *rd;
	unsigned i;

	for (i = 0; i < ram_count; i++) {
		snprintf(name, sizeof(name), "ram%u", i);
		rd = ramdisk_create(name, ram_size);
		if (!rd)
			return -ENOMEM;	/* error already printed */
		if (ram_bounce && blk_queue_bounce_limit(rd->rd_queue, ram_bounce - 1, false))
			return -ENOMEM;
		memdisk_add_disk(rd->rd_queue, name, rd->rd_nr_sectors, true);
	}
	return 0;
}
device_initcall(ram_init);
