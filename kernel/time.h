/*
 * Time.  A periodic tick at HZ counts jiffies; the TSC, calibrated against
 * the PIT at boot (or the ACPI PM timer or HPET when the PIT does not
 * tick or `nopit' is given), gives nanoseconds.  Timers (kernel/timer.h) run from the
 * tick.  The RTC gives the wall clock.
 */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include "kernel/compiler.h"

#define HZ		1000	/* ticks per second */
#define NSEC_PER_SEC	1000000000ULL
#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_USEC	1000ULL

/* False once PIT channel 2 was seen not to count (gated or absent). */
bool time_pit_counts(void);
/* True when the tick is IRQ 0 from the PIT (not nopit, not a dead PIT). */
bool time_tick_is_pit(void);
/* Tick interrupts taken since boot, from whichever timer gives them. */
u64 time_tick_count(void);
/* Ticks since boot; 64-bit, read atomically. */
u64 get_jiffies_64(void);
/* ns / (NSEC_PER_SEC / HZ) by a multiply: never more, less by 0.3 ppb of ns at most. */
u64 ns_to_jiffies(u64 ns);
static inline u64 msecs_to_jiffies(u64 ms) { return ms * HZ / 1000; }
static inline u64 jiffies_to_msecs(u64 j) { return j * 1000 / HZ; }

/* Monotonic nanoseconds since boot (TSC-based; falls back to the tick). */
u64 ktime_ns(void);
static inline u64 ktime_us(void) { return ktime_ns() / NSEC_PER_USEC; }
static inline u64 ktime_ms(void) { return ktime_ns() / NSEC_PER_MSEC; }

/* Busy-wait.  Accurate to the TSC; fine in interrupt context. */
void udelay(u32 us);
void mdelay(u32 ms);

/* TSC kHz as calibrated at boot, 0 if unknown. */
u32 tsc_khz(void);
/* Measure the TSC against PIT channel 2 now (median of three 5 ms runs that
 * agree within 0.1%, else of five);
 * 0 on failure.
 * Interrupts may be on: the PIT's counter, not its interrupt, is the clock. */
u32 tsc_calibrate_khz(void);
/* Boot: calibrate the TSC and start the tick. */
void time_init(void);
/*
 * After the local APIC is up (apic_init): when the PIT does not tick, or
 * `nopit' keeps it off, make the local APIC timer the tick.
 */
void time_start_apic_tick(void);

/* kernel/time_ref.c: the TSC measured against an ACPI clock, kHz (0: none). */
#define TIME_REF_ANY	0	/* the PM timer, else the HPET */
#define TIME_REF_PMTMR	1
#define TIME_REF_HPET	2
u32 time_ref_calibrate_khz(int which, const char **name);

struct rtc_time {
	u16 year;	/* e.g. 2026 */
	u8 mon;		/* 1..12 */
	u8 mday;	/* 1..31 */
	u8 hour, min, sec;
};

/* Read the CMOS clock.  Returns 0 or -EIO when it never settles. */
int rtc_read(struct rtc_time *t);
/* Seconds since 1970 (UTC, as the CMOS clock keeps it on PCs under Linux). */
u64 rtc_time_to_unix(const struct rtc_time *t);
/* The inverse: the civil date and time (UTC) of s seconds since 1970. */
void rtc_time_from_unix(u64 s, struct rtc_time *t);
/* The wall clock now: boot-time RTC plus monotonic time since. */
u64 wallclock_unix(void);
/* The same clock in nanoseconds since 1970 (filesystem timestamps). */
u64 wallclock_unix_ns(void);

#endif
