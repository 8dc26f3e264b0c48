/*
 * kmain: the order of boot.
 *
 *   GDT                     -> this CPU's struct cpu (%fs) for the locks
 *   serial console          -> messages from here on
 *   multiboot -> boot_info  -> before anything can overwrite the loader's data
 *   VGA text console        -> unless the loader gave a graphics framebuffer
 *   cmdline                 -> every owner's parameters set before its init
 *   IDT, CPU identify       -> exceptions get reports
 *   mm_init                 -> pages, slab, kmap, final page tables
 *   framebuffer console     -> needs ioremap; replays the log so far
 *   PIC, time, interrupts on
 *   initcalls by level      -> interrupts, the other CPUs, subsystems, drivers,
 *                              filesystems (kernel/init.h)
 *   self-tests, run=, or the interactive shell
 */
#include "kernel/work.h"
#include "kernel/bootinfo.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/desc.h"
#include "kernel/fbcon.h"
#include "kernel/init.h"
#include "kernel/irqchip.h"
#include "kernel/param.h"
#include "kernel/shell.h"
#include "kernel/printk.h"
#include "kernel/selftest.h"
#include "kernel/power.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/page.h"
#include "kernel/errno.h"
#include "lib/string.h"

/* The C entry, called from boot/entry.S. */
void kmain(u32 magic, u32 info_phys);

extern const struct initcall __initcall_start[], __initcall_end[];
extern const char *selftest_pattern;

static void drop_identity_map(void)
{
	boot_pdpt[0] = 0;
	write_cr3(read_cr3());	/* reload the PDPT registers (PAE) */
}

static bool initcall_debug;
PARAM_BOOL("initcall_debug", initcall_debug, "print how long each initcall took (boot time)");

static void run_initcalls(void)
{
	const struct initcall *ic;
	u64 t0;
	int err;

	for (ic = __initcall_start; ic < __initcall_end; ic++) {
		t0 = ktime_us();
		err = ic->ic_fn();
		if (initcall_debug)
			pr_info("init: %s took %llu us\n", ic->ic_name,
				(unsigned long long)(ktime_us() - t0));
		if (err && err != -ENODEV)
			pr_warn("init: %s failed: %s\n", ic->ic_name, errstr(err));
	}
}

static void print_memory_map(void)
{
	unsigned i;

	for (i = 0; i < boot_info.nr_mmap; i++) {
		const struct boot_mmap_entry *e = &boot_info.mmap[i];

		pr_info("  mem 0x%010llx-0x%010llx %s\n", (unsigned long long)e->base,
			(unsigned long long)(e->base + e->len - 1),
			e->type == BOOT_MEM_USABLE ? "usable" : "reserved");
	}
}

void kmain(u32 magic, u32 info_phys)
{
	int err;

	gdt_init();
	work_lists_init();
	serial_early_init();
	err = boot_info_parse(magic, info_phys);
	if (boot_info.fb.fb_type != BOOT_FB_RGB)
		vga_init();
	pr_info("storage stack kernel booting\n");
	if (err != 0) {
		pr_emerg("not started by a multiboot loader (magic %#x); stopping\n", magic);
		machine_fail_now();
	}
	cmdline_parse();
	pr_info("boot: loader \"%s\", command line \"%s\"\n",
		boot_info.loader, boot_info.cmdline);
	pr_info("boot: multiboot%s, firmware %s, ACPI RSDP %s\n",
		magic == MB1_BOOTLOADER_MAGIC ? "1" : "2", boot_info.firmware,
		boot_info.rsdp_len ? "from the loader" : "to be searched for");
	print_memory_map();

	idt_init();
	cpu_identify();
	drop_identity_map();
	mm_init();
	fbcon_init();

	pic_init();
	time_init();
	local_irq_enable();
	serial_irq_init();

	run_initcalls();

	if (selftest_pattern)
		machine_exit(selftest_run(selftest_pattern) ? 1 : 0);
	shell_main();
}
