/*
 * The GDT, one per CPU: flat 4 GiB kernel code and data segments
 * (protection comes from paging), the TSS the CPU saves the running state
 * into on a task switch, the double-fault TSS with its own stack, and a
 * data segment whose base is the CPU's struct cpu, loaded into %fs so
 * that this_cpu() is one load (kernel/percpu.h).  Segment registers are
 * reloaded to drop whatever the loader (or the trampoline) set.
 */
#include "kernel/desc.h"
#include "kernel/cpu.h"
#include "kernel/percpu.h"
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
#define SEG_FLAGS_B32	0x40	/* byte granularity, 32-bit */

#define DF_STACK_SIZE	8192

static struct cpu boot_cpu_data;
static u8 boot_df_stack[DF_STACK_SIZE] __aligned(16);

static void set_desc(u64 *slot, u32 base, u32 limit, u8 access, u8 flags)
{
	struct seg_desc d = {
		.limit_lo = limit & 0xffff,
		.base_lo = base & 0xffff,
		.base_mid = (base >> 16) & 0xff,
		.access = access,
		.limit_hi_flags = (u8)(((limit >> 16) & 0x0f) | flags),
		.base_hi = (base >> 24) & 0xff,
	};

	memcpy(slot, &d, sizeof(d));
}

struct tss *gdt_main_tss(void)
{
	return &this_cpu()->c_tss;
}

void gdt_load_cpu(struct cpu *c)
{
	struct {
		u16 limit;
		u32 base;
	} __packed gdtr = { sizeof(c->c_gdt) - 1, (u32)c->c_gdt };
	struct tss *df = &c->c_df_tss;

	c->c_self = c;
	memset(c->c_gdt, 0, sizeof(c->c_gdt));
	set_desc(&c->c_gdt[GDT_KERNEL_CS / 8], 0, 0xfffff, SEG_ACC_CODE, SEG_FLAGS_4K32);
	set_desc(&c->c_gdt[GDT_KERNEL_DS / 8], 0, 0xfffff, SEG_ACC_DATA, SEG_FLAGS_4K32);
	set_desc(&c->c_gdt[GDT_TSS / 8], (u32)&c->c_tss, sizeof(c->c_tss) - 1, SEG_ACC_TSS, 0);
	set_desc(&c->c_gdt[GDT_DF_TSS / 8], (u32)df, sizeof(*df) - 1, SEG_ACC_TSS, 0);
	set_desc(&c->c_gdt[GDT_PERCPU / 8], (u32)c, sizeof(*c) - 1, SEG_ACC_DATA, SEG_FLAGS_B32);

	memset(&c->c_tss, 0, sizeof(c->c_tss));
	c->c_tss.iomap_base = sizeof(struct tss);

	/* The #DF task runs on the current page tables, which map all the kernel. */
	memset(df, 0, sizeof(*df));
	df->cr3 = read_cr3();
	df->eip = (u32)double_fault_task;
	df->eflags = 0x2;		/* reserved bit 1; interrupts off */
	df->esp = (u32)c->c_df_stack_top;
	df->ss = GDT_KERNEL_DS;
	df->cs = GDT_KERNEL_CS;
	df->ds = df->es = df->gs = GDT_KERNEL_DS;
	df->fs = GDT_PERCPU;
	df->iomap_base = sizeof(struct tss);

	__asm__ __volatile__(
		"lgdt %0\n\t"
		"ljmp %1, $1f\n"
		"1:\n\t"
		"movw %w2, %%ax\n\t"
		"movw %%ax, %%ds\n\t"
		"movw %%ax, %%es\n\t"
		"movw %%ax, %%gs\n\t"
		"movw %%ax, %%ss\n\t"
		"movw %w3, %%ax\n\t"
		"movw %%ax, %%fs\n\t"
		"ltr %w4"
		:: "m"(gdtr), "i"(GDT_KERNEL_CS), "r"(GDT_KERNEL_DS), "r"(GDT_PERCPU),
		   "r"(GDT_TSS)
		: "eax", "memory");
}

void gdt_init(void)
{
	struct cpu *c = &boot_cpu_data;

	c->c_df_stack_top = boot_df_stack + DF_STACK_SIZE;
	c->c_state = CPU_ONLINE;
	c->c_lockstat = lockstat_boot_table;
	gdt_load_cpu(c);
	cpu_table[0] = c;
	nr_cpus_online = 1;
}
