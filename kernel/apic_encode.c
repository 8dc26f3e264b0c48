/*
 * Bit-level encodings of APIC messages, kept apart from the register
 * access so that host tests can check them: I/O APIC redirection entries
 * (82093AA datasheet 3.2.4), MSI address/data pairs (Intel SDM 3A
 * 11.11), and local APIC LVT entries for NMI lines from the MADT.
 * Every interrupt goes to one CPU by physical APIC ID with fixed delivery.
 */
#include "kernel/apic.h"
#include "kernel/apicreg.h"
#include "kernel/acpi.h"

/* A redirection entry: fixed delivery, physical destination dest. */
u64 ioapic_rte_encode(u8 vector, u8 dest, bool level, bool active_low, bool masked)
{
	u64 rte = vector | IOAPIC_RTE_DM_FIXED;

	if (level)
		rte |= IOAPIC_RTE_LEVEL;
	if (active_low)
		rte |= IOAPIC_RTE_ACTIVE_LOW;
	if (masked)
		rte |= IOAPIC_RTE_MASKED;
	return rte | (u64)dest << IOAPIC_RTE_DEST_SHIFT;
}

/*
 * An MSI message for vector on the CPU with APIC ID dest: physical
 * destination mode, no redirection hint, fixed delivery, edge.
 */
void msi_compose(u8 dest, u8 vector, u64 *addr, u32 *data)
{
	*addr = MSI_ADDR_BASE | (u32)dest << MSI_ADDR_DEST_SHIFT;
	*data = MSI_DATA_DM_FIXED | vector;
}

/*
 * The LVT value for a LINT pin the MADT names as NMI: NMI delivery (the
 * vector is ignored), polarity from the MPS INTI flags; NMI is always
 * edge-triggered (SDM 3A 11.5.1), whatever the flags say.
 */
u32 lapic_lvt_nmi(u16 inti_flags)
{
	u32 v = LAPIC_LVT_DM_NMI;

	if ((inti_flags & ACPI_INTI_POLARITY_MASK) == ACPI_INTI_POLARITY_LOW)
		v |= LAPIC_LVT_ACTIVE_LOW;
	return v;
}
