/*
 * apic_fake.c: host stand-ins for the kernel/apic.h calls PCI interrupt
 * code makes (ioapic_active, ioapic_isa_irq_pci, ioapic_route_gsi,
 * msi_irq_alloc, msi_irq_set_writer), with controls and a record of the
 * calls.  msi_compose comes from the real
 * kernel/apic_encode.c, which tests list beside this fake.
 */
#ifndef TESTS_UNIT_FAKES_APIC_FAKE_H
#define TESTS_UNIT_FAKES_APIC_FAKE_H

#include "kernel/apic.h"
#include "kernel/types.h"

extern bool host_ioapic_on;		/* what ioapic_active() says */
extern int host_ioapic_pci_ret;		/* what ioapic_isa_irq_pci() returns */
extern int host_ioapic_pci_last;	/* its last argument, -1 if never called */
extern int host_msi_next;		/* next IRQ msi_irq_alloc hands out, or an errno */
extern int host_ioapic_gsi_ret;		/* ioapic_route_gsi(): IRQ = GSI + this, or an errno */
extern int host_ioapic_gsi_last;	/* its last GSI, -1 if never called */
extern bool host_ioapic_gsi_level_low;	/* its last call asked for level, active low */

/* The steering writers the PCI code registered, by IRQ. */
#define HOST_MSI_IRQS	256
struct host_msi_writer {
	msi_write_fn	write;
	void		*ctx;
	u32		cookie;
};
extern struct host_msi_writer host_msi_writers[HOST_MSI_IRQS];
/* What kernel/msi.c does on irq_set_affinity: the message for APIC ID dest, written. */
int host_msi_steer(unsigned irq, u8 dest);

#endif
