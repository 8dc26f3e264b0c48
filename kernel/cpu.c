/*
 * Identify the boot CPU once, so that feature tests are plain bit tests.
 */
#include "kernel/cpu.h"
#include "kernel/acpi.h"
#include "kernel/init.h"
#include "kernel/printk.h"
#include "lib/string.h"

struct cpu_info boot_cpu;

void cpu_identify(void)
{
	u32 a, b, c, d, max_ext, i;

	cpuid(0, &a, &b, &c, &d);
	memcpy(boot_cpu.vendor + 0, &b, 4);
	memcpy(boot_cpu.vendor + 4, &d, 4);
	memcpy(boot_cpu.vendor + 8, &c, 4);
	boot_cpu.vendor[12] = '\0';
	if (a >= 1) {
		cpuid(1, &a, &b, &c, &d);
		boot_cpu.family = (a >> 8) & 0xf;
		boot_cpu.model = (a >> 4) & 0xf;
		boot_cpu.stepping = a & 0xf;
		if (boot_cpu.family == 0xf)
			boot_cpu.family += (a >> 20) & 0xff;
		if (boot_cpu.family >= 6)
			boot_cpu.model |= ((a >> 16) & 0xf) << 4;
		boot_cpu.features_edx = d;
		boot_cpu.features_ecx = c;
		boot_cpu.hypervisor = c & CPUID1_ECX_HYPERVISOR;
	}
	if (boot_cpu.hypervisor) {
		cpuid(0x40000000, &a, &b, &c, &d);
		memcpy(boot_cpu.hv_vendor + 0, &b, 4);
		memcpy(boot_cpu.hv_vendor + 4, &c, 4);
		memcpy(boot_cpu.hv_vendor + 8, &d, 4);
		boot_cpu.hv_vendor[12] = '\0';
	}
	cpuid(0x80000000, &max_ext, &b, &c, &d);
	if (max_ext >= 0x80000001) {
		cpuid(0x80000001, &a, &b, &c, &d);
		boot_cpu.ext_features_edx = d;
	}
	if (max_ext >= 0x80000004) {
		u32 *w = (u32 *)boot_cpu.brand;

		for (i = 0; i < 3; i++)
			cpuid(0x80000002 + i, &w[i * 4], &w[i * 4 + 1], &w[i * 4 + 2], &w[i * 4 + 3]);
		boot_cpu.brand[48] = '\0';
	}
	pr_info("cpu: %s family %u model %u stepping %u%s%s%s%s%s%s\n", boot_cpu.vendor,
		boot_cpu.family, boot_cpu.model, boot_cpu.stepping,
		boot_cpu.features_edx & CPUID1_EDX_PAE ? " pae" : "",
		cpu_has_nx() ? " nx" : "",
		boot_cpu.hypervisor ? " (hypervisor" : "", boot_cpu.hv_vendor[0] ? " " : "",
		boot_cpu.hv_vendor, boot_cpu.hypervisor ? ")" : "");
}

/*
 * QEMU's translator (TCG, hypervisor vendor "TCGTCGTCGTCG") emits a
 * guest's mfence and lock-prefixed instructions as host fences and
 * atomics only when the machine may have more than one virtual CPU (its
 * CF_PARALLEL translation flag); with one possible CPU they become plain
 * loads and stores.  Its device models run in other host threads all the
 * while, so a store to shared ring memory and a later load can pass each
 * other on the host, and a virtio or NVMe notification is lost: seen as
 * 32 reads stuck for good in 4 of 5 runs at queue depth 32 on virtio-blk,
 * and none with -smp 2.  The MADT's processor entries say how many CPUs
 * the machine may have; without a MADT, assume one.
 */
bool cpu_fences_elided(void)
{
	static int elided = -1;		/* not known yet */
	const struct acpi_madt_info *mi;

	if (elided < 0) {
		mi = acpi_madt();
		elided = !strcmp(boot_cpu.hv_vendor, "TCGTCGTCGTCG") &&
			 (!mi || mi->mi_ncpus + mi->mi_ncpus_disabled <= 1);
	}
	return elided;
}

bool cpu_pause_costly;

/* PAUSE exits to QEMU where fences are elided: one virtual CPU under TCG. */
static int cpu_pause_init(void)
{
	cpu_pause_costly = cpu_fences_elided();
	return 0;
}
arch_initcall(cpu_pause_init);

/*
 * Where fences are elided, INVLPG stands in: QEMU drops the page from the
 * virtual CPU's TLB under the TLB's spinlock (accel/tcg/cputlb.c,
 * tlb_flush_page_by_mmuidx_async_0), and taking that lock is an atomic
 * exchange on the host -- a full fence, in this CPU's own thread, with no
 * exit to the device model and no lock the device model holds.  (A read
 * of a device register would do too, but it waits for QEMU's global lock
 * while the device model works.)  The page is the null page: nothing maps
 * it, and it lies below the kernel's 2 MiB mappings, so QEMU flushes that
 * one entry and not the whole TLB (it does when the page falls within the
 * span of the large pages it has seen).
 */
void device_mb(void)
{
	if (cpu_fences_elided())
		invlpg((const void *)0);
	else
		smp_mb();
}
