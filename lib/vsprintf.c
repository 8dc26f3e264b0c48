/*
 * The format engine behind printk and snprintf.  Portable: the kernel uses
 * it as vsnprintf/snprintf, and the host unit test builds the same source
 * under other names to compare it with the C library's printf.
 *
 * Conversions: %d %i %u %x %X %o %c %s %p %%.  Flags '-' '0' '+' ' ' '#',
 * field width and precision (numbers or '*'), length modifiers hh h l ll
 * z t j.  %p prints 0x and the pointer as hex.  Truncates safely: the
 * return value is the length the whole output would have had.
 */
#include "lib/string.h"

struct fmt_out {
	char	*buf;
	size_t	size;
	size_t	len;	/* characters produced so far, stored or not */
};

static void put(struct fmt_out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void pad(struct fmt_out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

enum {
	F_LEFT = 1, F_ZERO = 2, F_PLUS = 4, F_SPACE = 8, F_ALT = 16, F_UPPER = 32,
};

static void put_number(struct fmt_out *o, unsigned long long v, bool neg,
		       unsigned base, int flags, int width, int prec)
{
	const char *digits = (flags & F_UPPER) ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0, sign = 0, prefix = 0, zeros, total;

	if (v == 0 && prec != 0)
		tmp[n++] = '0';
	while (v) {
		tmp[n++] = digits[v % base];
		v /= base;
	}
	if (neg || (flags & (F_PLUS | F_SPACE)))
		sign = 1;
	if ((flags & F_ALT) && base == 16 && n && !(n == 1 && tmp[0] == '0'))
		prefix = 2;
	zeros = prec > n ? prec - n : 0;
	total = sign + prefix + zeros + n;
	if ((flags & F_ZERO) && !(flags & F_LEFT) && prec < 0 && width > total) {
		zeros += width - total;
		total = width;
	}
	if (!(flags & F_LEFT))
		pad(o, ' ', width - total);
	if (sign)
		put(o, neg ? '-' : (flags & F_PLUS) ? '+' : ' ');
	if (prefix) {
		put(o, '0');
		put(o, (flags & F_UPPER) ? 'X' : 'x');
	}
	pad(o, '0', zeros);
	while (n)
		put(o, tmp[--n]);
	if (flags & F_LEFT)
		pad(o, ' ', width - total);
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct fmt_out o = { buf, size, 0 };

	for (; *fmt; fmt++) {
		int flags = 0, width = -1, prec = -1, lng = 0;
		unsigned base = 10;
		unsigned long long v;
		bool is_signed = false, neg = false;

		if (*fmt != '%') {
			put(&o, *fmt);
			continue;
		}
		for (;;) {
			char c = *++fmt;

			if (c == '-') flags |= F_LEFT;
			else if (c == '0') flags |= F_ZERO;
			else if (c == '+') flags |= F_PLUS;
			else if (c == ' ') flags |= F_SPACE;
			else if (c == '#') flags |= F_ALT;
			else break;
		}
		if (*fmt == '*') {
			width = va_arg(ap, int);
			if (width < 0) {
				flags |= F_LEFT;
				width = -width;
			}
			fmt++;
		} else {
			for (width = 0; *fmt >= '0' && *fmt <= '9'; fmt++)
				width = width * 10 + (*fmt - '0');
		}
		if (*fmt == '.') {
			fmt++;
			if (*fmt == '*') {
				prec = va_arg(ap, int);
				fmt++;
			} else {
				for (prec = 0; *fmt >= '0' && *fmt <= '9'; fmt++)
					prec = prec * 10 + (*fmt - '0');
			}
		}
		/* Length modifiers: lng counts 'l's; size_t and friends are long here. */
		for (;; fmt++) {
			if (*fmt == 'h')
				lng--;
			else if (*fmt == 'l')
				lng++;
			else if (*fmt == 'z' || *fmt == 't' || *fmt == 'j')
				lng = *fmt == 'j' ? 2 : (sizeof(size_t) == sizeof(long long) ? 2 : 1);
			else
				break;
		}

		switch (*fmt) {
		case 'c':
			if (!(flags & F_LEFT))
				pad(&o, ' ', width - 1);
			put(&o, (char)va_arg(ap, int));
			if (flags & F_LEFT)
				pad(&o, ' ', width - 1);
			continue;
		case 's': {
			const char *s = va_arg(ap, const char *);
			int n;

			if (!s)
				s = "(null)";
			n = (int)strnlen(s, prec < 0 ? (size_t)-1 : (size_t)prec);
			if (!(flags & F_LEFT))
				pad(&o, ' ', width - n);
			for (int i = 0; i < n; i++)
				put(&o, s[i]);
			if (flags & F_LEFT)
				pad(&o, ' ', width - n);
			continue;
		}
		case 'p':
			v = (unsigned long)va_arg(ap, void *);
			put_number(&o, v, false, 16, flags | F_ALT, width, prec);
			continue;
		case '%':
			put(&o, '%');
			continue;
		case 'd':
		case 'i':
			is_signed = true;
			break;
		case 'u':
			break;
		case 'X':
			flags |= F_UPPER;
			/* fall through */
		case 'x':
			base = 16;
			break;
		case 'o':
			base = 8;
			break;
		default:	/* unknown conversion: print it as is */
			put(&o, '%');
			if (!*fmt)
				goto out;
			put(&o, *fmt);
			continue;
		}

		if (is_signed) {
			long long s;

			if (lng >= 2)
				s = va_arg(ap, long long);
			else if (lng == 1)
				s = va_arg(ap, long);
			else
				s = va_arg(ap, int);
			if (lng == -1)
				s = (short)s;
			else if (lng <= -2)
				s = (signed char)s;
			neg = s < 0;
			v = neg ? 0ULL - (unsigned long long)s : (unsigned long long)s;
		} else {
			if (lng >= 2)
				v = va_arg(ap, unsigned long long);
			else if (lng == 1)
				v = va_arg(ap, unsigned long);
			else
				v = va_arg(ap, unsigned int);
			if (lng == -1)
				v = (unsigned short)v;
			else if (lng <= -2)
				v = (unsigned char)v;
		}
		put_number(&o, v, neg, base, flags, width, prec);
	}
out:
	if (o.size)
		o.buf[o.len < o.size ? o.len : o.size - 1] = '\0';
	return (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
