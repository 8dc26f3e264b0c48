/*
 * I/O APICs (82093AA and compatibles), as the MADT lists them: each
 * serves a range of Global System Interrupts from its gsi_base.
 *
 * ioapic_init() maps every I/O APIC, masks all its inputs and programs
 * the MADT's NMI sources.  ioapic_take_isa() moves ISA IRQs 0-15 (not 2,
 * the cascade) from the 8259 to the I/O APIC: each goes to the GSI the
 * MADT's source overrides give (IRQ 0 to GSI 2 on most PCs), with their
 * polarity and trigger, or else ISA's edge/active-high, on vector
 * IRQ_VECTOR_BASE + irq, fixed delivery to the boot CPU, where the
 * timer, keyboard and serial lines stay.  Lines are switched
 * with interrupts off: masked at the 8259 through its chip, then handed
 * to ioapic_chip (irq_set_chip unmasks the ones that have handlers).
 * Other GSIs get IRQ numbers from irq_alloc() on demand.
 *
 * PCI lines (other GSIs, and ISA lines made PCI by ioapic_isa_irq_pci)
 * go to a CPU chosen round robin when first routed; irq_set_affinity
 * moves a line by rewriting the destination field, the entry's high
 * dword, in one 32-bit write (82093AA 3.2.4), so the entry is never seen
 * half-changed.
 *
 * Level-triggered inputs need no extra step: the local APIC EOI is
 * broadcast to the I/O APICs and clears Remote IRR.
 *
 * The chip callbacks get only an IRQ number, so the state is one
 * system-wide structure.  Locks: [I] set at boot before any line is
 * handed over; [l] ios_lock, which also covers the IOREGSEL/IOWIN pair.
 */
#include "kernel/apic.h"
#include "kernel/apicreg.h"
#include "kernel/acpi.h"
#include "kernel/errno.h"
#include "kernel/io.h"
#include "kernel/irq.h"
#include "kernel/irqchip.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "kernel/mm/vmap.h"

#define IOAPIC_D_ROUTE	0x01

#define IOAPIC_MAX_PINS	240		/* 8-bit entry count; vectors run out first */
#define IOAPIC_NO_GSI	0xffffffffu

struct ioapic {
	volatile u8	*io_base;	/* [I] */
	u32		io_gsi_base;	/* [I] */
	u32		io_npins;	/* [I] */
	u8		io_id;		/* [I] */
};

struct ioapic_sys {
	spinlock_t	ios_lock;
	struct ioapic	ios_chip[ACPI_MAX_IOAPICS];	/* [I] */
	unsigned	ios_nchips;			/* [I] */
	bool		ios_active;			/* [l] ISA lines are ours */
	u16		ios_isa_override;		/* [I] bit n: IRQ n had an override */
	u16		ios_isa_pci;			/* [l] bit n: IRQ n carries PCI INTx */
	u32		ios_gsi[NR_IRQS];		/* [l] IRQ -> GSI, IOAPIC_NO_GSI */
	u8		ios_dest[NR_IRQS];		/* [l] IRQ -> destination APIC ID */
};

static struct ioapic_sys ios = { .ios_lock = SPINLOCK_INIT("ioapic") };

static u32 ioapic_read(struct ioapic *io, u32 reg)
{
	writel(io->io_base + IOAPIC_REGSEL, reg);
	return readl(io->io_base + IOAPIC_WIN);
}

static void ioapic_write(struct ioapic *io, u32 reg, u32 v)
{
	writel(io->io_base + IOAPIC_REGSEL, reg);
	writel(io->io_base + IOAPIC_WIN, v);
}

/* High dword first, so the entry is never live with a stale destination. */
static void __rte_write(struct ioapic *io, u32 pin, u64 rte)
{
	assert_spin_locked(&ios.ios_lock);
	ioapic_write(io, IOAPIC_REG_REDTBL(pin) + 1, (u32)(rte >> 32));
	ioapic_write(io, IOAPIC_REG_REDTBL(pin), (u32)rte);
}

/* The I/O APIC and input serving gsi, or NULL. */
static struct ioapic *gsi_to_pin(u32 gsi, u32 *pin)
{
	unsigned i;

	for (i = 0; i < ios.ios_nchips; i++) {
		struct ioapic *io = &ios.ios_chip[i];

		if (gsi >= io->io_gsi_base && gsi - io->io_gsi_base < io->io_npins) {
			*pin = gsi - io->io_gsi_base;
			return io;
		}
	}
	return NULL;
}

/* The I/O APIC and input that carry irq, or NULL.  Caller holds ios_lock. */
static struct ioapic *__irq_to_pin(unsigned irq, u32 *pin)
{
	assert_spin_locked(&ios.ios_lock);
	if (irq >= NR_IRQS || ios.ios_gsi[irq] == IOAPIC_NO_GSI)
		return NULL;
	return gsi_to_pin(ios.ios_gsi[irq], pin);
}

static void set_mask(unsigned irq, bool masked)
{
	unsigned long flags;
	struct ioapic *io;
	u32 pin, lo;

	spin_lock_irqsave(&ios.ios_lock, flags);
	io = __irq_to_pin(irq, &pin);
	if (io) {
		lo = ioapic_read(io, IOAPIC_REG_REDTBL(pin));
		lo = masked ? lo | (u32)IOAPIC_RTE_MASKED : lo & ~(u32)IOAPIC_RTE_MASKED;
		ioapic_write(io, IOAPIC_REG_REDTBL(pin), lo);
	}
	spin_unlock_irqrestore(&ios.ios_lock, flags);
}

static void ioapic_mask(unsigned irq)
{
	set_mask(irq, true);
}

static void ioapic_unmask(unsigned irq)
{
	set_mask(irq, false);
}

static void ioapic_eoi(unsigned irq)
{
	lapic_eoi();
}

/* The physical APIC ID of logical CPU cpu; this CPU's before SMP start. */
static u8 cpu_dest(u32 cpu)
{
	struct cpu *c = cpu < NR_CPUS ? cpu_table[cpu] : NULL;

	return c ? (u8)c->c_apic_id : lapic_id();
}

/* irq_set_affinity: the destination alone, the high dword (see the top). */
static int ioapic_set_affinity(unsigned irq, u32 cpu)
{
	unsigned long flags;
	struct ioapic *io;
	u32 pin;
	int err = -ENOENT;

	spin_lock_irqsave(&ios.ios_lock, flags);
	io = __irq_to_pin(irq, &pin);
	if (io) {
		ios.ios_dest[irq] = cpu_dest(cpu);
		ioapic_write(io, IOAPIC_REG_REDTBL(pin) + 1,
			     (u32)((u64)ios.ios_dest[irq] << IOAPIC_RTE_DEST_SHIFT >> 32));
		err = 0;
	}
	spin_unlock_irqrestore(&ios.ios_lock, flags);
	return err;
}

static const struct irq_chip ioapic_chip = {
	.name = "ioapic",
	.mask = ioapic_mask,
	.unmask = ioapic_unmask,
	.eoi = ioapic_eoi,
	.set_affinity = ioapic_set_affinity,
};

/* The IRQ routed to gsi, or -1.  Caller holds ios_lock. */
static int __gsi_to_irq(u32 gsi)
{
	unsigned i;

	assert_spin_locked(&ios.ios_lock);
	for (i = 0; i < NR_IRQS; i++)
		if (ios.ios_gsi[i] == gsi)
			return (int)i;
	return -1;
}

/*
 * Program irq's input: vector IRQ_VECTOR_BASE + irq, to the APIC ID in
 * ios_dest[irq].  Caller holds ios_lock.
 */
static int __route(unsigned irq, u32 gsi, bool level, bool active_low, bool masked)
{
	struct ioapic *io;
	u32 pin;
	int owner;

	io = gsi_to_pin(gsi, &pin);
	if (!io)
		return -ENXIO;
	owner = __gsi_to_irq(gsi);
	if (owner >= 0 && (unsigned)owner != irq)
		return -EBUSY;
	__rte_write(io, pin, ioapic_rte_encode((u8)(IRQ_VECTOR_BASE + irq), ios.ios_dest[irq],
					       level, active_low, masked));
	ios.ios_gsi[irq] = gsi;
	DPRINTF(IOAPIC_D_ROUTE, "ioapic: irq %u -> gsi %u (%s, active %s)\n", irq, gsi,
		level ? "level" : "edge", active_low ? "low" : "high");
	return 0;
}

/*
 * Overlapping GSI ranges would make routing ambiguous: refuse the later
 * one.  The ends are computed in 64 bits: a hostile MADT may put a GSI
 * base near 2^32, where base + npins would wrap and hide an overlap.
 */
static bool overlaps(u32 base, u32 npins)
{
	unsigned i;

	for (i = 0; i < ios.ios_nchips; i++) {
		const struct ioapic *io = &ios.ios_chip[i];

		if (base < (u64)io->io_gsi_base + io->io_npins &&
		    io->io_gsi_base < (u64)base + npins)
			return true;
	}
	return false;
}

/* NMI sources: inputs that deliver NMI rather than a vector (MADT type 3). */
static void setup_nmi_sources(const struct acpi_madt_info *mi)
{
	unsigned long flags;
	unsigned i;

	spin_lock_irqsave(&ios.ios_lock, flags);
	for (i = 0; i < mi->mi_nnmi_src; i++) {
		const struct acpi_nmi_source *ns = &mi->mi_nmi_src[i];
		struct ioapic *io;
		u32 pin;
		u64 rte;

		io = gsi_to_pin(ns->ns_gsi, &pin);
		if (!io)
			continue;
		rte = ioapic_rte_encode(0, lapic_id(), false,
					(ns->ns_flags & ACPI_INTI_POLARITY_MASK) ==
					ACPI_INTI_POLARITY_LOW, false);
		__rte_write(io, pin, rte | IOAPIC_RTE_DM_NMI);
	}
	spin_unlock_irqrestore(&ios.ios_lock, flags);
}

/**
 * ioapic_init - map the MADT's I/O APICs and mask every input
 * @mi: parsed MADT
 *
 * Returns the number of I/O APICs in use, or -ENODEV when none answers.
 * Boot only, once.
 */
int ioapic_init(const struct acpi_madt_info *mi)
{
	unsigned long flags;
	unsigned i;
	u32 pin;

	for (i = 0; i < NR_IRQS; i++) {
		ios.ios_gsi[i] = IOAPIC_NO_GSI;
		ios.ios_dest[i] = lapic_id();
	}
	for (i = 0; i < mi->mi_nioapic; i++) {
		struct ioapic *io = &ios.ios_chip[ios.ios_nchips];
		const struct acpi_ioapic *m = &mi->mi_ioapic[i];
		u32 ver;

		io->io_base = ioremap(m->io_addr, IOAPIC_MMIO_SIZE);
		if (!io->io_base) {
			pr_err("ioapic: cannot map %#x\n", m->io_addr);
			continue;
		}
		ver = ioapic_read(io, IOAPIC_REG_VER);
		if (ver == 0xffffffffu) {
			pr_err("ioapic: nothing answers at %#x\n", m->io_addr);
			iounmap((void *)io->io_base);
			continue;
		}
		io->io_npins = ((ver >> IOAPIC_VER_MAXREDIR_SHIFT) & IOAPIC_VER_MAXREDIR_MASK) + 1;
		io->io_npins = min(io->io_npins, (u32)IOAPIC_MAX_PINS);
		io->io_gsi_base = m->io_gsi_base;
		io->io_id = m->io_id;
		if (overlaps(io->io_gsi_base, io->io_npins)) {
			pr_err("ioapic: %#x: GSIs %u-%llu overlap another I/O APIC\n", m->io_addr,
			       io->io_gsi_base,
			       (unsigned long long)io->io_gsi_base + io->io_npins - 1);
			iounmap((void *)io->io_base);
			continue;
		}
		spin_lock_irqsave(&ios.ios_lock, flags);
		for (pin = 0; pin < io->io_npins; pin++)
			__rte_write(io, pin, ioapic_rte_encode(0, 0, false, false, true));
		ios.ios_nchips++;
		spin_unlock_irqrestore(&ios.ios_lock, flags);
	}
	if (!ios.ios_nchips)
		return -ENODEV;
	setup_nmi_sources(mi);
	return (int)ios.ios_nchips;
}

/**
 * ioapic_take_isa - move ISA IRQs 0-15 from the 8259 to the I/O APIC
 * @mi: parsed MADT (source overrides)
 *
 * Returns the number of ISA lines moved; lines the I/O APICs cannot serve
 * stay on the 8259 (and are reported).  Masks LINT0's ExtINT path when
 * done.  Boot only, after ioapic_init() and lapic_init().
 */
int ioapic_take_isa(const struct acpi_madt_info *mi)
{
	u16 moved = 0;
	unsigned long flags;
	unsigned irq;
	int n = 0;

	spin_lock_irqsave(&ios.ios_lock, flags);
	for (irq = 0; irq < NR_ISA_IRQS; irq++) {
		struct acpi_isa_route r;
		unsigned i;

		if (irq == 2 || acpi_isa_route(mi, irq, &r) != 0)
			continue;	/* the cascade, or a line moved elsewhere */
		for (i = 0; i < mi->mi_niso; i++)
			if (mi->mi_iso[i].ov_source == irq)
				ios.ios_isa_override |= (u16)(1u << irq);
		if (__route(irq, r.ir_gsi, r.ir_level, r.ir_active_low, true) != 0) {
			pr_warn("ioapic: ISA IRQ %u (GSI %u) has no I/O APIC input; left on the 8259\n",
				irq, r.ir_gsi);
			continue;
		}
		moved |= (u16)(1u << irq);
	}
	spin_unlock_irqrestore(&ios.ios_lock, flags);

	local_irq_save(flags);
	for (irq = 0; irq < NR_ISA_IRQS; irq++) {
		const struct irq_chip *old;

		if (!(moved & (1u << irq)))
			continue;
		old = irq_get_chip(irq);
		if (old && old->mask)
			old->mask(irq);		/* the 8259 stops raising it */
		irq_set_chip(irq, &ioapic_chip);
		n++;
	}
	spin_lock(&ios.ios_lock);
	ios.ios_active = true;
	spin_unlock(&ios.ios_lock);
	lapic_mask_extint();
	local_irq_restore(flags);
	return n;
}

/* True once the I/O APIC serves the ISA lines (PCI INTx policy depends on it). */
bool ioapic_active(void)
{
	return READ_ONCE(ios.ios_active);
}

/**
 * ioapic_isa_irq_pci - make ISA IRQ irq fit a PCI INTx routed onto it
 * @irq: the ISA IRQ the firmware's Interrupt Line names
 *
 * With an override from the MADT its polarity and trigger stand (QEMU
 * declares its PCI IRQs 5, 9, 10, 11 level, active high); without one the
 * PCI convention, level and active low, replaces ISA's edge/high.  Returns
 * 0, or -ENODEV when the I/O APIC does not serve irq (the 8259's ELCR,
 * set by firmware, already has the line level-triggered then).
 */
int ioapic_isa_irq_pci(unsigned irq)
{
	unsigned long flags;
	struct ioapic *io;
	bool first = false;
	u32 pin, cpu = 0;
	int err = 0;

	if (irq >= NR_ISA_IRQS)
		return -EINVAL;
	spin_lock_irqsave(&ios.ios_lock, flags);
	if (ios.ios_active && !(ios.ios_isa_pci & (1u << irq))) {
		first = true;
		cpu = irq_next_cpu();
		ios.ios_dest[irq] = cpu_dest(cpu);
	}
	io = __irq_to_pin(irq, &pin);
	if (!ios.ios_active || !io) {
		err = -ENODEV;
	} else if (!(ios.ios_isa_override & (1u << irq))) {
		/* Keep the mask as request_irq/free_irq left it. */
		bool masked = ioapic_read(io, IOAPIC_REG_REDTBL(pin)) & (u32)IOAPIC_RTE_MASKED;

		err = __route(irq, ios.ios_gsi[irq], true, true, masked);
	} else if (first) {
		__rte_write(io, pin, ((u64)ios.ios_dest[irq] << IOAPIC_RTE_DEST_SHIFT) |
				     ioapic_read(io, IOAPIC_REG_REDTBL(pin)));
	}
	if (!err && first)
		ios.ios_isa_pci |= (u16)(1u << irq);
	spin_unlock_irqrestore(&ios.ios_lock, flags);
	if (!err && first)
		irq_note_affinity(irq, cpu);
	return err;
}

/**
 * ioapic_route_gsi - an IRQ number for an I/O APIC input beyond the ISA lines
 * @gsi: the input; @level, @active_low: its signalling
 *
 * Inputs are shared: a GSI already routed returns its IRQ.  Returns the
 * IRQ (masked until request_irq), -ENODEV without I/O APIC mode, -ENXIO
 * when no I/O APIC has the GSI, or irq_alloc()'s error.
 */
int ioapic_route_gsi(u32 gsi, bool level, bool active_low)
{
	unsigned long flags;
	int irq, shared, err = 0;
	u32 cpu;

	if (!ioapic_active())
		return -ENODEV;
	spin_lock_irqsave(&ios.ios_lock, flags);
	shared = __gsi_to_irq(gsi);
	spin_unlock_irqrestore(&ios.ios_lock, flags);
	if (shared >= 0)
		return shared;

	/* irqchip.h has no way to give a number back: a failed route keeps it. */
	cpu = irq_next_cpu();
	irq = irq_alloc_on(&ioapic_chip, cpu);
	if (irq < 0)
		return irq;
	spin_lock_irqsave(&ios.ios_lock, flags);
	shared = __gsi_to_irq(gsi);	/* routed by someone else meanwhile? share it */
	ios.ios_dest[irq] = cpu_dest(cpu);
	if (shared < 0)
		err = __route((unsigned)irq, gsi, level, active_low, true);
	spin_unlock_irqrestore(&ios.ios_lock, flags);
	if (shared >= 0)
		return shared;
	return err ? err : irq;
}

/**
 * ioapic_irq_line - how irq is routed right now, from the entry itself
 * @irq: a kernel IRQ; @out: filled on success
 *
 * Returns 0, or -ENOENT when no I/O APIC input carries irq.
 */
int ioapic_irq_line(unsigned irq, struct ioapic_line *out)
{
	unsigned long flags;
	struct ioapic *io;
	u32 pin, lo;
	int err = -ENOENT;

	spin_lock_irqsave(&ios.ios_lock, flags);
	io = __irq_to_pin(irq, &pin);
	if (io) {
		lo = ioapic_read(io, IOAPIC_REG_REDTBL(pin));
		out->il_gsi = ios.ios_gsi[irq];
		out->il_apic_id = io->io_id;
		out->il_vector = (u8)(lo & IOAPIC_RTE_VECTOR_MASK);
		out->il_level = lo & (u32)IOAPIC_RTE_LEVEL;
		out->il_active_low = lo & (u32)IOAPIC_RTE_ACTIVE_LOW;
		out->il_masked = lo & (u32)IOAPIC_RTE_MASKED;
		out->il_dest = (u8)(ioapic_read(io, IOAPIC_REG_REDTBL(pin) + 1) >>
				    (IOAPIC_RTE_DEST_SHIFT - 32));
		err = 0;
	}
	spin_unlock_irqrestore(&ios.ios_lock, flags);
	return err;
}
