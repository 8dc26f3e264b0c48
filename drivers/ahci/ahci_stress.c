/*
 * ahcistress: a tagged-queueing data-integrity workload for the AHCI
 * tests (tests/qemu/ahci-*.sh), run from the shell on any block device
 * (opened through the registry, so writes need writable=) or, failing
 * that, any request queue by name.
 *
 *	ahcistress DEV [mib=N] [off=MiB] [seed=N] [qd=N] [max=SECTORS]
 *	           [op=both|write|read] [high=1] [reset=DISK:port|hba [at=N]]
 *
 * The region [off, off+mib) is cut into chunks of 1..max sectors (whole
 * logical blocks), in a shuffled order, so that the queue holds up to qd
 * unrelated requests at once; bios carry REQ_NOMERGE, so each chunk is
 * exactly one request and an error costs exactly that chunk.  Writes
 * stamp every sector with the peer's LBA pattern (block/bench.h: w[0] =
 * LBA, w[1] = seed, w[i] = LBA ^ seed ^ i * 0x9E3779B97F4A7C15), which
 * the host checks in the image afterwards; reads check it here.  Buffer
 * pages come from any zone (high=1: only pages above 4 GiB, to exercise
 * 64-bit DMA).  reset= runs "ahcireset DISK port|hba" once, after the
 * at-th submission (default: halfway through the first pass) as soon as
 * the driver holds a request.
 *
 * Output, one line each, stable for the test scripts:
 *	AHCISTRESS eio op=read|write|flush lba=L n=N err=E  a failed request
 *	AHCISTRESS bad lba=L                              a sector that did not verify
 *	AHCISTRESS write ios=N eio=E (the final flush included) / read ios=N eio=E bad=B
 *	AHCISTRESS stats maxtags=T highpages=H bounces=B requeues=R
 *	AHCISTRESS result=PASS|FAIL                       PASS: no error, no bad sector
 */
#include "block/bdev.h"
#include "block/bench.h"
#include "block/blkdev.h"
#include "kernel/completion.h"
#include "kernel/errno.h"
#include "kernel/mm/highmem.h"
#include "kernel/mm/page.h"
#include "kernel/mm/slab.h"
#include "kernel/printk.h"
#include "kernel/shell.h"
#include "lib/string.h"

#define AHCI_STRESS_MAX_QD	64
#define AHCI_STRESS_MAX_SECT	256u		/* 128 KiB per request */
#define AHCI_STRESS_PAGES	(AHCI_STRESS_MAX_SECT * SECTOR_SIZE / PAGE_SIZE)
#define AHCI_STRESS_BAD_PRINT	16		/* bad sectors printed, then counted */
#define AHCI_STRESS_HIGH_TRIES	65536u		/* pages looked at to find ones above 4 GiB */

struct ahci_stress_chunk {
	u64	sc_lba;
	u32	sc_n;
};

struct ahci_stress_slot {
	struct page		*ss_pages[AHCI_STRESS_PAGES];
	struct ahci_stress_chunk *ss_chunk;
	volatile bool		ss_busy;
	volatile int		ss_error;
};

struct ahci_stress {
	struct request_queue	*st_q;
	struct block_device	*st_bdev;	/* NULL: a bare queue, no registry */
	struct ahci_stress_chunk *st_chunks;
	u32			st_nchunks;
	struct ahci_stress_slot	*st_slots;
	u32			st_qd;
	u64			st_seed;
	u32			st_maxtags;
	u32			st_highpages;
	u64			st_bad;
	u32			st_eio;
	u32			st_submitted;
	u32			st_reset_at;	/* 0: no reset */
	char			st_reset_cmd[48];
};

static void ahci_stress_endio(struct bio *bio, int error)
{
	struct ahci_stress_slot *s = bio->bi_private;

	s->ss_error = error;
	bio_put(bio);
	s->ss_busy = false;
}

/* Fill (write) or check (read) the chunk's sectors in the slot's pages. */
static void ahci_stress_pattern(struct ahci_stress *st, struct ahci_stress_slot *s, bool check)
{
	u32 i;

	for (i = 0; i < s->ss_chunk->sc_n; i++) {
		u64 lba = s->ss_chunk->sc_lba + i;
		u8 *p = kmap_atomic(s->ss_pages[i / (PAGE_SIZE / SECTOR_SIZE)]);
		u8 *sec = p + (i % (PAGE_SIZE / SECTOR_SIZE)) * SECTOR_SIZE;

		if (!check) {
			bench_fill_sector(sec, lba, st->st_seed);
		} else if (!bench_check_sector(sec, lba, st->st_seed)) {
			if (st->st_bad++ < AHCI_STRESS_BAD_PRINT)
				printk("AHCISTRESS bad lba=%llu\n", (unsigned long long)lba);
		}
		if (check)
			memset(sec, 0xa5, SECTOR_SIZE);	/* poison for the next read */
		kunmap_atomic(p);
	}
}

/* Through the registry (partition bounds, writable=) when the name is known there. */
static void ahci_stress_send(struct ahci_stress *st, struct bio *bio)
{
	if (st->st_bdev) {
		bio->bi_bdev = st->st_bdev;
		submit_bio(bio);
	} else {
		blk_queue_submit_bio(st->st_q, bio);
	}
}

static void ahci_stress_submit(struct ahci_stress *st, struct ahci_stress_slot *s, bool write)
{
	u32 bytes = s->ss_chunk->sc_n * SECTOR_SIZE, i, len;
	struct bio *bio = bio_alloc(GFP_NOIO, AHCI_STRESS_PAGES);

	if (write)
		ahci_stress_pattern(st, s, false);
	bio->bi_iter.bi_sector = s->ss_chunk->sc_lba;
	bio->bi_rw = (write ? REQ_WRITE : 0) | REQ_NOMERGE;
	for (i = 0; bytes; i++, bytes -= len) {
		len = min(bytes, (u32)PAGE_SIZE);
		bio_add_page(bio, s->ss_pages[i], len, 0);
	}
	bio->bi_private = s;
	bio->bi_end_io = ahci_stress_endio;
	s->ss_busy = true;
	s->ss_error = 0;
	ahci_stress_send(st, bio);
	st->st_submitted++;
	if (st->st_q->q_tags && st->st_q->q_tags->bqt_busy > st->st_maxtags)
		st->st_maxtags = st->st_q->q_tags->bqt_busy;
}

/* A finished slot: report its error or check what it read. */
static void ahci_stress_reap(struct ahci_stress *st, struct ahci_stress_slot *s, bool write,
			     u32 *eio)
{
	if (!s->ss_chunk)
		return;
	if (s->ss_error) {
		(*eio)++;
		printk("AHCISTRESS eio op=%s lba=%llu n=%u err=%d\n", write ? "write" : "read",
		       (unsigned long long)s->ss_chunk->sc_lba, s->ss_chunk->sc_n, s->ss_error);
	} else if (!write) {
		ahci_stress_pattern(st, s, true);
	}
	s->ss_chunk = NULL;
}

/* One pass over every chunk, qd in flight.  Returns the failed requests. */
static u32 ahci_stress_pass(struct ahci_stress *st, bool write)
{
	u32 next = 0, i, eio = 0, busy;

	for (;;) {
		busy = 0;
		for (i = 0; i < st->st_qd; i++) {
			struct ahci_stress_slot *s = &st->st_slots[i];

			if (s->ss_busy) {
				busy++;
				continue;
			}
			ahci_stress_reap(st, s, write, &eio);
			if (next < st->st_nchunks) {
				s->ss_chunk = &st->st_chunks[next++];
				ahci_stress_submit(st, s, write);
				busy++;
			}
		}
		if (!busy && next >= st->st_nchunks)
			return eio;
		blk_unplug(st->st_q);
		if (st->st_reset_at && st->st_submitted >= st->st_reset_at &&
		    READ_ONCE(st->st_q->q_in_driver) > 0) {
			st->st_reset_at = 0;	/* once, with every slot out */
			shell_exec(st->st_reset_cmd);
		}
		cpu_idle_once();
	}
}

/* Cut [lba, lba + n) into chunks of 1..max sectors (multiples of lbs), shuffled. */
static int ahci_stress_plan(struct ahci_stress *st, u64 lba, u64 n, u32 max, u32 lbs,
			    struct bench_rng *r)
{
	u64 pos = lba, end = lba + n;
	u32 cap = (u32)(n / lbs) + 1, i, j;
	struct ahci_stress_chunk t;

	st->st_chunks = kcalloc(cap, sizeof(*st->st_chunks), GFP_KERNEL);
	if (!st->st_chunks)
		return -ENOMEM;
	while (pos < end) {
		u32 len = (u32)(1 + bench_rng_next(r) % (max / lbs)) * lbs;

		if (len > end - pos)
			len = (u32)(end - pos);
		st->st_chunks[st->st_nchunks].sc_lba = pos;
		st->st_chunks[st->st_nchunks].sc_n = len;
		st->st_nchunks++;
		pos += len;
	}
	for (i = st->st_nchunks; i > 1; i--) {
		j = (u32)(bench_rng_next(r) % i);
		t = st->st_chunks[i - 1];
		st->st_chunks[i - 1] = st->st_chunks[j];
		st->st_chunks[j] = t;
	}
	return 0;
}

/* A page for the buffers; with high, one above 4 GiB if any can be found. */
static struct page *ahci_stress_page(struct ahci_stress *st, bool high, struct list_head *spare)
{
	struct page *pg;
	u32 tries;

	for (tries = 0; tries < (high ? AHCI_STRESS_HIGH_TRIES : 1); tries++) {
		pg = alloc_page(GFP_HIGHUSER);
		if (!pg)
			return NULL;
		if (!high || page_to_phys(pg) >= (4ULL << 30))
			break;
		list_add(&pg->lru, spare);	/* keep it out of the allocator meanwhile */
		pg = NULL;
	}
	if (pg && page_to_phys(pg) >= (4ULL << 30))
		st->st_highpages++;
	return pg;
}

static void ahci_stress_free(struct ahci_stress *st)
{
	u32 i, j;

	if (st->st_slots) {
		for (i = 0; i < st->st_qd; i++)
			for (j = 0; j < AHCI_STRESS_PAGES; j++)
				if (st->st_slots[i].ss_pages[j])
					__free_page(st->st_slots[i].ss_pages[j]);
		kfree(st->st_slots);
	}
	kfree(st->st_chunks);
}

static int ahci_stress_flush(struct ahci_stress *st)
{
	struct ahci_stress_slot *s = &st->st_slots[0];
	struct bio *bio = bio_alloc(GFP_NOIO, 0);

	bio->bi_rw = REQ_WRITE | REQ_PREFLUSH | REQ_SYNC;
	bio->bi_private = s;
	bio->bi_end_io = ahci_stress_endio;
	s->ss_busy = true;
	s->ss_error = 0;
	ahci_stress_send(st, bio);
	while (s->ss_busy)
		cpu_idle_once();
	return s->ss_error;
}

static int ahci_stress_arg(const char *arg, const char *key, u64 *val)
{
	size_t n = strlen(key);

	if (strncmp(arg, key, n) || arg[n] != '=')
		return 1;
	return str_to_u64(arg + n + 1, val, false) ? -EINVAL : 0;
}

static int cmd_ahcistress(int argc, char **argv)
{
	u64 mib = 16, off = 0, seed = 1, qd = 32, max = 128, high = 0, at = 0, lbs;
	const char *reset = NULL;
	bool do_write = true, do_read = true;
	struct ahci_stress st = { 0 };
	struct list_head spare = LIST_HEAD_INIT(spare);
	struct bench_rng r;
	struct page *pg, *tmp;
	u32 weio = 0, reio = 0, i, j;
	fmode_t mode = 0;
	bool opened = false;
	int ret = 0, a;

	if (argc < 2)
		return -EINVAL;
	for (a = 2; a < argc; a++) {
		if (!strcmp(argv[a], "op=write"))
			do_read = false;
		else if (!strcmp(argv[a], "op=read"))
			do_write = false;
		else if (!strcmp(argv[a], "op=both"))
			continue;
		else if (!strncmp(argv[a], "reset=", 6) && strchr(argv[a], ':'))
			reset = argv[a] + 6;
		else if (ahci_stress_arg(argv[a], "mib", &mib) &&
			 ahci_stress_arg(argv[a], "off", &off) &&
			 ahci_stress_arg(argv[a], "seed", &seed) &&
			 ahci_stress_arg(argv[a], "qd", &qd) &&
			 ahci_stress_arg(argv[a], "max", &max) &&
			 ahci_stress_arg(argv[a], "high", &high) &&
			 ahci_stress_arg(argv[a], "at", &at))
			return -EINVAL;
	}
	st.st_bdev = bdev_lookup(argv[1]);
	if (st.st_bdev) {
		mode = FMODE_READ | (do_write ? FMODE_WRITE : 0);
		ret = bdev_open(st.st_bdev, mode, NULL);
		if (ret) {
			bdev_put(st.st_bdev);
			return ret;	/* the shell says why: "read-only file system" */
		}
		opened = true;
		st.st_q = bdev_get_queue(st.st_bdev);
	} else {
		st.st_q = blk_queue_find(argv[1]);
	}
	if (!st.st_q) {
		printk("ahcistress: no device %s\n", argv[1]);
		ret = -ECANCELED;
		goto out;
	}
	lbs = st.st_q->q_limits.lim_logical_block_size >> SECTOR_SHIFT;
	if (!qd || qd > AHCI_STRESS_MAX_QD || !max || max > AHCI_STRESS_MAX_SECT || max < lbs ||
	    !mib) {
		ret = -EINVAL;
		goto out;
	}
	st.st_qd = (u32)qd;
	st.st_seed = seed;
	bench_rng_seed(&r, seed);
	ret = ahci_stress_plan(&st, off << (20 - SECTOR_SHIFT), mib << (20 - SECTOR_SHIFT),
			       (u32)max, (u32)lbs, &r);
	if (ret)
		goto out;
	if (reset) {
		snprintf(st.st_reset_cmd, sizeof(st.st_reset_cmd), "ahcireset %s", reset);
		*strchr(st.st_reset_cmd, ':') = ' ';
		st.st_reset_at = at ? (u32)at : st.st_nchunks / 2 + 1;
	}
	st.st_slots = kcalloc(st.st_qd, sizeof(*st.st_slots), GFP_KERNEL);
	if (!st.st_slots) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < st.st_qd; i++)
		for (j = 0; j < DIV_ROUND_UP((u32)max * SECTOR_SIZE, PAGE_SIZE); j++) {
			st.st_slots[i].ss_pages[j] = ahci_stress_page(&st, high != 0, &spare);
			if (!st.st_slots[i].ss_pages[j]) {
				ret = -ENOMEM;
				goto out;
			}
		}
	list_for_each_entry_safe(pg, tmp, &spare, lru) {
		list_del(&pg->lru);
		__free_page(pg);
	}
	if (do_write) {
		weio = ahci_stress_pass(&st, true);
		ret = ahci_stress_flush(&st);
		if (ret) {
			printk("AHCISTRESS eio op=flush lba=0 n=0 err=%d\n", ret);
			weio++;
			ret = 0;
		}
		printk("AHCISTRESS write ios=%u eio=%u\n", st.st_nchunks, weio);
	}
	if (do_read) {
		for (i = st.st_nchunks; i > 1; i--) {	/* another order for the reads */
			struct ahci_stress_chunk t = st.st_chunks[i - 1];

			j = (u32)(bench_rng_next(&r) % i);
			st.st_chunks[i - 1] = st.st_chunks[j];
			st.st_chunks[j] = t;
		}
		reio = ahci_stress_pass(&st, false);
		printk("AHCISTRESS read ios=%u eio=%u bad=%llu\n", st.st_nchunks, reio,
		       (unsigned long long)st.st_bad);
	}
	printk("AHCISTRESS stats maxtags=%u highpages=%u bounces=%llu requeues=%llu\n",
	       st.st_maxtags, st.st_highpages,
	       (unsigned long long)st.st_q->q_stats.st_bounces,
	       (unsigned long long)st.st_q->q_stats.st_requeues);
	printk("AHCISTRESS result=%s\n", !weio && !reio && !st.st_bad ? "PASS" : "FAIL");
out:
	list_for_each_entry_safe(pg, tmp, &spare, lru) {
		list_del(&pg->lru);
		__free_page(pg);
	}
	ahci_stress_free(&st);
	if (opened)
		bdev_close(st.st_bdev, mode, NULL);
	if (st.st_bdev)
		bdev_put(st.st_bdev);
	return ret;
}
SHELL_COMMAND("ahcistress", cmd_ahcistress,
	      "ahcistress DEV [mib=N] [off=MiB] [seed=N] [qd=N] [max=SECTORS] [op=both|write|read] [high=1] [reset=DISK:port|hba [at=N]]",
	      "queue-depth data-integrity workload with LBA-stamped sectors (AHCI tests)");
