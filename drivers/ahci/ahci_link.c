/*
 * The SATA link's health, for error recovery (ahci_eh.c): whether a
 * recovery was caused by the link, and the slower speed that repeated
 * link errors earn.  A marginal cable, connector or backplane shows as
 * interface errors (PxIS.IFS/INFS), CRC and handshake errors in PxSERR,
 * or ICRC in the device's Error register; such links often work at a
 * lower generation, so, as libata's speed-down does, a second link error
 * within AHCI_LINK_ERR_WINDOW_MS limits the link (PxSCTL.SPD, SATA 3.x
 * section 14.2.2; AHCI 1.3.1 section 3.3.11) one step below the speed it
 * runs at, from the next COMRESET on.  Pure: register values in,
 * decisions out.
 */
#include "drivers/ahci/ahci_priv.h"
#include "drivers/ata/atareg.h"

bool ahci_link_error(u32 is, u32 serr, u32 tfd)
{
	u8 error = (u8)((tfd & AHCI_PREG_TFD_ERR_MASK) >> AHCI_PREG_TFD_ERR_SHIFT);

	return (is & (AHCI_PREG_IS_IFS | AHCI_PREG_IS_INFS)) ||
	       (serr & AHCI_PREG_SERR_LINK) ||
	       ((tfd & ATA_STATUS_ERR) && (error & ATA_ERROR_ICRC));
}

u32 ahci_link_slower(u32 ssts, u32 limit)
{
	u32 cur = (ssts & AHCI_PREG_SSTS_SPD_MASK) >> AHCI_PREG_SSTS_SPD_SHIFT;

	if (!cur || (limit && limit < cur))
		cur = limit;	/* not up, or already held lower: step from the limit */
	return cur > 1 ? cur - 1 : 0;
}

const char *ahci_link_speed_name(u32 spd)
{
	static const char *const names[] = { "unknown speed", "1.5 Gbps", "3.0 Gbps", "6.0 Gbps" };

	return spd < ARRAY_SIZE(names) ? names[spd] : "unknown speed";
}
