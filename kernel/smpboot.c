/*
 * Starting the application processors (APs): every enabled processor the
 * ACPI MADT lists besides the boot CPU, as Intel SDM vol. 3A 8.4.4 ("MP
 * Initialization Example") and ACPI 6.4 5.2.12.2 describe.
 *
 * For each AP in turn: a struct cpu with its GDT, TSS, double-fault task
 * and stacks; the trampoline's parameters (kernel/trampoline.h) aimed at
 * it; then INIT, 10 ms, STARTUP, 200 us, STARTUP (8.4.4.1), and a bounded
 * wait for the AP to say it is online.  An AP that does not answer is
 * reported and left out, and no further AP is started: the trampoline's
 * parameters might still be read by the late one.
 *
 * An AP, once in ap_main, loads its own tables, turns on its local APIC
 * and its timer, counts itself online and idles with interrupts on, running
 * the work other CPUs queue on it (queue_work_on).  Device interrupts
 * are steered by kernel/irq.c (round robin, or per queue); an AP also
 * takes its timer and IPIs.  `nosmp` starts none; `maxcpus=N` at most N CPUs in all.
 */
#include "kernel/acpi.h"
#include "kernel/apic.h"
#include "kernel/apicreg.h"
#include "kernel/completion.h"
#include "kernel/cpu.h"
#include "kernel/desc.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/irq.h"
#include "kernel/irqchip.h"
#include "kernel/param.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"
#include "kernel/trampoline.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/page.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

#define AP_STACK_SIZE		16384
#define AP_DF_STACK_SIZE	8192
#define AP_ONLINE_WAIT_MS	1000	/* from the first STARTUP to ap_main */
#define AP_TIMER_HZ		100	/* an AP's local tick */
#define INIT_DEASSERT_US	10000	/* 8.4.4.1: wait 10 ms after INIT ... */
#define STARTUP_GAP_US		200	/* and 200 us after each STARTUP */

/* PAE paging-structure bits (SDM 3A 4.4.2, tables 4-8 and 4-9). */
#define PAE_P			0x001ULL	/* present */
#define PAE_RW			0x002ULL	/* writable */
#define PAE_PS			0x080ULL	/* a PDE mapping a 2 MiB page */

struct cpu *cpu_table[NR_CPUS];
u32 nr_cpus_online;
u32 nr_cpu_ids = 1;

static bool smp_off;
PARAM_BOOL("nosmp", smp_off, "run on the boot CPU only");
static unsigned smp_max_cpus = NR_CPUS;
PARAM_UINT("maxcpus", smp_max_cpus, "start at most this many CPUs, the boot CPU included");

static u8 ap_timer_vector;	/* [I] the application processors' local timer */

static void ap_timer_mask(unsigned irq) { }
static void ap_timer_eoi(unsigned irq) { lapic_eoi(); }

static const struct irq_chip ap_timer_chip = {
	.name = "lapic-ap",
	.mask = ap_timer_mask,
	.unmask = ap_timer_mask,
	.eoi = ap_timer_eoi,
};

static irqreturn_t ap_timer_interrupt(unsigned irq, void *data)
{
	this_cpu()->c_ticks++;
	watchdog_tick();
	return IRQ_HANDLED;
}

/* The AP's C entry (from ap_start, on its own stack and page tables). */
void __noreturn ap_main(struct cpu *c)
{
	if (READ_ONCE(c->c_state) != CPU_STARTING)
		halt_forever();		/* too late: given up on and left out */
	u32 count;

	gdt_load_cpu(c);
	idt_load();
	lapic_init_ap();
	__atomic_add_fetch(&nr_cpus_online, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&c->c_state, CPU_ONLINE, __ATOMIC_RELEASE);
	/* The boot CPU goes on now; the timer's calibration overlaps it. */
	count = ap_timer_vector ? lapic_timer_count(AP_TIMER_HZ, ap_timer_vector) : 0;
	if (count)
		lapic_timer_start_this_cpu(count, ap_timer_vector);
	local_irq_enable();
	cpu_idle_loop();		/* runs the work other CPUs queue here */
}

/* Copy the trampoline below 1 MiB and fill in what every AP shares. */
static u8 *trampoline_setup(phys_addr_t pa)
{
	u8 *t = __va(pa);
	size_t len = (size_t)(smp_trampoline_end - smp_trampoline_start);
	u64 *pdpt = (u64 *)(t + TR_PDPT), *pd_low = (u64 *)(t + TR_PD_LOW);
	const u64 *kpdpt = __va(read_cr3());
	u32 *gdt = (u32 *)(t + TR_GDT);

	if (len > TR_CODE_MAX)
		return NULL;
	memset(t, 0, MM_TRAMPOLINE_SIZE);
	memcpy(t, smp_trampoline_start, len);

	/* Flat 4 GiB code and data (SDM 3A 3.4.5): base 0, limit 0xfffff pages. */
	gdt[2] = 0x0000ffff; gdt[3] = 0x00cf9a00;
	gdt[4] = 0x0000ffff; gdt[5] = 0x00cf9200;
	*(u16 *)(t + TR_GDTR) = 3 * 8 - 1;
	*(u32 *)(t + TR_GDTR + 2) = (u32)pa + TR_GDT;
	*(u32 *)(t + TR_PM_JUMP) = (u32)pa + (u32)(smp_trampoline_pm - smp_trampoline_start);
	*(u16 *)(t + TR_PM_JUMP + 4) = GDT_KERNEL_CS;

	/*
	 * PAE tables for the switch (SDM 3A 4.4): entry 0 maps the first 2 MiB
	 * one to one with a large page, so the instruction after CR0.PG still
	 * exists; entry 3 is the kernel's own, for the jump to the higher half.
	 */
	pd_low[0] = 0 | PAE_P | PAE_RW | PAE_PS;
	pdpt[0] = (u64)(pa + TR_PD_LOW) | PAE_P;
	pdpt[3] = kpdpt[3];
	*(u32 *)(t + TR_CR3) = (u32)pa + TR_PDPT;
	*(u32 *)(t + TR_CR4) = read_cr4();
	*(u32 *)(t + TR_NX) = cpu_has_nx();
	*(u32 *)(t + TR_ENTRY) = (u32)ap_start;
	*(u32 *)(t + TR_KERNEL_CR3) = read_cr3();
	return t;
}

static struct cpu *ap_alloc(u32 id, u32 apic_id)
{
	struct cpu *c = kzalloc(sizeof(*c), GFP_KERNEL);
	u8 *stack = kmalloc(AP_STACK_SIZE, GFP_KERNEL);
	u8 *df_stack = kmalloc(AP_DF_STACK_SIZE, GFP_KERNEL);
	struct lockstat_entry *ls = kzalloc(LOCKSTAT_SLOTS * sizeof(*ls), GFP_KERNEL);

	if (!c || !stack || !df_stack || !ls) {
		kfree(c);
		kfree(stack);
		kfree(df_stack);
		kfree(ls);
		return NULL;
	}
	c->c_lockstat = ls;
	c->c_self = c;
	c->c_id = id;
	c->c_apic_id = apic_id;
	c->c_stack_top = stack + AP_STACK_SIZE;
	c->c_df_stack_top = df_stack + AP_DF_STACK_SIZE;
	return c;
}

static bool init_delay_unneeded(void)
{
	if (!strcmp(boot_cpu.vendor, "GenuineIntel"))
		return boot_cpu.family == 6;
	if (!strcmp(boot_cpu.vendor, "AuthenticAMD"))
		return boot_cpu.family >= 0xf;
	return false;
}

/* INIT-STARTUP-STARTUP, then wait for ap_main.  0, -EIO or -ETIMEDOUT. */
static int ap_boot(struct cpu *c, u8 *t, phys_addr_t pa)
{
	u32 vec = (u32)(pa >> 12), i;
	u64 t0;

	*(u32 *)(t + TR_STACK) = (u32)c->c_stack_top;
	*(u32 *)(t + TR_CPU) = (u32)c;
	__atomic_store_n(&c->c_state, CPU_STARTING, __ATOMIC_RELEASE);

	if (lapic_send_ipi(c->c_apic_id, LAPIC_ICR_DM_INIT | LAPIC_ICR_LEVEL | LAPIC_ICR_ASSERT) ||
	    lapic_send_ipi(c->c_apic_id, LAPIC_ICR_DM_INIT | LAPIC_ICR_LEVEL))
		return -EIO;
	/*
	 * ... which processors since the P6 family (Intel family 6, AMD from
	 * family 0Fh) do not need: Linux's smpboot skips it for them too, and
	 * with it each CPU costs 10 ms of boot.
	 */
	if (!init_delay_unneeded())
		udelay(INIT_DEASSERT_US);
	for (i = 0; i < 2; i++) {
		if (lapic_send_ipi(c->c_apic_id, LAPIC_ICR_DM_STARTUP | vec))
			return -EIO;
		udelay(STARTUP_GAP_US);
		if (READ_ONCE(c->c_state) == CPU_ONLINE)
			return 0;
	}
	t0 = ktime_ms();
	while (READ_ONCE(c->c_state) != CPU_ONLINE) {
		if (ktime_ms() - t0 > AP_ONLINE_WAIT_MS)
			return -ETIMEDOUT;
		cpu_relax();
	}
	return 0;
}

static int smp_init(void)
{
	const struct acpi_madt_info *mi = acpi_madt();
	u32 self = lapic_enabled() ? lapic_this_id() : 0, next = 1, i;
	phys_addr_t pa = (phys_addr_t)mm_trampoline_pa;
	int irq, err;
	u8 *t;

	cpu_table[0]->c_apic_id = self;
	if (!mi || mi->mi_ncpu <= 1)
		return 0;
	if (smp_off || smp_max_cpus <= 1) {
		pr_info("smp: %u CPUs listed; %s: running on the boot CPU only\n", mi->mi_ncpu,
			smp_off ? "nosmp" : "maxcpus=1");
		return 0;
	}
	if (!lapic_enabled() || !pa) {
		pr_warn("smp: %u CPUs listed, but %s: running on the boot CPU only\n", mi->mi_ncpu,
			!lapic_enabled() ? "no local APIC" : "no free page below 1 MiB");
		return 0;
	}
	t = trampoline_setup(pa);
	if (!t)
		return -EINVAL;
	irq = irq_alloc_on(&ap_timer_chip, IRQ_CPU_EACH);
	if (irq >= 0 && request_irq((unsigned)irq, ap_timer_interrupt, NULL, "ap-timer") == 0)
		ap_timer_vector = (u8)(IRQ_VECTOR_BASE + irq);

	for (i = 0; i < mi->mi_ncpu && next < NR_CPUS; i++) {
		const struct acpi_cpu *ac = &mi->mi_cpu[i];
		struct cpu *c;

		if (ac->cpu_apic_id == self)
			continue;
		if (next >= smp_max_cpus) {
			pr_info("smp: maxcpus=%u: APIC %u and later left out\n", smp_max_cpus,
				ac->cpu_apic_id);
			break;
		}
		if (ac->cpu_apic_id > 0xfe) {
			pr_warn("smp: CPU with x2APIC ID %u needs x2APIC mode: left out\n",
				ac->cpu_apic_id);
			continue;
		}
		c = ap_alloc(next, ac->cpu_apic_id);
		if (!c)
			return -ENOMEM;
		cpu_table[next] = c;
		err = ap_boot(c, t, pa);
		if (err) {
			__atomic_store_n(&c->c_state, CPU_FAILED, __ATOMIC_RELEASE);
			pr_err("smp: CPU %u (APIC %u) did not start: %s; no more CPUs started\n",
			       next, c->c_apic_id, errstr(err));
			break;
		}
		next++;
	}
	while (nr_cpu_ids < NR_CPUS && cpu_table[nr_cpu_ids])
		nr_cpu_ids++;
	pr_info("smp: %u of %u CPUs online%s\n", READ_ONCE(nr_cpus_online), mi->mi_ncpu,
		mi->mi_ncpus_disabled ? " (disabled ones not counted)" : "");
	return 0;
}
smp_initcall(smp_init);
