/*
 * The framebuffer console: text drawn on the linear framebuffer the boot
 * loader set up (UEFI GOP, or VBE when GRUB's gfxpayload asks for it),
 * for machines with no VGA text mode.  It is one more struct console
 * (kernel/console.h): everything printed goes to it and to the serial
 * line alike.
 *
 * kernel/fbcon_draw.c is the pixel side -- pixel formats of 16, 24 and
 * 32 bits, any pitch, glyphs from a PSF font -- a pure function of a
 * struct fb_info, host-tested.  kernel/fbcon.c is the text side: a shadow
 * of the screen's characters (scrolling moves text there, never reads the
 * framebuffer), colours for log levels, and redraws of what changed.
 * The glyphs are Terminus fonts from Debian's console-setup, converted at
 * build time by tools/psf2c.py into fbcon_fonts[].
 */
#ifndef KERNEL_FBCON_H
#define KERNEL_FBCON_H

#include "kernel/compiler.h"

/* One bitmap font: 256 glyphs by Latin-1 code point, rows of ff_stride bytes, MSB leftmost. */
struct fbcon_font {
	const char	*ff_name;
	u8		ff_width, ff_height;	/* pixels */
	u8		ff_stride;		/* bytes per glyph row */
	const u8	*ff_glyphs;		/* 256 * ff_height * ff_stride bytes */
};

/* Generated (build/gen/fbcon_font.c), smallest font first. */
extern const struct fbcon_font fbcon_fonts[];
extern const unsigned fbcon_nr_fonts;

/* A framebuffer, mapped. */
struct fb_info {
	u8	*fi_base;		/* pixel (0, 0) */
	u32	fi_pitch;		/* bytes from one scan line to the next */
	u32	fi_width, fi_height;	/* visible pixels */
	u8	fi_bpp;			/* 16, 24 or 32 */
	u8	fi_red_pos, fi_red_size;	/* bit position and width of each */
	u8	fi_green_pos, fi_green_size;	/* channel in a pixel */
	u8	fi_blue_pos, fi_blue_size;
};

/* kernel/fbcon_draw.c */
/* Can this be drawn on (bpp 16/24/32, channels within the pixel, sizes sane)? */
bool fb_format_ok(const struct fb_info *fi);
/* The pixel value of colour (r, g, b), 8 bits each, in fi's format. */
u32 fb_color(const struct fb_info *fi, u8 r, u8 g, u8 b);
/* Fill the w x h rectangle at (x, y) with pixel value px; clipped to the screen. */
void fb_fill(const struct fb_info *fi, u32 x, u32 y, u32 w, u32 h, u32 px);
/* Draw character ch of font f with its top-left pixel at (x, y); the cell must fit. */
void fb_draw_glyph(const struct fb_info *fi, const struct fbcon_font *f, u32 x, u32 y,
		   u8 ch, u32 fg, u32 bg);
/*
 * The font for a screen: about 60-70 text rows whatever the resolution
 * (8x16 up to 1200 lines, 12x24 up to 1800, 16x32 above: a 4K screen),
 * and never fewer than 80 columns while a smaller font gives them.
 */
const struct fbcon_font *fbcon_pick_font(u32 width, u32 height);

/* kernel/fbcon.c: start the console on boot_info.fb, if it is a usable RGB one (after mm_init). */
void fbcon_init(void);
/*
 * One line on the console in use: "1920x1080 32 bpp pitch 7680 at ...
 * font ... text 240x67" into buf.  The snprintf count, or -ENODEV when
 * there is no framebuffer console.
 */
int fbcon_describe(char *buf, size_t len);

#endif
