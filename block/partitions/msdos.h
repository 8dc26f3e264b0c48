/*
 * The MBR (master boot record) and EBR (extended boot record) layout: the
 * first 512 bytes of a dos-partitioned disk, and of each link in the chain
 * of logical partitions.  Also read by efi.c to recognise a protective or
 * hybrid MBR (UEFI 2.10 section 5.2).
 *
 * All multi-byte fields are little-endian.  LBAs and sizes count logical
 * blocks of the disk (512 or 4096 bytes), not 512-byte sectors.  The CHS
 * fields are historical and ignored.
 */
#ifndef BLOCK_PARTITIONS_MSDOS_H
#define BLOCK_PARTITIONS_MSDOS_H

#include "kernel/compiler.h"
#include "lib/byteorder.h"

struct mbr_part {
	u8	mp_boot_ind;		/* 0x80: active (bootable) */
#define MBR_BOOT_ACTIVE		0x80
	u8	mp_start_chs[3];	/* ignored */
	u8	mp_sys_ind;		/* partition type */
#define MBR_TYPE_EMPTY		0x00
#define MBR_TYPE_EXTENDED	0x05	/* extended, CHS era */
#define MBR_TYPE_W95_EXT_LBA	0x0F	/* extended, LBA */
#define MBR_TYPE_LINUX_EXT	0x85	/* extended, Linux */
#define MBR_TYPE_GPT_PROT	0xEE	/* GPT protective (UEFI 2.10 5.2.3) */
	u8	mp_end_chs[3];		/* ignored */
	le32	mp_start_lba;		/* MBR: from LBA 0; EBR: see msdos.c */
	le32	mp_nr_blocks;
} __packed;

_Static_assert(sizeof(struct mbr_part) == 16, "mbr_part size");
_Static_assert(offsetof(struct mbr_part, mp_sys_ind) == 4, "mbr_part type offset");
_Static_assert(offsetof(struct mbr_part, mp_start_lba) == 8, "mbr_part lba offset");

#define MBR_NR_PARTS		4

struct mbr {
	u8	mbr_boot_code[440];
	le32	mbr_disk_sig;		/* unique disk signature (Windows NT and later) */
	u8	mbr_rsvd_444[2];
	struct mbr_part mbr_part[MBR_NR_PARTS];
	le16	mbr_signature;		/* 0xAA55: bytes 0x55 0xAA at 510 */
#define MBR_SIGNATURE		0xAA55
} __packed;

_Static_assert(sizeof(struct mbr) == 512, "mbr size");
_Static_assert(offsetof(struct mbr, mbr_disk_sig) == 440, "mbr disk signature offset");
_Static_assert(offsetof(struct mbr, mbr_part) == 446, "mbr partition table offset");
_Static_assert(offsetof(struct mbr, mbr_signature) == 510, "mbr signature offset");

static inline bool mbr_is_extended(u8 sys_ind)
{
	return sys_ind == MBR_TYPE_EXTENDED || sys_ind == MBR_TYPE_W95_EXT_LBA ||
	       sys_ind == MBR_TYPE_LINUX_EXT;
}

#endif
