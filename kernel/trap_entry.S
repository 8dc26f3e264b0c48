/*
 * Entry stubs for all 256 interrupt vectors.  Each stub makes the stack
 * uniform (a zero where the CPU pushes no error code, then the vector
 * number) and jumps to the common path, which saves the general registers
 * as a struct trap_frame (kernel/desc.h) and calls trap_dispatch().
 *
 * Vectors with a CPU error code (SDM vol. 3A, table 6-1): 8, 10-14, 17,
 * 21, 29, 30.  trap_stubs[] holds every stub's address for idt_init().
 */
#define HAS_ERROR(v) ((v) == 8 || ((v) >= 10 && (v) <= 14) || (v) == 17 || \
		      (v) == 21 || (v) == 29 || (v) == 30)

	.altmacro
	.text
	.align 16
trap_common:
	cld
	pusha
	movl %esp, %eax
	pushl %eax			/* trap_dispatch(struct trap_frame *) */
	call trap_dispatch
	addl $4, %esp
	popa
	addl $8, %esp			/* vector and error code */
	iret

	.macro stub v
	.align 8
trap_stub_\v:
	.if HAS_ERROR(\v)
	.else
	pushl $0
	.endif
	pushl $\v
	jmp trap_common
	.endm

	.set v, 0
	.rept 256
	stub %v
	.set v, v + 1
	.endr

	.section .rodata
	.align 4
	.globl trap_stubs
trap_stubs:
	.macro stubaddr v
	.long trap_stub_\v
	.endm
	.set v, 0
	.rept 256
	stubaddr %v
	.set v, v + 1
	.endr

/*
 * int fault_setjmp(struct fault_jmp *j)  -- returns 0, or the value given
 * to fault_longjmp.  void fault_longjmp(struct fault_jmp *j, int val).
 * Used by selftest_catch_fault() to unwind out of an expected exception.
 * struct fault_jmp: ebx, esi, edi, ebp, esp, eip, eflags.
 */
	.text
	.globl fault_setjmp, fault_longjmp
fault_setjmp:
	movl 4(%esp), %eax
	movl %ebx, 0(%eax)
	movl %esi, 4(%eax)
	movl %edi, 8(%eax)
	movl %ebp, 12(%eax)
	leal 4(%esp), %ecx		/* the caller's esp after we return */
	movl %ecx, 16(%eax)
	movl (%esp), %ecx		/* our return address */
	movl %ecx, 20(%eax)
	pushfl
	popl 24(%eax)
	xorl %eax, %eax
	ret

fault_longjmp:
	movl 4(%esp), %edx
	movl 8(%esp), %eax
	movl 0(%edx), %ebx
	movl 4(%edx), %esi
	movl 8(%edx), %edi
	movl 12(%edx), %ebp
	movl 16(%edx), %esp
	pushl 24(%edx)
	popfl
	jmp *20(%edx)

/*
 * The double-fault task.  A #DF switches here through a task gate, onto
 * its own stack and page tables, so that a kernel stack overflow (which
 * faults again while pushing the page-fault frame) still gets a report.
 */
	.globl double_fault_task
double_fault_task:
	call double_fault_report
1:	cli
	hlt
	jmp 1b
