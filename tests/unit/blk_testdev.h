/*
 * A RAM-backed test device for the block core's host tests: a request_fn
 * driver over a host buffer that logs every request it is handed, and
 * either ends it at once or holds it until the test (or the idle hook,
 * standing in for interrupts) completes it.  Also helpers to build bios
 * over fake pages and to stamp and check sectors.
 */
#ifndef TESTS_UNIT_BLK_TESTDEV_H
#define TESTS_UNIT_BLK_TESTDEV_H

#include "block/blkdev.h"
#include "block/elevator.h"
#include "block/blk.h"
#include "kernel/time.h"
#include "tests/unit/fakes/page_fake.h"

#define TDEV_LOG	4096
#define TDEV_HELD	256

struct tdev_log {
	sector_t	l_pos;
	u32		l_bytes;
	u32		l_flags;
	int		l_tag;
	bool		l_flush;
};

struct tdev {
	struct request_queue	*td_q;
	u8			*td_data;
	sector_t		td_nr_sectors;
	bool			td_async;	/* hold requests for tdev_complete() */
	bool			td_tags;	/* use blk_queue_start_tag */
	u32			td_chunk;	/* >0: end requests this many bytes at a time */
	sector_t		td_fail_sector;	/* requests covering it fail -EIO */
	u32			td_fail_flushes; /* the next this many flushes fail -EIO */
	int			td_busy_once;	/* requeue + stop this many times */
	u32			td_nlog;
	struct tdev_log		td_log[TDEV_LOG];
	struct request		*td_held[TDEV_HELD];
	u32			td_nheld;
	u32			td_max_held;
	u32			td_flushes;
	u32			td_writes_since_flush;	/* durability model */
};

/* A request_fn device of nr_sectors on elevator elv (NULL: default). */
struct tdev *tdev_create(sector_t nr_sectors, const char *elv);
void tdev_destroy(struct tdev *td);
/* End the requests held now (as an interrupt would; not those they
 * cause to be issued); returns how many. */
u32 tdev_complete(struct tdev *td);
/* End td_held[i] alone, as an interrupt would (the others move up). */
void tdev_complete_one(struct tdev *td, u32 i);
/* Make cpu_idle_once() complete td's held requests. */
void tdev_set_idle(struct tdev *td);

/* A bio of nr 512-byte sectors at sector, over fresh pages of range r,
 * starting at byte offset off in the first page (vectors split at pages). */
struct bio *tbio_alloc(enum host_mem_range r, u32 rw, sector_t sector, u32 nr, u32 off);
/* Free a bio from tbio_alloc and its pages. */
void tbio_free(struct bio *bio);
/* Stamp the bio's memory with the LBA pattern of generation gen (before
 * submission), or check it as if the bio started at sector. */
void tbio_stamp(struct bio *bio, u32 gen);
bool tbio_check(struct bio *bio, sector_t sector, u32 gen);
/* Stamp / check the device's own buffer. */
bool tdev_check(struct tdev *td, sector_t sector, u32 nr, u32 gen);

/* An end_io that counts calls and keeps the error, in *bi_private. */
struct tbio_result {
	int	r_calls;
	int	r_error;
};
void tbio_endio(struct bio *bio, int error);

/*
 * A table of test bios, each with its result, for tests that submit many:
 * tbio_slot() is tbio_alloc() into tbios[i] with tres[i] reset (no calls
 * yet, error 1) and tbio_endio() wired to it; tbio_free_slots() frees
 * the first n.
 */
#define TBIO_SLOTS	256
extern struct bio *tbios[TBIO_SLOTS];
extern struct tbio_result tres[TBIO_SLOTS];
struct bio *tbio_slot(enum host_mem_range r, u32 rw, sector_t sector, u32 nr, u32 off, int i);
void tbio_free_slots(int n);
/* tbio_slot() for a DISCARD or WRITE ZEROES range: nr sectors, no pages. */
struct bio *tbio_range_slot(u32 rw, sector_t sector, u32 nr, int i);

#endif
