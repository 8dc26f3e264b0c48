/*
 * PCI configuration space: register offsets and bits, by the names of the
 * PCI Local Bus Specification 3.0, chapter 6 (type 0 and type 1 headers),
 * the PCI-to-PCI Bridge Architecture Specification 1.2 (type 1 header),
 * and configuration mechanism #1 (PCI 3.0 section 3.2.2.3.2).
 * Hardware only: no types, no code.
 */
#ifndef DRIVERS_PCI_PCIREG_H
#define DRIVERS_PCI_PCIREG_H

/* Configuration mechanism #1: two 32-bit I/O ports (PCI 3.0 3.2.2.3.2). */
#define PCI_CONF1_ADDRESS	0xcf8
#define   PCI_CONF1_ENABLE	0x80000000u	/* bit 31: Enable */
#define   PCI_CONF1_BUS_SHIFT	16		/* bits 23:16 Bus Number */
#define   PCI_CONF1_DEV_SHIFT	11		/* bits 15:11 Device Number */
#define   PCI_CONF1_FN_SHIFT	8		/* bits 10:8 Function Number */
#define   PCI_CONF1_REG_MASK	0xfcu		/* bits 7:2 Register Number */
#define PCI_CONF1_DATA		0xcfc

#define PCI_MAX_BUS		256
#define PCI_MAX_DEV		32
#define PCI_MAX_FN		8
#define PCI_CFG_SIZE		256	/* conventional configuration space */

/* Common header, every type (PCI 3.0 6.1, figure 6-1). */
#define PCI_VENDOR_ID		0x00	/* 16 bits; 0xffff: no function here */
#define   PCI_VENDOR_NONE	0xffff
#define PCI_DEVICE_ID		0x02	/* 16 bits */
#define PCI_COMMAND		0x04	/* 16 bits (6.2.2) */
#define   PCI_COMMAND_IO		0x0001	/* I/O Space decode */
#define   PCI_COMMAND_MEMORY		0x0002	/* Memory Space decode */
#define   PCI_COMMAND_MASTER		0x0004	/* Bus Master */
#define   PCI_COMMAND_SPECIAL		0x0008
#define   PCI_COMMAND_INVALIDATE	0x0010
#define   PCI_COMMAND_VGA_PALETTE	0x0020
#define   PCI_COMMAND_PARITY		0x0040
#define   PCI_COMMAND_SERR		0x0100
#define   PCI_COMMAND_FAST_BACK		0x0200
#define   PCI_COMMAND_INTX_DISABLE	0x0400	/* Interrupt Disable (3.0) */
#define PCI_STATUS		0x06	/* 16 bits (6.2.3); error bits are RW1C */
#define   PCI_STATUS_INTERRUPT		0x0008	/* Interrupt Status (3.0) */
#define   PCI_STATUS_CAP_LIST		0x0010	/* Capabilities List */
#define   PCI_STATUS_66MHZ		0x0020
#define   PCI_STATUS_FAST_BACK		0x0080
#define   PCI_STATUS_PARITY		0x0100	/* Master Data Parity Error */
#define   PCI_STATUS_SIG_TARGET_ABORT	0x0800
#define   PCI_STATUS_REC_TARGET_ABORT	0x1000
#define   PCI_STATUS_REC_MASTER_ABORT	0x2000
#define   PCI_STATUS_SIG_SYSTEM_ERROR	0x4000
#define   PCI_STATUS_DETECTED_PARITY	0x8000
#define PCI_REVISION_ID		0x08	/* 8 bits */
#define PCI_CLASS_PROG		0x09	/* 8 bits: Programming Interface */
#define PCI_CLASS_DEVICE	0x0a	/* 8 bits: Sub-Class */
#define PCI_CLASS_CODE		0x0b	/* 8 bits: Base Class (appendix D) */
#define PCI_CACHE_LINE_SIZE	0x0c
#define PCI_LATENCY_TIMER	0x0d
#define PCI_HEADER_TYPE		0x0e	/* 8 bits (6.2.1) */
#define   PCI_HEADER_TYPE_MASK		0x7f
#define   PCI_HEADER_TYPE_NORMAL	0x00
#define   PCI_HEADER_TYPE_BRIDGE	0x01
#define   PCI_HEADER_TYPE_CARDBUS	0x02
#define   PCI_HEADER_TYPE_MULTIFN	0x80	/* bit 7: multi-function device */
#define PCI_BIST		0x0f

/* Type 0 header (PCI 3.0 6.1, 6.2.5). */
#define PCI_BAR0		0x10	/* six 32-bit Base Address registers */
#define PCI_NUM_BARS		6
#define   PCI_BAR_SPACE_IO		0x00000001u	/* bit 0: I/O space */
#define   PCI_BAR_IO_MASK		0xfffffffcu
#define   PCI_BAR_MEM_TYPE_MASK		0x00000006u	/* bits 2:1 */
#define   PCI_BAR_MEM_TYPE_32		0x00000000u
#define   PCI_BAR_MEM_TYPE_1M		0x00000002u	/* below 1 MiB (obsolete) */
#define   PCI_BAR_MEM_TYPE_64		0x00000004u	/* uses the next BAR too */
#define   PCI_BAR_MEM_PREFETCH		0x00000008u	/* bit 3 */
#define   PCI_BAR_MEM_MASK		0xfffffff0u
#define PCI_CARDBUS_CIS		0x28
#define PCI_SUBSYSTEM_VENDOR_ID	0x2c
#define PCI_SUBSYSTEM_ID	0x2e
#define PCI_ROM_ADDRESS		0x30
#define PCI_CAPABILITY_LIST	0x34	/* 8 bits; low two bits reserved */
#define PCI_INTERRUPT_LINE	0x3c	/* 8 bits (6.2.4): written by firmware */
#define   PCI_INTERRUPT_LINE_NONE	0xff	/* "unknown or not connected" */
#define PCI_INTERRUPT_PIN	0x3d	/* 8 bits: 0 none, 1..4 INTA#..INTD# */
#define PCI_MIN_GNT		0x3e
#define PCI_MAX_LAT		0x3f
#define PCI_STD_HEADER_END	0x40	/* capabilities live at or above this */

/* Type 1 header: PCI-to-PCI bridge (Bridge Spec 1.2, 3.2). */
#define PCI_BRIDGE_BAR_COUNT	2
#define PCI_PRIMARY_BUS		0x18
#define PCI_SECONDARY_BUS	0x19
#define PCI_SUBORDINATE_BUS	0x1a
#define PCI_SEC_LATENCY_TIMER	0x1b
#define PCI_IO_BASE		0x1c
#define PCI_IO_LIMIT		0x1d
#define PCI_SEC_STATUS		0x1e
#define PCI_MEMORY_BASE		0x20
#define PCI_MEMORY_LIMIT	0x22
#define PCI_PREF_MEMORY_BASE	0x24
#define PCI_PREF_MEMORY_LIMIT	0x26
#define PCI_PREF_BASE_UPPER32	0x28
#define PCI_PREF_LIMIT_UPPER32	0x2c
#define PCI_IO_BASE_UPPER16	0x30
#define PCI_IO_LIMIT_UPPER16	0x32
#define PCI_BRIDGE_CAP_LIST	0x34
#define PCI_BRIDGE_ROM_ADDRESS	0x38
#define PCI_BRIDGE_CONTROL	0x3e

/* Capability list entries (PCI 3.0 6.7, appendix H). */
#define PCI_CAP_LIST_ID		0	/* 8 bits: capability ID */
#define PCI_CAP_LIST_NEXT	1	/* 8 bits: next pointer, 0 ends */
#define PCI_CAP_ID_PM		0x01	/* Power Management */
#define PCI_CAP_ID_AGP		0x02
#define PCI_CAP_ID_VPD		0x03
#define PCI_CAP_ID_SLOTID	0x04
#define PCI_CAP_ID_MSI		0x05	/* Message Signaled Interrupts */
#define PCI_CAP_ID_PCIX		0x07
#define PCI_CAP_ID_VNDR		0x09	/* vendor specific */
#define PCI_CAP_ID_SATA		0x12	/* SATA Data/Index configuration */
#define PCI_CAP_ID_EXP		0x10	/* PCI Express */
#define PCI_CAP_ID_MSIX		0x11

/* MSI capability structure (PCI 3.0 6.8.1). Offsets from the capability. */
#define PCI_MSI_FLAGS		0x02	/* 16 bits: Message Control (6.8.1.3) */
#define   PCI_MSI_FLAGS_ENABLE		0x0001	/* MSI Enable */
#define   PCI_MSI_FLAGS_QMASK		0x000e	/* Multiple Message Capable */
#define   PCI_MSI_FLAGS_QSIZE		0x0070	/* Multiple Message Enable */
#define   PCI_MSI_FLAGS_64BIT		0x0080	/* 64 bit address capable */
#define   PCI_MSI_FLAGS_MASKBIT		0x0100	/* per-vector masking capable */
#define PCI_MSI_ADDRESS_LO	0x04	/* 32 bits: Message Address */
#define PCI_MSI_ADDRESS_HI	0x08	/* 32 bits, 64-bit capable only */
#define PCI_MSI_DATA_32		0x08	/* 16 bits: Message Data, 32-bit form */
#define PCI_MSI_DATA_64		0x0c	/* 16 bits: Message Data, 64-bit form */
#define PCI_MSI_MASK_32		0x0c	/* 32 bits: Mask Bits, 32-bit form */
#define PCI_MSI_MASK_64		0x10	/* 32 bits: Mask Bits, 64-bit form */

/* MSI-X capability structure (PCI 3.0 6.8.2). Offsets from the capability. */
#define PCI_MSIX_FLAGS		0x02	/* 16 bits: Message Control (6.8.2.3) */
#define   PCI_MSIX_FLAGS_QSIZE		0x07ff	/* Table Size, N - 1 */
#define   PCI_MSIX_FLAGS_MASKALL	0x4000	/* Function Mask */
#define   PCI_MSIX_FLAGS_ENABLE		0x8000	/* MSI-X Enable */
#define PCI_MSIX_TABLE		0x04	/* 32 bits: Table Offset/Table BIR (6.8.2.4) */
#define   PCI_MSIX_TABLE_BIR		0x00000007	/* BAR Indicator Register */
#define   PCI_MSIX_TABLE_OFFSET		0xfffffff8	/* QWORD-aligned offset in that BAR */
#define PCI_MSIX_PBA		0x08	/* 32 bits: PBA Offset/PBA BIR (6.8.2.5) */

/* One MSI-X table entry in the memory BAR (6.8.2.6-6.8.2.9). */
#define PCI_MSIX_ENTRY_SIZE		16
#define PCI_MSIX_ENTRY_ADDR_LO		0x0	/* Message Address */
#define PCI_MSIX_ENTRY_ADDR_HI		0x4	/* Message Upper Address */
#define PCI_MSIX_ENTRY_DATA		0x8	/* Message Data */
#define PCI_MSIX_ENTRY_VECTOR_CTRL	0xc	/* Vector Control */
#define   PCI_MSIX_ENTRY_CTRL_MASKBIT	0x00000001	/* Mask Bit */

/* Base class codes (PCI Code and ID Assignment Specification 1.x). */
#define PCI_CLASS_OLD			0x00
#define PCI_CLASS_STORAGE		0x01
#define   PCI_SUBCLASS_STORAGE_SCSI	0x00
#define   PCI_SUBCLASS_STORAGE_IDE	0x01	/* prog-if below (PCI IDE 1.0) */
#define     PCI_IDE_PROGIF_PRI_NATIVE	0x01	/* primary channel in native mode */
#define     PCI_IDE_PROGIF_PRI_SWITCH	0x02	/* primary mode programmable */
#define     PCI_IDE_PROGIF_SEC_NATIVE	0x04
#define     PCI_IDE_PROGIF_SEC_SWITCH	0x08
#define     PCI_IDE_PROGIF_MASTER	0x80	/* bus-master IDE capable */
#define   PCI_SUBCLASS_STORAGE_ATA	0x05
#define   PCI_SUBCLASS_STORAGE_SATA	0x06
#define     PCI_SATA_PROGIF_AHCI	0x01	/* AHCI 1.0 interface */
#define   PCI_SUBCLASS_STORAGE_NVM	0x08
#define PCI_CLASS_NETWORK		0x02
#define PCI_CLASS_DISPLAY		0x03
#define PCI_CLASS_MULTIMEDIA		0x04
#define PCI_CLASS_MEMORY		0x05
#define PCI_CLASS_BRIDGE		0x06
#define   PCI_SUBCLASS_BRIDGE_HOST	0x00
#define   PCI_SUBCLASS_BRIDGE_ISA	0x01
#define   PCI_SUBCLASS_BRIDGE_PCI	0x04
#define PCI_CLASS_COMMUNICATION		0x07
#define PCI_CLASS_SYSTEM		0x08
#define PCI_CLASS_INPUT			0x09
#define PCI_CLASS_DOCKING		0x0a
#define PCI_CLASS_PROCESSOR		0x0b
#define PCI_CLASS_SERIAL		0x0c
#define PCI_CLASS_WIRELESS		0x0d
#define PCI_CLASS_INTELLIGENT		0x0e
#define PCI_CLASS_SATELLITE		0x0f
#define PCI_CLASS_CRYPT			0x10
#define PCI_CLASS_SIGNAL		0x11
#define PCI_CLASS_ACCELERATOR		0x12
#define PCI_CLASS_NOT_DEFINED		0xff

#endif
