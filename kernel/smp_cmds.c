/*
 * `cpus` (also `lscpu`): the processors, their APIC IDs and states, and
 * the local timer ticks each has taken -- a CPU whose count stands still
 * is not taking interrupts.  A read-only view with no lock: counts move
 * while they are printed.
 */
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/errno.h"
#include "kernel/shell.h"
#include "kernel/smp.h"

static int cmd_cpus(int argc, char **argv)
{
	struct cpu *c;
	u32 i;

	if (argc != 1)
		return -EINVAL;
	kprintf("%s\n", boot_cpu.brand[0] ? boot_cpu.brand : boot_cpu.vendor);
	kprintf("CPU  APIC  STATE     TICKS\n");
	for_each_cpu(c, i)
		kprintf("%3u  %4u  %-8s  %llu%s\n", c->c_id, c->c_apic_id,
			cpu_state_name(READ_ONCE(c->c_state)), (unsigned long long)c->c_ticks,
			c == this_cpu() ? "  (this CPU, ticks on the system timer)" : "");
	kprintf("%u online\n", num_online_cpus());
	return 0;
}
SHELL_COMMAND("cpus", cmd_cpus, "cpus", "the processors: APIC IDs, state, local timer ticks");

static int cmd_lscpu(int argc, char **argv)
{
	return cmd_cpus(argc, argv);
}
SHELL_COMMAND("lscpu", cmd_lscpu, "lscpu", "the same as cpus");
