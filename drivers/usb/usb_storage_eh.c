/*
 * Bulk-Only Transport recovery, in deferred work (it waits for control
 * transfers, which interrupt context cannot):
 *
 *   kill		a timed-out command's URB is cancelled (usb_kill_urb)
 *   reset recovery	BOT 5.3.4: the Bulk-Only Mass Storage Reset class
 *			request (3.1), then CLEAR_FEATURE(ENDPOINT_HALT) on
 *			bulk-in and bulk-out -- after a phase error, an
 *			invalid CSW, a refused CBW, a timeout
 *   clear halt		a stalled data stage (BOT 6.7.2 host case Hi < Di,
 *			6.7.3 Ho <> Do) or a stalled CSW read (5.3.3): clear
 *			the pipe, then read the CSW (again) and carry on
 *
 * Every step is bounded (US_RESET_TIMEOUT_MS, the core's own bounds).
 * The command being recovered is handed back with the result recorded
 * when recovery was asked for; if the device is gone meanwhile, with
 * -ENODEV.  While the work is scheduled or running the transport takes
 * no new command (-EBUSY), and disconnect leaves freeing to it.
 */
#include "drivers/scsi/scsi.h"
#include "drivers/usb/usb_storage_priv.h"
#include "kernel/errno.h"
#include "kernel/printk.h"

void __us_schedule_eh(struct us_data *us, u32 flags, int result)
{
	assert_spin_locked(&us->us_lock);
	if (us->us_state != US_RECOVER)
		us->us_eh_resume = us->us_state;
	us->us_state = US_RECOVER;
	us->us_eh_flags |= flags;
	if (!us->us_eh_result)
		us->us_eh_result = result;
	us->us_work_busy = true;
	schedule_work(&us->us_work);
}

/* BOT 5.3.4: class reset, then both bulk pipes.  0 or -errno (reported). */
static int us_reset_recovery(struct us_data *us)
{
	int ret;

	us->us_resets++;	/* [w]: only read for reports */
	pr_warn("%s: bulk-only reset recovery\n", us->us_name);
	ret = usb_control_msg(us->us_udev, USB_DIR_OUT | USB_TYPE_CLASS | USB_RECIP_INTERFACE,
			      USB_BOT_REQ_RESET, 0, us->us_ifnum, NULL, 0, US_RESET_TIMEOUT_MS);
	if (ret < 0)
		goto fail;
	ret = usb_clear_halt(us->us_udev, us->us_ep_in);
	if (ret)
		goto fail;
	ret = usb_clear_halt(us->us_udev, us->us_ep_out);
	if (ret)
		goto fail;
	return 0;

fail:
	if (ret != -ENODEV)
		pr_err("%s: reset recovery failed (%d)\n", us->us_name, ret);
	return ret;
}

void us_eh_work(struct work *w)
{
	struct us_data *us = container_of(w, struct us_data, us_work);
	unsigned long flags;
	u32 todo;
	int ret = 0, result;

	spin_lock_irqsave(&us->us_lock, flags);
	todo = us->us_eh_flags;
	us->us_eh_flags = 0;
	spin_unlock_irqrestore(&us->us_lock, flags);
	DPRINTF(US_D_EH, "%s: recovery %#x\n", us->us_name, todo);

	if (todo & US_EH_KILL)
		usb_kill_urb(&us->us_urb);	/* its completion sees US_RECOVER and returns */
	if (todo & US_EH_RESET)
		ret = us_reset_recovery(us);
	if (!ret && (todo & US_EH_CLEAR_IN))
		ret = usb_clear_halt(us->us_udev, us->us_ep_in);
	if (!ret && (todo & US_EH_CLEAR_OUT))
		ret = usb_clear_halt(us->us_udev, us->us_ep_out);
	if (ret && ret != -ENODEV && !(todo & US_EH_RESET) && us_reset_recovery(us) == -ENODEV)
		ret = -ENODEV;

	spin_lock_irqsave(&us->us_lock, flags);
	if (ret == -ENODEV)
		us->us_gone = true;
	if (us->us_free_pending) {
		/* disconnect ran while we waited: it handed the command back. */
		spin_unlock_irqrestore(&us->us_lock, flags);
		us_free(us);
		return;
	}
	if (us->us_eh_flags) {
		/* More was asked for while we worked: go round again. */
		schedule_work(&us->us_work);
		spin_unlock_irqrestore(&us->us_lock, flags);
		return;
	}
	us->us_work_busy = false;
	result = us->us_eh_result;
	us->us_eh_result = 0;
	if (!us->us_cmd) {
		__us_finish(us, 0, flags);	/* nothing to hand back; units run again */
		return;
	}
	if (!ret && !us->us_gone && (todo & US_EH_CSW) && !result) {
		/* The pipe is clear: the CSW (of the command or its sense) is next. */
		us->us_state = us->us_eh_resume;
		KASSERT(us->us_state == US_CSW || us->us_state == US_SENSE_CSW);
		__us_read_csw(us);
		spin_unlock_irqrestore(&us->us_lock, flags);
		return;
	}
	if (us->us_gone)
		result = -ENODEV;
	else if (!result)
		result = ret ? ret : -EIO;
	__us_finish(us, result, flags);
}
