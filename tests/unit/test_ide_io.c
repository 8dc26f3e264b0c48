/*
 * Host tests of the IDE I/O path (drivers/ide/ide_io.c, ide_eh.c) on the
 * real block core, against the simulated channel of ide_sim.c: bios from every
 * memory range (bounced above 4 GiB for DMA, mapped for PIO), the
 * interrupt handler's register order, PRD tables, LBA28 vs LBA48
 * commands, flushes, device errors, lost interrupts, timeouts with
 * channel resets and bounded retries, a channel that never comes back,
 * and master and slave taking turns on their shared channel; after a
 * reset, revalidation (the mode told again, another disk failed), a
 * slower mode after interface CRC errors, and no busy-wait of more than
 * MAX_LOCKED_SPIN_NS with the channel lock held (interrupts off), in any
 * test (a slow PIO write, a device busy before its command); a busy
 * device waited for, within bounds, without a reset.
 *
 * "Interrupts" are delivered by the idle hook: a waiter halts, and the
 * hook calls ide_intr() when the simulated INTRQ is up, or else lets a
 * millisecond of fake time pass (which runs timers: request timeouts and
 * the reset poll).
 */
#include "tests/unit/unit.h"
#include "tests/unit/blk_testdev.h"
#include "tests/unit/ide_sim.h"
#include "tests/unit/fakes/sched_fake.h"
#include "tests/unit/host/shim.h"
#include "block/genhd.h"
#include "drivers/ata/atareg.h"
#include "kernel/errno.h"
#include "kernel/completion.h"

#include <stdlib.h>

#define DISK_SECTORS	(1ULL << 41)	/* 1 PiB: every LBA48 byte in use */
#define TIMEOUT_MS	1000

static struct ide_sim sim;
static struct ide_softc sc;
static struct ide_channel *ch;
static struct page *prdt_page;
static u32 irq_none;

/* The registry's, reached by the revalidation after a reset (ide_disk.c). */
void set_capacity(struct gendisk *disk, sector_t sectors)
{
	disk->gd_capacity = sectors;
}

/*
 * The driver's busy-waits advance the fake clock.  Those made with the
 * channel lock held (interrupts off, on the real machine) are summed
 * from one idle to the next, and the longest such stretch is kept.
 */
static u64 locked_ns, locked_max_ns;
#define MAX_LOCKED_SPIN_NS	(50 * NSEC_PER_USEC)	/* "a few tens of microseconds" */

static void spin_wait(u64 ns)
{
	host_now_ns += ns;
	if (ch && spin_is_locked(&ch->ch_lock)) {
		locked_ns += ns;
		if (locked_ns > locked_max_ns)
			locked_max_ns = locked_ns;
	}
}

void udelay(u32 us) { spin_wait((u64)us * NSEC_PER_USEC); }
void mdelay(u32 ms) { spin_wait((u64)ms * NSEC_PER_MSEC); }

static void idle_hook(void)
{
	locked_ns = 0;
	if (ide_sim_irq_pending(&sim)) {
		ide_sim_log_irq(&sim);
		host_in_interrupt = true;
		if (ide_intr(IDE_PRI_IRQ, ch) == IRQ_NONE)
			irq_none++;
		host_in_interrupt = false;
		return;
	}
	host_advance_ns(NSEC_PER_MSEC);
}

/* A channel with units drives (1: master, 2: master and slave). */
static void setup(bool dma, unsigned units)
{
	unsigned u;

	bio_init_pools();
	memset(&sc, 0, sizeof(sc));
	strcpy(sc.sc_name, "pciide0");
	ch = &sc.sc_chan[0];
	ch->ch_sc = &sc;
	strcpy(ch->ch_name, "ide0");
	ide_sim_init(&sim, ch);
	spin_lock_init(&ch->ch_lock, "ide_channel");
	timer_setup(&ch->ch_poll_timer, ide_poll_timer_fn);
	work_init(&ch->ch_eh_work, ide_eh_work);
	ch->ch_state = IDE_CH_IDLE;
	ch->ch_selected = 0xff;
	ch->ch_irq = IDE_PRI_IRQ;
	prdt_page = host_alloc_page_in(HOST_MEM_NORMAL);
	ch->ch_prdt = host_page_buf(prdt_page);
	ch->ch_prdt_phys = page_to_phys(prdt_page);
	ch->ch_sg = calloc(IDE_MAX_SG, sizeof(*ch->ch_sg));
	ch->ch_pio_buf = malloc(IDE_PIO_BUF_SIZE);
	for (u = 0; u < units; u++) {
		struct ide_drive *d = &ch->ch_drive[u];

		ide_sim_add_disk(&sim, u, DISK_SECTORS);
		d->dr_chan = ch;
		d->dr_unit = (u8)u;
		d->dr_kind = ATA_DEV_ATA;
		snprintf(d->dr_name, sizeof(d->dr_name), "hd%c", 'a' + u);
		CHECK_EQ(ata_id_parse(sim.s_id[u], &d->dr_id), 0);
		ide_dev_init(d);
		d->dr_ad.ad_xfer = dma ? ata_xfer_active(&d->dr_id) : -1;
		d->dr_lbs = SECTOR_SIZE;
		d->dr_dma = dma;
		d->dr_queue = ide_init_queue(d, TIMEOUT_MS);
		KASSERT(d->dr_queue);
		blk_queue_plugging(d->dr_queue, false);
	}
	ide_devctl(ch, 0);
	irq_none = 0;
	locked_max_ns = 0;
	host_idle_hook = idle_hook;
}

static void teardown(void)
{
	unsigned u;

	/* In no scenario did the driver spin long with interrupts off. */
	CHECK(locked_max_ns <= MAX_LOCKED_SPIN_NS);

	for (u = 0; u < IDE_UNITS; u++)
		if (ch->ch_drive[u].dr_queue)
			blk_cleanup_queue(ch->ch_drive[u].dr_queue);
	del_timer(&ch->ch_poll_timer);
	host_idle_hook = NULL;
	__free_page(prdt_page);
	free(ch->ch_sg);
	free(ch->ch_pio_buf);
	ide_sim_free(&sim);
}

static struct request_queue *queue(unsigned unit)
{
	return ch->ch_drive[unit].dr_queue;
}

/* Submit a stamped write or a read and wait; returns the bio's error. */
static int io(unsigned unit, enum host_mem_range r, bool write, sector_t lba, u32 nr, u32 off,
	      u32 gen, bool *data_ok)
{
	struct bio *b = tbio_alloc(r, write ? REQ_WRITE : 0, lba, nr, off);
	struct tbio_result res = { 0, 0 };
	int err;

	if (write)
		tbio_stamp(b, gen);
	b->bi_private = &res;
	b->bi_end_io = tbio_endio;
	blk_queue_submit_bio(queue(unit), b);
	while (!res.r_calls)
		cpu_idle_once();
	err = res.r_error;
	if (data_ok)
		*data_ok = write || tbio_check(b, lba, gen);
	tbio_free(b);
	return err;
}

struct pending {
	struct bio		*p_bio;
	struct tbio_result	p_res;
};

static const struct ide_sim_cmd *last_cmd(void)
{
	return sim.s_ncmds ? &sim.s_cmds[sim.s_ncmds - 1] : NULL;
}

static void test_dma_every_range(void)
{
	static const enum host_mem_range ranges[] = {
		HOST_MEM_DMA, HOST_MEM_NORMAL, HOST_MEM_HIGH, HOST_MEM_HIGH4G,
	};
	unsigned i;
	bool ok;

	setup(true, 1);
	for (i = 0; i < ARRAY_SIZE(ranges); i++) {
		sector_t lba = 1000 + i * 300;

		CHECK_EQ(io(0, ranges[i], true, lba, 40, (i & 1) * 1024, i + 1, NULL), 0);
		CHECK_EQ(io(0, ranges[(i + 1) % 4], false, lba, 40, 512, i + 1, &ok), 0);
		CHECK(ok);
	}
	CHECK(sim.s_dma_cmds >= 8);
	CHECK_EQ(sim.s_prd_bad, 0);
	CHECK_EQ(sim.s_prd_tables, sim.s_dma_cmds);
	/* Pages above 4 GiB cannot be in a PRD: they were bounced. */
	CHECK(blk_stat_snapshot(queue(0)).st_bounces > 0);
	CHECK_EQ(irq_none, 0);
	teardown();
}

/* SFF-8038i 3.1: BM status, stop the engine, Status, then ack BM. */
static void test_isr_register_order(void)
{
	u32 i, irq_at = 0, bm_status_read = 0, bm_stop = 0, status_read = 0, bm_ack = 0;

	setup(true, 1);
	CHECK_EQ(io(0, HOST_MEM_NORMAL, false, 64, 8, 0, 0, NULL), 0);
	for (i = 0; i < sim.s_nlog; i++)
		if (sim.s_log[i].a_op == 'I')
			irq_at = i;
	CHECK(irq_at > 0);
	for (i = irq_at + 1; i < sim.s_nlog; i++) {
		const struct ide_sim_access *a = &sim.s_log[i];

		if (!bm_status_read && a->a_op == 'r' && a->a_port == IDE_SIM_BM + IDE_BM_STATUS)
			bm_status_read = i;
		if (!bm_stop && a->a_op == 'w' && a->a_port == IDE_SIM_BM + IDE_BM_CMD &&
		    !(a->a_val & IDE_BM_CMD_START))
			bm_stop = i;
		if (!status_read && a->a_op == 'r' && a->a_port == IDE_SIM_CMD + IDE_REG_STATUS)
			status_read = i;
		if (!bm_ack && a->a_op == 'w' && a->a_port == IDE_SIM_BM + IDE_BM_STATUS &&
		    (a->a_val & IDE_BM_STATUS_IRQ))
			bm_ack = i;
	}
	CHECK_EQ(bm_status_read, irq_at + 1);	/* the very first access */
	CHECK(bm_stop > bm_status_read);
	CHECK(status_read > bm_stop);
	CHECK(bm_ack > status_read);
	teardown();
}

static void test_lba28_or_48(void)
{
	const struct ide_sim_cmd *c;

	setup(true, 1);
	CHECK_EQ(io(0, HOST_MEM_NORMAL, true, 100, 8, 0, 1, NULL), 0);
	c = last_cmd();
	CHECK_EQ(c->c_command, ATA_CMD_WRITE_DMA);
	CHECK_EQ(c->c_lba, 100);
	CHECK_EQ(c->c_count, 8);
	/* Ends exactly at 2^28 - 1: still LBA28. */
	CHECK_EQ(io(0, HOST_MEM_NORMAL, false, (1ULL << 28) - 9, 8, 0, 0, NULL), 0);
	CHECK_EQ(last_cmd()->c_command, ATA_CMD_READ_DMA);
	/* Reaches 2^28 - 1: the 28-bit form cannot say that, so EXT. */
	CHECK_EQ(io(0, HOST_MEM_NORMAL, false, (1ULL << 28) - 8, 8, 0, 0, NULL), 0);
	c = last_cmd();
	CHECK_EQ(c->c_command, ATA_CMD_READ_DMA_EXT);
	CHECK_EQ(c->c_lba, (1ULL << 28) - 8);
	/* Far above, with a count over 256 and the 48-bit bytes all in use. */
	CHECK_EQ(io(0, HOST_MEM_NORMAL, true, 0x123456789abULL, 300, 0, 2, NULL), 0);
	c = last_cmd();
	CHECK_EQ(c->c_command, ATA_CMD_WRITE_DMA_EXT);
	CHECK_EQ(c->c_lba, 0x123456789abULL);
	CHECK_EQ(c->c_count, 300);
	/* Past the end: refused before any command is built. */
	CHECK_EQ(io(0, HOST_MEM_NORMAL, false, DISK_SECTORS - 4, 8, 0, 0, NULL), -EIO);
	CHECK_EQ(last_cmd()->c_lba, 0x123456789abULL);
	CHECK_EQ(sim.s_prd_bad, 0);
	teardown();
}

static void test_pio_highmem_unaligned(void)
{
	bool ok;

	setup(false, 1);
	CHECK_EQ(io(0, HOST_MEM_HIGH4G, true, 5000, 17, 100, 7, NULL), 0);
	CHECK_EQ(last_cmd()->c_command, ATA_CMD_WRITE_SECTORS);
	CHECK_EQ(io(0, HOST_MEM_HIGH, false, 5000, 17, 2050, 7, &ok), 0);
	CHECK_EQ(last_cmd()->c_command, ATA_CMD_READ_SECTORS);
	CHECK(ok);
	CHECK_EQ(io(0, HOST_MEM_NORMAL, false, 5008, 1, 0, 7, &ok), 0);
	CHECK(ok);		/* the middle of the write landed where it should */
	CHECK_EQ(sim.s_dma_cmds, 0);
	CHECK_EQ(blk_stat_snapshot(queue(0)).st_bounces, 0);	/* kmap_atomic reaches everything */
	teardown();
}

static void test_flush(void)
{
	struct bio *b;
	struct tbio_result res = { 0, 0 };

	setup(true, 1);
	b = bio_alloc(GFP_NOIO, 0);
	b->bi_rw = REQ_WRITE | REQ_PREFLUSH;
	b->bi_private = &res;
	b->bi_end_io = tbio_endio;
	blk_queue_submit_bio(queue(0), b);
	while (!res.r_calls)
		cpu_idle_once();
	bio_put(b);
	CHECK_EQ(res.r_error, 0);
	CHECK_EQ(sim.s_flushes, 1);
	CHECK_EQ(last_cmd()->c_command, ATA_CMD_FLUSH_CACHE_EXT);
	teardown();
}

static void test_device_error(void)
{
	bool ok;
	int dma;

	for (dma = 1; dma >= 0; dma--) {
		setup(dma, 1);
		CHECK_EQ(io(0, HOST_MEM_NORMAL, true, 990, 30, 0, 3, NULL), 0);
		sim.s_bad_set = true;
		sim.s_bad_lba = 1000;
		CHECK_EQ(io(0, HOST_MEM_NORMAL, false, 995, 10, 0, 3, NULL), -EIO);
		CHECK_EQ(io(0, HOST_MEM_NORMAL, false, 990, 10, 0, 3, &ok), 0);
		CHECK(ok);
		CHECK_EQ(io(0, HOST_MEM_NORMAL, true, 1000, 1, 0, 4, NULL), -EIO);
		CHECK_EQ(io(0, HOST_MEM_NORMAL, false, 1001, 19, 0, 3, &ok), 0);
		CHECK(ok);
		CHECK_EQ(ch->ch_drive[0].dr_errors, 2);
		CHECK_EQ(sim.s_resets, 0);	/* a device error needs no reset */
		CHECK_EQ(ch->ch_state, IDE_CH_IDLE);
		teardown();
	}
}

static void test_lost_interrupt(void)
{
	bool ok;

	setup(true, 1);
	CHECK_EQ(io(0, HOST_MEM_NORMAL, true, 300, 8, 0, 5, NULL), 0);
	sim.s_lose_irq = 1;
	CHECK_EQ(io(0, HOST_MEM_NORMAL, false, 300, 8, 0, 5, &ok), 0);
	CHECK(ok);
	CHECK_EQ(sim.s_resets, 0);		/* noticed at the timeout, completed */
	CHECK_EQ(ch->ch_drive[0].dr_timeouts, 0);
	teardown();
}

static void test_timeout_reset_retry(void)
{
	u64 t0;
	bool ok;

	setup(true, 1);
	CHECK_EQ(io(0, HOST_MEM_NORMAL, true, 700, 16, 0, 9, NULL), 0);
	sim.s_silent = 1;
	t0 = host_now_ns;
	CHECK_EQ(io(0, HOST_MEM_NORMAL, false, 700, 16, 0, 9, &ok), 0);
	CHECK(ok);
	CHECK_EQ(sim.s_resets, 1);
	CHECK_EQ(ch->ch_drive[0].dr_timeouts, 1);
	CHECK(host_now_ns - t0 >= TIMEOUT_MS * NSEC_PER_MSEC);
	CHECK_EQ(ch->ch_state, IDE_CH_IDLE);
	teardown();
}

static void test_timeout_gives_up(void)
{
	bool ok;

	setup(true, 1);
	sim.s_silent = 100;
	CHECK_EQ(io(0, HOST_MEM_NORMAL, false, 10, 1, 0, 0, NULL), -EIO);
	CHECK_EQ(sim.s_resets, 3);		/* the first try and two retries */
	CHECK_EQ(blk_stat_snapshot(queue(0)).st_timeouts, 3);
	CHECK_EQ(ch->ch_drive[0].dr_timeouts, 3);
	CHECK_EQ(ch->ch_drive[0].dr_errors, 1);
	sim.s_silent = 0;
	CHECK_EQ(io(0, HOST_MEM_NORMAL, true, 10, 1, 0, 2, NULL), 0);
	CHECK_EQ(io(0, HOST_MEM_NORMAL, false, 10, 1, 0, 2, &ok), 0);
	CHECK(ok);
	teardown();
}

static void test_dead_channel(void)
{
	u64 t0 = host_now_ns;

	setup(true, 1);
	sim.s_silent = 1;
	sim.s_stuck_busy = true;
	CHECK_EQ(io(0, HOST_MEM_NORMAL, false, 10, 1, 0, 0, NULL), -EIO);
	CHECK_EQ(ch->ch_state, IDE_CH_DEAD);
	CHECK(host_now_ns - t0 >= (u64)IDE_BSY_TIMEOUT_MS * NSEC_PER_MSEC);
	CHECK(host_now_ns - t0 < (u64)(IDE_BSY_TIMEOUT_MS + 5 * TIMEOUT_MS) * NSEC_PER_MSEC);
	t0 = host_now_ns;
	CHECK_EQ(io(0, HOST_MEM_NORMAL, false, 10, 1, 0, 0, NULL), -EIO);
	CHECK(host_now_ns - t0 < NSEC_PER_MSEC * 10);	/* fails at once now */
	teardown();
}

static void test_master_slave_take_turns(void)
{
	struct pending p[12];
	unsigned i, u, alternations = 0;
	bool ok = true;

	setup(true, 2);
	for (i = 0; i < ARRAY_SIZE(p); i++) {
		u = i % 2;
		p[i].p_bio = tbio_alloc(HOST_MEM_NORMAL, REQ_WRITE, 100 + i * 500, 8, 0);
		tbio_stamp(p[i].p_bio, u + 1);
		p[i].p_res = (struct tbio_result){ 0, 0 };
		p[i].p_bio->bi_private = &p[i].p_res;
		p[i].p_bio->bi_end_io = tbio_endio;
		blk_queue_submit_bio(queue(u), p[i].p_bio);
	}
	for (i = 0; i < ARRAY_SIZE(p); i++) {
		while (!p[i].p_res.r_calls)
			cpu_idle_once();
		CHECK_EQ(p[i].p_res.r_error, 0);
		tbio_free(p[i].p_bio);
	}
	CHECK_EQ(sim.s_ncmds, ARRAY_SIZE(p));
	for (i = 1; i < sim.s_ncmds; i++)
		alternations += sim.s_cmds[i].c_unit != sim.s_cmds[i - 1].c_unit;
	CHECK_EQ(alternations, sim.s_ncmds - 1);
	for (i = 0; i < ARRAY_SIZE(p); i++) {
		u = i % 2;
		if (io(u, HOST_MEM_NORMAL, false, 100 + i * 500, 8, 0, u + 1, &ok) || !ok)
			ok = false;
	}
	CHECK(ok);
	CHECK_EQ(sim.s_prd_bad, 0);
	teardown();
}

static void submit(struct pending *p, unsigned unit, bool write, sector_t lba, u32 nr, u32 gen)
{
	p->p_bio = tbio_alloc(HOST_MEM_NORMAL, write ? REQ_WRITE : 0, lba, nr, 0);
	if (write)
		tbio_stamp(p->p_bio, gen);
	p->p_res = (struct tbio_result){ 0, 0 };
	p->p_bio->bi_private = &p->p_res;
	p->p_bio->bi_end_io = tbio_endio;
	blk_queue_submit_bio(queue(unit), p->p_bio);
}

static int finish(struct pending *p, sector_t lba, u32 gen, bool *ok)
{
	while (!p->p_res.r_calls)
		cpu_idle_once();
	if (ok)
		*ok = tbio_check(p->p_bio, lba, gen);
	tbio_free(p->p_bio);
	return p->p_res.r_error;
}

/*
 * Two bios merged into one request, the second over a bad sector: with
 * PIO the first bio's sectors were read before the error and succeed;
 * with DMA the data of the failed command is indeterminate and all fails.
 */
static void test_error_in_merged_request(void)
{
	struct pending busy, first, second;
	bool ok;
	int dma;

	for (dma = 0; dma <= 1; dma++) {
		setup(dma, 1);
		CHECK_EQ(io(0, HOST_MEM_NORMAL, true, 990, 30, 0, 3, NULL), 0);
		sim.s_bad_set = true;
		sim.s_bad_lba = 1005;
		submit(&busy, 0, false, 5000, 8, 0);	/* holds the channel until we idle */
		submit(&first, 0, false, 990, 10, 3);
		submit(&second, 0, false, 1000, 10, 3);
		CHECK_EQ(finish(&busy, 5000, 0, NULL), 0);
		CHECK_EQ(finish(&first, 990, 3, &ok), dma ? -EIO : 0);
		CHECK(dma || ok);
		CHECK_EQ(finish(&second, 1000, 3, NULL), -EIO);
		CHECK_EQ(last_cmd()->c_lba, 990);	/* one command for both bios */
		CHECK_EQ(last_cmd()->c_count, 20);
		teardown();
	}
}

/* The commands unit was sent from the n-th on. */
static unsigned cmds_since(unsigned n, u8 *out, unsigned max)
{
	unsigned k = 0;

	for (; n < sim.s_ncmds && k < max; n++)
		out[k++] = sim.s_cmds[n].c_command;
	return k;
}

/*
 * After a reset the drive is revalidated and told its mode again (libata:
 * revalidate, then set mode): the reset put it back to its default.
 */
static void test_reset_resends_mode(void)
{
	static const u8 want[] = { ATA_CMD_READ_DMA, ATA_CMD_IDENTIFY_DEVICE, ATA_CMD_SET_FEATURES,
				   ATA_CMD_IDENTIFY_DEVICE, ATA_CMD_READ_DMA };
	u8 got[8];
	unsigned n0, i;
	bool ok;

	setup(true, 1);
	sim.s_reset_defaults = true;
	ch->ch_drive[0].dr_ad.ad_xfer = ATA_XFER_UDMA | 2;	/* as a 40-wire cable leaves it */
	CHECK_EQ(io(0, HOST_MEM_NORMAL, true, 700, 16, 0, 9, NULL), 0);
	sim.s_silent = 1;
	n0 = sim.s_ncmds;
	CHECK_EQ(io(0, HOST_MEM_NORMAL, false, 700, 16, 0, 9, &ok), 0);
	CHECK(ok);
	CHECK_EQ(sim.s_resets, 1);
	CHECK_EQ(cmds_since(n0, got, ARRAY_SIZE(got)), ARRAY_SIZE(want));
	for (i = 0; i < ARRAY_SIZE(want); i++)
		CHECK_EQ(got[i], want[i]);
	CHECK_EQ(sim.s_xfer[0], ATA_XFER_UDMA | 2);
	CHECK_EQ(ch->ch_drive[0].dr_id.ai_udma_active, 2);	/* read back */
	CHECK(ch->ch_drive[0].dr_dma);
	teardown();
}

/* Another disk answers after the reset: it is failed, and never written to. */
static void test_reset_other_disk_fails(void)
{
	u8 before[SECTOR_SIZE], got[8];
	unsigned n0, n, i;

	setup(true, 1);
	CHECK_EQ(io(0, HOST_MEM_NORMAL, true, 900, 1, 0, 4, NULL), 0);
	memcpy(before, ide_sim_sector(&sim, 0, 900), SECTOR_SIZE);
	sim.s_id[0][ATA_ID_SERIAL] ^= 0x0100;	/* swapped while the command hung */
	sim.s_silent = 1;
	n0 = sim.s_ncmds;
	CHECK_EQ(io(0, HOST_MEM_NORMAL, true, 900, 1, 0, 5, NULL), -EIO);
	CHECK(ch->ch_drive[0].dr_gone);
	CHECK_EQ(sim.s_resets, 1);
	n = cmds_since(n0 + 1, got, ARRAY_SIZE(got));
	CHECK_EQ(n, 1);
	for (i = 0; i < n; i++)
		CHECK_EQ(got[i], ATA_CMD_IDENTIFY_DEVICE);
	CHECK(!memcmp(before, ide_sim_sector(&sim, 0, 900), SECTOR_SIZE));
	CHECK_EQ(io(0, HOST_MEM_NORMAL, false, 900, 1, 0, 4, NULL), -EIO);
	CHECK_EQ(ch->ch_state, IDE_CH_IDLE);
	teardown();
}

static int chip_mode = -2;
static unsigned chip_calls;

static int fake_set_mode(struct ide_channel *c, unsigned unit, int mode)
{
	chip_mode = mode;
	chip_calls++;
	return 0;
}

static const struct ide_chipset fake_chipset = { .cs_set_mode = fake_set_mode };

/*
 * Repeated interface CRC errors: one mode slower (libata's
 * ata_down_xfermask_limit), chipset and drive both, after a reset; a
 * chipset that cannot be retimed goes to PIO.  The request survives.
 */
static void test_icrc_speed_down(void)
{
	bool ok;

	setup(true, 1);
	sc.sc_chipset = &fake_chipset;
	CHECK_EQ(io(0, HOST_MEM_NORMAL, true, 1200, 8, 0, 6, NULL), 0);
	sim.s_icrc = 3;
	CHECK_EQ(io(0, HOST_MEM_NORMAL, false, 1200, 8, 0, 6, &ok), 0);
	CHECK(ok);
	CHECK_EQ(sim.s_resets, 1);
	CHECK_EQ(sim.s_xfer[0], ATA_XFER_UDMA | 4);
	CHECK_EQ(chip_mode, ATA_XFER_UDMA | 4);
	CHECK(ch->ch_drive[0].dr_dma);
	CHECK_EQ(ch->ch_drive[0].dr_id.ai_udma_active, 4);
	/* Two more do not step down again: the count starts over. */
	sim.s_icrc = 2;
	CHECK_EQ(io(0, HOST_MEM_NORMAL, false, 1200, 8, 0, 6, &ok), 0);
	CHECK_EQ(sim.s_xfer[0], ATA_XFER_UDMA | 4);
	teardown();

	setup(true, 1);
	CHECK_EQ(io(0, HOST_MEM_NORMAL, true, 1200, 8, 0, 6, NULL), 0);
	sim.s_icrc = 3;
	CHECK_EQ(io(0, HOST_MEM_NORMAL, false, 1200, 8, 0, 6, &ok), 0);
	CHECK(ok);
	CHECK(!ch->ch_drive[0].dr_dma);
	CHECK_EQ(last_cmd()->c_command, ATA_CMD_READ_SECTORS);
	teardown();
}

/*
 * A PIO write whose device takes its time to ask for the first block:
 * no busy-wait with the channel lock held (interrupts off) lasts longer
 * than a few tens of microseconds.
 */
static void test_pio_write_drq_wait(void)
{
	bool ok;

	setup(false, 1);
	sim.s_drq_delay_ns = 5 * NSEC_PER_MSEC;
	CHECK_EQ(io(0, HOST_MEM_NORMAL, true, 40, 8, 0, 3, NULL), 0);
	CHECK_EQ(io(0, HOST_MEM_NORMAL, false, 40, 8, 0, 3, &ok), 0);
	CHECK(ok);
	CHECK_EQ(sim.s_resets, 0);
	teardown();				/* which checks locked_max_ns */
}

/*
 * A device busy before a command (after a flush, on its own
 * housekeeping): the command waits for BSY to drop, polled by timer,
 * never spinning with interrupts off; nothing is written to the busy
 * device, and the channel is not reset.  DMA and PIO, read and write.
 */
static void test_busy_before_command(void)
{
	u64 t0;
	bool ok;
	int dma;

	for (dma = 1; dma >= 0; dma--) {
		setup(dma, 1);
		sim.s_busy_until[0] = host_now_ns + 50 * NSEC_PER_MSEC;
		t0 = host_now_ns;
		CHECK_EQ(io(0, HOST_MEM_NORMAL, true, 60, 8, 0, 7, NULL), 0);
		CHECK(host_now_ns - t0 >= 50 * NSEC_PER_MSEC);
		sim.s_busy_until[0] = host_now_ns + 20 * NSEC_PER_MSEC;
		CHECK_EQ(io(0, HOST_MEM_NORMAL, false, 60, 8, 0, 7, &ok), 0);
		CHECK(ok);
		CHECK_EQ(sim.s_busy_writes, 0);
		CHECK_EQ(sim.s_resets, 0);
		CHECK_EQ(ch->ch_busy, 2);
		CHECK_EQ(sim.s_ncmds, 2);
		CHECK_EQ(ch->ch_state, IDE_CH_IDLE);
		teardown();			/* which checks locked_max_ns */
	}
}

/*
 * The master, selected last, is busy and the next request is the
 * slave's: Device is not written until the master drops BSY (ATA8-APT
 * device selection).
 */
static void test_busy_other_device(void)
{
	bool ok;

	setup(true, 2);
	CHECK_EQ(io(0, HOST_MEM_NORMAL, true, 80, 8, 0, 8, NULL), 0);
	sim.s_busy_until[0] = host_now_ns + 30 * NSEC_PER_MSEC;
	CHECK_EQ(io(1, HOST_MEM_NORMAL, true, 80, 8, 0, 9, NULL), 0);
	CHECK_EQ(io(1, HOST_MEM_NORMAL, false, 80, 8, 0, 9, &ok), 0);
	CHECK(ok);
	CHECK_EQ(last_cmd()->c_unit, 1);
	CHECK_EQ(sim.s_busy_writes, 0);
	CHECK_EQ(sim.s_resets, 0);
	CHECK_EQ(ch->ch_busy, 1);
	teardown();
}

/*
 * Busy for longer than IDE_READY_WAIT_MS: the channel is reset then,
 * naming the busy device (here the master, selected last, while the
 * request is the slave's), and the request goes out again after
 * revalidation.
 */
static void test_busy_too_long(void)
{
	u64 t0;
	bool ok;

	setup(true, 2);
	blk_queue_rq_timeout(queue(1), 4 * IDE_READY_WAIT_MS);
	CHECK_EQ(io(1, HOST_MEM_NORMAL, true, 90, 8, 0, 4, NULL), 0);
	CHECK_EQ(io(0, HOST_MEM_NORMAL, false, 90, 8, 0, 0, NULL), 0);
	sim.s_busy_until[0] = host_now_ns + 60 * NSEC_PER_SEC;
	t0 = host_now_ns;
	CHECK_EQ(io(1, HOST_MEM_NORMAL, false, 90, 8, 0, 4, &ok), 0);
	CHECK(ok);
	CHECK_EQ(sim.s_resets, 1);
	CHECK(host_now_ns - t0 >= (u64)IDE_READY_WAIT_MS * NSEC_PER_MSEC);
	CHECK(host_now_ns - t0 < (u64)(IDE_READY_WAIT_MS + 100) * NSEC_PER_MSEC);
	CHECK(strstr(host_printk_last, "hda: still busy 5000 ms before a command") != NULL);
	CHECK_EQ(ch->ch_drive[1].dr_timeouts, 0);
	CHECK_EQ(ch->ch_state, IDE_CH_IDLE);
	teardown();
}

/*
 * A request timeout shorter than the wait: the timeout takes over (a
 * reset, the request retried), and the held command never goes out to
 * the busy device.
 */
static void test_busy_past_timeout(void)
{
	bool ok;

	setup(true, 1);
	CHECK_EQ(io(0, HOST_MEM_NORMAL, true, 95, 8, 0, 5, NULL), 0);
	sim.s_busy_until[0] = host_now_ns + 60 * NSEC_PER_SEC;
	CHECK_EQ(io(0, HOST_MEM_NORMAL, false, 95, 8, 0, 5, &ok), 0);
	CHECK(ok);
	CHECK_EQ(sim.s_resets, 1);
	CHECK_EQ(ch->ch_drive[0].dr_timeouts, 1);
	CHECK_EQ(ch->ch_state, IDE_CH_IDLE);
	teardown();
}

/*
 * DRQ set before a command (a device waiting for data of a write nobody
 * finished) is a protocol error: reset, and the request goes out again.
 */
static void test_drq_before_command(void)
{
	struct ata_taskfile tf;
	bool ok;

	setup(true, 1);
	CHECK_EQ(io(0, HOST_MEM_NORMAL, true, 120, 8, 0, 6, NULL), 0);
	CHECK_EQ(ata_rw(&tf, &ch->ch_drive[0].dr_id, 500, 1, ATA_RW_WRITE, 0), 0);
	ide_load_tf(ch, &tf, 0);		/* and its data never comes */
	CHECK(ide_altstatus(ch) & ATA_STATUS_DRQ);
	CHECK_EQ(io(0, HOST_MEM_NORMAL, false, 120, 8, 0, 6, &ok), 0);
	CHECK(ok);
	CHECK_EQ(sim.s_resets, 1);
	CHECK_EQ(last_cmd()->c_command, ATA_CMD_READ_DMA);
	teardown();
}

static const struct unit_case cases[] = {
	{ "ide/io/dma_every_memory_range", test_dma_every_range },
	{ "ide/io/isr_register_order", test_isr_register_order },
	{ "ide/io/lba28_or_lba48", test_lba28_or_48 },
	{ "ide/io/pio_highmem_unaligned", test_pio_highmem_unaligned },
	{ "ide/io/flush", test_flush },
	{ "ide/io/device_error_fails_one_request", test_device_error },
	{ "ide/io/error_in_merged_request", test_error_in_merged_request },
	{ "ide/io/lost_interrupt", test_lost_interrupt },
	{ "ide/io/timeout_reset_retry", test_timeout_reset_retry },
	{ "ide/io/timeout_gives_up", test_timeout_gives_up },
	{ "ide/io/dead_channel", test_dead_channel },
	{ "ide/io/master_slave_take_turns", test_master_slave_take_turns },
	{ "ide/io/reset_resends_mode", test_reset_resends_mode },
	{ "ide/io/reset_other_disk_fails", test_reset_other_disk_fails },
	{ "ide/io/icrc_speed_down", test_icrc_speed_down },
	{ "ide/io/pio_write_drq_wait", test_pio_write_drq_wait },
	{ "ide/io/busy_before_command", test_busy_before_command },
	{ "ide/io/busy_other_device", test_busy_other_device },
	{ "ide/io/busy_too_long", test_busy_too_long },
	{ "ide/io/busy_past_timeout", test_busy_past_timeout },
	{ "ide/io/drq_before_command", test_drq_before_command },
};
UNIT_MAIN("ide_io", cases)
