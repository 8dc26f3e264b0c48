/*
 * Running a function on the other CPUs: an inter-processor interrupt
 * (SDM 3A 11.6) on one vector, whose handler runs the call the sender
 * posted; and waking a CPU from its idle halt, on another.  One call is in flight at a time (call_lock, held from
 * smp_call_start to smp_call_finish); the sender waits, bounded, until
 * every target has picked it up, may do its own share, then waits until
 * every target has finished.  Targets run the function in interrupt
 * context with interrupts off: it must not sleep.
 *
 * The sender must have interrupts on and hold no spinlock a target's
 * function may take: two CPUs calling each other at once each wait for
 * call_lock with interrupts on, so each still answers the other's IPI.
 */
#include "kernel/apic.h"
#include "kernel/apicreg.h"
#include "kernel/cpu.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/irq.h"
#include "kernel/irqchip.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"

#define CALL_WAIT_MS	2000	/* a target that takes longer is reported stuck */

/* Lock legend: [l] call_lock, [a] atomic. */
struct smp_call {
	void		(*sc_fn)(void *data);	/* [l] */
	void		*sc_data;		/* [l] */
	u32		sc_seq;			/* [l] this call's number */
	u32		sc_targets;		/* [l] CPUs sent the IPI */
	u32		sc_started;		/* [a] targets that took the call */
	u32		sc_finished;		/* [a] targets that returned from sc_fn */
};

static DEFINE_SPINLOCK(call_lock);
static struct smp_call call_slot;	/* the one call in flight */
static struct smp_call *call_posted;	/* [a] &call_slot while targets may take it */
static u8 call_vector;			/* [I] 0 until set up */
static u8 wake_vector;			/* [I] cpu_wake()'s; 0 until set up */

static void call_nop(unsigned irq) { }
static void call_eoi(unsigned irq) { lapic_eoi(); }

static const struct irq_chip call_chip = {
	.name = "ipi",
	.mask = call_nop,
	.unmask = call_nop,
	.eoi = call_eoi,
};

static irqreturn_t call_interrupt(unsigned irq, void *unused)
{
	struct smp_call *sc = __atomic_load_n(&call_posted, __ATOMIC_ACQUIRE);

	struct cpu *me = this_cpu();

	/* Withdrawn, or this CPU ran it already (a late duplicate IPI). */
	if (!sc || me->c_call_seq == sc->sc_seq)
		return IRQ_HANDLED;
	me->c_call_seq = sc->sc_seq;
	__atomic_add_fetch(&sc->sc_started, 1, __ATOMIC_ACQ_REL);
	sc->sc_fn(sc->sc_data);
	__atomic_add_fetch(&sc->sc_finished, 1, __ATOMIC_RELEASE);
	return IRQ_HANDLED;
}

/* The wake-up IPI does nothing: taking it ends the target's HLT. */
static irqreturn_t wake_interrupt(unsigned irq, void *unused)
{
	return IRQ_HANDLED;
}

/* An IPI vector whose handler is fn; 0 if none is left. */
static u8 ipi_vector(irq_handler_t fn, const char *name)
{
	int irq = irq_alloc_on(&call_chip, IRQ_CPU_EACH);

	if (irq < 0 || request_irq((unsigned)irq, fn, NULL, name))
		return 0;
	return (u8)(IRQ_VECTOR_BASE + irq);
}

static int smp_call_setup(void)
{
	call_vector = ipi_vector(call_interrupt, "ipi-call");
	wake_vector = ipi_vector(wake_interrupt, "ipi-wake");
	return call_vector && wake_vector ? 0 : -ENOSPC;
}
arch_initcall(smp_call_setup);

/**
 * cpu_wake - make CPU c look again at what it waits on
 * Counts a wake-up in c's c_wake_seq, then interrupts c if it is halted
 * (kernel/idle.c says why neither side can miss the other).  Call after
 * changing what c waits on; safe from any context.  Waking this CPU counts
 * too, without the interrupt: an interrupt handler here may end what the
 * interrupted code has just found unfinished, with interrupts on, on its
 * way to idle_halt(); the count sends it back to look.
 */
void cpu_wake(struct cpu *c)
{
	__atomic_add_fetch(&c->c_wake_seq, 1, __ATOMIC_SEQ_CST);
	if (c != this_cpu() && wake_vector &&
	    __atomic_load_n(&c->c_idle, __ATOMIC_SEQ_CST) == CPU_HALTED)
		lapic_send_ipi(c->c_apic_id, LAPIC_ICR_DM_FIXED | wake_vector);
}

/* Wait until *count reaches want; false after CALL_WAIT_MS. */
static bool call_wait(const u32 *count, u32 want)
{
	u64 deadline = ktime_ms() + CALL_WAIT_MS;

	while (__atomic_load_n(count, __ATOMIC_ACQUIRE) < want) {
		if (ktime_ms() > deadline)
			return false;
		cpu_relax();
	}
	return true;
}

/**
 * smp_call_start - start fn(data) on every other online CPU, and return
 * @fn: runs in interrupt context on each target, interrupts off
 * @data: its argument, alive until smp_call_finish() returns
 *
 * Returns once every target has taken the call, so that the caller can do
 * its own share meanwhile; smp_call_finish() must follow, always.
 * 0, -ETIMEDOUT (a target did not take it in time), -EINVAL with
 * interrupts off.  With one CPU online, does nothing.
 */
int smp_call_start(void (*fn)(void *data), void *data)
{
	struct smp_call *sc = &call_slot;
	struct cpu *me = this_cpu(), *c;
	u32 i;

	if (!(read_eflags() & X86_EFLAGS_IF))
		return -EINVAL;
	spin_lock(&call_lock);
	sc->sc_fn = fn;
	sc->sc_data = data;
	sc->sc_seq++;
	sc->sc_targets = 0;
	sc->sc_started = sc->sc_finished = 0;
	if (!call_vector)
		return 0;
	__atomic_store_n(&call_posted, sc, __ATOMIC_RELEASE);
	for_each_cpu(c, i) {
		if (c == me || READ_ONCE(c->c_state) != CPU_ONLINE)
			continue;
		if (lapic_send_ipi(c->c_apic_id, LAPIC_ICR_DM_FIXED | call_vector))
			pr_warn("smp: IPI to CPU %u not delivered\n", c->c_id);
		sc->sc_targets++;
	}
	if (call_wait(&sc->sc_started, sc->sc_targets))
		return 0;
	pr_err("smp: %u of %u CPUs took a call in %u ms\n", sc->sc_started, sc->sc_targets,
	       CALL_WAIT_MS);
	return -ETIMEDOUT;
}

/**
 * smp_call_finish - wait until every CPU that took the call has finished it
 *
 * The call is withdrawn first: a target that had not taken it yet does
 * nothing when its IPI arrives.  0, or -ETIMEDOUT if a target is still in
 * the function after CALL_WAIT_MS (it is then waited for without bound:
 * the call's data must outlive it).
 */
int smp_call_finish(void)
{
	struct smp_call *sc = &call_slot;
	int ret = 0;

	__atomic_store_n(&call_posted, NULL, __ATOMIC_RELEASE);
	if (!call_wait(&sc->sc_finished, __atomic_load_n(&sc->sc_started, __ATOMIC_ACQUIRE))) {
		pr_err("smp: a CPU is still in a call after %u ms; waiting\n", CALL_WAIT_MS);
		while (__atomic_load_n(&sc->sc_finished, __ATOMIC_ACQUIRE) <
		       __atomic_load_n(&sc->sc_started, __ATOMIC_ACQUIRE))
			cpu_relax();
		ret = -ETIMEDOUT;
	}
	spin_unlock(&call_lock);
	return ret;
}

/* Run fn(data) on every other online CPU and wait until all have finished. */
int smp_call_function(void (*fn)(void *data), void *data)
{
	int err = smp_call_start(fn, data);
	int err2 = smp_call_finish();

	return err ? err : err2;
}
