/*
 * Parallel ATA (IDE) controller hardware: the command and control block
 * registers of a channel (ATA/ATAPI-7 volume 2 / ATA8-APT, "I/O register
 * descriptions"), the legacy compatibility-mode addresses and IRQs, and
 * the bus-master IDE registers and Physical Region Descriptor of the
 * "Programming Interface for Bus Master IDE Controller" (SFF-8038i rev 1.0)
 * as the PCI IDE Controller Specification 1.0 places them (BAR4).
 * Register bits are ATA's: drivers/ata/atareg.h.  Hardware only.
 */
#ifndef DRIVERS_IDE_IDEREG_H
#define DRIVERS_IDE_IDEREG_H

#include "kernel/compiler.h"

/*
 * Compatibility ("legacy") mode addresses (PCI IDE 1.0, section 2.1).
 * The control block register sits 2 bytes into a 4-byte block, which is
 * also how native-mode BAR1/BAR3 blocks are laid out.
 */
#define IDE_PRI_CMD_BASE	0x1f0
#define IDE_PRI_CTL_BASE	0x3f4
#define IDE_PRI_IRQ		14
#define IDE_SEC_CMD_BASE	0x170
#define IDE_SEC_CTL_BASE	0x374
#define IDE_SEC_IRQ		15
#define IDE_CMD_BLOCK_SIZE	8
#define IDE_CTL_BLOCK_SIZE	4

/* Native-mode BARs (PCI IDE 1.0, section 2.2). */
#define IDE_PCI_BAR_PRI_CMD	0
#define IDE_PCI_BAR_PRI_CTL	1
#define IDE_PCI_BAR_SEC_CMD	2
#define IDE_PCI_BAR_SEC_CTL	3
#define IDE_PCI_BAR_BMIDE	4	/* bus-master registers, 16 bytes of I/O */

/* Command block registers, offsets from the command base. */
#define IDE_REG_DATA		0	/* 16-bit PIO data */
#define IDE_REG_ERROR		1	/* read */
#define IDE_REG_FEATURE		1	/* write */
#define IDE_REG_COUNT		2	/* Sector Count */
#define IDE_REG_LBA_LOW		3
#define IDE_REG_LBA_MID		4	/* ATAPI signature 14h here */
#define IDE_REG_LBA_HIGH	5	/* ATAPI signature EBh here */
#define IDE_REG_DEVICE		6
#define IDE_REG_STATUS		7	/* read: clears the device's INTRQ */
#define IDE_REG_COMMAND		7	/* write */
#define IDE_STATUS_FLOATING	0xff	/* no device drives the bus: it reads all ones */

/* Control block register, offset from the control block base. */
#define IDE_REG_ALTSTATUS	2	/* read: Status without clearing INTRQ */
#define IDE_REG_DEVCTL		2	/* write: Device Control (ATA_CTL_* bits) */

/*
 * Timings (ATA/ATAPI-7 volume 2 and the reset protocol), for the
 * driver's bounded waits.
 */
#define IDE_SRST_HOLD_US	5	/* SRST asserted at least 5 us */
#define IDE_SRST_SETTLE_MS	2	/* then 2 ms before polling BSY */
#define IDE_BSY_TIMEOUT_MS	31000	/* a spinning-up disk may stay BSY 31 s */
#define IDE_SELECT_DELAY_NS	400	/* Status is valid 400 ns after a write */

/*
 * Bus-master IDE registers (SFF-8038i section 2), offsets from BAR4;
 * the secondary channel's copy starts at +8.
 */
#define IDE_BM_CHANNEL_STRIDE	8
#define IDE_BM_CMD		0	/* Bus Master IDE Command, 8 bits */
#define   IDE_BM_CMD_START		0x01	/* Start/Stop Bus Master */
#define   IDE_BM_CMD_READ		0x08	/* 1: bus master writes memory (disk read) */
#define IDE_BM_STATUS		2	/* Bus Master IDE Status, 8 bits */
#define   IDE_BM_STATUS_ACTIVE		0x01	/* Bus Master IDE Active */
#define   IDE_BM_STATUS_ERROR		0x02	/* Error, RW1C */
#define   IDE_BM_STATUS_IRQ		0x04	/* Interrupt, RW1C */
#define   IDE_BM_STATUS_DMA0		0x20	/* drive 0 DMA capable (firmware's note) */
#define   IDE_BM_STATUS_DMA1		0x40	/* drive 1 DMA capable */
#define   IDE_BM_STATUS_SIMPLEX		0x80	/* one channel at a time only */
#define IDE_BM_PRDT		4	/* Descriptor Table Pointer, 32 bits, dword aligned */

/*
 * Physical Region Descriptor (SFF-8038i section 1.2): a region of
 * physical memory below 4 GiB, even length, not crossing a 64 KiB
 * boundary.  A count of 0 means 64 KiB (some chipsets get that wrong: the
 * driver splits such entries).  The table is dword aligned, must not cross
 * a 64 KiB boundary, and ends with EOT.
 */
struct ide_prd {
	u32	prd_addr;		/* physical address; bit 0 zero */
	u16	prd_count;		/* bytes; bit 0 zero; 0 = 65536 */
	u16	prd_flags;
#define IDE_PRD_EOT		0x8000	/* End Of Table */
} __packed __aligned(4);
_Static_assert(sizeof(struct ide_prd) == 8, "PRD is 2 dwords");
_Static_assert(offsetof(struct ide_prd, prd_count) == 4, "byte count at byte 4");
_Static_assert(offsetof(struct ide_prd, prd_flags) == 6, "EOT word at byte 6");

#define IDE_PRD_BOUNDARY	0x10000		/* entries and the table stay inside 64 KiB */
#define IDE_PRD_MAX_BYTES	0x10000
#define IDE_PRDT_MAX		(IDE_PRD_BOUNDARY / sizeof(struct ide_prd))

/*
 * Intel PIIX/ICH IDE Timing registers in PCI configuration space (PIIX3
 * datasheet, IDETIM): bit 15 enables decode of the channel's legacy ports.
 */
#define IDE_PIIX_IDETIM_PRI	0x40	/* 16 bits */
#define IDE_PIIX_IDETIM_SEC	0x42
#define   IDE_PIIX_IDETIM_DECODE	0x8000

/*
 * Intel ICH IDE Ultra DMA registers (82801AA/ICH through ICH7 datasheets,
 * "IDE Controller Registers (D31:F1)"); drive n is 2 * channel + unit.
 *   SDMA_CNT   bit n: Ultra DMA enabled for drive n
 *   SDMA_TIM   bits 4n+1:4n: cycle time CT/RP; with the base clock of
 *              IDE_CONFIG: 0 UDMA/0, 1 UDMA/1, 2 UDMA/2 at 33 MHz; 1
 *              UDMA/3, 2 UDMA/4 at 66 MHz; 1 UDMA/5 at 100 MHz
 *   IDE_CONFIG bit n: 66 MHz base clock, bit 12+n: 100 MHz (ICH2 on);
 *              bits 5:4 (primary) and 7:6 (secondary): the BIOS found an
 *              80-conductor cable on that channel's drives
 */
#define IDE_ICH_SDMA_CNT	0x48	/* 8 bits */
#define IDE_ICH_SDMA_TIM	0x4a	/* 16 bits */
#define   IDE_ICH_SDMA_TIM_SHIFT(n)	(4 * (n))
#define   IDE_ICH_SDMA_TIM_MASK		0x3
#define IDE_ICH_CONFIG		0x54	/* 16 bits */
#define   IDE_ICH_CONFIG_CLK66(n)	(0x0001 << (n))
#define   IDE_ICH_CONFIG_CLK100(n)	(0x1000 << (n))
#define   IDE_ICH_CONFIG_CBL80(ch)	(0x0030 << (2 * (ch)))

#endif
