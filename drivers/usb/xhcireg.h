/*
 * xHCI hardware: register offsets and bits, TRBs, contexts, extended
 * capabilities.  Names follow the eXtensible Host Controller Interface
 * for USB specification, revision 1.2 (section numbers in comments).
 * Hardware only: no driver state here.
 */
#ifndef DRIVERS_USB_XHCIREG_H
#define DRIVERS_USB_XHCIREG_H

#include "kernel/types.h"
#include "kernel/compiler.h"

/* 5.3 Host Controller Capability Registers (offsets from the BAR) */
#define XHCI_CAPLENGTH		0x00	/* u8: operational registers' offset */
#define XHCI_HCIVERSION		0x02	/* u16 */
#define XHCI_HCSPARAMS1		0x04
#define  XHCI_HCS1_MAXSLOTS(v)	((v) & 0xff)
#define  XHCI_HCS1_MAXINTRS(v)	(((v) >> 8) & 0x7ff)
#define  XHCI_HCS1_MAXPORTS(v)	(((v) >> 24) & 0xff)
#define XHCI_HCSPARAMS2		0x08
#define  XHCI_HCS2_ERSTMAX(v)	(((v) >> 4) & 0xf)
#define  XHCI_HCS2_SPB(v)	((((v) >> 21) & 0x1f) << 5 | (((v) >> 27) & 0x1f))
#define XHCI_HCSPARAMS3		0x0c
#define XHCI_HCCPARAMS1		0x10
#define  XHCI_HCC1_AC64		(1u << 0)
#define  XHCI_HCC1_CSZ		(1u << 2)	/* 64-byte contexts */
#define  XHCI_HCC1_PPC		(1u << 3)	/* port power control */
#define  XHCI_HCC1_XECP(v)	(((v) >> 16) & 0xffff)	/* in dwords */
#define XHCI_DBOFF		0x14
#define XHCI_RTSOFF		0x18
#define XHCI_HCCPARAMS2		0x1c

/* 5.4 Host Controller Operational Registers (offsets from CAPLENGTH) */
#define XHCI_USBCMD		0x00
#define  XHCI_CMD_RS		(1u << 0)
#define  XHCI_CMD_HCRST		(1u << 1)
#define  XHCI_CMD_INTE		(1u << 2)
#define  XHCI_CMD_HSEE		(1u << 3)
#define XHCI_USBSTS		0x04
#define  XHCI_STS_HCH		(1u << 0)
#define  XHCI_STS_HSE		(1u << 2)
#define  XHCI_STS_EINT		(1u << 3)
#define  XHCI_STS_PCD		(1u << 4)
#define  XHCI_STS_CNR		(1u << 11)
#define  XHCI_STS_HCE		(1u << 12)
#define XHCI_PAGESIZE		0x08
#define XHCI_DNCTRL		0x14
#define XHCI_CRCR		0x18	/* 64-bit */
#define  XHCI_CRCR_RCS		(1u << 0)
#define  XHCI_CRCR_CS		(1u << 1)
#define  XHCI_CRCR_CA		(1u << 2)
#define  XHCI_CRCR_CRR		(1u << 3)
#define XHCI_DCBAAP		0x30	/* 64-bit */
#define XHCI_CONFIG		0x38
#define  XHCI_CONFIG_MAXSLOTSEN(n)	((n) & 0xff)

/* 5.4.8 Port Status and Control, one set of 0x10 per port from 0x400 */
#define XHCI_PORTSC(n)		(0x400 + 0x10 * ((n) - 1))	/* n 1-based */
#define  XHCI_PS_CCS		(1u << 0)
#define  XHCI_PS_PED		(1u << 1)	/* RW1C: writing 1 disables */
#define  XHCI_PS_OCA		(1u << 3)
#define  XHCI_PS_PR		(1u << 4)
#define  XHCI_PS_PLS_MASK	(0xfu << 5)
#define  XHCI_PS_PLS(v)		(((v) >> 5) & 0xf)
#define   XHCI_PLS_U0		0
#define   XHCI_PLS_POLLING	7
#define   XHCI_PLS_RXDETECT	5
#define  XHCI_PS_PP		(1u << 9)
#define  XHCI_PS_SPEED(v)	(((v) >> 10) & 0xf)
#define   XHCI_SPEED_FULL	1	/* 7.2.2.1.1 default PSI IDs */
#define   XHCI_SPEED_LOW	2
#define   XHCI_SPEED_HIGH	3
#define   XHCI_SPEED_SUPER	4
#define   XHCI_SPEED_SUPER_PLUS	5
#define  XHCI_PS_PIC_MASK	(3u << 14)
#define  XHCI_PS_LWS		(1u << 16)
#define  XHCI_PS_CSC		(1u << 17)
#define  XHCI_PS_PEC		(1u << 18)
#define  XHCI_PS_WRC		(1u << 19)
#define  XHCI_PS_OCC		(1u << 20)
#define  XHCI_PS_PRC		(1u << 21)
#define  XHCI_PS_PLC		(1u << 22)
#define  XHCI_PS_CEC		(1u << 23)
#define  XHCI_PS_CAS		(1u << 24)
#define  XHCI_PS_WCE		(1u << 25)
#define  XHCI_PS_WDE		(1u << 26)
#define  XHCI_PS_WOE		(1u << 27)
#define  XHCI_PS_DR		(1u << 30)
#define  XHCI_PS_WPR		(1u << 31)
/* The change bits (all RW1C). */
#define  XHCI_PS_CHANGES	(XHCI_PS_CSC | XHCI_PS_PEC | XHCI_PS_WRC | XHCI_PS_OCC | \
				 XHCI_PS_PRC | XHCI_PS_PLC | XHCI_PS_CEC)
/* Bits a read-modify-write must write back unchanged (RW/RWS, not RW1C/RW1S). */
#define  XHCI_PS_PRESERVE	(XHCI_PS_PP | XHCI_PS_PIC_MASK | XHCI_PS_WCE | \
				 XHCI_PS_WDE | XHCI_PS_WOE)

/* 5.5 Runtime registers (offsets from RTSOFF); 5.5.2 interrupter n at 0x20 + 32n */
#define XHCI_IR(n)		(0x20 + 0x20 * (n))
#define XHCI_IMAN		0x00
#define  XHCI_IMAN_IP		(1u << 0)	/* RW1C */
#define  XHCI_IMAN_IE		(1u << 1)
#define XHCI_IMOD		0x04
#define XHCI_ERSTSZ		0x08
#define XHCI_ERSTBA		0x10	/* 64-bit */
#define XHCI_ERDP		0x18	/* 64-bit */
#define  XHCI_ERDP_EHB		(1u << 3)	/* RW1C */

/* 5.6 Doorbell registers: DB[0] the command ring, DB[slot] target = DCI */
#define XHCI_DB(n)		(4 * (n))

/* 7 Extended capabilities: ID in 7:0, next pointer (dwords) in 15:8 */
#define XHCI_XCAP_ID(v)		((v) & 0xff)
#define XHCI_XCAP_NEXT(v)	(((v) >> 8) & 0xff)
#define XHCI_XCAP_LEGACY	1
#define XHCI_XCAP_PROTOCOL	2
/* 7.1.1 USBLEGSUP, 7.1.2 USBLEGCTLSTS */
#define XHCI_LEGSUP_BIOS_OWNED	(1u << 16)
#define XHCI_LEGSUP_OS_OWNED	(1u << 24)
#define XHCI_LEGCTLSTS		0x04
#define  XHCI_LEGCTL_SMI_MASK	((1u << 0) | (1u << 4) | (1u << 13) | (1u << 14) | (1u << 15))
#define  XHCI_LEGCTL_SMI_EVENTS	((7u << 29))	/* RW1C status bits */
/* 7.2 Supported Protocol: dword 0 major in 31:24, dword 2 offset 7:0, count 15:8 */
#define XHCI_PROTO_MAJOR(v)	(((v) >> 24) & 0xff)
#define XHCI_PROTO_PORT_OFF(v)	((v) & 0xff)
#define XHCI_PROTO_PORT_CNT(v)	(((v) >> 8) & 0xff)

/* 6.4 Transfer Request Block */
struct xhci_trb {
	u64	trb_param;
	u32	trb_status;
	u32	trb_control;
} __packed __aligned(16);
_Static_assert(sizeof(struct xhci_trb) == 16, "xhci trb");

/* trb_control */
#define XHCI_TRB_C		(1u << 0)	/* cycle */
#define XHCI_TRB_TC		(1u << 1)	/* link: toggle cycle */
#define XHCI_TRB_ENT		(1u << 1)	/* transfer: evaluate next TRB */
#define XHCI_TRB_ISP		(1u << 2)	/* interrupt on short packet */
#define XHCI_TRB_CH		(1u << 4)	/* chain */
#define XHCI_TRB_IOC		(1u << 5)
#define XHCI_TRB_IDT		(1u << 6)	/* immediate data */
#define XHCI_TRB_BSR		(1u << 9)	/* Address Device: block SET_ADDRESS */
#define XHCI_TRB_DC		(1u << 9)	/* Configure Endpoint: deconfigure */
#define XHCI_TRB_TYPE(t)	((u32)(t) << 10)
#define XHCI_TRB_GET_TYPE(c)	(((c) >> 10) & 0x3f)
#define XHCI_TRB_DIR_IN		(1u << 16)	/* data and status stages */
#define XHCI_TRB_TRT(t)		((u32)(t) << 16)	/* setup stage */
#define  XHCI_TRT_NO_DATA	0
#define  XHCI_TRT_OUT		2
#define  XHCI_TRT_IN		3
#define XHCI_TRB_EP(dci)	((u32)(dci) << 16)
#define XHCI_TRB_GET_EP(c)	(((c) >> 16) & 0x1f)
#define XHCI_TRB_SLOT(s)	((u32)(s) << 24)
#define XHCI_TRB_GET_SLOT(c)	(((c) >> 24) & 0xff)
#define XHCI_TRB_ED		(1u << 2)	/* transfer event: param is event data */

/* trb_status of transfer TRBs (6.4.1.1) and events (6.4.2) */
#define XHCI_TRB_LEN(n)		((u32)(n) & 0x1ffff)
#define XHCI_TRB_TDSIZE(n)	((u32)((n) > 31 ? 31 : (n)) << 17)
#define XHCI_EVT_LEN(s)		((s) & 0xffffff)
#define XHCI_EVT_CC(s)		(((s) >> 24) & 0xff)

/* 6.4.6 TRB types */
enum xhci_trb_type {
	XHCI_TRB_NORMAL = 1,
	XHCI_TRB_SETUP = 2,
	XHCI_TRB_DATA = 3,
	XHCI_TRB_STATUS = 4,
	XHCI_TRB_LINK = 6,
	XHCI_TRB_NOOP = 8,
	XHCI_TRB_ENABLE_SLOT = 9,
	XHCI_TRB_DISABLE_SLOT = 10,
	XHCI_TRB_ADDRESS_DEVICE = 11,
	XHCI_TRB_CONFIGURE_EP = 12,
	XHCI_TRB_EVALUATE_CTX = 13,
	XHCI_TRB_RESET_EP = 14,
	XHCI_TRB_STOP_EP = 15,
	XHCI_TRB_SET_TR_DEQ = 16,
	XHCI_TRB_NOOP_CMD = 23,
	XHCI_TRB_EV_TRANSFER = 32,
	XHCI_TRB_EV_CMD_COMPLETE = 33,
	XHCI_TRB_EV_PORT_STATUS = 34,
	XHCI_TRB_EV_HOST_CTRL = 37,
};

/* 6.4.5 TRB completion codes */
enum xhci_cc {
	XHCI_CC_INVALID = 0,
	XHCI_CC_SUCCESS = 1,
	XHCI_CC_DATA_BUFFER = 2,
	XHCI_CC_BABBLE = 3,
	XHCI_CC_TRANSACTION = 4,
	XHCI_CC_TRB = 5,
	XHCI_CC_STALL = 6,
	XHCI_CC_RESOURCE = 7,
	XHCI_CC_BANDWIDTH = 8,
	XHCI_CC_NO_SLOTS = 9,
	XHCI_CC_SLOT_NOT_ENABLED = 11,
	XHCI_CC_EP_NOT_ENABLED = 12,
	XHCI_CC_SHORT_PACKET = 13,
	XHCI_CC_PARAMETER = 17,
	XHCI_CC_CONTEXT_STATE = 19,
	XHCI_CC_EVENT_RING_FULL = 21,
	XHCI_CC_CMD_RING_STOPPED = 24,
	XHCI_CC_CMD_ABORTED = 25,
	XHCI_CC_STOPPED = 26,
	XHCI_CC_STOPPED_LEN_INVALID = 27,
	XHCI_CC_STOPPED_SHORT = 28,
};

/* 6.5 Event Ring Segment Table entry */
struct xhci_erst_entry {
	u64	erst_base;
	u32	erst_size;	/* TRBs in the segment */
	u32	erst_rsvd0c;
} __packed;
_Static_assert(sizeof(struct xhci_erst_entry) == 16, "xhci erst entry");

/*
 * 6.2.2 Slot Context and 6.2.3 Endpoint Context: 8 dwords each in 32-byte
 * mode; in 64-byte mode (HCCPARAMS1.CSZ) the same 8 dwords then 32 bytes
 * of reserved space.  Accessed as dword arrays through xhci_ctx() because
 * the stride is a run-time choice.
 */
#define XHCI_CTX_DWORDS		8
/* Slot context */
#define XHCI_SLOT0_ROUTE(r)	((u32)(r) & 0xfffff)
#define XHCI_SLOT0_SPEED(s)	((u32)(s) << 20)
#define XHCI_SLOT0_MTT		(1u << 25)
#define XHCI_SLOT0_HUB		(1u << 26)
#define XHCI_SLOT0_ENTRIES(n)	((u32)(n) << 27)
#define XHCI_SLOT0_ENTRIES_MASK	(0x1fu << 27)
#define XHCI_SLOT1_ROOT_PORT(p)	((u32)(p) << 16)
#define XHCI_SLOT1_NPORTS(n)	((u32)(n) << 24)
#define XHCI_SLOT2_TT_SLOT(s)	((u32)(s) & 0xff)
#define XHCI_SLOT2_TT_PORT(p)	((u32)(p) << 8)
#define XHCI_SLOT2_TTT(t)	((u32)(t) << 16)
#define XHCI_SLOT3_ADDR(v)	((v) & 0xff)
#define XHCI_SLOT3_STATE(v)	(((v) >> 27) & 0x1f)
/* Endpoint context */
#define XHCI_EP0_STATE(v)	((v) & 7)
#define  XHCI_EP_STATE_DISABLED	0
#define  XHCI_EP_STATE_RUNNING	1
#define  XHCI_EP_STATE_HALTED	2
#define  XHCI_EP_STATE_STOPPED	3
#define  XHCI_EP_STATE_ERROR	4
#define XHCI_EP0_MULT(m)	((u32)(m) << 8)
#define XHCI_EP0_INTERVAL(i)	((u32)(i) << 16)
#define XHCI_EP1_CERR(n)	((u32)(n) << 1)
#define XHCI_EP1_TYPE(t)	((u32)(t) << 3)
#define  XHCI_EPT_ISOC_OUT	1
#define  XHCI_EPT_BULK_OUT	2
#define  XHCI_EPT_INT_OUT	3
#define  XHCI_EPT_CONTROL	4
#define  XHCI_EPT_ISOC_IN	5
#define  XHCI_EPT_BULK_IN	6
#define  XHCI_EPT_INT_IN	7
#define XHCI_EP1_BURST(b)	((u32)(b) << 8)
#define XHCI_EP1_MAXP(p)	((u32)(p) << 16)
#define XHCI_EP2_DCS		(1u << 0)	/* dequeue cycle state, in the TR pointer */
#define XHCI_EP4_AVG_TRB(n)	((u32)(n) & 0xffff)
#define XHCI_EP4_MAX_ESIT(n)	((u32)(n) << 16)
/* 6.2.5.1 Input Control Context */
#define XHCI_ICC_DROP		0
#define XHCI_ICC_ADD		1

#define XHCI_MAX_DCI		31	/* device context index: ep n IN = 2n+1, OUT = 2n */

#endif
