/*
 * NVM Express: hardware only.  Controller registers (NVMe 2.0 base, 3.1),
 * submission and completion queue entries (4.2, 4.6), the admin and NVM
 * command set opcodes, Identify data structures (5.17.2; NVM command set
 * 1.0, 4.1.5) and completion status values (4.6.1).  Every structure is
 * little-endian as the device sees it; the driver runs on x86 and reads
 * the fields directly.
 */
#ifndef DRIVERS_NVME_NVMEREG_H
#define DRIVERS_NVME_NVMEREG_H

#include "kernel/types.h"

/* Controller registers (NVMe 2.0 base, 3.1.3), offsets in BAR0. */
#define NVME_REG_CAP		0x00	/* 64 bits: Controller Capabilities (3.1.3.1) */
#define   NVME_CAP_MQES(c)		((u32)((c) & 0xffff))	/* max queue entries, 0's based */
#define   NVME_CAP_CQR			(1ULL << 16)		/* contiguous queues required */
#define   NVME_CAP_TO(c)		((u32)(((c) >> 24) & 0xff))	/* timeout, 500 ms units */
#define   NVME_CAP_DSTRD(c)		((u32)(((c) >> 32) & 0xf))	/* doorbell stride 4 << n */
#define   NVME_CAP_CSS_NVM		(1ULL << 37)		/* NVM command set */
#define   NVME_CAP_MPSMIN(c)		((u32)(((c) >> 48) & 0xf))	/* 2^(12+n) */
#define   NVME_CAP_MPSMAX(c)		((u32)(((c) >> 52) & 0xf))
#define NVME_REG_VS		0x08	/* Version (3.1.3.2) */
#define   NVME_VS_MJR(v)		((v) >> 16)
#define   NVME_VS_MNR(v)		(((v) >> 8) & 0xff)
#define   NVME_VS_TER(v)		((v) & 0xff)
#define NVME_REG_INTMS		0x0c	/* Interrupt Mask Set (INTx, MSI only) */
#define NVME_REG_INTMC		0x10	/* Interrupt Mask Clear */
#define NVME_REG_CC		0x14	/* Controller Configuration (3.1.3.5) */
#define   NVME_CC_EN			0x00000001
#define   NVME_CC_CSS_NVM		(0u << 4)
#define   NVME_CC_MPS(n)		((u32)(n) << 7)		/* 2^(12+n) */
#define   NVME_CC_AMS_RR		(0u << 11)
#define   NVME_CC_SHN_MASK		(3u << 14)
#define   NVME_CC_SHN_NORMAL		(1u << 14)
#define   NVME_CC_IOSQES(n)		((u32)(n) << 16)	/* 2^n bytes */
#define   NVME_CC_IOCQES(n)		((u32)(n) << 20)
#define NVME_REG_CSTS		0x1c	/* Controller Status (3.1.3.6) */
#define   NVME_CSTS_RDY			0x00000001
#define   NVME_CSTS_CFS			0x00000002	/* Controller Fatal Status */
#define   NVME_CSTS_SHST_MASK		0x0000000c
#define   NVME_CSTS_SHST_DONE		0x00000008
#define NVME_REG_AQA		0x24	/* Admin Queue Attributes: ACQS << 16 | ASQS, 0's based */
#define NVME_REG_ASQ		0x28	/* 64 bits: Admin SQ base */
#define NVME_REG_ACQ		0x30	/* 64 bits: Admin CQ base */
#define NVME_REG_DBS		0x1000	/* doorbells (3.1.3.21): SQ y tail, CQ y head */

/*
 * A Scatter Gather List descriptor (4.1.2): 16 bytes.  The identifier's
 * type is in bits 7:4, its subtype (0h: an address) in bits 3:0.
 */
struct nvme_sgl_desc {
	u64	addr;
	u32	len;
	u8	rsvd[3];
	u8	id;		/* SGL Identifier */
} __packed;
_Static_assert(sizeof(struct nvme_sgl_desc) == 16, "nvme_sgl_desc");
#define NVME_SGL_DATA_BLOCK	0x00	/* type 0h: the data itself */
#define NVME_SGL_LAST_SEGMENT	0x30	/* type 3h: the last (here the only) list of descriptors */

/* A submission queue entry (4.2): 64 bytes. */
struct nvme_sqe {
	u8	opc;		/* opcode */
	u8	flags;		/* FUSE 1:0, PSDT 7:6 (0: PRPs) */
#define NVME_SQE_PSDT_SGL	0x40	/* PSDT 01b: SGL1 in DPTR, MPTR a buffer */
	u16	cid;		/* command identifier */
	u32	nsid;
	u32	cdw2;
	u32	cdw3;
	u64	mptr;
	union {			/* DPTR: PRP1 and PRP2, or SGL1 (PSDT 01b) */
		struct {
			u64	prp1;
			u64	prp2;
		};
		struct nvme_sgl_desc	sgl1;
	};
	u32	cdw10;
	u32	cdw11;
	u32	cdw12;
	u32	cdw13;
	u32	cdw14;
	u32	cdw15;
} __packed;
_Static_assert(sizeof(struct nvme_sqe) == 64, "nvme_sqe");
_Static_assert(__builtin_offsetof(struct nvme_sqe, prp1) == 24, "nvme_sqe.prp1");
_Static_assert(__builtin_offsetof(struct nvme_sqe, sgl1) == 24, "nvme_sqe.sgl1");
_Static_assert(__builtin_offsetof(struct nvme_sqe, cdw10) == 40, "nvme_sqe.cdw10");

/* A completion queue entry (4.6): 16 bytes. */
struct nvme_cqe {
	u32	result;		/* DW0: command specific */
	u32	rsvd;
	u16	sqhd;		/* SQ head pointer */
	u16	sqid;
	u16	cid;
	u16	status;		/* P in bit 0, then the Status Field (4.6.1) */
} __packed;
_Static_assert(sizeof(struct nvme_cqe) == 16, "nvme_cqe");
_Static_assert(__builtin_offsetof(struct nvme_cqe, status) == 14, "nvme_cqe.status");

/* The status half-word of a CQE (4.6.1, Figure 94), phase bit included. */
#define NVME_CQE_PHASE		0x0001
#define NVME_STATUS_SC(s)	(((s) >> 1) & 0xff)	/* Status Code */
#define NVME_STATUS_SCT(s)	(((s) >> 9) & 0x7)	/* Status Code Type */
#define NVME_STATUS_CRD(s)	(((s) >> 12) & 0x3)	/* Command Retry Delay */
#define NVME_STATUS_MORE	0x4000
#define NVME_STATUS_DNR		0x8000			/* Do Not Retry */
/* Build one, for tests and for the driver's own synthetic status. */
#define NVME_STATUS(sct, sc)	((u16)(((sct) << 9) | ((sc) << 1)))

/* Status Code Types (4.6.1.2). */
#define NVME_SCT_GENERIC	0x0
#define NVME_SCT_CMD_SPECIFIC	0x1
#define NVME_SCT_MEDIA		0x2
#define NVME_SCT_PATH		0x3
#define NVME_SCT_VENDOR		0x7

/* Generic command status (4.6.1.2.1), the ones worth a name. */
#define NVME_SC_SUCCESS			0x00
#define NVME_SC_INVALID_OPCODE		0x01
#define NVME_SC_INVALID_FIELD		0x02
#define NVME_SC_CMDID_CONFLICT		0x03
#define NVME_SC_DATA_XFER_ERROR		0x04
#define NVME_SC_POWER_LOSS		0x05
#define NVME_SC_INTERNAL		0x06
#define NVME_SC_ABORT_REQ		0x07
#define NVME_SC_ABORT_QUEUE		0x08
#define NVME_SC_FUSED_FAIL		0x09
#define NVME_SC_FUSED_MISSING		0x0a
#define NVME_SC_INVALID_NS		0x0b
#define NVME_SC_CMD_SEQ_ERROR		0x0c
#define NVME_SC_SGL_INVALID_LAST	0x0d
#define NVME_SC_SGL_INVALID_COUNT	0x0e
#define NVME_SC_SGL_INVALID_DATA	0x0f
#define NVME_SC_SGL_INVALID_METADATA	0x10
#define NVME_SC_SGL_INVALID_TYPE	0x11
#define NVME_SC_PRP_INVALID_OFFSET	0x13
#define NVME_SC_NS_NOT_READY		0x82	/* NVM set: not ready, retry may succeed */
#define NVME_SC_LBA_RANGE		0x80
#define NVME_SC_CAP_EXCEEDED		0x81
#define NVME_SC_RESERVATION_CONFLICT	0x83
#define NVME_SC_FORMAT_IN_PROGRESS	0x84

/* Command specific status (4.6.1.2.2), the ones the admin queue can meet. */
#define NVME_SC_CQ_INVALID		0x00
#define NVME_SC_QID_INVALID		0x01
#define NVME_SC_QUEUE_SIZE		0x02
#define NVME_SC_ABORT_LIMIT		0x03
#define NVME_SC_INVALID_VECTOR		0x08
#define NVME_SC_INVALID_FORMAT		0x0a
#define NVME_SC_ATTEMPTED_WRITE_RO	0x82	/* NVM set */

/* Media and data integrity errors (4.6.1.2.3). */
#define NVME_SC_WRITE_FAULT		0x80
#define NVME_SC_READ_ERROR		0x81
#define NVME_SC_GUARD_CHECK		0x82
#define NVME_SC_APPTAG_CHECK		0x83
#define NVME_SC_REFTAG_CHECK		0x84
#define NVME_SC_COMPARE_FAILED		0x85
#define NVME_SC_ACCESS_DENIED		0x86
#define NVME_SC_UNWRITTEN_BLOCK		0x87

/* Admin command opcodes (5, Figure 138). */
#define NVME_ADMIN_DELETE_SQ	0x00
#define NVME_ADMIN_CREATE_SQ	0x01
#define NVME_ADMIN_GET_LOG_PAGE	0x02
#define NVME_ADMIN_DELETE_CQ	0x04
#define NVME_ADMIN_CREATE_CQ	0x05
#define NVME_ADMIN_IDENTIFY	0x06
#define NVME_ADMIN_ABORT	0x08
#define NVME_ADMIN_SET_FEATURES	0x09
#define NVME_ADMIN_GET_FEATURES	0x0a
#define NVME_ADMIN_DBBUF_CONFIG	0x7c	/* Doorbell Buffer Config (5.11) */

/* Create I/O CQ/SQ CDW11 (5.4, 5.5). */
#define NVME_QUEUE_PHYS_CONTIG	0x0001
#define NVME_CQ_IRQ_ENABLED	0x0002
#define NVME_SQ_PRIO_MEDIUM	(2u << 1)

/* Identify CNS values (5.17.1, Figure 273). */
#define NVME_ID_CNS_NS		0x00
#define NVME_ID_CNS_CTRL	0x01
#define NVME_ID_CNS_NS_ACTIVE	0x02	/* active namespace ID list */

/* Feature identifiers (5.27.1). */
#define NVME_FEAT_VOLATILE_WC	0x06
#define NVME_FEAT_NUM_QUEUES	0x07

/* NVM command set opcodes (NVM command set 1.0, 3). */
#define NVME_CMD_FLUSH		0x00
#define NVME_CMD_WRITE		0x01
#define NVME_CMD_READ		0x02
#define NVME_CMD_WRITE_ZEROES	0x08
#define NVME_CMD_DSM		0x09
/* Read/Write CDW12 (3.2.6): NLB 0's based in 15:0. */
#define   NVME_RW_FUA			(1u << 30)
/* Write Zeroes CDW12 (3.2.8): deallocate may be done instead. */
#define   NVME_WZ_DEAC			(1u << 25)
/* Dataset Management CDW11 (3.2.3). */
#define   NVME_DSM_AD			(1u << 2)	/* Attribute - Deallocate */

/* One DSM range (NVM command set 1.0, 3.2.3, Figure 39): 16 bytes. */
struct nvme_dsm_range {
	u32	cattr;		/* context attributes */
	u32	nlb;		/* length in logical blocks (not 0's based) */
	u64	slba;
} __packed;
_Static_assert(sizeof(struct nvme_dsm_range) == 16, "nvme_dsm_range");

/* Identify Controller data structure (5.17.2.1, Figure 275): 4096 bytes. */
struct nvme_id_ctrl {
	u16	vid;
	u16	ssvid;
	char	sn[20];		/* serial number, ASCII, space padded */
	char	mn[40];		/* model number */
	char	fr[8];		/* firmware revision */
	u8	rab;
	u8	ieee[3];
	u8	cmic;
	u8	mdts;		/* max transfer 2^n units of CAP.MPSMIN; 0: none */
	u16	cntlid;
	u32	ver;
	u8	rsvd84[172];
	u16	oacs;		/* 256 */
	u8	acl;		/* abort command limit, 0's based */
	u8	aerl;
	u8	frmw;
	u8	lpa;
	u8	elpe;
	u8	npss;
	u8	rsvd264[248];
	u8	sqes;		/* 512: required (3:0) and max (7:4) SQ entry size, 2^n */
	u8	cqes;
	u16	maxcmd;
	u32	nn;		/* 516: number of namespaces (max NSID) */
	u16	oncs;		/* 520: optional NVM commands */
	u16	fuses;
	u8	fna;
	u8	vwc;		/* 525: bit 0 volatile write cache present */
	u16	awun;
	u16	awupf;
	u8	icsvscc;
	u8	nwpc;
	u16	acwu;
	u16	rsvd534;
	u32	sgls;		/* 536 */
	u8	rsvd540[3556];
} __packed;
_Static_assert(sizeof(struct nvme_id_ctrl) == 4096, "nvme_id_ctrl");
_Static_assert(__builtin_offsetof(struct nvme_id_ctrl, mdts) == 77, "id_ctrl.mdts");
_Static_assert(__builtin_offsetof(struct nvme_id_ctrl, oacs) == 256, "id_ctrl.oacs");
_Static_assert(__builtin_offsetof(struct nvme_id_ctrl, sqes) == 512, "id_ctrl.sqes");
_Static_assert(__builtin_offsetof(struct nvme_id_ctrl, oncs) == 520, "id_ctrl.oncs");
_Static_assert(__builtin_offsetof(struct nvme_id_ctrl, vwc) == 525, "id_ctrl.vwc");
_Static_assert(__builtin_offsetof(struct nvme_id_ctrl, sgls) == 536, "id_ctrl.sgls");
#define NVME_OACS_DBBUF		(1u << 8)	/* Doorbell Buffer Config */
#define NVME_ONCS_DSM		(1u << 2)
#define NVME_ONCS_WRITE_ZEROES	(1u << 3)
#define NVME_VWC_PRESENT	0x01
#define NVME_SGLS_MASK		0x3	/* SGLS 1:0, for the NVM command set: */
#define NVME_SGLS_ANY		0x1	/*   SGLs, any alignment */
#define NVME_SGLS_DWORD		0x2	/*   SGLs, data blocks dword aligned and sized */

/* LBA Format data structure (NVM command set 1.0, 4.1.5.1, Figure 98). */
struct nvme_lbaf {
	u16	ms;		/* metadata bytes per block */
	u8	lbads;		/* block size 2^n; 0: format not available */
	u8	rp;		/* relative performance */
} __packed;
_Static_assert(sizeof(struct nvme_lbaf) == 4, "nvme_lbaf");

/* Identify Namespace data structure (NVM command set 1.0, 4.1.5.1, Figure 97). */
struct nvme_id_ns {
	u64	nsze;		/* size in logical blocks */
	u64	ncap;
	u64	nuse;
	u8	nsfeat;
	u8	nlbaf;		/* number of LBA formats, 0's based */
	u8	flbas;		/* formatted LBA size: index in 3:0 (6:5 high bits) */
	u8	mc;
	u8	dpc;
	u8	dps;
	u8	nmic;
	u8	rescap;
	u8	fpi;
	u8	dlfeat;		/* 33: bits 2:0 = 001, deallocated blocks read as zero */
	u16	nawun;
	u16	nawupf;
	u16	nacwu;
	u16	nabsn;
	u16	nabo;
	u16	nabspf;
	u16	noiob;
	u8	nvmcap[16];
	u8	rsvd64[35];
	u8	nsattr;		/* 99: bit 0, write protected */
	u8	rsvd100[28];
	struct nvme_lbaf lbaf[64];	/* 128 */
	u8	rsvd384[3712];
} __packed;
_Static_assert(sizeof(struct nvme_id_ns) == 4096, "nvme_id_ns");
_Static_assert(__builtin_offsetof(struct nvme_id_ns, dlfeat) == 33, "id_ns.dlfeat");
_Static_assert(__builtin_offsetof(struct nvme_id_ns, nsattr) == 99, "id_ns.nsattr");
_Static_assert(__builtin_offsetof(struct nvme_id_ns, lbaf) == 128, "id_ns.lbaf");
#define NVME_NS_FLBAS_INDEX(f)	(((f) & 0xf) | ((((f) >> 5) & 0x3) << 4))
#define NVME_NS_DLFEAT_ZEROES	0x1
#define NVME_NS_ATTR_WP		0x1	/* NSATTR: the namespace is write protected */

#endif
