/*
 * virtio 1.x hardware definitions: the device status field, the feature
 * bits we know, the modern PCI transport's capabilities and common
 * configuration layout, and the block device's configuration and
 * request formats.  Section numbers are those of virtio 1.1 (OASIS
 * csprd01 / cs01).  Hardware only: no driver state here.
 */
#ifndef DRIVERS_VIRTIO_VIRTIOREG_H
#define DRIVERS_VIRTIO_VIRTIOREG_H

#include "kernel/compiler.h"
#include "kernel/types.h"

#define VIRTIO_PCI_VENDOR		0x1af4
#define VIRTIO_PCI_DEVICE_BLK_LEGACY	0x1001	/* transitional (4.1.2.1) */
#define VIRTIO_PCI_DEVICE_MODERN_BASE	0x1040	/* + device type (4.1.2.1) */
#define VIRTIO_ID_BLOCK			2	/* 5 Device Types */

/* 2.1 Device Status Field */
#define VIRTIO_STATUS_ACKNOWLEDGE	0x01
#define VIRTIO_STATUS_DRIVER		0x02
#define VIRTIO_STATUS_DRIVER_OK		0x04
#define VIRTIO_STATUS_FEATURES_OK	0x08
#define VIRTIO_STATUS_NEEDS_RESET	0x40
#define VIRTIO_STATUS_FAILED		0x80

/* 6 Reserved Feature Bits */
#define VIRTIO_F_INDIRECT_DESC		28
#define VIRTIO_F_EVENT_IDX		29
#define VIRTIO_F_VERSION_1		32
#define VIRTIO_F_ACCESS_PLATFORM	33
#define VIRTIO_F_RING_PACKED		34

/* 5.2.3 Block device feature bits */
#define VIRTIO_BLK_F_SIZE_MAX		1
#define VIRTIO_BLK_F_SEG_MAX		2
#define VIRTIO_BLK_F_GEOMETRY		4
#define VIRTIO_BLK_F_RO			5
#define VIRTIO_BLK_F_BLK_SIZE		6
#define VIRTIO_BLK_F_FLUSH		9
#define VIRTIO_BLK_F_TOPOLOGY		10
#define VIRTIO_BLK_F_CONFIG_WCE		11
#define VIRTIO_BLK_F_MQ			12
#define VIRTIO_BLK_F_DISCARD		13
#define VIRTIO_BLK_F_WRITE_ZEROES	14

#define VIRTIO_BIT(b)			(1ull << (b))

/* 4.1.4 Virtio Structure PCI Capabilities: a vendor-specific capability. */
struct virtio_pci_cap {
	u8	cap_vndr;	/* PCI_CAP_ID_VNDR */
	u8	cap_next;
	u8	cap_len;
	u8	cfg_type;
#define VIRTIO_PCI_CAP_COMMON_CFG	1
#define VIRTIO_PCI_CAP_NOTIFY_CFG	2
#define VIRTIO_PCI_CAP_ISR_CFG		3
#define VIRTIO_PCI_CAP_DEVICE_CFG	4
#define VIRTIO_PCI_CAP_PCI_CFG		5
	u8	bar;		/* 0-5 */
	u8	pad0_5[3];
	u32	offset;		/* le32, within the BAR */
	u32	length;		/* le32 */
};
_Static_assert(sizeof(struct virtio_pci_cap) == 16, "virtio_pci_cap (4.1.4)");
#define VIRTIO_PCI_CAP_CFG_TYPE		3	/* byte offsets in config space */
#define VIRTIO_PCI_CAP_BAR		4
#define VIRTIO_PCI_CAP_OFFSET		8
#define VIRTIO_PCI_CAP_LENGTH		12
#define VIRTIO_PCI_NOTIFY_CAP_MULT	16	/* 4.1.4.4: notify_off_multiplier */

/* 4.1.4.3 Common configuration structure layout: byte offsets. */
#define VIRTIO_PCI_COMMON_DFSELECT	0	/* le32 device_feature_select */
#define VIRTIO_PCI_COMMON_DF		4	/* le32 device_feature */
#define VIRTIO_PCI_COMMON_GFSELECT	8	/* le32 driver_feature_select */
#define VIRTIO_PCI_COMMON_GF		12	/* le32 driver_feature */
#define VIRTIO_PCI_COMMON_MSIX		16	/* le16 msix_config */
#define VIRTIO_PCI_COMMON_NUMQ		18	/* le16 num_queues */
#define VIRTIO_PCI_COMMON_STATUS	20	/* u8 device_status */
#define VIRTIO_PCI_COMMON_CFGGEN	21	/* u8 config_generation */
#define VIRTIO_PCI_COMMON_Q_SELECT	22	/* le16 queue_select */
#define VIRTIO_PCI_COMMON_Q_SIZE	24	/* le16 queue_size */
#define VIRTIO_PCI_COMMON_Q_MSIX	26	/* le16 queue_msix_vector */
#define VIRTIO_PCI_COMMON_Q_ENABLE	28	/* le16 queue_enable */
#define VIRTIO_PCI_COMMON_Q_NOFF	30	/* le16 queue_notify_off */
#define VIRTIO_PCI_COMMON_Q_DESCLO	32	/* le64 queue_desc */
#define VIRTIO_PCI_COMMON_Q_DESCHI	36
#define VIRTIO_PCI_COMMON_Q_AVAILLO	40	/* le64 queue_driver */
#define VIRTIO_PCI_COMMON_Q_AVAILHI	44
#define VIRTIO_PCI_COMMON_Q_USEDLO	48	/* le64 queue_device */
#define VIRTIO_PCI_COMMON_Q_USEDHI	52
#define VIRTIO_PCI_COMMON_LEN		56

#define VIRTIO_MSI_NO_VECTOR		0xffff	/* 4.1.5.1.2 */

/* 4.1.4.5 ISR status */
#define VIRTIO_PCI_ISR_QUEUE		0x1
#define VIRTIO_PCI_ISR_CONFIG		0x2

/* 5.2.4 Device configuration layout (virtio_blk_config): byte offsets. */
#define VIRTIO_BLK_CFG_CAPACITY		0	/* le64, 512-byte sectors */
#define VIRTIO_BLK_CFG_SIZE_MAX		8	/* le32 */
#define VIRTIO_BLK_CFG_SEG_MAX		12	/* le32 */
#define VIRTIO_BLK_CFG_GEOMETRY		16	/* le16 cylinders, u8 heads, u8 sectors */
#define VIRTIO_BLK_CFG_BLK_SIZE		20	/* le32 */
#define VIRTIO_BLK_CFG_PHYS_EXP		24	/* u8 topology.physical_block_exp */
#define VIRTIO_BLK_CFG_WRITEBACK	32	/* u8 */
#define VIRTIO_BLK_CFG_NUM_QUEUES	34	/* le16 */
#define VIRTIO_BLK_CFG_MAX_DISCARD	36	/* le32 max_discard_sectors */
#define VIRTIO_BLK_CFG_MAX_DISCARD_SEG	40	/* le32 */
#define VIRTIO_BLK_CFG_DISCARD_ALIGN	44	/* le32 discard_sector_alignment */
#define VIRTIO_BLK_CFG_MAX_WZ		48	/* le32 max_write_zeroes_sectors */
#define VIRTIO_BLK_CFG_MAX_WZ_SEG	52	/* le32 */
#define VIRTIO_BLK_CFG_WZ_MAY_UNMAP	56	/* u8 */
#define VIRTIO_BLK_CFG_LEN		60

/* 5.2.6 Device Operation: the request header, device-readable. */
struct virtio_blk_outhdr {
	u32	type;		/* le32 VIRTIO_BLK_T_* */
	u32	ioprio;		/* le32, reserved */
	u64	sector;		/* le64, 512-byte units */
};
_Static_assert(sizeof(struct virtio_blk_outhdr) == 16, "virtio_blk_outhdr (5.2.6)");

#define VIRTIO_BLK_T_IN			0
#define VIRTIO_BLK_T_OUT		1
#define VIRTIO_BLK_T_FLUSH		4
#define VIRTIO_BLK_T_GET_ID		8
#define VIRTIO_BLK_T_DISCARD		11
#define VIRTIO_BLK_T_WRITE_ZEROES	13

#define VIRTIO_BLK_ID_BYTES		20	/* 5.2.6: GET_ID answers 20 bytes */

/* The status byte, device-writable, last in every chain. */
#define VIRTIO_BLK_S_OK			0
#define VIRTIO_BLK_S_IOERR		1
#define VIRTIO_BLK_S_UNSUPP		2

/* 5.2.6: one range of a DISCARD or WRITE_ZEROES request. */
struct virtio_blk_discard_write_zeroes {
	u64	sector;		/* le64 */
	u32	num_sectors;	/* le32 */
	u32	flags;		/* le32 */
#define VIRTIO_BLK_WZ_F_UNMAP		0x1
};
_Static_assert(sizeof(struct virtio_blk_discard_write_zeroes) == 16,
	       "virtio_blk_discard_write_zeroes (5.2.6)");

#endif
