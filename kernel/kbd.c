/*
 * Keys to characters for the console input ring (interface in kbd.h):
 * US layout, shift and caps lock, ctrl turning letters into control
 * characters (Ctrl-C = 3), and the cursor block as ANSI escape sequences,
 * so the line editor sees the same bytes from any keyboard as from a
 * serial terminal.
 */
#include "kernel/kbd.h"
#include "kernel/console.h"
#include "kernel/compiler.h"

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

void kbd_key(struct kbd_state *k, u8 code, bool extended, bool release)
{
	char c;

	if (extended) {
		if (code == KBD_SC_CTRL)
			k->ks_ctrl = !release;
		else if (!release)
			kbd_extended(code);
		return;
	}
	switch (code) {
	case KBD_SC_LSHIFT:
	case KBD_SC_RSHIFT:
		k->ks_shift = !release;
		return;
	case KBD_SC_CTRL:
		k->ks_ctrl = !release;
		return;
	case KBD_SC_CAPS:
		if (!release)
			k->ks_caps = !k->ks_caps;
		return;
	}
	if (release || code >= sizeof(keymap[0]))
		return;
	c = keymap[k->ks_shift][code];
	if (k->ks_caps && c >= 'a' && c <= 'z')
		c = (char)(c - 'a' + 'A');
	else if (k->ks_caps && c >= 'A' && c <= 'Z')
		c = (char)(c - 'A' + 'a');
	if (k->ks_ctrl && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
		c = (char)((c & 0x1f));		/* Ctrl-A = 1 ... Ctrl-Z = 26 */
	if (c)
		console_input(c);
}
