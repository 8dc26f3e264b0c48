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
 * Every CPU dispatches: a line goes to the CPU its chip was told
 * (irq_set_affinity, kernel/irq.h), and local vectors to each.  Counts
 * are kept per CPU, each CPU writing only its own slot.  Dispatch reads
 * a chain without the lock: a new action is complete before it is
 * published, and free_irq() unlinks an action, then waits until no CPU
 * is inside that line's dispatch (id_running) before the record is
 * handed out again.
 *
 * Lock legend: [r] irq_lock (irqsave) guards the chains and chip table for
 * writers; [d] dispatch, lock-free (see above); [c] each CPU its own
 * slot; [f] affinity_lock: one steering change at a time.
 */
#include "kernel/irq.h"
#include "kernel/irqchip.h"
#include "kernel/cpu.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"
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
	struct irq_action	*id_actions;	/* [r] written; [d] read */
	u32			id_running;	/* [d] atomic: CPUs inside dispatch */
	u32			id_unhandled;	/* [d] in a row; racy across CPUs, a hint */
	u32			id_cpu;		/* [f] where it goes, IRQ_CPU_EACH */
	bool			id_allocated;	/* [r] handed out by irq_alloc */
	u32			id_count[NR_CPUS];	/* [c] taken on each CPU */
};

static DEFINE_SPINLOCK(irq_lock);
static DEFINE_SPINLOCK(affinity_lock);
static struct irq_desc irq_descs[NR_IRQS];
static struct irq_action action_pool[MAX_ACTIONS];
static u32 irq_rr_next = 1;	/* [a] the round robin's next pick: the boot CPU,
				 * which has the timer and serial, comes last */

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
	return irq_alloc_on(chip, 0);
}

int irq_alloc_on(const struct irq_chip *chip, u32 cpu)
{
	unsigned long flags;
	unsigned irq;

	spin_lock_irqsave(&irq_lock, flags);
	for (irq = NR_ISA_IRQS; irq < NR_IRQS; irq++) {
		if (!irq_descs[irq].id_chip && !irq_descs[irq].id_allocated) {
			irq_descs[irq].id_allocated = true;
			irq_descs[irq].id_chip = chip;
			irq_descs[irq].id_cpu = cpu;
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
	/* Published whole: another CPU may be walking the chain. */
	__atomic_store_n(&d->id_actions, a, __ATOMIC_RELEASE);
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
	for (pp = &d->id_actions; (a = *pp); pp = &a->ia_next)
		if (a->ia_data == data)
			break;
	if (a)
		__atomic_store_n(pp, a->ia_next, __ATOMIC_SEQ_CST);
	if (!d->id_actions && d->id_chip && d->id_chip->mask)
		d->id_chip->mask(irq);
	spin_unlock_irqrestore(&irq_lock, flags);
	if (!a)
		return;
	/* A CPU that found a before the unlink is inside dispatch: let it finish. */
	while (__atomic_load_n(&d->id_running, __ATOMIC_SEQ_CST))
		cpu_relax();
	spin_lock_irqsave(&irq_lock, flags);
	a->ia_handler = NULL;		/* the record is free again */
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
	u64 n = 0;
	u32 i;

	if (irq >= NR_IRQS)
		return 0;
	for (i = 0; i < NR_CPUS; i++)
		n += READ_ONCE(irq_descs[irq].id_count[i]);
	return n;
}

u32 irq_count_cpu(unsigned irq, u32 cpu)
{
	if (irq >= NR_IRQS || cpu >= NR_CPUS)
		return 0;
	return READ_ONCE(irq_descs[irq].id_count[cpu]);
}

u32 irq_get_affinity(unsigned irq)
{
	return irq < NR_IRQS ? READ_ONCE(irq_descs[irq].id_cpu) : 0;
}

void irq_note_affinity(unsigned irq, u32 cpu)
{
	if (irq < NR_IRQS)
		WRITE_ONCE(irq_descs[irq].id_cpu, cpu);
}

bool irq_cpu_online(u32 cpu)
{
	struct cpu *c;

	if (cpu >= NR_CPUS)
		return false;
	c = READ_ONCE(cpu_table[cpu]);
	if (cpu == 0 && !c)
		return true;		/* before smp_initcall: the boot CPU */
	return c && READ_ONCE(c->c_state) == CPU_ONLINE;
}

u32 irq_next_cpu(void)
{
	u32 i, cpu;

	for (i = 0; i < NR_CPUS; i++) {
		cpu = __atomic_fetch_add(&irq_rr_next, 1, __ATOMIC_RELAXED) % NR_CPUS;
		if (irq_cpu_online(cpu))
			return cpu;
		if (!READ_ONCE(cpu_table[cpu]))
			__atomic_store_n(&irq_rr_next, 0, __ATOMIC_RELAXED);	/* past the last */
	}
	return 0;
}

int irq_set_affinity(unsigned irq, u32 cpu)
{
	const struct irq_chip *chip;
	unsigned long flags;
	int err;

	if (irq >= NR_IRQS || !irq_cpu_online(cpu))
		return -EINVAL;
	chip = irq_descs[irq].id_chip;
	if (!chip || !chip->set_affinity || irq_descs[irq].id_cpu == IRQ_CPU_EACH)
		return -EOPNOTSUPP;
	spin_lock_irqsave(&affinity_lock, flags);
	err = chip->set_affinity(irq, cpu);
	if (!err)
		WRITE_ONCE(irq_descs[irq].id_cpu, cpu);
	spin_unlock_irqrestore(&affinity_lock, flags);
	return err;
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
	d->id_count[c->c_id]++;
	c->c_irq_seq++;
	c->c_irq_frame = tf;
	__atomic_fetch_add(&d->id_running, 1, __ATOMIC_SEQ_CST);
	for (a = __atomic_load_n(&d->id_actions, __ATOMIC_ACQUIRE); a;
	     a = __atomic_load_n(&a->ia_next, __ATOMIC_ACQUIRE))
		if (a->ia_handler(irq, a->ia_data) == IRQ_HANDLED)
			handled = true;
	__atomic_fetch_sub(&d->id_running, 1, __ATOMIC_RELEASE);
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
