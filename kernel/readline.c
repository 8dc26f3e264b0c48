/*
 * A small line editor for the serial console (and the screen).
 *
 * Keys: printable characters insert at the cursor; Backspace and Delete;
 * Left/Right, Home/End, Ctrl-A/Ctrl-E move; Ctrl-U kills to the start,
 * Ctrl-K to the end, Ctrl-W the word before the cursor; Up/Down walk the
 * history; Tab completes; Ctrl-C abandons the line; Enter accepts it.
 * Arrow keys arrive as ANSI sequences (ESC [ A ... ESC [ 3 ~).  Every
 * edit redraws the line: simple, and cheap at these line lengths.
 */
#include "kernel/readline.h"
#include "kernel/console.h"
#include "kernel/shell.h"
#include "lib/string.h"

#define HISTORY_SIZE	32
#define LINE_MAX	256

enum key {
	KEY_NONE = 0x100, KEY_UP, KEY_DOWN, KEY_LEFT, KEY_RIGHT, KEY_HOME,
	KEY_END, KEY_DELETE,
};

struct editor {
	char		*buf;
	size_t		size;
	size_t		len, cur;
	const char	*prompt;
};

static char history[HISTORY_SIZE][LINE_MAX];
static unsigned history_count;		/* lines ever added */

static void history_add(const char *line)
{
	if (!*line)
		return;
	if (history_count &&
	    !strcmp(history[(history_count - 1) % HISTORY_SIZE], line))
		return;
	str_copy(history[history_count % HISTORY_SIZE], line, LINE_MAX);
	history_count++;
}

static void redraw(struct editor *e)
{
	e->buf[e->len] = '\0';
	kprintf("\r%s%s\033[K", e->prompt, e->buf);
	if (e->len > e->cur)
		kprintf("\033[%uD", (unsigned)(e->len - e->cur));
}

/* Read one key, decoding the escape sequences terminals send. */
static int read_key(void)
{
	int c, c2, c3;

	while ((c = console_getc_wait(SHELL_IDLE_MS)) < 0)
		shell_idle();

	if (c != '\033')
		return c;
	c2 = console_getc_wait(50);
	if (c2 != '[' && c2 != 'O')
		return KEY_NONE;
	c3 = console_getc_wait(50);
	switch (c3) {
	case 'A': return KEY_UP;
	case 'B': return KEY_DOWN;
	case 'C': return KEY_RIGHT;
	case 'D': return KEY_LEFT;
	case 'H': return KEY_HOME;
	case 'F': return KEY_END;
	}
	if (c3 >= '1' && c3 <= '8' && console_getc_wait(50) == '~') {
		switch (c3) {
		case '1': case '7': return KEY_HOME;
		case '4': case '8': return KEY_END;
		case '3': return KEY_DELETE;
		}
	}
	return KEY_NONE;
}

static void insert(struct editor *e, const char *s, size_t n)
{
	if (e->len + n >= e->size)
		n = e->size - 1 - e->len;
	memmove(e->buf + e->cur + n, e->buf + e->cur, e->len - e->cur);
	memcpy(e->buf + e->cur, s, n);
	e->len += n;
	e->cur += n;
}

static void delete_range(struct editor *e, size_t from, size_t to)
{
	memmove(e->buf + from, e->buf + to, e->len - to);
	e->len -= to - from;
	e->cur = from;
}

struct completion_state {
	const char	*word;		/* the word being completed */
	size_t		wlen;
	char		common[LINE_MAX];
	unsigned	count;
	bool		listing;
};

static void collect(void *ctx, const char *cand)
{
	struct completion_state *cs = ctx;
	size_t i;

	if (strncmp(cand, cs->word, cs->wlen) != 0)
		return;
	if (cs->listing) {
		kprintf("%s  ", cand);
		return;
	}
	if (cs->count++ == 0) {
		str_copy(cs->common, cand, sizeof(cs->common));
		return;
	}
	for (i = 0; cs->common[i] && cs->common[i] == cand[i]; i++)
		;
	cs->common[i] = '\0';
}

static void complete(struct editor *e, readline_complete_t fn)
{
	struct completion_state cs = { 0 };
	size_t start = e->cur;

	if (!fn)
		return;
	while (start && e->buf[start - 1] != ' ' && e->buf[start - 1] != '=')
		start--;
	e->buf[e->len] = '\0';
	cs.word = e->buf + start;
	cs.wlen = e->cur - start;
	{
		char saved = e->buf[e->cur];

		e->buf[e->cur] = '\0';
		fn(e->buf, e->cur, collect, &cs);
		if (cs.count > 1 && strlen(cs.common) == cs.wlen) {
			cs.listing = true;
			kprintf("\n");
			fn(e->buf, e->cur, collect, &cs);
			kprintf("\n");
		}
		e->buf[e->cur] = saved;
	}
	if (cs.count >= 1 && strlen(cs.common) > cs.wlen)
		insert(e, cs.common + cs.wlen, strlen(cs.common) - cs.wlen);
	if (cs.count == 1 && cs.common[strlen(cs.common) - 1] != '/')
		insert(e, " ", 1);
}

int readline(const char *prompt, char *buf, size_t size, readline_complete_t fn)
{
	struct editor e = { buf, min(size, (size_t)LINE_MAX), 0, 0, prompt };
	unsigned hist = history_count;	/* browsing position */
	int k;

	buf[0] = '\0';
	kprintf("%s", prompt);
	for (;;) {
		k = read_key();
		switch (k) {
		case '\r':
		case '\n':
			buf[e.len] = '\0';
			kprintf("\n");
			history_add(buf);
			return (int)e.len;
		case 0x03:		/* Ctrl-C */
			kprintf("^C\n");
			buf[0] = '\0';
			return -1;
		case 0x7f:
		case '\b':
			if (e.cur)
				delete_range(&e, e.cur - 1, e.cur);
			break;
		case KEY_DELETE:
			if (e.cur < e.len)
				delete_range(&e, e.cur, e.cur + 1);
			break;
		case KEY_LEFT:
			if (e.cur)
				e.cur--;
			break;
		case KEY_RIGHT:
			if (e.cur < e.len)
				e.cur++;
			break;
		case 0x01:		/* Ctrl-A */
		case KEY_HOME:
			e.cur = 0;
			break;
		case 0x05:		/* Ctrl-E */
		case KEY_END:
			e.cur = e.len;
			break;
		case 0x15:		/* Ctrl-U */
			delete_range(&e, 0, e.cur);
			break;
		case 0x0b:		/* Ctrl-K */
			e.len = e.cur;
			break;
		case 0x17: {		/* Ctrl-W */
			size_t s = e.cur;

			while (s && buf[s - 1] == ' ')
				s--;
			while (s && buf[s - 1] != ' ')
				s--;
			delete_range(&e, s, e.cur);
			break;
		}
		case KEY_UP:
		case KEY_DOWN: {
			unsigned oldest = history_count > HISTORY_SIZE ?
					  history_count - HISTORY_SIZE : 0;

			if (k == KEY_UP && hist > oldest)
				hist--;
			else if (k == KEY_DOWN && hist < history_count)
				hist++;
			else
				break;
			if (hist == history_count)
				buf[0] = '\0';
			else
				str_copy(buf, history[hist % HISTORY_SIZE], e.size);
			e.len = e.cur = strlen(buf);
			break;
		}
		case '\t':
			complete(&e, fn);
			break;
		default:
			if (k >= 0x20 && k < 0x7f) {
				char c = (char)k;

				insert(&e, &c, 1);
			}
			break;
		}
		redraw(&e);
	}
}
