/*
 * The application processors' start-up code (kernel/trampoline.S), as
 * kernel/smpboot.c copies it below 1 MiB and fills in its parameters.
 * Offsets are from the start of the copy; the assembly and the C side
 * both use these numbers.  The copy is two pages: code and parameters in
 * the first, a page directory for the identity map in the second.
 */
#ifndef KERNEL_TRAMPOLINE_H
#define KERNEL_TRAMPOLINE_H

#define TR_GDTR		0x100	/* u16 limit, u32 linear base of TR_GDT */
#define TR_GDT		0x110	/* null, flat code 0x08, flat data 0x10 */
#define TR_PM_JUMP	0x128	/* far pointer: u32 offset, u16 selector */
#define TR_CR3		0x130	/* u32: the temporary PDPT (TR_PDPT) */
#define TR_CR4		0x134	/* u32: the boot CPU's CR4 (PAE, PGE) */
#define TR_NX		0x138	/* u32: nonzero: set EFER.NXE before paging */
#define TR_ENTRY	0x13c	/* u32: ap_start's virtual address */
#define TR_STACK	0x140	/* u32: the CPU's stack top, virtual */
#define TR_CPU		0x144	/* u32: its struct cpu, virtual */
#define TR_KERNEL_CR3	0x148	/* u32: the kernel's page tables */
#define TR_PDPT		0x160	/* 4 x u64, 32-byte aligned (PAE CR3) */
#define TR_PD_LOW	0x1000	/* page directory: 2 MiB identity at 0 */
#define TR_CODE_MAX	0x100	/* the code fits below TR_GDTR */

#ifndef __ASSEMBLER__
#include "kernel/compiler.h"
extern const char smp_trampoline_start[], smp_trampoline_pm[], smp_trampoline_end[];
void ap_start(void);
struct cpu;
/* kernel/smpboot.c: where ap_start goes, on the CPU's own stack. */
void __noreturn ap_main(struct cpu *c);
#endif

#endif
