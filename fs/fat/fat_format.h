/*
 * The portable half of FAT: everything that works on bytes already in
 * memory, with no device, cache or VFS behind it, so that it also builds
 * on the host for unit tests and fuzzing (tests/unit/fat_format.mk).
 *
 *  - fat_bpb.c: the boot sector checked and turned into a geometry, the
 *    FAT type decided by the cluster count; FAT entry decoding and the
 *    chain walk with range and loop checks; DOS date and time.
 *  - fat_name.c: long names (UTF-8 <-> UTF-16, the checksum against the
 *    short name, assembly of a name from its entries, building entries),
 *    short names shown as text, and short-name generation for new files
 *    (basis name and ~N numeric tail, as fatgen103 and Windows do).
 *
 * Errors: 0 or a count on success, a negative errno on failure.
 */
#ifndef FS_FAT_FAT_FORMAT_H
#define FS_FAT_FAT_FORMAT_H

#include "kernel/types.h"
#include "fs/fat/fat_fs.h"

/* A volume's geometry, from a checked BPB.  Sector numbers are volume-relative. */
struct fat_geom {
	u32	g_bps;			/* bytes per sector: 512..4096 */
	u32	g_bps_shift;
	u32	g_spc;			/* sectors per cluster */
	u32	g_csize;		/* bytes per cluster */
	u32	g_rsvd;			/* reserved sectors: the first FAT follows */
	u32	g_nfats;
	u32	g_fatsz;		/* sectors per FAT */
	u32	g_root_ents;		/* FAT12/16: fixed root entries */
	u32	g_root_start;		/* FAT12/16: first sector of the root */
	u32	g_root_secs;
	u32	g_data_start;		/* first sector of cluster 2 */
	u32	g_total;		/* sectors in the volume */
	u32	g_clusters;		/* data clusters: numbers 2..g_clusters+1 */
	u32	g_type;			/* 12, 16 or 32 */
	u32	g_root_clus;		/* FAT32: first cluster of the root */
	u32	g_fsinfo;		/* FAT32: FSInfo sector, 0 if none */
	u32	g_active_fat;		/* FAT32 without mirroring: the one FAT in use */
	bool	g_mirror;		/* every FAT copy is written */
	u32	g_volid;
	char	g_label[12];		/* trailing spaces cut; "" if none */
};

/* Classes of a FAT entry's value. */
enum fat_entry_kind {
	FAT_ENT_FREE,		/* 0 */
	FAT_ENT_NEXT,		/* a valid next cluster */
	FAT_ENT_EOC,		/* end of chain */
	FAT_ENT_BAD,		/* bad cluster marker */
	FAT_ENT_INVALID,	/* reserved values and clusters past the end */
};

/* fat_bpb.c */
/*
 * Does @sec (512 bytes at least) look like a FAT boot sector at all: the
 * signature, a jump, a sector size?  The rest is fat_bpb_parse()'s to judge.
 */
bool fat_bpb_plausible(const u8 *sec);
/*
 * Check the boot sector in @sec (@len bytes, at least 512) of a device of
 * @dev_sectors 512-byte sectors, and fill @g.  0, or -EINVAL with *why
 * naming the first rule broken.
 */
int fat_bpb_parse(const u8 *sec, u32 len, u64 dev_sectors, struct fat_geom *g, const char **why);
enum fat_entry_kind fat_entry_kind(const struct fat_geom *g, u32 val);
u32 fat_eoc(const struct fat_geom *g);
/* Byte offset in a FAT of cluster @clus's entry. */
u32 fat_entry_offset(const struct fat_geom *g, u32 clus);
/* FAT12 entries are 12 bits at a nibble-aligned place of a 16-bit word. */
u32 fat12_decode(u32 clus, u16 word);
u16 fat12_encode(u32 clus, u16 word, u32 val);
static inline bool fat_valid_cluster(const struct fat_geom *g, u32 c)
{
	return c >= FAT_FIRST_CLUSTER && c - FAT_FIRST_CLUSTER < g->g_clusters;
}
static inline u32 fat_cluster_sector(const struct fat_geom *g, u32 c)
{
	return g->g_data_start + (c - FAT_FIRST_CLUSTER) * g->g_spc;
}

/* Reads one FAT entry: 0 and *val, or -errno. */
typedef int (*fat_get_fn)(void *ctx, u32 clus, u32 *val);
/*
 * Walk the chain from @start: *count clusters, *last the final one.  A
 * start of 0 is an empty chain.  -EUCLEAN for a chain that leaves the
 * volume, hits a free or bad entry, or is longer than the volume (a loop).
 */
int fat_chain_walk(const struct fat_geom *g, fat_get_fn get, void *ctx, u32 start,
		   u32 *count, u32 *last);

void fat_time_to_dos(s64 t, u16 *date, u16 *time, u8 *tenth);
s64 fat_time_from_dos(u16 date, u16 time);

/* fat_name.c */
/* LFN assembly across the entries before a short entry. */
struct fat_lfn_state {
	u16	ls_name[FAT_LFN_MAX_ENTRIES * FAT_LFN_CHARS + 1];
	u8	ls_next;	/* the sequence number expected next; 0: none pending */
	u8	ls_count;	/* entries in the name */
	u8	ls_chksum;
	bool	ls_valid;	/* a complete, consistent name is pending */
};

u8 fat_lfn_checksum(const u8 shortname[11]);
void fat_lfn_reset(struct fat_lfn_state *s);
void fat_lfn_feed(struct fat_lfn_state *s, const struct fat_lfn *e);
/* The long name for the short entry @shortname (UTF-8 into @out, @size bytes), or 0 if none. */
int fat_lfn_finish(struct fat_lfn_state *s, const u8 shortname[11], char *out, size_t size);
/*
 * Build the long-name entries of @name (@n UTF-16 units) for a short name
 * whose checksum is @chk, in disk order, into @ents; returns how many.
 */
int fat_lfn_build(const u16 *name, u32 n, u8 chk, struct fat_lfn *ents);
/* UTF-8 to UTF-16: the unit count, -EINVAL (bad UTF-8 or a character FAT forbids), -ENAMETOOLONG. */
int fat_name_to_utf16(const char *s, size_t len, u16 *out, size_t max);
/* The short name as text ("README.TXT", lower case by NT's flags), terminated; the length. */
int fat_short_to_text(const u8 shortname[11], u8 ntres, char *out);
/*
 * The basis short name of @name (fatgen103 "Basis-Name Generation"):
 * returns 1 when @name is exactly its own upper-case 8.3 name (no long
 * name needed), 2 when the short name differs only by case (a long name
 * keeps the case, no tail needed), 0 when a numeric tail is needed, or
 * -EINVAL for a name with nothing usable.
 */
int fat_short_basis(const char *name, size_t len, u8 basis[11]);
/* @basis with the numeric tail ~@n (1..999999) put in the name part. */
void fat_short_tail(const u8 basis[11], u32 n, u8 out[11]);
/* Case-insensitive (ASCII) name comparison, as FAT looks names up. */
bool fat_name_eq(const char *a, size_t alen, const char *b, size_t blen);

#endif
