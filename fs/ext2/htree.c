/*
 * ext4 hash tree (htree) directories: lookups through the index and
 * insertions that keep it valid (ext4 wiki "Hash Tree Directories").
 *
 * The index maps name hashes (htree_hash.c) to leaf blocks: block 0 is
 * the root (dx_root_info, then entries), up to DX_MAX_LEVELS - 1 levels
 * of interior nodes below it (DX_MAX_LEVELS_LARGEDIR - 1 with large_dir),
 * then ordinary directory blocks as leaves.  A walk from the root picks in
 * each index block the last entry whose hash is <= the name's (binary
 * search); a leaf holds the names whose hashes lie in its entry's range.
 * An entry whose hash has bit 0 set continues the hash of the one before
 * it: a lookup that misses in a leaf goes on to the next leaf then.
 *
 * Every index block is checked before it is used: root info, limit (what
 * the block holds exactly), count, ascending hashes and child block
 * numbers inside the directory.  A bad index is reported and the caller
 * falls back to a linear scan (-EAGAIN); a checksum mismatch fails the
 * directory (-EUCLEAN), as for a leaf.  With metadata_csum each index
 * block ends its entry area with a dx_tail: crc32c(inode seed) over the
 * block up to the last used entry, then the tail with a zero checksum.
 *
 * Insertion is in htree_add.c; removal leaves the index alone (dir.c).
 */
#include "fs/ext2/htree.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/string.h"

/* The entries an index block holds: what mkfs, e2fsck and Linux use. */
u32 ext2_dx_limit(const struct ext2_fs *fs, bool root)
{
	u32 room = fs->fs_bsize - (root ? DX_ROOT_ENTRIES : DX_NODE_ENTRIES);

	if (fs->fs_csum)
		room -= sizeof(struct dx_tail);
	return room / sizeof(struct dx_entry);
}

u32 ext2_dx_max_levels(const struct ext2_fs *fs)
{
	return le32_to_cpu(fs->fs_sb.s_feature_incompat) & EXT4_FEATURE_INCOMPAT_LARGEDIR ?
	       DX_MAX_LEVELS_LARGEDIR : DX_MAX_LEVELS;
}

/* Does @dir use its htree index?  Only with dir_index on the filesystem. */
bool ext2_dx_indexed(const struct ext2_inode_info *dir)
{
	const struct ext2_fs *fs = dir->ei_fs;

	return (le32_to_cpu(dir->ei_raw.i_flags) & EXT2_INDEX_FL) &&
	       (le32_to_cpu(fs->fs_sb.s_feature_compat) & EXT2_FEATURE_COMPAT_DIR_INDEX);
}

/* Is block @lblk (@bh) of @dir an index block (root or interior node)? */
bool ext2_dx_is_index(const struct ext2_inode_info *dir, struct buffer_head *bh, u64 lblk)
{
	const struct ext2_dir_entry *de = (const struct ext2_dir_entry *)bh->b_data;

	if (!ext2_dx_indexed(dir))
		return false;
	return lblk == 0 || (!de->inode && le16_to_cpu(de->rec_len) == dir->ei_fs->fs_bsize &&
			     !de->name_len);
}

/*
 * Does block @lblk (@bh) look like an interior node: an index block whose
 * limit is a node's?  (Without metadata_csum an emptied leaf also starts
 * with one unused entry spanning the block; its old name bytes do not
 * make a node's limit.)
 */
bool ext2_dx_is_node(const struct ext2_inode_info *dir, struct buffer_head *bh, u64 lblk)
{
	return lblk && ext2_dx_is_index(dir, bh, lblk) &&
	       le16_to_cpu(dx_cl(bh, DX_NODE_ENTRIES)->limit) == ext2_dx_limit(dir->ei_fs, false);
}

/* Entries of index block @lblk start here. */
static u32 dx_off(u64 lblk)
{
	return lblk == 0 ? DX_ROOT_ENTRIES : DX_NODE_ENTRIES;
}

/*
 * The checksum of index block @bh (entries at @off) into *@csum, and its
 * tail into *@tp; -EUCLEAN when count and limit leave no room for a tail.
 */
static int dx_csum(const struct ext2_inode_info *dir, struct buffer_head *bh, u32 off,
		   struct dx_tail **tp, u32 *csum)
{
	u32 limit = le16_to_cpu(dx_cl(bh, off)->limit), count = dx_count(bh, off);
	static const u8 zero[4];
	struct dx_tail *t;
	u32 c;

	if (count > limit || off + (limit + 1) * sizeof(struct dx_entry) > dir->ei_fs->fs_bsize)
		return -EUCLEAN;
	t = (struct dx_tail *)dx_entries(bh, off + limit * sizeof(struct dx_entry));
	c = ext2_csum(dir->ei_csum_seed, bh->b_data, off + count * sizeof(struct dx_entry));
	c = ext2_csum(c, &t->dt_reserved, sizeof(t->dt_reserved));
	c = ext2_csum(c, zero, sizeof(zero));
	*tp = t;
	*csum = c;
	return 0;
}

/**
 * ext2_dx_csum_verify - check the dx_tail checksum of index block @lblk
 * Returns 0, or -EUCLEAN (reported with the directory and block).
 */
int ext2_dx_csum_verify(struct ext2_inode_info *dir, struct buffer_head *bh, u64 lblk)
{
	struct dx_tail *t;
	const char *why;
	u32 c;

	if (dx_csum(dir, bh, dx_off(lblk), &t, &c))
		why = "no room for the checksum tail";
	else if (le32_to_cpu(t->dt_checksum) != c)
		why = "checksum mismatch";
	else
		return 0;
	ext2_error(dir->ei_fs, "htree", "directory inode %u, index block %llu (disk block %llu): %s",
		   dir->ei_ino, (unsigned long long)lblk, (unsigned long long)bh->b_blocknr, why);
	return -EUCLEAN;
}

/* Set the dx_tail checksum of index block @lblk (checked when it was read or built). */
void ext2_dx_csum_set(struct ext2_inode_info *dir, struct buffer_head *bh, u64 lblk)
{
	struct dx_tail *t;
	u32 c;

	if (dx_csum(dir, bh, dx_off(lblk), &t, &c))
		panic("ext2_dx_csum_set: index block without a tail");
	t->dt_checksum = cpu_to_le32(c);
}

void ext2_dx_release(struct dx_path *p)
{
	u32 i;

	for (i = 0; i < p->p_levels; i++)
		brelse(p->p_frame[i].f_bh);
	p->p_levels = 0;
}

/* The bad index: reported once, and the caller scans linearly. */
int ext2_dx_bad(struct ext2_inode_info *dir, u64 lblk, const char *why)
{
	ext2_error(dir->ei_fs, "htree", "directory inode %u, index block %llu: %s; "
		   "searching it linearly", dir->ei_ino, (unsigned long long)lblk, why);
	return -EAGAIN;
}

/* Check index block @f and choose its entry for @hash.  0 or -EAGAIN (reported). */
static int dx_choose(struct ext2_inode_info *dir, struct dx_frame *f, bool root, u32 hash)
{
	struct dx_entry *e = dx_entries(f->f_bh, f->f_off);
	u32 count = dx_count(f->f_bh, f->f_off), nblk = (u32)(ext2_isize(dir) >> dir->ei_fs->fs_bshift);
	u32 i, lo, hi;

	if (le16_to_cpu(dx_cl(f->f_bh, f->f_off)->limit) != ext2_dx_limit(dir->ei_fs, root))
		return ext2_dx_bad(dir, f->f_lblk, "wrong limit");
	if (count == 0 || count > ext2_dx_limit(dir->ei_fs, root))
		return ext2_dx_bad(dir, f->f_lblk, "bad count");
	for (i = 0; i < count; i++) {
		u32 b = le32_to_cpu(e[i].block);

		if (b == 0 || b >= nblk)
			return ext2_dx_bad(dir, f->f_lblk, "block number outside the directory");
		if (i > 1 && le32_to_cpu(e[i].hash) < le32_to_cpu(e[i - 1].hash))
			return ext2_dx_bad(dir, f->f_lblk, "hashes out of order");
	}
	/* The last entry whose hash is <= @hash; entry 0 covers everything below entry 1. */
	lo = 1;
	hi = count;
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (le32_to_cpu(e[mid].hash) > hash)
			hi = mid;
		else
			lo = mid + 1;
	}
	f->f_at = lo - 1;
	return 0;
}

/* Read index node @lblk into frame @f; 0, -EAGAIN (not a node, reported), -errno. */
static int dx_read_node(struct ext2_inode_info *dir, struct dx_frame *f, u64 lblk)
{
	struct buffer_head *bh;

	f->f_bh = NULL;
	bh = ext2_dir_read(dir, lblk);
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	f->f_bh = bh;
	f->f_lblk = lblk;
	f->f_off = DX_NODE_ENTRIES;
	f->f_at = 0;
	if (!ext2_dx_is_node(dir, bh, lblk))
		return ext2_dx_bad(dir, lblk, "index node expected");
	return 0;
}

/*
 * Walk from the root to the leaf for @name: the path in @p (release with
 * ext2_dx_release() whatever this returns).  0, -EAGAIN for a bad index
 * (reported), -errno.
 */
int ext2_dx_probe(struct ext2_inode_info *dir, const char *name, size_t len, struct dx_path *p)
{
	struct ext2_fs *fs = dir->ei_fs;
	const struct ext2_dir_entry *dot, *dotdot;
	const struct dx_root_info *info;
	struct buffer_head *bh;
	u32 i, levels;
	int err;

	p->p_levels = 0;
	bh = ext2_dir_read(dir, 0);
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	p->p_frame[0] = (struct dx_frame){ .f_bh = bh, .f_lblk = 0, .f_off = DX_ROOT_ENTRIES };
	p->p_levels = 1;
	info = dx_info(bh);
	dot = (const struct ext2_dir_entry *)bh->b_data;
	dotdot = (const struct ext2_dir_entry *)(bh->b_data + EXT2_DIR_REC_LEN(1));
	if (le16_to_cpu(dot->rec_len) != EXT2_DIR_REC_LEN(1) ||
	    le16_to_cpu(dotdot->rec_len) != fs->fs_bsize - EXT2_DIR_REC_LEN(1))
		return ext2_dx_bad(dir, 0, "\".\" and \"..\" not as in a root");
	if (info->reserved_zero || info->info_length != sizeof(*info) || info->unused_flags)
		return ext2_dx_bad(dir, 0, "bad root info");
	if (info->hash_version > DX_HASH_TEA)
		return ext2_dx_bad(dir, 0, "unsupported hash version");
	levels = info->indirect_levels;
	if (levels >= ext2_dx_max_levels(fs))
		return ext2_dx_bad(dir, 0, "too many levels");
	p->p_version = info->hash_version;
	if (le32_to_cpu(fs->fs_sb.s_flags) & EXT2_FLAGS_UNSIGNED_HASH)
		p->p_version += DX_HASH_LEGACY_UNSIGNED;
	for (i = 0; i < 4; i++)
		p->p_seed[i] = le32_to_cpu(fs->fs_sb.s_hash_seed[i]);
	p->p_hash = ext2_dx_hash(p->p_version, p->p_seed, name, len);
	for (i = 0;; i++) {
		struct dx_frame *f = &p->p_frame[i];

		err = dx_choose(dir, f, i == 0, p->p_hash);
		if (err || i == levels)
			return err;
		err = dx_read_node(dir, &p->p_frame[i + 1],
				   le32_to_cpu(dx_entries(f->f_bh, f->f_off)[f->f_at].block));
		if (p->p_frame[i + 1].f_bh)
			p->p_levels++;
		if (err)
			return err;
	}
}

/* The leaf the path ends at. */
u64 ext2_dx_leaf(const struct dx_path *p)
{
	const struct dx_frame *f = &p->p_frame[p->p_levels - 1];

	return le32_to_cpu(dx_entries(f->f_bh, f->f_off)[f->f_at].block);
}

/*
 * Step the path to the next leaf if its range continues the hash looked
 * for (a run of equal hashes split across leaves).  1 moved, 0 not, -errno.
 */
static int dx_next_leaf(struct ext2_inode_info *dir, struct dx_path *p)
{
	int i = (int)p->p_levels - 1, err;
	struct dx_frame *f;
	u32 h;

	for (;; i--) {
		f = &p->p_frame[i];
		if (f->f_at + 1 < dx_count(f->f_bh, f->f_off))
			break;
		if (i == 0)
			return 0;
	}
	h = le32_to_cpu(dx_entries(f->f_bh, f->f_off)[f->f_at + 1].hash);
	if ((h & ~1u) != p->p_hash)
		return 0;
	f->f_at++;
	for (; i + 1 < (int)p->p_levels; i++) {
		struct dx_frame *c = &p->p_frame[i + 1];

		brelse(c->f_bh);
		c->f_bh = NULL;
		err = dx_read_node(dir, c, le32_to_cpu(dx_entries(f->f_bh, f->f_off)[f->f_at].block));
		if (!err)
			err = dx_choose(dir, c, false, 0);	/* checks it */
		c->f_at = 0;
		if (err) {
			if (!c->f_bh)
				p->p_levels = (u32)i + 1;
			return err;
		}
		f = c;
	}
	return 1;
}

/**
 * ext2_dx_find - look @name up in indexed directory @dir through its index
 * Returns 0 with *@ino set, -ENOENT, -EAGAIN when the index is bad
 * (reported; the caller scans linearly), -EUCLEAN, -EIO.
 */
int ext2_dx_find(struct ext2_inode_info *dir, const char *name, size_t len, u32 *ino)
{
	struct buffer_head *bh;
	struct dx_path p;
	u64 leaf;
	int err;

	err = ext2_dx_probe(dir, name, len, &p);
	while (!err) {
		leaf = ext2_dx_leaf(&p);
		bh = ext2_dir_read(dir, leaf);
		if (IS_ERR(bh)) {
			err = PTR_ERR(bh);
			break;
		}
		if (leaf == 0 || ext2_dx_is_node(dir, bh, leaf))
			err = ext2_dx_bad(dir, leaf, "leaf expected, index found");
		else
			err = ext2_dir_block_find(dir, bh, leaf, name, len, ino);
		brelse(bh);
		if (err != -ENOENT)
			break;
		err = dx_next_leaf(dir, &p);
		if (err == 0)
			err = -ENOENT;
		else if (err == 1)
			err = 0;
		else
			break;
		if (err)
			break;
	}
	ext2_dx_release(&p);
	return err;
}
