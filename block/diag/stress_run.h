/*
 * stress inside the kernel: the phases (block/diag/stress.c) and the
 * shell command that sets them up and reports (block/diag/stress_cmds.c).
 * Private to those two files; the command's header says what stress does.
 *
 * Locking: everything here belongs to the command's loop ([l]); I/O
 * completion touches only the aio slots (block/diag/aio.h).
 */
#ifndef BLOCK_DIAG_STRESS_RUN_H
#define BLOCK_DIAG_STRESS_RUN_H

#include "block/diag/aio.h"
#include "block/diag/bench.h"
#include "kernel/progress.h"

#define STRESS_MAX_SECT		256u	/* sectors per I/O */
#define STRESS_DEF_MAX		128u
#define STRESS_MAX_QD		64u	/* NVMe and virtio queues are deep */
#define STRESS_DEF_QD		16u
#define STRESS_DEF_IOS		1000u
#define STRESS_DEF_SPAN		(16ULL << 20)	/* bytes */
#define STRESS_MAX_DEVS		AIO_MAX_TARGETS
#define STRESS_PAGES		(STRESS_MAX_SECT * SECTOR_SIZE / PAGE_SIZE + 1)
#define STRESS_STALL_MS		120000u	/* no completion for this long: give up */
#define STRESS_HIGH_ORDER	10	/* 4 MiB blocks of RAM above 4 GiB */
#define STRESS_HIGH_BLOCKS	3	/* room for STRESS_MAX_QD slots of STRESS_PAGES */
#define STRESS_CMD_LEN		64

enum stress_op { STRESS_IDLE, STRESS_READ, STRESS_WRITE, STRESS_FLUSH };

enum stress_phase { PH_RANDOM, PH_WRITE, PH_FLUSH, PH_READ, PH_DONE };

struct stress_chunk {
	sector_t	c_lba;		/* device-relative */
	u32		c_nr;
};

/* What one aio slot is doing for its device (the slot holds the buffer). */
struct stress_io {
	sector_t	io_lba;		/* device-relative */
	u32		io_nr;		/* sectors */
	u8		io_op;		/* enum stress_op */
	bool		io_final;	/* stamped with the seed itself */
	bool		io_pooled;	/* pages are the slot's, above 4 GiB */
};

struct stress_dev {
	struct block_device	*d_bdev;
	struct request_queue	*d_q;
	u32			d_index;	/* aio target; slots d_index*qd.. are its */
	sector_t		d_base;		/* disk LBA of device sector 0 */
	sector_t		d_off;		/* the range, device-relative */
	u32			d_sectors;
	u16			*d_gen;		/* generation last written, 0: none */
	struct bench_rng	d_rng;
	struct stress_chunk	*d_chunks;
	u32			d_nchunks;
	u32			d_next;		/* next chunk of the phase */
	u32			d_ios;		/* random I/Os submitted */
	bool			d_flushed;	/* the flush phase's flush is out */
	struct stress_io	d_io[STRESS_MAX_QD];
	struct page		*d_high[STRESS_HIGH_BLOCKS];	/* RAM above 4 GiB, or NULL */
	u64			d_count[4];	/* I/Os done, by enum stress_op */
	u64			d_checked, d_bad, d_eio, d_above4g;
	u32			d_maxtags;
};

struct stress {
	struct stress_dev	*s_dev[STRESS_MAX_DEVS];
	u32			s_ndev;
	u32			s_qd;
	u64			s_seed;
	u64			s_off, s_span;	/* bytes */
	u32			s_max;		/* sectors per I/O */
	u32			s_ios;
	u64			s_secs_ms;	/* 0: count ios instead */
	bool			s_write, s_read, s_high;
	u32			s_cpus;		/* cpus=: the range split over this many */
	u32			s_at;		/* run s_during after this many submissions */
	char			s_during[STRESS_CMD_LEN];
	u32			s_submitted;
	u64			s_deadline_ms;	/* end of the random phase with secs= */
	enum stress_phase	s_phase;	/* the phase aio_run() is in */
	struct aio_ctx		s_aio;		/* s_ndev * s_qd slots */
	struct progress		s_pg;
	const struct progress	*s_pg_leader;	/* a share of cpus=: the command's progress */
};

/* d's generations, plan and blocks above 4 GiB, once d_off/d_sectors are set. */
int stress_dev_init(struct stress *st, struct stress_dev *d);
void stress_dev_free(struct stress_dev *d);
/*
 * The phases op= and ios= ask for, in order, on every device at once.
 * 0, -EIO... the first error, -EINTR (Ctrl-C), or -ETIMEDOUT (then bios
 * may still point at the slots: the context is left allocated).
 */
int stress_run(struct stress *st);

#endif
