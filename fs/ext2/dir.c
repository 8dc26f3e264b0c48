/*
 * ext2 directories: linear lists of variable-length entries (doc section
 * "Linked Directory Entry").  Each directory block is tiled exactly by
 * entries; rec_len steps from one to the next, an entry whose inode is 0
 * is unused space, and a live entry may carry slack after its name that a
 * new entry can be split out of.  Removing an entry merges it into the
 * one before it in the block (or, first in a block, zeroes its inode).
 *
 * Indexed (htree) directories made by Linux read as linear ones: the index
 * hides in the slack of ".." and in blocks holding one empty entry.  Any
 * change clears EXT2_INDEX_FL, which makes the index plain free space, as
 * Linux's ext2 does.
 *
 * Every walk over the entries goes through one iterator (ext2_dir_next),
 * which checks each entry before handing it out: rec_len at least 12, a
 * multiple of 4, inside the block and large enough for the name; the name
 * length and inode number in range.  A bad entry fails the operation with
 * -EUCLEAN and is reported with its directory, block and offset.
 */
#include "fs/ext2/ext2.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/string.h"

/*
 * A walk over the entries of a directory, block by block, unused ones
 * included.  Between ext2_dir_next() calls it stands on a checked entry:
 * it_bh (referenced) holds it at it_off, it_rec long.
 */
struct ext2_dir_iter {
	struct ext2_inode_info	*it_dir;
	u64			it_lblk;	/* the directory block walked */
	struct buffer_head	*it_bh;		/* that block, or NULL before reading it */
	u32			it_off;		/* the entry */
	u32			it_prev;	/* the entry before it in the block, or it_off */
	u32			it_rec;		/* the entry's rec_len */
};

static const u8 ext2_type_by_mode[16] = {
	[EXT2_S_IFREG >> 12]	= EXT2_FT_REG_FILE,
	[EXT2_S_IFDIR >> 12]	= EXT2_FT_DIR,
	[EXT2_S_IFCHR >> 12]	= EXT2_FT_CHRDEV,
	[EXT2_S_IFBLK >> 12]	= EXT2_FT_BLKDEV,
	[EXT2_S_IFIFO >> 12]	= EXT2_FT_FIFO,
	[EXT2_S_IFSOCK >> 12]	= EXT2_FT_SOCK,
	[EXT2_S_IFLNK >> 12]	= EXT2_FT_SYMLINK,
};

static const u8 vfs_type_by_ft[EXT2_FT_MAX] = {
	[EXT2_FT_UNKNOWN]	= VFS_DT_UNKNOWN,
	[EXT2_FT_REG_FILE]	= VFS_DT_REG,
	[EXT2_FT_DIR]		= VFS_DT_DIR,
	[EXT2_FT_CHRDEV]	= VFS_DT_CHR,
	[EXT2_FT_BLKDEV]	= VFS_DT_BLK,
	[EXT2_FT_FIFO]		= VFS_DT_FIFO,
	[EXT2_FT_SOCK]		= VFS_DT_SOCK,
	[EXT2_FT_SYMLINK]	= VFS_DT_LNK,
};

static inline struct ext2_dir_entry *de_at(struct buffer_head *bh, u32 off)
{
	return (struct ext2_dir_entry *)(bh->b_data + off);
}

static u32 de_namelen(const struct ext2_fs *fs, const struct ext2_dir_entry *de)
{
	/* Without filetype the length is 16 bits (doc: rev 0 entries). */
	return fs->fs_filetype ? de->name_len : de->name_len | (u32)de->file_type << 8;
}

static void de_set_name(const struct ext2_fs *fs, struct ext2_dir_entry *de,
			const char *name, size_t len, u32 mode)
{
	de->name_len = (u8)len;
	de->file_type = fs->fs_filetype ? ext2_type_by_mode[(mode & EXT2_S_IFMT) >> 12] : 0;
	memcpy(de->name, name, len);
}

/*
 * Check the entry at @off of directory block @bh; returns its rec_len, or
 * -EUCLEAN (reported).
 */
static int ext2_check_entry(struct ext2_inode_info *dir, struct buffer_head *bh, u32 off)
{
	struct ext2_fs *fs = dir->ei_fs;
	const struct ext2_dir_entry *de;
	u32 rec, nlen;
	const char *why;

	if (off + sizeof(*de) > fs->fs_bsize) {
		why = "entry header crosses the block end";
		goto bad;
	}
	de = de_at(bh, off);
	rec = le16_to_cpu(de->rec_len);
	nlen = de_namelen(fs, de);
	if (rec < EXT2_DIR_REC_LEN(1))
		why = "rec_len too small";
	else if (rec % EXT2_DIR_PAD)
		why = "rec_len not a multiple of 4";
	else if (off + rec > fs->fs_bsize)
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

/* Read block @lblk of directory @dir; a hole is corruption. */
static struct buffer_head *ext2_dir_bread(struct ext2_inode_info *dir, u64 lblk)
{
	u32 pblk;
	int err;

	err = ext2_bmap(dir, lblk, false, &pblk);
	if (err)
		return ERR_PTR(err);
	if (!pblk) {
		ext2_error(dir->ei_fs, "dir", "directory inode %u has a hole at block %llu",
			   dir->ei_ino, (unsigned long long)lblk);
		return ERR_PTR(-EUCLEAN);
	}
	return ext2_bread(dir->ei_fs, pblk);
}

static u64 ext2_dir_blocks(struct ext2_inode_info *dir)
{
	return ext2_isize(dir) >> dir->ei_fs->fs_bshift;
}

/* Start a walk of @dir at the first entry of block @lblk. */
static void ext2_dir_iter_init(struct ext2_dir_iter *it, struct ext2_inode_info *dir, u64 lblk)
{
	it->it_dir = dir;
	it->it_lblk = lblk;
	it->it_bh = NULL;
	it->it_off = it->it_prev = it->it_rec = 0;
}

/* End a walk: release the block it stands in. */
static void ext2_dir_iter_end(struct ext2_dir_iter *it)
{
	brelse(it->it_bh);
	it->it_bh = NULL;
}

static struct ext2_dir_entry *ext2_dir_iter_de(const struct ext2_dir_iter *it)
{
	return de_at(it->it_bh, it->it_off);
}

/*
 * Step to the next entry, reading the next block when this one ends.
 * Returns 1 standing on it, 0 past the last block, or -errno (a bad entry,
 * reported).  Call ext2_dir_iter_end() whatever it returned.
 */
static int ext2_dir_next(struct ext2_dir_iter *it)
{
	struct ext2_inode_info *dir = it->it_dir;
	int rec;

	if (it->it_bh) {
		it->it_prev = it->it_off;
		it->it_off += it->it_rec;
		if (it->it_off >= dir->ei_fs->fs_bsize) {
			ext2_dir_iter_end(it);
			it->it_lblk++;
		}
	}
	if (!it->it_bh) {
		struct buffer_head *bh;

		if (it->it_lblk >= ext2_dir_blocks(dir))
			return 0;
		bh = ext2_dir_bread(dir, it->it_lblk);
		if (IS_ERR(bh))
			return PTR_ERR(bh);
		it->it_bh = bh;
		it->it_off = it->it_prev = 0;
	}
	rec = ext2_check_entry(dir, it->it_bh, it->it_off);
	if (rec < 0)
		return rec;
	it->it_rec = (u32)rec;
	return 1;
}

/* Is the entry live and named @name? */
static bool de_match(const struct ext2_fs *fs, const struct ext2_dir_entry *de,
		     const char *name, size_t len)
{
	return de->inode && de_namelen(fs, de) == len && !memcmp(de->name, name, len);
}

/*
 * Find @name in @dir: 0 with @it standing on its entry, -ENOENT, or
 * -errno.  Call ext2_dir_iter_end() after either.
 */
static int ext2_dir_search(struct ext2_inode_info *dir, const char *name, size_t len,
			   struct ext2_dir_iter *it)
{
	int r;

	ext2_dir_iter_init(it, dir, 0);
	while ((r = ext2_dir_next(it)) == 1)
		if (de_match(dir->ei_fs, ext2_dir_iter_de(it), name, len))
			return 0;
	return r < 0 ? r : -ENOENT;
}

/* The inode number @name refers to in @dir: 0, -ENOENT, -errno. */
int ext2_dir_find(struct ext2_inode_info *dir, const char *name, size_t len, u32 *ino)
{
	struct ext2_dir_iter it;
	int err;

	err = ext2_dir_search(dir, name, len, &it);
	if (!err)
		*ino = le32_to_cpu(ext2_dir_iter_de(&it)->inode);
	ext2_dir_iter_end(&it);
	return err;
}

/*
 * The inode ".." of @dir names: 0, or -EUCLEAN (reported) when the entry
 * is missing, -errno.
 */
int ext2_dir_parent(struct ext2_inode_info *dir, u32 *ino)
{
	int err = ext2_dir_find(dir, "..", 2, ino);

	if (err == -ENOENT) {
		ext2_error(dir->ei_fs, "dir", "directory inode %u has no \"..\"", dir->ei_ino);
		err = -EUCLEAN;
	}
	return err;
}

/* The directory changed: times, and the htree index is no longer valid. */
static void ext2_dir_changed(struct ext2_inode_info *dir)
{
	dir->ei_raw.i_flags = cpu_to_le32(le32_to_cpu(dir->ei_raw.i_flags) & ~EXT2_INDEX_FL);
	ext2_touch(dir, true, true);
}

/*
 * Append a block to @dir holding one unused entry that spans it, and
 * stand @it on that entry.  0 or -errno.
 */
static int ext2_dir_grow(struct ext2_inode_info *dir, struct ext2_dir_iter *it)
{
	struct ext2_fs *fs = dir->ei_fs;
	u64 n = ext2_dir_blocks(dir);
	struct ext2_dir_entry *de;
	struct buffer_head *bh;
	u32 pblk;
	int err;

	if (((n + 1) << fs->fs_bshift) > 0xffffffffULL)
		return -ENOSPC;
	err = ext2_bmap(dir, n, true, &pblk);
	if (err)
		return err;
	bh = ext2_bread(fs, pblk);
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	de = de_at(bh, 0);
	de->inode = 0;
	de->rec_len = cpu_to_le16((u16)fs->fs_bsize);
	de->name_len = de->file_type = 0;
	ext2_set_isize(dir, (n + 1) << fs->fs_bshift);
	ext2_dir_iter_init(it, dir, n);
	it->it_bh = bh;
	it->it_rec = fs->fs_bsize;
	return 0;
}

/*
 * Add @name -> @ino (a file of @mode) to @dir, which must not hold @name.
 * Uses the first gap large enough, else appends a block.  0 or -errno.
 */
int ext2_dir_add(struct ext2_inode_info *dir, const char *name, size_t len, u32 ino, u32 mode)
{
	struct ext2_fs *fs = dir->ei_fs;
	u32 need = EXT2_DIR_REC_LEN(len), used = 0;
	struct ext2_dir_entry *de, *nde;
	struct ext2_dir_iter it;
	int r;

	ext2_dir_iter_init(&it, dir, 0);
	while ((r = ext2_dir_next(&it)) == 1) {
		de = ext2_dir_iter_de(&it);
		used = de->inode ? EXT2_DIR_REC_LEN(de_namelen(fs, de)) : 0;
		if (it.it_rec - used >= need)
			break;
	}
	if (r < 0)
		goto end;
	if (r == 0) {
		used = 0;	/* no room: a new block */
		r = ext2_dir_grow(dir, &it);
		if (r)
			goto end;
	}
	de = ext2_dir_iter_de(&it);
	if (used) {
		/* Split: the old entry keeps @used bytes, the new one the rest. */
		nde = de_at(it.it_bh, it.it_off + used);
		de->rec_len = cpu_to_le16((u16)used);
		nde->rec_len = cpu_to_le16((u16)(it.it_rec - used));
		de = nde;
	}
	de->inode = cpu_to_le32(ino);
	de_set_name(fs, de, name, len, mode);
	ext2_dirty_meta(fs, it.it_bh);
	ext2_dir_changed(dir);
	r = 0;
end:
	ext2_dir_iter_end(&it);
	return r;
}

/* Remove @name from @dir.  0, -ENOENT, -errno. */
int ext2_dir_remove(struct ext2_inode_info *dir, const char *name, size_t len)
{
	struct ext2_dir_entry *de, *prev;
	struct ext2_dir_iter it;
	int err;

	err = ext2_dir_search(dir, name, len, &it);
	if (err)
		goto end;
	de = ext2_dir_iter_de(&it);
	if (it.it_prev != it.it_off) {
		/* merge into the entry before it in the block */
		prev = de_at(it.it_bh, it.it_prev);
		prev->rec_len = cpu_to_le16((u16)(le16_to_cpu(prev->rec_len) + it.it_rec));
	} else {
		de->inode = 0;
	}
	ext2_dirty_meta(dir->ei_fs, it.it_bh);
	ext2_dir_changed(dir);
end:
	ext2_dir_iter_end(&it);
	return err;
}

/* Point the existing entry @name of @dir at @ino (a file of @mode). */
int ext2_dir_set(struct ext2_inode_info *dir, const char *name, size_t len, u32 ino, u32 mode)
{
	struct ext2_dir_entry *de;
	struct ext2_dir_iter it;
	int err;

	err = ext2_dir_search(dir, name, len, &it);
	if (!err) {
		de = ext2_dir_iter_de(&it);
		de->inode = cpu_to_le32(ino);
		de_set_name(dir->ei_fs, de, name, len, mode);
		ext2_dirty_meta(dir->ei_fs, it.it_bh);
		ext2_dir_changed(dir);
	}
	ext2_dir_iter_end(&it);
	return err;
}

/* 0 if @dir holds only "." and "..", -ENOTEMPTY, or -errno. */
int ext2_dir_empty(struct ext2_inode_info *dir)
{
	const struct ext2_dir_entry *de;
	struct ext2_dir_iter it;
	int r;

	ext2_dir_iter_init(&it, dir, 0);
	while ((r = ext2_dir_next(&it)) == 1) {
		de = ext2_dir_iter_de(&it);
		if (de->inode && !de_match(dir->ei_fs, de, ".", 1) &&
		    !de_match(dir->ei_fs, de, "..", 2)) {
			r = -ENOTEMPTY;
			break;
		}
	}
	ext2_dir_iter_end(&it);
	return r;
}

/* Give the new directory @dir its first block: "." and "..". */
int ext2_dir_init(struct ext2_inode_info *dir, u32 parent)
{
	struct ext2_fs *fs = dir->ei_fs;
	struct ext2_dir_entry *de;
	struct buffer_head *bh;
	u32 pblk;
	int err;

	err = ext2_bmap(dir, 0, true, &pblk);
	if (err)
		return err;
	bh = ext2_bread(fs, pblk);
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	de = de_at(bh, 0);
	de->inode = cpu_to_le32(dir->ei_ino);
	de->rec_len = cpu_to_le16(EXT2_DIR_REC_LEN(1));
	de_set_name(fs, de, ".", 1, EXT2_S_IFDIR);
	de = de_at(bh, EXT2_DIR_REC_LEN(1));
	de->inode = cpu_to_le32(parent);
	de->rec_len = cpu_to_le16((u16)(fs->fs_bsize - EXT2_DIR_REC_LEN(1)));
	de_set_name(fs, de, "..", 2, EXT2_S_IFDIR);
	ext2_dirty_meta(fs, bh);
	brelse(bh);
	ext2_set_isize(dir, fs->fs_bsize);
	return 0;
}

/* vop_lookup */
int ext2_lookup(struct vnode *v, const char *name, size_t len, struct vnode **out)
{
	struct ext2_inode_info *dir = EXT2_I(v), *ei;
	u32 ino;
	int err;

	if (!ext2_isdir(dir))
		return -ENOTDIR;
	if (len == 2 && name[0] == '.' && name[1] == '.')
		err = ext2_dir_parent(dir, &ino);
	else
		err = ext2_dir_find(dir, name, len, &ino);
	if (err)
		return err;
	err = ext2_iget(dir->ei_fs, ino, &ei);
	if (err)
		return err;
	*out = &ei->ei_vnode;
	return 0;
}

/*
 * vop_readdir: *pos is the byte offset of the next entry to look at.  An
 * offset that is not on an entry (the directory changed) resumes at the
 * next entry of its block.
 */
int ext2_readdir(struct vnode *v, u64 *pos, struct vfs_dirent *d)
{
	struct ext2_inode_info *dir = EXT2_I(v);
	struct ext2_fs *fs = dir->ei_fs;
	const struct ext2_dir_entry *de;
	struct ext2_dir_iter it;
	u64 here;
	u32 nlen;
	int r;

	if (!ext2_isdir(dir))
		return -ENOTDIR;
	ext2_dir_iter_init(&it, dir, *pos >> fs->fs_bshift);
	while ((r = ext2_dir_next(&it)) == 1) {
		de = ext2_dir_iter_de(&it);
		here = (it.it_lblk << fs->fs_bshift) + it.it_off;
		if (here < *pos || !de->inode)
			continue;
		nlen = de_namelen(fs, de);
		d->d_ino = le32_to_cpu(de->inode);
		d->d_namlen = (u16)nlen;
		memcpy(d->d_name, de->name, nlen);
		d->d_name[nlen] = '\0';
		d->d_type = fs->fs_filetype && de->file_type < EXT2_FT_MAX ?
			    vfs_type_by_ft[de->file_type] : VFS_DT_UNKNOWN;
		*pos = here + it.it_rec;
		break;
	}
	if (r == 0)
		*pos = ext2_dir_blocks(dir) << fs->fs_bshift;
	ext2_dir_iter_end(&it);
	return r;
}
