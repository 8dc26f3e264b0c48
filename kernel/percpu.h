/*
 * Per-CPU data: one struct cpu for each processor, reached from the CPU
 * itself through the %fs segment, whose base is that CPU's struct cpu
 * (its GDT has a data segment for it, kernel/gdt.c).  this_cpu() is one
 * load, valid from the first instruction of kmain on the boot CPU (gdt_init
 * runs first) and from ap_main on the others.
 *
 * Lock legend: [I] set before the CPU runs kernel code, then read-only;
 * [c] only this CPU touches it (with interrupts off where an interrupt
 * handler does too); [a] atomic operations.
 */
#ifndef KERNEL_PERCPU_H
#define KERNEL_PERCPU_H

#include "kernel/compiler.h"
#include "kernel/desc.h"
#include "kernel/lockdep.h"

#define NR_CPUS		64

enum cpu_state {
	CPU_ABSENT,		/* no such CPU, or left out (maxcpus=, nosmp) */
	CPU_STARTING,		/* start-up IPIs sent, not yet in ap_main */
	CPU_ONLINE,		/* running kernel code */
	CPU_FAILED,		/* did not answer its start-up IPIs in time */
	CPU_STOPPED,		/* halted for good by a panic on another CPU */
};

#define NMI_BACKTRACE_MAX	12	/* frames an NMI sample keeps */

/* What an idle CPU is doing (c_idle): cpu_wake() sends an IPI only to a halted one. */
enum cpu_idle_state {
	CPU_RUNNING,
	CPU_POLLING,		/* spinning in idle_halt(), watching c_wake_seq */
	CPU_HALTED,		/* in HLT: only an interrupt wakes it */
};

struct trap_frame;

struct cpu {
	struct cpu		*c_self;	/* [I] %fs:0, see this_cpu() */
	u32			c_id;		/* [I] logical number; 0 is the boot CPU */
	u32			c_apic_id;	/* [I] its local APIC's ID */
	volatile u32		c_state;	/* [a] enum cpu_state */

	u32			c_trap_depth;	/* [c] nested trap handlers: in_interrupt() */
	const struct trap_frame	*c_irq_frame;	/* [c] the interrupted frame, in an IRQ */
	u32			c_irq_seq;	/* [c] interrupts taken: the idle poll watches it */
	u64			c_ticks;	/* [c] local timer ticks (application CPUs) */
	u32			c_call_seq;	/* [c] the last cross-CPU call it ran */
	u32			c_km_depth;	/* [c] kmap_atomic slots it holds */

	/* kernel/idle.c: how it waits, and being woken by another CPU. */
	u32			c_idle;		/* [a] CPU_RUNNING, CPU_POLLING, CPU_HALTED */
	u32			c_wake_seq;	/* [a] wake-ups sent to it (cpu_wake) */
	u32			c_wake_seen;	/* [c] c_wake_seq when it last woke */
	u64			c_poll_window;	/* [c] TSC cycles it spins before halting */

	/* kernel/nmi.c: what another CPU asked of this one by NMI, and the answer. */
	u32			c_nmi_req;	/* [a] NMI_REQ_* */
	u32			c_nmi_seq;	/* [a] samples taken */
	u32			c_nmi_npcs;	/* [a] frames in c_nmi_pcs */
	u32			c_nmi_pcs[NMI_BACKTRACE_MAX];

	/* kernel/lockdep.c: this CPU's lock statistics and the locks it holds. */
	struct lockstat_entry	*c_lockstat;	/* [c] LOCKSTAT_SLOTS of them */
	struct lockdep_held	c_held[LOCKDEP_HELD_MAX]; /* [c] */
	u32			c_nheld;	/* [c] */
	bool			c_in_lockdep;	/* [c] its report takes locks too */

	/* kernel/watchdog.c: kept by the one CPU that watches this one. */
	u64			c_wd_ticks;	/* c_ticks at the last look */
	u64			c_wd_since_ms;	/* when c_ticks last moved */
	bool			c_wd_reported;	/* this stall was reported */

	/* Descriptor tables and the double-fault task: see kernel/gdt.c. */
	u64			c_gdt[GDT_ENTRIES] __aligned(8);	/* [I] */
	struct tss		c_tss;		/* [I] */
	struct tss		c_df_tss;	/* [I] */
	void			*c_stack_top;	/* [I] its kernel stack (APs) */
	void			*c_df_stack_top; /* [I] the double-fault stack */
};

extern struct cpu *cpu_table[NR_CPUS];	/* [I] by logical number; NULL past the last */
extern u32 nr_cpus_online;		/* [a] CPUs in CPU_ONLINE */
extern u32 nr_cpu_ids;			/* [I] entries in cpu_table, from smp_initcall on */

#ifndef HOST_TEST
static inline struct cpu *this_cpu(void)
{
	struct cpu *c;

	__asm__ __volatile__("movl %%fs:0, %0" : "=r"(c));
	return c;
}
#else
struct cpu *this_cpu(void);
#endif

static inline u32 smp_processor_id(void) { return this_cpu()->c_id; }

#endif
