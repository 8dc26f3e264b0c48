/*
 * Host fake of kernel/completion.h, kernel/timer.h, kernel/work.h and
 * in_interrupt(): a single-threaded world driven by the test (see
 * sched_fake.h).  Timers fire in expiry order when the fake clock passes
 * them; the clock is host_now_ns from the shared shim.
 */
#include "kernel/completion.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "kernel/timer.h"
#include "kernel/work.h"
#include "tests/unit/fakes/sched_fake.h"
#include "tests/unit/host/shim.h"

bool host_in_interrupt;
void (*host_idle_hook)(void);
long host_idle_calls;

static LIST_HEAD(timers);
static LIST_HEAD(works);

bool in_interrupt(void) { return host_in_interrupt; }

void timer_setup(struct timer_list *t, void (*fn)(struct timer_list *))
{
	INIT_LIST_HEAD(&t->t_entry);
	t->t_fn = fn;
	t->t_pending = false;
	t->t_expires = 0;
}

void mod_timer(struct timer_list *t, u64 expires)
{
	if (t->t_pending)
		list_del_init(&t->t_entry);
	t->t_expires = expires;
	t->t_pending = true;
	list_add_tail(&t->t_entry, &timers);
}

bool del_timer(struct timer_list *t)
{
	bool was = t->t_pending;

	if (was)
		list_del_init(&t->t_entry);
	t->t_pending = false;
	return was;
}

bool timer_pending(const struct timer_list *t) { return t->t_pending; }

int host_run_timers(void)
{
	struct timer_list *t, *due;
	int n = 0;

	for (;;) {
		due = NULL;
		list_for_each_entry(t, &timers, t_entry)
			if (t->t_expires <= get_jiffies_64() && (!due || t->t_expires < due->t_expires))
				due = t;
		if (!due)
			return n;
		list_del_init(&due->t_entry);
		due->t_pending = false;
		host_in_interrupt = true;
		due->t_fn(due);
		host_in_interrupt = false;
		n++;
	}
}

void host_advance_ns(u64 ns)
{
	host_now_ns += ns;
	host_run_timers();
}

void schedule_work(struct work *w)
{
	if (w->w_queued)
		return;
	w->w_queued = true;
	list_add_tail(&w->w_entry, &works);
}

int run_deferred_work(void)
{
	struct work *w;
	int n = 0;

	while (!list_empty(&works)) {
		w = list_first_entry(&works, struct work, w_entry);
		list_del_init(&w->w_entry);
		w->w_queued = false;
		w->w_fn(w);
		n++;
	}
	return n;
}

static void (*wait_prepare)(void);

void wait_prepare_register(void (*fn)(void))
{
	wait_prepare = fn;
}

void cpu_idle_once(void)
{
	host_idle_calls++;
	if (wait_prepare)
		wait_prepare();
	run_deferred_work();
	if (host_idle_hook)
		host_idle_hook();
	else
		host_advance_ns(NSEC_PER_MSEC);
}

void complete(struct completion *c) { c->c_state = 1; }

void wait_for_completion(struct completion *c)
{
	long spins = 0;

	while (!completion_done(c)) {
		if (++spins > HOST_WAIT_SPINS)
			panic("sched_fake: wait_for_completion never completes");
		cpu_idle_once();
	}
}

int wait_for_completion_timeout(struct completion *c, u32 timeout_ms)
{
	u64 end = ktime_ms() + timeout_ms;

	while (!completion_done(c)) {
		if (ktime_ms() >= end)
			return -ETIMEDOUT;
		cpu_idle_once();
	}
	return 0;
}
