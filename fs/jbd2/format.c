/*
 * JBD2 format helpers (fs/jbd2, portable: built into the kernel and into
 * the host unit tests): the journal superblock check, tag packing in its
 * four layouts, descriptor and revoke block tails, commit block
 * checksums and the escaping of blocks that begin with the magic.
 *
 * Checksums (ext4 wiki "Journal (jbd2)", "Checksums"): with csum_v2 or
 * csum_v3 every checksum is crc32c (Castagnoli, reflected, no final
 * inversion) seeded with crc32c(~0, s_uuid); the superblock's is seeded
 * with ~0 instead.  Descriptor and revoke blocks keep theirs in the last
 * four bytes, commit blocks in h_chksum[0], tags carry the checksum of
 * (sequence, log copy of the block): 32 bits in v3, the low 16 in v2.
 * The old v1 "checksum" compat feature (a crc32 over a whole transaction)
 * is neither checked nor written: a compat feature may be ignored.
 *
 * Tag layouts (jbd2_tag_bytes): v3 16 bytes; otherwise 8, +4 with 64bit,
 * +2 with v2.  A tag without SAME_UUID is followed by 16 bytes of UUID.
 */
#include "fs/jbd2/jbd2.h"
#include "kernel/errno.h"
#include "lib/crc32c.h"
#include "lib/string.h"

static bool has_csum(const struct jbd2_fmt *f)
{
	return f->f_incompat & (JBD2_FEATURE_INCOMPAT_CSUM_V2 | JBD2_FEATURE_INCOMPAT_CSUM_V3);
}

u32 jbd2_tag_bytes(const struct jbd2_fmt *f)
{
	u32 sz = sizeof(struct jbd2_tag);

	if (f->f_incompat & JBD2_FEATURE_INCOMPAT_CSUM_V3)
		return sizeof(struct jbd2_tag3);
	if (f->f_incompat & JBD2_FEATURE_INCOMPAT_CSUM_V2)
		sz += 2;
	return (f->f_incompat & JBD2_FEATURE_INCOMPAT_64BIT) ? sz : sz - 4;
}

/* Bytes of a descriptor or revoke block usable before the checksum tail. */
static u32 usable_bytes(const struct jbd2_fmt *f)
{
	return f->f_bsize - (has_csum(f) ? sizeof(struct jbd2_block_tail) : 0);
}

u32 jbd2_tags_per_desc(const struct jbd2_fmt *f)
{
	/* The first tag carries the UUID; all later ones are SAME_UUID. */
	return (usable_bytes(f) - sizeof(struct jbd2_header) - JBD2_UUID_BYTES) /
	       jbd2_tag_bytes(f);
}

u32 jbd2_revokes_per_block(const struct jbd2_fmt *f)
{
	u32 rec = (f->f_incompat & JBD2_FEATURE_INCOMPAT_64BIT) ? 8 : 4;

	return (usable_bytes(f) - sizeof(struct jbd2_revoke_header)) / rec;
}

int jbd2_sb_load(struct jbd2_fmt *f, const struct jbd2_superblock *sb, u32 fs_bsize,
		 u32 nblocks, const char **why)
{
	u32 type = be32_to_cpu(sb->s_header.h_blocktype);
	u32 maxlen = be32_to_cpu(sb->s_maxlen), first = be32_to_cpu(sb->s_first);
	u32 start = be32_to_cpu(sb->s_start);
	u32 supported = JBD2_FEATURE_INCOMPAT_REVOKE | JBD2_FEATURE_INCOMPAT_64BIT |
			JBD2_FEATURE_INCOMPAT_ASYNC_COMMIT | JBD2_FEATURE_INCOMPAT_CSUM_V2 |
			JBD2_FEATURE_INCOMPAT_CSUM_V3;

	memset(f, 0, sizeof(*f));
	*why = NULL;
	if (be32_to_cpu(sb->s_header.h_magic) != JBD2_MAGIC_NUMBER)
		*why = "bad journal superblock magic";
	else if (type != JBD2_SUPERBLOCK_V1 && type != JBD2_SUPERBLOCK_V2)
		*why = "unknown journal superblock version";
	else if (be32_to_cpu(sb->s_blocksize) != fs_bsize)
		*why = "journal block size differs from the filesystem's";
	else if (maxlen < JBD2_MIN_BLOCKS || maxlen > nblocks)
		*why = "journal length does not match the journal inode";
	else if (first == 0 || first >= maxlen)
		*why = "journal s_first out of range";
	else if (start && (start < first || start >= maxlen))
		*why = "journal s_start out of range";
	if (*why)
		return -EUCLEAN;
	f->f_bsize = fs_bsize;
	f->f_first = first;
	f->f_maxlen = maxlen;
	if (type == JBD2_SUPERBLOCK_V2) {
		f->f_incompat = be32_to_cpu(sb->s_feature_incompat);
		f->f_ro_compat = be32_to_cpu(sb->s_feature_ro_compat);
		f->f_compat = be32_to_cpu(sb->s_feature_compat);
	}
	if (f->f_incompat & ~supported) {
		*why = (f->f_incompat & JBD2_FEATURE_INCOMPAT_FAST_COMMIT) ?
			"journal uses fast commits (unsupported)" :
			"journal has unknown incompatible features";
		return -EOPNOTSUPP;
	}
	if (f->f_ro_compat) {
		*why = "journal has unknown read-only features";
		return -EOPNOTSUPP;
	}
	if ((f->f_incompat & JBD2_FEATURE_INCOMPAT_CSUM_V2) &&
	    (f->f_incompat & JBD2_FEATURE_INCOMPAT_CSUM_V3)) {
		*why = "journal claims both csum v2 and v3";
		return -EUCLEAN;
	}
	if (has_csum(f)) {
		if (sb->s_checksum_type != JBD2_CRC32C_CHKSUM) {
			*why = "journal checksum type is not crc32c";
			return -EOPNOTSUPP;
		}
		if (jbd2_sb_csum(sb) != be32_to_cpu(sb->s_checksum)) {
			*why = "journal superblock checksum mismatch";
			return -EUCLEAN;
		}
		f->f_seed = crc32c(~0u, sb->s_uuid, JBD2_UUID_BYTES);
	}
	return 0;
}

u32 jbd2_sb_csum(const struct jbd2_superblock *sb)
{
	struct jbd2_superblock copy;

	memcpy(&copy, sb, sizeof(copy));
	copy.s_checksum = 0;
	return crc32c(~0u, &copy, sizeof(copy));
}

/* crc32c(seed, block) with the 4 bytes at @hole counted as zero. */
static u32 csum_with_hole(const struct jbd2_fmt *f, const u8 *blk, u32 hole)
{
	static const u8 zero[4];
	u32 c = crc32c(f->f_seed, blk, hole);

	c = crc32c(c, zero, 4);
	return crc32c(c, blk + hole + 4, f->f_bsize - hole - 4);
}

bool jbd2_tail_verify(const struct jbd2_fmt *f, const void *blk)
{
	u32 off = f->f_bsize - sizeof(struct jbd2_block_tail);
	be32 stored;

	if (!has_csum(f))
		return true;
	memcpy(&stored, (const u8 *)blk + off, 4);
	return csum_with_hole(f, blk, off) == be32_to_cpu(stored);
}

void jbd2_tail_set(const struct jbd2_fmt *f, void *blk)
{
	u32 off = f->f_bsize - sizeof(struct jbd2_block_tail);
	be32 v;

	if (!has_csum(f))
		return;
	v = cpu_to_be32(csum_with_hole(f, blk, off));
	memcpy((u8 *)blk + off, &v, 4);
}

bool jbd2_commit_verify(const struct jbd2_fmt *f, const void *blk)
{
	const struct jbd2_commit_header *h = blk;

	if (!has_csum(f))
		return true;
	return csum_with_hole(f, blk, offsetof(struct jbd2_commit_header, h_chksum)) ==
	       be32_to_cpu(h->h_chksum[0]);
}

void jbd2_commit_set(const struct jbd2_fmt *f, void *blk)
{
	struct jbd2_commit_header *h = blk;

	if (!has_csum(f))
		return;
	h->h_chksum_type = 0;
	h->h_chksum_size = 0;
	h->h_chksum[0] = cpu_to_be32(csum_with_hole(f, blk,
				     offsetof(struct jbd2_commit_header, h_chksum)));
}

u32 jbd2_block_csum(const struct jbd2_fmt *f, u32 seq, const void *blk)
{
	be32 s = cpu_to_be32(seq);
	u32 c = crc32c(f->f_seed, &s, sizeof(s));

	return crc32c(c, blk, f->f_bsize);
}

int jbd2_tag_get(const struct jbd2_fmt *f, const u8 *desc, u32 *off, struct jbd2_tag_info *t)
{
	u32 tb = jbd2_tag_bytes(f), end = usable_bytes(f);
	bool b64 = f->f_incompat & JBD2_FEATURE_INCOMPAT_64BIT;

	if (*off + tb > end)
		return -EUCLEAN;
	if (f->f_incompat & JBD2_FEATURE_INCOMPAT_CSUM_V3) {
		struct jbd2_tag3 t3;

		memcpy(&t3, desc + *off, sizeof(t3));
		t->ti_block = be32_to_cpu(t3.t_blocknr);
		if (b64)
			t->ti_block |= (u64)be32_to_cpu(t3.t_blocknr_high) << 32;
		t->ti_flags = be32_to_cpu(t3.t_flags);
		t->ti_csum = be32_to_cpu(t3.t_checksum);
	} else {
		struct jbd2_tag tg;

		memset(&tg, 0, sizeof(tg));
		memcpy(&tg, desc + *off, min(tb, (u32)sizeof(tg)));
		t->ti_block = be32_to_cpu(tg.t_blocknr);
		if (b64)
			t->ti_block |= (u64)be32_to_cpu(tg.t_blocknr_high) << 32;
		t->ti_flags = be16_to_cpu(tg.t_flags);
		t->ti_csum = be16_to_cpu(tg.t_checksum);
	}
	*off += tb;
	if (!(t->ti_flags & JBD2_FLAG_SAME_UUID)) {
		if (*off + JBD2_UUID_BYTES > end)
			return -EUCLEAN;
		*off += JBD2_UUID_BYTES;
	}
	return 0;
}

void jbd2_tag_put(const struct jbd2_fmt *f, u8 *desc, u32 *off, const struct jbd2_tag_info *t,
		  const u8 *uuid)
{
	u32 tb = jbd2_tag_bytes(f);

	if (f->f_incompat & JBD2_FEATURE_INCOMPAT_CSUM_V3) {
		struct jbd2_tag3 t3 = {
			.t_blocknr	= cpu_to_be32((u32)t->ti_block),
			.t_flags	= cpu_to_be32(t->ti_flags),
			.t_blocknr_high	= cpu_to_be32((u32)(t->ti_block >> 32)),
			.t_checksum	= cpu_to_be32(t->ti_csum),
		};
		memcpy(desc + *off, &t3, sizeof(t3));
	} else {
		struct jbd2_tag tg = {
			.t_blocknr	= cpu_to_be32((u32)t->ti_block),
			.t_checksum	= cpu_to_be16((u16)t->ti_csum),
			.t_flags	= cpu_to_be16((u16)t->ti_flags),
			.t_blocknr_high	= cpu_to_be32((u32)(t->ti_block >> 32)),
		};
		memset(desc + *off, 0, tb);
		memcpy(desc + *off, &tg, min(tb, (u32)sizeof(tg)));
	}
	*off += tb;
	if (!(t->ti_flags & JBD2_FLAG_SAME_UUID)) {
		memcpy(desc + *off, uuid, JBD2_UUID_BYTES);
		*off += JBD2_UUID_BYTES;
	}
}

bool jbd2_needs_escape(const void *blk)
{
	be32 m;

	memcpy(&m, blk, sizeof(m));
	return be32_to_cpu(m) == JBD2_MAGIC_NUMBER;
}

void jbd2_escape(void *blk, bool on)
{
	be32 m = on ? 0 : cpu_to_be32(JBD2_MAGIC_NUMBER);

	memcpy(blk, &m, sizeof(m));
}

void jbd2_header_set(void *blk, u32 type, u32 seq)
{
	struct jbd2_header h = {
		.h_magic	= cpu_to_be32(JBD2_MAGIC_NUMBER),
		.h_blocktype	= cpu_to_be32(type),
		.h_sequence	= cpu_to_be32(seq),
	};
	memcpy(blk, &h, sizeof(h));
}

bool jbd2_header_get(const void *blk, u32 *type, u32 *seq)
{
	struct jbd2_header h;

	memcpy(&h, blk, sizeof(h));
	*type = be32_to_cpu(h.h_blocktype);
	*seq = be32_to_cpu(h.h_sequence);
	return be32_to_cpu(h.h_magic) == JBD2_MAGIC_NUMBER;
}

int jbd2_revoke_get(const struct jbd2_fmt *f, const u8 *blk, u32 i, u32 count, u64 *block)
{
	u32 rec = (f->f_incompat & JBD2_FEATURE_INCOMPAT_64BIT) ? 8 : 4;
	u32 off = sizeof(struct jbd2_revoke_header) + i * rec;
	be32 v[2];

	if (off + rec > count)
		return -ENOENT;
	memcpy(v, blk + off, rec);
	*block = rec == 8 ? ((u64)be32_to_cpu(v[0]) << 32) | be32_to_cpu(v[1])
			  : be32_to_cpu(v[0]);
	return 0;
}

int jbd2_revoke_count(const struct jbd2_fmt *f, const void *blk, u32 *count)
{
	struct jbd2_revoke_header r;
	u32 rec = (f->f_incompat & JBD2_FEATURE_INCOMPAT_64BIT) ? 8 : 4;

	memcpy(&r, blk, sizeof(r));
	*count = be32_to_cpu(r.r_count);
	if (*count < sizeof(r) || *count > usable_bytes(f) || (*count - sizeof(r)) % rec)
		return -EUCLEAN;
	return 0;
}

void jbd2_revoke_put(const struct jbd2_fmt *f, u8 *blk, u32 i, u64 block)
{
	u32 rec = (f->f_incompat & JBD2_FEATURE_INCOMPAT_64BIT) ? 8 : 4;
	u32 off = sizeof(struct jbd2_revoke_header) + i * rec;
	be32 v[2] = { cpu_to_be32((u32)(block >> 32)), cpu_to_be32((u32)block) };
	be32 cnt = cpu_to_be32(off + rec);

	memcpy(blk + off, rec == 8 ? &v[0] : &v[1], rec);
	memcpy(blk + offsetof(struct jbd2_revoke_header, r_count), &cnt, 4);
}
