/*
 * In-kernel self-test of the shared ATA code against a real (emulated)
 * disk: IDENTIFY DEVICE by PIO on the legacy primary IDE channel
 * (0x1F0/0x3F6), the answer through ata_id_parse(), and one line with
 * what it says, which tests/qemu/hw.sh compares with the size of the
 * image on the host.  Polled through the IDE driver's accessors,
 * interrupts off at the device (nIEN), every wait bounded: a missing disk
 * or a floating bus is a pass with nothing printed.  Not a driver: it
 * never touches a channel a driver has bound.
 *
 *	ata-selftest: 0x1f0 master: QEMU HARDDISK, 6442450944 sectors of 512 bytes, ...
 */
#include "drivers/ata/ata.h"
#include "drivers/ata/atareg.h"
#include "drivers/ide/idevar.h"
#include "drivers/pci/pci.h"
#include "drivers/pci/pcireg.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/selftest.h"

/*
 * IDENTIFY the master of the legacy primary channel, polled through the
 * IDE driver's own accessors (ide_polled_channel, ide_exec_polled); 0
 * with *found false when nothing (or no ATA disk) is there.
 */
static int identify(u16 *id, bool *found)
{
	static struct ide_channel ch;	/* large for a stack */
	struct ata_taskfile tf;
	int err;

	*found = false;
	if (ide_polled_channel(&ch, 0))
		return 0;			/* floating bus: no drive */
	ata_identify(&tf, false);
	err = ide_exec_polled(&ch, 0, &tf, id);
	if (err == -ETIMEDOUT)
		return st_fail("IDENTIFY: BSY for too long");
	if (err) {
		/*
		 * Aborted or no data: an ATAPI device (it shows its
		 * signature), no device at all, or no device 0 behind a
		 * device 1, whose registers then answer for both.  Either
		 * way there is no ATA disk to parse.
		 */
		return 0;
	}
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
	static u16 id[ATA_ID_WORDS];
	struct ata_id ai;
	bool found;
	int err;

	if (!legacy_primary())
		return 0;
	err = identify(id, &found);
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
