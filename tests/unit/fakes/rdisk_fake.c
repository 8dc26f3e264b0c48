/*
 * A RAM- or file-backed make_request disk for host tests; see
 * rdisk_fake.h.  Bios are served synchronously from the make_request
 * function, with kmap_atomic over each segment as a PIO driver would.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "block/blkdev.h"
#include "block/genhd.h"
#include "kernel/errno.h"
#include "kernel/mm/highmem.h"
#include "tests/unit/fakes/rdisk_fake.h"

static int rdisk_copy(struct rdisk *rd, u64 pos, u8 *p, u32 len, bool write)
{
	if (rd->rd_data) {
		if (write)
			memcpy(rd->rd_data + pos, p, len);
		else
			memcpy(p, rd->rd_data + pos, len);
		return 0;
	}
	if (write)
		return pwrite(rd->rd_fd, p, len, (off_t)pos) == (ssize_t)len ? 0 : -EIO;
	return pread(rd->rd_fd, p, len, (off_t)pos) == (ssize_t)len ? 0 : -EIO;
}

static void rdisk_make_request(struct request_queue *q, struct bio *bio)
{
	struct rdisk *rd = q->q_queuedata;
	u64 pos = bio->bi_iter.bi_sector << SECTOR_SHIFT;
	struct bvec_iter it;
	struct bio_vec bv;
	int err = 0;
	u8 *p;

	rd->rd_bios++;
	if (rd->rd_fail || pos + bio->bi_iter.bi_size > rd->rd_bytes) {
		bio_endio(bio, -EIO);
		return;
	}
	bio_for_each_segment(bv, bio, it) {
		p = kmap_atomic(bv.bv_page);
		err = rdisk_copy(rd, pos, p + bv.bv_offset, bv.bv_len, bio_is_write(bio));
		kunmap_atomic(p);
		if (err)
			break;
		pos += bv.bv_len;
	}
	bio_endio(bio, err);
}

static struct rdisk *rdisk_new(const char *name, u64 bytes, u32 lbs)
{
	struct rdisk *rd = calloc(1, sizeof(*rd));

	KASSERT(rd && bio_init_pools() == 0);
	rd->rd_fd = -1;
	rd->rd_bytes = bytes;
	rd->rd_q = blk_alloc_queue(name);
	KASSERT(rd->rd_q);
	blk_queue_make_request(rd->rd_q, rdisk_make_request);
	blk_queue_logical_block_size(rd->rd_q, lbs);
	rd->rd_q->q_queuedata = rd;
	rd->rd_q->q_nr_sectors = bytes >> SECTOR_SHIFT;
	return rd;
}

struct rdisk *rdisk_create(const char *name, u64 bytes, u32 lbs)
{
	struct rdisk *rd = rdisk_new(name, bytes, lbs);

	rd->rd_data = calloc(1, bytes);
	KASSERT(rd->rd_data);
	return rd;
}

struct rdisk *rdisk_create_file(const char *name, int fd, u64 bytes, u32 lbs)
{
	struct rdisk *rd = rdisk_new(name, bytes, lbs);

	rd->rd_fd = fd;
	return rd;
}

void rdisk_attach(struct rdisk *rd, struct gendisk *disk)
{
	disk->gd_queue = rd->rd_q;
	disk->gd_logical_block_size = rd->rd_q->q_limits.lim_logical_block_size;
	set_capacity(disk, rd->rd_bytes >> SECTOR_SHIFT);
}

void rdisk_destroy(struct rdisk *rd)
{
	if (!rd)
		return;
	blk_cleanup_queue(rd->rd_q);
	free(rd->rd_data);
	free(rd);
}
