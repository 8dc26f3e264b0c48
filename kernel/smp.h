/*
 * The CPUs: how many run, and walking them.  kernel/smpboot.c starts them
 * at boot (smp_initcall, after the interrupt controllers); each one's
 * state is in its struct cpu (kernel/percpu.h).
 */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include "kernel/percpu.h"

static inline u32 num_online_cpus(void) { return READ_ONCE(nr_cpus_online); }

/* Every CPU the kernel knows of (online or not), by logical number. */
#define for_each_cpu(c, i) \
	for ((i) = 0; (i) < NR_CPUS && ((c) = cpu_table[(i)]) != NULL; (i)++)

static inline const char *cpu_state_name(u32 state)
{
	static const char *const names[] = {
		"absent", "starting", "online", "failed", "stopped"
	};

	return state < ARRAY_SIZE(names) ? names[state] : "?";
}

/* kernel/smp_call.c: run a function on every other online CPU (see there). */
int smp_call_function(void (*fn)(void *data), void *data);
int smp_call_start(void (*fn)(void *data), void *data);
int smp_call_finish(void);
/* kernel/smp_call.c: make CPU c look again at what it waits on (kernel/idle.c). */
void cpu_wake(struct cpu *c);

/*
 * kernel/smp_run.c: long work on other CPUs, which may wait for I/O.
 * smp_run_parallel runs fn(data, i) for i in [0, n) at once, share i on
 * its own online CPU (share 0 on this one), and returns when all have
 * returned: the number of shares run, n or fewer if fewer CPUs are
 * online.  smp_run_cpus fills cpus[] with the CPUs it would use and
 * says how many.  smp_run_on runs fn(data, 0) on CPU cpu and waits for
 * it; 0 or -ENODEV (no such CPU online).  Not from interrupt context.
 */
u32 smp_run_parallel(u32 n, void (*fn)(void *data, u32 idx), void *data);
u32 smp_run_cpus(u32 n, u32 *cpus);
int smp_run_on(u32 cpu, void (*fn)(void *data, u32 idx), void *data);

/* kernel/nmi.c: reaching a CPU whatever its interrupt flag (see there). */
#define NMI_REQ_STOP		1
#define NMI_REQ_SAMPLE		2
struct trap_frame;
bool nmi_handle(const struct trap_frame *tf);
void smp_stop_others(void);
int nmi_sample(struct cpu *c, u32 *pcs, u32 max);

/* kernel/watchdog.c: called from every CPU's tick. */
void watchdog_tick(void);
extern u32 watchdog_reports;
extern unsigned watchdog_ms;

#endif
