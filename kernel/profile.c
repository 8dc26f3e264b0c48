/*
 * The sampling profiler behind `profile CMD [ARG...]` (kernel/profile.h).
 *
 * The tick handler stores the interrupted EIP in a preallocated array: no
 * locks and no lookups in interrupt context.  The command (profile_cmds.c)
 * turns sampling on, runs CMD through the shell and turns it off; the
 * report then sorts the samples by address so that each function's
 * samples are adjacent, counts them per symbol, and prints the functions
 * by count.  At HZ ticks per second the
 * resolution is one millisecond; a run of a few seconds gives thousands of
 * samples, enough to see where the time goes.
 *
 * A tick that interrupted the idle halt (sti; hlt) returns to the byte
 * after the HLT opcode (0xf4); such samples count as idle: the CPU waited
 * for a device.  (An instruction that merely ends in an 0xf4 byte would be
 * miscounted too; rare enough for a profile.)  A tick that lands in the
 * spin before the halt (kernel/idle.c) counts as idle too, apart.
 *
 * Ticks cannot interrupt code that runs with interrupts off: one that
 * falls due there is taken when they come back on, so the time of an
 * interrupts-off section is charged to the function that ends it (the
 * lock helpers are inline for that reason), and the time of an interrupt
 * handler to the code it interrupted.
 */
#include "kernel/profile.h"
#include "kernel/bootinfo.h"
#include "kernel/compiler.h"
#include "kernel/errno.h"
#include "kernel/idle.h"
#include "kernel/ksyms.h"
#include "kernel/console.h"
#include "kernel/time.h"
#include "kernel/mm/vmap.h"
#include "lib/sort.h"
#include "lib/string.h"

#define PROFILE_MAX_SAMPLES	(64 * 1024)	/* a minute at HZ=1000 */
#define PROFILE_TOP		25
#define PROFILE_IDLE		0u	/* the sample pc for "halted" */
#define PROFILE_POLL		1u	/* the sample pc for "polling before the halt" */
#define OPCODE_HLT		0xf4

/* Written by the tick (interrupts off) while prof_on; read after it is off. */
static u32 *prof_buf;
static u32 prof_n, prof_lost;
static u64 prof_t0;			/* ktime_ns() at profile_start */
static volatile bool prof_on;

static bool in_text(u32 pc)
{
	return pc > (u32)_text && pc <= (u32)_etext;
}

void profile_tick(u32 pc)
{
	if (!prof_on)
		return;
	if (prof_n == PROFILE_MAX_SAMPLES) {
		prof_lost++;
		return;
	}
	if (in_text(pc) && *(const u8 *)(pc - 1) == OPCODE_HLT)
		pc = PROFILE_IDLE;
	else if (idle_polling())
		pc = PROFILE_POLL;
	prof_buf[prof_n++] = pc;
}

struct prof_fn {
	const char	*name;		/* NULL: outside the symbol table */
	u32		count;
};

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static int cmp_count_desc(const void *a, const void *b)
{
	const struct prof_fn *x = a, *y = b;

	return x->count > y->count ? -1 : x->count < y->count;
}

/* Group the sorted samples by function into fns; returns how many. */
static u32 group_by_function(const u32 *pc, u32 n, struct prof_fn *fns)
{
	u32 i, off, nfns = 0;

	for (i = 0; i < n; i++) {
		const char *name = pc[i] == PROFILE_IDLE ? "(idle: halted)"
				 : pc[i] == PROFILE_POLL ? "(idle: polling)"
				 : ksym_lookup(pc[i], &off);

		if (nfns && fns[nfns - 1].name == name)
			fns[nfns - 1].count++;
		else
			fns[nfns++] = (struct prof_fn){ name, 1 };
	}
	return nfns;
}

/* Print the busiest functions among the first n samples. */
static void report(u32 n, u64 ns)
{
	struct prof_fn *fns;
	u32 i, nfns;

	kprintf("profile: %u samples in %llu ms%s\n", n, ns / NSEC_PER_MSEC,
		prof_lost ? " (buffer full, later samples lost)" : "");
	if (n == 0)
		return;
	sort(prof_buf, n, sizeof(*prof_buf), cmp_u32);
	fns = vmalloc(n * sizeof(*fns));
	if (!fns) {
		kprintf("profile: no memory to group the samples\n");
		return;
	}
	nfns = group_by_function(prof_buf, n, fns);
	sort(fns, nfns, sizeof(*fns), cmp_count_desc);
	kprintf("  %%time  samples  function\n");
	for (i = 0; i < nfns && i < PROFILE_TOP; i++)
		kprintf("  %3u.%u  %7u  %s\n", fns[i].count * 100 / n,
			fns[i].count * 1000 / n % 10, fns[i].count,
			fns[i].name ? fns[i].name : "?");
	vfree(fns);
}

int profile_start(void)
{
	prof_buf = vmalloc(PROFILE_MAX_SAMPLES * sizeof(*prof_buf));
	if (!prof_buf)
		return -ENOMEM;
	prof_n = prof_lost = 0;
	prof_t0 = ktime_ns();
	prof_on = true;
	return 0;
}

void profile_stop(void)
{
	prof_on = false;
	report(prof_n, ktime_ns() - prof_t0);
	vfree(prof_buf);
	prof_buf = NULL;
}
