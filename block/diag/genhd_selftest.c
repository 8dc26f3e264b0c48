/*
 * In-kernel self-tests of the gendisk registry (selftest=block/genhd/ramdisk):
 * a small RAM disk with a dos table (two primaries, one of them extended
 * around a logical partition) added under a dynamic major, then the same
 * checks the host tests make, on the real kernel services: names,
 * PARTUUID lookup, the writable= default, claims, remap bounds, removal.
 */
#include "block/bdev.h"
#include "block/blkdev.h"
#include "block/partitions/msdos.h"
#include "kernel/errno.h"
#include "kernel/mm/highmem.h"
#include "kernel/mm/slab.h"
#include "kernel/selftest.h"
#include "lib/string.h"

#define ST_BLOCKS	128	/* 64 KiB of 512-byte blocks */

/* The RAM disk's make_request: serve reads of img (q_queuedata) at once. */
static void st_make_request(struct request_queue *q, struct bio *bio)
{
	u64 pos = bio->bi_iter.bi_sector << SECTOR_SHIFT;
	struct bvec_iter it;
	struct bio_vec bv;
	u8 *p;

	if (bio_is_write(bio) || bio_end_sector(bio) > ST_BLOCKS) {
		bio_endio(bio, -EIO);
		return;
	}
	bio_for_each_segment(bv, bio, it) {
		p = kmap_atomic(bv.bv_page);
		memcpy(p + bv.bv_offset, (u8 *)q->q_queuedata + pos, bv.bv_len);
		kunmap_atomic(p);
		pos += bv.bv_len;
	}
	bio_endio(bio, 0);
}

static void st_mbr_set(u8 *img, u64 lba, int slot, u8 type, u32 start, u32 size)
{
	struct mbr_part p;

	memset(&p, 0, sizeof(p));
	p.mp_sys_ind = type;
	put_le32(&p.mp_start_lba, start);
	put_le32(&p.mp_nr_blocks, size);
	memcpy(img + lba * SECTOR_SIZE + offsetof(struct mbr, mbr_part) + slot * sizeof(p), &p,
	       sizeof(p));
	put_le16(img + lba * SECTOR_SIZE + offsetof(struct mbr, mbr_signature), MBR_SIGNATURE);
}

/* The checks proper, on an added disk "stram0" with partitions p1, p2, p5. */
static int st_check(struct gendisk *disk)
{
	struct block_device *p1 = NULL, *p5 = NULL, *whole = NULL;
	int holder, ret = -1;
	sector_t s;

	p1 = bdev_lookup("stram0p1");
	p5 = bdev_lookup("PARTUUID=5e1f7e57-05");
	whole = bdev_lookup("stram0");
	if (!p1 || !p5 || !whole) {
		ret = st_fail("lookup: p1 %p p5 %p disk %p", p1, p5, whole);
		goto put;
	}
	if (p5->bd_start != 36 || bdev_nr_sects(p5) != 8 || bdev_nr_sects(whole) != ST_BLOCKS) {
		ret = st_fail("p5 at %llu+%llu", (unsigned long long)p5->bd_start,
			      (unsigned long long)bdev_nr_sects(p5));
		goto put;
	}
	/* not named in writable=: read-only, refused before any driver */
	s = 0;
	if (bdev_remap(p1, &s, 1, true) != -EROFS ||
	    bdev_open(whole, FMODE_WRITE, NULL) != -EROFS) {
		ret = st_fail("a write to a disk not in writable= was not refused");
		goto put;
	}
	s = 15;
	if (bdev_remap(p1, &s, 1, false) != 0 || s != 8 + 15) {
		ret = st_fail("remap of p1 sector 15 gave %llu", (unsigned long long)s);
		goto put;
	}
	s = 15;
	if (bdev_remap(p1, &s, 2, false) != -EIO || s != 15) {
		ret = st_fail("I/O past the end of p1 was not refused");
		goto put;
	}
	if (bdev_open(p1, FMODE_READ | FMODE_EXCL, &holder) != 0) {
		ret = st_fail("claim of p1 failed");
		goto put;
	}
	ret = disk_rescan(disk) == -EBUSY ? 0 : st_fail("rescan with an open partition");
	bdev_close(p1, FMODE_READ | FMODE_EXCL, &holder);
put:
	bdev_put(p1);
	bdev_put(p5);
	bdev_put(whole);
	return ret;
}

static int st_genhd_ramdisk(void)
{
	const char *saved_policy = genhd_writable_get();
	struct request_queue *q;
	struct gendisk *disk;
	struct block_device *b;
	u8 *img;
	int major, ret;

	major = register_blkdev(0, "stram");
	if (major < 0)
		return st_fail("register_blkdev: %d", major);
	/* The checks expect the default policy, whatever writable= the kernel got. */
	genhd_writable_set(NULL);
	img = kzalloc(ST_BLOCKS * SECTOR_SIZE, GFP_KERNEL);
	disk = alloc_disk(16);
	q = blk_alloc_queue("stram0");
	if (!img || !disk || !q) {
		ret = st_fail("out of memory");
		goto free;
	}
	put_le32(img + offsetof(struct mbr, mbr_disk_sig), 0x5E1F7E57);
	st_mbr_set(img, 0, 0, 0x83, 8, 16);
	st_mbr_set(img, 0, 1, MBR_TYPE_EXTENDED, 32, 64);
	st_mbr_set(img, 32, 0, 0x83, 4, 8);
	str_copy(disk->gd_name, "stram0", sizeof(disk->gd_name));
	disk->gd_major = major;
	blk_queue_make_request(q, st_make_request);
	q->q_queuedata = img;
	disk->gd_queue = q;
	set_capacity(disk, ST_BLOCKS);
	ret = add_disk(disk);
	if (ret) {
		ret = st_fail("add_disk: %d", ret);
		goto free;
	}
	ret = st_check(disk);
	del_gendisk(disk);
	b = bdev_lookup("stram0p1");
	if (b) {
		bdev_put(b);
		ret = st_fail("stram0p1 still there after del_gendisk");
	}
free:
	put_disk(disk);
	if (q)
		blk_cleanup_queue(q);
	kfree(img);
	genhd_writable_set(saved_policy);
	unregister_blkdev((unsigned int)major, "stram");
	return ret;
}
SELFTEST("block/genhd/ramdisk", st_genhd_ramdisk);
