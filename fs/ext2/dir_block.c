/*
 * One block of an ext2/ext4 directory (doc section "Linked Directory
 * Entry"; ext4 wiki "Linear (Classic) Directories" and "Checksums"): the
 * entry checker, the reading, checking and committing of blocks, and
 * finding or adding a name within one block.  dir.c walks whole
 * directories with these; htree.c uses them for its leaves.
 *
 * Entries tile a block exactly (up to the checksum tail with
 * metadata_csum); an entry's rec_len steps to the next.  With
 * metadata_csum a leaf ends in a 12-byte tail shaped like an unused entry
 * (inode 0, rec_len 12, name_len 0, file_type 0xDE) holding
 * crc32c(inode seed, block before the tail).  ext2_dir_read() verifies
 * it (index blocks: their dx_tail, htree.c) and fails the block with a
 * report naming the directory and block; ext2_dir_commit() sets it on
 * every write.  Entries never extend over the tail, so adding one cannot
 * eat it.
 */
#include "fs/ext2/ext2.h"
#include "fs/ext2/htree_fs.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/string.h"

static const u8 ext2_type_by_mode[16] = {
	[EXT2_S_IFREG >> 12]	= EXT2_FT_REG_FILE,
	[EXT2_S_IFDIR >> 12]	= EXT2_FT_DIR,
	[EXT2_S_IFCHR >> 12]	= EXT2_FT_CHRDEV,
	[EXT2_S_IFBLK >> 12]	= EXT2_FT_BLKDEV,
	[EXT2_S_IFIFO >> 12]	= EXT2_FT_FIFO,
	[EXT2_S_IFSOCK >> 12]	= EXT2_FT_SOCK,
	[EXT2_S_IFLNK >> 12]	= EXT2_FT_SYMLINK,
};

static inline struct ext2_dir_entry *de_at(struct buffer_head *bh, u32 off)
{
	return (struct ext2_dir_entry *)(bh->b_data + off);
}


u32 ext2_de_namelen(const struct ext2_fs *fs, const struct ext2_dir_entry *de)
{
	/* Without filetype the length is 16 bits (doc: rev 0 entries). */
	return fs->fs_filetype ? de->name_len : de->name_len | (u32)de->file_type << 8;
}


void ext2_de_set_name(const struct ext2_fs *fs, struct ext2_dir_entry *de,
					       const char *name, size_t len, u32 mode)
{
	de->name_len = (u8)len;
	de->file_type = fs->fs_filetype ? ext2_type_by_mode[(mode & EXT2_S_IFMT) >> 12] : 0;
	memcpy(de->name, name, len);
}


/*
 * Check the entry at @off of directory block @bh, whose entries end at
 * @end; returns its rec_len, or -EUCLEAN (reported).
 */
int ext2_dir_check_entry(struct ext2_inode_info *dir, struct buffer_head *bh, u32 off, u32 end)
{
	struct ext2_fs *fs = dir->ei_fs;
	const struct ext2_dir_entry *de;
	u32 rec, nlen;
	const char *why;

	if (off + sizeof(*de) > end) {
		why = "entry header crosses the block end";
		goto bad;
	}
	de = de_at(bh, off);
	rec = le16_to_cpu(de->rec_len);
	nlen = ext2_de_namelen(fs, de);
	if (rec < EXT2_DIR_REC_LEN(1))
		why = "rec_len too small";
	else if (rec % EXT2_DIR_PAD)
		why = "rec_len not a multiple of 4";
	else if (off + rec > end)
		why = "rec_len crosses the block end";
	else if (nlen > EXT2_NAME_LEN)
		why = "name too long";
	else if (EXT2_DIR_REC_LEN(nlen) > rec)
		why = "name longer than the entry";
	else if (le32_to_cpu(de->inode) > fs->fs_inodes_count)
		why = "inode number out of range";
	else if (le32_to_cpu(de->inode) && nlen == 0)
		why = "empty name";
	else
		return (int)rec;
bad:
	ext2_error(fs, "dir", "directory inode %u, block %llu, offset %u: %s", dir->ei_ino,
		   (unsigned long long)bh->b_blocknr, off, why);
	return -EUCLEAN;
}


/* The tail of leaf block @bh, or NULL if its last 12 bytes are not one. */
static struct ext4_dirent_tail *ext2_dir_tail(const struct ext2_fs *fs, struct buffer_head *bh)
{
	struct ext4_dirent_tail *t;

	t = (struct ext4_dirent_tail *)(bh->b_data + fs->fs_bsize - sizeof(*t));
	if (t->det_reserved_zero1 || le16_to_cpu(t->det_rec_len) != sizeof(*t) ||
	    t->det_reserved_zero2 || t->det_reserved_ft != EXT4_DIRENT_TAIL_FT)
		return NULL;
	return t;
}


static u32 ext2_dir_leaf_csum(const struct ext2_inode_info *dir, struct buffer_head *bh)
{
	return ext2_csum(dir->ei_csum_seed, bh->b_data,
			 dir->ei_fs->fs_bsize - sizeof(struct ext4_dirent_tail));
}


/* Put an empty checksum tail at the end of leaf block @bh (metadata_csum). */
void ext2_dir_set_tail(const struct ext2_fs *fs, struct buffer_head *bh)
{
	struct ext4_dirent_tail *t;

	t = (struct ext4_dirent_tail *)(bh->b_data + fs->fs_bsize - sizeof(*t));
	memset(t, 0, sizeof(*t));
	t->det_rec_len = cpu_to_le16(sizeof(*t));
	t->det_reserved_ft = EXT4_DIRENT_TAIL_FT;
}


/* Where the entries of block @lblk (@bh) of @dir end: before the tail, if any. */
u32 ext2_dir_end(struct ext2_inode_info *dir, struct buffer_head *bh, u64 lblk)
{
	struct ext2_fs *fs = dir->ei_fs;

	if (!fs->fs_csum || ext2_dx_is_index(dir, bh, lblk))
		return fs->fs_bsize;
	return fs->fs_bsize - sizeof(struct ext4_dirent_tail);
}


/*
 * Read block @lblk of directory @dir and verify its checksum; a hole is
 * corruption.  The block, referenced, or an ERR_PTR (reported).
 */
struct buffer_head *ext2_dir_read(struct ext2_inode_info *dir, u64 lblk)
{
	struct ext2_fs *fs = dir->ei_fs;
	struct ext4_dirent_tail *t;
	struct buffer_head *bh;
	const char *why;
	u32 pblk;
	int err;

	err = ext2_bmap(dir, lblk, false, &pblk);
	if (err)
		return ERR_PTR(err);
	if (!pblk) {
		ext2_error(fs, "dir", "directory inode %u has a hole at block %llu",
			   dir->ei_ino, (unsigned long long)lblk);
		return ERR_PTR(-EUCLEAN);
	}
	bh = ext2_bread(fs, pblk);
	if (IS_ERR(bh) || !fs->fs_csum)
		return bh;
	if (ext2_dx_is_index(dir, bh, lblk)) {
		err = ext2_dx_csum_verify(dir, bh, lblk);
		if (err)
			goto release;	/* reported */
		return bh;
	}
	t = ext2_dir_tail(fs, bh);
	if (!t)
		why = "no checksum tail";
	else if (le32_to_cpu(t->det_checksum) != ext2_dir_leaf_csum(dir, bh))
		why = "checksum mismatch";
	else
		return bh;
	ext2_error(fs, "dir", "directory inode %u, block %llu (disk block %u): %s",
		   dir->ei_ino, (unsigned long long)lblk, pblk, why);
	err = -EUCLEAN;
release:
	brelse(bh);
	return ERR_PTR(err);
}


/*
 * Block @lblk (@bh) of @dir changed: set its checksum and hand it to the
 * journal or the dirty list.  0 or the journal's error.
 */
int ext2_dir_commit(struct ext2_inode_info *dir, struct buffer_head *bh, u64 lblk)
{
	struct ext2_fs *fs = dir->ei_fs;
	struct ext4_dirent_tail *t;

	if (fs->fs_csum) {
		if (ext2_dx_is_index(dir, bh, lblk)) {
			ext2_dx_csum_set(dir, bh, lblk);
		} else {
			t = ext2_dir_tail(fs, bh);
			if (!t) {
				ext2_error(fs, "dir", "directory inode %u, block %llu lost its tail",
					   dir->ei_ino, (unsigned long long)lblk);
				return -EUCLEAN;
			}
			t->det_checksum = cpu_to_le32(ext2_dir_leaf_csum(dir, bh));
		}
	}
	return ext2_dirty_meta(fs, bh);
}


/* Is the entry live and named @name? */
bool ext2_de_match(const struct ext2_fs *fs, const struct ext2_dir_entry *de,
		     const char *name, size_t len)
{
	return de->inode && ext2_de_namelen(fs, de) == len && !memcmp(de->name, name, len);
}


/*
 * Find @name in block @lblk (@bh) of @dir: 0 with *@ino set, -ENOENT, or
 * -EUCLEAN (a bad entry, reported).
 */
int ext2_dir_block_find(struct ext2_inode_info *dir, struct buffer_head *bh, u64 lblk,
			const char *name, size_t len, u32 *ino)
{
	u32 off, end = ext2_dir_end(dir, bh, lblk);
	int rec;

	for (off = 0; off < end; off += (u32)rec) {
		rec = ext2_dir_check_entry(dir, bh, off, end);
		if (rec < 0)
			return rec;
		if (ext2_de_match(dir->ei_fs, de_at(bh, off), name, len)) {
			*ino = le32_to_cpu(de_at(bh, off)->inode);
			return 0;
		}
	}
	return -ENOENT;
}


/* Make @bh an empty leaf: one unused entry up to the tail (if any). */
void ext2_dir_format_leaf(struct ext2_inode_info *dir, struct buffer_head *bh)
{
	struct ext2_fs *fs = dir->ei_fs;
	u32 end = fs->fs_bsize;
	struct ext2_dir_entry *de;

	memset(bh->b_data, 0, fs->fs_bsize);
	if (fs->fs_csum) {
		end -= sizeof(struct ext4_dirent_tail);
		ext2_dir_set_tail(fs, bh);
	}
	de = de_at(bh, 0);
	de->rec_len = cpu_to_le16((u16)end);
}


/*
 * Append a block to @dir, zeroed, and return it referenced with its
 * logical number in *@lblk; i_size grows to cover it.  ERR_PTR on failure.
 */
struct buffer_head *ext2_dir_new_block(struct ext2_inode_info *dir, u64 *lblk)
{
	struct ext2_fs *fs = dir->ei_fs;
	u64 n = (ext2_isize(dir) >> fs->fs_bshift), max = 0xffffffffULL;
	struct buffer_head *bh;
	u32 pblk;
	int err;

	if (le32_to_cpu(fs->fs_sb.s_feature_incompat) & EXT4_FEATURE_INCOMPAT_LARGEDIR)
		max = fs->fs_max_size;
	if (((n + 1) << fs->fs_bshift) > max)
		return ERR_PTR(-ENOSPC);
	err = ext2_bmap(dir, n, true, &pblk);
	if (err)
		return ERR_PTR(err);
	bh = ext2_bread(fs, pblk);
	if (IS_ERR(bh))
		return bh;
	memset(bh->b_data, 0, fs->fs_bsize);
	ext2_set_isize(dir, (n + 1) << fs->fs_bshift);
	*lblk = n;
	return bh;
}


/*
 * Put @name -> @ino (a file of @mode) into the first gap of block @lblk
 * (@bh) of @dir large enough, and commit the block.  0, -ENOSPC when no
 * gap is, -EUCLEAN (a bad entry, reported).
 */
int ext2_dir_block_add(struct ext2_inode_info *dir, struct buffer_head *bh, u64 lblk,
		       const char *name, size_t len, u32 ino, u32 mode)
{
	struct ext2_fs *fs = dir->ei_fs;
	u32 need = EXT2_DIR_REC_LEN(len), used, off, end = ext2_dir_end(dir, bh, lblk);
	struct ext2_dir_entry *de, *nde;
	int rec;

	for (off = 0; off < end; off += (u32)rec) {
		rec = ext2_dir_check_entry(dir, bh, off, end);
		if (rec < 0)
			return rec;
		de = de_at(bh, off);
		used = de->inode ? EXT2_DIR_REC_LEN(ext2_de_namelen(fs, de)) : 0;
		if ((u32)rec - used < need)
			continue;
		if (used) {
			/* Split: the old entry keeps @used bytes, the new one the rest. */
			nde = de_at(bh, off + used);
			de->rec_len = cpu_to_le16((u16)used);
			nde->rec_len = cpu_to_le16((u16)((u32)rec - used));
			de = nde;
		}
		de->inode = cpu_to_le32(ino);
		ext2_de_set_name(fs, de, name, len, mode);
		return ext2_dir_commit(dir, bh, lblk);
	}
	return -ENOSPC;
}
