/*
 * IRQ handler chains and dispatch.
 *
 * Each IRQ has a chip (kernel/irqchip.h) and a chain of handlers; a shared
 * line calls every handler and counts the interrupt as unhandled only if
 * none claimed it.  A line that keeps firing with nobody claiming it
 * (a level-triggered storm) is masked with a message rather than hanging
 * the machine.  Handler records come from a fixed pool: interrupts are set
 * up at boot and by drivers, never in bulk.
 *
 * Lock legend: [r] irq_lock (irqsave) guards the chains and chip table for
 * writers; dispatch runs with interrupts off on the only CPU and reads
 * the chains without it.
 */
#include "kernel/irq.h"
#include "kernel/irqchip.h"
#include "kernel/percpu.h"
#include "kernel/spinlock.h"
#include "kernel/printk.h"
#include "kernel/errno.h"

#define MAX_ACTIONS		64	/* handlers across all lines */
#define UNHANDLED_LIMIT		100000	/* unclaimed in a row before masking */

struct irq_action {
	irq_handler_t		ia_handler;	/* [r] */
	void			*ia_data;	/* [r] */
	const char		*ia_name;	/* [r] */
	struct irq_action	*ia_next;	/* [r] */
};

struct irq_desc {
	const struct irq_chip	*id_chip;	/* [r] */
	struct irq_action	*id_actions;	/* [r] */
	u64			id_count;	/* dispatch only */
	u32			id_unhandled;	/* dispatch only: in a row */
	bool			id_allocated;	/* [r] handed out by irq_alloc */
};

static DEFINE_SPINLOCK(irq_lock);
static struct irq_desc irq_descs[NR_IRQS];
static struct irq_action action_pool[MAX_ACTIONS];

void irq_set_chip(unsigned irq, const struct irq_chip *chip)
{
	unsigned long flags;

	if (irq >= NR_IRQS)
		return;
	spin_lock_irqsave(&irq_lock, flags);
	irq_descs[irq].id_chip = chip;
	if (chip && chip->mask && !irq_descs[irq].id_actions)
		chip->mask(irq);
	else if (chip && chip->unmask && irq_descs[irq].id_actions)
		chip->unmask(irq);
	spin_unlock_irqrestore(&irq_lock, flags);
}

const struct irq_chip *irq_get_chip(unsigned irq)
{
	return irq < NR_IRQS ? irq_descs[irq].id_chip : NULL;
}

int irq_alloc(const struct irq_chip *chip)
{
	unsigned long flags;
	unsigned irq;

	spin_lock_irqsave(&irq_lock, flags);
	for (irq = NR_ISA_IRQS; irq < NR_IRQS; irq++) {
		if (!irq_descs[irq].id_chip && !irq_descs[irq].id_allocated) {
			irq_descs[irq].id_allocated = true;
			irq_descs[irq].id_chip = chip;
			spin_unlock_irqrestore(&irq_lock, flags);
			return (int)irq;
		}
	}
	spin_unlock_irqrestore(&irq_lock, flags);
	return -ENOSPC;
}

int request_irq(unsigned irq, irq_handler_t handler, void *data, const char *name)
{
	struct irq_action *a = NULL;
	struct irq_desc *d;
	unsigned long flags;
	unsigned i;

	if (irq >= NR_IRQS || !handler)
		return -EINVAL;
	d = &irq_descs[irq];
	spin_lock_irqsave(&irq_lock, flags);
	for (i = 0; i < MAX_ACTIONS; i++) {
		if (!action_pool[i].ia_handler) {
			a = &action_pool[i];
			break;
		}
	}
	if (!a) {
		spin_unlock_irqrestore(&irq_lock, flags);
		return -ENOMEM;
	}
	a->ia_handler = handler;
	a->ia_data = data;
	a->ia_name = name;
	a->ia_next = d->id_actions;
	d->id_actions = a;
	d->id_unhandled = 0;
	if (d->id_chip && d->id_chip->unmask)
		d->id_chip->unmask(irq);
	spin_unlock_irqrestore(&irq_lock, flags);
	return 0;
}

void free_irq(unsigned irq, void *data)
{
	struct irq_action **pp, *a;
	struct irq_desc *d;
	unsigned long flags;

	if (irq >= NR_IRQS)
		return;
	d = &irq_descs[irq];
	spin_lock_irqsave(&irq_lock, flags);
	for (pp = &d->id_actions; (a = *pp); pp = &a->ia_next) {
		if (a->ia_data == data) {
			*pp = a->ia_next;
			a->ia_handler = NULL;
			break;
		}
	}
	if (!d->id_actions && d->id_chip && d->id_chip->mask)
		d->id_chip->mask(irq);
	spin_unlock_irqrestore(&irq_lock, flags);
}

const char *irq_handler_name(unsigned irq, unsigned i)
{
	struct irq_action *a;

	if (irq >= NR_IRQS)
		return NULL;
	for (a = irq_descs[irq].id_actions; a && i; a = a->ia_next)
		i--;
	return a ? a->ia_name : NULL;
}

u64 irq_count(unsigned irq)
{
	return irq < NR_IRQS ? irq_descs[irq].id_count : 0;
}

/* The frame of the interrupt this CPU is handling (interrupts are off meanwhile). */
const struct trap_frame *get_irq_regs(void)
{
	return this_cpu()->c_irq_frame;
}

/* Called from trap_dispatch with interrupts off. */
void irq_dispatch(unsigned irq, const struct trap_frame *tf)
{
	struct irq_desc *d = &irq_descs[irq];
	const struct irq_chip *chip = d->id_chip;
	struct cpu *c = this_cpu();
	const struct trap_frame *outer = c->c_irq_frame;
	struct irq_action *a;
	bool handled = false;

	if (chip && chip->spurious && chip->spurious(irq))
		return;
	d->id_count++;		/* a vector several CPUs take (their timers) may lose counts */
	c->c_irq_seq++;
	c->c_irq_frame = tf;
	for (a = d->id_actions; a; a = a->ia_next)
		if (a->ia_handler(irq, a->ia_data) == IRQ_HANDLED)
			handled = true;
	c->c_irq_frame = outer;
	if (handled) {
		d->id_unhandled = 0;
	} else if (++d->id_unhandled == UNHANDLED_LIMIT && chip && chip->mask) {
		pr_err("irq %u: %u interrupts nobody claimed; masking the line\n",
		       irq, UNHANDLED_LIMIT);
		chip->mask(irq);
	}
	if (chip && chip->eoi)
		chip->eoi(irq);
}
