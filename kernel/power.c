/*
 * Exit, power-off and reboot.
 *
 * QEMU's isa-debug-exit device at port 0xF4 ends the emulator with exit
 * code (value << 1) | 1; tools/run-qemu turns 33 into success and 35 into
 * failure.  The port is written only when CPUID says we run under a
 * hypervisor; on a real PC the machine halts with a message instead.
 * Reboot pulses the 8042 reset line, then falls back to a triple fault.
 */
#include "kernel/power.h"
#include "kernel/cpu.h"
#include "kernel/io.h"
#include "kernel/printk.h"
#include "kernel/console.h"
#include "kernel/spinlock.h"
#include "kernel/errno.h"

#define DEBUG_EXIT_PORT		0xF4
#define DEBUG_EXIT_SUCCESS	0x10	/* QEMU exits with 33 */
#define DEBUG_EXIT_FAILURE	0x11	/* QEMU exits with 35 */
#define I8042_STATUS		0x64
#define  I8042_STATUS_IBF	0x02
#define I8042_CMD_RESET		0xFE
#define I8042_WAIT_LOOPS	100000

static LIST_HEAD(shutdown_hooks);
static bool hooks_ran;

/* Hooks run last-registered first: filesystems (fs_initcall) write back
 * before the block layer (subsys_initcall) flushes the disks' caches. */
void register_shutdown_hook(struct shutdown_hook *h)
{
	list_add(&h->sh_entry, &shutdown_hooks);
}

static void run_shutdown_hooks(void)
{
	struct shutdown_hook *h;

	if (hooks_ran)
		return;
	hooks_ran = true;
	list_for_each_entry(h, &shutdown_hooks, sh_entry)
		h->sh_fn();
}

static void __noreturn stop(int status)
{
	local_irq_disable();
	if (boot_cpu.hypervisor)
		outb(DEBUG_EXIT_PORT, status ? DEBUG_EXIT_FAILURE : DEBUG_EXIT_SUCCESS);
	kprintf("\n%s. The machine is halted: it is safe to turn it off.\n",
		status ? "Stopped after a failure" : "Done");
	halt_forever();
}

void machine_exit(int status)
{
	run_shutdown_hooks();
	stop(status);
}

void machine_fail_now(void)
{
	stop(1);
}

void machine_reboot(void)
{
	struct { u16 limit; u32 base; } __packed null_idt = { 0, 0 };
	int i;

	run_shutdown_hooks();
	local_irq_disable();
	for (i = 0; i < I8042_WAIT_LOOPS && (inb(I8042_STATUS) & I8042_STATUS_IBF); i++)
		io_delay();
	outb(I8042_STATUS, I8042_CMD_RESET);
	for (i = 0; i < I8042_WAIT_LOOPS; i++)
		io_delay();
	/* Still here: an empty IDT makes the next exception a triple fault. */
	__asm__ __volatile__("lidt %0; int3" :: "m"(null_idt));
	halt_forever();
}
