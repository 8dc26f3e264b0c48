/*
 * Local APIC, I/O APIC and MSI: how interrupts reach the CPU when the
 * ACPI MADT shows APICs.  kernel/irq.c keeps the vectors, handler chains
 * and dispatch (kernel/irqchip.h); this is the chip side.
 *
 * At arch_initcall time apic_init() (kernel/apic_init.c) parses the MADT,
 * enables the local APIC, and, when an I/O APIC exists, moves the ISA
 * lines 0-15 off the 8259 onto it (with the MADT's source overrides) and
 * masks the 8259.  Without a MADT, a local APIC or an I/O APIC it leaves
 * the 8259 in charge, and MSI is only offered when the local APIC is on.
 *
 * IRQ numbers stay the kernel's: 0-15 are ISA lines whichever chip
 * serves them; other I/O APIC inputs and MSI vectors get numbers from
 * irq_alloc().
 */
#ifndef KERNEL_APIC_H
#define KERNEL_APIC_H

#include "kernel/compiler.h"

struct acpi_madt_info;

/* kernel/lapic.c */
int lapic_init(const struct acpi_madt_info *mi);
void lapic_mask_extint(void);
bool lapic_enabled(void);
u8 lapic_id(void);
void lapic_eoi(void);
/*
 * Make the local APIC timer the periodic tick at hz, calibrated against
 * the TSC; each tick calls fn.  For machines whose PIT does not tick.
 * 0, or -ENODEV (no local APIC, no TSC rate), -ENOSPC, -EIO.
 */
int lapic_timer_start(unsigned hz, void (*fn)(void));

/* Starting and running the other CPUs (kernel/smpboot.c). */
u32 lapic_this_id(void);
int lapic_send_ipi(u32 apic_id, u32 icr_low);
void lapic_init_ap(void);
u32 lapic_timer_count(unsigned hz, u8 vector);
void lapic_timer_start_this_cpu(u32 count, u8 vector);

/* An I/O APIC input as programmed, read back from the hardware. */
struct ioapic_line {
	u32	il_gsi;
	u8	il_apic_id;		/* of the I/O APIC serving it */
	u8	il_vector;
	bool	il_level;
	bool	il_active_low;
	bool	il_masked;
	u8	il_dest;		/* destination APIC ID */
};

/* kernel/ioapic.c */
int ioapic_init(const struct acpi_madt_info *mi);
int ioapic_irq_line(unsigned irq, struct ioapic_line *out);
int ioapic_take_isa(const struct acpi_madt_info *mi);
bool ioapic_active(void);
int ioapic_isa_irq_pci(unsigned irq);
int ioapic_route_gsi(u32 gsi, bool level, bool active_low);

/* kernel/msi.c */
int msi_irq_alloc(u64 *addr, u32 *data);
typedef int (*msi_write_fn)(void *ctx, u32 cookie, u64 addr, u32 data);
void msi_irq_set_writer(unsigned irq, msi_write_fn write, void *ctx, u32 cookie);

/* kernel/apic_encode.c: pure encodings, host-tested. */
u64 ioapic_rte_encode(u8 vector, u8 dest, bool level, bool active_low, bool masked);
void msi_compose(u8 dest, u8 vector, u64 *addr, u32 *data);
u32 lapic_lvt_nmi(u16 inti_flags);

#endif
