/*
 * PS/2 keyboard through the i8042 controller, so that the shell works on
 * a PC's own screen and keyboard (USB keyboards have their own driver,
 * drivers/usb/usb_kbd.c, once the xHCI driver takes the controller from
 * the firmware's legacy emulation).
 *
 * The firmware leaves the controller translating to scan code set 1; keys
 * go to kbd_key() (kernel/kbd.c), which turns them into characters and
 * the ANSI sequences a serial terminal sends, as for USB keyboards.  A
 * missing controller (status 0xFF) is left alone.
 */
#include "kernel/console.h"
#include "kernel/kbd.h"
#include "kernel/init.h"
#include "kernel/io.h"
#include "kernel/irq.h"
#include "kernel/errno.h"
#include "kernel/printk.h"

#define I8042_DATA		0x60
#define I8042_STATUS		0x64
#define  I8042_STATUS_OBF	0x01	/* output buffer full: a byte to read */
#define  I8042_STATUS_AUX	0x20	/* the byte is from the mouse port */
#define I8042_IRQ		1
#define I8042_FLUSH_MAX		64	/* stale bytes to drain at start */

#define SC_RELEASE		0x80
#define SC_EXTENDED		0xE0

struct kbd {
	struct kbd_state	state;
	bool			extended;	/* the last byte was the E0 prefix */
};

static struct kbd kbd0;

/* One byte of scan code set 1: E0 prefixes the next; bit 7 is release. */
static void kbd_scancode(struct kbd *k, u8 sc)
{
	bool ext = k->extended;

	if (sc == SC_EXTENDED) {
		k->extended = true;
		return;
	}
	k->extended = false;
	kbd_key(&k->state, sc & (u8)~SC_RELEASE, ext, sc & SC_RELEASE);
}

static irqreturn_t kbd_interrupt(unsigned irq, void *data)
{
	struct kbd *k = data;
	u8 st = inb(I8042_STATUS);

	if (!(st & I8042_STATUS_OBF))
		return IRQ_NONE;
	if (st & I8042_STATUS_AUX) {
		(void)inb(I8042_DATA);
		return IRQ_HANDLED;
	}
	kbd_scancode(k, inb(I8042_DATA));
	return IRQ_HANDLED;
}

static int kbd_init(void)
{
	int i;

	if (inb(I8042_STATUS) == 0xFF)
		return -ENODEV;
	for (i = 0; i < I8042_FLUSH_MAX && (inb(I8042_STATUS) & I8042_STATUS_OBF); i++)
		(void)inb(I8042_DATA);
	return request_irq(I8042_IRQ, kbd_interrupt, &kbd0, "keyboard");
}
arch_initcall(kbd_init);
