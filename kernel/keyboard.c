/*
 * PS/2 keyboard through the i8042 controller, so that the shell works on
 * a PC's own screen and keyboard (a USB keyboard too, while the firmware's
 * legacy emulation presents it as PS/2: the kernel never touches USB).
 *
 * The firmware leaves the controller translating to scan code set 1; keys
 * become characters for the console input ring, and the cursor keys the
 * same ANSI sequences a serial terminal sends, so the line editor sees
 * one language.  A missing controller (status 0xFF) is left alone.
 */
#include "kernel/console.h"
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
#define SC_LSHIFT		0x2A
#define SC_RSHIFT		0x36
#define SC_CTRL			0x1D
#define SC_CAPS			0x3A

struct kbd {
	bool	shift, ctrl, caps, extended;
};

static struct kbd kbd0;

/* Scan code set 1, unshifted and shifted, for the keys that type text. */
static const char keymap[2][0x3A] = {
	{ 0, 27, '1', '2', '3', '4', '5', '6', '7', '8', '9', '0', '-', '=', 0x7f,
	  '\t', 'q', 'w', 'e', 'r', 't', 'y', 'u', 'i', 'o', 'p', '[', ']', '\r',
	  0, 'a', 's', 'd', 'f', 'g', 'h', 'j', 'k', 'l', ';', '\'', '`',
	  0, '\\', 'z', 'x', 'c', 'v', 'b', 'n', 'm', ',', '.', '/', 0, '*', 0, ' ' },
	{ 0, 27, '!', '@', '#', '$', '%', '^', '&', '*', '(', ')', '_', '+', 0x7f,
	  '\t', 'Q', 'W', 'E', 'R', 'T', 'Y', 'U', 'I', 'O', 'P', '{', '}', '\r',
	  0, 'A', 'S', 'D', 'F', 'G', 'H', 'J', 'K', 'L', ':', '"', '~',
	  0, '|', 'Z', 'X', 'C', 'V', 'B', 'N', 'M', '<', '>', '?', 0, '*', 0, ' ' },
};

static void input_seq(const char *s)
{
	while (*s)
		console_input(*s++);
}

static void kbd_extended(u8 code)
{
	switch (code) {
	case 0x48: input_seq("\033[A"); break;	/* up */
	case 0x50: input_seq("\033[B"); break;	/* down */
	case 0x4D: input_seq("\033[C"); break;	/* right */
	case 0x4B: input_seq("\033[D"); break;	/* left */
	case 0x47: input_seq("\033[H"); break;	/* home */
	case 0x4F: input_seq("\033[F"); break;	/* end */
	case 0x53: input_seq("\033[3~"); break;	/* delete */
	case 0x1C: console_input('\r'); break;	/* keypad enter */
	}
}

static void kbd_scancode(struct kbd *k, u8 sc)
{
	bool release = sc & SC_RELEASE;
	u8 code = sc & (u8)~SC_RELEASE;
	char c;

	if (sc == SC_EXTENDED) {
		k->extended = true;
		return;
	}
	if (k->extended) {
		k->extended = false;
		if (code == SC_CTRL)
			k->ctrl = !release;
		else if (!release)
			kbd_extended(code);
		return;
	}
	switch (code) {
	case SC_LSHIFT:
	case SC_RSHIFT:
		k->shift = !release;
		return;
	case SC_CTRL:
		k->ctrl = !release;
		return;
	case SC_CAPS:
		if (!release)
			k->caps = !k->caps;
		return;
	}
	if (release || code >= sizeof(keymap[0]))
		return;
	c = keymap[k->shift][code];
	if (k->caps && c >= 'a' && c <= 'z')
		c = (char)(c - 'a' + 'A');
	else if (k->caps && c >= 'A' && c <= 'Z')
		c = (char)(c - 'A' + 'a');
	if (k->ctrl && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
		c = (char)((c & 0x1f));		/* Ctrl-A = 1 ... Ctrl-Z = 26 */
	if (c)
		console_input(c);
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
