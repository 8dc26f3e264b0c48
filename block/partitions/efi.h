/*
 * The GUID Partition Table layout, UEFI 2.10 section 5.3.
 *
 * LBA 0 holds a protective MBR (msdos.h) with one 0xEE entry, or a hybrid
 * MBR with 0xEE and up to three real-looking entries.  LBA 1 holds the
 * primary header, followed by the partition entry array; the last LBA of
 * the disk holds the backup header, preceded by its own copy of the array.
 * All fields are little-endian; LBAs count logical blocks.
 */
#ifndef BLOCK_PARTITIONS_EFI_H
#define BLOCK_PARTITIONS_EFI_H

#include "kernel/compiler.h"
#include "lib/byteorder.h"

#define GPT_SIGNATURE		"EFI PART"	/* 8 bytes, no NUL */
#define GPT_REVISION_1_0	0x00010000u
#define GPT_HEADER_MIN_SIZE	92		/* bytes defined by revision 1.0 */
#define GPT_PRIMARY_LBA		1

/* UEFI 2.10 table 5.5: GPT header. */
struct gpt_header {
	u8	gh_signature[8];
	le32	gh_revision;
	le32	gh_header_size;		/* bytes covered by gh_header_crc32 */
	le32	gh_header_crc32;	/* computed with this field zero */
	le32	gh_rsvd_20;
	le64	gh_my_lba;		/* where this header lies */
	le64	gh_alternate_lba;	/* where the other header lies */
	le64	gh_first_usable_lba;
	le64	gh_last_usable_lba;	/* inclusive */
	u8	gh_disk_guid[16];
	le64	gh_entries_lba;		/* first block of the entry array */
	le32	gh_num_entries;
	le32	gh_entry_size;		/* 128 * 2^n bytes */
	le32	gh_entries_crc32;	/* over num_entries * entry_size bytes */
} __packed;

_Static_assert(sizeof(struct gpt_header) == GPT_HEADER_MIN_SIZE, "gpt_header size");
_Static_assert(offsetof(struct gpt_header, gh_header_crc32) == 16, "gpt header crc offset");
_Static_assert(offsetof(struct gpt_header, gh_my_lba) == 24, "gpt my_lba offset");
_Static_assert(offsetof(struct gpt_header, gh_disk_guid) == 56, "gpt disk guid offset");
_Static_assert(offsetof(struct gpt_header, gh_entries_lba) == 72, "gpt entries lba offset");
_Static_assert(offsetof(struct gpt_header, gh_entries_crc32) == 88, "gpt entries crc offset");

/* UEFI 2.10 table 5.6: GPT partition entry. */
struct gpt_entry {
	u8	ge_type_guid[16];	/* all zero: slot unused */
	u8	ge_unique_guid[16];
	le64	ge_start_lba;
	le64	ge_end_lba;		/* inclusive */
	le64	ge_attributes;
#define GPT_ATTR_REQUIRED	(1ULL << 0)	/* platform required */
#define GPT_ATTR_NO_BLOCK_IO	(1ULL << 1)	/* EFI: no block I/O protocol */
#define GPT_ATTR_LEGACY_BOOT	(1ULL << 2)	/* legacy BIOS bootable */
	le16	ge_name[36];		/* UTF-16LE, NUL-padded */
} __packed;

_Static_assert(sizeof(struct gpt_entry) == 128, "gpt_entry size");
_Static_assert(offsetof(struct gpt_entry, ge_start_lba) == 32, "gpt entry start offset");
_Static_assert(offsetof(struct gpt_entry, ge_attributes) == 48, "gpt entry attributes offset");
_Static_assert(offsetof(struct gpt_entry, ge_name) == 56, "gpt entry name offset");

#endif
