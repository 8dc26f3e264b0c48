/*
 * Where an application processor starts (Intel SDM vol. 3A, 8.4.4 "MP
 * Initialization Example" and 9.9 "Mode Switching").  A start-up IPI
 * with vector VV starts the CPU in real mode at VV00:0000; smpboot.c
 * copies this code to that page, below 1 MiB, and fills in the parameter
 * block (kernel/trampoline.h) first.  The code runs at whatever page it
 * was copied to, so it finds its data relative to its own base: CS * 16,
 * kept in %ebx.
 *
 *   real mode:   load a flat GDT, set CR0.PE, far-jump to 32-bit code
 *   32-bit:      flat segments; CR4 (PAE), CR3 = a temporary PDPT that
 *                maps the first 2 MiB 1:1 (this code) and the kernel's
 *                higher half; EFER.NXE if the kernel uses NX; CR0.PG|WP
 *   higher half: ap_start: the kernel's own CR3, the CPU's stack, and
 *                ap_main(cpu) in C (kernel/smpboot.c)
 */
#include "kernel/trampoline.h"

#define CR0_PE		0x00000001
#define CR0_WP		0x00010000
#define CR0_PG		0x80000000
#define MSR_EFER	0xC0000080
#define EFER_NXE	0x00000800
#define SEL_CODE	0x08
#define SEL_DATA	0x10

	.section .rodata
	.globl smp_trampoline_start, smp_trampoline_end
	.code16
smp_trampoline_start:
	cli
	cld
	movw %cs, %ax
	movw %ax, %ds
	xorl %ebx, %ebx
	movw %ax, %bx
	shll $4, %ebx				/* %ebx = our physical base */
	lgdtl TR_GDTR
	movl %cr0, %eax
	orl $CR0_PE, %eax
	movl %eax, %cr0
	ljmpl *TR_PM_JUMP			/* reloads CS: protected mode */

	.code32
	.globl smp_trampoline_pm
smp_trampoline_pm:				/* TR_PM_JUMP points here */
	movw $SEL_DATA, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	movw %ax, %fs
	movw %ax, %gs
	movl TR_CR4(%ebx), %eax
	movl %eax, %cr4
	movl TR_CR3(%ebx), %eax
	movl %eax, %cr3
	cmpl $0, TR_NX(%ebx)
	je 1f
	movl $MSR_EFER, %ecx
	rdmsr
	orl $EFER_NXE, %eax
	wrmsr
1:	movl %cr0, %eax
	orl $(CR0_PG | CR0_WP), %eax
	movl %eax, %cr0
	movl TR_STACK(%ebx), %esp
	movl TR_CPU(%ebx), %eax
	movl TR_KERNEL_CR3(%ebx), %ecx
	jmp *TR_ENTRY(%ebx)
smp_trampoline_end:

	.text
	/* In the higher half: %eax = struct cpu *, %ecx = the kernel's CR3. */
	.globl ap_start
ap_start:
	movl %ecx, %cr3				/* drops the identity map */
	xorl %ebp, %ebp				/* backtraces end here */
	pushl %eax
	call ap_main
1:	cli
	hlt
	jmp 1b
