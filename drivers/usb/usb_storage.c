/*
 * USB mass storage, Bulk-Only Transport (BOT 1.0): the SCSI transport
 * under the sd disks of a stick.  A class driver (drivers/usb/usb.h)
 * bound to interfaces of class 08h, subclass 06h (SCSI), protocol 50h.
 *
 * probe: the bulk-in and bulk-out endpoints, GET MAX LUN (BOT 3.2; a
 *   stall means one unit), then sd_probe for every unit: the disks are
 *   named sdX in the sequence the SATA disks use.
 * sho_queuecommand (an sd queue lock held): one command at a time for
 *   the whole interface; the phases run from URB completions, in
 *   interrupt context: CBW out, data in or out straight from the
 *   request's pages, CSW in (bot_check_csw).  A FAILED status fetches
 *   the sense with REQUEST SENSE before the command is handed back
 *   (auto-sense, as sd expects).  Stalls, phase errors, bad CSWs and
 *   timeouts go to recovery (usb_storage_eh.c).
 * disconnect: the USB core has failed every URB with -ENODEV; the
 *   command held (if any) is handed back with -ENODEV and every disk is
 *   removed (sd_remove: del_gendisk).  A stick plugged in again is a new
 *   device and a new probe, and takes the lowest free names.
 */
#include "drivers/scsi/scsi.h"
#include "drivers/usb/usb_storage_priv.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/mm/page.h"
#include "kernel/mm/slab.h"
#include "kernel/printk.h"
#include "lib/string.h"

#define US_MAX_SECTORS_HS	240u	/* 512-byte sectors per command below SuperSpeed,
					   as Linux's usb-storage: some sticks choke on more */
#define US_MAX_SECTORS_SS	2048u	/* SuperSpeed: 1 MiB, as Linux's usb-storage */
_Static_assert(US_MAX_SECTORS_SS * 512u <= USB_URB_MAX_LEN, "a command's data is one URB");
#define US_MAX_LUN_TIMEOUT_MS	2000u	/* ms: GET MAX LUN */

const char *const us_state_names[US_NR_STATES] = {
	[US_IDLE] = "idle", [US_CBW] = "cbw", [US_DATA] = "data", [US_CSW] = "csw",
	[US_SENSE_CBW] = "sense-cbw", [US_SENSE_DATA] = "sense-data",
	[US_SENSE_CSW] = "sense-csw", [US_RECOVER] = "recover",
};

static void us_urb_done(struct urb *urb);

/* The command the current phases belong to: us_cmd or its REQUEST SENSE. */
static struct scsi_cmnd *us_phase_cmd(struct us_data *us)
{
	return us->us_state >= US_SENSE_CBW && us->us_state <= US_SENSE_CSW ? &us->us_sense
									   : us->us_cmd;
}

/* Submit us_urb; a failure goes to recovery (or hands back -ENODEV).  us_lock held. */
static void __us_submit(struct us_data *us)
{
	int ret = usb_submit_urb(&us->us_urb);

	if (!ret)
		return;
	if (ret == -ENODEV) {
		us->us_gone = true;
		__us_schedule_eh(us, 0, -ENODEV);
		return;
	}
	pr_err("%s: cannot submit a transfer in phase %s (%d)\n", us->us_name,
	       us_state_names[us->us_state], ret);
	__us_schedule_eh(us, US_EH_RESET, -EIO);
}

/* Phase 1: the CBW for the phase command, tagged anew.  us_lock held. */
static void __us_send_cbw(struct us_data *us)
{
	struct bot_cbw *cbw = (struct bot_cbw *)(us->us_iobuf + US_IOBUF_CBW);
	struct scsi_cmnd *cmd = us_phase_cmd(us);

	us->us_tag++;
	us->us_moved = 0;
	if (bot_build_cbw(cbw, us->us_tag, cmd)) {
		__us_schedule_eh(us, 0, -EINVAL);
		return;
	}
	usb_fill_urb(&us->us_urb, us->us_udev, us->us_ep_out, cbw, BOT_CBW_LEN, us_urb_done, us);
	__us_submit(us);
}

/* Phase 2: the data, from the command's scatter/gather list.  us_lock held. */
static void __us_send_data(struct us_data *us)
{
	struct scsi_cmnd *cmd = us_phase_cmd(us);
	u8 ep = cmd->sc_dir == SCSI_DIR_IN ? us->us_ep_in : us->us_ep_out;
	u32 i;

	if (cmd == &us->us_sense) {
		usb_fill_urb(&us->us_urb, us->us_udev, ep, us->us_iobuf + US_IOBUF_SENSE,
			     cmd->sc_len, us_urb_done, us);
		__us_submit(us);
		return;
	}
	if (cmd->sc_nsg > USB_URB_MAX_SG) {
		__us_schedule_eh(us, US_EH_RESET, -EINVAL);
		return;
	}
	usb_fill_urb(&us->us_urb, us->us_udev, ep, NULL, cmd->sc_len, us_urb_done, us);
	for (i = 0; i < cmd->sc_nsg; i++) {
		dma_addr_t a = cmd->sc_sg[i].sg_addr;

		/* The queue's limits keep each entry inside 64 KiB: one TRB. */
		us->us_sg[i].sg_page = pfn_to_page(a >> PAGE_SHIFT);
		us->us_sg[i].sg_offset = (u32)(a & (PAGE_SIZE - 1));
		us->us_sg[i].sg_len = cmd->sc_sg[i].sg_len;
	}
	us->us_urb.urb_sg = us->us_sg;
	us->us_urb.urb_nsg = cmd->sc_nsg;
	__us_submit(us);
}

void __us_read_csw(struct us_data *us)
{
	usb_fill_urb(&us->us_urb, us->us_udev, us->us_ep_in, us->us_iobuf + US_IOBUF_CSW,
		     BOT_CSW_LEN, us_urb_done, us);
	__us_submit(us);
}

void __us_finish(struct us_data *us, int result, unsigned long flags)
{
	struct scsi_cmnd *cmd = us->us_cmd;
	struct sd_disk *sds[US_MAX_LUNS];
	u32 i, n = 0;

	us->us_cmd = NULL;
	us->us_state = US_IDLE;
	us->us_aborting = false;
	if (cmd)
		us->us_cmds++;
	for (i = 0; i < us->us_nluns; i++)
		if (us->us_sd[i] && (!cmd || i != cmd->sc_lun))
			sds[n++] = us->us_sd[i];
	spin_unlock_irqrestore(&us->us_lock, flags);
	if (!cmd)
		goto kick;
	if (result)
		cmd->sc_result = result;
	DPRINTF(US_D_CMD, "%s: op %02x done: result %d status %02x resid %u\n", us->us_name,
		cmd->sc_cdb[0], cmd->sc_result, cmd->sc_status, cmd->sc_resid);
	cmd->sc_done(cmd);
kick:
	/* Units that found the transport busy try again. */
	for (i = 0; i < n; i++)
		sd_run_queue(sds[i]);
}

/*
 * The CSW arrived and was checked: finish the command, or fetch its
 * sense first.  Returns true when the command is to be handed back
 * (us_lock still held).
 */
static bool __us_csw_done(struct us_data *us, enum bot_csw_verdict v, u32 resid)
{
	struct scsi_cmnd *cmd = us->us_cmd;
	bool sense = us->us_state == US_SENSE_CSW;

	if (v == BOT_CSW_PHASE_ERROR || v == BOT_CSW_INVALID) {
		pr_err("%s: %s CSW for op %02x; resetting\n", us->us_name, bot_csw_verdict_name(v),
		       us_phase_cmd(us)->sc_cdb[0]);
		__us_schedule_eh(us, US_EH_RESET, -EIO);
		return false;
	}
	if (sense) {
		/* The sense arrived (or not): the original command failed. */
		cmd->sc_status = SAM_STAT_CHECK_CONDITION;
		cmd->sc_sense_len = 0;
		if (v == BOT_CSW_GOOD) {
			u32 got = us->us_sense.sc_len - resid;

			memcpy(cmd->sc_sense, us->us_iobuf + US_IOBUF_SENSE, got);
			cmd->sc_sense_len = (u8)got;
		}
		return true;
	}
	cmd->sc_resid = resid;
	if (v == BOT_CSW_GOOD) {
		cmd->sc_status = SAM_STAT_GOOD;
		return true;
	}
	/* FAILED: ask why (SPC-4 5.12: the sense is kept until REQUEST SENSE). */
	scsi_build_request_sense(&us->us_sense, SCSI_SENSE_BUF_LEN);
	us->us_sense.sc_lun = cmd->sc_lun;
	us->us_state = US_SENSE_CBW;
	__us_send_cbw(us);
	return false;
}

/* A URB of the current phase ended.  Interrupt context. */
static void us_urb_done(struct urb *urb)
{
	struct us_data *us = urb->urb_context;
	int st = urb->urb_status;
	enum bot_csw_verdict v;
	unsigned long flags;
	u32 resid;

	spin_lock_irqsave(&us->us_lock, flags);
	DPRINTF(US_D_CMD, "%s: %s urb status %d actual %u\n", us->us_name,
		us_state_names[us->us_state], st, urb->urb_actual);
	if (!us->us_cmd || us->us_state == US_RECOVER || us->us_state == US_IDLE)
		goto out;	/* the work owns it (a killed URB) */
	if (st == -ENODEV || us->us_gone) {
		us->us_gone = true;
		__us_finish(us, -ENODEV, flags);
		return;
	}
	if (us->us_aborting) {
		__us_schedule_eh(us, US_EH_RESET, -ETIMEDOUT);
		goto out;
	}
	switch (us->us_state) {
	case US_CBW:
	case US_SENSE_CBW:
		if (st || urb->urb_actual != BOT_CBW_LEN) {
			/* BOT 6.6.1: a CBW the device does not take calls for reset recovery. */
			pr_err("%s: CBW not taken (%d); resetting\n", us->us_name, st);
			__us_schedule_eh(us, US_EH_RESET, -EIO);
			break;
		}
		if (us_phase_cmd(us)->sc_len && us_phase_cmd(us)->sc_dir != SCSI_DIR_NONE) {
			us->us_state++;
			__us_send_data(us);
		} else {
			us->us_state += 2;
			__us_read_csw(us);
		}
		break;
	case US_DATA:
	case US_SENSE_DATA:
		us->us_moved = urb->urb_actual;
		us->us_state++;
		if (st == -EPIPE) {
			/* BOT 6.7.2/6.7.3: clear the halted pipe, then read the CSW. */
			us->us_stalls++;
			__us_schedule_eh(us, (urb->urb_ep & USB_DIR_IN ? US_EH_CLEAR_IN :
					      US_EH_CLEAR_OUT) | US_EH_CSW, 0);
			break;
		}
		if (st) {
			pr_err("%s: data stage failed (%d); resetting\n", us->us_name, st);
			__us_schedule_eh(us, US_EH_RESET, -EIO);
			break;
		}
		__us_read_csw(us);
		break;
	case US_CSW:
	case US_SENSE_CSW:
		if (st == -EPIPE && !us->us_csw_retried) {
			/* BOT 5.3.3 figure 2: clear bulk-in and read the CSW once more. */
			us->us_stalls++;
			us->us_csw_retried = true;
			__us_schedule_eh(us, US_EH_CLEAR_IN | US_EH_CSW, 0);
			break;
		}
		if (st) {
			pr_err("%s: no CSW (%d); resetting\n", us->us_name, st);
			__us_schedule_eh(us, US_EH_RESET, -EIO);
			break;
		}
		us->us_csw_retried = false;
		v = bot_check_csw(us->us_iobuf + US_IOBUF_CSW, urb->urb_actual, us->us_tag,
				  us_phase_cmd(us)->sc_len, us->us_moved, &resid);
		if (__us_csw_done(us, v, resid)) {
			__us_finish(us, 0, flags);
			return;
		}
		break;
	default:
		break;
	}
out:
	spin_unlock_irqrestore(&us->us_lock, flags);
}

/* sho_queuecommand: start cmd, or say why not.  The unit's queue lock held. */
static int us_queuecommand(void *host, struct scsi_cmnd *cmd)
{
	struct us_data *us = host;
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&us->us_lock, flags);
	if (us->us_gone)
		ret = -ENODEV;
	else if (us->us_cmd || us->us_work_busy)
		ret = -EBUSY;
	if (ret)
		goto out;
	cmd->sc_status = 0;
	cmd->sc_resid = cmd->sc_len;
	cmd->sc_result = 0;
	cmd->sc_sense_len = 0;
	us->us_cmd = cmd;
	us->us_csw_retried = false;
	us->us_state = US_CBW;
	__us_send_cbw(us);
out:
	spin_unlock_irqrestore(&us->us_lock, flags);
	return ret;
}

/* sho_abort: sd timed cmd out.  Cancel what is in flight; the work resets. */
static void us_abort(void *host, struct scsi_cmnd *cmd)
{
	struct us_data *us = host;
	unsigned long flags;

	spin_lock_irqsave(&us->us_lock, flags);
	if (us->us_cmd == cmd && us->us_state != US_RECOVER) {
		us->us_aborting = true;
		__us_schedule_eh(us, US_EH_KILL | US_EH_RESET, -ETIMEDOUT);
	}
	spin_unlock_irqrestore(&us->us_lock, flags);
}

static int us_report(void *host, char *buf, size_t len)
{
	struct us_data *us = host;
	int n;

	n = snprintf(buf, len,
		     "transport usb-storage bulk-only\nusb %s speed %s id %04x:%04x\n"
		     "luns %u commands %llu resets %u stalls %u\n",
		     us->us_udev->ud_path, usb_speed_name(us->us_udev->ud_speed),
		     le16_to_cpu(us->us_udev->ud_desc.idVendor),
		     le16_to_cpu(us->us_udev->ud_desc.idProduct), us->us_nluns,
		     (unsigned long long)us->us_cmds, us->us_resets, us->us_stalls);
	if (n < 0)
		return -EINVAL;
	return (size_t)n < len ? n : (int)len - 1;
}

static const struct scsi_host_ops us_host_ops = {
	.sho_queuecommand	= us_queuecommand,
	.sho_abort		= us_abort,
	.sho_report		= us_report,
};

/* BOT 3.2 GET MAX LUN: units on the interface, 1 if the device stalls it. */
static u8 us_get_nluns(struct us_data *us)
{
	int ret;

	ret = usb_control_msg(us->us_udev, USB_DIR_IN | USB_TYPE_CLASS | USB_RECIP_INTERFACE,
			      USB_BOT_REQ_GET_MAX_LUN, 0, us->us_ifnum, us->us_iobuf, 1,
			      US_MAX_LUN_TIMEOUT_MS);
	if (ret != 1 || us->us_iobuf[0] > USB_BOT_MAX_LUN)
		return 1;
	return (u8)min(us->us_iobuf[0] + 1u, (unsigned)US_MAX_LUNS);
}

void us_free(struct us_data *us)
{
	usb_put_dev(us->us_udev);
	kfree(us->us_iobuf);
	kfree(us);
}

static int us_probe(struct usb_interface *intf, const struct usb_device_id *id)
{
	struct usb_device *udev = intf->intf_dev;
	struct usb_host_endpoint *in, *out;
	struct scsi_host_limits lim;
	struct us_data *us;
	char where[48];
	u32 lun, found = 0;
	int ret;

	in = usb_find_endpoint(intf, USB_ENDPOINT_XFER_BULK, USB_DIR_IN);
	out = usb_find_endpoint(intf, USB_ENDPOINT_XFER_BULK, USB_DIR_OUT);
	if (!in || !out) {
		pr_err("usb-storage %s: no bulk endpoint pair\n", udev->ud_path);
		return -ENODEV;
	}
	us = kzalloc(sizeof(*us), GFP_KERNEL);
	if (!us)
		return -ENOMEM;
	us->us_iobuf = kzalloc(US_IOBUF_LEN, GFP_KERNEL);
	if (!us->us_iobuf) {
		kfree(us);
		return -ENOMEM;
	}
	spin_lock_init(&us->us_lock, "us_lock");
	work_init(&us->us_work, us_eh_work);
	us->us_udev = usb_get_dev(udev);
	us->us_intf = intf;
	us->us_ifnum = intf->intf_number;
	us->us_ep_in = in->ep_addr;
	us->us_ep_out = out->ep_addr;
	snprintf(us->us_name, sizeof(us->us_name), "usb-storage %s", udev->ud_path);
	us->us_nluns = us_get_nluns(us);
	usb_set_intfdata(intf, us);
	pr_info("%s: bulk-only, %s speed, %u unit%s\n", us->us_name,
		usb_speed_name(udev->ud_speed), us->us_nluns, us->us_nluns == 1 ? "" : "s");

	memset(&lim, 0, sizeof(lim));
	lim.shl_max_sectors = udev->ud_speed >= USB_SPEED_SUPER ? US_MAX_SECTORS_SS
								 : US_MAX_SECTORS_HS;
	lim.shl_max_segments = USB_URB_MAX_SG;
	/* A segment within one 64 KiB block is one TRB on xHCI (xHCI 1.2, 6.4.1.1). */
	lim.shl_max_segment_size = 64 * 1024;
	lim.shl_seg_boundary = 64 * 1024 - 1;
	lim.shl_dma_alignment = 3;
	lim.shl_dma_limit = BLK_BOUNCE_NONE;	/* usb.h: highmem pages are fine */
	for (lun = 0; lun < us->us_nluns; lun++) {
		struct sd_disk *sd = NULL;
		unsigned long flags;

		snprintf(where, sizeof(where), "usb %s lun %u", udev->ud_path, lun);
		ret = sd_probe(&us_host_ops, us, &lim, (u8)lun, where, &sd);
		if (ret == -ENODEV && us->us_gone)
			break;
		if (ret)
			continue;	/* reported; the other units may work */
		spin_lock_irqsave(&us->us_lock, flags);
		us->us_sd[lun] = sd;
		spin_unlock_irqrestore(&us->us_lock, flags);
		found++;
	}
	if (found)
		return 0;
	usb_set_intfdata(intf, NULL);
	pr_info("%s: no usable unit\n", us->us_name);
	/* Nothing attached; the work (if a probe command needed recovery) may still run. */
	{
		unsigned long flags;
		bool later;

		spin_lock_irqsave(&us->us_lock, flags);
		us->us_gone = true;
		later = us->us_work_busy;
		us->us_free_pending = later;
		spin_unlock_irqrestore(&us->us_lock, flags);
		if (!later)
			us_free(us);
	}
	return -ENODEV;
}

static void us_disconnect(struct usb_interface *intf)
{
	struct us_data *us = usb_get_intfdata(intf);
	struct sd_disk *sds[US_MAX_LUNS];
	unsigned long flags;
	bool later;
	u32 i;

	if (!us)
		return;
	spin_lock_irqsave(&us->us_lock, flags);
	us->us_gone = true;
	if (us->us_cmd) {
		/* The core completed our URBs; the command waits for recovery or nothing. */
		us->us_eh_flags = 0;
		__us_finish(us, -ENODEV, flags);
		spin_lock_irqsave(&us->us_lock, flags);
	}
	for (i = 0; i < US_MAX_LUNS; i++) {
		sds[i] = us->us_sd[i];
		us->us_sd[i] = NULL;
	}
	later = us->us_work_busy;
	us->us_free_pending = later;
	spin_unlock_irqrestore(&us->us_lock, flags);
	pr_info("%s: unplugged\n", us->us_name);
	for (i = 0; i < US_MAX_LUNS; i++)
		if (sds[i])
			sd_remove(sds[i]);
	usb_set_intfdata(intf, NULL);
	if (!later)
		us_free(us);
}

static const struct usb_device_id us_ids[] = {
	{ USB_INTERFACE_INFO(USB_CLASS_MASS_STORAGE, USB_SC_SCSI, USB_PR_BULK) },
	{ 0 }
};

static const struct usb_driver us_driver = {
	.name		= "usb-storage",
	.id_table	= us_ids,
	.probe		= us_probe,
	.disconnect	= us_disconnect,
};

static int us_init(void)
{
	return usb_register_driver(&us_driver);
}
device_initcall(us_init);
