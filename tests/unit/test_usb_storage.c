/*
 * Host tests of the Bulk-Only transport (drivers/usb/usb_storage.c and
 * usb_storage_eh.c) with sd and the block core above it, over a fake USB
 * core and a simulated stick: a BOT device that takes CBWs on bulk-out,
 * moves data through the URBs' page lists, answers CSWs on bulk-in and
 * runs a small SCSI disk on a RAM buffer.  URBs complete from the idle
 * hook, the stand-in for the controller's interrupt.
 *
 * The stick can misbehave once at a time: stall its data stage, stall a
 * CSW, answer a phase error or a CSW with a stale tag, stall a CBW, stop
 * answering, or be unplugged mid-transfer.  The tests check that data
 * round-trips, that the error reaches the bio that met it (and only it),
 * that recovery (CLEAR_FEATURE, the class reset) is what the BOT spec
 * asks for in each case, that the stick works again afterwards, and that
 * an unplug fails the I/O with -ENODEV, removes the disk and gives its
 * name and memory back so that a replug gets the same name.
 */
#include "tests/unit/unit.h"
#include "tests/unit/blk_testdev.h"
#include "tests/unit/fakes/gendisk_fake.h"
#include "tests/unit/fakes/page_fake.h"
#include "tests/unit/fakes/sched_fake.h"
#include "tests/unit/host/shim.h"
#include "kernel/completion.h"
#include "drivers/usb/usb_storage.c"
#include "drivers/scsi/sd_priv.h"

void udelay(u32 us) { host_now_ns += (u64)us * NSEC_PER_USEC; }
void mdelay(u32 ms) { host_now_ns += (u64)ms * NSEC_PER_MSEC; }
void set_disk_ro(struct gendisk *disk, bool ro) { disk->gd_driver_ro = ro; }

#define SIM_BLOCKS	8192		/* 4 MiB of 512-byte blocks */
#define SIM_XFER	(1024 * 1024)

enum sim_phase { P_CBW, P_DATA, P_CSW };

static struct sim {
	u8		disk[SIM_BLOCKS * 512];
	u8		xfer[SIM_XFER];	/* the data stage of the current command */
	enum sim_phase	phase;
	struct bot_cbw	cbw;
	u32		want;		/* dCBWDataTransferLength */
	u32		have;		/* bytes the device has to give / took */
	u8		status;		/* CSW status */
	u8		sense[18];	/* for REQUEST SENSE */
	bool		halted[2];	/* [in] */
	struct urb	*urb;		/* in flight */
	bool		gone;
	bool		hang;
	u8		max_lun;	/* GET MAX LUN answer; 0xff: stall */
	u64		bad_lba;
	/* one-shot faults */
	bool		stall_data, stall_csw, phase_error, bad_tag, stall_cbw;
	u32		resets, clears, cbws;
	u32		data_nsg;	/* pieces of the last data stage */
	enum usb_speed	speed;		/* for the next plug(); 0: high */
} sim;

static struct usb_device udev;
static const struct usb_driver *drv;

/* ---- the fake USB core ---- */

int usb_register_driver(const struct usb_driver *d) { drv = d; return 0; }
struct usb_device *usb_get_dev(struct usb_device *d) { d->ud_refs++; return d; }
void usb_put_dev(struct usb_device *d) { CHECK(d->ud_refs > 0); d->ud_refs--; }
const char *usb_speed_name(enum usb_speed s)
{
	return s == USB_SPEED_HIGH ? "high" : s == USB_SPEED_SUPER ? "super" : "?";
}

struct usb_host_endpoint *usb_find_endpoint(struct usb_interface *intf, u8 type, u8 dir)
{
	unsigned i;

	for (i = 0; i < intf->intf_nep; i++)
		if (intf->intf_ep[i]->ep_type == type && (intf->intf_ep[i]->ep_addr & USB_DIR_IN) == dir)
			return intf->intf_ep[i];
	return NULL;
}

int usb_submit_urb(struct urb *urb)
{
	if (sim.gone)
		return -ENODEV;
	CHECK(sim.urb == NULL);		/* BOT: one transfer at a time */
	if (sim.halted[(urb->urb_ep & USB_DIR_IN) ? 1 : 0])
		return -EPIPE;
	urb->urb_active = true;
	urb->urb_status = 0;
	urb->urb_actual = 0;
	sim.urb = urb;
	return 0;
}

static void urb_complete(int status, u32 actual)
{
	struct urb *urb = sim.urb;

	sim.urb = NULL;
	urb->urb_status = status;
	urb->urb_actual = actual;
	urb->urb_active = false;
	host_in_interrupt = true;
	urb->urb_complete(urb);
	host_in_interrupt = false;
}

int usb_unlink_urb(struct urb *urb)
{
	if (sim.urb != urb)
		return -ENOENT;
	urb_complete(-ECONNRESET, 0);
	return 0;
}

void usb_kill_urb(struct urb *urb)
{
	usb_unlink_urb(urb);
}

int usb_control_msg(struct usb_device *dev, u8 rt, u8 req, u16 value, u16 index, void *data,
		    u16 len, u32 timeout_ms)
{
	CHECK(dev == &udev);
	if (sim.gone)
		return -ENODEV;
	if (rt == (USB_DIR_IN | USB_TYPE_CLASS | USB_RECIP_INTERFACE) &&
	    req == USB_BOT_REQ_GET_MAX_LUN) {
		CHECK_EQ(len, 1);
		if (sim.max_lun == 0xff)
			return -EPIPE;
		*(u8 *)data = sim.max_lun;
		return 1;
	}
	if (rt == (USB_DIR_OUT | USB_TYPE_CLASS | USB_RECIP_INTERFACE) &&
	    req == USB_BOT_REQ_RESET) {
		/* BOT 3.1: ready for a CBW; the halts stay until cleared. */
		sim.resets++;
		sim.phase = P_CBW;
		sim.hang = false;
		return 0;
	}
	CHECK(0);
	return -EIO;
}

int usb_clear_halt(struct usb_device *dev, u8 ep)
{
	if (sim.gone)
		return -ENODEV;
	sim.clears++;
	sim.halted[(ep & USB_DIR_IN) ? 1 : 0] = false;
	return 0;
}

/* ---- the simulated stick ---- */

static u32 get_be32(const u8 *p) { return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3]; }
static void pbe32(u8 *p, u32 v) { p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v; }

/* Copy between an URB's memory and buf. */
static u32 urb_copy(struct urb *urb, u8 *buf, u32 len, bool to_urb)
{
	u32 i, done = 0;

	len = min(len, urb->urb_len);
	if (urb->urb_buf) {
		if (to_urb)
			memcpy(urb->urb_buf, buf, len);
		else
			memcpy(buf, urb->urb_buf, len);
		return len;
	}
	/* A piece may run on into the pages after sg_page: copy page by page. */
	for (i = 0; i < urb->urb_nsg && done < len; i++) {
		const struct usb_sg *sg = &urb->urb_sg[i];
		u32 pos = sg->sg_offset, end = min(sg->sg_offset + sg->sg_len,
						   sg->sg_offset + len - done);

		CHECK(sg->sg_offset < PAGE_SIZE);
		while (pos < end) {
			u8 *mem = (u8 *)host_page_buf(sg->sg_page + pos / PAGE_SIZE) +
				  pos % PAGE_SIZE;
			u32 n = min(end - pos, PAGE_SIZE - pos % PAGE_SIZE);

			if (to_urb)
				memcpy(mem, buf + done, n);
			else
				memcpy(buf + done, mem, n);
			pos += n;
			done += n;
		}
	}
	return done;
}

static void sim_fail(u8 key, u8 asc)
{
	sim.status = BOT_CSW_STATUS_FAILED;
	memset(sim.sense, 0, sizeof(sim.sense));
	sim.sense[0] = 0x70;
	sim.sense[2] = key;
	sim.sense[7] = 10;
	sim.sense[12] = asc;
	sim.have = 0;
}

/* A CBW arrived: run the command (a write's data is applied at the data stage). */
static void sim_command(void)
{
	const u8 *c = sim.cbw.CBWCB;
	u64 lba = 0;
	u32 n = 0;

	sim.status = BOT_CSW_STATUS_GOOD;
	sim.have = 0;
	memset(sim.xfer, 0, 64);
	switch (c[0]) {
	case SCSI_OP_INQUIRY:
		sim.xfer[1] = 0x80;
		sim.xfer[4] = 31;
		memcpy(sim.xfer + 8, "SIM     USB Stick       0.1 ", 28);
		sim.have = 36;
		return;
	case SCSI_OP_TEST_UNIT_READY:
	case SCSI_OP_SYNCHRONIZE_CACHE_10:
		return;
	case SCSI_OP_REQUEST_SENSE:
		memcpy(sim.xfer, sim.sense, sizeof(sim.sense));
		sim.have = sizeof(sim.sense);
		memset(sim.sense, 0, sizeof(sim.sense));
		sim.sense[0] = 0x70;
		return;
	case SCSI_OP_READ_CAPACITY_10:
		pbe32(sim.xfer, SIM_BLOCKS - 1);
		pbe32(sim.xfer + 4, 512);
		sim.have = 8;
		return;
	case SCSI_OP_READ_10:
	case SCSI_OP_WRITE_10:
		lba = get_be32(c + 2);
		n = (u32)c[7] << 8 | c[8];
		break;
	default:
		/* MODE SENSE and the rest: refused, as many sticks do. */
		sim_fail(SCSI_SK_ILLEGAL_REQUEST, 0x20);
		return;
	}
	CHECK_EQ(n * 512, sim.want);
	if (lba + n > SIM_BLOCKS) {
		sim_fail(SCSI_SK_ILLEGAL_REQUEST, 0x21);
		return;
	}
	if (c[0] == SCSI_OP_READ_10) {
		if (sim.bad_lba >= lba && sim.bad_lba < lba + n) {
			sim_fail(SCSI_SK_MEDIUM_ERROR, 0x11);
			return;
		}
		memcpy(sim.xfer, sim.disk + lba * 512, n * 512);
	}
	sim.have = n * 512;
}

static void sim_step(void)
{
	struct urb *urb = sim.urb;
	bool in = urb->urb_ep & USB_DIR_IN;
	struct bot_csw csw;
	u32 n;

	switch (sim.phase) {
	case P_CBW:
		CHECK(!in);
		if (sim.stall_cbw) {
			sim.stall_cbw = false;
			sim.halted[0] = sim.halted[1] = true;	/* BOT 6.6.1 */
			urb_complete(-EPIPE, 0);
			return;
		}
		sim.cbws++;
		CHECK_EQ(urb->urb_len, 31);
		urb_copy(urb, (u8 *)&sim.cbw, 31, false);
		CHECK_EQ(le32_to_cpu(sim.cbw.dCBWSignature), BOT_CBW_SIGNATURE);
		sim.want = le32_to_cpu(sim.cbw.dCBWDataTransferLength);
		sim_command();
		sim.phase = sim.want ? P_DATA : P_CSW;
		urb_complete(0, 31);
		return;
	case P_DATA:
		CHECK_EQ(in, (sim.cbw.bmCBWFlags & BOT_CBW_FLAG_IN) != 0);
		CHECK_EQ(urb->urb_len, sim.want);
		sim.data_nsg = urb->urb_nsg;
		sim.phase = P_CSW;
		if (in) {
			n = min(sim.have, sim.want);
			if (sim.stall_data) {
				/* BOT 6.7.2 (Hi > Di): less data, then a stalled pipe. */
				sim.stall_data = false;
				n /= 2;
				urb_copy(urb, sim.xfer, n, true);
				sim.have = n;
				sim.halted[1] = true;
				urb_complete(-EPIPE, n);
				return;
			}
			urb_copy(urb, sim.xfer, n, true);
			sim.have = n;
			urb_complete(0, n);
			return;
		}
		n = urb_copy(urb, sim.xfer, sim.want, false);
		if (sim.cbw.CBWCB[0] == SCSI_OP_WRITE_10)
			memcpy(sim.disk + (u64)get_be32(sim.cbw.CBWCB + 2) * 512, sim.xfer, n);
		sim.have = n;
		urb_complete(0, n);
		return;
	case P_CSW:
		CHECK(in);
		if (sim.stall_csw) {
			sim.stall_csw = false;
			sim.halted[1] = true;
			urb_complete(-EPIPE, 0);
			return;
		}
		csw.dCSWSignature = cpu_to_le32(BOT_CSW_SIGNATURE);
		csw.dCSWTag = sim.cbw.dCBWTag;
		csw.dCSWDataResidue = cpu_to_le32(sim.want - min(sim.have, sim.want));
		csw.bCSWStatus = sim.status;
		if (sim.phase_error) {
			sim.phase_error = false;
			csw.bCSWStatus = BOT_CSW_STATUS_PHASE;
		}
		if (sim.bad_tag) {
			sim.bad_tag = false;
			csw.dCSWTag ^= 1;
		}
		CHECK_EQ(urb->urb_len, 13);
		urb_copy(urb, (u8 *)&csw, 13, true);
		sim.phase = P_CBW;
		urb_complete(0, 13);
		return;
	}
}

static void sim_idle(void)
{
	if (sim.urb && !sim.hang && !sim.gone)
		sim_step();
	else
		host_advance_ns(NSEC_PER_MSEC);
}

static void plug(void)
{
	static struct usb_host_endpoint *eps[2];

	memset(sim.disk, 0, sizeof(sim.disk));
	sim.phase = P_CBW;
	sim.urb = NULL;
	sim.gone = sim.hang = false;
	sim.halted[0] = sim.halted[1] = false;
	sim.bad_lba = ~0ULL;
	sim.resets = sim.clears = 0;
	memset(&udev, 0, sizeof(udev));
	udev.ud_speed = sim.speed ? sim.speed : USB_SPEED_HIGH;
	strcpy(udev.ud_path, "1.2");
	udev.ud_refs = 1;
	udev.ud_nintf = 1;
	udev.ud_ep[1][1].ep_addr = USB_DIR_IN | 1;
	udev.ud_ep[1][1].ep_type = USB_ENDPOINT_XFER_BULK;
	udev.ud_ep[0][2].ep_addr = 2;
	udev.ud_ep[0][2].ep_type = USB_ENDPOINT_XFER_BULK;
	eps[0] = &udev.ud_ep[0][2];
	eps[1] = &udev.ud_ep[1][1];
	udev.ud_intf[0].intf_dev = &udev;
	udev.ud_intf[0].intf_class = USB_CLASS_MASS_STORAGE;
	udev.ud_intf[0].intf_subclass = USB_SC_SCSI;
	udev.ud_intf[0].intf_protocol = USB_PR_BULK;
	udev.ud_intf[0].intf_nep = 2;
	udev.ud_intf[0].intf_ep[0] = eps[0];
	udev.ud_intf[0].intf_ep[1] = eps[1];
	host_idle_hook = sim_idle;
	CHECK_EQ(drv->probe(&udev.ud_intf[0], &us_ids[0]), 0);
}

/* Unplug as the core does: the URB in flight fails -ENODEV, then disconnect. */
static void unplug(void)
{
	sim.gone = true;
	if (sim.urb)
		urb_complete(-ENODEV, 0);
	drv->disconnect(&udev.ud_intf[0]);
	run_deferred_work();
}

static struct us_data *us(void)
{
	return usb_get_intfdata(&udev.ud_intf[0]);
}

static struct request_queue *queue(void)
{
	return host_disks[host_nr_disks - 1]->gd_queue;
}

/* Start a bio; the caller waits with wait_bio. */
static struct bio *start_bio(u32 rw, sector_t sector, u32 nr, u32 gen, int slot)
{
	struct bio *b = tbio_slot(HOST_MEM_NORMAL, rw, sector, nr, 0, slot);

	if (rw & REQ_WRITE)
		tbio_stamp(b, gen);
	blk_queue_submit_bio(queue(), b);
	blk_unplug(queue());
	return b;
}

static int wait_bio(struct bio *b, int slot, sector_t sector, u32 gen, bool check)
{
	long spins = 0;
	int err;

	while (!tres[slot].r_calls && ++spins < 1000000)
		cpu_idle_once();
	CHECK_EQ(tres[slot].r_calls, 1);
	err = tres[slot].r_error;
	if (check && !err && !(b->bi_rw & REQ_WRITE))
		CHECK(tbio_check(b, sector, gen));
	tbio_free(b);
	return err;
}

static int io(u32 rw, sector_t sector, u32 nr, u32 gen, bool check)
{
	return wait_bio(start_bio(rw, sector, nr, gen, 0), 0, sector, gen, check);
}

static void setup(void)
{

	bio_init_pools();
	host_gendisk_reset();
	if (!drv)
		us_init();
	sim.max_lun = 0;
}

static void test_probe_and_rw(void)
{
	long pages = host_pages_live;
	char rep[512];

	setup();
	sim.max_lun = 0xff;	/* GET MAX LUN stalled: one unit */
	plug();
	CHECK_EQ(host_nr_disks, 1);
	CHECK_STR(host_disks[0]->gd_name, "sda");
	CHECK_STR(host_disks[0]->gd_model, "SIM USB Stick");
	CHECK_EQ(get_capacity(host_disks[0]), SIM_BLOCKS);
	CHECK_EQ(us()->us_nluns, 1);
	CHECK_EQ(sim.resets, 0);	/* MODE SENSE refused: sense fetched, no reset */
	/* 1000 sectors: split at 240, 128 entries of page pieces. */
	CHECK_EQ(io(REQ_WRITE, 10, 1000, 4, false), 0);
	CHECK_EQ(io(0, 10, 1000, 4, true), 0);
	CHECK_EQ(io(0, 500, 7, 4, true), 0);
	CHECK_EQ(io(REQ_WRITE | REQ_PREFLUSH, 0, 8, 5, false), 0);
	CHECK_EQ(io(0, 0, 8, 5, true), 0);
	CHECK(host_disks[0]->gd_fops->bdo_report(host_disks[0], rep, sizeof(rep)) > 0);
	CHECK(strstr(rep, "transport usb-storage bulk-only\nusb 1.2 speed high") != NULL);
	unplug();
	CHECK_EQ(host_pages_live, pages);
	CHECK_EQ(udev.ud_refs, 1);
}

/*
 * 1 MiB at sector 1024 from one block of contiguous pages: one command,
 * its data in 64 KiB pieces (16, or 17 if the block is not 64 KiB
 * aligned).  A read checks what the write before it stamped.
 */
static void contiguous_mib(u32 rw)
{
	struct page *pg = alloc_pages(GFP_KERNEL, 8);
	struct bio *b = bio_alloc(GFP_NOIO, 256);
	u32 i, cbws = sim.cbws;

	CHECK(pg != NULL);
	b->bi_rw = rw;
	b->bi_iter.bi_sector = 1024;
	for (i = 0; i < 256; i++)
		CHECK_EQ(bio_add_page(b, pg + i, PAGE_SIZE, 0), 0);
	tres[0].r_calls = 0;
	b->bi_private = &tres[0];
	b->bi_end_io = tbio_endio;
	if (rw & REQ_WRITE)
		tbio_stamp(b, 7);
	blk_queue_submit_bio(queue(), b);
	blk_unplug(queue());
	while (!tres[0].r_calls)
		cpu_idle_once();
	CHECK_EQ(tres[0].r_error, 0);
	CHECK_EQ(sim.cbws - cbws, 1);
	CHECK(sim.data_nsg >= 16 && sim.data_nsg <= 17);
	if (!(rw & REQ_WRITE))
		CHECK(tbio_check(b, 1024, 7));
	bio_put(b);
	__free_pages(pg, 8);
}

/*
 * SuperSpeed: 1 MiB a command, as Linux's usb-storage, and contiguous
 * memory goes in pieces of up to 64 KiB (one xHCI TRB each) rather than
 * a page at a time.
 */
static void test_superspeed_big_commands(void)
{
	setup();
	sim.speed = USB_SPEED_SUPER;
	plug();
	sim.speed = 0;
	contiguous_mib(REQ_WRITE);
	contiguous_mib(0);
	unplug();
}

static void test_multi_lun(void)
{
	setup();
	sim.max_lun = 1;
	plug();
	CHECK_EQ(host_nr_disks, 2);
	CHECK_STR(host_disks[1]->gd_name, "sdb");
	/* Both units run through the one transport. */
	{
		struct bio *a, *b;

		a = tbio_slot(HOST_MEM_NORMAL, 0, 0, 64, 0, 0);
		b = tbio_slot(HOST_MEM_NORMAL, 0, 64, 64, 0, 1);
		blk_queue_submit_bio(host_disks[0]->gd_queue, a);
		blk_queue_submit_bio(host_disks[1]->gd_queue, b);
		blk_unplug(host_disks[0]->gd_queue);
		blk_unplug(host_disks[1]->gd_queue);
		CHECK_EQ(wait_bio(a, 0, 0, 0, false), 0);
		CHECK_EQ(wait_bio(b, 1, 0, 0, false), 0);
	}
	unplug();
}

static void test_sense(void)
{
	setup();
	plug();
	CHECK_EQ(io(REQ_WRITE, 0, 64, 1, false), 0);
	sim.bad_lba = 20;
	CHECK_EQ(io(0, 16, 8, 1, false), -EIO);	/* the failing read only */
	CHECK_EQ(io(0, 0, 16, 1, true), 0);
	CHECK_EQ(sim.resets, 0);
	unplug();
}

static void test_stalls(void)
{
	setup();
	plug();
	CHECK_EQ(io(REQ_WRITE, 0, 64, 2, false), 0);
	/* Data stage stalled halfway: clear bulk-in, read the CSW; the read fails short. */
	sim.stall_data = true;
	CHECK_EQ(io(0, 0, 64, 2, false), -EIO);
	CHECK_EQ(sim.clears, 1);
	CHECK_EQ(sim.resets, 0);
	CHECK_EQ(io(0, 0, 64, 2, true), 0);
	/* CSW stalled once: clear, read again, the command succeeds. */
	sim.stall_csw = true;
	CHECK_EQ(io(0, 0, 64, 2, true), 0);
	CHECK_EQ(sim.clears, 2);
	CHECK_EQ(sim.resets, 0);
	CHECK_EQ(us()->us_stalls, 2);
	unplug();
}

static void test_reset_recovery(void)
{
	u32 resets;

	setup();
	plug();
	CHECK_EQ(io(REQ_WRITE, 0, 64, 3, false), 0);
	/* Phase error: reset recovery (class reset, both pipes), the command fails. */
	sim.phase_error = true;
	CHECK_EQ(io(0, 0, 8, 3, false), -EIO);
	CHECK_EQ(sim.resets, 1);
	CHECK_EQ(sim.clears, 2);
	CHECK_EQ(io(0, 0, 8, 3, true), 0);
	/* A CSW with a stale tag is not believed. */
	sim.bad_tag = true;
	CHECK_EQ(io(0, 0, 8, 3, false), -EIO);
	CHECK_EQ(sim.resets, 2);
	/* A stalled CBW. */
	sim.stall_cbw = true;
	CHECK_EQ(io(0, 0, 8, 3, false), -EIO);
	CHECK_EQ(sim.resets, 3);
	CHECK(!sim.halted[0] && !sim.halted[1]);
	resets = sim.resets;
	CHECK_EQ(io(0, 0, 64, 3, true), 0);
	CHECK_EQ(sim.resets, resets);
	unplug();
}

static void test_timeout(void)
{
	setup();
	plug();
	/* The stick stops answering: the request times out, the rest of the disk lives. */
	sim.hang = true;
	CHECK_EQ(io(0, 0, 8, 0, false), -ETIMEDOUT);
	CHECK_EQ(us()->us_cmd, &us()->us_sd[0]->sd_cmd);	/* still the transport's */
	run_deferred_work();		/* the recovery: kill, reset */
	CHECK_EQ(sim.resets, 1);
	CHECK(us()->us_cmd == NULL);
	CHECK_EQ(io(REQ_WRITE, 0, 8, 6, false), 0);
	CHECK_EQ(io(0, 0, 8, 6, true), 0);
	unplug();
}

static void test_unplug_during_io(void)
{
	long pages;
	struct bio *a, *b;

	setup();
	pages = host_pages_live;
	plug();
	a = start_bio(0, 0, 64, 0, 0);
	b = start_bio(0, 1024, 64, 0, 1);	/* queued behind a */
	/* a's CBW is out; pull the stick. */
	CHECK(sim.urb != NULL);
	unplug();
	CHECK_EQ(wait_bio(a, 0, 0, 0, false), -ENODEV);
	CHECK(wait_bio(b, 1, 0, 0, false) != 0);
	CHECK_EQ(host_pages_live, pages);
	CHECK_EQ(udev.ud_refs, 1);
	/* Plugged again: the same name, working. */
	plug();
	CHECK_STR(host_disks[host_nr_disks - 1]->gd_name, "sda");
	CHECK_EQ(io(REQ_WRITE, 0, 8, 7, false), 0);
	CHECK_EQ(io(0, 0, 8, 7, true), 0);
	unplug();
}

static void test_unplug_during_recovery(void)
{
	long pages;
	struct bio *a;

	setup();
	pages = host_pages_live;
	plug();
	sim.phase_error = true;
	a = start_bio(0, 0, 8, 0, 0);
	/* Run the stick until the recovery work is scheduled, then unplug before it runs. */
	while (!us()->us_work_busy && tres[0].r_calls == 0)
		sim_idle();
	CHECK(us()->us_work_busy);
	sim.gone = true;
	drv->disconnect(&udev.ud_intf[0]);
	run_deferred_work();
	CHECK_EQ(wait_bio(a, 0, 0, 0, false), -ENODEV);
	CHECK_EQ(host_pages_live, pages);
	CHECK_EQ(udev.ud_refs, 1);
}

static const struct unit_case cases[] = {
	{ "probe_and_rw", test_probe_and_rw },
	{ "superspeed_big_commands", test_superspeed_big_commands },
	{ "multi_lun", test_multi_lun },
	{ "sense", test_sense },
	{ "stalls", test_stalls },
	{ "reset_recovery", test_reset_recovery },
	{ "timeout", test_timeout },
	{ "unplug_during_io", test_unplug_during_io },
	{ "unplug_during_recovery", test_unplug_during_recovery },
};

UNIT_MAIN("usb_storage", cases)
