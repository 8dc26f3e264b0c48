/*
 * Interrupt lines.  A driver asks for a line with request_irq(); several
 * handlers may share one line (PCI INTx), and each says whether the
 * interrupt was its own.  Handlers run with interrupts off, read and
 * acknowledge their device, record completions, wake waiters, and return:
 * anything longer goes to deferred work (kernel/work.h).
 *
 * IRQ numbers are the kernel's: 0-15 are the ISA lines (routed by the PIC,
 * or by the IOAPIC through the ACPI overrides), higher numbers are IOAPIC
 * inputs and MSI vectors handed out by the interrupt code.
 */
#ifndef KERNEL_IRQ_H
#define KERNEL_IRQ_H

#include "kernel/compiler.h"
#include "kernel/percpu.h"

typedef enum { IRQ_NONE = 0, IRQ_HANDLED = 1 } irqreturn_t;
typedef irqreturn_t (*irq_handler_t)(unsigned irq, void *data);

#define NR_IRQS		224	/* vectors 32..255 */

/* Returns 0, -EINVAL for a bad line, -ENOMEM. The line is unmasked. */
int request_irq(unsigned irq, irq_handler_t handler, void *data, const char *name);
/* Removes the handler registered with this data; masks the line if unused. */
void free_irq(unsigned irq, void *data);

/* True while an interrupt or exception handler is running. */
bool in_interrupt(void);

/* The interrupted context, while an IRQ handler runs; NULL otherwise. */
struct trap_frame;
const struct trap_frame *get_irq_regs(void);

/* Count of interrupts taken on a line, for the shell's irq listing. */
u64 irq_count(unsigned irq);
/* The name the i-th handler on a line registered with, or NULL past the last. */
const char *irq_handler_name(unsigned irq, unsigned i);
/* Interrupts dispatched on this CPU: a poller's way to see one came. */
static inline u32 irq_seq_this_cpu(void) { return READ_ONCE(this_cpu()->c_irq_seq); }

#endif
