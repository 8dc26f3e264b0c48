/*
 * Self-tests of mappings seen by several CPUs (selftest=kernel/smp/tlb*):
 * a vmalloc address freed and handed out again reads through the new
 * mapping on every CPU, which fails if any CPU kept the old translation
 * (no shootdown); and every CPU kmap_atomic()s its own highmem page at
 * once, which fails if two CPUs share a slot.  With one CPU they check
 * what there is to check.
 */
#include "kernel/mm/highmem.h"
#include "kernel/mm/mm_internal.h"
#include "kernel/mm/vmap.h"
#include "kernel/console.h"
#include "kernel/selftest.h"
#include "kernel/smp.h"
#include "lib/string.h"

#define TLB_ST_ROUNDS	200	/* kmap_atomic rounds per CPU */

struct tlb_probe {
	const volatile u32	*tp_addr;	/* what every CPU reads */
	u32			tp_seen[NR_CPUS];
};

static void tlb_probe_read(void *data)
{
	struct tlb_probe *p = data;

	p->tp_seen[smp_processor_id()] = *p->tp_addr;
}

/* Every online CPU reads *addr; the number of CPUs that did not see want. */
static u32 tlb_probe_all(struct tlb_probe *p, const void *addr, u32 want)
{
	struct cpu *c;
	u32 i, wrong = 0;

	p->tp_addr = addr;
	memset(p->tp_seen, 0, sizeof(p->tp_seen));
	if (smp_call_function(tlb_probe_read, p))
		return NR_CPUS;
	tlb_probe_read(p);
	for_each_cpu(c, i)
		if (READ_ONCE(c->c_state) == CPU_ONLINE && p->tp_seen[i] != want)
			wrong++;
	return wrong;
}

static int test_tlb_vfree(void)
{
	static struct tlb_probe probe;
	u32 *old, *new = NULL, wrong;
	struct page *hold;
	int err = 0;

	old = vmalloc(PAGE_SIZE);
	if (!old)
		return st_fail("no vmalloc page");
	old[0] = 0x01d01d01;
	wrong = tlb_probe_all(&probe, old, 0x01d01d01);
	if (wrong) {
		vfree(old);
		return st_fail("%u CPUs misread a fresh mapping", wrong);
	}
	vfree(old);
	/*
	 * Take the freed frame away first (as vmalloc asks for frames), so
	 * that the new mapping gets another one: a CPU still translating the
	 * old address then reads the held frame instead of the new words.
	 */
	hold = alloc_page(GFP_HIGHUSER);
	new = vmalloc(PAGE_SIZE);
	if (!hold || !new) {
		err = st_fail("out of memory");
		goto out;
	}
	new[0] = 0x0e0e0e0e;
	wrong = tlb_probe_all(&probe, new, 0x0e0e0e0e);
	if (wrong)
		err = st_fail("%u CPUs read the new mapping at %p through a stale TLB entry",
			      wrong, new);
	else
		kprintf("tlb: %u CPUs read %p through its new mapping (%s the old address)\n",
			num_online_cpus(), new, new == old ? "reusing" : "not reusing");
out:
	vfree(new);
	if (hold)
		__free_page(hold);
	return err;
}
SELFTEST("kernel/smp/tlb_vfree", test_tlb_vfree);

struct km_torture {
	struct page	*kt_page[NR_CPUS];
	u32		kt_bad[NR_CPUS];
};

/* Write this CPU's number over its page through kmap_atomic, read it back. */
static void km_torture_run(void *data)
{
	struct km_torture *t = data;
	u32 me = smp_processor_id(), n, i;

	for (n = 0; n < TLB_ST_ROUNDS; n++) {
		u32 *va = kmap_atomic(t->kt_page[me]);

		for (i = 0; i < PAGE_SIZE / 4; i += 64)
			va[i] = me << 16 | n;
		for (i = 0; i < PAGE_SIZE / 4; i += 64)
			if (va[i] != (me << 16 | n))
				t->kt_bad[me]++;
		kunmap_atomic(va);
	}
}

static int test_kmap_atomic_per_cpu(void)
{
	static struct km_torture t;
	struct cpu *c;
	u32 i, cpus = 0;
	int err = 0, e1;

	memset(&t, 0, sizeof(t));
	for_each_cpu(c, i) {
		if (READ_ONCE(c->c_state) != CPU_ONLINE)
			continue;
		t.kt_page[i] = alloc_page(GFP_HIGHUSER | __GFP_NOWARN);
		if (!t.kt_page[i] || !PageHighMem(t.kt_page[i])) {
			kprintf("kernel/smp/kmap_atomic: no highmem page; not run\n");
			goto free;
		}
		cpus++;
	}
	e1 = smp_call_start(km_torture_run, &t);
	km_torture_run(&t);
	if (smp_call_finish() || e1) {
		err = st_fail("the other CPUs did not all run");
		goto free;
	}
	for (i = 0; i < NR_CPUS; i++)
		if (t.kt_bad[i])
			err = st_fail("CPU %u read another CPU's words %u times", i, t.kt_bad[i]);
	if (!err)
		kprintf("kmap_atomic: %u CPUs, %u rounds each, every one in its own slots\n",
			cpus, TLB_ST_ROUNDS);
free:
	for (i = 0; i < NR_CPUS; i++)
		if (t.kt_page[i])
			__free_page(t.kt_page[i]);
	return err;
}
SELFTEST("kernel/smp/kmap_atomic", test_kmap_atomic_per_cpu);
