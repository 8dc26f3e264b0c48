/*
 * Running code on several CPUs at once, code that may wait: what the
 * bench and stress tools use to submit I/O from every CPU, and the `on`
 * command to run a shell command elsewhere.
 *
 * Each share is a struct work queued on its CPU (kernel/work.h), where
 * that CPU's idle loop or waiter runs it with interrupts on, so it may
 * wait for I/O like any code on the boot CPU; the caller runs share 0
 * itself, then waits for the others' completions.  Unlike smp_call_*
 * (interrupt context, no waiting) this is for long work.
 */
#include "kernel/completion.h"
#include "kernel/errno.h"
#include "kernel/smp.h"
#include "kernel/work.h"

struct smp_share {
	struct work		s_work;
	struct completion	s_done;
	void			(*s_fn)(void *data, u32 idx);
	void			*s_data;
	u32			s_idx;
};

static void smp_share_run(struct work *w)
{
	struct smp_share *s = container_of(w, struct smp_share, s_work);

	s->s_fn(s->s_data, s->s_idx);
	complete(&s->s_done);
}

u32 smp_run_cpus(u32 n, u32 *cpus)
{
	struct cpu *me = this_cpu(), *c;
	u32 i, k = 0;

	if (n)
		cpus[k++] = me->c_id;
	for_each_cpu(c, i)
		if (k < n && c != me && READ_ONCE(c->c_state) == CPU_ONLINE)
			cpus[k++] = c->c_id;
	return k;
}

u32 smp_run_parallel(u32 n, void (*fn)(void *data, u32 idx), void *data)
{
	struct smp_share share[NR_CPUS];
	u32 cpus[NR_CPUS], i;

	n = smp_run_cpus(min(n, (u32)NR_CPUS), cpus);
	for (i = 1; i < n; i++) {
		work_init(&share[i].s_work, smp_share_run);
		init_completion(&share[i].s_done);
		share[i].s_fn = fn;
		share[i].s_data = data;
		share[i].s_idx = i;
		queue_work_on(cpus[i], &share[i].s_work);
	}
	if (n)
		fn(data, 0);
	for (i = 1; i < n; i++)
		wait_for_completion(&share[i].s_done);
	return n;
}

int smp_run_on(u32 cpu, void (*fn)(void *data, u32 idx), void *data)
{
	struct smp_share s;

	if (cpu >= NR_CPUS || !cpu_table[cpu] || READ_ONCE(cpu_table[cpu]->c_state) != CPU_ONLINE)
		return -ENODEV;
	if (cpu == smp_processor_id()) {
		fn(data, 0);
		return 0;
	}
	work_init(&s.s_work, smp_share_run);
	init_completion(&s.s_done);
	s.s_fn = fn;
	s.s_data = data;
	s.s_idx = 0;
	queue_work_on(cpu, &s.s_work);
	wait_for_completion(&s.s_done);
	return 0;
}
