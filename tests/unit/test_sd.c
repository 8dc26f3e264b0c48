/*
 * Host tests of the sd disk driver (drivers/scsi/sd.c, sd_io.c) over a
 * fake transport: a RAM-backed SCSI target that answers the commands sd
 * sends (INQUIRY, TEST UNIT READY, READ CAPACITY (10)/(16), MODE SENSE,
 * READ/WRITE (10)/(16), SYNCHRONIZE CACHE) and holds each one until the
 * idle hook -- the stand-in for the transport's interrupt -- completes
 * it.  The target can answer UNIT ATTENTION, fail a sector with MEDIUM
 * ERROR sense, move short, hang, or be gone; the tests check that data
 * written through the block layer lands in the target, that a 3 TiB
 * target gets (16) CDBs, that each failure reaches the bio that met it
 * with the right errno and only that bio, and that removal fails what is
 * queued with -ENODEV and gives every name and page back.
 */
#include "tests/unit/unit.h"
#include "tests/unit/blk_testdev.h"
#include "tests/unit/fakes/gendisk_fake.h"
#include "tests/unit/fakes/page_fake.h"
#include "tests/unit/fakes/sched_fake.h"
#include "tests/unit/host/shim.h"
#include "block/genhd.h"
#include "drivers/scsi/sd_priv.h"
#include "kernel/errno.h"
#include "kernel/mm/page.h"

void udelay(u32 us) { host_now_ns += (u64)us * NSEC_PER_USEC; }
void mdelay(u32 ms) { host_now_ns += (u64)ms * NSEC_PER_MSEC; }
void set_disk_ro(struct gendisk *disk, bool ro) { disk->gd_driver_ro = ro; }

#define TGT_LOG		64

/* The fake target: a sparse disk (only the first TGT_BYTES exist). */
#define TGT_BYTES	(1u << 20)
struct tgt {
	u8		t_data[TGT_BYTES];
	u64		t_blocks;
	u32		t_bsize;
	u8		t_pdt;
	bool		t_wp;
	u32		t_ua;		/* answer this many commands with UNIT ATTENTION */
	u64		t_bad_lba;	/* READ covering it: MEDIUM ERROR; ~0: none */
	u32		t_short;	/* move this many bytes less */
	bool		t_hang;		/* hold commands forever */
	bool		t_gone;
	bool		t_desc_sense;	/* descriptor-format sense */
	struct scsi_cmnd *t_cmd;	/* held */
	u32		t_syncs;
	u32		t_aborts;
	u32		t_ncmd;
	u8		t_ops[TGT_LOG];
};
static struct tgt tgt;

static u32 be32(const u8 *p) { return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3]; }
static void pbe32(u8 *p, u32 v) { p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v; }

/* Copy between the command's memory and buf, from byte off of the transfer. */
static void tgt_copy(struct scsi_cmnd *cmd, u8 *buf, u32 len, bool to_mem)
{
	u32 i, done = 0;

	for (i = 0; i < cmd->sc_nsg && done < len; i++) {
		const struct scatterlist *sg = &cmd->sc_sg[i];
		struct page *pg = pfn_to_page(sg->sg_addr >> PAGE_SHIFT);
		u8 *mem = (u8 *)host_page_buf(pg) + (sg->sg_addr & (PAGE_SIZE - 1));
		u32 n = min(sg->sg_len, len - done);

		/* Merged segments span pages that are adjacent in the fake's backing too. */
		if (to_mem)
			memcpy(mem, buf + done, n);
		else
			memcpy(buf + done, mem, n);
		done += n;
	}
}

static void tgt_sense(struct scsi_cmnd *cmd, u8 key, u8 asc, u8 ascq, u64 info)
{
	cmd->sc_status = SAM_STAT_CHECK_CONDITION;
	memset(cmd->sc_sense, 0, sizeof(cmd->sc_sense));
	if (tgt.t_desc_sense) {
		u8 d[20] = { 0x72, key, asc, ascq, 0, 0, 0, 12, 0x00, 0x0a, 0x80 };
		int k;

		for (k = 0; k < 8; k++)
			d[12 + k] = (u8)(info >> (56 - 8 * k));
		memcpy(cmd->sc_sense, d, sizeof(d));
		cmd->sc_sense_len = sizeof(d);
		return;
	}
	cmd->sc_sense[0] = 0xf0;
	cmd->sc_sense[2] = key;
	pbe32(&cmd->sc_sense[3], (u32)info);
	cmd->sc_sense[7] = 10;
	cmd->sc_sense[12] = asc;
	cmd->sc_sense[13] = ascq;
	cmd->sc_sense_len = 18;
}

/* Execute a command as a disk would. */
static void tgt_exec(struct scsi_cmnd *cmd)
{
	u8 *c = cmd->sc_cdb, buf[64];
	u64 lba = 0, off;
	u32 n = 0, len;

	cmd->sc_status = SAM_STAT_GOOD;
	cmd->sc_resid = 0;
	cmd->sc_sense_len = 0;
	if (tgt.t_ncmd < TGT_LOG)
		tgt.t_ops[tgt.t_ncmd] = c[0];
	tgt.t_ncmd++;
	if (tgt.t_ua && c[0] != SCSI_OP_INQUIRY) {	/* SPC-4 6.6.1: INQUIRY reports none */
		tgt.t_ua--;
		tgt_sense(cmd, SCSI_SK_UNIT_ATTENTION, 0x29, 0, 0);
		return;
	}
	memset(buf, 0, sizeof(buf));
	switch (c[0]) {
	case SCSI_OP_INQUIRY:
		buf[0] = tgt.t_pdt;
		buf[1] = 0x80;
		buf[4] = 31;
		memcpy(buf + 8, "FAKE    ", 8);
		memcpy(buf + 16, "Stick 3000      ", 16);
		memcpy(buf + 32, "1.00", 4);
		tgt_copy(cmd, buf, min(36u, cmd->sc_len), true);
		cmd->sc_resid = cmd->sc_len > 36 ? cmd->sc_len - 36 : 0;
		return;
	case SCSI_OP_TEST_UNIT_READY:
		return;
	case SCSI_OP_READ_CAPACITY_10:
		pbe32(buf, tgt.t_blocks > 0xffffffffULL ? 0xffffffffu : (u32)(tgt.t_blocks - 1));
		pbe32(buf + 4, tgt.t_bsize);
		tgt_copy(cmd, buf, 8, true);
		return;
	case SCSI_OP_SERVICE_ACTION_IN_16:
		pbe32(buf, (u32)((tgt.t_blocks - 1) >> 32));
		pbe32(buf + 4, (u32)(tgt.t_blocks - 1));
		pbe32(buf + 8, tgt.t_bsize);
		tgt_copy(cmd, buf, 32, true);
		return;
	case SCSI_OP_MODE_SENSE_6:
		buf[0] = 3;
		buf[2] = tgt.t_wp ? 0x80 : 0;
		tgt_copy(cmd, buf, 4, true);
		cmd->sc_resid = cmd->sc_len - 4;
		return;
	case SCSI_OP_SYNCHRONIZE_CACHE_10:
		tgt.t_syncs++;
		return;
	case SCSI_OP_READ_10:
	case SCSI_OP_WRITE_10:
		lba = be32(c + 2);
		n = (u32)c[7] << 8 | c[8];
		break;
	case SCSI_OP_READ_16:
	case SCSI_OP_WRITE_16:
		lba = (u64)be32(c + 2) << 32 | be32(c + 6);
		n = be32(c + 10);
		break;
	default:
		tgt_sense(cmd, SCSI_SK_ILLEGAL_REQUEST, 0x20, 0, 0);
		return;
	}
	len = n * tgt.t_bsize;
	CHECK_EQ(len, cmd->sc_len);
	if (lba + n > tgt.t_blocks) {
		tgt_sense(cmd, SCSI_SK_ILLEGAL_REQUEST, 0x21, 0, lba);
		return;
	}
	if ((c[0] == SCSI_OP_READ_10 || c[0] == SCSI_OP_READ_16) &&
	    tgt.t_bad_lba >= lba && tgt.t_bad_lba < lba + n) {
		tgt_sense(cmd, SCSI_SK_MEDIUM_ERROR, 0x11, 0, tgt.t_bad_lba);
		return;
	}
	/* High LBAs of a huge target map onto the end of the buffer. */
	off = lba * tgt.t_bsize;
	if (off + len > TGT_BYTES)
		off = TGT_BYTES - len;
	len -= tgt.t_short;
	tgt_copy(cmd, tgt.t_data + off, len, c[0] == SCSI_OP_READ_10 || c[0] == SCSI_OP_READ_16);
	cmd->sc_resid = tgt.t_short;
}

static int tgt_queuecommand(void *host, struct scsi_cmnd *cmd)
{
	CHECK(host == &tgt);
	if (tgt.t_gone)
		return -ENODEV;
	CHECK(tgt.t_cmd == NULL);	/* one at a time */
	tgt.t_cmd = cmd;
	return 0;
}

static void tgt_abort(void *host, struct scsi_cmnd *cmd)
{
	CHECK(cmd == tgt.t_cmd);
	tgt.t_aborts++;
	tgt.t_hang = false;
	cmd->sc_result = -ETIMEDOUT;	/* given back at the next "interrupt" */
}

static const struct scsi_host_ops tgt_ops = {
	.sho_queuecommand	= tgt_queuecommand,
	.sho_abort		= tgt_abort,
};

/* The idle hook: the transport's interrupt, completing the held command. */
static void tgt_idle(void)
{
	struct scsi_cmnd *cmd = tgt.t_cmd;

	if (!cmd || tgt.t_hang) {
		host_advance_ns(NSEC_PER_MSEC);
		return;
	}
	tgt.t_cmd = NULL;
	if (cmd->sc_result == 0)
		tgt_exec(cmd);
	cmd->sc_done(cmd);
}

static const struct scsi_host_limits tgt_lim = {
	.shl_max_sectors	= 240,
	.shl_max_segments	= 16,
	.shl_max_segment_size	= 65536,
	.shl_dma_alignment	= 511,
	.shl_dma_limit		= BLK_BOUNCE_NONE,
};

static void tgt_reset(u64 blocks, u32 bsize)
{
	memset(&tgt, 0, sizeof(tgt));
	tgt.t_blocks = blocks;
	tgt.t_bsize = bsize;
	tgt.t_bad_lba = ~0ULL;
	host_idle_hook = tgt_idle;
	host_gendisk_reset();
	bio_init_pools();
}

static struct sd_disk *probe_ok(void)
{
	struct sd_disk *sd = NULL;

	CHECK_EQ(sd_probe(&tgt_ops, &tgt, &tgt_lim, 0, "fake 1", &sd), 0);
	CHECK(sd != NULL);
	return sd;
}

/* Submit a bio of nr sectors at sector and wait for it; its error. */
static int do_io(struct sd_disk *sd, u32 rw, sector_t sector, u32 nr, u32 gen, u32 off,
		 bool check)
{
	struct bio *b = tbio_slot(HOST_MEM_NORMAL, rw, sector, nr, off, 0);
	long spins = 0;
	int err;

	if (rw & REQ_WRITE)
		tbio_stamp(b, gen);
	blk_queue_submit_bio(sd->sd_queue, b);
	blk_unplug(sd->sd_queue);
	while (!tres[0].r_calls && ++spins < 1000000)
		cpu_idle_once();
	CHECK_EQ(tres[0].r_calls, 1);
	err = tres[0].r_error;
	if (check && !err && !(rw & REQ_WRITE))
		CHECK(tbio_check(b, sector, gen));
	tbio_free(b);
	return err;
}

static void test_probe(void)
{
	long pages = host_pages_live;
	struct sd_disk *sd;
	struct gendisk *d;
	char rep[512];

	tgt_reset(8192, 512);
	tgt.t_ua = 1;		/* power-on UNIT ATTENTION on the first TUR */
	sd = probe_ok();
	CHECK_EQ(host_nr_disks, 1);
	d = host_disks[0];
	CHECK_STR(d->gd_name, "sda");
	CHECK_EQ(d->gd_major, 8);
	CHECK_EQ(d->gd_first_minor, 0);
	CHECK_STR(d->gd_model, "FAKE Stick 3000");
	CHECK_EQ(get_capacity(d), 8192);
	CHECK(d->gd_flags & GENHD_FL_REMOVABLE);
	CHECK(!d->gd_driver_ro);
	CHECK_EQ(tgt.t_ops[0], SCSI_OP_INQUIRY);
	CHECK_EQ(tgt.t_ops[1], SCSI_OP_TEST_UNIT_READY);	/* UA */
	CHECK_EQ(tgt.t_ops[2], SCSI_OP_TEST_UNIT_READY);
	CHECK_EQ(tgt.t_ops[3], SCSI_OP_READ_CAPACITY_10);
	CHECK(!sd->sd_use16);
	CHECK(d->gd_fops->bdo_report(d, rep, sizeof(rep)) > 0);
	CHECK(strstr(rep, "vendor FAKE\nproduct Stick 3000\nrevision 1.00\n") != NULL);
	/* The queue carries the transport's limits. */
	CHECK_EQ(sd->sd_queue->q_limits.lim_max_hw_sectors, 240);
	CHECK_EQ(sd->sd_queue->q_limits.lim_max_segments, 16);
	/* A second unit takes the next name. */
	{
		struct sd_disk *sd2 = probe_ok();

		CHECK_STR(host_disks[1]->gd_name, "sdb");
		sd_remove(sd2);
	}
	sd_remove(sd);
	CHECK_EQ(host_pages_live, pages);
	/* Both names are free again: the next probe is sda. */
	sd = probe_ok();
	CHECK_STR(sd->sd_name, "sda");
	sd_remove(sd);
}

static void test_not_a_disk(void)
{
	struct sd_disk *sd = NULL;
	long pages = host_pages_live;

	tgt_reset(8192, 512);
	tgt.t_pdt = SCSI_PDT_CDROM;
	CHECK_EQ(sd_probe(&tgt_ops, &tgt, &tgt_lim, 0, "fake 1", &sd), -ENODEV);
	CHECK_EQ(host_nr_disks, 0);
	CHECK_EQ(host_pages_live, pages);
	/* A unit that never stops saying UNIT ATTENTION. */
	tgt_reset(8192, 512);
	tgt.t_ua = 1000;
	CHECK_EQ(sd_probe(&tgt_ops, &tgt, &tgt_lim, 0, "fake 1", &sd), -EIO);
	CHECK_EQ(host_nr_disks, 0);
	/* Gone during probe. */
	tgt_reset(8192, 512);
	tgt.t_gone = true;
	CHECK_EQ(sd_probe(&tgt_ops, &tgt, &tgt_lim, 0, "fake 1", &sd), -ENODEV);
	CHECK_EQ(host_pages_live, pages);
}

static void test_rw(void)
{
	struct sd_disk *sd;

	tgt_reset(2048, 512);
	sd = probe_ok();
	/* 300 sectors: split at the transport's 240. */
	CHECK_EQ(do_io(sd, REQ_WRITE, 100, 300, 7, 0, false), 0);
	CHECK_EQ(do_io(sd, 0, 100, 300, 7, 0, true), 0);
	/* Unaligned memory inside pages, read back in a different split. */
	CHECK_EQ(do_io(sd, 0, 150, 17, 7, 512, true), 0);
	CHECK_EQ(tgt.t_ops[tgt.t_ncmd - 1], SCSI_OP_READ_10);
	/* A flush becomes SYNCHRONIZE CACHE. */
	CHECK_EQ(do_io(sd, REQ_WRITE | REQ_PREFLUSH | REQ_FUA, 0, 8, 9, 0, false), 0);
	CHECK(tgt.t_syncs >= 1);
	CHECK_EQ(do_io(sd, 0, 0, 8, 9, 0, true), 0);
	sd_remove(sd);
}

static void test_3tib(void)
{
	struct sd_disk *sd;
	u64 last = 0x180000000ULL - 8;	/* 3 TiB of 512-byte blocks */

	tgt_reset(0x180000000ULL, 512);
	sd = probe_ok();
	CHECK(sd->sd_use16);
	CHECK_EQ(get_capacity(host_disks[0]), 0x180000000ULL);
	CHECK_EQ(tgt.t_ops[2], SCSI_OP_READ_CAPACITY_10);
	CHECK_EQ(tgt.t_ops[3], SCSI_OP_SERVICE_ACTION_IN_16);
	CHECK_EQ(do_io(sd, REQ_WRITE, last, 8, 3, 0, false), 0);
	CHECK_EQ(tgt.t_ops[tgt.t_ncmd - 1], SCSI_OP_WRITE_16);
	CHECK_EQ(do_io(sd, 0, last, 8, 3, 0, true), 0);
	CHECK_EQ(tgt.t_ops[tgt.t_ncmd - 1], SCSI_OP_READ_16);
	sd_remove(sd);
}

static void test_4k(void)
{
	struct sd_disk *sd;

	tgt_reset(256, 4096);
	sd = probe_ok();
	CHECK_EQ(get_capacity(host_disks[0]), 2048);
	CHECK_EQ(sd->sd_queue->q_limits.lim_logical_block_size, 4096);
	CHECK_EQ(do_io(sd, REQ_WRITE, 16, 32, 5, 0, false), 0);
	CHECK_EQ(do_io(sd, 0, 16, 32, 5, 0, true), 0);
	CHECK_EQ(tgt.t_cmd, NULL);
	sd_remove(sd);
}

static void test_errors(void)
{
	struct sd_disk *sd;
	u32 n;

	tgt_reset(2048, 512);
	sd = probe_ok();
	CHECK_EQ(do_io(sd, REQ_WRITE, 0, 64, 1, 0, false), 0);
	/* MEDIUM ERROR reaches the bio that met it, and only it. */
	tgt.t_bad_lba = 40;
	CHECK_EQ(do_io(sd, 0, 32, 16, 1, 0, false), -EIO);
	CHECK_EQ(do_io(sd, 0, 0, 32, 1, 0, true), 0);
	CHECK_EQ(sd->sd_errors, 1);
	tgt.t_desc_sense = true;
	CHECK_EQ(do_io(sd, 0, 40, 1, 1, 0, false), -EIO);
	tgt.t_desc_sense = false;
	tgt.t_bad_lba = ~0ULL;
	/* UNIT ATTENTION: retried, then fine. */
	tgt.t_ua = 2;
	n = tgt.t_ncmd;
	CHECK_EQ(do_io(sd, 0, 0, 8, 1, 0, true), 0);
	CHECK_EQ(tgt.t_ncmd - n, 3);
	/* ...but not forever. */
	tgt.t_ua = 100;
	CHECK_EQ(do_io(sd, 0, 0, 8, 1, 0, false), -EIO);
	tgt.t_ua = 0;
	/* Past the end (the block layer lets it through on a raw queue): ILLEGAL REQUEST. */
	CHECK_EQ(do_io(sd, 0, 2040, 16, 1, 0, false), -EIO);
	/* Short transfer: the bio fails. */
	tgt.t_short = 512;
	CHECK_EQ(do_io(sd, 0, 0, 16, 1, 0, false), -EIO);
	tgt.t_short = 0;
	CHECK_EQ(do_io(sd, 0, 0, 16, 1, 0, true), 0);
	sd_remove(sd);
}

static void test_timeout(void)
{
	struct sd_disk *sd;

	tgt_reset(2048, 512);
	sd = probe_ok();
	tgt.t_hang = true;
	/* The block layer's timer fires; sd fails the request and aborts. */
	CHECK_EQ(do_io(sd, 0, 0, 8, 1, 0, false), -ETIMEDOUT);
	CHECK_EQ(tgt.t_aborts, 1);
	CHECK_EQ(sd->sd_timeouts, 1);
	/* The transport gives it back; the disk works again. */
	CHECK_EQ(do_io(sd, REQ_WRITE, 0, 8, 2, 0, false), 0);
	CHECK_EQ(do_io(sd, 0, 0, 8, 2, 0, true), 0);
	sd_remove(sd);
}

static void test_gone(void)
{
	struct sd_disk *sd;
	long pages;

	tgt_reset(2048, 512);
	pages = host_pages_live;
	sd = probe_ok();
	tgt.t_gone = true;
	CHECK_EQ(do_io(sd, 0, 0, 8, 1, 0, false), -ENODEV);
	CHECK_EQ(do_io(sd, 0, 8, 8, 1, 0, false), -ENODEV);
	sd_remove(sd);
	CHECK_EQ(host_pages_live, pages);
}

static void test_write_protect(void)
{
	struct sd_disk *sd;

	tgt_reset(2048, 512);
	tgt.t_wp = true;
	sd = probe_ok();
	CHECK(host_disks[0]->gd_driver_ro);
	sd_remove(sd);
}

static const struct unit_case cases[] = {
	{ "probe", test_probe },
	{ "not_a_disk", test_not_a_disk },
	{ "rw", test_rw },
	{ "3tib", test_3tib },
	{ "4k", test_4k },
	{ "errors", test_errors },
	{ "timeout", test_timeout },
	{ "gone", test_gone },
	{ "write_protect", test_write_protect },
};

UNIT_MAIN("sd", cases)
