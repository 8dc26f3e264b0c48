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
/*
 * Removes the handler registered with this data; masks the line if unused.
 * Returns after any run of that handler on another CPU has finished, so
 * its data may be freed then.  Never from that line's own handler.
 */
void free_irq(unsigned irq, void *data);

/* True while an interrupt or exception handler is running. */
bool in_interrupt(void);

/* The interrupted context, while an IRQ handler runs; NULL otherwise. */
struct trap_frame;
const struct trap_frame *get_irq_regs(void);

/* Count of interrupts taken on a line, for the shell's irq listing. */
u64 irq_count(unsigned irq);
/* Of those, the ones taken on CPU cpu (logical number). */
u32 irq_count_cpu(unsigned irq, u32 cpu);

/*
 * Where a line's interrupts go.  Device lines go to one CPU each: the
 * ISA lines (timer, keyboard, serial) to the boot CPU, other lines to a
 * CPU chosen round robin at set-up (irq_next_cpu), unless a driver says
 * otherwise, e.g. one vector per queue on the queue's own CPU.  Local
 * vectors (the APIC timers, IPIs) are taken by every CPU: IRQ_CPU_EACH.
 */
#define IRQ_CPU_EACH	0xffffffffu

/* The logical CPU the line is steered to, or IRQ_CPU_EACH. */
u32 irq_get_affinity(unsigned irq);
/**
 * irq_set_affinity - steer a line to another CPU
 * @irq: a line whose chip can be steered (I/O APIC input, MSI, MSI-X)
 * @cpu: an online CPU's logical number
 *
 * Safe while the line is live: the chip masks, rewrites and unmasks
 * (MSI-X, MSI with per-vector masking) or rewrites the destination in one
 * write (I/O APIC).  An interrupt already on its way is taken on the old
 * CPU; handlers must be correct on any CPU.  Returns 0, -EINVAL (bad irq
 * or CPU not online), -EOPNOTSUPP (a chip that cannot be steered), or the
 * chip's error (-EBUSY: a plain MSI without masking, which cannot be
 * rewritten safely while enabled).  Not from interrupt context.
 */
int irq_set_affinity(unsigned irq, u32 cpu);
/* The next online CPU in round-robin order, for a new line (0 with one CPU). */
u32 irq_next_cpu(void);
/* True when CPU cpu is online (steering targets only online CPUs). */
bool irq_cpu_online(u32 cpu);
/* The name the i-th handler on a line registered with, or NULL past the last. */
const char *irq_handler_name(unsigned irq, unsigned i);
/* Interrupts dispatched on this CPU: a poller's way to see one came. */
static inline u32 irq_seq_this_cpu(void) { return READ_ONCE(this_cpu()->c_irq_seq); }

#endif
