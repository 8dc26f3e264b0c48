/*
 * The GDT: flat 4 GiB kernel code and data segments (protection comes
 * from paging), the TSS the CPU saves the running state into on a task
 * switch, and the double-fault TSS with its own stack.  Loaded once at
 * boot; segment registers are reloaded to drop whatever the loader set.
 */
#include "kernel/desc.h"
#include "kernel/cpu.h"
#include "lib/string.h"

/* Segment descriptor (SDM vol. 3A, 3.4.5). */
struct seg_desc {
	u16	limit_lo;
	u16	base_lo;
	u8	base_mid;
	u8	access;
	u8	limit_hi_flags;
	u8	base_hi;
} __packed;
_Static_assert(sizeof(struct seg_desc) == 8, "segment descriptor");

#define SEG_ACC_CODE	0x9A	/* present, ring 0, code, readable */
#define SEG_ACC_DATA	0x92	/* present, ring 0, data, writable */
#define SEG_ACC_TSS	0x89	/* present, ring 0, 32-bit available TSS */
#define SEG_FLAGS_4K32	0xC0	/* 4 KiB granularity, 32-bit */

#define DF_STACK_SIZE	8192

static struct seg_desc gdt[5] __aligned(8);
static struct tss main_tss, df_tss;
static u8 df_stack[DF_STACK_SIZE] __aligned(16);


static void set_desc(struct seg_desc *d, u32 base, u32 limit, u8 access, u8 flags)
{
	d->limit_lo = limit & 0xffff;
	d->base_lo = base & 0xffff;
	d->base_mid = (base >> 16) & 0xff;
	d->access = access;
	d->limit_hi_flags = (u8)(((limit >> 16) & 0x0f) | flags);
	d->base_hi = (base >> 24) & 0xff;
}

struct tss *gdt_main_tss(void)
{
	return &main_tss;
}

void gdt_init(void)
{
	struct {
		u16 limit;
		u32 base;
	} __packed gdtr = { sizeof(gdt) - 1, (u32)gdt };

	set_desc(&gdt[GDT_KERNEL_CS / 8], 0, 0xfffff, SEG_ACC_CODE, SEG_FLAGS_4K32);
	set_desc(&gdt[GDT_KERNEL_DS / 8], 0, 0xfffff, SEG_ACC_DATA, SEG_FLAGS_4K32);
	set_desc(&gdt[GDT_TSS / 8], (u32)&main_tss, sizeof(main_tss) - 1, SEG_ACC_TSS, 0);
	set_desc(&gdt[GDT_DF_TSS / 8], (u32)&df_tss, sizeof(df_tss) - 1, SEG_ACC_TSS, 0);

	main_tss.iomap_base = sizeof(struct tss);

	/* The #DF task runs on the boot page tables, which map all the kernel. */
	memset(&df_tss, 0, sizeof(df_tss));
	df_tss.cr3 = read_cr3();
	df_tss.eip = (u32)double_fault_task;
	df_tss.eflags = 0x2;		/* reserved bit 1; interrupts off */
	df_tss.esp = (u32)(df_stack + DF_STACK_SIZE);
	df_tss.ss = GDT_KERNEL_DS;
	df_tss.cs = GDT_KERNEL_CS;
	df_tss.ds = df_tss.es = df_tss.fs = df_tss.gs = GDT_KERNEL_DS;
	df_tss.iomap_base = sizeof(struct tss);

	__asm__ __volatile__(
		"lgdt %0\n\t"
		"ljmp %1, $1f\n"
		"1:\n\t"
		"movw %w2, %%ax\n\t"
		"movw %%ax, %%ds\n\t"
		"movw %%ax, %%es\n\t"
		"movw %%ax, %%fs\n\t"
		"movw %%ax, %%gs\n\t"
		"movw %%ax, %%ss\n\t"
		"ltr %w3"
		:: "m"(gdtr), "i"(GDT_KERNEL_CS), "r"(GDT_KERNEL_DS), "r"(GDT_TSS)
		: "eax", "memory");
}
