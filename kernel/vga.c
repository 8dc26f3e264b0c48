/*
 * VGA text mode console (80x25 at physical 0xB8000): output with
 * scrolling, a hardware cursor, and ANSI escape sequences swallowed so
 * that shell line editing does not leave garbage on the screen.  The
 * buffer is reached through the lowmem linear map.
 */
#include "kernel/console.h"
#include "kernel/io.h"
#include "kernel/mm/page.h"
#include "lib/string.h"

#define VGA_TEXT_PHYS	0xB8000
#define VGA_COLS	80
#define VGA_ROWS	25
#define VGA_ATTR	0x07		/* light grey on black */
#define VGA_CRTC_INDEX	0x3D4
#define VGA_CRTC_DATA	0x3D5
#define  CRTC_CURSOR_HI	0x0E
#define  CRTC_CURSOR_LO	0x0F

struct vga {
	volatile u16	*buf;
	unsigned	row, col;
	int		esc;		/* 0, or inside an escape sequence */
	struct console	con;
};

static struct vga vga0;

static void vga_cursor(struct vga *v)
{
	unsigned pos = v->row * VGA_COLS + v->col;

	outb(VGA_CRTC_INDEX, CRTC_CURSOR_HI);
	outb(VGA_CRTC_DATA, (u8)(pos >> 8));
	outb(VGA_CRTC_INDEX, CRTC_CURSOR_LO);
	outb(VGA_CRTC_DATA, (u8)pos);
}

static void vga_newline(struct vga *v)
{
	unsigned i;

	v->col = 0;
	if (++v->row < VGA_ROWS)
		return;
	for (i = 0; i < (VGA_ROWS - 1) * VGA_COLS; i++)
		v->buf[i] = v->buf[i + VGA_COLS];
	for (; i < VGA_ROWS * VGA_COLS; i++)
		v->buf[i] = (VGA_ATTR << 8) | ' ';
	v->row = VGA_ROWS - 1;
}

static void vga_putc(struct vga *v, char c)
{
	if (v->esc) {		/* CSI sequences end with a letter */
		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))
			v->esc = 0;
		return;
	}
	switch (c) {
	case '\033':
		v->esc = 1;
		return;
	case '\n':
		vga_newline(v);
		return;
	case '\r':
		v->col = 0;
		return;
	case '\b':
		if (v->col)
			v->col--;
		return;
	case '\t':
		do
			vga_putc(v, ' ');
		while (v->col % 8);
		return;
	}
	v->buf[v->row * VGA_COLS + v->col] = (u16)((VGA_ATTR << 8) | (u8)c);
	if (++v->col == VGA_COLS)
		vga_newline(v);
}

static void vga_write(struct console *con, const char *s, size_t n)
{
	struct vga *v = container_of(con, struct vga, con);

	while (n--)
		vga_putc(v, *s++);
	vga_cursor(v);
}

void vga_init(void)
{
	struct vga *v = &vga0;
	unsigned i;

	v->buf = (volatile u16 *)(PAGE_OFFSET + VGA_TEXT_PHYS);
	for (i = 0; i < VGA_ROWS * VGA_COLS; i++)
		v->buf[i] = (VGA_ATTR << 8) | ' ';
	v->con.con_name = "vga";
	v->con.con_write = vga_write;
	console_register(&v->con);
}
