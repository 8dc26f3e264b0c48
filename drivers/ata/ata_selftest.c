/*
 * In-kernel self-test of the shared ATA code against a real (emulated)
 * disk: IDENTIFY DEVICE by PIO on the legacy primary IDE channel
 * (0x1F0/0x3F6), the answer through ata_id_parse(), and one line with
 * what it says, which tests/qemu/hw.sh compares with the size of the
 * image on the host.  Polled, interrupts off at the device (nIEN), every
 * wait bounded: a missing disk or a floating bus is a pass with nothing
 * printed.  Not a driver: it never touches a channel a driver has bound.
 *
 *	ata-selftest: 0x1f0 master: QEMU HARDDISK, 6442450944 sectors of 512 bytes, ...
 */
#include "drivers/ata/ata.h"
#include "drivers/ata/atareg.h"
#include "drivers/ide/idereg.h"
#include "drivers/pci/pci.h"
#include "drivers/pci/pcireg.h"
#include "kernel/errno.h"
#include "kernel/io.h"
#include "kernel/printk.h"
#include "kernel/selftest.h"
#include "kernel/time.h"

#define ATA_ST_WAIT_MS	1000	/* BSY after IDENTIFY; QEMU answers at once */

struct legacy_chan {
	u16	lc_cmd;		/* command block base */
	u16	lc_ctl;		/* control block base */
};

/* Status 400 ns after the last write: four reads of Alternate Status. */
static u8 settle(const struct legacy_chan *c)
{
	int i;

	for (i = 0; i < 4; i++)
		inb(c->lc_ctl + IDE_REG_ALTSTATUS);
	return inb(c->lc_ctl + IDE_REG_ALTSTATUS);
}

/* Wait until BSY clears; the status, or -ETIMEDOUT. */
static int wait_not_busy(const struct legacy_chan *c)
{
	u64 deadline = ktime_ms() + ATA_ST_WAIT_MS;
	u8 st;

	do {
		st = inb(c->lc_ctl + IDE_REG_ALTSTATUS);
		if (!(st & ATA_STATUS_BSY))
			return st;
	} while (ktime_ms() < deadline);
	return -ETIMEDOUT;
}

/* Write a non-data/PIO taskfile's registers, 28-bit form, then the command. */
static void issue(const struct legacy_chan *c, const struct ata_taskfile *tf, u8 dev)
{
	outb(c->lc_cmd + IDE_REG_FEATURE, (u8)tf->tf_feature);
	outb(c->lc_cmd + IDE_REG_COUNT, (u8)tf->tf_count);
	outb(c->lc_cmd + IDE_REG_LBA_LOW, (u8)tf->tf_lba);
	outb(c->lc_cmd + IDE_REG_LBA_MID, (u8)(tf->tf_lba >> 8));
	outb(c->lc_cmd + IDE_REG_LBA_HIGH, (u8)(tf->tf_lba >> 16));
	outb(c->lc_cmd + IDE_REG_DEVICE, tf->tf_device | dev | ATA_DEVICE_OBS);
	outb(c->lc_cmd + IDE_REG_COMMAND, tf->tf_command);
}

/* IDENTIFY the master on c; 0 with *found false when nothing is there. */
static int identify(const struct legacy_chan *c, u16 *id, bool *found)
{
	struct ata_taskfile tf;
	int st;

	*found = false;
	if (inb(c->lc_cmd + IDE_REG_STATUS) == 0xff)
		return 0;			/* floating bus: no drive */
	outb(c->lc_cmd + IDE_REG_DEVICE, ATA_DEVICE_OBS);
	settle(c);
	outb(c->lc_ctl + IDE_REG_DEVCTL, ATA_CTL_NIEN);
	if (wait_not_busy(c) < 0)
		return 0;			/* never became ready: treat as absent */
	ata_identify(&tf, false);
	issue(c, &tf, 0);
	if (settle(c) == 0)
		return 0;			/* no device answers the command */
	st = wait_not_busy(c);
	if (st < 0)
		return st_fail("IDENTIFY: BSY for %u ms", ATA_ST_WAIT_MS);
	if (st & ATA_STATUS_ERR) {
		/*
		 * Aborted: an ATAPI device (it shows its signature), or no
		 * device 0 behind a device 1, whose registers then answer
		 * for both.  Either way there is no ATA disk to parse.
		 */
		return 0;
	}
	if (!(st & ATA_STATUS_DRQ))
		return st_fail("IDENTIFY: no DRQ, status %#x", st);
	insw(c->lc_cmd + IDE_REG_DATA, id, ATA_ID_WORDS);
	inb(c->lc_cmd + IDE_REG_STATUS);	/* acknowledge */
	*found = true;
	return 0;
}

/* Is the primary channel in compatibility mode on some IDE function? */
static bool legacy_primary(void)
{
	struct pci_dev *dev;

	list_for_each_entry(dev, &pci_sys.ph_devices, pd_link)
		if (dev->pd_class == PCI_CLASS_STORAGE &&
		    dev->pd_subclass == PCI_SUBCLASS_STORAGE_IDE &&
		    !(dev->pd_progif & PCI_IDE_PROGIF_PRI_NATIVE) && !dev->pd_driver)
			return true;
	return false;
}

static int test_identify(void)
{
	static const struct legacy_chan pri = { IDE_PRI_CMD_BASE, IDE_PRI_CTL_BASE };
	static u16 id[ATA_ID_WORDS];
	struct ata_id ai;
	bool found;
	int err;

	if (!legacy_primary())
		return 0;
	err = identify(&pri, id, &found);
	if (err || !found)
		return err;
	err = ata_id_parse(id, &ai);
	if (err)
		return st_fail("ata_id_parse: %d", err);
	printk("ata-selftest: 0x1f0 master: %s, %llu sectors of %u bytes, physical %u,"
	       " lba48 %d, flush-ext %d, wcache %d/%d, fua %d, ncq %d, udma %d\n",
	       ai.ai_model, (unsigned long long)ai.ai_sectors, ai.ai_logical_size,
	       ai.ai_physical_size, ai.ai_lba48, ai.ai_flush_ext, ai.ai_wcache,
	       ai.ai_wcache_on, ai.ai_fua, ai.ai_ncq, ai.ai_udma_active);
	return 0;
}
SELFTEST("ata/identify_legacy_ide", test_identify);
