/*
 * APIC hardware: local APIC registers (Intel SDM volume 3A, chapter 11
 * "Advanced Programmable Interrupt Controller", table 11-1), the 82093AA
 * I/O APIC's indirect registers and redirection entries (82093AA
 * datasheet section 3), and the MSI message format on x86 (SDM 3A 11.11,
 * PCI 3.0 6.8).  Hardware only.
 */
#ifndef KERNEL_APICREG_H
#define KERNEL_APICREG_H

/* IA32_APIC_BASE MSR (SDM 3A 11.4.4). */
#define MSR_IA32_APIC_BASE		0x1b
#define   APIC_BASE_BSP			(1ull << 8)	/* this is the bootstrap processor */
#define   APIC_BASE_EXTD		(1ull << 10)	/* x2APIC mode */
#define   APIC_BASE_ENABLE		(1ull << 11)	/* APIC global enable */
#define   APIC_BASE_ADDR_MASK		0xffffff000ull
#define CPUID_1_EDX_APIC		(1u << 9)	/* CPUID.01h:EDX.APIC */

#define LAPIC_DEFAULT_BASE		0xfee00000u
#define LAPIC_MMIO_SIZE			0x400

/* Local APIC registers, offsets from the base (SDM 3A table 11-1). */
#define LAPIC_ID			0x020	/* bits 31:24: APIC ID */
#define   LAPIC_ID_SHIFT		24
#define LAPIC_VERSION			0x030	/* 7:0 version, 23:16 max LVT entry */
#define LAPIC_TPR			0x080	/* Task Priority */
#define LAPIC_EOI			0x0b0	/* write 0: end of interrupt */
#define LAPIC_SVR			0x0f0	/* Spurious Interrupt Vector (11.9) */
#define   LAPIC_SVR_VECTOR_MASK		0x000000ff
#define   LAPIC_SVR_ENABLE		0x00000100	/* APIC software enable */
#define LAPIC_ESR			0x280	/* Error Status */
#define LAPIC_ICR_LOW			0x300	/* Interrupt Command (11.6.1) */
#define   LAPIC_ICR_DM_FIXED		0x00000000	/* delivery mode, bits 10:8 */
#define   LAPIC_ICR_DM_INIT		0x00000500
#define   LAPIC_ICR_DM_STARTUP		0x00000600
#define   LAPIC_ICR_DELIVS		0x00001000	/* send pending (read-only) */
#define   LAPIC_ICR_ASSERT		0x00004000	/* level: assert (INIT: 0 = de-assert) */
#define   LAPIC_ICR_LEVEL		0x00008000	/* trigger mode */
#define LAPIC_ICR_HIGH			0x310	/* bits 31:24: destination APIC ID */
#define   LAPIC_ICR_DEST_SHIFT		24
#define LAPIC_LVT_TIMER			0x320
#define LAPIC_LVT_LINT0			0x350
#define LAPIC_LVT_LINT1			0x360
#define LAPIC_LVT_ERROR			0x370
/* LVT entry bits (11.5.1). */
#define   LAPIC_LVT_VECTOR_MASK		0x000000ff
#define   LAPIC_LVT_DM_FIXED		0x00000000	/* delivery mode, bits 10:8 */
#define   LAPIC_LVT_DM_NMI		0x00000400
#define   LAPIC_LVT_DM_EXTINT		0x00000700
#define   LAPIC_LVT_DM_MASK		0x00000700
#define   LAPIC_LVT_ACTIVE_LOW		0x00002000	/* input pin polarity */
#define   LAPIC_LVT_LEVEL		0x00008000	/* trigger mode */
#define   LAPIC_LVT_MASKED		0x00010000
#define   LAPIC_LVT_TIMER_PERIODIC	0x00020000	/* timer mode, bits 18:17 (11.5.4) */
#define LAPIC_TIMER_ICR			0x380	/* Initial Count (11.5.4) */
#define LAPIC_TIMER_CCR			0x390	/* Current Count */
#define LAPIC_TIMER_DCR			0x3e0	/* Divide Configuration */
#define   LAPIC_TIMER_DIV_16		0x3

#define APIC_SPURIOUS_VECTOR		0xff	/* low nibble all ones for P6 parts */

/* I/O APIC: two memory-mapped registers, the rest indirect (82093AA 3.1). */
#define IOAPIC_REGSEL			0x00	/* I/O Register Select (8 bits used) */
#define IOAPIC_WIN			0x10	/* I/O Window (32 bits) */
#define IOAPIC_MMIO_SIZE		0x20
#define IOAPIC_REG_ID			0x00	/* bits 27:24 */
#define IOAPIC_REG_VER			0x01
#define   IOAPIC_VER_MAXREDIR_SHIFT	16	/* bits 23:16: entries - 1 */
#define   IOAPIC_VER_MAXREDIR_MASK	0xff
#define IOAPIC_REG_ARB			0x02
#define IOAPIC_REG_REDTBL(n)		(0x10 + 2 * (n))	/* low dword; +1 high */

/* Redirection table entry, 64 bits (82093AA 3.2.4). */
#define IOAPIC_RTE_VECTOR_MASK		0x00000000000000ffull
#define IOAPIC_RTE_DM_FIXED		0x0000000000000000ull	/* bits 10:8 */
#define IOAPIC_RTE_DM_LOWEST		0x0000000000000100ull
#define IOAPIC_RTE_DM_NMI		0x0000000000000400ull
#define IOAPIC_RTE_DM_EXTINT		0x0000000000000700ull
#define IOAPIC_RTE_DESTMODE_LOGICAL	0x0000000000000800ull
#define IOAPIC_RTE_DELIVS		0x0000000000001000ull	/* read-only */
#define IOAPIC_RTE_ACTIVE_LOW		0x0000000000002000ull	/* INTPOL */
#define IOAPIC_RTE_REMOTE_IRR		0x0000000000004000ull	/* read-only */
#define IOAPIC_RTE_LEVEL		0x0000000000008000ull	/* trigger mode */
#define IOAPIC_RTE_MASKED		0x0000000000010000ull
#define IOAPIC_RTE_DEST_SHIFT		56			/* physical APIC ID */

/* MSI on x86 (SDM 3A 11.11.1 address, 11.11.2 data). */
#define MSI_ADDR_BASE			0xfee00000u
#define MSI_ADDR_DEST_SHIFT		12		/* bits 19:12 destination ID */
#define MSI_ADDR_RH			0x00000008u	/* redirection hint */
#define MSI_ADDR_DM_LOGICAL		0x00000004u
#define MSI_DATA_VECTOR_MASK		0x000000ffu
#define MSI_DATA_DM_FIXED		0x00000000u	/* bits 10:8 */
#define MSI_DATA_LEVEL_ASSERT		0x00004000u	/* only meaningful for level */
#define MSI_DATA_TRIGGER_LEVEL		0x00008000u

#endif
