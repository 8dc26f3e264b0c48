/*
 * Controls of bdev_fake.c: a stand-in for the registry's block_device,
 * enough for submit_bio(): a queue, a partition window, a read-only flag.
 */
#ifndef TESTS_UNIT_FAKES_BDEV_FAKE_H
#define TESTS_UNIT_FAKES_BDEV_FAKE_H

#include "kernel/types.h"

struct request_queue;

struct block_device {
	struct request_queue	*bd_queue;
	sector_t		bd_start;	/* first disk sector of the window */
	sector_t		bd_nr_sectors;
	bool			bd_read_only;
};

#endif
