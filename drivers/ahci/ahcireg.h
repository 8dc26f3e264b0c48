/*
 * AHCI 1.3.1 hardware: the generic host control registers (section 3.1),
 * the per-port registers (3.3), and the memory structures the HBA reads
 * and writes by DMA: command list and command header (4.2.2), command
 * table with its PRD entries (4.2.3), received-FIS area (4.2.1).
 * Register bits sit under their register, by the specification's names.
 * Hardware only: no driver state, no code.
 *
 * The FIS layouts themselves are SATA's: drivers/ata/satafis.h.
 */
#ifndef DRIVERS_AHCI_AHCIREG_H
#define DRIVERS_AHCI_AHCIREG_H

#include "kernel/compiler.h"
#include "drivers/ata/satafis.h"

#define AHCI_PCI_ABAR		5	/* AHCI Base Address: BAR5 (2.1.11) */
#define AHCI_PCI_INTEL_PCS	0x92	/* Intel ICH/PCH Port Control and Status: port enables */
#define   AHCI_PCI_INTEL_PCS_PE_MASK	0x003f	/* P0E-P5E: port n enabled (bits 5:0) */

#define AHCI_MAX_PORTS		32
#define AHCI_MAX_SLOTS		32

/* Generic host control (3.1), offsets from ABAR. */
#define AHCI_REG_CAP		0x00	/* HBA Capabilities (3.1.1) */
#define   AHCI_REG_CAP_NP_MASK		0x0000001f	/* Number of Ports - 1 */
#define   AHCI_REG_CAP_SXS		0x00000020	/* External SATA */
#define   AHCI_REG_CAP_EMS		0x00000040	/* Enclosure Management */
#define   AHCI_REG_CAP_CCCS		0x00000080	/* Command Completion Coalescing */
#define   AHCI_REG_CAP_NCS_MASK		0x00001f00	/* Number of Command Slots - 1 */
#define   AHCI_REG_CAP_NCS_SHIFT	8
#define   AHCI_REG_CAP_PSC		0x00002000	/* Partial State Capable */
#define   AHCI_REG_CAP_SSC		0x00004000	/* Slumber State Capable */
#define   AHCI_REG_CAP_PMD		0x00008000	/* PIO Multiple DRQ Block */
#define   AHCI_REG_CAP_FBSS		0x00010000	/* FIS-based Switching */
#define   AHCI_REG_CAP_SPM		0x00020000	/* Port Multiplier */
#define   AHCI_REG_CAP_SAM		0x00040000	/* AHCI mode only */
#define   AHCI_REG_CAP_ISS_MASK		0x00f00000	/* Interface Speed Support */
#define   AHCI_REG_CAP_ISS_SHIFT	20
#define   AHCI_REG_CAP_SCLO		0x01000000	/* Command List Override */
#define   AHCI_REG_CAP_SAL		0x02000000	/* Activity LED */
#define   AHCI_REG_CAP_SALP		0x04000000	/* Aggressive Link Power Mgmt */
#define   AHCI_REG_CAP_SSS		0x08000000	/* Staggered Spin-up */
#define   AHCI_REG_CAP_SMPS		0x10000000	/* Mechanical Presence Switch */
#define   AHCI_REG_CAP_SSNTF		0x20000000	/* SNotification register */
#define   AHCI_REG_CAP_SNCQ		0x40000000	/* Native Command Queuing */
#define   AHCI_REG_CAP_S64A		0x80000000	/* 64-bit Addressing */
#define AHCI_REG_GHC		0x04	/* Global HBA Control (3.1.2) */
#define   AHCI_REG_GHC_HR		0x00000001	/* HBA Reset (self-clearing) */
#define   AHCI_REG_GHC_IE		0x00000002	/* Interrupt Enable */
#define   AHCI_REG_GHC_MRSM		0x00000004	/* MSI Revert to Single Message */
#define   AHCI_REG_GHC_AE		0x80000000	/* AHCI Enable */
#define AHCI_REG_IS		0x08	/* Interrupt Status: bit n = port n, RW1C (3.1.3) */
#define AHCI_REG_PI		0x0c	/* Ports Implemented (3.1.4) */
#define AHCI_REG_VS		0x10	/* Version: major 31:16, minor 15:0 (3.1.5) */
#define   AHCI_REG_VS_1_2		0x00010200	/* 1.2: first with CAP2 and BOHC (3.1.10) */
#define   AHCI_REG_VS_NONE		0xffffffff	/* all ones: no HBA answers at ABAR */
#define AHCI_REG_CCC_CTL	0x14	/* Command Completion Coalescing Control (3.1.6) */
#define AHCI_REG_CCC_PORTS	0x18	/* (3.1.7) */
#define AHCI_REG_EM_LOC		0x1c	/* Enclosure Management Location (3.1.8) */
#define AHCI_REG_EM_CTL		0x20	/* (3.1.9) */
#define AHCI_REG_CAP2		0x24	/* HBA Capabilities Extended (3.1.10) */
#define   AHCI_REG_CAP2_BOH		0x00000001	/* BIOS/OS Handoff */
#define   AHCI_REG_CAP2_NVMP		0x00000002	/* NVMHCI Present */
#define   AHCI_REG_CAP2_APST		0x00000004	/* Automatic Partial to Slumber */
#define   AHCI_REG_CAP2_SDS		0x00000008	/* Device Sleep */
#define   AHCI_REG_CAP2_SADM		0x00000010	/* Aggressive Device Sleep Mgmt */
#define   AHCI_REG_CAP2_DESO		0x00000020	/* DevSleep Entrance from Slumber Only */
#define AHCI_REG_BOHC		0x28	/* BIOS/OS Handoff Control and Status (3.1.11) */
#define   AHCI_REG_BOHC_BOS		0x00000001	/* BIOS Owned Semaphore */
#define   AHCI_REG_BOHC_OOS		0x00000002	/* OS Owned Semaphore */
#define   AHCI_REG_BOHC_SOOE		0x00000004	/* SMI on OS Ownership Change Enable */
#define   AHCI_REG_BOHC_OOC		0x00000008	/* OS Ownership Change (RW1C) */
#define   AHCI_REG_BOHC_BB		0x00000010	/* BIOS Busy */

/* Port registers (3.3): port n at ABAR + 0x100 + n * 0x80. */
#define AHCI_PORT_BASE		0x100
#define AHCI_PORT_SIZE		0x80
#define AHCI_PORT_OFFSET(n)	(AHCI_PORT_BASE + (n) * AHCI_PORT_SIZE)
#define AHCI_ABAR_MIN_SIZE(np)	(AHCI_PORT_OFFSET(np))	/* bytes to map for np ports */

#define AHCI_PREG_CLB		0x00	/* Command List Base, 1 KiB aligned (3.3.1) */
#define AHCI_PREG_CLBU		0x04	/* upper 32 bits, CAP.S64A only (3.3.2) */
#define AHCI_PREG_FB		0x08	/* FIS Base, 256-byte aligned (3.3.3) */
#define AHCI_PREG_FBU		0x0c	/* (3.3.4) */
#define AHCI_PREG_IS		0x10	/* Interrupt Status, RW1C (3.3.5) */
#define   AHCI_PREG_IS_DHRS		0x00000001	/* D2H Register FIS received */
#define   AHCI_PREG_IS_PSS		0x00000002	/* PIO Setup FIS received */
#define   AHCI_PREG_IS_DSS		0x00000004	/* DMA Setup FIS received */
#define   AHCI_PREG_IS_SDBS		0x00000008	/* Set Device Bits FIS received */
#define   AHCI_PREG_IS_UFS		0x00000010	/* Unknown FIS */
#define   AHCI_PREG_IS_DPS		0x00000020	/* Descriptor Processed (PRD I bit) */
#define   AHCI_PREG_IS_PCS		0x00000040	/* Port Connect Change */
#define   AHCI_PREG_IS_DMPS		0x00000080	/* Device Mechanical Presence */
#define   AHCI_PREG_IS_PRCS		0x00400000	/* PhyRdy Change */
#define   AHCI_PREG_IS_IPMS		0x00800000	/* Incorrect Port Multiplier */
#define   AHCI_PREG_IS_OFS		0x01000000	/* Overflow */
#define   AHCI_PREG_IS_INFS		0x04000000	/* Interface Non-fatal Error */
#define   AHCI_PREG_IS_IFS		0x08000000	/* Interface Fatal Error */
#define   AHCI_PREG_IS_HBDS		0x10000000	/* Host Bus Data Error */
#define   AHCI_PREG_IS_HBFS		0x20000000	/* Host Bus Fatal Error */
#define   AHCI_PREG_IS_TFES		0x40000000	/* Task File Error */
#define   AHCI_PREG_IS_CPDS		0x80000000	/* Cold Port Detect */
#define   AHCI_PREG_IS_FATAL		(AHCI_PREG_IS_TFES | AHCI_PREG_IS_HBFS | \
					 AHCI_PREG_IS_HBDS | AHCI_PREG_IS_IFS)
#define   AHCI_PREG_IS_ERRORS		(AHCI_PREG_IS_FATAL | AHCI_PREG_IS_INFS | \
					 AHCI_PREG_IS_OFS | AHCI_PREG_IS_IPMS | \
					 AHCI_PREG_IS_UFS)
#define AHCI_PREG_IE		0x14	/* Interrupt Enable: the PxIS bits (3.3.6) */
#define AHCI_PREG_CMD		0x18	/* Command and Status (3.3.7) */
#define   AHCI_PREG_CMD_ST		0x00000001	/* Start */
#define   AHCI_PREG_CMD_SUD		0x00000002	/* Spin-Up Device */
#define   AHCI_PREG_CMD_POD		0x00000004	/* Power On Device */
#define   AHCI_PREG_CMD_CLO		0x00000008	/* Command List Override */
#define   AHCI_PREG_CMD_FRE		0x00000010	/* FIS Receive Enable */
#define   AHCI_PREG_CMD_CCS_MASK	0x00001f00	/* Current Command Slot */
#define   AHCI_PREG_CMD_MPSS		0x00002000	/* Mechanical Presence Switch State */
#define   AHCI_PREG_CMD_FR		0x00004000	/* FIS Receive Running */
#define   AHCI_PREG_CMD_CR		0x00008000	/* Command List Running */
#define   AHCI_PREG_CMD_CPS		0x00010000	/* Cold Presence State */
#define   AHCI_PREG_CMD_PMA		0x00020000	/* Port Multiplier Attached */
#define   AHCI_PREG_CMD_HPCP		0x00040000	/* Hot Plug Capable Port */
#define   AHCI_PREG_CMD_MPSP		0x00080000	/* Mechanical Presence Switch attached */
#define   AHCI_PREG_CMD_CPD		0x00100000	/* Cold Presence Detection */
#define   AHCI_PREG_CMD_ESP		0x00200000	/* External SATA Port */
#define   AHCI_PREG_CMD_FBSCP		0x00400000	/* FIS-based Switching Capable Port */
#define   AHCI_PREG_CMD_APSTE		0x00800000	/* Automatic Partial to Slumber */
#define   AHCI_PREG_CMD_ATAPI		0x01000000	/* Device is ATAPI */
#define   AHCI_PREG_CMD_DLAE		0x02000000	/* Drive LED on ATAPI Enable */
#define   AHCI_PREG_CMD_ALPE		0x04000000	/* Aggressive Link PM Enable */
#define   AHCI_PREG_CMD_ASP		0x08000000	/* Aggressive Slumber / Partial */
#define   AHCI_PREG_CMD_ICC_MASK	0xf0000000	/* Interface Communication Control */
#define   AHCI_PREG_CMD_ICC_ACTIVE	0x10000000
#define   AHCI_PREG_CMD_ICC_PARTIAL	0x20000000
#define   AHCI_PREG_CMD_ICC_SLUMBER	0x60000000
#define   AHCI_PREG_CMD_ICC_DEVSLEEP	0x80000000
#define AHCI_PREG_TFD		0x20	/* Task File Data (3.3.8) */
#define   AHCI_PREG_TFD_STS_MASK	0x000000ff	/* ATA Status (atareg.h bits) */
#define   AHCI_PREG_TFD_ERR_MASK	0x0000ff00	/* ATA Error */
#define   AHCI_PREG_TFD_ERR_SHIFT	8
#define AHCI_PREG_SIG		0x24	/* Signature from the first D2H FIS (3.3.9) */
#define   AHCI_SIG_ATA			0x00000101
#define   AHCI_SIG_ATAPI		0xeb140101
#define   AHCI_SIG_SEMB			0xc33c0101	/* enclosure management bridge */
#define   AHCI_SIG_PM			0x96690101	/* port multiplier */
#define AHCI_PREG_SSTS		0x28	/* SATA Status, SCR0 SStatus (3.3.10) */
#define   AHCI_PREG_SSTS_DET_MASK	0x0000000f	/* Device Detection */
#define   AHCI_PREG_SSTS_DET_NONE	0x0
#define   AHCI_PREG_SSTS_DET_NOPHY	0x1	/* device present, no PHY communication */
#define   AHCI_PREG_SSTS_DET_PHY	0x3	/* device present and PHY up */
#define   AHCI_PREG_SSTS_DET_OFFLINE	0x4	/* PHY offline or loopback */
#define   AHCI_PREG_SSTS_SPD_MASK	0x000000f0	/* Current Interface Speed */
#define   AHCI_PREG_SSTS_SPD_SHIFT	4
#define   AHCI_PREG_SSTS_IPM_MASK	0x00000f00	/* Interface Power Management */
#define   AHCI_PREG_SSTS_IPM_ACTIVE	0x00000100
#define AHCI_PREG_SCTL		0x2c	/* SATA Control, SCR2 SControl (3.3.11) */
#define   AHCI_PREG_SCTL_DET_MASK	0x0000000f
#define   AHCI_PREG_SCTL_DET_NONE	0x0	/* no action */
#define   AHCI_PREG_SCTL_DET_INIT	0x1	/* COMRESET while set */
#define   AHCI_PREG_SCTL_DET_DISABLE	0x4
#define   AHCI_PREG_SCTL_SPD_MASK	0x000000f0	/* speed limit, 0 = none */
#define   AHCI_PREG_SCTL_SPD_SHIFT	4
#define   AHCI_PREG_SCTL_IPM_MASK	0x00000f00	/* transitions not allowed */
#define   AHCI_PREG_SCTL_IPM_NOPARTIAL	0x00000100
#define   AHCI_PREG_SCTL_IPM_NOSLUMBER	0x00000200
#define   AHCI_PREG_SCTL_IPM_NODEVSLP	0x00000400
#define AHCI_PREG_SERR		0x30	/* SATA Error, SCR1 SError, RW1C (3.3.12) */
#define   AHCI_PREG_SERR_ERR_I		0x00000001	/* Recovered Data Integrity */
#define   AHCI_PREG_SERR_ERR_M		0x00000002	/* Recovered Communications */
#define   AHCI_PREG_SERR_ERR_T		0x00000100	/* Transient Data Integrity */
#define   AHCI_PREG_SERR_ERR_C		0x00000200	/* Persistent Communication */
#define   AHCI_PREG_SERR_ERR_P		0x00000400	/* Protocol */
#define   AHCI_PREG_SERR_ERR_E		0x00000800	/* Internal */
#define   AHCI_PREG_SERR_DIAG_N		0x00010000	/* PhyRdy Change */
#define   AHCI_PREG_SERR_DIAG_I		0x00020000	/* Phy Internal */
#define   AHCI_PREG_SERR_DIAG_W		0x00040000	/* Comm Wake */
#define   AHCI_PREG_SERR_DIAG_B		0x00080000	/* 10B to 8B Decode */
#define   AHCI_PREG_SERR_DIAG_D		0x00100000	/* Disparity (unused) */
#define   AHCI_PREG_SERR_DIAG_C		0x00200000	/* CRC */
#define   AHCI_PREG_SERR_DIAG_H		0x00400000	/* Handshake (bad CFL shows here) */
#define   AHCI_PREG_SERR_DIAG_S		0x00800000	/* Link Sequence */
#define   AHCI_PREG_SERR_DIAG_T		0x01000000	/* Transport state transition */
#define   AHCI_PREG_SERR_DIAG_F		0x02000000	/* Unknown FIS Type */
#define   AHCI_PREG_SERR_DIAG_X		0x04000000	/* Exchanged (device changed) */
/* What a bad link leaves in SError: data and communication errors, 10b8b, CRC, handshake */
#define   AHCI_PREG_SERR_LINK		(AHCI_PREG_SERR_ERR_T | AHCI_PREG_SERR_ERR_C | \
					 AHCI_PREG_SERR_DIAG_B | AHCI_PREG_SERR_DIAG_C | \
					 AHCI_PREG_SERR_DIAG_H)
#define AHCI_PREG_SACT		0x34	/* SATA Active, SCR3: NCQ tags outstanding (3.3.13) */
#define AHCI_PREG_CI		0x38	/* Command Issue: slots outstanding (3.3.14) */
#define AHCI_PREG_SNTF		0x3c	/* SATA Notification, SCR4 (3.3.15) */
#define AHCI_PREG_FBS		0x40	/* FIS-based Switching Control (3.3.16) */
#define   AHCI_PREG_FBS_EN		0x00000001
#define   AHCI_PREG_FBS_DEC		0x00000002
#define   AHCI_PREG_FBS_SDE		0x00000004
#define AHCI_PREG_DEVSLP	0x44	/* Device Sleep (3.3.17) */

/*
 * Command header (4.2.2): one per slot, 32 per command list; the list is
 * 1 KiB and 1 KiB aligned.
 */
struct ahci_cmd_hdr {
	u32	ch_flags;
#define AHCI_CMD_HDR_CFL_MASK		0x0000001f	/* Command FIS Length, dwords (2..16) */
#define AHCI_CMD_HDR_A			0x00000020	/* ATAPI */
#define AHCI_CMD_HDR_W			0x00000040	/* Write: host to device */
#define AHCI_CMD_HDR_P			0x00000080	/* Prefetchable */
#define AHCI_CMD_HDR_R			0x00000100	/* Reset (soft reset sequence) */
#define AHCI_CMD_HDR_B			0x00000200	/* BIST */
#define AHCI_CMD_HDR_C			0x00000400	/* Clear Busy upon R_OK */
#define AHCI_CMD_HDR_PMP_MASK		0x0000f000	/* Port Multiplier Port */
#define AHCI_CMD_HDR_PMP_SHIFT		12
#define AHCI_CMD_HDR_PRDTL_SHIFT	16		/* PRD Table Length, entries */
	u32	ch_prdbc;		/* PRD Byte Count transferred, written by the HBA */
	u32	ch_ctba;		/* Command Table Base, 128-byte aligned */
	u32	ch_ctbau;		/* upper 32 bits, CAP.S64A only */
	u32	ch_rsvd16[4];
} __packed __aligned(8);
_Static_assert(sizeof(struct ahci_cmd_hdr) == 32, "command header is 8 dwords");
_Static_assert(offsetof(struct ahci_cmd_hdr, ch_prdbc) == 4, "PRDBC at DW1");
_Static_assert(offsetof(struct ahci_cmd_hdr, ch_ctba) == 8, "CTBA at DW2");
_Static_assert(offsetof(struct ahci_cmd_hdr, ch_ctbau) == 12, "CTBAU at DW3");

#define AHCI_CMD_LIST_SIZE	(AHCI_MAX_SLOTS * sizeof(struct ahci_cmd_hdr))
#define AHCI_CMD_LIST_ALIGN	1024

/* Physical Region Descriptor entry (4.2.3.3). */
struct ahci_prd {
	u32	prd_dba;		/* Data Base Address; bit 0 reserved: word aligned */
	u32	prd_dbau;		/* upper 32 bits */
	u32	prd_rsvd8;
	u32	prd_flags;
#define AHCI_PRD_DBC_MASK		0x003fffff	/* byte count - 1; bit 0 always 1 */
#define AHCI_PRD_I			0x80000000	/* Interrupt on completion */
} __packed __aligned(8);
_Static_assert(sizeof(struct ahci_prd) == 16, "PRD entry is 4 dwords");
_Static_assert(offsetof(struct ahci_prd, prd_flags) == 12, "DBC at DW3");

#define AHCI_PRD_MAX_BYTES	(4 * 1024 * 1024)	/* one entry moves at most 4 MiB */

/*
 * Command table (4.2.3): command FIS, ATAPI command, then the PRD table.
 * 128-byte aligned.  AHCI_CMD_TABLE_PRDS is our choice of table length;
 * the hardware allows up to 65535 entries.
 */
#define AHCI_CMD_TABLE_PRDS	56	/* 128 + 56 * 16 = 1 KiB per table */
#define AHCI_CMD_TABLE_ALIGN	128

struct ahci_cmd_table {
	u8		ct_cfis[64];		/* Command FIS (an H2D FIS, 20 bytes used) */
	u8		ct_acmd[16];		/* ATAPI command, 12 or 16 bytes */
	u8		ct_rsvd80[48];
	struct ahci_prd	ct_prdt[AHCI_CMD_TABLE_PRDS];
} __packed __aligned(128);
_Static_assert(offsetof(struct ahci_cmd_table, ct_acmd) == 0x40, "ACMD at 40h");
_Static_assert(offsetof(struct ahci_cmd_table, ct_prdt) == 0x80, "PRDT at 80h");
_Static_assert(sizeof(struct ahci_cmd_table) == 0x80 + 16 * AHCI_CMD_TABLE_PRDS,
	       "command table size");
_Static_assert(sizeof(struct sata_fis_h2d) <= sizeof(((struct ahci_cmd_table *)0)->ct_cfis),
	       "H2D FIS fits the CFIS area");

/*
 * Received FIS area (4.2.1): where the HBA copies FISes from the device.
 * 256 bytes, 256-byte aligned (4 KiB with FIS-based switching, unused).
 */
struct ahci_rfis {
	struct sata_fis_dma_setup	rf_dsfis;	/* DMA Setup FIS, 00h */
	u8				rf_rsvd1c[4];
	struct sata_fis_pio_setup	rf_psfis;	/* PIO Setup FIS, 20h */
	u8				rf_rsvd34[12];
	struct sata_fis_d2h		rf_rfis;	/* D2H Register FIS, 40h */
	u8				rf_rsvd54[4];
	struct sata_fis_sdb		rf_sdbfis;	/* Set Device Bits FIS, 58h */
	u8				rf_ufis[64];	/* Unknown FIS, 60h */
	u8				rf_rsvda0[96];
} __packed __aligned(256);
_Static_assert(sizeof(struct ahci_rfis) == 256, "received FIS area is 256 bytes");
_Static_assert(offsetof(struct ahci_rfis, rf_psfis) == 0x20, "PSFIS at 20h");
_Static_assert(offsetof(struct ahci_rfis, rf_rfis) == 0x40, "RFIS at 40h");
_Static_assert(offsetof(struct ahci_rfis, rf_sdbfis) == 0x58, "SDBFIS at 58h");
_Static_assert(offsetof(struct ahci_rfis, rf_ufis) == 0x60, "UFIS at 60h");

#define AHCI_RFIS_ALIGN		256

/* Timings the specification gives (10.4.2 COMRESET, 10.6 BIOS/OS handoff), ms. */
#define AHCI_COMRESET_HOLD_MS	1	/* DET=1 held at least this long */
#define AHCI_HANDOFF_BB_MS	25	/* wait for BIOS Busy to show */
#define AHCI_HANDOFF_BOS_MS	2000	/* BIOS may take 2 s to let go */
#define AHCI_STOP_MS		500	/* CR / FR clear after ST / FRE cleared (10.1.2) */

#endif
