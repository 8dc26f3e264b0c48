/*
 * Partition table parsing: the contract between the table formats
 * (msdos.c, efi.c) and whoever scans a disk (block/genhd.c in the kernel,
 * the host tool and the fuzz targets in tests/).
 *
 * The parsers are pure code.  They see the disk only through pp_read,
 * which reads ONE logical block, and they allocate nothing: the caller
 * supplies a scratch block buffer and the entry array.  Every result is
 * written into struct parsed_partitions; a format probe returns one of
 * three answers (STYLE rule 26):
 *	< 0	error (a read failed): nothing can be said about the disk
 *	0	not mine: the next format may try
 *	1	found: pp_scheme, the disk id and pp_entries[0..pp_nr) are set
 * Damage that still leaves a usable table (a bad primary GPT, an entry
 * past the end of the disk, a looping EBR chain, more partitions than
 * minors) counts in pp_warnings and is reported through pr_warn, naming
 * the disk.  Positions in the result are 512-byte sectors, whatever the
 * logical block size.
 */
#ifndef BLOCK_PARTITIONS_CHECK_H
#define BLOCK_PARTITIONS_CHECK_H

#include "kernel/compiler.h"

enum part_scheme {
	PART_SCHEME_NONE,
	PART_SCHEME_DOS,
	PART_SCHEME_GPT,
	PART_SCHEME_NR,
};

extern const char *const part_scheme_names[PART_SCHEME_NR];	/* "none", "dos", "gpt" */

/* A GUID as it lies on disk (UEFI 2.10 appendix A: mixed endian). */
struct part_guid {
	u8	g_b[16];
};

#define PART_GUID_STR_LEN	36	/* "0FC63DAF-8483-4772-8E79-3D69D8477DE4" */
#define PART_NAME_UTF16_LEN	36	/* GPT name: 72 bytes of UTF-16LE */
#define PART_NAME_MAX		(PART_NAME_UTF16_LEN * 3 + 1)	/* as UTF-8, NUL included */

/* One partition found in a table. */
struct part_entry {
	u32	pe_partno;		/* 1..; dos: 1-4 primary, 5.. logical; gpt: slot + 1 */
	u8	pe_sys_ind;		/* dos type byte (0 for gpt) */
	u8	pe_flags;
#define PART_F_BOOTABLE		0x01	/* dos: boot indicator 0x80 */
#define PART_F_EXTENDED		0x02	/* dos: container of logical partitions */
#define PART_F_LOGICAL		0x04	/* dos: inside an extended partition */
	u64	pe_start;		/* first 512-byte sector */
	u64	pe_nr_sects;		/* length in 512-byte sectors, > 0 */
	struct part_guid pe_type;	/* gpt: partition type GUID */
	struct part_guid pe_uuid;	/* gpt: unique partition GUID (PARTUUID) */
	u64	pe_attrs;		/* gpt: attribute bits */
	char	pe_name[PART_NAME_MAX];	/* gpt: name as UTF-8, "" if none */
};

/*
 * Read logical block lba (of pp_block_size bytes) into buf.  Returns 0 or
 * a negative errno.  The parsers never ask for lba >= pp_nr_blocks.
 */
typedef int (*part_read_fn)(void *ctx, u64 lba, void *buf);

#define PART_MAX_BLOCKS		(1ULL << 48)	/* capacity cap: 1 EiB of 4K blocks */

struct parsed_partitions {
	/* in: set by the caller */
	const char	*pp_name;	/* disk name for messages ("sda") */
	u32		pp_block_size;	/* logical block size: 512 or 4096 */
	u64		pp_nr_blocks;	/* capacity in logical blocks, <= PART_MAX_BLOCKS */
	part_read_fn	pp_read;
	void		*pp_ctx;	/* pp_read's first argument */
	u8		*pp_buf;	/* scratch, pp_block_size bytes */
	struct part_entry *pp_entries;	/* room for pp_limit entries */
	u32		pp_limit;	/* highest partition number kept (minors - 1) */

	/* out: set by the parsers */
	enum part_scheme pp_scheme;
	u32		pp_disk_sig;	/* dos: disk signature at MBR offset 440 */
	struct part_guid pp_disk_guid;	/* gpt: disk GUID */
	u32		pp_nr;		/* entries used, sorted by pe_partno */
	u32		pp_warnings;	/* problems reported and worked around */
};

/* A partition table format (STYLE rule 4). */
struct part_format {
	const char	*pf_name;
	int		(*pf_probe)(struct parsed_partitions *pp);	/* <0, 0, 1 as above */
};

extern const struct part_format part_format_efi;	/* efi.c */
extern const struct part_format part_format_msdos;	/* msdos.c */

/*
 * part_scan - find the partition table of a disk
 * @pp: inputs filled in; outputs are reset here first
 *
 * Tries GPT, then MBR.  Returns 1 with the table in @pp, 0 if the disk has
 * no table we know (pp_scheme NONE, no entries), or a negative errno if a
 * read failed.  Does not allocate; may sleep only if pp_read does.
 */
int part_scan(struct parsed_partitions *pp);

/* -- helpers for the formats and for code that prints tables (check.c) -- */

/* Count a warning and print it as "NAME: message" at KERN_WARNING. */
void part_warn(struct parsed_partitions *pp, const char *fmt, ...) __printf(2, 3);

/*
 * part_add - append an entry numbered partno, or drop it past pp_limit
 * with a warning.  start and nr_sects are 512-byte sectors.  Returns the
 * new entry (rest zeroed, for the caller to fill in) or NULL if dropped.
 */
struct part_entry *part_add(struct parsed_partitions *pp, u32 partno,
			    u64 start, u64 nr_sects);

/* Does [start, start+len) overlap an entry already kept?  Returns it or NULL. */
const struct part_entry *part_find_overlap(const struct parsed_partitions *pp,
					   u64 start, u64 len, u8 ignore_flags);

/* Format g as 36 upper-case characters plus NUL into buf (>= 37 bytes). */
void part_guid_format(const struct part_guid *g, char *buf);
/* Parse the 36-character form (either case).  Returns 0 or -EINVAL. */
int part_guid_parse(const char *s, struct part_guid *g);
bool part_guid_is_zero(const struct part_guid *g);

/*
 * Convert n UTF-16LE code units (stopping at a NUL) to UTF-8 in out, of
 * size >= n * 3 + 1.  Unpaired surrogates become U+FFFD, control
 * characters '?', so the result is always printable.
 */
void part_utf16le_to_utf8(const u8 *in, unsigned int n, char *out);

/* Names of known partition types: the GPT type GUID or dos type byte; NULL if unknown. */
const char *part_gpt_type_name(const struct part_guid *type);
const char *part_dos_type_name(u8 sys_ind);

/*
 * The PARTUUID of an entry as Linux shows it: the GPT unique GUID, or for
 * dos "SSSSSSSS-NN" (disk signature, partition number, lower-case hex).
 * buf must hold PART_GUID_STR_LEN + 1 bytes.
 */
void part_uuid_format(const struct parsed_partitions *pp, const struct part_entry *pe,
		      char *buf);

#endif
