/*
 * x86 CPU access: control registers, flags, TSC, CPUID, MSRs, halting.
 * Kernel-only (inline assembly).
 */
#ifndef KERNEL_CPU_H
#define KERNEL_CPU_H

#include "kernel/compiler.h"

#define X86_EFLAGS_IF	(1u << 9)

#define X86_CR0_WP	(1u << 16)
#define X86_CR0_PG	(1u << 31)
#define X86_CR4_PAE	(1u << 5)
#define X86_CR4_PGE	(1u << 7)

#define MSR_EFER	0xC0000080
#define EFER_NXE	(1u << 11)

static inline u32 read_cr0(void) { u32 v; __asm__ __volatile__("mov %%cr0, %0" : "=r"(v)); return v; }
static inline u32 read_cr2(void) { u32 v; __asm__ __volatile__("mov %%cr2, %0" : "=r"(v)); return v; }
static inline u32 read_cr3(void) { u32 v; __asm__ __volatile__("mov %%cr3, %0" : "=r"(v)); return v; }
static inline u32 read_cr4(void) { u32 v; __asm__ __volatile__("mov %%cr4, %0" : "=r"(v)); return v; }
static inline void write_cr0(u32 v) { __asm__ __volatile__("mov %0, %%cr0" :: "r"(v) : "memory"); }
static inline void write_cr3(u32 v) { __asm__ __volatile__("mov %0, %%cr3" :: "r"(v) : "memory"); }
static inline void write_cr4(u32 v) { __asm__ __volatile__("mov %0, %%cr4" :: "r"(v) : "memory"); }

static inline u32 read_eflags(void)
{
	u32 f;

	__asm__ __volatile__("pushfl; popl %0" : "=r"(f) :: "memory");
	return f;
}

static inline u64 rdtsc(void)
{
	u32 lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

static inline void cpuid(u32 leaf, u32 *a, u32 *b, u32 *c, u32 *d)
{
	__asm__ __volatile__("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "a"(leaf), "c"(0));
}

static inline u64 rdmsr(u32 msr)
{
	u32 lo, hi;

	__asm__ __volatile__("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((u64)hi << 32) | lo;
}

static inline void wrmsr(u32 msr, u64 v)
{
	__asm__ __volatile__("wrmsr" :: "c"(msr), "a"((u32)v), "d"((u32)(v >> 32)));
}

static inline void invlpg(const void *va)
{
	__asm__ __volatile__("invlpg (%0)" :: "r"(va) : "memory");
}

/*
 * PAUSE in a spin loop, except where it costs more than it saves: under
 * QEMU's translator PAUSE ends the translated code and sends the virtual
 * CPU's thread once through QEMU's global lock (target/i386/tcg,
 * helper_pause: EXCP_INTERRUPT, "let another CPU run"), the lock its
 * device models take to complete the I/O the loop is waiting for.  With
 * one CPU there is no other to let run, and a compiler barrier is enough:
 * translated code still looks for interrupts at every block.  With more
 * CPUs PAUSE stays, since QEMU may run them all in one thread.
 */
extern bool cpu_pause_costly;	/* [I] set by an arch initcall */

static inline void cpu_relax(void)
{
	if (cpu_pause_costly)
		__asm__ __volatile__("" ::: "memory");
	else
		__asm__ __volatile__("pause" ::: "memory");
}

/* Enable interrupts and halt as one step: sti's one-instruction shadow
 * means no interrupt can slip in between, so a wake-up is never lost. */
static inline void safe_halt(void) { __asm__ __volatile__("sti; hlt" ::: "memory"); }

static inline void __noreturn halt_forever(void)
{
	for (;;)
		__asm__ __volatile__("cli; hlt");
}

/* CPUID feature bits the kernel looks at (Intel SDM vol. 2A, CPUID). */
#define CPUID1_EDX_TSC		(1u << 4)
#define CPUID1_EDX_MSR		(1u << 5)
#define CPUID1_EDX_PAE		(1u << 6)
#define CPUID1_EDX_APIC		(1u << 9)
#define CPUID1_EDX_PGE		(1u << 13)
#define CPUID1_ECX_HYPERVISOR	(1u << 31)
#define CPUID81_EDX_NX		(1u << 20)

struct cpu_info {
	char	vendor[13];
	char	brand[49];
	u32	family, model, stepping;
	u32	features_edx, features_ecx;	/* leaf 1 */
	u32	ext_features_edx;		/* leaf 0x80000001 */
	bool	hypervisor;
	char	hv_vendor[13];			/* leaf 0x40000000, or "" */
};

extern struct cpu_info boot_cpu;
void cpu_identify(void);
static inline bool cpu_has_nx(void) { return boot_cpu.ext_features_edx & CPUID81_EDX_NX; }

/*
 * True when fence instructions do not order this CPU's memory accesses
 * against the devices: QEMU's TCG with one possible CPU.  After ACPI's
 * tables are read.
 */
bool cpu_fences_elided(void);

/*
 * A full fence for memory a device shares (an event index, a shadow
 * doorbell): smp_mb(), or where cpu_fences_elided(), an instruction that
 * QEMU turns into a host fence.
 */
void device_mb(void);

#endif
