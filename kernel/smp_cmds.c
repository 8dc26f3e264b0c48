/*
 * `cpus` (also `lscpu`): the processors, their APIC IDs and states, and
 * the local timer ticks each has taken -- a CPU whose count stands still
 * is not taking interrupts.  `lockstat`: the lock classes CPUs found
 * busy, summed over the per-CPU tables of kernel/lockdep.c, the longest
 * total wait first.  Read-only views with no lock: counts move while
 * they are printed.  `on CPU CMD`: a command run on another CPU.
 */
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/errno.h"
#include "kernel/shell.h"
#include "kernel/smp.h"
#include "kernel/time.h"
#include "kernel/mm/slab.h"
#include "lib/sort.h"
#include "lib/string.h"

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
			c == this_cpu() ? "  (this CPU)" : "");
	kprintf("%u online\n", num_online_cpus());
	return 0;
}
SHELL_COMMAND("cpus", cmd_cpus, "cpus", "the processors: APIC IDs, state, local timer ticks");

static int cmd_lscpu(int argc, char **argv)
{
	return cmd_cpus(argc, argv);
}
SHELL_COMMAND("lscpu", cmd_lscpu, "lscpu", "the same as cpus");

struct on_cmd {
	char	line[SHELL_LINE_MAX];
	int	status;
};

static void on_run(void *data, u32 idx)
{
	struct on_cmd *oc = data;

	oc->status = shell_exec(oc->line);
}

/* on CPU CMD [ARG...]: run a shell command on another CPU and wait for it. */
static int cmd_on(int argc, char **argv)
{
	struct on_cmd *oc;
	size_t len = 0;
	u64 cpu;
	int i, err;

	if (argc < 3 || str_to_u64(argv[1], &cpu, false))
		return -EINVAL;
	if (cpu >= NR_CPUS || !cpu_table[cpu] ||
	    READ_ONCE(cpu_table[cpu]->c_state) != CPU_ONLINE) {
		kprintf("on: CPU %s is not online (see cpus)\n", argv[1]);
		return -ECANCELED;
	}
	oc = kzalloc(sizeof(*oc), GFP_KERNEL);
	if (!oc)
		return -ENOMEM;
	for (i = 2; i < argc; i++) {
		len += snprintf(oc->line + len, sizeof(oc->line) - len, "%s%s", i > 2 ? " " : "",
				argv[i]);
		if (len >= sizeof(oc->line)) {
			kfree(oc);
			return -E2BIG;
		}
	}
	err = smp_run_on((u32)cpu, on_run, oc);
	if (!err)
		err = oc->status;
	kfree(oc);
	return err;
}
SHELL_COMMAND("on", cmd_on, "on CPU COMMAND [ARG...]",
	      "run a shell command on another CPU, which may wait for I/O there");

/* One row of `lockstat`: a class summed over every CPU. */
struct lockstat_row {
	const char	*name;
	u64		contended, wait, max;
};

static int row_cmp(const void *a, const void *b)
{
	const struct lockstat_row *x = a, *y = b;

	return x->wait < y->wait ? 1 : x->wait > y->wait ? -1 : 0;
}

static u64 cycles_to_us(u64 c)
{
	return tsc_khz() ? c * 1000 / tsc_khz() : 0;
}

/* Sum every CPU's table into rows, one per class name; the number of rows. */
static u32 lockstat_rows(struct lockstat_row *rows, u32 max)
{
	struct cpu *c;
	u32 n = 0, i, s, r;

	for_each_cpu(c, i) {
		for (s = 0; c->c_lockstat && s < LOCKSTAT_SLOTS; s++) {
			const struct lockstat_entry *e = &c->c_lockstat[s];

			if (!e->ls_name)
				continue;
			for (r = 0; r < n && strcmp(rows[r].name, e->ls_name); r++)
				;
			if (r == n) {
				if (n == max)
					continue;
				rows[n++] = (struct lockstat_row){ .name = e->ls_name };
			}
			rows[r].contended += e->ls_contended;
			rows[r].wait += e->ls_wait_cycles;
			rows[r].max = max(rows[r].max, e->ls_max_cycles);
		}
	}
	return n;
}

static int cmd_lockstat(int argc, char **argv)
{
	struct lockstat_row *rows;
	u32 n, i;

	if (argc == 2 && !strcmp(argv[1], "reset")) {
		lockstat_reset();
		return 0;
	}
	if (argc != 1)
		return -EINVAL;
	rows = kmalloc(LOCKSTAT_SLOTS * 2 * sizeof(*rows), GFP_KERNEL);
	if (!rows)
		return -ENOMEM;
	n = lockstat_rows(rows, LOCKSTAT_SLOTS * 2);
	sort(rows, n, sizeof(*rows), row_cmp);
	kprintf("%-24s %10s %12s %10s\n", "LOCK", "CONTENDED", "WAIT-US", "MAX-US");
	for (i = 0; i < n; i++)
		kprintf("%-24s %10llu %12llu %10llu\n", rows[i].name,
			(unsigned long long)rows[i].contended,
			(unsigned long long)cycles_to_us(rows[i].wait),
			(unsigned long long)cycles_to_us(rows[i].max));
	kprintf("%u lock classes contended on %u CPUs%s\n", n, num_online_cpus(),
		lockdep_on ? "; lock order checked (lockdep=1)" : "");
	kfree(rows);
	return 0;
}
SHELL_COMMAND("lockstat", cmd_lockstat, "lockstat [reset]",
	      "locks CPUs found busy: how often, how long they waited");
