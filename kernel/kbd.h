/*
 * Keyboard keys to console input, shared by every keyboard driver (the
 * PS/2 one in kernel/keyboard.c, USB HID in drivers/usb/usb_kbd.c): a key
 * is named by its scan code set 1 make code plus the E0 "extended" flag,
 * and kbd_key() turns presses into characters and the ANSI sequences a
 * serial terminal sends (cursor keys, Home, End, Delete), tracking shift,
 * ctrl and caps lock per keyboard.  Callable from interrupt context.
 */
#ifndef KERNEL_KBD_H
#define KERNEL_KBD_H

#include "kernel/types.h"

/* Set 1 make codes the drivers name. */
#define KBD_SC_LSHIFT		0x2A
#define KBD_SC_RSHIFT		0x36
#define KBD_SC_CTRL		0x1D
#define KBD_SC_CAPS		0x3A

/* One keyboard's modifier state. */
struct kbd_state {
	bool	ks_shift;
	bool	ks_ctrl;
	bool	ks_caps;
};

/**
 * kbd_key - one key going down (or being repeated) or up
 * @k: the keyboard's state
 * @code: scan code set 1 make code (without the release bit)
 * @extended: the key is an E0-prefixed one (cursor block, right ctrl...)
 * @release: true when the key goes up
 */
void kbd_key(struct kbd_state *k, u8 code, bool extended, bool release);

#endif
