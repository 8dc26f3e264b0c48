/*
 * The CMOS real-time clock (MC146818-compatible): the wall clock at boot.
 * A read waits out an update in progress (bounded), then reads until two
 * passes agree, and decodes BCD and 12-hour formats as status register B
 * says.  The PC convention is UTC in the RTC.
 */
#include "kernel/time.h"
#include "kernel/io.h"
#include "kernel/spinlock.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/printk.h"

#define CMOS_INDEX	0x70
#define CMOS_DATA	0x71
#define  CMOS_NMI_OFF	0x80
#define RTC_SECONDS	0x00
#define RTC_MINUTES	0x02
#define RTC_HOURS	0x04
#define  RTC_HOURS_PM	0x80
#define RTC_MDAY	0x07
#define RTC_MONTH	0x08
#define RTC_YEAR	0x09
#define RTC_STATUS_A	0x0A
#define  RTC_UIP	0x80	/* update in progress */
#define RTC_STATUS_B	0x0B
#define  RTC_24H	0x02
#define  RTC_BINARY	0x04
#define RTC_CENTURY	0x32	/* not universal; 20xx assumed when it is bad */

#define RTC_UIP_WAIT_US	10000	/* an update takes < 2 ms */
#define RTC_READ_TRIES	5

static DEFINE_SPINLOCK(cmos_lock);
static u64 boot_unix, boot_unix_ns;

static u8 cmos_read(u8 reg)
{
	outb(CMOS_INDEX, CMOS_NMI_OFF | reg);
	return inb(CMOS_DATA);
}

static u8 bcd(u8 v) { return (u8)((v & 0x0f) + (v >> 4) * 10); }

static bool rtc_wait_uip(void)
{
	u32 us;

	for (us = 0; us < RTC_UIP_WAIT_US; us += 10) {
		if (!(cmos_read(RTC_STATUS_A) & RTC_UIP))
			return true;
		udelay(10);
	}
	return false;
}

static void rtc_raw(u8 r[7])
{
	r[0] = cmos_read(RTC_SECONDS);
	r[1] = cmos_read(RTC_MINUTES);
	r[2] = cmos_read(RTC_HOURS);
	r[3] = cmos_read(RTC_MDAY);
	r[4] = cmos_read(RTC_MONTH);
	r[5] = cmos_read(RTC_YEAR);
	r[6] = cmos_read(RTC_CENTURY);
}

int rtc_read(struct rtc_time *t)
{
	unsigned long flags;
	u8 a[7], b[7], sb;
	int tries, i, err = -EIO;
	bool pm;

	spin_lock_irqsave(&cmos_lock, flags);
	for (tries = 0; tries < RTC_READ_TRIES; tries++) {
		if (!rtc_wait_uip())
			continue;
		rtc_raw(a);
		if (!rtc_wait_uip())
			continue;
		rtc_raw(b);
		for (i = 0; i < 7 && a[i] == b[i]; i++)
			;
		if (i == 7) {
			err = 0;
			break;
		}
	}
	sb = cmos_read(RTC_STATUS_B);
	spin_unlock_irqrestore(&cmos_lock, flags);
	if (err)
		return err;

	pm = a[2] & RTC_HOURS_PM;
	a[2] &= (u8)~RTC_HOURS_PM;
	if (!(sb & RTC_BINARY))
		for (i = 0; i < 7; i++)
			a[i] = bcd(a[i]);
	if (!(sb & RTC_24H))
		a[2] = (u8)(a[2] % 12 + (pm ? 12 : 0));
	t->sec = a[0];
	t->min = a[1];
	t->hour = a[2];
	t->mday = a[3];
	t->mon = a[4];
	t->year = (u16)((a[6] >= 19 && a[6] <= 30 ? a[6] : 20) * 100 + a[5]);
	if (t->sec > 59 || t->min > 59 || t->hour > 23 || !t->mday || t->mday > 31 ||
	    !t->mon || t->mon > 12)
		return -EIO;
	return 0;
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian; Howard Hinnant's
 * days_from_civil arithmetic, restated). */
static s64 days_from_civil(int y, unsigned m, unsigned d)
{
	int era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return (s64)era * 146097 + (s64)doe - 719468;
}

u64 rtc_time_to_unix(const struct rtc_time *t)
{
	return (u64)(days_from_civil(t->year, t->mon, t->mday) * 86400 +
		     t->hour * 3600 + t->min * 60 + t->sec);
}

u64 wallclock_unix(void)
{
	return boot_unix + (ktime_ns() - boot_unix_ns) / NSEC_PER_SEC;
}

u64 wallclock_unix_ns(void)
{
	return boot_unix * NSEC_PER_SEC + (ktime_ns() - boot_unix_ns);
}

static int rtc_init(void)
{
	struct rtc_time t;
	int err = rtc_read(&t);

	if (err) {
		pr_warn("rtc: the CMOS clock did not give a valid time; wall clock starts at 0\n");
		return err;
	}
	boot_unix = rtc_time_to_unix(&t);
	boot_unix_ns = ktime_ns();
	pr_info("rtc: %04u-%02u-%02u %02u:%02u:%02u UTC\n",
		t.year, t.mon, t.mday, t.hour, t.min, t.sec);
	return 0;
}
core_initcall(rtc_init);

void rtc_time_from_unix(u64 s, struct rtc_time *t)
{
	s64 days = (s64)(s / 86400);
	unsigned sod = (unsigned)(s % 86400);
	/* civil_from_days, the inverse of rtc_time_to_unix's days_from_civil */
	s64 z = days + 719468;
	s64 era = (z >= 0 ? z : z - 146096) / 146097;
	unsigned doe = (unsigned)(z - era * 146097);
	unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	unsigned mp = (5 * doy + 2) / 153;
	unsigned d = doy - (153 * mp + 2) / 5 + 1;
	unsigned m = mp < 10 ? mp + 3 : mp - 9;
	s64 y = (s64)yoe + era * 400 + (m <= 2);

	t->year = (u16)y;
	t->mon = (u8)m;
	t->mday = (u8)d;
	t->hour = (u8)(sod / 3600);
	t->min = (u8)(sod / 60 % 60);
	t->sec = (u8)(sod % 60);
}
