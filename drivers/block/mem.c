/*
 * mem: a RAM disk in the make_request style (Linux's brd): bios come
 * straight from the block layer, already split and bounced, and are
 * copied to or from a store of pages allocated on first write, from any
 * zone including highmem.  Reads of never-written sectors give zeros.
 * The store is a two-level table: a directory of leaf tables of
 * MEMDISK_LEAF_PAGES page pointers each, both allocated on demand.
 *
 * Parameters: mem.count (default 1), mem.size (bytes each, default 64M;
 * only what is written takes memory).  Disks are mem0, mem1, ...
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

static unsigned mem_count;	/* none unless asked: they take memory */
static u64 mem_size = 64 * MiB;
PARAM_UINT("mem.count", mem_count, "number of memory disks (make_request style)");
PARAM_SIZE("mem.size", mem_size, "size of each memory disk, bytes (K/M/G)");

/*
 * The store page for page index idx, or NULL; with alloc, allocate it
 * (and its leaf table) when missing.  Disk lock held.
 */
static struct page *mem_lookup(struct memdisk *md, u64 idx, bool alloc)
{
	struct page ***leaf = &md->md_dir[idx / MEMDISK_LEAF_PAGES];
	struct page **slot;

	if (!*leaf) {
		if (!alloc)
			return NULL;
		*leaf = kcalloc(MEMDISK_LEAF_PAGES, sizeof(struct page *), GFP_ATOMIC);
		if (!*leaf)
			return NULL;
	}
	slot = &(*leaf)[idx % MEMDISK_LEAF_PAGES];
	if (!*slot && alloc) {
		*slot = alloc_page(__GFP_HIGHMEM | __GFP_ZERO | __GFP_ATOMIC);
		md->md_pages += *slot != NULL;
	}
	return *slot;
}

/* Copy one piece of a bio; 0 or -ENOMEM when a store page cannot be had. */
static int mem_copy(struct memdisk *md, u64 pos, struct bio_vec *bv, bool write)
{
	u32 off = bv->bv_offset, len = bv->bv_len, n, so;
	struct page *sp;

	while (len) {
		so = (u32)(pos & (PAGE_SIZE - 1));
		n = min(len, (u32)PAGE_SIZE - so);
		sp = mem_lookup(md, pos >> PAGE_SHIFT, write);
		if (write && !sp)
			return -ENOMEM;
		if (write)
			copy_page_range(sp, so, bv->bv_page, off, n);
		else if (sp)
			copy_page_range(bv->bv_page, off, sp, so, n);
		else
			zero_page_range(bv->bv_page, off, n);
		pos += n;
		off += n;
		len -= n;
	}
	return 0;
}

/* Zero len bytes at byte pos: pages never written read as zeroes already. */
static void mem_zero(struct memdisk *md, u64 pos, u32 len)
{
	struct page *sp;
	u32 n, so;

	while (len) {
		so = (u32)(pos & (PAGE_SIZE - 1));
		n = min(len, (u32)PAGE_SIZE - so);
		sp = mem_lookup(md, pos >> PAGE_SHIFT, false);
		if (sp)
			zero_page_range(sp, so, n);
		pos += n;
		len -= n;
	}
}

#define MEM_MAX_RANGE_SECTORS	8192u	/* 4 MiB per range bio: bounds md_lock's hold */

/**
 * memdisk_transfer - do bio's I/O on md's store (bio's sector is absolute).
 * Data is copied, DISCARD and WRITE ZEROES zero their range, a flush has
 * nothing to do (the store is the media).  bio is not ended.
 * Return: 0, -EIO past the end, -ENOMEM when a store page cannot be had.
 */
int memdisk_transfer(struct memdisk *md, struct bio *bio)
{
	u64 pos = bio->bi_iter.bi_sector << SECTOR_SHIFT;
	unsigned long flags;
	struct bvec_iter it;
	struct bio_vec bv;
	int err = 0;

	if (bio_end_sector(bio) > md->md_nr_sectors)
		return -EIO;
	spin_lock_irqsave(&md->md_lock, flags);
	if (bio->bi_rw & REQ_NODATA) {		/* DISCARD or WRITE ZEROES: a range */
		mem_zero(md, pos, bio->bi_iter.bi_size);
		goto unlock;
	}
	bio_for_each_segment(bv, bio, it) {
		err = mem_copy(md, pos, &bv, bio_is_write(bio));
		if (err)
			break;
		pos += bv.bv_len;
	}
unlock:
	spin_unlock_irqrestore(&md->md_lock, flags);
	return err;
}

static void mem_make_request(struct request_queue *q, struct bio *bio)
{
	bio_endio(bio, memdisk_transfer(q->q_queuedata, bio));
}

/**
 * memdisk_store_init - an empty store of bytes (rounded down to pages),
 * pages allocated as they are written.  Return: 0 or -ENOMEM.
 */
int memdisk_store_init(struct memdisk *md, u64 bytes)
{
	u64 pages = bytes >> PAGE_SHIFT;

	spin_lock_init(&md->md_lock, "mem");
	md->md_nr_sectors = pages << (PAGE_SHIFT - SECTOR_SHIFT);
	md->md_nr_leaves = DIV_ROUND_UP(pages, MEMDISK_LEAF_PAGES);
	md->md_pages = 0;
	md->md_dir = kcalloc(md->md_nr_leaves, sizeof(*md->md_dir), GFP_KERNEL);
	return md->md_dir ? 0 : -ENOMEM;
}

/* Free every page of the store; no I/O may be running on it. */
void memdisk_store_free(struct memdisk *md)
{
	u64 l, i;

	for (l = 0; md->md_dir && l < md->md_nr_leaves; l++) {
		if (!md->md_dir[l])
			continue;
		for (i = 0; i < MEMDISK_LEAF_PAGES; i++)
			if (md->md_dir[l][i])
				__free_page(md->md_dir[l][i]);
		kfree(md->md_dir[l]);
	}
	kfree(md->md_dir);
	md->md_dir = NULL;
}

/**
 * memdisk_create - a memory disk of bytes (rounded down to pages).
 * Return: the disk, or NULL (already reported).
 */
struct memdisk *memdisk_create(const char *name, u64 bytes)
{
	struct memdisk *md = kzalloc(sizeof(*md), GFP_KERNEL);

	if (!md)
		goto fail;
	if (memdisk_store_init(md, bytes))
		goto free_md;
	md->md_queue = blk_alloc_queue(name);
	if (!md->md_queue)
		goto free_dir;
	blk_queue_make_request(md->md_queue, mem_make_request);
	md->md_queue->q_queuedata = md;
	md->md_queue->q_nr_sectors = md->md_nr_sectors;
	blk_queue_max_discard_sectors(md->md_queue, MEM_MAX_RANGE_SECTORS);
	blk_queue_discard_granularity(md->md_queue, PAGE_SIZE, 0);
	blk_queue_max_write_zeroes_sectors(md->md_queue, MEM_MAX_RANGE_SECTORS);
	return md;

free_dir:
	memdisk_store_free(md);
free_md:
	kfree(md);
fail:
	pr_err("%s: cannot create a memory disk of %llu bytes\n", name, (unsigned long long)bytes);
	return NULL;
}

void memdisk_destroy(struct memdisk *md)
{
	blk_cleanup_queue(md->md_queue);
	memdisk_store_free(md);
	kfree(md);
}

static int mem_init(void)
{
	struct memdisk *md;
	char name[16];
	unsigned i;

	for (i = 0; i < mem_count; i++) {
		snprintf(name, sizeof(name), "mem%u", i);
		md = memdisk_create(name, mem_size);
		if (!md)
			return -ENOMEM;	/* error already printed */
		memdisk_add_disk(md->md_queue, name, md->md_nr_sectors, true);
	}
	return 0;
}
device_initcall(mem_init);
