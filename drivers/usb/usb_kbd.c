/*
 * USB HID boot-protocol keyboards (HID 1.11, 7.2.5 SET_PROTOCOL, 7.2.4
 * SET_IDLE, Appendix B.1 the boot keyboard report; HID Usage Tables 1.12,
 * 10 Keyboard/Keypad page).  Each keyboard's 8-byte reports (modifier
 * byte, reserved, six key usages) arrive on its interrupt IN endpoint;
 * keys new in a report are pressed, keys gone from it released, and the
 * presses go through kbd_key() (kernel/kbd.c) as set 1 codes, so line
 * editing, Ctrl-C and the cursor keys behave as on PS/2 and serial.
 *
 * With SET_IDLE(0) a keyboard reports only changes, so key repeat is ours:
 * a timer per keyboard re-presses the last key pressed after
 * USB_KBD_DELAY_MS and then every USB_KBD_RATE_MS while it is held.
 * Several keyboards each have their own state.  Report handling and the
 * timer run in interrupt context; probe and disconnect do not.
 */
#include "drivers/usb/usb.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/kbd.h"
#include "kernel/mm/slab.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"
#include "kernel/timer.h"
#include "lib/string.h"

#define HID_REQ_SET_IDLE	0x0a
#define HID_REQ_SET_PROTOCOL	0x0b
#define HID_PROTOCOL_BOOT	0
#define HID_SUBCLASS_BOOT	1
#define HID_PROTOCOL_KEYBOARD	1
#define HID_BOOT_REPORT		8	/* bytes */
#define HID_ERR_ROLLOVER	0x01	/* usage: too many keys down */

#define USB_KBD_DELAY_MS	500	/* first repeat */
#define USB_KBD_RATE_MS		33	/* then about 30 per second */

/* Modifier byte bits (HID B.1) to set 1 codes; right ctrl is extended. */
static const struct { u8 code; bool ext; } usb_kbd_mods[8] = {
	{ KBD_SC_CTRL, false }, { KBD_SC_LSHIFT, false }, { 0x38, false }, { 0, false },
	{ KBD_SC_CTRL, true }, { KBD_SC_RSHIFT, false }, { 0x38, true }, { 0, false },
};

/* Keyboard page usages 0x04-0x39 to set 1 make codes (US layout). */
static const u8 usb_kbd_set1[0x3a] = {
	[0x04] = 0x1e, 0x30, 0x2e, 0x20, 0x12, 0x21, 0x22, 0x23, 0x17, 0x24, 0x25, 0x26,
	0x32, 0x31, 0x18, 0x19, 0x10, 0x13, 0x1f, 0x14, 0x16, 0x2f, 0x11, 0x2d, 0x15, 0x2c,
	[0x1e] = 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,
	[0x28] = 0x1c, 0x01, 0x0e, 0x0f, 0x39, 0x0c, 0x0d, 0x1a, 0x1b, 0x2b, 0x2b, 0x27,
	0x28, 0x29, 0x33, 0x34, 0x35, 0x3a,
};

struct usb_kbd {
	struct usb_device	*k_dev;		/* [I] */
	struct urb		k_urb;		/* the report URB */
	u8			*k_report;	/* lowmem, HID_BOOT_REPORT bytes */
	u8			k_old[HID_BOOT_REPORT];	/* [k] the previous report */
	struct kbd_state	k_state;	/* [k] */
	struct timer_list	k_repeat;
	u8			k_rep_usage;	/* [k] key being repeated, 0 none */
	spinlock_t		k_lock;		/* [k] report vs repeat timer */
	bool			k_stopping;	/* [k] disconnect: no resubmit, no repeat */
};

/* Usage to set 1 code and extended flag; false for keys we do not type. */
static bool usb_kbd_code(u8 usage, u8 *code, bool *ext)
{
	*ext = false;
	if (usage < ARRAY_SIZE(usb_kbd_set1) && usb_kbd_set1[usage]) {
		*code = usb_kbd_set1[usage];
		return true;
	}
	*ext = true;
	switch (usage) {
	case 0x4a: *code = 0x47; return true;	/* Home */
	case 0x4c: *code = 0x53; return true;	/* Delete */
	case 0x4d: *code = 0x4f; return true;	/* End */
	case 0x4f: *code = 0x4d; return true;	/* Right */
	case 0x50: *code = 0x4b; return true;	/* Left */
	case 0x51: *code = 0x50; return true;	/* Down */
	case 0x52: *code = 0x48; return true;	/* Up */
	case 0x58: *code = 0x1c; return true;	/* Keypad Enter */
	case 0x55: *code = 0x37; *ext = false; return true;	/* Keypad * */
	default: return false;
	}
}

static void usb_kbd_press(struct usb_kbd *k, u8 usage, bool release)
{
	u8 code;
	bool ext;

	if (usb_kbd_code(usage, &code, &ext))
		kbd_key(&k->k_state, code, ext, release);
}

static bool usb_kbd_has(const u8 *report, u8 usage)
{
	unsigned i;

	for (i = 2; i < HID_BOOT_REPORT; i++)
		if (report[i] == usage)
			return true;
	return false;
}

/* k_lock held: the difference between the previous report and r. */
static void usb_kbd_report(struct usb_kbd *k, const u8 *r)
{
	unsigned i;

	if (r[2] == HID_ERR_ROLLOVER)
		return;		/* phantom state: keep the old one */
	for (i = 0; i < 8; i++) {
		u8 bit = (u8)(1u << i);

		if (usb_kbd_mods[i].code && ((r[0] ^ k->k_old[0]) & bit))
			kbd_key(&k->k_state, usb_kbd_mods[i].code, usb_kbd_mods[i].ext,
				!(r[0] & bit));
	}
	for (i = 2; i < HID_BOOT_REPORT; i++)
		if (k->k_old[i] > HID_ERR_ROLLOVER && !usb_kbd_has(r, k->k_old[i])) {
			usb_kbd_press(k, k->k_old[i], true);
			if (k->k_rep_usage == k->k_old[i])
				k->k_rep_usage = 0;
		}
	for (i = 2; i < HID_BOOT_REPORT; i++)
		if (r[i] > HID_ERR_ROLLOVER && !usb_kbd_has(k->k_old, r[i])) {
			usb_kbd_press(k, r[i], false);
			k->k_rep_usage = r[i];
			mod_timer(&k->k_repeat, get_jiffies_64() + msecs_to_jiffies(USB_KBD_DELAY_MS));
		}
	memcpy(k->k_old, r, HID_BOOT_REPORT);
}

static void usb_kbd_repeat(struct timer_list *t)
{
	struct usb_kbd *k = container_of(t, struct usb_kbd, k_repeat);
	unsigned long flags;

	spin_lock_irqsave(&k->k_lock, flags);
	if (k->k_rep_usage && !k->k_stopping) {
		usb_kbd_press(k, k->k_rep_usage, false);
		mod_timer(&k->k_repeat, get_jiffies_64() + msecs_to_jiffies(USB_KBD_RATE_MS));
	}
	spin_unlock_irqrestore(&k->k_lock, flags);
}

static void usb_kbd_complete(struct urb *urb)
{
	struct usb_kbd *k = urb->urb_context;
	unsigned long flags;
	int ret;

	if (urb->urb_status == -ENODEV || urb->urb_status == -ECONNRESET)
		return;
	spin_lock_irqsave(&k->k_lock, flags);
	if (urb->urb_status == 0 && urb->urb_actual >= 3)
		usb_kbd_report(k, k->k_report);
	spin_unlock_irqrestore(&k->k_lock, flags);
	if (urb->urb_status && urb->urb_status != -EPROTO && urb->urb_status != -EOVERFLOW) {
		pr_err("usb %u-%s: keyboard: %s; stopped\n", k->k_dev->ud_busnum,
		       k->k_dev->ud_path, errstr(urb->urb_status));
		return;
	}
	if (k->k_stopping)
		return;
	ret = usb_submit_urb(urb);
	if (ret && ret != -ENODEV)
		pr_err("usb %u-%s: keyboard: resubmit failed (%s)\n", k->k_dev->ud_busnum,
		       k->k_dev->ud_path, errstr(ret));
}

static int usb_kbd_probe(struct usb_interface *intf, const struct usb_device_id *id)
{
	struct usb_device *dev = intf->intf_dev;
	struct usb_host_endpoint *ep = usb_find_endpoint(intf, USB_ENDPOINT_XFER_INT, USB_DIR_IN);
	struct usb_kbd *k;
	int ret;

	if (!ep)
		return -ENODEV;
	k = kzalloc(sizeof(*k), GFP_KERNEL);
	if (!k)
		return -ENOMEM;
	k->k_report = kzalloc(HID_BOOT_REPORT, GFP_KERNEL);
	ret = -ENOMEM;
	if (!k->k_report)
		goto free;
	k->k_dev = dev;
	spin_lock_init(&k->k_lock, "usb_kbd");
	timer_setup(&k->k_repeat, usb_kbd_repeat);
	ret = usb_control_msg(dev, USB_DIR_OUT | USB_TYPE_CLASS | USB_RECIP_INTERFACE,
			      HID_REQ_SET_PROTOCOL, HID_PROTOCOL_BOOT, intf->intf_number, NULL, 0,
			      USB_CTRL_TIMEOUT_MS);
	if (ret < 0)
		goto free;
	/* SET_IDLE is optional for keyboards (HID 7.2.4): a stall is fine. */
	usb_control_msg(dev, USB_DIR_OUT | USB_TYPE_CLASS | USB_RECIP_INTERFACE, HID_REQ_SET_IDLE,
			0, intf->intf_number, NULL, 0, USB_CTRL_TIMEOUT_MS);
	usb_fill_urb(&k->k_urb, dev, ep->ep_addr, k->k_report,
		     min(HID_BOOT_REPORT, (unsigned)ep->ep_maxp), usb_kbd_complete, k);
	usb_set_intfdata(intf, k);
	ret = usb_submit_urb(&k->k_urb);
	if (ret)
		goto unset;
	pr_info("usb %u-%s: keyboard\n", dev->ud_busnum, dev->ud_path);
	return 0;
unset:
	usb_set_intfdata(intf, NULL);
free:
	kfree(k->k_report);
	kfree(k);
	return ret;
}

static void usb_kbd_disconnect(struct usb_interface *intf)
{
	struct usb_kbd *k = usb_get_intfdata(intf);
	unsigned long flags;

	spin_lock_irqsave(&k->k_lock, flags);
	k->k_stopping = true;
	k->k_rep_usage = 0;
	del_timer(&k->k_repeat);
	spin_unlock_irqrestore(&k->k_lock, flags);
	usb_kill_urb(&k->k_urb);
	usb_set_intfdata(intf, NULL);
	kfree(k->k_report);
	kfree(k);
}

static const struct usb_device_id usb_kbd_ids[] = {
	{ USB_INTERFACE_INFO(USB_CLASS_HID, HID_SUBCLASS_BOOT, HID_PROTOCOL_KEYBOARD) },
	{ 0 }
};

static const struct usb_driver usb_kbd_driver = {
	.name = "usbkbd",
	.id_table = usb_kbd_ids,
	.probe = usb_kbd_probe,
	.disconnect = usb_kbd_disconnect,
};

static int usb_kbd_init(void)
{
	return usb_register_driver(&usb_kbd_driver);
}
device_initcall(usb_kbd_init);
