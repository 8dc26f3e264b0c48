/*
 * The local APIC of the (one) CPU, in xAPIC mode (Intel SDM 3A chapter
 * 11).  lapic_init() enables it through the global enable in
 * IA32_APIC_BASE and the software enable in the spurious-interrupt vector
 * register (11.4.3, 11.9), sets up LINT0 as ExtINT so the 8259 keeps
 * working through it ("virtual wire", until the I/O APIC takes the lines
 * and lapic_mask_extint() is called), LINT1 and any LINT the MADT names
 * as NMI, masks the error LVT, and leaves the timer LVT alone until
 * lapic_timer_start() makes the timer the tick (11.5.4: periodic mode,
 * its rate measured against the TSC) on machines whose PIT does not tick.
 *
 * Spurious interrupts (vector APIC_SPURIOUS_VECTOR) need no EOI: their
 * IRQ gets a chip whose spurious() hook swallows them.
 *
 * A CPU handed over in x2APIC mode cannot be driven through MMIO; it is
 * reported and left alone, and the 8259 stays in charge.
 *
 * Locks: the state is written once at boot (arch_initcall, one CPU) and
 * read-only afterwards; the registers are per-CPU, so EOI needs no lock.
 */
#include "kernel/apic.h"
#include "kernel/apicreg.h"
#include "kernel/acpi.h"
#include "kernel/cpu.h"
#include "kernel/errno.h"
#include "kernel/io.h"
#include "kernel/irq.h"
#include "kernel/irqchip.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"
#include "kernel/mm/vmap.h"

struct lapic {
	volatile u8	*la_base;	/* [I] mapped registers, NULL while off */
	u8		la_id;		/* [I] physical APIC ID */
};

static struct lapic lapic;

static u32 lapic_read(unsigned reg)
{
	return readl(lapic.la_base + reg);
}

static void lapic_write(unsigned reg, u32 v)
{
	writel(lapic.la_base + reg, v);
}

static void spurious_nop(unsigned irq)
{
}

/* Vector 0xff: the APIC's spurious interrupt.  Never acknowledged (11.9). */
static bool spurious_swallow(unsigned irq)
{
	return true;
}

static const struct irq_chip lapic_spurious_chip = {
	.name = "lapic-spurious",
	.mask = spurious_nop,
	.unmask = spurious_nop,
	.eoi = spurious_nop,
	.spurious = spurious_swallow,
};

/* LINT0 and LINT1 as the MADT's NMI entries say; one CPU, so every entry applies. */
static void setup_lints(const struct acpi_madt_info *mi)
{
	u32 lint[2] = { LAPIC_LVT_DM_EXTINT, LAPIC_LVT_DM_NMI };	/* virtual wire */
	unsigned i;

	for (i = 0; i < mi->mi_nlapic_nmi; i++)
		lint[mi->mi_lapic_nmi[i].ln_lint] = lapic_lvt_nmi(mi->mi_lapic_nmi[i].ln_flags);
	lapic_write(LAPIC_LVT_LINT0, lint[0]);
	lapic_write(LAPIC_LVT_LINT1, lint[1]);
}

/**
 * lapic_init - turn on this CPU's local APIC
 * @mi: the MADT (its local APIC address and NMI entries)
 *
 * Returns 0; -ENODEV without an APIC; -EOPNOTSUPP in x2APIC mode;
 * -ENOMEM when the registers cannot be mapped.  Boot only, interrupts
 * may be on: the 8259's path through LINT0 is kept throughout.
 */
int lapic_init(const struct acpi_madt_info *mi)
{
	u32 a, b, c, d;
	u64 base_msr;
	phys_addr_t base;

	cpuid(1, &a, &b, &c, &d);
	if (!(d & CPUID_1_EDX_APIC))
		return -ENODEV;
	base_msr = rdmsr(MSR_IA32_APIC_BASE);
	if (base_msr & APIC_BASE_EXTD)
		return -EOPNOTSUPP;
	/* The MSR is what the CPU decodes; the MADT should agree. */
	base = base_msr & APIC_BASE_ADDR_MASK;
	if (mi->mi_lapic_addr && mi->mi_lapic_addr != base)
		pr_warn("lapic: MADT says %#llx, IA32_APIC_BASE says %#llx; using the MSR\n",
			(unsigned long long)mi->mi_lapic_addr, (unsigned long long)base);
	if (!(base_msr & APIC_BASE_ENABLE))
		wrmsr(MSR_IA32_APIC_BASE, base_msr | APIC_BASE_ENABLE);

	lapic.la_base = ioremap(base, LAPIC_MMIO_SIZE);
	if (!lapic.la_base)
		return -ENOMEM;
	lapic.la_id = (u8)(lapic_read(LAPIC_ID) >> LAPIC_ID_SHIFT);

	lapic_write(LAPIC_TPR, 0);			/* accept every priority */
	lapic_write(LAPIC_LVT_ERROR, LAPIC_LVT_MASKED);
	lapic_write(LAPIC_ESR, 0);			/* ESR is cleared by two writes */
	lapic_write(LAPIC_ESR, 0);
	setup_lints(mi);
	irq_set_chip(APIC_SPURIOUS_VECTOR - IRQ_VECTOR_BASE, &lapic_spurious_chip);
	irq_note_affinity(APIC_SPURIOUS_VECTOR - IRQ_VECTOR_BASE, IRQ_CPU_EACH);
	lapic_write(LAPIC_SVR, LAPIC_SVR_ENABLE | APIC_SPURIOUS_VECTOR);
	return 0;
}

/* The I/O APIC has the ISA lines now: stop taking the 8259's INTR on LINT0. */
void lapic_mask_extint(void)
{
	u32 v = lapic_read(LAPIC_LVT_LINT0);

	if ((v & LAPIC_LVT_DM_MASK) == LAPIC_LVT_DM_EXTINT)
		lapic_write(LAPIC_LVT_LINT0, v | LAPIC_LVT_MASKED);
}

/* True once lapic_init() succeeded: MSI and I/O APIC delivery are possible. */
bool lapic_enabled(void)
{
	return lapic.la_base != NULL;
}

/* This CPU's physical APIC ID, the destination of every I/O APIC entry and MSI. */
u8 lapic_id(void)
{
	return lapic.la_id;
}

/* End of interrupt for whatever the I/O APIC or an MSI delivered (11.8.5). */
void lapic_eoi(void)
{
	lapic_write(LAPIC_EOI, 0);
}

#define LAPIC_TIMER_CAL_US	10000	/* one calibration window, us */
#define LAPIC_TIMER_CAL_RUNS	3	/* the largest count of this many (the least disturbed) */

static void (*lapic_tick_fn)(void);
static u32 lapic_timer_per_cal;		/* counts per LAPIC_TIMER_CAL_US, once measured */

static void lapic_timer_nop(unsigned irq)
{
}

static void lapic_timer_eoi(unsigned irq)
{
	lapic_eoi();
}

static const struct irq_chip lapic_timer_chip = {
	.name = "lapic",
	.mask = lapic_timer_nop,
	.unmask = lapic_timer_nop,
	.eoi = lapic_timer_eoi,
};

static irqreturn_t lapic_timer_interrupt(unsigned irq, void *data)
{
	lapic_tick_fn();
	return IRQ_HANDLED;
}

/* Timer counts (bus clock / 16) per LAPIC_TIMER_CAL_US, masked one-shot runs. */
static u32 lapic_timer_measure(u8 vector)
{
	u32 best = 0, n, i;

	lapic_write(LAPIC_TIMER_DCR, LAPIC_TIMER_DIV_16);
	for (i = 0; i < LAPIC_TIMER_CAL_RUNS; i++) {
		lapic_write(LAPIC_LVT_TIMER, LAPIC_LVT_MASKED | vector);
		lapic_write(LAPIC_TIMER_ICR, 0xffffffffu);
		udelay(LAPIC_TIMER_CAL_US);
		n = 0xffffffffu - lapic_read(LAPIC_TIMER_CCR);
		lapic_write(LAPIC_TIMER_ICR, 0);
		best = max(best, n);
	}
	return best;
}

int lapic_timer_start(unsigned hz, void (*fn)(void))
{
	u32 per_cal, count;
	int irq, err;
	u8 vector;

	if (!lapic.la_base || !tsc_khz())
		return -ENODEV;
	irq = irq_alloc(&lapic_timer_chip);
	if (irq < 0)
		return irq;
	vector = (u8)(IRQ_VECTOR_BASE + irq);
	per_cal = lapic_timer_measure(vector);
	lapic_timer_per_cal = per_cal;
	count = (u32)((u64)per_cal * 1000000 / LAPIC_TIMER_CAL_US / hz);
	if (!count)
		return -EIO;
	lapic_tick_fn = fn;
	err = request_irq((unsigned)irq, lapic_timer_interrupt, NULL, "timer");
	if (err)
		return err;
	lapic_write(LAPIC_LVT_TIMER, LAPIC_LVT_TIMER_PERIODIC | vector);
	lapic_write(LAPIC_TIMER_ICR, count);
	pr_info("lapic: timer %u kHz (bus clock / 16, measured against the TSC), tick %u Hz\n",
		(u32)((u64)per_cal * 1000 / LAPIC_TIMER_CAL_US), hz);
	return 0;
}

/* --- application processors (kernel/smpboot.c) --------------------------- */

#define LAPIC_ICR_WAIT_US	100000	/* an IPI still pending after this: give up */

/* This CPU's APIC ID, read from its own local APIC. */
u32 lapic_this_id(void)
{
	return lapic_read(LAPIC_ID) >> LAPIC_ID_SHIFT;
}

/*
 * Send an inter-processor interrupt: the destination goes in the high
 * half of the ICR, and writing the low half sends it (11.6.1).  Waits,
 * bounded, for the delivery status to clear.  0 or -ETIMEDOUT.
 */
int lapic_send_ipi(u32 apic_id, u32 icr_low)
{
	unsigned long flags;
	u32 waited;
	int ret = -ETIMEDOUT;

	local_irq_save(flags);
	lapic_write(LAPIC_ICR_HIGH, apic_id << LAPIC_ICR_DEST_SHIFT);
	lapic_write(LAPIC_ICR_LOW, icr_low);
	for (waited = 0; waited < LAPIC_ICR_WAIT_US; waited += 10) {
		if (!(lapic_read(LAPIC_ICR_LOW) & LAPIC_ICR_DELIVS)) {
			ret = 0;
			break;
		}
		udelay(10);
	}
	local_irq_restore(flags);
	return ret;
}

/*
 * An application processor's local APIC: on, every priority accepted,
 * errors and the timer masked.  LINT0 stays masked: the 8259's ExtINT
 * path is the boot CPU's alone; LINT1 is the NMI input as on the boot CPU.
 */
void lapic_init_ap(void)
{
	lapic_write(LAPIC_TPR, 0);
	lapic_write(LAPIC_LVT_ERROR, LAPIC_LVT_MASKED);
	lapic_write(LAPIC_ESR, 0);
	lapic_write(LAPIC_ESR, 0);
	lapic_write(LAPIC_LVT_TIMER, LAPIC_LVT_MASKED);
	lapic_write(LAPIC_LVT_LINT0, LAPIC_LVT_MASKED);
	lapic_write(LAPIC_LVT_LINT1, LAPIC_LVT_DM_NMI);
	lapic_write(LAPIC_SVR, LAPIC_SVR_ENABLE | APIC_SPURIOUS_VECTOR);
}

/*
 * Initial count for a periodic timer at hz on this CPU: the boot CPU's
 * measurement when its own tick made one, else measured here (the
 * application processors each do it, at once, while the boot CPU goes
 * on booting).  0 when it cannot be measured.
 */
u32 lapic_timer_count(unsigned hz, u8 vector)
{
	u32 per_cal = READ_ONCE(lapic_timer_per_cal);

	if (!lapic.la_base || !tsc_khz() || !hz)
		return 0;
	if (!per_cal)
		per_cal = lapic_timer_measure(vector);
	return (u32)((u64)per_cal * 1000000 / LAPIC_TIMER_CAL_US / hz);
}

/* Start this CPU's timer: periodic, count as lapic_timer_count() gave, on vector. */
void lapic_timer_start_this_cpu(u32 count, u8 vector)
{
	lapic_write(LAPIC_TIMER_DCR, LAPIC_TIMER_DIV_16);
	lapic_write(LAPIC_LVT_TIMER, LAPIC_LVT_TIMER_PERIODIC | vector);
	lapic_write(LAPIC_TIMER_ICR, count);
}
