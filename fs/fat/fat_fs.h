/*
 * FAT on-disk format: the boot sector with its BIOS Parameter Block (the
 * FAT12/16 and FAT32 extensions), the FAT32 FSInfo sector, and the two
 * kinds of 32-byte directory entry (short 8.3 and long-name).  Layouts
 * and constants only, no code.  All fields little-endian; the BPB's
 * fields are unaligned, hence the packed structs.
 *
 * Source: Microsoft "FAT: General Overview of On-Disk Format" (fatgen103,
 * 1.03, 2000): "Boot Sector and BPB", "FAT Data Structure", "FAT32 FSInfo
 * Sector Structure", "FAT Directory Structure", "FAT Long Directory
 * Entries".
 *
 * Layout of a volume: reserved sectors (the boot sector first; FAT32 adds
 * FSInfo and a backup boot sector), BPB_NumFATs copies of the FAT, the
 * fixed root directory (FAT12/16 only), then the data region in clusters
 * numbered from 2.  The FAT type follows from the count of data clusters
 * alone ("FAT Type Determination"), never from the type string.
 */
#ifndef FS_FAT_FAT_FS_H
#define FS_FAT_FAT_FS_H

#include "kernel/compiler.h"
#include "lib/byteorder.h"

#define FAT_BOOT_SIG_OFF	510		/* 0x55 0xAA at bytes 510, 511 */
#define FAT_DIRENT_SIZE		32
#define FAT_MIN_SECTOR		512
#define FAT_MAX_SECTOR		4096
#define FAT_MAX_CLUSTER_BYTES	(64 * 1024)	/* fatgen103: 32 KiB portable, 64 KiB seen */
#define FAT12_MAX_CLUSTERS	4084		/* fewer than 4085 clusters: FAT12 */
#define FAT16_MAX_CLUSTERS	65524		/* fewer than 65525: FAT16; else FAT32 */
#define FAT32_MAX_CLUSTERS	0x0FFFFFF5	/* so that no cluster number is a marker */
#define FAT_FIRST_CLUSTER	2
#define FAT_MAX_DIR_ENTRIES	65536		/* fatgen103: a directory holds at most 64K */

/* FAT entry values ("FAT Data Structure"): the ones above "bad" end a chain. */
#define FAT12_BAD		0x0FF7
#define FAT16_BAD		0xFFF7
#define FAT32_BAD		0x0FFFFFF7
#define FAT32_MASK		0x0FFFFFFF	/* the high 4 bits are reserved */
/* FAT[1]'s volume flags ("FAT Volume Dirty Flags"): set = clean / no error. */
#define FAT16_CLNSHUT		0x8000
#define FAT16_HRDERR		0x4000
#define FAT32_CLNSHUT		0x08000000
#define FAT32_HRDERR		0x04000000

struct fat_boot_sector {
	u8	bs_jmpboot[3];		/* 0xEB xx 0x90 or 0xE9 xx xx */
	u8	bs_oemname[8];
	le16	bpb_bytspersec;		/* 11 */
	u8	bpb_secperclus;		/* 13 */
	le16	bpb_rsvdseccnt;		/* 14 */
	u8	bpb_numfats;		/* 16 */
	le16	bpb_rootentcnt;		/* 17: 0 on FAT32 */
	le16	bpb_totsec16;		/* 19 */
	u8	bpb_media;		/* 21 */
	le16	bpb_fatsz16;		/* 22: 0 on FAT32 */
	le16	bpb_secpertrk;
	le16	bpb_numheads;
	le32	bpb_hiddsec;
	le32	bpb_totsec32;		/* 32 */
	union {
		struct __packed {	/* FAT12/16, from offset 36 */
			u8	bs_drvnum;
			u8	bs_reserved1;	/* Linux: bit 0 = volume dirty */
			u8	bs_bootsig;	/* 0x29: the next three fields exist */
			le32	bs_volid;
			u8	bs_vollab[11];
			u8	bs_filsystype[8];
		} f16;
		struct __packed {	/* FAT32, from offset 36 */
			le32	bpb_fatsz32;
			le16	bpb_extflags;	/* bit 7: only FAT bits 0-3 active */
			le16	bpb_fsver;	/* must be 0.0 */
			le32	bpb_rootclus;
			le16	bpb_fsinfo;
			le16	bpb_bkbootsec;
			u8	bpb_reserved[12];
			u8	bs_drvnum;
			u8	bs_reserved1;
			u8	bs_bootsig;
			le32	bs_volid;
			u8	bs_vollab[11];
			u8	bs_filsystype[8];
		} f32;
	};
} __packed;
_Static_assert(sizeof(struct fat_boot_sector) == 90, "boot sector BPB size");
_Static_assert(offsetof(struct fat_boot_sector, bpb_bytspersec) == 11, "BytsPerSec");
_Static_assert(offsetof(struct fat_boot_sector, bpb_totsec32) == 32, "TotSec32");
_Static_assert(offsetof(struct fat_boot_sector, f16.bs_volid) == 39, "FAT16 VolID");
_Static_assert(offsetof(struct fat_boot_sector, f32.bpb_rootclus) == 44, "RootClus");
_Static_assert(offsetof(struct fat_boot_sector, f32.bs_volid) == 67, "FAT32 VolID");

#define FAT_EXTFLAGS_NOMIRROR	0x0080
#define FAT_EXTFLAGS_ACTIVE	0x000F
#define FAT_BOOTSIG_EXT		0x29

/* "FAT32 FSInfo Sector Structure" */
struct fat_fsinfo {
	le32	fsi_leadsig;		/* 0x41615252 */
	u8	fsi_reserved1[480];
	le32	fsi_strucsig;		/* 0x61417272 */
	le32	fsi_free_count;		/* 0xFFFFFFFF: unknown; a hint only */
	le32	fsi_nxt_free;		/* 0xFFFFFFFF: unknown; a hint only */
	u8	fsi_reserved2[12];
	le32	fsi_trailsig;		/* 0xAA550000 */
} __packed;
_Static_assert(sizeof(struct fat_fsinfo) == 512, "FSInfo size");
_Static_assert(offsetof(struct fat_fsinfo, fsi_free_count) == 488, "FSI_Free_Count");

#define FAT_FSI_LEADSIG		0x41615252
#define FAT_FSI_STRUCSIG	0x61417272
#define FAT_FSI_TRAILSIG	0xAA550000
#define FAT_FSI_UNKNOWN		0xFFFFFFFF

/* "FAT 32 Byte Directory Entry Structure" */
struct fat_dirent {
	u8	de_name[11];		/* 8 + 3, space padded; [0] 0xE5 free, 0 end */
	u8	de_attr;
	u8	de_ntres;		/* NT: bit 3 base lower case, bit 4 extension */
	u8	de_crttimetenth;	/* 0..199, 10 ms units */
	le16	de_crttime;
	le16	de_crtdate;
	le16	de_lstaccdate;
	le16	de_fstclushi;		/* 0 on FAT12/16 */
	le16	de_wrttime;
	le16	de_wrtdate;
	le16	de_fstcluslo;
	le32	de_filesize;
} __packed;
_Static_assert(sizeof(struct fat_dirent) == FAT_DIRENT_SIZE, "dirent size");
_Static_assert(offsetof(struct fat_dirent, de_fstclushi) == 20, "FstClusHI");
_Static_assert(offsetof(struct fat_dirent, de_filesize) == 28, "FileSize");

#define FAT_DE_FREE		0xE5	/* de_name[0]: a deleted entry */
#define FAT_DE_END		0x00	/* de_name[0]: this and all after are free */
#define FAT_DE_KANJI_E5		0x05	/* de_name[0]: stands for a real 0xE5 */

#define FAT_ATTR_READ_ONLY	0x01
#define FAT_ATTR_HIDDEN		0x02
#define FAT_ATTR_SYSTEM		0x04
#define FAT_ATTR_VOLUME_ID	0x08
#define FAT_ATTR_DIRECTORY	0x10
#define FAT_ATTR_ARCHIVE	0x20
#define FAT_ATTR_LONG_NAME	0x0F	/* all of the four low bits */
#define FAT_ATTR_LONG_MASK	0x3F

#define FAT_NTRES_LOWER_BASE	0x08
#define FAT_NTRES_LOWER_EXT	0x10

/* "FAT Long Directory Entries" */
struct fat_lfn {
	u8	ld_ord;			/* sequence 1..20; 0x40 on the last (first on disk) */
	le16	ld_name1[5];
	u8	ld_attr;		/* FAT_ATTR_LONG_NAME */
	u8	ld_type;		/* 0 */
	u8	ld_chksum;		/* of the short name it belongs to */
	le16	ld_name2[6];
	le16	ld_fstcluslo;		/* 0 */
	le16	ld_name3[2];
} __packed;
_Static_assert(sizeof(struct fat_lfn) == FAT_DIRENT_SIZE, "LFN entry size");
_Static_assert(offsetof(struct fat_lfn, ld_chksum) == 13, "LDIR_Chksum");
_Static_assert(offsetof(struct fat_lfn, ld_name3) == 28, "LDIR_Name3");

#define FAT_LFN_LAST		0x40
#define FAT_LFN_ORD_MASK	0x1F
#define FAT_LFN_CHARS		13	/* UTF-16 units per entry */
#define FAT_LFN_MAX_ENTRIES	20	/* 255 characters */
#define FAT_LFN_MAX_CHARS	255

#endif
