/*
 * Controls of rdisk_fake.c: a make_request disk for host tests of the
 * registry, the partition scan and the shell commands, so that they read
 * through the real block core (blkdev_pread -> submit_bio -> the queue)
 * as the kernel does.  Its store is a RAM image or an image file; it
 * serves each bio at once, from inside submit_bio().
 * Link it with $(UNIT_BLOCK_CORE) and block/blkdev_io.c.
 */
#ifndef TESTS_UNIT_FAKES_RDISK_FAKE_H
#define TESTS_UNIT_FAKES_RDISK_FAKE_H

#include "kernel/types.h"

struct gendisk;
struct request_queue;

struct rdisk {
	struct request_queue	*rd_q;
	u8			*rd_data;	/* the RAM image (zeroed), or NULL */
	int			rd_fd;		/* the image file, or -1 */
	u64			rd_bytes;
	bool			rd_fail;	/* every bio ends with -EIO */
	u32			rd_bios;	/* bios served, failed ones too */
};

/* A zeroed RAM disk of bytes with logical blocks of lbs (512 or 4096). */
struct rdisk *rdisk_create(const char *name, u64 bytes, u32 lbs);
/* A disk over the open image file fd, of bytes. */
struct rdisk *rdisk_create_file(const char *name, int fd, u64 bytes, u32 lbs);
/* Give disk rd's queue, block size and capacity (before add_disk). */
void rdisk_attach(struct rdisk *rd, struct gendisk *disk);
/* Free rd and its queue, after the disk using it is gone. */
void rdisk_destroy(struct rdisk *rd);

#endif
