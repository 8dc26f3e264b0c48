/*
 * x86 descriptor tables: GDT with the flat kernel segments and two TSSes,
 * IDT with a stub for every vector, and the trap frame those stubs build.
 * (Intel SDM vol. 3A, chapters 3, 6 and 7.)
 */
#ifndef KERNEL_DESC_H
#define KERNEL_DESC_H

#include "kernel/compiler.h"

#define GDT_KERNEL_CS	0x08
#define GDT_KERNEL_DS	0x10
#define GDT_TSS		0x18	/* the running task's state, saved on a task switch */
#define GDT_DF_TSS	0x20	/* the double-fault task: its own stack */
#define GDT_PERCPU	0x28	/* data segment based at this CPU's struct cpu (%fs) */
#define GDT_ENTRIES	6

/* What the entry stubs push, lowest address first (kernel/trap_entry.S). */
struct trap_frame {
	u32	edi, esi, ebp, esp_pusha, ebx, edx, ecx, eax;	/* pusha */
	u32	vector;
	u32	error;		/* the CPU's error code, or 0 */
	u32	eip, cs, eflags;	/* pushed by the CPU (no privilege change) */
};
_Static_assert(sizeof(struct trap_frame) == 13 * 4, "trap frame layout");
_Static_assert(offsetof(struct trap_frame, eip) == 40, "trap frame layout");

/* 32-bit TSS (SDM vol. 3A, 7.2.1, figure 7-2). */
struct tss {
	u32	link;
	u32	esp0, ss0, esp1, ss1, esp2, ss2;
	u32	cr3, eip, eflags, eax, ecx, edx, ebx, esp, ebp, esi, edi;
	u32	es, cs, ss, ds, fs, gs, ldt;
	u16	trap, iomap_base;
} __packed;
_Static_assert(sizeof(struct tss) == 104, "TSS is 104 bytes");
_Static_assert(offsetof(struct tss, eip) == 32, "TSS eip offset");

struct cpu;
/* The boot CPU's tables, first thing in kmain; then this_cpu() works. */
void gdt_init(void);
/* Build c's GDT and TSSes (c_df_stack_top set) and load them on this CPU. */
void gdt_load_cpu(struct cpu *c);
void idt_init(void);
void idt_load(void);
void trap_dispatch(struct trap_frame *tf);
/* This CPU's main TSS (gdt.c), for the double-fault report. */
struct tss *gdt_main_tss(void);
/* The double-fault task's entry (trap_entry.S) and its C half (traps.c). */
void double_fault_task(void);
void double_fault_report(void);

#endif
