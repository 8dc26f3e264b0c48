/*
 * In-kernel self-tests of the IDE driver on a real (emulated) drive, for
 * what QEMU's drive never does by itself: be busy, or want data, when
 * the driver has a command to issue.  The test makes it so behind the
 * driver's back: on the idle channel, its lock held, it issues a
 * one-sector WRITE SECTORS (PIO), with or without the sector's data.
 * With the data the drive stays BSY while it writes (a fifth of a
 * second: tests/qemu/ide-busy.sh throttles the disk's writes); without,
 * it sits with DRQ set.  Then a stamped write and its read-back go
 * through the block layer:
 *
 *   ide/busy_before_command   they complete after the driver held the
 *                             write until BSY dropped (ch_busy), with no
 *                             reset; the injected sector is on the disk;
 *   ide/drq_before_command    they complete after one channel reset.
 *
 * Sectors hold the LBA pattern (bench_fill_sector), which the script
 * checks from the host too.  Destructive: the tests use the first IDE
 * disk named in writable=, and pass, saying so, when there is none.
 */
#include "block/bdev.h"
#include "block/diag/bench.h"
#include "block/blkdev_io.h"
#include "drivers/ata/atareg.h"
#include "drivers/ide/ide_priv.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/selftest.h"
#include "kernel/mm/slab.h"

#define IDE_ST_SEED		0x1de0b5
#define IDE_ST_BUSY_LBA		1000	/* primers, the injected sector, the write */
#define IDE_ST_DRQ_LBA		2000	/* the injected sector (never written), the write */
#define IDE_ST_PRIMERS		4	/* one-sector writes that use up the throttle's burst */
#define IDE_ST_SECTORS		8	/* the write through the block layer */
#define IDE_ST_BUF_SECTORS	(IDE_ST_PRIMERS + 1 + IDE_ST_SECTORS)

/* The first IDE disk that may be written, opened; NULL if there is none. */
static struct ide_drive *ide_st_disk(struct block_device **bdevp)
{
	struct ide_softc *sc;
	unsigned i, u;

	for (sc = ide_next_controller(NULL); sc; sc = ide_next_controller(sc)) {
		for (i = 0; i < IDE_CHANNELS; i++) {
			for (u = 0; u < IDE_UNITS; u++) {
				struct ide_drive *d = &sc->sc_chan[i].ch_drive[u];
				struct block_device *bdev;

				if (!d->dr_disk || d->dr_lbs != SECTOR_SIZE)
					continue;
				bdev = bdev_lookup_name(d->dr_name);
				if (!bdev)
					continue;
				if (!bdev_open(bdev, FMODE_READ | FMODE_WRITE, NULL)) {
					*bdevp = bdev;
					return d;
				}
				bdev_put(bdev);
			}
		}
	}
	pr_info("ide-selftest: no IDE disk named in writable=: nothing to test\n");
	return NULL;
}

static void ide_st_close(struct block_device *bdev)
{
	bdev_close(bdev, FMODE_READ | FMODE_WRITE, NULL);
	bdev_put(bdev);
}

/* Write n stamped sectors from lba, or read them back and check them.  0 or -errno. */
static int ide_st_rw(struct block_device *bdev, u8 *buf, u64 lba, u32 n, bool write)
{
	size_t len = (size_t)n * SECTOR_SIZE;
	long got;
	u32 i;
	int err;

	for (i = 0; write && i < n; i++)
		bench_fill_sector(buf + i * SECTOR_SIZE, lba + i, IDE_ST_SEED);
	got = write ? blkdev_pwrite(bdev, buf, len, lba * SECTOR_SIZE) :
		      blkdev_pread(bdev, buf, len, lba * SECTOR_SIZE);
	err = got < 0 ? (int)got : (got == (long)len ? 0 : -EIO);
	if (err)
		return st_fail("%s of sectors %llu+%u: %s", write ? "write" : "read",
			       (unsigned long long)lba, n, errstr(err));
	for (i = 0; !write && i < n; i++)
		if (!bench_check_sector(buf + i * SECTOR_SIZE, lba + i, IDE_ST_SEED))
			return st_fail("sector %llu reads back wrong",
				       (unsigned long long)(lba + i));
	return 0;
}

/*
 * Behind the driver's back, on the idle channel: WRITE SECTORS of the
 * stamped sector lba to d, and its data when data is set.  Returns the
 * Status that follows (BSY while the drive writes, or DRQ), or -errno.
 */
static int ide_st_inject(struct ide_drive *d, u64 lba, bool data, u8 *buf)
{
	struct ide_channel *ch = d->dr_chan;
	struct ata_taskfile tf;
	unsigned long flags;
	int st, i;

	bench_fill_sector(buf, lba, IDE_ST_SEED);
	st = ata_rw(&tf, &d->dr_id, lba, 1, ATA_RW_WRITE, 0);
	if (st)
		return st;
	spin_lock_irqsave(&ch->ch_lock, flags);
	if (ch->ch_state != IDE_CH_IDLE) {
		st = -EBUSY;
		goto unlock;
	}
	ide_select(ch, d->dr_unit);
	ide_load_tf(ch, &tf, d->dr_unit);
	for (i = 0; i < 4; i++)			/* Status is valid after 400 ns */
		(void)ide_altstatus(ch);
	st = ide_wait_not_busy(ch, 1);		/* DRQ for the first block: QEMU's is at once */
	if (st < 0 || !(st & ATA_STATUS_DRQ)) {
		st = -EIO;
		goto unlock;
	}
	if (data) {
		ide_data_out(ch, buf, SECTOR_SIZE / 2);
		st = ide_altstatus(ch);
	}
unlock:
	spin_unlock_irqrestore(&ch->ch_lock, flags);
	return st;
}

/* A counter of the channel (ch_busy, ch_resets), read under its lock. */
static u64 ide_st_count(struct ide_channel *ch, const u64 *counter)
{
	unsigned long flags;
	u64 v;

	spin_lock_irqsave(&ch->ch_lock, flags);
	v = *counter;
	spin_unlock_irqrestore(&ch->ch_lock, flags);
	return v;
}

static int test_busy_before_command(void)
{
	const u64 injected = IDE_ST_BUSY_LBA + IDE_ST_PRIMERS;
	struct block_device *bdev;
	struct ide_drive *d = ide_st_disk(&bdev);
	struct ide_channel *ch;
	u64 busy, resets;
	int i, st, ret = 0;
	u8 *buf;

	if (!d)
		return 0;
	ch = d->dr_chan;
	buf = kmalloc(IDE_ST_BUF_SECTORS * SECTOR_SIZE, GFP_KERNEL);
	if (!buf) {
		ret = st_fail("out of memory");
		goto close;
	}
	for (i = 0; i < IDE_ST_PRIMERS && !ret; i++)
		ret = ide_st_rw(bdev, buf, IDE_ST_BUSY_LBA + i, 1, true);
	if (ret)
		goto free;
	busy = ide_st_count(ch, &ch->ch_busy);
	resets = ide_st_count(ch, &ch->ch_resets);
	st = ide_st_inject(d, injected, true, buf);
	if (st < 0 || !(st & ATA_STATUS_BSY)) {
		ret = st_fail("%s not busy after the injected write (status %#x): are its writes"
			      " throttled?", d->dr_name, st);
		goto free;
	}
	ret = ide_st_rw(bdev, buf, injected + 1, IDE_ST_SECTORS, true);
	if (!ret)
		ret = ide_st_rw(bdev, buf, IDE_ST_BUSY_LBA, IDE_ST_BUF_SECTORS, false);
	if (ret)
		goto free;
	resets = ide_st_count(ch, &ch->ch_resets) - resets;
	busy = ide_st_count(ch, &ch->ch_busy) - busy;
	if (resets)
		ret = st_fail("%s: %llu channel resets", d->dr_name, (unsigned long long)resets);
	else if (busy != 1)
		ret = st_fail("%s: %llu commands held for a busy drive, expected 1", d->dr_name,
			      (unsigned long long)busy);
free:
	kfree(buf);
close:
	ide_st_close(bdev);
	return ret;
}
SELFTEST("ide/busy_before_command", test_busy_before_command);

static int test_drq_before_command(void)
{
	const u64 injected = IDE_ST_DRQ_LBA;
	struct block_device *bdev;
	struct ide_drive *d = ide_st_disk(&bdev);
	struct ide_channel *ch;
	u64 resets;
	int st, ret = 0;
	u8 *buf;

	if (!d)
		return 0;
	ch = d->dr_chan;
	buf = kmalloc(IDE_ST_SECTORS * SECTOR_SIZE, GFP_KERNEL);
	if (!buf) {
		ret = st_fail("out of memory");
		goto close;
	}
	resets = ide_st_count(ch, &ch->ch_resets);
	st = ide_st_inject(d, injected, false, buf);
	if (st < 0) {
		ret = st_fail("%s: no DRQ for the injected write (%s)", d->dr_name, errstr(st));
		goto free;
	}
	ret = ide_st_rw(bdev, buf, injected + 1, IDE_ST_SECTORS, true);
	if (!ret)
		ret = ide_st_rw(bdev, buf, injected + 1, IDE_ST_SECTORS, false);
	if (ret)
		goto free;
	resets = ide_st_count(ch, &ch->ch_resets) - resets;
	if (resets != 1)
		ret = st_fail("%s: %llu channel resets, expected 1", d->dr_name,
			      (unsigned long long)resets);
free:
	kfree(buf);
close:
	ide_st_close(bdev);
	return ret;
}
SELFTEST("ide/drq_before_command", test_drq_before_command);
