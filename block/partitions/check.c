/*
 * Partition scanning (block layer, pure code): the driver-independent
 * entry point part_scan(), which asks each table format in turn, and the
 * helpers the formats share: warnings that name the disk, adding entries
 * under the minors limit, overlap checks, GUID and UTF-16 conversion and
 * the names of well-known partition types.
 *
 * Order matters: GPT goes first because a GPT disk also carries an MBR
 * (protective, or hybrid with real-looking entries) which the dos parser
 * would otherwise misread; the dos parser in turn declines any MBR that
 * holds a 0xEE entry.  See block/partitions/check.h for the contract.
 */
#include "block/partitions/check.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/string.h"

const char *const part_scheme_names[PART_SCHEME_NR] = {
	[PART_SCHEME_NONE] = "none",
	[PART_SCHEME_DOS] = "dos",
	[PART_SCHEME_GPT] = "gpt",
};

static const struct part_format *const part_formats[] = {
	&part_format_efi,
	&part_format_msdos,
};

static void part_reset(struct parsed_partitions *pp)
{
	pp->pp_scheme = PART_SCHEME_NONE;
	pp->pp_disk_sig = 0;
	memset(&pp->pp_disk_guid, 0, sizeof(pp->pp_disk_guid));
	pp->pp_nr = 0;
}

int part_scan(struct parsed_partitions *pp)
{
	unsigned int i;
	int ret;

	KASSERT(pp->pp_block_size == 512 || pp->pp_block_size == 4096);
	/* so that no block number times 8 can wrap (check.h) */
	KASSERT(pp->pp_nr_blocks <= PART_MAX_BLOCKS);
	part_reset(pp);
	pp->pp_warnings = 0;
	for (i = 0; i < ARRAY_SIZE(part_formats); i++) {
		ret = part_formats[i]->pf_probe(pp);
		if (ret != 0)
			return ret < 0 ? ret : 1;
		/* a format that declined leaves nothing behind */
		part_reset(pp);
	}
	return 0;
}

void part_warn(struct parsed_partitions *pp, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pp->pp_warnings++;
	pr_warn("%s: %s\n", pp->pp_name ? pp->pp_name : "disk", msg);
}

struct part_entry *part_add(struct parsed_partitions *pp, u32 partno,
			    u64 start, u64 nr_sects)
{
	struct part_entry *pe;

	if (partno == 0 || partno > pp->pp_limit || pp->pp_nr >= pp->pp_limit) {
		part_warn(pp, "partition %u dropped: only %u partitions fit", partno,
			  pp->pp_limit);
		return NULL;
	}
	pe = &pp->pp_entries[pp->pp_nr++];
	memset(pe, 0, sizeof(*pe));
	pe->pe_partno = partno;
	pe->pe_start = start;
	pe->pe_nr_sects = nr_sects;
	return pe;
}

const struct part_entry *part_find_overlap(const struct parsed_partitions *pp,
					   u64 start, u64 len, u8 ignore_flags)
{
	const struct part_entry *pe;
	u32 i;

	for (i = 0; i < pp->pp_nr; i++) {
		pe = &pp->pp_entries[i];
		if (pe->pe_flags & ignore_flags)
			continue;
		/* both ranges are known not to wrap: callers bound them by the disk */
		if (start < pe->pe_start + pe->pe_nr_sects && pe->pe_start < start + len)
			return pe;
	}
	return NULL;
}

/*
 * GUID text form (RFC 4122 section 3; UEFI 2.10 appendix A): the first
 * three fields are stored little-endian, the last eight bytes in order.
 */
static const u8 part_guid_order[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };

void part_guid_format(const struct part_guid *g, char *buf)
{
	static const char hex[] = "0123456789ABCDEF";
	unsigned int i;
	char *p = buf;
	u8 b;

	for (i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			*p++ = '-';
		b = g->g_b[part_guid_order[i]];
		*p++ = hex[b >> 4];
		*p++ = hex[b & 15];
	}
	*p = '\0';
}

static int part_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int part_guid_parse(const char *s, struct part_guid *g)
{
	unsigned int i, pos = 0;
	int hi, lo;

	for (i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10) {
			if (s[pos] != '-')
				return -EINVAL;
			pos++;
		}
		hi = part_hexval(s[pos]);
		lo = hi < 0 ? -1 : part_hexval(s[pos + 1]);
		if (lo < 0)
			return -EINVAL;
		g->g_b[part_guid_order[i]] = (u8)(hi << 4 | lo);
		pos += 2;
	}
	return s[pos] == '\0' ? 0 : -EINVAL;
}

bool part_guid_is_zero(const struct part_guid *g)
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		if (g->g_b[i])
			return false;
	return true;
}

#define UNICODE_REPLACEMENT	0xFFFDu

/* Write code point c as UTF-8; returns the bytes used (1-4). */
static unsigned int part_put_utf8(char *out, u32 c)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xC0 | c >> 6);
		out[1] = (char)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xE0 | c >> 12);
		out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
		out[2] = (char)(0x80 | (c & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | c >> 18);
	out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((c >> 6) & 0x3F));
	out[3] = (char)(0x80 | (c & 0x3F));
	return 4;
}

/*
 * A surrogate pair (two units, 4 UTF-8 bytes) never needs more than the
 * 3 bytes per unit that out is sized for, so no bounds check is needed
 * beyond the unit count.
 */
void part_utf16le_to_utf8(const u8 *in, unsigned int n, char *out)
{
	unsigned int i, o = 0;
	u32 c, lo;

	for (i = 0; i < n; i++) {
		c = (u32)in[2 * i] | (u32)in[2 * i + 1] << 8;
		if (c == 0)
			break;
		if (c >= 0xD800 && c <= 0xDBFF && i + 1 < n) {
			lo = (u32)in[2 * i + 2] | (u32)in[2 * i + 3] << 8;
			if (lo >= 0xDC00 && lo <= 0xDFFF) {
				c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
				i++;
			} else {
				c = UNICODE_REPLACEMENT;
			}
		} else if (c >= 0xD800 && c <= 0xDFFF) {
			c = UNICODE_REPLACEMENT;
		} else if (c < 0x20 || c == 0x7F) {
			c = '?';
		}
		o += part_put_utf8(out + o, c);
	}
	out[o] = '\0';
}

struct part_gpt_type {
	const char	*gt_guid;
	const char	*gt_name;
};

/* Type GUIDs: UEFI 2.10 table 5.14 and the Discoverable Partitions Specification. */
static const struct part_gpt_type part_gpt_types[] = {
	{ "C12A7328-F81F-11D2-BA4B-00A0C93EC93B", "EFI System" },
	{ "21686148-6449-6E6F-744E-656564454649", "BIOS boot" },
	{ "0FC63DAF-8483-4772-8E79-3D69D8477DE4", "Linux filesystem" },
	{ "0657FD6D-A4AB-43C4-84E5-0933C84B4F4F", "Linux swap" },
	{ "E6D6D379-F507-44C2-A23C-238F2A3DF928", "Linux LVM" },
	{ "A19D880F-05FC-4D3B-A006-743F0F84911E", "Linux RAID" },
	{ "EBD0A0A2-B9E5-4433-87C0-68B6B72699C7", "Microsoft basic data" },
	{ "E3C9E316-0B5C-4DB8-817D-F92DF00215AE", "Microsoft reserved" },
};

const char *part_gpt_type_name(const struct part_guid *type)
{
	struct part_guid g;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(part_gpt_types); i++) {
		if (part_guid_parse(part_gpt_types[i].gt_guid, &g) == 0 &&
		    memcmp(&g, type, sizeof(g)) == 0)
			return part_gpt_types[i].gt_name;
	}
	return NULL;
}

/* dos partition type bytes, as fdisk names them. */
static const struct {
	u8		dt_sys_ind;
	const char	*dt_name;
} part_dos_types[] = {
	{ 0x01, "FAT12" },
	{ 0x05, "Extended" },
	{ 0x06, "FAT16" },
	{ 0x07, "HPFS/NTFS/exFAT" },
	{ 0x0B, "W95 FAT32" },
	{ 0x0C, "W95 FAT32 (LBA)" },
	{ 0x0E, "W95 FAT16 (LBA)" },
	{ 0x0F, "W95 Ext'd (LBA)" },
	{ 0x82, "Linux swap" },
	{ 0x83, "Linux" },
	{ 0x85, "Linux extended" },
	{ 0x8E, "Linux LVM" },
	{ 0xEE, "GPT" },
	{ 0xEF, "EFI (FAT-12/16/32)" },
	{ 0xFD, "Linux raid autodetect" },
};

const char *part_dos_type_name(u8 sys_ind)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(part_dos_types); i++)
		if (part_dos_types[i].dt_sys_ind == sys_ind)
			return part_dos_types[i].dt_name;
	return NULL;
}

void part_uuid_format(const struct parsed_partitions *pp, const struct part_entry *pe,
		      char *buf)
{
	if (pp->pp_scheme == PART_SCHEME_GPT)
		part_guid_format(&pe->pe_uuid, buf);
	else
		snprintf(buf, PART_GUID_STR_LEN + 1, "%08x-%02x", (unsigned int)pp->pp_disk_sig,
			 (unsigned int)pe->pe_partno & 0xff);
}
