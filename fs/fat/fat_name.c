/*
 * FAT names (fatgen103 "FAT Long Directory Entries", "Name Matching In
 * Short Directory Entries", "The Basis-Name Generation Algorithm", "The
 * Numeric-Tail Generation Algorithm").
 *
 * A file has an 8.3 short name in its directory entry and, when its name
 * is not a plain upper-case 8.3 name, a long name in UTF-16 spread over up
 * to 20 entries placed just before it, each carrying a checksum of the
 * short name.  Reading, a long name counts only when its entries form one
 * complete, descending run whose checksums match the short entry that
 * follows; anything else (orphans left by old DOS tools, garbage) is
 * skipped and the short name is used.  Writing, a new name gets the basis
 * short name (upper case, characters a short name cannot hold turned into
 * '_', leading dots and all spaces dropped, 8 + 3 from around the last
 * dot) and, when that lost anything, a ~N tail chosen by the caller, who
 * knows which names are taken.
 *
 * Short names are shown with NT's lower-case flags applied (as Windows and
 * Linux do); their bytes above 0x7F are shown as Latin-1.  Portable.
 */
#include "fs/fat/fat_format.h"
#include "kernel/errno.h"
#include "lib/string.h"

u8 fat_lfn_checksum(const u8 shortname[11])
{
	u8 sum = 0;
	int i;

	for (i = 0; i < 11; i++)
		sum = (u8)(((sum & 1) << 7) + (sum >> 1) + shortname[i]);
	return sum;
}

void fat_lfn_reset(struct fat_lfn_state *s)
{
	s->ls_next = 0;
	s->ls_count = 0;
	s->ls_valid = false;
}

/* The 13 UTF-16 units of one entry, in order. */
static void fat_lfn_units(const struct fat_lfn *e, u16 *u)
{
	int i;

	for (i = 0; i < 5; i++)
		u[i] = get_le16(&e->ld_name1[i]);
	for (i = 0; i < 6; i++)
		u[5 + i] = get_le16(&e->ld_name2[i]);
	for (i = 0; i < 2; i++)
		u[11 + i] = get_le16(&e->ld_name3[i]);
}

void fat_lfn_feed(struct fat_lfn_state *s, const struct fat_lfn *e)
{
	u8 seq = e->ld_ord & FAT_LFN_ORD_MASK;

	if (e->ld_type != 0 || seq == 0 || seq > FAT_LFN_MAX_ENTRIES)
		goto orphan;
	if (e->ld_ord & FAT_LFN_LAST) {
		s->ls_count = seq;
		s->ls_chksum = e->ld_chksum;
		s->ls_name[seq * FAT_LFN_CHARS] = 0;
	} else if (!s->ls_next || seq != s->ls_next || e->ld_chksum != s->ls_chksum) {
		goto orphan;
	}
	fat_lfn_units(e, &s->ls_name[(seq - 1) * FAT_LFN_CHARS]);
	s->ls_next = seq - 1;
	s->ls_valid = seq == 1;
	return;
orphan:
	fat_lfn_reset(s);
}

/* One code point as UTF-8 into @out (room for 4); the bytes written. */
static int put_utf8(u32 c, char *out)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xC0 | (c >> 6));
		out[1] = (char)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xE0 | (c >> 12));
		out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
		out[2] = (char)(0x80 | (c & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (c >> 18));
	out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((c >> 6) & 0x3F));
	out[3] = (char)(0x80 | (c & 0x3F));
	return 4;
}

int fat_lfn_finish(struct fat_lfn_state *s, const u8 shortname[11], char *out, size_t size)
{
	u32 n = 0, max, i, c;
	size_t o = 0;
	char tmp[4];
	int k;

	if (!s->ls_valid || s->ls_chksum != fat_lfn_checksum(shortname))
		goto none;
	max = (u32)s->ls_count * FAT_LFN_CHARS;
	while (n < max && s->ls_name[n] != 0)
		n++;
	if (n == 0 || n > FAT_LFN_MAX_CHARS)
		goto none;
	for (i = 0; i < n; i++) {
		c = s->ls_name[i];
		if (c >= 0xD800 && c < 0xDC00 && i + 1 < n && s->ls_name[i + 1] >= 0xDC00 &&
		    s->ls_name[i + 1] < 0xE000) {
			c = 0x10000 + ((c - 0xD800) << 10) + (s->ls_name[i + 1] - 0xDC00);
			i++;
		} else if (c >= 0xD800 && c < 0xE000) {
			c = 0xFFFD;		/* an unpaired surrogate */
		}
		if (c == '/' || c < 0x20)
			goto none;		/* no path could name it: treat as garbage */
		k = put_utf8(c, tmp);
		if (o + (size_t)k >= size)
			goto none;
		memcpy(out + o, tmp, (size_t)k);
		o += (size_t)k;
	}
	out[o] = '\0';
	if (!strcmp(out, ".") || !strcmp(out, ".."))
		goto none;
	fat_lfn_reset(s);
	return (int)o;
none:
	fat_lfn_reset(s);
	return 0;
}

int fat_lfn_build(const u16 *name, u32 n, u8 chk, struct fat_lfn *ents)
{
	int count = (int)((n + FAT_LFN_CHARS - 1) / FAT_LFN_CHARS), i, j;
	u16 u[FAT_LFN_CHARS];

	for (i = 0; i < count; i++) {
		struct fat_lfn *e = &ents[count - 1 - i];

		for (j = 0; j < FAT_LFN_CHARS; j++) {
			u32 k = (u32)i * FAT_LFN_CHARS + (u32)j;

			u[j] = k < n ? name[k] : k == n ? 0 : 0xFFFF;
		}
		memset(e, 0, sizeof(*e));
		e->ld_ord = (u8)(i + 1) | (i == count - 1 ? FAT_LFN_LAST : 0);
		e->ld_attr = FAT_ATTR_LONG_NAME;
		e->ld_chksum = chk;
		for (j = 0; j < 5; j++)
			put_le16(&e->ld_name1[j], u[j]);
		for (j = 0; j < 6; j++)
			put_le16(&e->ld_name2[j], u[5 + j]);
		for (j = 0; j < 2; j++)
			put_le16(&e->ld_name3[j], u[11 + j]);
	}
	return count;
}

/* The next code point of UTF-8 @s (@len bytes left) into *c; bytes used, or 0 if invalid. */
static int get_utf8(const char *s, size_t len, u32 *c)
{
	const u8 *p = (const u8 *)s;
	int n, i;

	if (p[0] < 0x80) {
		*c = p[0];
		return 1;
	}
	if ((p[0] & 0xE0) == 0xC0)
		n = 2, *c = p[0] & 0x1F;
	else if ((p[0] & 0xF0) == 0xE0)
		n = 3, *c = p[0] & 0x0F;
	else if ((p[0] & 0xF8) == 0xF0)
		n = 4, *c = p[0] & 0x07;
	else
		return 0;
	if ((size_t)n > len)
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		*c = (*c << 6) | (p[i] & 0x3F);
	}
	if ((n == 2 && *c < 0x80) || (n == 3 && *c < 0x800) || (n == 4 && *c < 0x10000) ||
	    *c > 0x10FFFF || (*c >= 0xD800 && *c < 0xE000))
		return 0;		/* overlong or not a scalar value */
	return n;
}

int fat_name_to_utf16(const char *s, size_t len, u16 *out, size_t max)
{
	size_t i = 0, n = 0;
	u32 c;
	int k;

	while (i < len) {
		k = get_utf8(s + i, len - i, &c);
		if (!k || c < 0x20 || (c < 0x80 && strchr("\"*/:<>?\\|", (int)c)))
			return -EINVAL;
		i += (size_t)k;
		if (c >= 0x10000) {
			if (n + 2 > max)
				return -ENAMETOOLONG;
			c -= 0x10000;
			out[n++] = (u16)(0xD800 + (c >> 10));
			out[n++] = (u16)(0xDC00 + (c & 0x3FF));
		} else {
			if (n + 1 > max)
				return -ENAMETOOLONG;
			out[n++] = (u16)c;
		}
	}
	return (int)n;
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c + 'a' - 'A') : c;
}

static char upper(char c)
{
	return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

/* Append short-name byte @b (lower-cased if @low) to @out at *o. */
static void put_short(u8 b, bool low, char *out, int *o)
{
	if (b < 0x80)
		out[(*o)++] = low ? lower((char)b) : (char)b;
	else
		*o += put_utf8(b, out + *o);
}

int fat_short_to_text(const u8 shortname[11], u8 ntres, char *out)
{
	int b = 8, e = 11, o = 0, i;

	while (b > 0 && shortname[b - 1] == ' ')
		b--;
	while (e > 8 && shortname[e - 1] == ' ')
		e--;
	for (i = 0; i < b; i++)
		put_short(i == 0 && shortname[0] == FAT_DE_KANJI_E5 ? 0xE5 : shortname[i],
			  ntres & FAT_NTRES_LOWER_BASE, out, &o);
	if (e > 8) {
		out[o++] = '.';
		for (i = 8; i < e; i++)
			put_short(shortname[i], ntres & FAT_NTRES_LOWER_EXT, out, &o);
	}
	out[o] = '\0';
	return o;
}

/* May a short name hold ASCII character @c as it is (after upper-casing)? */
static bool short_ok(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("!#$%&'()-@^_`{}~", c));
}

int fat_short_basis(const char *name, size_t len, u8 basis[11])
{
	size_t i, dot = len, start = 0;
	bool lossy = false, cased = false;
	int nb = 0, ne = 0;
	u32 c;
	int k;

	memset(basis, ' ', 11);
	if (len == 0 || name[len - 1] == '.' || name[len - 1] == ' ')
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (name[i] == '.')
			dot = i;
	while (start < len && (name[start] == '.' || name[start] == ' ')) {
		start++;
		lossy = true;
	}
	if (dot < start)
		dot = len;	/* the only dots were leading ones */
	for (i = start; i < len; i += (size_t)k) {
		bool in_ext = i > dot;
		char ch;

		k = get_utf8(name + i, len - i, &c);
		if (!k)
			return -EINVAL;
		if (i == dot)
			continue;
		if (c == ' ' || (c == '.' && i != dot)) {
			lossy = true;	/* embedded spaces and other dots are dropped */
			continue;
		}
		ch = c < 0x80 ? upper((char)c) : '_';
		if (c < 0x80 && ch != (char)c)
			cased = true;
		if (c >= 0x80 || !short_ok(ch)) {
			ch = '_';
			lossy = true;
		}
		if (in_ext) {
			if (ne < 3)
				basis[8 + ne] = (u8)ch;
			else
				lossy = true;
			ne++;
		} else {
			if (nb < 8)
				basis[nb] = (u8)ch;
			else
				lossy = true;
			nb++;
		}
	}
	if (nb == 0) {
		if (ne == 0)
			return -EINVAL;
		basis[0] = '_';	/* ".profile" and the like */
		lossy = true;
	}
	if (basis[0] == FAT_DE_FREE)
		basis[0] = FAT_DE_KANJI_E5;
	if (lossy)
		return 0;
	return cased ? 2 : 1;
}

void fat_short_tail(const u8 basis[11], u32 n, u8 out[11])
{
	char tail[8];
	int t = 0, b = 0, i;

	tail[t++] = '~';
	{
		char d[7];
		int nd = 0;

		do {
			d[nd++] = (char)('0' + n % 10);
			n /= 10;
		} while (n && nd < 6);
		while (nd)
			tail[t++] = d[--nd];
	}
	memcpy(out, basis, 11);
	while (b < 8 && basis[b] != ' ')
		b++;
	if (b > 8 - t)
		b = 8 - t;
	for (i = 0; i < t; i++)
		out[b + i] = (u8)tail[i];
	for (i = b + t; i < 8; i++)
		out[i] = ' ';
}

bool fat_name_eq(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t i;

	if (alen != blen)
		return false;
	for (i = 0; i < alen; i++)
		if (upper(a[i]) != upper(b[i]))
			return false;
	return true;
}
