/*
 * Intel I/O Controller Hub (ICH6 to ICH10) and Platform Controller Hub
 * (5- to 8-series) registers that PCI interrupt routing reads: the LPC
 * bridge's PIRQ routing and Root Complex Base Address (D31:F0
 * configuration space), and the Device Interrupt Route registers among
 * the Chipset Configuration Registers that RCBA points at.
 *
 * Names and sections are the Intel ICH9 datasheet's (316972): chapter 13
 * "LPC Interface Bridge Registers (D31:F0)", chapter 10 "Chipset
 * Configuration Registers" (10.1, memory space at RCBA).  ICH6 (301473),
 * ICH10 (319973) and the 6-series PCH (324645) keep the same offsets;
 * which DxxIR registers exist differs by generation (see pci_ich.c).
 * Hardware only.
 */
#ifndef DRIVERS_PCI_ICHREG_H
#define DRIVERS_PCI_ICHREG_H

#define PCI_VENDOR_INTEL	0x8086

/* LPC Interface Bridge, D31:F0 configuration space (ICH9 13.1). */
#define ICH_LPC_DEV		31
#define ICH_LPC_FN		0
#define ICH_LPC_PIRQA_ROUT	0x60	/* PIRQA-D_ROUT, one byte each, 60h-63h */
#define ICH_LPC_PIRQE_ROUT	0x68	/* PIRQE-H_ROUT, 68h-6Bh */
#define   ICH_PIRQ_ROUT_IRQEN	0x80	/* 1: the PIRQ is not routed to the 8259 */
#define   ICH_PIRQ_ROUT_IRQ	0x0f	/* the ISA IRQ it drives when IRQEN is 0 */
#define ICH_NR_PIRQ		8	/* PIRQA-H */
#define ICH_LPC_RCBA		0xf0	/* Root Complex Base Address (ICH6 and later) */
#define   ICH_RCBA_BA		0xffffc000u	/* bits 31:14: base, 16 KiB aligned */
#define   ICH_RCBA_EN		0x00000001u	/* bit 0: the block is decoded */

/*
 * Chipset Configuration Registers, offsets from RCBA (ICH9 10.1).  Each
 * DxxIR (16 bits) says which PIRQ each pin of device xx on bus 0 drives:
 * IAR in bits 2:0 (INTA#), IBR 6:4, ICR 10:8, IDR 14:12; a field value
 * n means PIRQ A + n.  Bits 3, 7, 11 and 15 are reserved (read 0).
 * D30IR is reserved: device 30, the DMI-to-PCI bridge, raises no
 * interrupt, and the slots behind it are wired to PIRQs by the board.
 */
#define ICH_RCRB_DIR_FIRST	0x3140	/* the DxxIR block, as one window */
#define ICH_RCRB_DIR_LEN	0x2c	/* through D19IR */
#define ICH_D31IR		0x3140
#define ICH_D29IR		0x3144
#define ICH_D28IR		0x3146
#define ICH_D27IR		0x3148
#define ICH_D26IR		0x314c
#define ICH_D25IR		0x3150
#define ICH_D23IR		0x3158
#define ICH_D22IR		0x315c
#define ICH_D20IR		0x3160
#define ICH_D21IR		0x3164
#define ICH_D19IR		0x3168
#define   ICH_DIR_SHIFT(pin)	(((pin) - 1) * 4)	/* pin: 1-4, INTA#-INTD# */
#define   ICH_DIR_PIRQ		0x7
#define   ICH_DIR_RESERVED	0x8888

/*
 * In APIC mode PIRQA-H reach I/O APIC inputs 16-23 directly, active low
 * (ICH10 datasheet 319973, table 5-16 "APIC Interrupt Mapping" and its
 * note 1; ICH6 table 5-15 says the same).
 */
#define ICH_PIRQ_GSI_BASE	16

#endif
