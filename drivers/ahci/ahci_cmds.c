/*
 * The AHCI driver's shell commands.
 *
 *	ahcireset DISK port|hba|link [DELAY_MS]
 *
 * Has recovery run on an AHCI disk as if the hardware had asked for it:
 * a COMRESET of its port, a reset of the whole HBA, or the recovery of an
 * interface (link) error, now or DELAY_MS milliseconds later (so that it
 * meets I/O started meanwhile).  Tests use it to drive the error handler
 * (tests/qemu/ahci-reset.sh, ahci-link).
 *
 * Layer: a shell command over the driver's contract (ahcivar.h,
 * ahci_eh_force); the recovery itself is ahci_eh.c's.
 */
#include "block/blkdev.h"
#include "drivers/ahci/ahcivar.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/shell.h"
#include "lib/string.h"

static int cmd_ahcireset(int argc, char **argv)
{
	u64 ms = 0;
	u32 force;

	if (argc < 3 || argc > 4 || (argc > 3 && str_to_u64(argv[3], &ms, false)))
		return -EINVAL;
	if (!strcmp(argv[2], "port"))
		force = AHCI_EH_FORCE_PORT;
	else if (!strcmp(argv[2], "hba"))
		force = AHCI_EH_FORCE_HBA;
	else if (!strcmp(argv[2], "link"))
		force = AHCI_EH_FORCE_LINK;
	else
		return -EINVAL;
	if (ahci_eh_force(blk_queue_find(argv[1]), force, (u32)ms)) {
		printk("ahcireset: %s is not an AHCI disk\n", argv[1]);
		return -ECANCELED;
	}
	return 0;
}
SHELL_COMMAND("ahcireset", cmd_ahcireset, "ahcireset DISK port|hba|link [DELAY_MS]",
	      "reset an AHCI disk's port (COMRESET) or its whole HBA, or recover as from a link error, now or after a delay");
