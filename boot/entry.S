/*
 * Kernel entry from a multiboot loader: GRUB (multiboot 1 or 2, BIOS or
 * UEFI), or QEMU's -kernel (multiboot 1 only).
 *
 * The image carries both headers: multiboot 1 (Multiboot Specification
 * 0.6.96, section 3.1) and multiboot 2 (Multiboot Specification 2.0,
 * section 3.1), the latter asking for a linear framebuffer (optional: on
 * a BIOS in text mode GRUB may give text) and never for boot services to
 * be kept -- x86_64 UEFI firmware cannot be called from a 32-bit kernel.
 *
 * Either loader leaves us in 32-bit protected mode, paging off, with EAX
 * the magic and EBX the physical address of its information (0.6.96
 * section 3.2; 2.0 section 3.3).  Multiboot 2 information is
 * self-contained and may lie anywhere below 4 GiB, so it is copied into
 * mb2_info_copy here, before paging limits what we can reach.  This stub runs at its
 * physical address (linker.ld puts .boot at 1 MiB), so it names every
 * higher-half symbol by its physical address, sym - PAGE_OFFSET.
 *
 * It zeroes .bss, builds the early PAE tables (Intel SDM vol. 3A, 4.4):
 *	PDPT[0] -> boot_pd_low:  the first 4 MiB identity-mapped, only so
 *	                         that the instruction after "enable paging"
 *	                         still exists; main() drops it
 *	PDPT[3] -> boot_pd_high: physical [0, 1 GiB) at PAGE_OFFSET, 2 MiB pages
 * turns on PAE and paging, jumps to the higher half, switches to the boot
 * stack (a guard page lies below it) and calls kmain(magic, info).
 */
#define PAGE_OFFSET	0xC0000000
#define PHYS(x)		((x) - PAGE_OFFSET)

#define MB_MAGIC	0x1BADB002
#define MB_FLAG_ALIGN	(1 << 0)	/* modules on page boundaries */
#define MB_FLAG_MEMINFO	(1 << 1)	/* give us mem_* and the memory map */
#define MB_FLAGS	(MB_FLAG_ALIGN | MB_FLAG_MEMINFO)

#define PTE_P		(1 << 0)
#define PTE_RW		(1 << 1)
#define PTE_PS		(1 << 7)	/* a 2 MiB page in a PAE page directory */
#define CR0_WP		(1 << 16)
#define CR0_PG		(1 << 31)
#define CR4_PAE		(1 << 5)

#define MB2_MAGIC	0xE85250D6
#define MB2_ARCH_I386	0		/* 32-bit protected mode */
#define MB2_HDR_TAG_END	0
#define MB2_HDR_TAG_FB	5		/* framebuffer request (2.0, 3.1.10) */
#define MB2_HDR_TAG_MODALIGN 6		/* modules page-aligned (3.1.11) */
#define MB2_HDR_OPTIONAL 1		/* tag flag: boot anyway without it */
#define MB2_BOOTLOADER_MAGIC 0x36D76289
#define MB2_INFO_COPY_MAX (64 * 1024)	/* kernel/bootinfo.h */

#define BOOT_STACK_SIZE	16384

	.section .multiboot, "a"
	.align 4
	.long MB_MAGIC
	.long MB_FLAGS
	.long -(MB_MAGIC + MB_FLAGS)

	/* Multiboot 2 header (2.0, 3.1.1): 8-byte aligned, in the first 32 KiB. */
	.align 8
mb2_header:
	.long MB2_MAGIC
	.long MB2_ARCH_I386
	.long mb2_header_end - mb2_header
	.long -(MB2_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))
	.align 8
	.short MB2_HDR_TAG_FB, MB2_HDR_OPTIONAL
	.long 20
	.long 0, 0, 32			/* width, height: any; depth: 32 if offered */
	.align 8
	.short MB2_HDR_TAG_MODALIGN, 0
	.long 8
	.align 8
	.short MB2_HDR_TAG_END, 0
	.long 8
mb2_header_end:

	.section .boot.text, "ax"
	.code32
	.globl _start
_start:
	cli
	cld
	movl %eax, %esi			/* keep the magic; EBX (info) is left alone */

	/* Zero .bss: the page tables and the stack live there. */
	movl $PHYS(_bss_start), %edi
	movl $PHYS(_bss_end), %ecx
	subl %edi, %ecx
	xorl %eax, %eax
	rep stosb

	/* Multiboot 2: copy the information (total_size first) while it is reachable. */
	cmpl $MB2_BOOTLOADER_MAGIC, %esi
	jne 3f
	movl %esi, %edx
	movl (%ebx), %ecx
	movl %ecx, PHYS(mb2_info_size)
	cmpl $MB2_INFO_COPY_MAX, %ecx
	jbe 2f
	movl $MB2_INFO_COPY_MAX, %ecx
2:	movl %ebx, %esi
	movl $PHYS(mb2_info_copy), %edi
	rep movsb
	movl %edx, %esi
3:
	/* Identity: two 2 MiB pages at physical 0. */
	movl $PHYS(boot_pd_low), %edi
	movl $(0x000000 | PTE_PS | PTE_RW | PTE_P), 0(%edi)
	movl $(0x200000 | PTE_PS | PTE_RW | PTE_P), 8(%edi)

	/* Higher half: 512 entries of 2 MiB cover [0, 1 GiB). */
	movl $PHYS(boot_pd_high), %edi
	movl $(PTE_PS | PTE_RW | PTE_P), %eax
	movl $512, %ecx
1:	movl %eax, (%edi)
	movl $0, 4(%edi)
	addl $0x200000, %eax
	addl $8, %edi
	loop 1b

	/* PDPT entries take only P (and cache bits) in PAE mode: RW is reserved. */
	movl $PHYS(boot_pdpt), %edi
	movl $(PHYS(boot_pd_low) + PTE_P), 0(%edi)
	movl $(PHYS(boot_pd_high) + PTE_P), 24(%edi)

	movl %cr4, %eax
	orl $CR4_PAE, %eax
	movl %eax, %cr4
	movl $PHYS(boot_pdpt), %eax
	movl %eax, %cr3
	movl %cr0, %eax
	orl $(CR0_PG | CR0_WP), %eax
	movl %eax, %cr0

	movl $higher_half, %eax
	jmp *%eax

	.section .text.entry, "ax"
higher_half:
	movl $boot_stack_top, %esp
	xorl %eax, %eax
	pushl %eax			/* a zero frame ends backtraces */
	pushl %eax
	movl %esp, %ebp
	pushl %ebx			/* kmain(magic, info_phys) */
	pushl %esi
	call kmain
	/* kmain never returns; if it does, stop here. */
2:	cli
	hlt
	jmp 2b

	.section .bss.pagetables, "aw", @nobits
	.align 4096
	.globl boot_pd_low, boot_pd_high, boot_pdpt
boot_pd_low:
	.skip 4096
boot_pd_high:
	.skip 4096
boot_pdpt:
	.skip 32
	.align 4096
	.globl boot_stack_guard, boot_stack_top
boot_stack_guard:
	.skip 4096
	.skip BOOT_STACK_SIZE
boot_stack_top:

	.section .bss, "aw", @nobits
	.align 8
	.globl mb2_info_copy, mb2_info_size
mb2_info_copy:
	.skip MB2_INFO_COPY_MAX
mb2_info_size:
	.skip 4
