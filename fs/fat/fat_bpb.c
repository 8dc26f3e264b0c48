/*
 * FAT geometry: the boot sector's BPB checked rule by rule (fatgen103
 * "Boot Sector and BPB") and turned into a struct fat_geom; the FAT type
 * from the count of data clusters ("FAT Type Determination": the type
 * string is informational and ignored); FAT entries decoded and a cluster
 * chain walked with range and loop checks ("FAT Data Structure"); DOS
 * dates and times ("Date and Time Formats").
 *
 * Portable: no I/O here.  The disk is hostile, so every count is checked
 * before it is used in arithmetic, and a chain walk stops after as many
 * steps as the volume has clusters: a longer chain must loop.
 */
#include "fs/fat/fat_format.h"
#include "kernel/errno.h"
#include "lib/string.h"

static bool is_pow2(u32 v)
{
	return v && !(v & (v - 1));
}

static u32 log2u(u32 v)
{
	u32 s = 0;

	while ((1u << s) < v)
		s++;
	return s;
}

bool fat_bpb_plausible(const u8 *sec)
{
	const struct fat_boot_sector *bs = (const void *)sec;
	u32 bps = le16_to_cpu(bs->bpb_bytspersec);

	if (sec[FAT_BOOT_SIG_OFF] != 0x55 || sec[FAT_BOOT_SIG_OFF + 1] != 0xAA)
		return false;
	if (!(bs->bs_jmpboot[0] == 0xEB && bs->bs_jmpboot[2] == 0x90) && bs->bs_jmpboot[0] != 0xE9)
		return false;
	/* An MBR's boot code may start with a jump too, but never has a sector size there. */
	return is_pow2(bps) && bps >= FAT_MIN_SECTOR && bps <= FAT_MAX_SECTOR;
}

static void fat_copy_label(struct fat_geom *g, const u8 *lab)
{
	int n = 11;

	memcpy(g->g_label, lab, 11);
	while (n > 0 && (g->g_label[n - 1] == ' ' || g->g_label[n - 1] == '\0'))
		n--;
	g->g_label[n] = '\0';
	if (!strcmp(g->g_label, "NO NAME"))
		g->g_label[0] = '\0';
}

int fat_bpb_parse(const u8 *sec, u32 len, u64 dev_sectors, struct fat_geom *g,
		  const char **why)
{
	const struct fat_boot_sector *bs = (const void *)sec;
	u32 fatsz, totsec, bps, spc, need, bits;
	u64 dev_bytes = dev_sectors * 512, meta;

	memset(g, 0, sizeof(*g));
	*why = NULL;
	if (len < FAT_MIN_SECTOR) {
		*why = "boot sector too short";
		goto bad;
	}
	if (sec[FAT_BOOT_SIG_OFF] != 0x55 || sec[FAT_BOOT_SIG_OFF + 1] != 0xAA) {
		*why = "no boot signature 0x55 0xAA";
		goto bad;
	}
	bps = le16_to_cpu(bs->bpb_bytspersec);
	if (!is_pow2(bps) || bps < FAT_MIN_SECTOR || bps > FAT_MAX_SECTOR) {
		*why = "bytes per sector not a power of two in 512..4096";
		goto bad;
	}
	spc = bs->bpb_secperclus;
	if (!is_pow2(spc)) {
		*why = "sectors per cluster not a power of two";
		goto bad;
	}
	if (bps * spc > FAT_MAX_CLUSTER_BYTES) {
		*why = "cluster larger than 64 KiB";
		goto bad;
	}
	g->g_bps = bps;
	g->g_bps_shift = log2u(bps);
	g->g_spc = spc;
	g->g_csize = bps * spc;
	g->g_rsvd = le16_to_cpu(bs->bpb_rsvdseccnt);
	if (g->g_rsvd == 0) {
		*why = "no reserved sectors";
		goto bad;
	}
	g->g_nfats = bs->bpb_numfats;
	if (g->g_nfats == 0 || g->g_nfats > 4) {
		*why = "number of FATs not 1..4";
		goto bad;
	}
	g->g_root_ents = le16_to_cpu(bs->bpb_rootentcnt);
	if ((g->g_root_ents * FAT_DIRENT_SIZE) % bps) {
		*why = "root entries do not fill whole sectors";
		goto bad;
	}
	g->g_root_secs = g->g_root_ents * FAT_DIRENT_SIZE / bps;
	fatsz = le16_to_cpu(bs->bpb_fatsz16);
	if (!fatsz)
		fatsz = le32_to_cpu(bs->f32.bpb_fatsz32);
	totsec = le16_to_cpu(bs->bpb_totsec16);
	if (!totsec)
		totsec = le32_to_cpu(bs->bpb_totsec32);
	if (!fatsz || !totsec) {
		*why = "FAT size or total sectors is zero";
		goto bad;
	}
	if ((u64)totsec * bps > dev_bytes) {
		*why = "the volume is larger than its device";
		goto bad;
	}
	g->g_fatsz = fatsz;
	g->g_total = totsec;
	meta = g->g_rsvd + (u64)g->g_nfats * fatsz + g->g_root_secs;
	if (meta >= totsec) {
		*why = "no room for data after the FATs and root directory";
		goto bad;
	}
	g->g_root_start = g->g_rsvd + g->g_nfats * fatsz;
	g->g_data_start = (u32)meta;
	g->g_clusters = (totsec - g->g_data_start) / spc;
	if (g->g_clusters == 0) {
		*why = "no data clusters";
		goto bad;
	}
	/* fatgen103 "FAT Type Determination": the cluster count alone. */
	if (g->g_clusters <= FAT12_MAX_CLUSTERS)
		g->g_type = 12;
	else if (g->g_clusters <= FAT16_MAX_CLUSTERS)
		g->g_type = 16;
	else
		g->g_type = 32;
	if (g->g_type == 32) {
		if (g->g_root_ents || le16_to_cpu(bs->bpb_fatsz16)) {
			*why = "FAT32 cluster count with a FAT12/16 root or FAT size";
			goto bad;
		}
		if (le16_to_cpu(bs->f32.bpb_fsver) != 0) {
			*why = "FAT32 version not 0.0";
			goto bad;
		}
		if (g->g_clusters > FAT32_MAX_CLUSTERS - FAT_FIRST_CLUSTER) {
			*why = "too many clusters";
			goto bad;
		}
		g->g_root_clus = le32_to_cpu(bs->f32.bpb_rootclus);
		if (!fat_valid_cluster(g, g->g_root_clus)) {
			*why = "root cluster outside the volume";
			goto bad;
		}
		g->g_fsinfo = le16_to_cpu(bs->f32.bpb_fsinfo);
		if (g->g_fsinfo == 0 || g->g_fsinfo >= g->g_rsvd || g->g_fsinfo == 0xFFFF)
			g->g_fsinfo = 0;
		g->g_mirror = !(le16_to_cpu(bs->f32.bpb_extflags) & FAT_EXTFLAGS_NOMIRROR);
		g->g_active_fat = le16_to_cpu(bs->f32.bpb_extflags) & FAT_EXTFLAGS_ACTIVE;
		if (g->g_active_fat >= g->g_nfats) {
			*why = "active FAT does not exist";
			goto bad;
		}
		if (bs->f32.bs_bootsig == FAT_BOOTSIG_EXT) {
			g->g_volid = le32_to_cpu(bs->f32.bs_volid);
			fat_copy_label(g, bs->f32.bs_vollab);
		}
	} else {
		if (g->g_root_ents == 0) {
			*why = "FAT12/16 cluster count with no root directory";
			goto bad;
		}
		g->g_mirror = true;
		if (bs->f16.bs_bootsig == FAT_BOOTSIG_EXT) {
			g->g_volid = le32_to_cpu(bs->f16.bs_volid);
			fat_copy_label(g, bs->f16.bs_vollab);
		}
	}
	/* Each FAT must hold an entry for every cluster, 0 and 1 included. */
	bits = g->g_type == 12 ? 12 : g->g_type == 16 ? 16 : 32;
	need = (u32)((((u64)g->g_clusters + FAT_FIRST_CLUSTER) * bits + 7) / 8);
	if ((u64)fatsz * bps < need) {
		*why = "FAT too small for the cluster count";
		goto bad;
	}
	return 0;
bad:
	return -EINVAL;
}

u32 fat_eoc(const struct fat_geom *g)
{
	return g->g_type == 12 ? 0x0FFF : g->g_type == 16 ? 0xFFFF : FAT32_MASK;
}

enum fat_entry_kind fat_entry_kind(const struct fat_geom *g, u32 val)
{
	u32 bad = g->g_type == 12 ? FAT12_BAD : g->g_type == 16 ? FAT16_BAD : FAT32_BAD;

	if (g->g_type == 32)
		val &= FAT32_MASK;
	if (val == 0)
		return FAT_ENT_FREE;
	if (fat_valid_cluster(g, val))
		return FAT_ENT_NEXT;
	if (val == bad)
		return FAT_ENT_BAD;
	if (val > bad)
		return FAT_ENT_EOC;
	return FAT_ENT_INVALID;
}

u32 fat_entry_offset(const struct fat_geom *g, u32 clus)
{
	if (g->g_type == 12)
		return clus + clus / 2;
	return g->g_type == 16 ? clus * 2 : clus * 4;
}

u32 fat12_decode(u32 clus, u16 word)
{
	return clus & 1 ? word >> 4 : word & 0x0FFF;
}

u16 fat12_encode(u32 clus, u16 word, u32 val)
{
	if (clus & 1)
		return (u16)((word & 0x000F) | ((val & 0x0FFF) << 4));
	return (u16)((word & 0xF000) | (val & 0x0FFF));
}

int fat_chain_walk(const struct fat_geom *g, fat_get_fn get, void *ctx, u32 start,
		   u32 *count, u32 *last)
{
	u32 c = start, n = 0, v;
	int err;

	*count = 0;
	*last = 0;
	if (start == 0)
		return 0;
	for (;;) {
		if (!fat_valid_cluster(g, c) || n >= g->g_clusters)
			return -EUCLEAN;	/* out of range, or longer than the volume: a loop */
		n++;
		err = get(ctx, c, &v);
		if (err)
			return err;
		switch (fat_entry_kind(g, v)) {
		case FAT_ENT_NEXT:
			c = g->g_type == 32 ? v & FAT32_MASK : v;
			continue;
		case FAT_ENT_EOC:
			*count = n;
			*last = c;
			return 0;
		default:
			return -EUCLEAN;
		}
	}
}

/* Days since 1970-01-01 of a civil date (Howard Hinnant's days_from_civil). */
static s64 days_from_civil(s64 y, u32 m, u32 d)
{
	s64 era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* DOS dates run 1980-01-01 .. 2107-12-31; times outside are clamped.  UTC. */
void fat_time_to_dos(s64 t, u16 *date, u16 *time, u8 *tenth)
{
	s64 days, z, era, doe, yoe, y, doy, mp, d, m, secs;

	if (t < 315532800)			/* 1980-01-01 */
		t = 315532800;
	if (t > 4354819199LL)			/* 2107-12-31 23:59:59 */
		t = 4354819199LL;
	days = t / 86400;
	secs = t % 86400;
	z = days + 719468;
	era = z / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	y = yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	d = doy - (153 * mp + 2) / 5 + 1;
	m = mp < 10 ? mp + 3 : mp - 9;
	y += m <= 2;
	*date = (u16)(((y - 1980) << 9) | (m << 5) | d);
	*time = (u16)(((secs / 3600) << 11) | ((secs / 60 % 60) << 5) | (secs % 60 / 2));
	if (tenth)
		*tenth = (u8)(secs % 2 * 100);
}

s64 fat_time_from_dos(u16 date, u16 time)
{
	u32 y = 1980 + (date >> 9), m = (date >> 5) & 15, d = date & 31;
	u32 hh = time >> 11, mm = (time >> 5) & 63, ss = (time & 31) * 2;

	if (m < 1 || m > 12 || d < 1)
		return 315532800;	/* a zero or broken date: the epoch of FAT */
	return days_from_civil(y, m, d) * 86400 + hh * 3600 + mm * 60 + ss;
}
