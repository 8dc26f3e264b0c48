/*
 * The framebuffer console's text side (kernel/fbcon.h).
 *
 * A shadow of the screen holds every character cell (character and
 * colour); the screen is redrawn from it, cell by cell, wherever it
 * differs from what was last drawn (fc_shown).  Scrolling moves the
 * shadow's first row (a ring of rows), so it costs one row of writes to
 * memory and nothing read from the framebuffer; the redraw after a
 * scroll touches the whole screen, so while text scrolls redraws are at
 * most one per FBCON_REDRAW_MS, the last one from a timer: a `dmesg' of
 * the whole log ring draws the screen a few times, not a thousand.
 *
 * Output: printable Latin-1, \n, \r, \b, \t; the CSI sequences the shell
 * uses (ESC [ n C / D cursor right / left, K erase to the end of line,
 * 2J clear, H home); other sequences are swallowed.  A log message's
 * level picks its colour (console_write_level()).  The cursor is the
 * cell drawn in inverse colours.
 *
 * Lock legend: [f] fbcon_lock, taken with interrupts off (inside
 * console_write, or from the redraw timer): every field below but [I].
 * During a panic the lock is ignored and every write is drawn at once.
 */
#include "kernel/fbcon.h"
#include "kernel/bootinfo.h"
#include "kernel/console.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/selftest.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"
#include "kernel/timer.h"
#include "kernel/errno.h"
#include "kernel/mm/vmap.h"
#include "lib/string.h"

#define FBCON_REDRAW_MS		40	/* at most one whole-screen redraw per this, ms */
#define FBCON_TAB		8
#define FBCON_CSI_ARG_MAX	9999
#define FBCON_DEFAULT_ATTR	0x07	/* light grey on black, VGA attribute style */

/* VGA's sixteen colours (attribute nibble -> RGB). */
static const u8 vga_rgb[16][3] = {
	{ 0, 0, 0 }, { 0, 0, 170 }, { 0, 170, 0 }, { 0, 170, 170 },
	{ 170, 0, 0 }, { 170, 0, 170 }, { 170, 85, 0 }, { 170, 170, 170 },
	{ 85, 85, 85 }, { 85, 85, 255 }, { 85, 255, 85 }, { 85, 255, 255 },
	{ 255, 85, 85 }, { 255, 85, 255 }, { 255, 255, 85 }, { 255, 255, 255 },
};

/* Log level (KERN_EMERG 0 .. KERN_DEBUG 7) -> attribute. */
static const u8 level_attr[8] = {
	0x4f, 0x4f, 0x0c, 0x0c,		/* emerg, alert: white on red; crit, err: red */
	0x0e, 0x0f, 0x07, 0x08,		/* warning: yellow; notice: white; info; debug: grey */
};

enum fbcon_esc { ESC_NONE, ESC_SEEN, ESC_CSI };

struct fbcon {
	struct fb_info		fc_fb;		/* [I] */
	const struct fbcon_font	*fc_font;	/* [I] */
	unsigned		fc_cols, fc_rows;	/* [I] text grid */
	u32			fc_pixel[16];	/* [I] vga_rgb in the framebuffer's format */
	u16			*fc_text;	/* [f] rows x cols: char | attr << 8, a ring */
	u16			*fc_shown;	/* [f] what the screen shows, by screen row */
	unsigned		fc_top;		/* [f] fc_text row at the top of the screen */
	unsigned		fc_row, fc_col;	/* [f] cursor, screen coordinates */
	u8			fc_attr;	/* [f] colour of what is written now */
	enum fbcon_esc		fc_esc;		/* [f] inside an escape sequence */
	unsigned		fc_arg;		/* [f] its numeric argument */
	bool			fc_scrolled;	/* [f] scrolled since the last redraw */
	u64			fc_redrawn_ns;	/* [f] when the screen was last redrawn after a scroll */
	struct timer_list	fc_timer;	/* [f] the deferred redraw */
	spinlock_t		fc_lock;
	struct console		fc_con;
};

static struct fbcon fbcon0;
static bool fbcon_up;

static u16 *text_cell(struct fbcon *fc, unsigned row, unsigned col)
{
	return &fc->fc_text[((fc->fc_top + row) % fc->fc_rows) * fc->fc_cols + col];
}

static void clear_row(struct fbcon *fc, unsigned row, unsigned from)
{
	u16 *c = text_cell(fc, row, 0);
	unsigned i;

	for (i = from; i < fc->fc_cols; i++)
		c[i] = (u16)(FBCON_DEFAULT_ATTR << 8 | ' ');
}

/* Draw every cell whose shadow differs from the screen. */
static void redraw(struct fbcon *fc)
{
	const struct fbcon_font *f = fc->fc_font;
	unsigned r, c;

	for (r = 0; r < fc->fc_rows; r++) {
		const u16 *t = text_cell(fc, r, 0);
		u16 *s = &fc->fc_shown[r * fc->fc_cols];

		for (c = 0; c < fc->fc_cols; c++) {
			u16 v = t[c];
			u8 attr;

			if (r == fc->fc_row && c == fc->fc_col)	/* cursor: inverse */
				v = (u16)((v & 0xff) | (u16)((v >> 12 & 0xf) | (v >> 8 & 0xf) << 4) << 8);
			if (s[c] == v)
				continue;
			s[c] = v;
			attr = (u8)(v >> 8);
			fb_draw_glyph(&fc->fc_fb, f, c * f->ff_width, r * f->ff_height, (u8)v,
				      fc->fc_pixel[attr & 0xf], fc->fc_pixel[attr >> 4]);
		}
	}
	if (fc->fc_scrolled)
		fc->fc_redrawn_ns = ktime_ns();
	fc->fc_scrolled = false;
}

/* After output: redraw now, unless text scrolled too recently (then the timer will). */
static void redraw_soon(struct fbcon *fc)
{
	u64 now, due;

	if (!fc->fc_scrolled || panic_in_progress) {
		redraw(fc);
		return;
	}
	now = ktime_ns();
	due = fc->fc_redrawn_ns + FBCON_REDRAW_MS * NSEC_PER_MSEC;
	if (now >= due) {
		redraw(fc);
		return;
	}
	if (!timer_pending(&fc->fc_timer))
		mod_timer(&fc->fc_timer, get_jiffies_64() + ns_to_jiffies(due - now) + 1);
}

static void redraw_timer(struct timer_list *t)
{
	struct fbcon *fc = container_of(t, struct fbcon, fc_timer);

	spin_lock(&fc->fc_lock);
	redraw(fc);
	spin_unlock(&fc->fc_lock);
}

static void newline(struct fbcon *fc)
{
	fc->fc_col = 0;
	if (++fc->fc_row < fc->fc_rows)
		return;
	fc->fc_row = fc->fc_rows - 1;
	fc->fc_top = (fc->fc_top + 1) % fc->fc_rows;
	clear_row(fc, fc->fc_row, 0);
	fc->fc_scrolled = true;
}

/* The end of a CSI sequence: its final byte and argument. */
static void csi(struct fbcon *fc, char op, unsigned arg)
{
	unsigned r, n = arg ? arg : 1;

	switch (op) {
	case 'C':
		fc->fc_col = min(fc->fc_col + n, fc->fc_cols - 1);
		break;
	case 'D':
		fc->fc_col = fc->fc_col > n ? fc->fc_col - n : 0;
		break;
	case 'K':
		clear_row(fc, fc->fc_row, fc->fc_col);
		break;
	case 'H':
		fc->fc_row = fc->fc_col = 0;
		break;
	case 'J':
		if (arg == 2)
			for (r = 0; r < fc->fc_rows; r++)
				clear_row(fc, r, 0);
		break;
	}
}

static void putc(struct fbcon *fc, char ch)
{
	u8 c = (u8)ch;

	if (fc->fc_esc == ESC_SEEN) {
		fc->fc_esc = c == '[' ? ESC_CSI : ESC_NONE;
		fc->fc_arg = 0;
		return;
	}
	if (fc->fc_esc == ESC_CSI) {
		if (c >= '0' && c <= '9') {
			fc->fc_arg = min(fc->fc_arg * 10 + (c - '0'), (unsigned)FBCON_CSI_ARG_MAX);
			return;
		}
		if (c >= 0x40 && c <= 0x7e) {	/* the final byte (ECMA-48 5.4) */
			fc->fc_esc = ESC_NONE;
			csi(fc, (char)c, fc->fc_arg);
		}
		return;
	}
	switch (c) {
	case '\033':
		fc->fc_esc = ESC_SEEN;
		return;
	case '\n':
		newline(fc);
		return;
	case '\r':
		fc->fc_col = 0;
		return;
	case '\b':
		if (fc->fc_col)
			fc->fc_col--;
		return;
	case '\t':
		do
			putc(fc, ' ');
		while (fc->fc_col % FBCON_TAB);
		return;
	}
	if (c < 0x20 || c == 0x7f)
		return;
	*text_cell(fc, fc->fc_row, fc->fc_col) = (u16)(fc->fc_attr << 8 | c);
	if (++fc->fc_col == fc->fc_cols)
		newline(fc);
}

static void fbcon_write(struct console *con, const char *s, size_t n)
{
	struct fbcon *fc = container_of(con, struct fbcon, fc_con);
	bool locked = !panic_in_progress;

	if (locked)
		spin_lock(&fc->fc_lock);
	while (n--)
		putc(fc, *s++);
	redraw_soon(fc);
	if (locked)
		spin_unlock(&fc->fc_lock);
}

static void fbcon_level(struct console *con, int level)
{
	struct fbcon *fc = container_of(con, struct fbcon, fc_con);

	fc->fc_attr = level >= 0 && level < 8 ? level_attr[level] : FBCON_DEFAULT_ATTR;
}

/* boot_info.fb as a struct fb_info, mapped; -ENODEV when not a usable RGB one. */
static int map_fb(struct fb_info *fi)
{
	const struct boot_fb *b = &boot_info.fb;

	if (b->fb_type != BOOT_FB_RGB || !b->fb_addr)
		return -ENODEV;
	fi->fi_pitch = b->fb_pitch;
	fi->fi_width = b->fb_width;
	fi->fi_height = b->fb_height;
	fi->fi_bpp = b->fb_bpp;
	fi->fi_red_pos = b->fb_red_pos;
	fi->fi_red_size = b->fb_red_size;
	fi->fi_green_pos = b->fb_green_pos;
	fi->fi_green_size = b->fb_green_size;
	fi->fi_blue_pos = b->fb_blue_pos;
	fi->fi_blue_size = b->fb_blue_size;
	if (!fb_format_ok(fi)) {
		pr_warn("fbcon: framebuffer %ux%u, %u bpp: format not supported\n",
			fi->fi_width, fi->fi_height, fi->fi_bpp);
		return -ENODEV;
	}
	fi->fi_base = ioremap(b->fb_addr, (size_t)fi->fi_pitch * fi->fi_height);
	if (!fi->fi_base) {
		pr_warn("fbcon: cannot map the framebuffer at %#llx\n",
			(unsigned long long)b->fb_addr);
		return -ENOMEM;
	}
	return 0;
}

/* The log so far, onto the screen only (the serial line has had it). */
static void replay_log(struct fbcon *fc)
{
	static char copy[LOG_BUF_SIZE];
	size_t n = log_read(copy, sizeof(copy));
	unsigned long flags;

	local_irq_save(flags);
	fbcon_write(&fc->fc_con, copy, n);
	local_irq_restore(flags);
}

void fbcon_init(void)
{
	struct fbcon *fc = &fbcon0;
	size_t cells;
	unsigned i;

	if (map_fb(&fc->fc_fb))
		return;		/* error already printed, or no framebuffer */
	fc->fc_font = fbcon_pick_font(fc->fc_fb.fi_width, fc->fc_fb.fi_height);
	fc->fc_cols = fc->fc_fb.fi_width / fc->fc_font->ff_width;
	fc->fc_rows = fc->fc_fb.fi_height / fc->fc_font->ff_height;
	cells = (size_t)fc->fc_cols * fc->fc_rows;
	fc->fc_text = vmalloc(cells * sizeof(u16));
	fc->fc_shown = vmalloc(cells * sizeof(u16));
	if (!fc->fc_text || !fc->fc_shown) {
		pr_warn("fbcon: no memory for a %ux%u text shadow\n", fc->fc_cols, fc->fc_rows);
		goto free;
	}
	for (i = 0; i < 16; i++)
		fc->fc_pixel[i] = fb_color(&fc->fc_fb, vga_rgb[i][0], vga_rgb[i][1], vga_rgb[i][2]);
	for (i = 0; i < fc->fc_rows; i++)
		clear_row(fc, i, 0);
	/* The screen is in an unknown state: paint it black, and say so in fc_shown. */
	fb_fill(&fc->fc_fb, 0, 0, fc->fc_fb.fi_width, fc->fc_fb.fi_height, fc->fc_pixel[0]);
	for (i = 0; i < cells; i++)
		fc->fc_shown[i] = (u16)(FBCON_DEFAULT_ATTR << 8 | ' ');
	fc->fc_attr = FBCON_DEFAULT_ATTR;
	spin_lock_init(&fc->fc_lock, "fbcon");
	timer_setup(&fc->fc_timer, redraw_timer);
	fc->fc_con.con_name = "fbcon";
	fc->fc_con.con_write = fbcon_write;
	fc->fc_con.con_level = fbcon_level;
	replay_log(fc);
	console_register(&fc->fc_con);
	fbcon_up = true;
	pr_info("fbcon: %ux%u, %u bpp, pitch %u at %#llx; font %s (%ux%u), %ux%u characters\n",
		fc->fc_fb.fi_width, fc->fc_fb.fi_height, fc->fc_fb.fi_bpp, fc->fc_fb.fi_pitch,
		(unsigned long long)boot_info.fb.fb_addr, fc->fc_font->ff_name,
		fc->fc_font->ff_width, fc->fc_font->ff_height, fc->fc_cols, fc->fc_rows);
	return;

free:
	if (fc->fc_text)
		vfree(fc->fc_text);
	if (fc->fc_shown)
		vfree(fc->fc_shown);
	iounmap(fc->fc_fb.fi_base);
}

/*
 * What a `dmesg' of a whole log ring costs on this screen: LOG_BUF_SIZE
 * bytes of 64-character lines through the console's write, drawn, the
 * deferred last redraw included.  Must be well under a second.
 */
#define FBCON_SPEED_LIMIT_MS	1000

static int fbcon_speed_test(void)
{
	struct fbcon *fc = &fbcon0;
	char line[65];
	unsigned long flags;
	unsigned i, lines = LOG_BUF_SIZE / 64;
	u64 t0, ms;

	if (!fbcon_up) {
		kprintf("fbcon: no framebuffer console; nothing to measure\n");
		return 0;
	}
	t0 = ktime_ns();
	for (i = 0; i < lines; i++) {
		snprintf(line, sizeof(line), "[%5u.%06u] fbcon speed test line %-4u of a full log ring..",
			 i / 1000, i % 1000 * 1000, i);
		line[63] = '\n';
		local_irq_save(flags);
		fbcon_write(&fc->fc_con, line, 64);
		local_irq_restore(flags);
	}
	local_irq_save(flags);
	spin_lock(&fc->fc_lock);
	del_timer(&fc->fc_timer);
	redraw(fc);
	spin_unlock(&fc->fc_lock);
	local_irq_restore(flags);
	ms = (ktime_ns() - t0) / NSEC_PER_MSEC;
	kprintf("fbcon: a full log ring (%u bytes, %u lines) drawn at %ux%u in %llu ms\n",
		lines * 64, lines, fc->fc_fb.fi_width, fc->fc_fb.fi_height, (unsigned long long)ms);
	ST_ASSERT(ms < FBCON_SPEED_LIMIT_MS);
	return 0;
}
SELFTEST("kernel/fbcon/full_ring_speed", fbcon_speed_test);

int fbcon_describe(char *buf, size_t len)
{
	struct fbcon *fc = &fbcon0;

	if (!fbcon_up)
		return -ENODEV;
	return snprintf(buf, len, "%ux%u %u bpp pitch %u at %#llx font %s %ux%u text %ux%u",
			fc->fc_fb.fi_width, fc->fc_fb.fi_height, fc->fc_fb.fi_bpp,
			fc->fc_fb.fi_pitch, (unsigned long long)boot_info.fb.fb_addr,
			fc->fc_font->ff_name, fc->fc_font->ff_width, fc->fc_font->ff_height,
			fc->fc_cols, fc->fc_rows);
}
