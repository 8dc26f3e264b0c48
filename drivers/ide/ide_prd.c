/*
 * Physical Region Descriptor tables for bus-master IDE DMA, and the
 * reading of a drive's reset signature.  Pure code (no registers, no
 * locks), built into the kernel and into the host unit tests.
 *
 * PRD rules (SFF-8038i rev 1.0, section 1.2, "Physical Region
 * Descriptor"): each entry is a 32-bit physical address with bit 0 clear
 * and a byte count with bit 0 clear, and the region must not cross a
 * 64 KiB boundary; a count of 0 means 64 KiB, which some chipsets
 * (CS5530, per Linux's ide_build_dmatable) get wrong, so a full 64 KiB
 * piece is written as two 32 KiB entries and a count of 0 never appears.
 * The last entry has EOT (bit 15 of its last word) set.  The queue limits
 * ask the block layer for segments that already obey this (boundary
 * 0xFFFF, 64 KiB maximum, bounce above 4 GiB); the builder still checks
 * every rule, because a table that breaks one corrupts memory.
 *
 * The signature (ATA8-ACS 9.12 "Signature and persistence"): after a
 * reset a device leaves Count = 01h, LBA Low = 01h and a type code in
 * LBA Mid/High, which ata_classify() reads for both drivers.  With device 1
 * absent, device 0 answers for it (ATA/ATAPI-7 volume 2): its own
 * registers, so an ATA signature, but Status 00h, which no ready ATA
 * device shows (DRDY is set); Linux's ata_sff_dev_classify applies the
 * same rule.
 */
#include "drivers/ata/atareg.h"
#include "drivers/ide/ide_priv.h"
#include "kernel/errno.h"
#include "lib/byteorder.h"

#define IDE_PRD_ADDR_LIMIT	0x100000000ULL	/* PRD addresses are 32 bits */
#define IDE_PRD_HALF		(IDE_PRD_MAX_BYTES / 2)


int ide_prd_build(struct ide_prd *prd, u32 max, const struct scatterlist *sg, u32 nsg,
		  u32 *total)
{
	u32 i, n = 0, bytes = 0;

	*total = 0;
	if (nsg == 0)
		return -EINVAL;
	for (i = 0; i < nsg; i++) {
		u64 addr = sg[i].sg_addr;
		u32 len = sg[i].sg_len;

		if (len == 0 || (len & 1) || (addr & 1))
			return -EINVAL;
		if (addr >= IDE_PRD_ADDR_LIMIT || len > IDE_PRD_ADDR_LIMIT - addr)
			return -ERANGE;
		while (len) {
			/* Up to the next 64 KiB boundary, and never a full 64 KiB. */
			u32 room = IDE_PRD_BOUNDARY - (u32)(addr & (IDE_PRD_BOUNDARY - 1));
			u32 chunk = min(len, room);

			if (chunk == IDE_PRD_MAX_BYTES)
				chunk = IDE_PRD_HALF;
			if (n == max)
				return -ENOSPC;
			prd[n].prd_addr = cpu_to_le32((u32)addr);
			prd[n].prd_count = cpu_to_le16((u16)chunk);
			prd[n].prd_flags = 0;
			n++;
			addr += chunk;
			len -= chunk;
			bytes += chunk;
		}
	}
	prd[n - 1].prd_flags = cpu_to_le16(IDE_PRD_EOT);
	*total = bytes;
	return (int)n;
}

enum ata_dev_class ide_sig_class(u8 status, u8 count, u8 lba_low, u8 lba_mid, u8 lba_high)
{
	enum ata_dev_class class;

	if (status == IDE_STATUS_FLOATING || (lba_mid == IDE_STATUS_FLOATING && lba_high == IDE_STATUS_FLOATING))
		return ATA_DEV_NONE;
	class = ata_classify(lba_mid, lba_high, status);
	if (class != ATA_DEV_ATA)
		return class;
	if (status == 0)
		return ATA_DEV_NONE;	/* device 0 answering for an absent device 1 */
	return count == 1 && lba_low == 1 ? ATA_DEV_ATA : ATA_DEV_UNKNOWN;
}
