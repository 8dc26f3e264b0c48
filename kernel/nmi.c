/*
 * Reaching another CPU whatever it is doing: an NMI sent by IPI (SDM 3A
 * 11.6.1, delivery mode NMI) is taken even with interrupts off.  Two
 * requests ride on it, posted in the target's c_nmi_req first:
 *
 *  - stop (a panic elsewhere): the target prints where it was, with a
 *    backtrace, and halts for good; smp_stop_others() stops the CPUs one
 *    at a time so their reports do not interleave;
 *  - sample (the watchdog): the target records its own backtrace in its
 *    struct cpu and returns to what it was doing; the asking CPU prints it.
 *    A stuck CPU may hold the console's lock, so it must not print itself.
 *
 * An NMI with no request posted is not ours: the exception report handles it.
 */
#include "kernel/apic.h"
#include "kernel/apicreg.h"
#include "kernel/cpu.h"
#include "kernel/desc.h"
#include "kernel/errno.h"
#include "kernel/ksyms.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/time.h"

#define LAPIC_ICR_DM_NMI	0x00000400	/* SDM 3A 11.6.1, delivery mode 100b */
#define NMI_STOP_WAIT_MS	500
#define NMI_SAMPLE_WAIT_MS	200

bool nmi_handle(const struct trap_frame *tf)
{
	struct cpu *c = this_cpu();
	u32 req = __atomic_exchange_n(&c->c_nmi_req, 0, __ATOMIC_ACQ_REL);

	switch (req) {
	case NMI_REQ_STOP:
		printk(KERN_EMERG "CPU %u stopped at %08x\n", c->c_id, tf->eip);
		backtrace_print(tf->eip, tf->ebp);
		__atomic_store_n(&c->c_state, CPU_STOPPED, __ATOMIC_RELEASE);
		halt_forever();		/* no IRET: further NMIs stay blocked */
	case NMI_REQ_SAMPLE:
		__atomic_store_n(&c->c_nmi_npcs,
				 (u32)backtrace_collect(tf->eip, tf->ebp, c->c_nmi_pcs,
							NMI_BACKTRACE_MAX), __ATOMIC_RELAXED);
		__atomic_add_fetch(&c->c_nmi_seq, 1, __ATOMIC_RELEASE);
		return true;
	default:
		return false;
	}
}

static int nmi_send(struct cpu *c, u32 req)
{
	__atomic_store_n(&c->c_nmi_req, req, __ATOMIC_RELEASE);
	return lapic_send_ipi(c->c_apic_id, LAPIC_ICR_DM_NMI);
}

/* After a panic's report: halt every other online CPU, each reporting where it was. */
void smp_stop_others(void)
{
	struct cpu *me = this_cpu(), *c;
	u64 deadline;
	u32 i;

	if (!lapic_enabled())
		return;
	for_each_cpu(c, i) {
		if (c == me || READ_ONCE(c->c_state) != CPU_ONLINE)
			continue;
		if (nmi_send(c, NMI_REQ_STOP)) {
			printk(KERN_EMERG "CPU %u: stop NMI not delivered\n", c->c_id);
			continue;
		}
		deadline = ktime_ms() + NMI_STOP_WAIT_MS;
		while (READ_ONCE(c->c_state) != CPU_STOPPED && ktime_ms() < deadline)
			cpu_relax();
		if (READ_ONCE(c->c_state) != CPU_STOPPED)
			printk(KERN_EMERG "CPU %u did not stop in %u ms\n", c->c_id,
			       NMI_STOP_WAIT_MS);
	}
}

/**
 * nmi_sample - the backtrace c is running, whatever its interrupt flag
 * @c: an online CPU other than this one
 * @pcs: receives up to max return addresses, the interrupted one first
 *
 * Returns the number of frames, or -ETIMEDOUT / -EIO when c did not answer.
 */
int nmi_sample(struct cpu *c, u32 *pcs, u32 max)
{
	u32 seq = __atomic_load_n(&c->c_nmi_seq, __ATOMIC_ACQUIRE), n, i;
	u64 deadline = ktime_ms() + NMI_SAMPLE_WAIT_MS;

	if (nmi_send(c, NMI_REQ_SAMPLE))
		return -EIO;
	while (__atomic_load_n(&c->c_nmi_seq, __ATOMIC_ACQUIRE) == seq) {
		if (ktime_ms() > deadline)
			return -ETIMEDOUT;
		cpu_relax();
	}
	n = min(__atomic_load_n(&c->c_nmi_npcs, __ATOMIC_RELAXED), max);
	for (i = 0; i < n; i++)
		pcs[i] = c->c_nmi_pcs[i];
	return (int)n;
}
