/*
 * The two cascaded 8259A PICs: ISA IRQs 0-15 at vectors 32-47.
 *
 * Initialised with ICW1-ICW4 (8259A data sheet) to remap the master to
 * vector 32 and the slave to 40, all lines masked except the cascade.
 * A spurious IRQ 7 or 15 (the line dropped before the CPU acknowledged
 * it) shows as a clear bit in the in-service register: it is swallowed,
 * and for 15 the master still gets its EOI for the cascade.
 */
#include "kernel/irqchip.h"
#include "kernel/io.h"
#include "kernel/spinlock.h"

#define PIC1_CMD	0x20
#define PIC1_DATA	0x21
#define PIC2_CMD	0xA0
#define PIC2_DATA	0xA1

#define ICW1_ICW4	0x01	/* ICW4 follows */
#define ICW1_INIT	0x10
#define ICW3_MASTER	0x04	/* slave on IR2 */
#define ICW3_SLAVE	0x02	/* slave's cascade identity */
#define ICW4_8086	0x01
#define OCW2_EOI	0x20	/* non-specific EOI */
#define OCW3_READ_ISR	0x0B
#define PIC_CASCADE	2

static DEFINE_SPINLOCK(pic_lock);
static u16 pic_mask = 0xFFFF & ~(1u << PIC_CASCADE);	/* [pic_lock] 1 = masked */

static void pic_write_mask(void)
{
	outb(PIC1_DATA, (u8)pic_mask);
	outb(PIC2_DATA, (u8)(pic_mask >> 8));
}

static void pic_mask_irq(unsigned irq)
{
	unsigned long flags;

	spin_lock_irqsave(&pic_lock, flags);
	pic_mask |= (u16)(1u << irq);
	pic_write_mask();
	spin_unlock_irqrestore(&pic_lock, flags);
}

static void pic_unmask_irq(unsigned irq)
{
	unsigned long flags;

	spin_lock_irqsave(&pic_lock, flags);
	pic_mask &= (u16)~(1u << irq);
	pic_write_mask();
	spin_unlock_irqrestore(&pic_lock, flags);
}

static void pic_eoi(unsigned irq)
{
	if (irq >= 8)
		outb(PIC2_CMD, OCW2_EOI);
	outb(PIC1_CMD, OCW2_EOI);
}

static u16 pic_read_isr(void)
{
	outb(PIC1_CMD, OCW3_READ_ISR);
	outb(PIC2_CMD, OCW3_READ_ISR);
	return (u16)(inb(PIC1_CMD) | (inb(PIC2_CMD) << 8));
}

static bool pic_spurious(unsigned irq)
{
	if (irq != 7 && irq != 15)
		return false;
	if (pic_read_isr() & (1u << irq))
		return false;
	if (irq == 15)
		outb(PIC1_CMD, OCW2_EOI);	/* the master did see the cascade */
	return true;
}

static const struct irq_chip pic_chip = {
	.name = "8259",
	.mask = pic_mask_irq,
	.unmask = pic_unmask_irq,
	.eoi = pic_eoi,
	.spurious = pic_spurious,
};

void pic_init(void)
{
	unsigned irq;

	outb(PIC1_CMD, ICW1_INIT | ICW1_ICW4);
	io_delay();
	outb(PIC2_CMD, ICW1_INIT | ICW1_ICW4);
	io_delay();
	outb(PIC1_DATA, IRQ_VECTOR_BASE);
	io_delay();
	outb(PIC2_DATA, IRQ_VECTOR_BASE + 8);
	io_delay();
	outb(PIC1_DATA, ICW3_MASTER);
	io_delay();
	outb(PIC2_DATA, ICW3_SLAVE);
	io_delay();
	outb(PIC1_DATA, ICW4_8086);
	io_delay();
	outb(PIC2_DATA, ICW4_8086);
	io_delay();
	pic_write_mask();
	for (irq = 0; irq < NR_ISA_IRQS; irq++)
		if (irq != PIC_CASCADE)
			irq_set_chip(irq, &pic_chip);
}

/* Mask every line, for when the IOAPIC takes over. */
void pic_disable(void)
{
	unsigned long flags;

	spin_lock_irqsave(&pic_lock, flags);
	pic_mask = 0xFFFF;
	pic_write_mask();
	spin_unlock_irqrestore(&pic_lock, flags);
}
