/*
 * Interrupt controllers, behind one ops table.  kernel/irq.c owns the IDT
 * vectors for IRQs (vector = IRQ_VECTOR_BASE + irq), the handler chains
 * and the dispatch; a chip owns masking and end-of-interrupt for the lines
 * it routes.  The 8259 PIC chip (kernel/pic.c) serves IRQs 0-15 at boot;
 * the IOAPIC/LAPIC code takes the lines over when the ACPI MADT shows an
 * IOAPIC, and MSI vectors get a chip whose EOI goes to the local APIC.
 *
 * Spurious interrupts: a chip's spurious() hook, when present, is asked
 * before the handlers run and may swallow the interrupt (8259 IRQ 7/15).
 */
#ifndef KERNEL_IRQCHIP_H
#define KERNEL_IRQCHIP_H

#include "kernel/compiler.h"

#define IRQ_VECTOR_BASE		32	/* IDT vector of IRQ 0 */
#define NR_ISA_IRQS		16

struct irq_chip {
	const char	*name;
	void		(*mask)(unsigned irq);
	void		(*unmask)(unsigned irq);
	void		(*eoi)(unsigned irq);
	bool		(*spurious)(unsigned irq);	/* optional */
	/*
	 * Optional: send irq to CPU cpu (online) from now on; 0 or an errno.
	 * Called with interrupts on and no irq lock, one call at a time.
	 */
	int		(*set_affinity)(unsigned irq, u32 cpu);
};

/* Route irq through chip; the line starts masked unless a handler exists. */
void irq_set_chip(unsigned irq, const struct irq_chip *chip);
const struct irq_chip *irq_get_chip(unsigned irq);

/*
 * Hand out a free IRQ number (and so a vector) for an MSI or an IOAPIC
 * input beyond the ISA range; -ENOSPC when none is left.
 */
int irq_alloc(const struct irq_chip *chip);
/*
 * The same, recording that the chip sends it to CPU cpu (or that every
 * CPU takes it: IRQ_CPU_EACH); irq_alloc() records the boot CPU.
 */
int irq_alloc_on(const struct irq_chip *chip, u32 cpu);
/* Record where a line goes, for a chip that routed it itself (boot only). */
void irq_note_affinity(unsigned irq, u32 cpu);

/* The trap entry's way in: run line irq's handlers (interrupts off). */
struct trap_frame;
void irq_dispatch(unsigned irq, const struct trap_frame *tf);

/* The 8259 pair: remapped and masked at boot, or shut off for the IOAPIC. */
void pic_init(void);
void pic_disable(void);

#endif
