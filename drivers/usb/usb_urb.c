/*
 * USB transfers for class drivers: URB submission and cancellation, the
 * synchronous control and bulk calls built on them, halt recovery, and
 * descriptor and string reads (USB 2.0, 9.4.3 GET_DESCRIPTOR, 9.4.1
 * CLEAR_FEATURE, 9.6.7 string descriptors).  Contract in usb.h.
 *
 * A synchronous call submits a URB whose completion records the result
 * and completes a struct completion, then waits (bounded); on timeout it
 * cancels the URB and waits, again bounded, for the cancel to finish, so
 * the caller's buffer is free when it returns.
 */
#include "drivers/usb/usb_hcd.h"
#include "kernel/completion.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/mm/slab.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "lib/string.h"

#define USB_KILL_MS		(3 * 1000)	/* a cancel takes a Stop Endpoint and a Set TR Dequeue */

int usb_submit_urb(struct urb *urb)
{
	struct usb_device *dev = urb->urb_dev;

	if (!dev || !urb->urb_complete)
		return -EINVAL;
	if (usb_device_gone(dev))
		return -ENODEV;
	if ((urb->urb_ep & USB_ENDPOINT_NUMBER_MASK) == 0)
		return -EINVAL;		/* ep0 belongs to usb_control_msg */
	return dev->ud_bus->ub_ops->submit(dev->ud_bus, urb, NULL);
}

int usb_unlink_urb(struct urb *urb)
{
	if (!urb->urb_active)
		return -ENOENT;
	return urb->urb_dev->ud_bus->ub_ops->unlink(urb->urb_dev->ud_bus, urb);
}

/* Wait (bounded) until urb's completion ran; not in interrupt context. */
static void usb_wait_idle(struct urb *urb, u32 ms)
{
	u64 end = ktime_ms() + ms;

	while (READ_ONCE(urb->urb_active) && ktime_ms() < end)
		cpu_idle_once();
	if (READ_ONCE(urb->urb_active))
		pr_err("usb %u-%s: ep %02x: a cancelled transfer did not finish\n",
		       urb->urb_dev->ud_bus->ub_num, urb->urb_dev->ud_path, urb->urb_ep);
}

void usb_kill_urb(struct urb *urb)
{
	KASSERT(!in_interrupt());
	if (usb_unlink_urb(urb) == 0 || READ_ONCE(urb->urb_active))
		usb_wait_idle(urb, USB_KILL_MS);
}

/* The host controller finished urb (called without its locks; any context). */
void usb_urb_done(struct urb *urb, int status, u32 actual)
{
	urb->urb_status = status;
	urb->urb_actual = actual;
	barrier();
	WRITE_ONCE(urb->urb_active, false);
	urb->urb_complete(urb);
}

struct usb_sync {
	struct completion	us_done;
};

static void usb_sync_complete(struct urb *urb)
{
	struct usb_sync *s = urb->urb_context;

	complete(&s->us_done);
}

/* Submit (control when setup), wait, cancel on timeout. Returns status; *actual set. */
static int usb_sync_urb(struct urb *urb, const struct usb_ctrlrequest *setup, u32 timeout_ms)
{
	struct usb_device *dev = urb->urb_dev;
	struct usb_sync s;
	int ret;

	KASSERT(!in_interrupt());
	init_completion(&s.us_done);
	urb->urb_complete = usb_sync_complete;
	urb->urb_context = &s;
	if (usb_device_gone(dev))
		return -ENODEV;
	ret = dev->ud_bus->ub_ops->submit(dev->ud_bus, urb, setup);
	if (ret)
		return ret;
	if (wait_for_completion_timeout(&s.us_done, timeout_ms)) {
		usb_kill_urb(urb);
		if (urb->urb_status == -ECONNRESET || READ_ONCE(urb->urb_active))
			return -ETIMEDOUT;
	}
	return urb->urb_status;
}

int usb_control_msg(struct usb_device *dev, u8 request_type, u8 request,
		    u16 value, u16 index, void *data, u16 len, u32 timeout_ms)
{
	struct usb_ctrlrequest setup = {
		.bRequestType = request_type, .bRequest = request,
		.wValue = cpu_to_le16(value), .wIndex = cpu_to_le16(index),
		.wLength = cpu_to_le16(len),
	};
	struct urb urb;
	int ret;

	memset(&urb, 0, sizeof(urb));
	urb.urb_dev = dev;
	urb.urb_ep = request_type & USB_DIR_IN;
	urb.urb_buf = len ? data : NULL;
	urb.urb_len = len;
	ret = usb_sync_urb(&urb, &setup, timeout_ms);
	if (ret == -EPIPE || ret == -EPROTO || ret == -EOVERFLOW || ret == -ETIMEDOUT) {
		/* ep0 halts on a STALL too (xHCI 1.2, 4.8.3); it is ours to clear. */
		int r = dev->ud_bus->ub_ops->ep_reset(dev->ud_bus, dev, 0);

		if (r && r != -ENODEV)
			pr_err("usb %u-%s: ep0 reset failed (%s)\n", dev->ud_bus->ub_num,
			       dev->ud_path, errstr(r));
	}
	return ret ? ret : (int)urb.urb_actual;
}

int usb_bulk_msg(struct usb_device *dev, u8 ep, void *data, u32 len, u32 *actual,
		 u32 timeout_ms)
{
	struct urb urb;
	int ret;

	memset(&urb, 0, sizeof(urb));
	urb.urb_dev = dev;
	urb.urb_ep = ep;
	urb.urb_buf = data;
	urb.urb_len = len;
	if ((ep & USB_ENDPOINT_NUMBER_MASK) == 0)
		return -EINVAL;
	ret = usb_sync_urb(&urb, NULL, timeout_ms);
	if (actual)
		*actual = urb.urb_actual;
	return ret;
}

int usb_clear_halt(struct usb_device *dev, u8 ep)
{
	int ret;

	if (usb_device_gone(dev))
		return -ENODEV;
	ret = dev->ud_bus->ub_ops->ep_reset(dev->ud_bus, dev, ep);
	if (ret)
		return ret;
	ret = usb_control_msg(dev, USB_DIR_OUT | USB_TYPE_STANDARD | USB_RECIP_ENDPOINT,
			      USB_REQ_CLEAR_FEATURE, USB_ENDPOINT_HALT, ep, NULL, 0,
			      USB_CTRL_TIMEOUT_MS);
	return ret < 0 ? ret : 0;
}

int usb_get_descriptor(struct usb_device *dev, u8 type, u8 index, void *buf, u16 len)
{
	return usb_control_msg(dev, USB_DIR_IN | USB_TYPE_STANDARD | USB_RECIP_DEVICE,
			       USB_REQ_GET_DESCRIPTOR, (u16)(type << 8 | index), 0, buf, len,
			       USB_CTRL_TIMEOUT_MS);
}

#define USB_LANG_EN_US		0x0409

/* String descriptor index in US English, UTF-16LE folded to ASCII. */
int usb_string(struct usb_device *dev, u8 index, char *buf, size_t size)
{
	u8 *raw;
	int ret, i, n = 0;

	if (!size)
		return -EINVAL;
	buf[0] = 0;
	if (!index)
		return -ENOENT;
	raw = kmalloc(256, GFP_KERNEL);
	if (!raw)
		return -ENOMEM;
	ret = usb_control_msg(dev, USB_DIR_IN | USB_TYPE_STANDARD | USB_RECIP_DEVICE,
			      USB_REQ_GET_DESCRIPTOR, (u16)(USB_DT_STRING << 8 | index),
			      USB_LANG_EN_US, raw, 255, USB_CTRL_TIMEOUT_MS);
	if (ret < 2 || raw[1] != USB_DT_STRING) {
		ret = ret < 0 ? ret : -EIO;
		goto out;
	}
	if (raw[0] < ret)
		ret = raw[0];
	for (i = 2; i + 1 < ret && (size_t)n + 1 < size; i += 2) {
		u16 c = (u16)(raw[i] | raw[i + 1] << 8);

		buf[n++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	while (n > 0 && buf[n - 1] == ' ')
		n--;
	buf[n] = 0;
	ret = n;
out:
	kfree(raw);
	return ret;
}
