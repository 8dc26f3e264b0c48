/*
 * Host tests of kernel/fbcon_draw.c: pixel packing at 16, 24 and 32 bits
 * per pixel, glyphs drawn from the real (generated) Terminus fonts into a
 * framebuffer whose pitch is wider than its visible width -- every pixel
 * checked against the font's bitmap, and the bytes past the visible width
 * of each line never written -- and the font chosen for a resolution.
 */
#include "tests/unit/unit.h"
#include "kernel/fbcon.h"

#define W	100
#define H	40
#define PAD	24		/* bytes past the visible width in each line */
#define CANARY	0xa5

static u8 mem[H * (W * 4 + PAD)];

static void setup(struct fb_info *fi, u8 bpp)
{
	memset(fi, 0, sizeof(*fi));
	memset(mem, CANARY, sizeof(mem));
	fi->fi_base = mem;
	fi->fi_bpp = bpp;
	fi->fi_width = W;
	fi->fi_height = H;
	fi->fi_pitch = W * (bpp / 8) + PAD;
	if (bpp == 16) {	/* RGB 5:6:5 */
		fi->fi_red_pos = 11; fi->fi_red_size = 5;
		fi->fi_green_pos = 5; fi->fi_green_size = 6;
		fi->fi_blue_pos = 0; fi->fi_blue_size = 5;
	} else {		/* x:8:8:8 */
		fi->fi_red_pos = 16; fi->fi_red_size = 8;
		fi->fi_green_pos = 8; fi->fi_green_size = 8;
		fi->fi_blue_pos = 0; fi->fi_blue_size = 8;
	}
}

static u32 pixel(const struct fb_info *fi, u32 x, u32 y)
{
	const u8 *p = fi->fi_base + y * fi->fi_pitch + x * (fi->fi_bpp / 8);
	u32 v = 0, i;

	for (i = 0; i < fi->fi_bpp / 8u; i++)
		v |= (u32)p[i] << (8 * i);
	return v;
}

static void test_color(void)
{
	struct fb_info fi;

	setup(&fi, 16);
	CHECK_EQ(fb_color(&fi, 255, 255, 255), 0xffff);
	CHECK_EQ(fb_color(&fi, 255, 0, 0), 0xf800);
	CHECK_EQ(fb_color(&fi, 0, 255, 0), 0x07e0);
	setup(&fi, 32);
	CHECK_EQ(fb_color(&fi, 0x12, 0x34, 0x56), 0x123456);
	CHECK(fb_format_ok(&fi));
	fi.fi_bpp = 8;
	CHECK(!fb_format_ok(&fi));
	setup(&fi, 32);
	fi.fi_pitch = W * 4 - 1;	/* a pitch shorter than a line */
	CHECK(!fb_format_ok(&fi));
}

/* Every font, every depth: the glyph's bits exactly, nothing past the width. */
static void test_pitch(void)
{
	static const u8 depths[] = { 16, 24, 32 };
	struct fb_info fi;
	unsigned d, fno, x, y;

	for (fno = 0; fno < fbcon_nr_fonts; fno++) {
		const struct fbcon_font *f = &fbcon_fonts[fno];
		u32 cx = (W / f->ff_width - 1) * f->ff_width;	/* the last whole cell */

		for (d = 0; d < sizeof(depths); d++) {
			u32 fg, bg;

			setup(&fi, depths[d]);
			fg = fb_color(&fi, 255, 255, 255);
			bg = fb_color(&fi, 0, 0, 170);
			fb_fill(&fi, 0, 0, W, H, 0);
			fb_draw_glyph(&fi, f, cx, 2, 'A', fg, bg);
			for (y = 0; y < f->ff_height; y++) {
				const u8 *g = f->ff_glyphs + ('A' * f->ff_height + y) * f->ff_stride;
				u32 bits = f->ff_stride > 1 ? (u32)g[0] << 8 | g[1] : g[0];

				for (x = 0; x < f->ff_width; x++) {
					bool on = bits & (1u << (f->ff_stride * 8 - 1 - x));

					if (pixel(&fi, cx + x, 2 + y) != (on ? fg : bg)) {
						unit_fail(__FILE__, __LINE__, "%s %u bpp: pixel (%u,%u)",
							  f->ff_name, depths[d], x, y);
						return;
					}
				}
			}
			for (y = 0; y < H; y++)
				for (x = W * (depths[d] / 8); x < fi.fi_pitch; x++)
					if (mem[y * fi.fi_pitch + x] != CANARY) {
						unit_fail(__FILE__, __LINE__, "%u bpp: line %u byte %u past the width written",
							  depths[d], y, x);
						return;
					}
		}
	}
}

static void test_fill_clips(void)
{
	struct fb_info fi;
	u32 y;

	setup(&fi, 32);
	fb_fill(&fi, W - 2, H - 2, 50, 50, 0x00ffffff);
	CHECK_EQ(pixel(&fi, W - 1, H - 1), 0x00ffffff);
	CHECK_EQ(pixel(&fi, W - 3, H - 1), 0xa5a5a5a5);
	for (y = 0; y < H; y++)
		CHECK_EQ(mem[y * fi.fi_pitch + W * 4], CANARY);
	fb_fill(&fi, W, 0, 5, 5, 0);	/* entirely off screen: nothing */
}

static void test_pick_font(void)
{
	CHECK_EQ(fbcon_pick_font(1920, 1080)->ff_height, 16);
	CHECK_EQ(fbcon_pick_font(1024, 768)->ff_height, 16);
	CHECK_EQ(fbcon_pick_font(2560, 1440)->ff_height, 24);
	CHECK_EQ(fbcon_pick_font(3840, 2160)->ff_height, 32);
	CHECK_EQ(fbcon_pick_font(800, 2000)->ff_height, 16);	/* 80 columns first */
	CHECK_EQ(fbcon_pick_font(1, 1)->ff_height, 16);
}

static const struct unit_case cases[] = {
	{ "color", test_color },
	{ "pitch", test_pitch },
	{ "fill_clips", test_fill_clips },
	{ "pick_font", test_pick_font },
};

UNIT_MAIN("fbcon", cases)
