/*
 * Interrupt routing bring-up: which controller serves the ISA lines, the
 * decision made once at arch_initcall time.
 *
 *   no MADT, no APIC in the CPU, x2APIC handoff, or "noapic":
 *	the 8259 PIC keeps everything; no MSI
 *   MADT without an I/O APIC:
 *	local APIC on (8259 through LINT0 ExtINT, "virtual wire"); MSI works
 *   MADT with I/O APICs:
 *	local APIC on, ISA IRQs 0-15 moved to the I/O APIC with the MADT's
 *	source overrides, the 8259 masked; MSI works
 *
 * PCI INTx routing builds on this choice: drivers/pci/pci_irq.c.  The
 * "apic" shell command shows the outcome, read back from the hardware:
 *
 *	local APIC 0, MADT: 1 CPU, 1 I/O APIC, 5 overrides, 8259s present
 *	I/O APIC 0 at 0xfec00000: GSI base 0
 *	IRQ  GSI  VECTOR  TRIGGER  POLARITY  MASK
 *	  0    2      32  edge     high      no
 */
#include "kernel/apic.h"
#include "kernel/irq.h"
#include "kernel/acpi.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/param.h"
#include "kernel/printk.h"
#include "kernel/time.h"

static bool apic_off;
PARAM_BOOL("noapic", apic_off, "keep every interrupt on the 8259 PIC (no APIC, no MSI)");

static int apic_setup(void)
{
	const struct acpi_madt_info *mi;
	int err, nio, n;

	if (apic_off) {
		pr_info("apic: noapic: interrupts stay on the 8259 PIC\n");
		return 0;
	}
	mi = acpi_madt();
	if (!mi) {
		pr_info("apic: no MADT: interrupts stay on the 8259 PIC\n");
		return 0;
	}
	err = lapic_init(mi);
	if (err) {
		pr_warn("apic: local APIC unusable (%s): interrupts stay on the 8259 PIC\n",
			errstr(err));
		return 0;
	}
	if (mi->mi_nioapic == 0) {
		pr_info("apic: local APIC %u on, no I/O APIC: ISA lines stay on the 8259\n",
			lapic_id());
		return 0;
	}
	nio = ioapic_init(mi);
	if (nio < 0) {
		pr_warn("apic: no I/O APIC answers: ISA lines stay on the 8259\n");
		return 0;
	}
	n = ioapic_take_isa(mi);
	pr_info("apic: local APIC %u, %d I/O APIC(s), %d ISA lines moved off the 8259\n",
		lapic_id(), nio, n);
	return 0;
}

static int apic_init(void)
{
	apic_setup();
	time_start_apic_tick();	/* the tick, if the PIT does not give it */
	return 0;
}
arch_initcall(apic_init);
