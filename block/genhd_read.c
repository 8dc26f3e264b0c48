/*
 * The registry's way to the disk: one logical block, read synchronously
 * through the disk's request queue as a bio, like any other I/O.  Used by
 * the partition scan (block/genhd.c) when the driver did not supply its
 * own gd_read_block.  The bounce page is lowmem, so the caller's buffer
 * may be anywhere.
 */
#include "block/genhd.h"
#include "block/bio.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/mm/page.h"
#include "lib/string.h"

int blk_read_disk_block(struct gendisk *disk, u64 lba, void *buf)
{
	u32 lbs = disk->gd_logical_block_size ? disk->gd_logical_block_size : SECTOR_SIZE;
	struct page *page;
	struct bio *bio;
	int err;

	if (!disk->gd_queue || lbs > PAGE_SIZE)
		return -EIO;
	page = alloc_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	bio = bio_alloc(GFP_NOIO, 1);	/* GFP_NOIO: never NULL (bio.h) */
	bio->bi_queue = disk->gd_queue;
	bio->bi_iter.bi_sector = lba * (lbs >> SECTOR_SHIFT);
	if (bio_add_page(bio, page, lbs, 0)) {
		err = -EIO;
		goto put_bio;
	}
	err = submit_bio_wait(bio);
	if (!err)
		memcpy(buf, page_address(page), lbs);
put_bio:
	bio_put(bio);
	__free_page(page);
	return err;
}

/* The bio pools must exist before the first disk is added (idempotent). */
static int block_pools_init(void)
{
	return bio_init_pools();
}
subsys_initcall(block_pools_init);
