/*
 * Configuring an ATA disk, the same way at attach and after every reset,
 * for both drivers (what libata does with ata_dev_revalidate and
 * ata_set_mode after each reset):
 *
 *   revalidate   IDENTIFY again: the same model, serial, capacity and
 *                sector size, or the disk is not the one we were writing
 *                to (swapped, or a device that came back as another) and
 *                the caller must fail it rather than write;
 *   set mode     SET FEATURES - SET TRANSFER MODE (03h) with the mode
 *                chosen at attach (or lowered since): a reset may put the
 *                device back to its default mode while the controller
 *                stays programmed for the old one;
 *   cache        SET FEATURES 82h again if we turned the write cache off;
 *   re-read      IDENTIFY once more, so that struct ata_id shows the mode
 *                and cache state the device now has.
 *
 * The write-cache policy (ata_dev_setup, at attach): a disk with a
 * volatile write cache but neither FLUSH CACHE nor FLUSH CACHE EXT in its
 * command set words would make every flush fail, or -- worse, if we
 * skipped it -- look done while the data sat in the cache.  So the cache
 * is turned off (82h) and the disk runs write-through, with nothing to
 * flush.  If the disk refuses, it keeps the cache and gets FLUSH CACHE
 * anyway (mandatory for ATA disks since ATA/ATAPI-6): a flush is then
 * done when the disk says so and fails when it fails, never reported
 * done on a guess.  The queue's flush flag follows ai_wcache_on.
 *
 * Commands go through the driver's polled ad_exec with the device's
 * interrupt masked.  Also the transfer mode arithmetic both drivers use.
 * Pure code; host-tested with a fake ad_exec.
 */
#include "drivers/ata/ata.h"
#include "drivers/ata/atareg.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/string.h"

/* "UDMA/5", "MWDMA/2", or "PIO" for a negative mode. */
void ata_xfer_name(int mode, char *buf, size_t size)
{
	if (mode >= 0 && (mode & ATA_XFER_TYPE_MASK) == ATA_XFER_UDMA)
		snprintf(buf, size, "UDMA/%d", mode & ATA_XFER_MODE_MASK);
	else if (mode >= 0 && (mode & ATA_XFER_TYPE_MASK) == ATA_XFER_MWDMA)
		snprintf(buf, size, "MWDMA/%d", mode & ATA_XFER_MODE_MASK);
	else
		snprintf(buf, size, "PIO");
}

/* The DMA mode IDENTIFY says is selected (words 63, 88), or -1 for none. */
int ata_xfer_active(const struct ata_id *ai)
{
	if (ai->ai_udma_active >= 0)
		return ATA_XFER_UDMA | ai->ai_udma_active;
	if (ai->ai_mwdma_active >= 0)
		return ATA_XFER_MWDMA | ai->ai_mwdma_active;
	return -1;
}

/**
 * ata_xfer_down - the next slower DMA mode (libata's ata_down_xfermask_limit
 * with ATA_DNXFER_DMA: the fastest mode left is taken away)
 * @ai: the disk; @mode: its mode now; @host_mwdma: MWDMA modes the
 *	controller can be set to (0: none, Ultra DMA goes straight to PIO)
 *
 * UDMA n goes to UDMA n-1, UDMA 0 to the best common multiword mode,
 * MWDMA n to MWDMA n-1.  Returns the new Count value, or -EOPNOTSUPP when
 * only PIO is left.
 */
int ata_xfer_down(const struct ata_id *ai, int mode, u8 host_mwdma)
{
	int n = mode & ATA_XFER_MODE_MASK;

	if (mode < 0)
		return -EOPNOTSUPP;
	if ((mode & ATA_XFER_TYPE_MASK) == ATA_XFER_UDMA)
		return n ? ATA_XFER_UDMA | (n - 1) : ata_xfer_mode(ai, 0, host_mwdma);
	if ((mode & ATA_XFER_TYPE_MASK) == ATA_XFER_MWDMA && n)
		return ATA_XFER_MWDMA | (n - 1);
	return -EOPNOTSUPP;
}

/* The fields that make a disk this disk (libata's ata_dev_same_device). */
bool ata_id_same_device(const struct ata_id *a, const struct ata_id *b)
{
	return !strcmp(a->ai_model, b->ai_model) && !strcmp(a->ai_serial, b->ai_serial) &&
	       a->ai_sectors == b->ai_sectors && a->ai_logical_size == b->ai_logical_size;
}

/* IDENTIFY DEVICE, parsed into *ai.  0, or ad_exec's or ata_id_parse's -errno. */
int ata_dev_identify(struct ata_dev *ad, struct ata_id *ai)
{
	u16 id[ATA_ID_WORDS];
	struct ata_taskfile tf;
	int err;

	ata_identify(&tf, false);
	err = ad->ad_exec(ad, &tf, id);
	if (err)
		return err;
	return ata_id_parse(id, ai);
}

static int ata_dev_set_feature(struct ata_dev *ad, u8 subcmd, u8 count)
{
	struct ata_taskfile tf;

	ata_set_features(&tf, subcmd, count);
	return ad->ad_exec(ad, &tf, NULL);
}

/*
 * Tell the device its transfer mode and cache setting, then read back
 * what it says about itself into *now and, when it is still the device
 * of *ai, into *ai too.  A mode the device refuses is reported and
 * dropped (ad_xfer -1: the driver falls back to PIO), unless
 * ad_xfer_optional.  Returns 0, -ENODEV for another device (*now says
 * which), or the error of a command that failed.
 */
static int ata_dev_apply(struct ata_dev *ad, struct ata_id *ai, struct ata_id *now)
{
	char mode[16];
	int err;

	if (ad->ad_xfer >= 0) {
		err = ata_dev_set_feature(ad, ATA_SF_SET_XFER_MODE, (u8)ad->ad_xfer);
		if (err == -ETIMEDOUT)
			return err;
		if (err && !ad->ad_xfer_optional) {
			ata_xfer_name(ad->ad_xfer, mode, sizeof(mode));
			pr_warn("%s: device refuses %s (%s): using PIO\n", ad->ad_name, mode,
				errstr(err));
			ad->ad_xfer = -1;
		}
	}
	if (ad->ad_wcache_off) {
		err = ata_dev_set_feature(ad, ATA_SF_DISABLE_WCACHE, 0);
		if (err)
			return err;
	}
	err = ata_dev_identify(ad, now);
	if (err)
		return err;
	if (!ata_id_same_device(ai, now))
		return -ENODEV;
	*ai = *now;
	return 0;
}

/**
 * ata_dev_setup - configure a disk at attach
 * @ad: ad_exec, ad_name, ad_xfer (the mode to select, -1 for none) and
 *	ad_xfer_optional set by the driver; ad_wcache_off is decided here
 * @ai: what IDENTIFY said; updated to what the disk says afterwards
 *
 * Warns about a bad IDENTIFY checksum, applies the write-cache policy of
 * the header comment and selects the mode.  Returns 0 (ad_xfer may have
 * dropped to -1: use PIO) or a negative errno when the disk stopped
 * answering (the driver reports it and skips the disk).
 */
int ata_dev_setup(struct ata_dev *ad, struct ata_id *ai)
{
	bool no_flush = ai->ai_wcache_on && !ai->ai_flush && !ai->ai_flush_ext;
	struct ata_id now;
	int err;

	if (ai->ai_csum_bad)
		pr_warn("%s: IDENTIFY data fails its checksum (word 255): used anyway\n",
			ad->ad_name);
	ad->ad_wcache_off = no_flush;
	err = ata_dev_apply(ad, ai, &now);
	if (err && no_flush && err != -ETIMEDOUT && err != -ENODEV) {
		/* 82h refused: keep the cache, flush it with FLUSH CACHE. */
		ad->ad_wcache_off = false;
		err = ata_dev_apply(ad, ai, &now);
	}
	if (err)
		return err;
	if (no_flush && ai->ai_wcache_on)
		pr_warn("%s: write cache on, no FLUSH CACHE listed, and it stays on:"
			" flushing with FLUSH CACHE anyway\n", ad->ad_name);
	else if (no_flush)
		pr_info("%s: write cache turned off (no FLUSH CACHE listed): write-through\n",
			ad->ad_name);
	return 0;
}

/**
 * ata_dev_revalidate - after a reset: the same disk?  Then its settings again.
 * @ad: as ata_dev_setup left it; @ai: the disk's IDENTIFY, updated
 *
 * Returns 0; -ENODEV when another device (or a different capacity)
 * answers, to the first IDENTIFY or to the one after the settings,
 * reported here with what answered and what was expected: the caller
 * must fail the disk and not write to it; or the error of a command that
 * failed (the caller's to report).
 */
int ata_dev_revalidate(struct ata_dev *ad, struct ata_id *ai)
{
	struct ata_id now;
	int err;

	err = ata_dev_identify(ad, &now);
	if (!err && !ata_id_same_device(ai, &now))
		err = -ENODEV;
	if (!err)
		err = ata_dev_apply(ad, ai, &now);
	if (err == -ENODEV)
		pr_err("%s: another device answers after the reset: \"%s\" serial \"%s\","
		       " %llu sectors of %u bytes, not \"%s\" serial \"%s\", %llu of %u:"
		       " disk failed\n",
		       ad->ad_name, now.ai_model, now.ai_serial, (unsigned long long)now.ai_sectors,
		       now.ai_logical_size, ai->ai_model, ai->ai_serial,
		       (unsigned long long)ai->ai_sectors, ai->ai_logical_size);
	return err;
}
