/*
 * The IDT and CPU exceptions.
 *
 * Every vector has an interrupt gate to its stub (kernel/trap_entry.S),
 * except #DF, which has a task gate to the double-fault TSS so that a
 * stack overflow still produces a report.  trap_dispatch() sends IRQ
 * vectors to kernel/irq.c and handles exceptions: a readable report
 * (vector name, decoded page-fault error code, registers, backtrace with
 * function names), then panic.  A self-test may arm a catch first
 * (selftest_catch_fault), and then the exception unwinds to it instead.
 */
#include "kernel/desc.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "kernel/cpu.h"
#include "kernel/irqchip.h"
#include "kernel/irq.h"
#include "kernel/ksyms.h"
#include "kernel/printk.h"
#include "kernel/selftest.h"
#include "kernel/panic.h"
#include "kernel/bootinfo.h"
#include "kernel/mm/page.h"

/* Interrupt/task gate (SDM vol. 3A, 6.11). */
struct idt_gate {
	u16	offset_lo;
	u16	selector;
	u8	zero;
	u8	type_attr;
	u16	offset_hi;
} __packed;
_Static_assert(sizeof(struct idt_gate) == 8, "IDT gate");

#define GATE_INTR32	0x8E	/* present, ring 0, 32-bit interrupt gate */
#define GATE_TASK	0x85	/* present, ring 0, task gate */

#define VEC_NMI			2
#define VEC_DOUBLE_FAULT	8
#define VEC_PAGE_FAULT		14

/* Page-fault error code bits (SDM vol. 3A, 4.7). */
#define PF_P		(1u << 0)
#define PF_W		(1u << 1)
#define PF_U		(1u << 2)
#define PF_RSVD		(1u << 3)
#define PF_I		(1u << 4)

static struct idt_gate idt[256] __aligned(8);
extern const u32 trap_stubs[256];

static const char *const exception_names[32] = {
	"divide error", "debug", "NMI", "breakpoint", "overflow",
	"bound range exceeded", "invalid opcode", "device not available",
	"double fault", "coprocessor segment overrun", "invalid TSS",
	"segment not present", "stack-segment fault", "general protection fault",
	"page fault", "reserved 15", "x87 floating-point error", "alignment check",
	"machine check", "SIMD floating-point error", "virtualization exception",
	"control protection", "reserved 22", "reserved 23", "reserved 24",
	"reserved 25", "reserved 26", "reserved 27", "hypervisor injection",
	"VMM communication", "security exception", "reserved 31",
};


/* Nesting depth of trap handlers: in_interrupt() is true inside any. */

bool in_interrupt(void)
{
	return this_cpu()->c_trap_depth != 0;
}

static void set_gate(unsigned v, u32 offset, u16 sel, u8 type)
{
	idt[v].offset_lo = offset & 0xffff;
	idt[v].selector = sel;
	idt[v].zero = 0;
	idt[v].type_attr = type;
	idt[v].offset_hi = offset >> 16;
}

/* One IDT for every CPU: the gates name GDT selectors, which each CPU's GDT has. */
void idt_load(void)
{
	struct {
		u16 limit;
		u32 base;
	} __packed idtr = { sizeof(idt) - 1, (u32)idt };

	__asm__ __volatile__("lidt %0" :: "m"(idtr));
}

void idt_init(void)
{
	unsigned v;

	for (v = 0; v < 256; v++)
		set_gate(v, trap_stubs[v], GDT_KERNEL_CS, GATE_INTR32);
	set_gate(VEC_DOUBLE_FAULT, 0, GDT_DF_TSS, GATE_TASK);
	idt_load();
}

/* --- expected faults, for self-tests ------------------------------------ */

struct fault_jmp {
	u32 ebx, esi, edi, ebp, esp, eip, eflags;
};

int fault_setjmp(struct fault_jmp *j);
void __noreturn fault_longjmp(struct fault_jmp *j, int val);

static struct fault_jmp *armed_catch;
static u32 caught_cr2;

int selftest_catch_fault(void (*fn)(void *), void *arg, u32 *cr2)
{
	struct fault_jmp j;
	int r;

	KASSERT(!armed_catch);
	r = fault_setjmp(&j);
	if (r == 0) {
		armed_catch = &j;
		fn(arg);
		armed_catch = NULL;
		return -1;
	}
	/* Back from an exception: r is vector + 1. */
	if (cr2)
		*cr2 = caught_cr2;
	return r - 1;
}

/* --- reports -------------------------------------------------------------- */

static void print_pf_detail(u32 err, u32 addr)
{
	printk(KERN_EMERG "page fault: address 0x%08x, %s, %s, %s mode%s%s\n", addr,
	       err & PF_I ? "instruction fetch" : err & PF_W ? "write" : "read",
	       err & PF_P ? "protection violation" : "not present",
	       err & PF_U ? "user" : "kernel",
	       err & PF_RSVD ? ", reserved bit set" : "",
	       addr < 4096 ? " (NULL pointer dereference)" : "");
}

static void print_regs(const struct trap_frame *tf, u32 esp)
{
	printk(KERN_EMERG "  eax=%08x ebx=%08x ecx=%08x edx=%08x\n",
	       tf->eax, tf->ebx, tf->ecx, tf->edx);
	printk(KERN_EMERG "  esi=%08x edi=%08x ebp=%08x esp=%08x\n",
	       tf->esi, tf->edi, tf->ebp, esp);
	printk(KERN_EMERG "  eip=%08x cs=%04x eflags=%08x error=%08x\n",
	       tf->eip, tf->cs, tf->eflags, tf->error);
	printk(KERN_EMERG "  cr0=%08x cr2=%08x cr3=%08x cr4=%08x\n",
	       read_cr0(), read_cr2(), read_cr3(), read_cr4());
}

static void __noreturn exception(struct trap_frame *tf)
{
	u32 v = tf->vector, cr2 = read_cr2(), off;
	const char *fn = ksym_lookup(tf->eip, &off);

	if (armed_catch) {
		struct fault_jmp *j = armed_catch;

		armed_catch = NULL;
		caught_cr2 = cr2;
		this_cpu()->c_trap_depth--;
		fault_longjmp(j, (int)v + 1);
	}
	panic_begin();
	printk(KERN_EMERG "\n*** CPU exception %u (%s) at %08x %s%s+0x%x\n", v,
	       v < 32 ? exception_names[v] : "?", tf->eip,
	       fn ? "in " : "", fn ? fn : "", fn ? off : 0);
	if (v == VEC_PAGE_FAULT)
		print_pf_detail(tf->error, cr2);
	/* Same-privilege trap: the interrupted ESP is just above the frame. */
	print_regs(tf, (u32)tf + sizeof(*tf));
	backtrace_print(tf->eip, tf->ebp);
	panic_end("unhandled CPU exception");
}

/* Runs as the double-fault task; the faulting state is in the main TSS. */
void double_fault_report(void)
{
	struct tss *t = gdt_main_tss();
	u32 off;
	const char *fn = ksym_lookup(t->eip, &off);

	panic_begin();
	printk(KERN_EMERG "\n*** CPU exception 8 (double fault) at %08x %s%s+0x%x\n",
	       t->eip, fn ? "in " : "", fn ? fn : "", fn ? off : 0);
	printk(KERN_EMERG "  esp=%08x ebp=%08x\n", t->esp, t->ebp);
	if (t->esp - (u32)boot_stack_guard < 2 * PAGE_SIZE)
		printk(KERN_EMERG "  kernel stack overflow: esp reached the guard page "
		       "below the boot stack\n");
	printk(KERN_EMERG "  eax=%08x ebx=%08x ecx=%08x edx=%08x esi=%08x edi=%08x\n",
	       t->eax, t->ebx, t->ecx, t->edx, t->esi, t->edi);
	backtrace_print(t->eip, t->ebp);
	panic_end("double fault");
}

void trap_dispatch(struct trap_frame *tf)
{
	this_cpu()->c_trap_depth++;
	if (tf->vector >= IRQ_VECTOR_BASE)
		irq_dispatch(tf->vector - IRQ_VECTOR_BASE, tf);
	else if (tf->vector != VEC_NMI || !nmi_handle(tf))
		exception(tf);
	this_cpu()->c_trap_depth--;
}
