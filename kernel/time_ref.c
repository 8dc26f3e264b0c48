/*
 * Reference clocks for calibrating the TSC when the 8254 PIT cannot be
 * used: recent chipsets may gate it, and with `nopit' we do not touch it.
 * Both are found through ACPI:
 *
 *   ACPI PM timer  FADT PM_TMR_BLK (ACPI 6.5 5.2.9, table 5.9; 4.8.3.3):
 *                  an I/O port counting at 3.579545 MHz, 24 bits wide
 *                  unless FADT flag TMR_VAL_EXT says 32.
 *   HPET           the "HPET" table's base address (IA-PC HPET spec 1.0a,
 *                  3.2.4): a memory-mapped 64-bit up-counter (main counter,
 *                  2.3.4 at F0h) whose period in femtoseconds is the top
 *                  half of the capabilities register (2.3.4 at 0h).
 *
 * time_ref_calibrate_khz() measures the TSC against one of them as
 * kernel/time.c does against the PIT: the median of CALIBRATE_RUNS windows
 * of CALIBRATE_MS, a window thrown away when the reads bracketing its ends
 * took more than 1% of it (a descheduled emulator).  Not in interrupt
 * context (tables are read and mapped on first use).
 */
#include "kernel/time.h"
#include "kernel/acpi.h"
#include "kernel/cpu.h"
#include "kernel/errno.h"
#include "kernel/io.h"
#include "kernel/printk.h"
#include "kernel/console.h"
#include "kernel/selftest.h"
#include "kernel/mm/slab.h"
#include "kernel/mm/vmap.h"
#include "lib/byteorder.h"

#define PMTMR_HZ		3579545	/* ACPI 6.5 4.8.3.3 */
#define FADT_PM_TMR_BLK		76	/* u32 I/O port */
#define FADT_PM_TMR_LEN		91	/* u8, 4 when there is a PM timer */
#define FADT_FLAGS		112
#define  FADT_TMR_VAL_EXT	(1u << 8)	/* the counter is 32 bits, else 24 */
#define HPET_TBL_BASE_ADDR	40	/* Generic Address Structure (ACPI 5.2.3.2) */
#define  GAS_SPACE_MEM		0
#define HPET_REG_CAP		0x000	/* bits 63:32: counter period, fs */
#define HPET_REG_CONFIG		0x010
#define  HPET_CONFIG_ENABLE	(1u << 0)
#define HPET_REG_COUNTER	0x0f0
#define HPET_MMIO_LEN		0x400
#define HPET_MAX_PERIOD_FS	100000000u	/* HPET 1.0a 2.3.4: at most 100 ns */
#define FS_PER_SEC		1000000000000000ULL

#define CALIBRATE_MS		10
#define CALIBRATE_RUNS		5
#define CALIBRATE_TRIES		25
#define CALIBRATE_SLACK		100	/* window ends known to 1% of it */
#define CALIBRATE_BOUND		50	/* give up after 50x the window in TSC ticks */

struct time_ref {
	const char	*tr_name;
	u64		tr_hz;
	u32		tr_mask;	/* counter width */
	u16		tr_port;	/* PM timer */
	volatile u8	*tr_mmio;	/* HPET */
};

static struct time_ref pmtmr = { .tr_name = "ACPI PM timer" };
static struct time_ref hpet = { .tr_name = "HPET" };
static bool refs_probed;

static u32 ref_read(const struct time_ref *r)
{
	if (r->tr_mmio)
		return *(volatile u32 *)(r->tr_mmio + HPET_REG_COUNTER);
	return inl(r->tr_port) & r->tr_mask;
}

static void probe_pmtmr(void)
{
	u8 *fadt;
	u32 len, port;

	fadt = acpi_table("FACP", &len);
	if (IS_ERR(fadt))
		return;
	if (len >= FADT_FLAGS + 4 && fadt[FADT_PM_TMR_LEN] == 4) {
		port = get_le32(fadt + FADT_PM_TMR_BLK);
		if (port && port < 0x10000) {
			pmtmr.tr_port = (u16)port;
			pmtmr.tr_hz = PMTMR_HZ;
			pmtmr.tr_mask = get_le32(fadt + FADT_FLAGS) & FADT_TMR_VAL_EXT ?
					0xffffffffu : 0x00ffffffu;
		}
	}
	kfree(fadt);
}

static void probe_hpet(void)
{
	u8 *t;
	u32 len, period;
	u64 base;
	volatile u8 *mmio;

	t = acpi_table("HPET", &len);
	if (IS_ERR(t))
		return;

	if (len < HPET_TBL_BASE_ADDR + 12 || t[HPET_TBL_BASE_ADDR] != GAS_SPACE_MEM)
		goto out;
	base = get_le32(t + HPET_TBL_BASE_ADDR + 4) |
	       (u64)get_le32(t + HPET_TBL_BASE_ADDR + 8) << 32;
	mmio = ioremap(base, HPET_MMIO_LEN);
	if (!mmio)
		goto out;
	period = *(volatile u32 *)(mmio + HPET_REG_CAP + 4);
	if (!period || period > HPET_MAX_PERIOD_FS) {
		iounmap((void *)mmio);
		goto out;
	}
	/* The counter runs only while enabled; legacy routing stays as it is. */
	*(volatile u32 *)(mmio + HPET_REG_CONFIG) |= HPET_CONFIG_ENABLE;
	hpet.tr_mmio = mmio;
	hpet.tr_hz = FS_PER_SEC / period;
	hpet.tr_mask = 0xffffffffu;	/* its low half: wraps after minutes at most */
out:
	kfree(t);
}

static void probe_refs(void)
{
	if (refs_probed)
		return;
	refs_probed = true;
	probe_pmtmr();
	probe_hpet();
}

/* TSC kHz over one window against r, or 0 when the window cannot be trusted. */
static u32 calibrate_once(const struct time_ref *r)
{
	u32 want = (u32)(r->tr_hz * CALIBRATE_MS / 1000), c0, c1, d;
	u64 s, t0, prev, t1, bound;

	s = rdtsc();
	c0 = ref_read(r);
	t0 = prev = rdtsc();
	bound = t0 + (u64)CALIBRATE_BOUND * CALIBRATE_MS * 4000000;	/* 4 GHz worth */
	for (;;) {
		c1 = ref_read(r);
		t1 = rdtsc();
		d = (c1 - c0) & r->tr_mask;
		if (d >= want)
			break;
		if (t1 > bound)
			return 0;
		prev = t1;
	}
	/* The end was seen between prev and t1; the start between s and t0. */
	if (((t0 - s) + (t1 - prev)) * CALIBRATE_SLACK > t1 - t0)
		return 0;
	return (u32)((t1 - t0) * r->tr_hz / d / 1000);
}

static u32 calibrate_median(const struct time_ref *r)
{
	u32 v[CALIBRATE_RUNS], t;
	int i, j, n = 0;

	for (i = 0; i < CALIBRATE_TRIES && n < CALIBRATE_RUNS; i++) {
		t = calibrate_once(r);
		if (!t)
			continue;
		for (j = n++; j > 0 && v[j - 1] > t; j--)
			v[j] = v[j - 1];
		v[j] = t;
	}
	return n ? v[n / 2] : 0;
}

/**
 * time_ref_calibrate_khz - measure the TSC against an ACPI reference clock
 * @which: TIME_REF_ANY (the PM timer, else the HPET), TIME_REF_PMTMR or
 *	   TIME_REF_HPET
 * @name: set to the clock used
 *
 * Returns the TSC's rate in kHz, 0 when the clock is absent or no window
 * could be trusted.
 */
u32 time_ref_calibrate_khz(int which, const char **name)
{
	u32 khz = 0;

	probe_refs();
	if (which != TIME_REF_HPET && pmtmr.tr_hz) {
		*name = pmtmr.tr_name;
		khz = calibrate_median(&pmtmr);
	}
	if (!khz && which != TIME_REF_PMTMR && hpet.tr_hz) {
		*name = hpet.tr_name;
		khz = calibrate_median(&hpet);
	}
	return khz;
}

/*
 * Each ACPI clock the machine has against the PIT (channel 2, which
 * `nopit' leaves alone for this test only): the TSC rates measured
 * through them agree within 1%.  A loaded host can disturb one
 * measurement, so a disagreement is measured again, up to
 * AGREE_TRIES times.
 */
#define AGREE_PERMILLE	10	/* 1% */
#define AGREE_TRIES	3

static int test_ref_vs_pit(int which)
{
	const char *name = "?";
	u32 pit = 0, ref = 0, diff = 0;
	int i;

	if (!time_pit_counts()) {
		kprintf("time: the PIT does not count here; nothing to compare\n");
		return 0;
	}
	for (i = 0; i < AGREE_TRIES; i++) {
		pit = tsc_calibrate_khz();
		ref = time_ref_calibrate_khz(which, &name);
		if (!ref || !pit)
			break;
		diff = pit > ref ? pit - ref : ref - pit;
		if ((u64)diff * 1000 <= (u64)pit * AGREE_PERMILLE)
			break;
	}
	if (!ref) {
		kprintf("time: no %s here; nothing to compare\n",
			which == TIME_REF_HPET ? "HPET" : "ACPI PM timer");
		return 0;
	}
	if (!pit) {
		kprintf("time: no PIT window could be trusted (a busy host); nothing to compare\n");
		return 0;
	}
	kprintf("time: TSC %u kHz against the PIT, %u kHz against the %s (%u.%u%% apart)\n",
		pit, ref, name, diff * 100 / pit, diff * 1000 / pit % 10);
	ST_ASSERT((u64)diff * 1000 <= (u64)pit * AGREE_PERMILLE);
	return 0;
}

static int test_pmtmr_vs_pit(void)
{
	return test_ref_vs_pit(TIME_REF_PMTMR);
}
SELFTEST("kernel/time/pmtmr_vs_pit", test_pmtmr_vs_pit);

static int test_hpet_vs_pit(void)
{
	return test_ref_vs_pit(TIME_REF_HPET);
}
SELFTEST("kernel/time/hpet_vs_pit", test_hpet_vs_pit);
