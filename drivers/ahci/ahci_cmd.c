/*
 * AHCI command construction, pure: the PRD table a command table carries
 * (AHCI 1.3.1 4.2.3.3), the command header that points at it (4.2.2), the
 * NCQ tag in a prepared command FIS, and the choice error recovery makes
 * between "fail this one" and "find out by issuing one at a time".  No
 * registers, no locks: built and tested on the host
 * (tests/unit/test_ahci_cmd.c).
 *
 * PRD rules the hardware checks even where QEMU does not (AHCI 1.3.1 4.2.3, DBC):
 * the Data Byte Count holds count - 1 and its bit 0 must be 1, i.e. every
 * entry moves an even number of bytes; the Data Base Address is word
 * aligned; one entry moves at most 4 MiB; the upper address dword is
 * written (zero without 64-bit addressing, where an address at or above
 * 4 GiB cannot be described at all).
 */
#include "drivers/ahci/ahci_priv.h"
#include "drivers/ata/atareg.h"
#include "kernel/errno.h"
#include "lib/string.h"

/**
 * ahci_fill_prdt - describe a scatter/gather list in PRD entries
 * @prd: the table; @max_prds: its length
 * @sg, @nsg: the segments, as blk_rq_map_sg produced them
 * @dma64: whether addresses above 4 GiB are allowed
 * @bytes: set to the bytes described
 *
 * Segments longer than AHCI_PRD_MAX_BYTES take several entries.
 * Returns the number of entries used, or -EINVAL for an odd address or
 * length, an empty segment or an address the HBA cannot reach, -E2BIG
 * when the table is too short.
 */
int ahci_fill_prdt(struct ahci_prd *prd, u32 max_prds, const struct scatterlist *sg,
		   u32 nsg, bool dma64, u32 *bytes)
{
	u32 i, n = 0, total = 0, len, chunk;
	dma_addr_t addr;

	for (i = 0; i < nsg; i++) {
		addr = sg[i].sg_addr;
		len = sg[i].sg_len;
		if (!len || (len & 1) || (addr & 1))
			return -EINVAL;
		if (!dma64 && addr + len - 1 > 0xFFFFFFFFULL)
			return -EINVAL;
		while (len) {
			if (n == max_prds)
				return -E2BIG;
			chunk = min(len, (u32)AHCI_PRD_MAX_BYTES);
			prd[n].prd_dba = (u32)addr;
			prd[n].prd_dbau = (u32)(addr >> 32);
			prd[n].prd_rsvd8 = 0;
			prd[n].prd_flags = (chunk - 1) & AHCI_PRD_DBC_MASK;
			addr += chunk;
			len -= chunk;
			total += chunk;
			n++;
		}
	}
	*bytes = total;
	return (int)n;
}

/*
 * Fill a command header for an H2D register FIS command: CFL is the FIS
 * length in dwords (5; real HBAs set a handshake error otherwise), W for
 * host-to-device data, PRDTL entries, PRDBC zeroed for the HBA to count,
 * the table address in both dwords.
 */
void ahci_fill_hdr(struct ahci_cmd_hdr *hdr, dma_addr_t table, u32 prdtl, bool write)
{
	hdr->ch_flags = (SATA_FIS_H2D_DWORDS & AHCI_CMD_HDR_CFL_MASK) |
			(write ? AHCI_CMD_HDR_W : 0) |
			(prdtl << AHCI_CMD_HDR_PRDTL_SHIFT);
	hdr->ch_prdbc = 0;
	hdr->ch_ctba = (u32)table;
	hdr->ch_ctbau = (u32)(table >> 32);
	memset(hdr->ch_rsvd16, 0, sizeof(hdr->ch_rsvd16));
}

/* An FPDMA QUEUED FIS carries its tag in Count 7:3 (SATA 3.x 13.6.4). */
void ahci_fis_set_tag(void *cfis, unsigned tag)
{
	struct sata_fis_h2d *fis = cfis;

	fis->h2d_count = (u8)(tag << 3);
}

/**
 * ahci_eh_pick - which commands a device error costs
 * @outstanding: slots that were issued and had not completed
 * @log_ok: the NCQ error log was read and its checksum holds
 * @log_nq, @log_tag: what it says (NQ: a non-queued command failed)
 * @failed: set to the slot(s) to fail with -EIO
 * @requeue: set to the slots to give back to the block layer
 *
 * Returns 0 when the failing command is known (the log names an
 * outstanding tag, or only one command was out), or -ENOENT when it is
 * not: everything is requeued and the caller must issue those one at a
 * time so that the next error names its command.
 */
int ahci_eh_pick(u32 outstanding, bool log_ok, bool log_nq, unsigned log_tag,
		 u32 *failed, u32 *requeue)
{
	*failed = 0;
	*requeue = outstanding;
	if (log_ok && !log_nq && log_tag < AHCI_MAX_SLOTS &&
	    (outstanding & (1u << log_tag))) {
		*failed = 1u << log_tag;
		*requeue = outstanding & ~*failed;
		return 0;
	}
	if (outstanding && !(outstanding & (outstanding - 1))) {
		*failed = outstanding;
		*requeue = 0;
		return 0;
	}
	return -ENOENT;
}
