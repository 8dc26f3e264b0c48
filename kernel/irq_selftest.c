/*
 * In-kernel self-tests of interrupt steering (selftest=kernel/irq/...):
 *
 *	per_cpu_count	a vector sent to each online CPU in turn (a fixed
 *			IPI to its APIC ID, as an MSI steered there would
 *			arrive) runs its handler on that CPU and is counted
 *			in that CPU's column only
 *	affinity	irq_set_affinity reaches the chip for every online
 *			CPU and records it; an offline or absent CPU, and a
 *			vector every CPU takes, are refused
 *	free_waits	free_irq on one CPU returns only after the handler
 *			running on another has returned (needs two CPUs)
 *
 * The test vectors are allocated once (IRQ numbers are never given back)
 * and have a handler only while a test runs.  Every wait is bounded.
 */
#include "kernel/apic.h"
#include "kernel/apicreg.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/irqchip.h"
#include "kernel/percpu.h"
#include "kernel/selftest.h"
#include "kernel/smp.h"
#include "kernel/time.h"

#define IRQ_ST_WAIT_MS		2000	/* for one interrupt to arrive */
#define IRQ_ST_HOLD_MS		30	/* the handler free_irq must wait for */

static int st_irq = -1, st_irq_each = -1;
static u32 st_chip_cpu;			/* what the chip was last told */
static volatile u32 st_hits[NR_CPUS];	/* handler runs on each CPU */
static volatile u32 st_in, st_out;	/* free_waits: handler entered, returned */
static volatile bool st_hold;

static void st_nop(unsigned irq) { }
static void st_eoi(unsigned irq) { lapic_eoi(); }

static int st_set_affinity(unsigned irq, u32 cpu)
{
	st_chip_cpu = cpu;
	return 0;
}

static const struct irq_chip st_chip = {
	.name = "selftest",
	.mask = st_nop,
	.unmask = st_nop,
	.eoi = st_eoi,
	.set_affinity = st_set_affinity,
};

static irqreturn_t st_handler(unsigned irq, void *data)
{
	st_hits[smp_processor_id()]++;
	if (st_hold) {
		st_in = 1;
		mdelay(IRQ_ST_HOLD_MS);
		st_out = 1;
	}
	return IRQ_HANDLED;
}

/* The test vectors, allocated on first use.  0 or -1 (st_fail said why). */
static int st_vectors(void)
{
	if (!lapic_enabled())
		return st_fail("no local APIC");
	if (st_irq < 0)
		st_irq = irq_alloc(&st_chip);
	if (st_irq_each < 0)
		st_irq_each = irq_alloc_on(&st_chip, IRQ_CPU_EACH);
	if (st_irq < 0 || st_irq_each < 0)
		return st_fail("no free vector");
	return 0;
}

/* Send the test vector to CPU c and wait until its handler ran there.  0 or -ETIMEDOUT. */
static int kick(struct cpu *c)
{
	u32 before = st_hits[c->c_id];
	u64 deadline = ktime_ms() + IRQ_ST_WAIT_MS;

	if (lapic_send_ipi(c->c_apic_id, LAPIC_ICR_DM_FIXED | (IRQ_VECTOR_BASE + st_irq)))
		return -ETIMEDOUT;
	while (st_hits[c->c_id] == before) {
		if (ktime_ms() > deadline)
			return -ETIMEDOUT;
		cpu_relax();
	}
	return 0;
}

static int test_per_cpu_count(void)
{
	struct cpu *c, *o;
	u32 i, j, counts[NR_CPUS];
	int err;

	if (st_vectors())
		return -1;
	ST_EQ(request_irq((unsigned)st_irq, st_handler, &st_irq, "selftest"), 0);
	err = 0;
	for_each_cpu(c, i) {
		if (!irq_cpu_online(i))
			continue;
		for_each_cpu(o, j)
			counts[j] = irq_count_cpu((unsigned)st_irq, j);
		if (kick(c)) {
			err = st_fail("CPU %u never ran the handler", i);
			break;
		}
		for_each_cpu(o, j)
			if ((j == i) != (irq_count_cpu((unsigned)st_irq, j) != counts[j]))
				err = st_fail("sent to CPU %u: CPU %u's count went %u -> %u", i, j,
					      counts[j], irq_count_cpu((unsigned)st_irq, j));
		if (err)
			break;
	}
	free_irq((unsigned)st_irq, &st_irq);
	if (!err)
		kprintf("irq: %u CPUs each took the test vector and counted it as theirs\n",
			num_online_cpus());
	return err;
}

static int test_affinity(void)
{
	struct cpu *c;
	u32 i;

	if (st_vectors())
		return -1;
	for_each_cpu(c, i) {
		if (!irq_cpu_online(i))
			continue;
		ST_EQ(irq_set_affinity((unsigned)st_irq, i), 0);
		ST_EQ(st_chip_cpu, i);
		ST_EQ(irq_get_affinity((unsigned)st_irq), i);
	}
	ST_EQ(irq_set_affinity((unsigned)st_irq, NR_CPUS), -EINVAL);
	if (nr_cpu_ids < NR_CPUS)
		ST_EQ(irq_set_affinity((unsigned)st_irq, nr_cpu_ids), -EINVAL);
	ST_EQ(irq_set_affinity((unsigned)st_irq_each, 0), -EOPNOTSUPP);
	ST_EQ(irq_get_affinity((unsigned)st_irq_each), IRQ_CPU_EACH);
	ST_EQ(irq_set_affinity(NR_IRQS, 0), -EINVAL);
	ST_EQ(irq_set_affinity((unsigned)st_irq, 0), 0);
	return 0;
}

static int test_free_waits(void)
{
	u64 deadline;
	struct cpu *c;
	u32 i;

	if (st_vectors())
		return -1;
	for_each_cpu(c, i)
		if (i && irq_cpu_online(i))
			break;
	if (!c || !i || i >= NR_CPUS || !irq_cpu_online(i)) {
		kprintf("irq: one CPU: free_irq has nobody to wait for\n");
		return 0;
	}
	st_in = st_out = 0;
	st_hold = true;
	ST_EQ(request_irq((unsigned)st_irq, st_handler, &st_irq, "selftest"), 0);
	ST_EQ(lapic_send_ipi(c->c_apic_id, LAPIC_ICR_DM_FIXED | (IRQ_VECTOR_BASE + st_irq)), 0);
	deadline = ktime_ms() + IRQ_ST_WAIT_MS;
	while (!st_in && ktime_ms() < deadline)
		cpu_relax();
	free_irq((unsigned)st_irq, &st_irq);
	st_hold = false;
	ST_ASSERT(st_in);
	if (!st_out)
		return st_fail("free_irq returned while CPU %u was still in the handler", i);
	kprintf("irq: free_irq waited for the handler running on CPU %u\n", i);
	return 0;
}

SELFTEST("kernel/irq/per_cpu_count", test_per_cpu_count);
SELFTEST("kernel/irq/affinity", test_affinity);
SELFTEST("kernel/irq/free_waits", test_free_waits);
