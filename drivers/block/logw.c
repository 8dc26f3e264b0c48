/*
 * logw: the write recorder of the power-cut simulator, a make_request
 * (stacking) driver in the manner of Linux's dm-log-writes.  Format,
 * ordering rules and locking: drivers/block/logwvar.h.
 *
 * Path of a bio: logw_make_request() copies a write's data into a record
 * (at submission, while the submitter's pages are stable), numbers a
 * PREFLUSH as a FLUSH entry at once, and sends a clone down to the data
 * disk.  logw_endio() (interrupt context) appends the write's record to
 * lw_done in completion order and ends the original bio.  Records reach
 * the log disk from process context only: at every mark (blk_mark(),
 * when the workload has been promised something) and at logw_stop().
 *
 * The device advertises a volatile cache with FUA (blk_queue_flush), so
 * that the filesystem above sends the flushes a real disk would need;
 * they go down to the data disk unchanged (LOGW_DROP_FLUSH, a test-only
 * option, swallows them instead and logs none: the simulator must then
 * find lost promises).
 *
 * Memory: records hold copies of the data until the next mark; a write
 * whose copy cannot be allocated still goes down but counts as lost,
 * and logw_stop() then fails.
 */
#include "drivers/block/logwvar.h"
#include "block/bdev.h"
#include "block/blkdev.h"
#include "block/blkdev_io.h"
#include "block/genhd.h"
#include "kernel/completion.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "kernel/mm/highmem.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

static DEFINE_SPINLOCK(logw_devs_lock);
static struct logw *logw_devs[LOGW_MAX_DEVICES];	/* [logw_devs_lock] */
static int logw_major;					/* [logw_devs_lock] 0: none yet */
static char logw_holder;				/* claims the disks below */

/* One bio in flight below: what its end must do. */
struct logw_io {
	struct logw	*io_lw;
	struct bio	*io_orig;
	struct logw_rec	*io_rec;	/* the write's record, or NULL */
	bool		io_flush;	/* carried PREFLUSH */
};

static void logw_rec_free(struct logw_rec *r)
{
	u32 i;

	for (i = 0; i < r->lr_nr_pages; i++)
		if (r->lr_pages[i])
			__free_page(r->lr_pages[i]);
	kfree(r);
}

/* A record for @nr_pages of data; NULL without memory.  Any context. */
static struct logw_rec *logw_rec_alloc(u32 nr_pages)
{
	struct logw_rec *r = kzalloc(sizeof(*r) + nr_pages * sizeof(struct page *), GFP_ATOMIC);
	u32 i;

	if (!r)
		return NULL;
	INIT_LIST_HEAD(&r->lr_link);
	r->lr_nr_pages = nr_pages;
	for (i = 0; i < nr_pages; i++) {
		r->lr_pages[i] = alloc_page(__GFP_HIGHMEM | __GFP_ATOMIC | __GFP_NOWARN);
		if (!r->lr_pages[i]) {
			logw_rec_free(r);
			return NULL;
		}
	}
	return r;
}

/* Copy a write bio's data into a new record; NULL without memory. */
static struct logw_rec *logw_capture(struct bio *bio)
{
	u32 bytes = bio->bi_iter.bi_size, off = 0, n, po;
	struct logw_rec *r = logw_rec_alloc(DIV_ROUND_UP(bytes, (u32)PAGE_SIZE));
	struct bvec_iter it;
	struct bio_vec bv;

	if (!r)
		return NULL;
	r->lr_sector = bio->bi_iter.bi_sector;
	r->lr_nr_sectors = bytes >> SECTOR_SHIFT;
	if (bio->bi_rw & REQ_FUA)
		r->lr_flags |= LOGW_FL_FUA;
	bio_for_each_segment(bv, bio, it) {
		u32 done = 0;

		while (done < bv.bv_len) {	/* a segment may straddle two record pages */
			po = off & (PAGE_SIZE - 1);
			n = min(bv.bv_len - done, (u32)PAGE_SIZE - po);
			copy_page_range(r->lr_pages[off >> PAGE_SHIFT], po, bv.bv_page,
					bv.bv_offset + done, n);
			done += n;
			off += n;
		}
	}
	return r;
}

/* Append r as the next entry.  lw_lock held. */
static u64 __logw_append(struct logw *lw, struct logw_rec *r)
{
	list_add_tail(&r->lr_link, &lw->lw_done);
	return lw->lw_nr_entries++;
}

static void logw_endio(struct bio *clone, int error)
{
	struct logw_io *io = clone->bi_private;
	struct logw *lw = io->io_lw;
	unsigned long flags;

	spin_lock_irqsave(&lw->lw_lock, flags);
	if (io->io_flush)
		lw->lw_flushes_inflight--;
	if (error)
		lw->lw_errors++;
	if (io->io_rec && !error) {
		if (lw->lw_flushes_inflight)
			lw->lw_overlaps++;
		__logw_append(lw, io->io_rec);
		io->io_rec = NULL;
	}
	lw->lw_inflight--;
	spin_unlock_irqrestore(&lw->lw_lock, flags);
	if (io->io_rec)		/* failed: the disk holds whatever it holds; counted */
		logw_rec_free(io->io_rec);
	bio_endio(io->io_orig, error);
	bio_put(clone);
	kfree(io);
}

static void logw_make_request(struct request_queue *q, struct bio *bio)
{
	struct logw *lw = q->q_queuedata;
	struct logw_rec *rec = NULL, *frec = NULL;
	bool write = bio_is_write(bio);
	struct logw_io *io;
	unsigned long flags;
	struct bio *clone;
	int err = -ENOMEM;

	if (bio_end_sector(bio) > lw->lw_nr_sectors) {
		bio_endio(bio, -EIO);
		return;
	}
	if (write && bio_has_data(bio)) {
		rec = logw_capture(bio);
		if (!rec) {
			spin_lock_irqsave(&lw->lw_lock, flags);
			lw->lw_lost++;
			spin_unlock_irqrestore(&lw->lw_lock, flags);
		}
	}
	if ((bio->bi_rw & REQ_PREFLUSH) && !(lw->lw_flags & LOGW_DROP_FLUSH)) {
		frec = logw_rec_alloc(0);
		if (!frec)
			goto fail;
		frec->lr_flags = LOGW_FL_FLUSH;
	}
	if ((lw->lw_flags & LOGW_DROP_FLUSH) && bio_is_flush(bio)) {
		err = 0;	/* the lying cache: "done", and nothing written */
		goto fail;
	}
	io = kzalloc(sizeof(*io), GFP_ATOMIC);
	if (!io)
		goto fail;
	clone = bio_clone(bio, GFP_NOIO);
	clone->bi_bdev = lw->lw_dev;
	clone->bi_end_io = logw_endio;
	clone->bi_private = io;
	if (lw->lw_flags & LOGW_DROP_FLUSH)
		clone->bi_rw &= ~REQ_FLUSH_DATA;
	io->io_lw = lw;
	io->io_orig = bio;
	io->io_rec = rec;
	io->io_flush = frec != NULL;

	spin_lock_irqsave(&lw->lw_lock, flags);
	if (lw->lw_stopped && write && bio_has_data(bio)) {
		spin_unlock_irqrestore(&lw->lw_lock, flags);
		kfree(io);
		bio_put(clone);
		err = -EROFS;
		goto fail;
	}
	if (frec) {		/* numbered where it was submitted: see logwvar.h */
		__logw_append(lw, frec);
		lw->lw_flushes_inflight++;
	}
	lw->lw_inflight++;
	spin_unlock_irqrestore(&lw->lw_lock, flags);
	submit_bio(clone);
	return;

fail:
	if (frec)
		logw_rec_free(frec);
	if (rec)
		logw_rec_free(rec);
	bio_endio(bio, err);
}

/* Send the gathered log bytes to the log disk.  [p] */
static int logw_stage_flush(struct logw *lw)
{
	long n;

	if (!lw->lw_stage_len || lw->lw_log_err)
		goto out;
	n = blkdev_pwrite(lw->lw_log, lw->lw_stage, lw->lw_stage_len,
			  lw->lw_stage_sector << SECTOR_SHIFT);
	if (n != (long)lw->lw_stage_len)
		lw->lw_log_err = n < 0 ? (int)n : -EIO;
	lw->lw_stage_sector += lw->lw_stage_len >> SECTOR_SHIFT;
	lw->lw_stage_len = 0;
out:
	return lw->lw_log_err;
}

/*
 * Add len bytes (a whole number of sectors) to the log, from src or, when
 * page is given, from the start of that page (len <= PAGE_SIZE).  [p]
 */
static int logw_stage_add(struct logw *lw, const void *src, struct page *page, u32 len)
{
	u32 n, done = 0;

	if (lw->lw_next_sector + (len >> SECTOR_SHIFT) > lw->lw_log_sectors) {
		if (!lw->lw_log_err)
			pr_err("%s: log disk %s is full\n", lw->lw_name, bdev_name(lw->lw_log));
		lw->lw_log_err = -ENOSPC;
		return lw->lw_log_err;
	}
	while (done < len) {
		if (!lw->lw_stage_len)
			lw->lw_stage_sector = lw->lw_next_sector;
		n = min(len - done, LOGW_STAGE_BYTES - lw->lw_stage_len);
		if (page) {	/* mapped per piece: the stage flush below sleeps */
			u8 *p = kmap_atomic(page);

			memcpy(lw->lw_stage + lw->lw_stage_len, p + done, n);
			kunmap_atomic(p);
		} else {
			memcpy(lw->lw_stage + lw->lw_stage_len, (const u8 *)src + done, n);
		}
		lw->lw_stage_len += n;
		lw->lw_next_sector += n >> SECTOR_SHIFT;
		done += n;
		if (lw->lw_stage_len == LOGW_STAGE_BYTES && logw_stage_flush(lw))
			return lw->lw_log_err;
	}
	return 0;
}

/* Write one entry: its sector, then a write's data.  [p] */
static int logw_write_entry(struct logw *lw, const struct logw_rec *r, const void *data)
{
	u8 sec[LOGW_SECTOR_SIZE];
	struct logw_entry e = {
		.le_sector = r->lr_sector,
		.le_nr_sectors = r->lr_nr_sectors,
		.le_flags = r->lr_flags,
		.le_data_len = r->lr_text_len,
	};
	u32 left = r->lr_nr_sectors << SECTOR_SHIFT, i;
	int err;

	memset(sec, 0, sizeof(sec));
	memcpy(sec, &e, sizeof(e));
	memcpy(sec + sizeof(e), r->lr_text, r->lr_text_len);
	err = logw_stage_add(lw, sec, NULL, sizeof(sec));
	if (data && !err)
		err = logw_stage_add(lw, data, NULL, left);
	for (i = 0; !data && !err && left; i++) {
		u32 n = min(left, (u32)PAGE_SIZE);

		err = logw_stage_add(lw, NULL, r->lr_pages[i], n);
		left -= n;
	}
	if (!err)
		lw->lw_written++;
	return err;
}

/* Move every completed record to the log disk.  [p] */
static int logw_drain(struct logw *lw)
{
	struct logw_rec *r, *next;
	unsigned long flags;
	LIST_HEAD(batch);
	int err = 0;

	spin_lock_irqsave(&lw->lw_lock, flags);
	list_splice_tail_init(&lw->lw_done, &batch);
	spin_unlock_irqrestore(&lw->lw_lock, flags);
	list_for_each_entry_safe(r, next, &batch, lr_link) {
		list_del(&r->lr_link);
		if (!err)
			err = logw_write_entry(lw, r, NULL);
		logw_rec_free(r);
	}
	if (!err)
		err = logw_stage_flush(lw);
	return err;
}

/* blk_mark hook: a MARK entry now, then the log brought up to date. */
static int logw_mark(struct request_queue *q, const char *text, u64 *pos)
{
	struct logw *lw = q->q_queuedata;
	struct logw_rec *r = logw_rec_alloc(0);
	unsigned long flags;

	if (!r)
		return -ENOMEM;
	r->lr_flags = LOGW_FL_MARK;
	r->lr_text_len = (u32)strnlen(text, BLK_MARK_TEXT_MAX - 1);
	memcpy(r->lr_text, text, r->lr_text_len);
	spin_lock_irqsave(&lw->lw_lock, flags);
	*pos = __logw_append(lw, r);
	spin_unlock_irqrestore(&lw->lw_lock, flags);
	return logw_drain(lw);
}

/*
 * Record the data disk as it is now: its non-zero stage-sized pieces as
 * writes, then a FLUSH, so the host needs no copy of the starting image.
 */
static int logw_snapshot(struct logw *lw)
{
	struct logw_rec r = { .lr_nr_sectors = LOGW_STAGE_BYTES >> SECTOR_SHIFT };
	struct logw_rec f = { .lr_flags = LOGW_FL_FLUSH };
	u64 off, size = lw->lw_nr_sectors << SECTOR_SHIFT;
	u8 *buf = kmalloc(LOGW_STAGE_BYTES, GFP_KERNEL);
	int err = 0;
	long n;
	u32 i;

	if (!buf)
		return -ENOMEM;
	for (off = 0; off < size && !err; off += n) {
		n = blkdev_pread(lw->lw_dev, buf, (size_t)min(size - off, (u64)LOGW_STAGE_BYTES), off);
		if (n <= 0 || (n & (SECTOR_SIZE - 1))) {
			err = n < 0 ? (int)n : -EIO;
			break;
		}
		for (i = 0; i < (u32)n && !buf[i]; i++)
			;
		if (i == (u32)n)
			continue;	/* the host starts from zeroes */
		r.lr_sector = off >> SECTOR_SHIFT;
		r.lr_nr_sectors = (u32)n >> SECTOR_SHIFT;
		err = logw_write_entry(lw, &r, buf);
	}
	if (!err)
		err = logw_write_entry(lw, &f, NULL);
	if (!err)
		err = logw_stage_flush(lw);
	kfree(buf);
	lw->lw_nr_entries = lw->lw_written;
	return err;
}

/* Open and claim the disk named @name for writing; a referenced device or NULL. */
static struct block_device *logw_open(const char *who, const char *name)
{
	struct block_device *b = bdev_lookup(name);
	int err;

	if (!b) {
		pr_err("%s: %s: no such block device\n", who, name);
		return NULL;
	}
	err = bdev_open(b, FMODE_READ | FMODE_WRITE | FMODE_EXCL, &logw_holder);
	if (err) {
		pr_err("%s: %s: cannot open for writing: %s%s\n", who, name, errstr(err),
		       err == -EROFS ? " (name it in writable=)" : "");
		bdev_put(b);
		return NULL;
	}
	return b;
}

static void logw_close(struct block_device *b)
{
	bdev_close(b, FMODE_READ | FMODE_WRITE | FMODE_EXCL, &logw_holder);
	bdev_put(b);
}

/* A free index and the major, under logw_devs_lock; -ENOSPC or the registry's error. */
static int logw_reserve(struct logw *lw)
{
	unsigned long flags;
	int err = -ENOSPC, major;
	unsigned i;

	if (!logw_major) {
		major = register_blkdev(0, "logw");
		if (major < 0)
			return major;
		logw_major = major;
	}
	spin_lock_irqsave(&logw_devs_lock, flags);
	for (i = 0; i < LOGW_MAX_DEVICES; i++) {
		if (!logw_devs[i]) {
			logw_devs[i] = lw;
			lw->lw_index = i;
			err = 0;
			break;
		}
	}
	spin_unlock_irqrestore(&logw_devs_lock, flags);
	return err;
}

static void logw_release(struct logw *lw)
{
	unsigned long flags;

	spin_lock_irqsave(&logw_devs_lock, flags);
	logw_devs[lw->lw_index] = NULL;
	spin_unlock_irqrestore(&logw_devs_lock, flags);
}

/* Register the queue as disk logwN, without partitions. */
static int logw_add_disk(struct logw *lw)
{
	struct gendisk *d = alloc_disk(1);
	int err;

	if (!d)
		return -ENOMEM;
	d->gd_major = logw_major;
	d->gd_first_minor = (int)lw->lw_index;
	str_copy(d->gd_name, lw->lw_name, sizeof(d->gd_name));
	str_copy(d->gd_model, "write recorder", sizeof(d->gd_model));
	d->gd_queue = lw->lw_queue;
	d->gd_private_data = lw;
	d->gd_flags |= GENHD_FL_NO_PART_SCAN;
	set_capacity(d, lw->lw_nr_sectors);
	err = add_disk(d);
	if (err) {
		put_disk(d);
		return err;
	}
	lw->lw_disk = d;
	return 0;
}

struct logw *logw_create(const char *dev, const char *log, unsigned flags)
{
	struct logw *lw = kzalloc(sizeof(*lw), GFP_KERNEL);
	int err = -ENOMEM;

	if (!lw)
		goto fail;
	spin_lock_init(&lw->lw_lock, "logw");
	INIT_LIST_HEAD(&lw->lw_done);
	lw->lw_flags = flags;
	lw->lw_next_sector = LOGW_SUPER_SECTOR + 1;
	lw->lw_stage = kmalloc(LOGW_STAGE_BYTES, GFP_KERNEL);
	if (!lw->lw_stage)
		goto free_lw;
	err = logw_reserve(lw);
	if (err)
		goto free_stage;
	snprintf(lw->lw_name, sizeof(lw->lw_name), "logw%u", lw->lw_index);
	err = -ENODEV;
	lw->lw_dev = logw_open(lw->lw_name, dev);
	if (!lw->lw_dev)
		goto release;
	lw->lw_log = logw_open(lw->lw_name, log);
	if (!lw->lw_log)
		goto close_dev;
	err = -EINVAL;
	if (bdev_get_queue(lw->lw_dev)->q_limits.lim_logical_block_size != LOGW_SECTOR_SIZE) {
		pr_err("%s: %s: only 512-byte sectors can be logged\n", lw->lw_name, dev);
		goto close_log;
	}
	lw->lw_nr_sectors = bdev_nr_sects(lw->lw_dev);
	lw->lw_log_sectors = bdev_nr_sects(lw->lw_log);
	err = logw_snapshot(lw);
	if (err) {
		pr_err("%s: cannot record %s on %s: %s\n", lw->lw_name, dev, log, errstr(err));
		goto close_log;
	}
	err = -ENOMEM;
	lw->lw_queue = blk_alloc_queue(lw->lw_name);
	if (!lw->lw_queue)
		goto close_log;
	blk_queue_make_request(lw->lw_queue, logw_make_request);
	lw->lw_queue->q_queuedata = lw;
	lw->lw_queue->q_nr_sectors = lw->lw_nr_sectors;
	/* A volatile cache with FUA: the filesystem above must send its flushes. */
	blk_queue_flush(lw->lw_queue, BLK_FLUSH_CACHE | BLK_FLUSH_FUA);
	err = blk_mark_register(lw->lw_queue, logw_mark);
	if (err)
		goto free_queue;
	err = logw_add_disk(lw);
	if (err)
		goto unmark;
	pr_info("%s: recording %s on %s (%llu entries of its contents)%s\n", lw->lw_name, dev,
		log, (unsigned long long)lw->lw_written,
		(flags & LOGW_DROP_FLUSH) ? ", dropping flushes" : "");
	return lw;

unmark:
	blk_mark_unregister(lw->lw_queue);
free_queue:
	blk_cleanup_queue(lw->lw_queue);
close_log:
	logw_close(lw->lw_log);
close_dev:
	logw_close(lw->lw_dev);
release:
	logw_release(lw);
free_stage:
	kfree(lw->lw_stage);
free_lw:
	kfree(lw);
fail:
	return ERR_PTR(err);
}

#define LOGW_DRAIN_MS	30000u	/* longest logw_stop waits for bios below */

int logw_stop(struct logw *lw)
{
	struct logw_super s = { .lws_magic = LOGW_MAGIC, .lws_version = LOGW_VERSION,
				.lws_sectorsize = LOGW_SECTOR_SIZE };
	u8 sec[LOGW_SECTOR_SIZE];
	u64 deadline = ktime_ms() + LOGW_DRAIN_MS;
	unsigned long flags;
	u32 inflight;
	int err;

	for (;;) {	/* the last bios below end by interrupt */
		spin_lock_irqsave(&lw->lw_lock, flags);
		lw->lw_stopped = true;
		inflight = lw->lw_inflight;
		spin_unlock_irqrestore(&lw->lw_lock, flags);
		if (!inflight)
			break;
		if (ktime_ms() > deadline) {
			pr_err("%s: %u bios still below after %u ms\n", lw->lw_name, inflight,
			       LOGW_DRAIN_MS);
			return -ETIMEDOUT;
		}
		cpu_idle_once();
	}
	err = logw_drain(lw);
	if (!err)
		err = blkdev_flush(lw->lw_log);
	s.lws_nr_entries = lw->lw_written;
	memset(sec, 0, sizeof(sec));
	memcpy(sec, &s, sizeof(s));
	if (!err && blkdev_pwrite(lw->lw_log, sec, sizeof(sec),
				  LOGW_SUPER_SECTOR * LOGW_SECTOR_SIZE) != sizeof(sec))
		err = -EIO;
	if (!err)
		err = blkdev_flush(lw->lw_log);
	if (err)
		pr_err("%s: cannot finish the log on %s: %s\n", lw->lw_name,
		       bdev_name(lw->lw_log), errstr(err));
	else if (lw->lw_lost || lw->lw_errors)
		err = -EIO;
	return err;
}

struct logw *logw_find(const char *name)
{
	struct logw *lw = NULL;
	unsigned long flags;
	unsigned i;

	spin_lock_irqsave(&logw_devs_lock, flags);
	for (i = 0; i < LOGW_MAX_DEVICES; i++)
		if (logw_devs[i] && !strcmp(logw_devs[i]->lw_name, name))
			lw = logw_devs[i];
	spin_unlock_irqrestore(&logw_devs_lock, flags);
	return lw;
}
