/*
 * Framebuffer drawing for the console (kernel/fbcon.h): pixel values,
 * rectangle fills and glyphs, on a linear framebuffer of 16, 24 or 32
 * bits per pixel with any pitch (a scan line may be longer than the
 * visible width: the loader's or the card's choice, Multiboot 2.0 3.6.12
 * "framebuffer_pitch").
 *
 * Pure: it touches only the memory fi describes, so the host tests draw
 * into an array (tests/unit/test_fbcon.c).  Writes only -- nothing here
 * reads the framebuffer back, which on real hardware is uncached and
 * slow to read.  Pixels are stored little-endian, the x86 framebuffer
 * byte order; 24-bit pixels are three bytes, lowest first.
 */
#include "kernel/fbcon.h"

#define FB_FONT_ROWS_SMALL	1200	/* up to this many scan lines: 8x16 */
#define FB_FONT_ROWS_MEDIUM	1800	/* up to this many: 12x24; above: 16x32 */
#define FB_MIN_COLS		80

bool fb_format_ok(const struct fb_info *fi)
{
	if (fi->fi_bpp != 16 && fi->fi_bpp != 24 && fi->fi_bpp != 32)
		return false;
	if (!fi->fi_red_size || fi->fi_red_size > 8 || fi->fi_red_pos + fi->fi_red_size > fi->fi_bpp)
		return false;
	if (!fi->fi_green_size || fi->fi_green_size > 8 ||
	    fi->fi_green_pos + fi->fi_green_size > fi->fi_bpp)
		return false;
	if (!fi->fi_blue_size || fi->fi_blue_size > 8 ||
	    fi->fi_blue_pos + fi->fi_blue_size > fi->fi_bpp)
		return false;
	return fi->fi_width && fi->fi_height && fi->fi_pitch >= fi->fi_width * (fi->fi_bpp / 8u);
}

u32 fb_color(const struct fb_info *fi, u8 r, u8 g, u8 b)
{
	return ((u32)(r >> (8 - fi->fi_red_size)) << fi->fi_red_pos) |
	       ((u32)(g >> (8 - fi->fi_green_size)) << fi->fi_green_pos) |
	       ((u32)(b >> (8 - fi->fi_blue_size)) << fi->fi_blue_pos);
}

static inline void put_pixel(u8 *p, u8 bpp, u32 px)
{
	switch (bpp) {
	case 32:
		*(volatile u32 *)p = px;
		break;
	case 24:
		p[0] = (u8)px;
		p[1] = (u8)(px >> 8);
		p[2] = (u8)(px >> 16);
		break;
	default:
		*(volatile u16 *)p = (u16)px;
		break;
	}
}

void fb_fill(const struct fb_info *fi, u32 x, u32 y, u32 w, u32 h, u32 px)
{
	u32 bytes = fi->fi_bpp / 8u, i, j;

	if (x >= fi->fi_width || y >= fi->fi_height)
		return;
	w = min(w, fi->fi_width - x);
	h = min(h, fi->fi_height - y);
	for (j = 0; j < h; j++) {
		u8 *row = fi->fi_base + (size_t)(y + j) * fi->fi_pitch + (size_t)x * bytes;

		if (fi->fi_bpp == 32) {
			u32 *d = (u32 *)row;

			for (i = 0; i < w; i++)
				d[i] = px;
			continue;
		}
		for (i = 0; i < w; i++)
			put_pixel(row + i * bytes, fi->fi_bpp, px);
	}
}

void fb_draw_glyph(const struct fb_info *fi, const struct fbcon_font *f, u32 x, u32 y,
		   u8 ch, u32 fg, u32 bg)
{
	const u8 *g = f->ff_glyphs + (size_t)ch * f->ff_height * f->ff_stride;
	u32 bytes = fi->fi_bpp / 8u, row, i, bits, top = 1u << (f->ff_stride * 8 - 1);

	for (row = 0; row < f->ff_height; row++, g += f->ff_stride) {
		u8 *p = fi->fi_base + (size_t)(y + row) * fi->fi_pitch + (size_t)x * bytes;

		bits = g[0];
		if (f->ff_stride > 1)
			bits = bits << 8 | g[1];
		if (fi->fi_bpp == 32) {	/* the common case, kept tight */
			u32 *d = (u32 *)p;

			for (i = 0; i < f->ff_width; i++)
				d[i] = (bits & (top >> i)) ? fg : bg;
			continue;
		}
		for (i = 0; i < f->ff_width; i++, p += bytes)
			put_pixel(p, fi->fi_bpp, (bits & (top >> i)) ? fg : bg);
	}
}

const struct fbcon_font *fbcon_pick_font(u32 width, u32 height)
{
	unsigned want = 0, i;

	if (height > FB_FONT_ROWS_MEDIUM)
		want = 2;
	else if (height > FB_FONT_ROWS_SMALL)
		want = 1;
	want = min(want, fbcon_nr_fonts - 1);
	for (i = want; i > 0; i--)	/* step down while the columns are too few */
		if (width / fbcon_fonts[i].ff_width >= FB_MIN_COLS)
			break;
	return &fbcon_fonts[i];
}
