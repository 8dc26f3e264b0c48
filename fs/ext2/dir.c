/*
 * ext2 directories: linear lists of variable-length entries (doc section
 * "Linked Directory Entry").  Each directory block is tiled exactly by
 * entries; rec_len steps from one to the next, an entry whose inode is 0
 * is unused space, and a live entry may carry slack after its name that a
 * new entry can be split out of.  Removing an entry merges it into the
 * one before it in the block (or, first in a block, zeroes its inode).
 *
 * Indexed (htree) directories read as linear ones too (the index hides in
 * the slack of ".." and in blocks holding one empty entry), but lookups
 * and additions go through the index (htree.c), which stays valid.
 *
 * With metadata_csum every leaf block ends in a 12-byte tail holding the
 * crc32c of the block before it (ext4 wiki "Linear (Classic)
 * Directories"); index blocks carry their own (htree.c).  A block is
 * verified when read (a mismatch fails that directory only, reported
 * with its inode and block) and its checksum set whenever it is written
 * (ext2_dir_commit); entries tile the block up to the tail, never over it.
 *
 * Every walk over the entries goes through one iterator (ext2_dir_next),
 * which checks each entry before handing it out: rec_len at least 12, a
 * multiple of 4, inside the block and large enough for the name; the name
 * length and inode number in range.  A bad entry fails the operation with
 * -EUCLEAN and is reported with its directory, block and offset.
 */
#include "fs/ext2/ext2.h"
#include "fs/ext2/htree_fs.h"
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
	u32			it_end;		/* where the block's entries end */
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

/* The VFS type an entry records (unknown without the filetype feature). */
u8 ext2_de_vfs_type(const struct ext2_fs *fs, const struct ext2_dir_entry *de)
{
	return fs->fs_filetype && de->file_type < EXT2_FT_MAX ? vfs_type_by_ft[de->file_type] :
								 VFS_DT_UNKNOWN;
}

static inline struct ext2_dir_entry *de_at(struct buffer_head *bh, u32 off)
{
	return (struct ext2_dir_entry *)(bh->b_data + off);
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
	it->it_end = dir->ei_fs->fs_bsize;
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
		if (it->it_off >= it->it_end) {
			ext2_dir_iter_end(it);
			it->it_lblk++;
		}
	}
	if (!it->it_bh) {
		struct buffer_head *bh;

		if (it->it_lblk >= ext2_dir_blocks(dir))
			return 0;
		bh = ext2_dir_read(dir, it->it_lblk);
		if (IS_ERR(bh))
			return PTR_ERR(bh);
		it->it_bh = bh;
		it->it_off = it->it_prev = 0;
		it->it_end = ext2_dir_end(dir, bh, it->it_lblk);
	}
	rec = ext2_dir_check_entry(dir, it->it_bh, it->it_off, it->it_end);
	if (rec < 0)
		return rec;
	it->it_rec = (u32)rec;
	return 1;
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
		if (ext2_de_match(dir->ei_fs, ext2_dir_iter_de(it), name, len))
			return 0;
	return r < 0 ? r : -ENOENT;
}

/*
 * The inode number @name refers to in @dir: 0, -ENOENT, -errno.  Indexed
 * directories are searched through the index; a bad index (reported)
 * falls back to the linear scan.
 */
int ext2_dir_find(struct ext2_inode_info *dir, const char *name, size_t len, u32 *ino)
{
	struct ext2_dir_iter it;
	int err;

	if (ext2_inline_dir(dir))
		return ext2_inline_find(dir, name, len, ino);
	if (ext2_dx_indexed(dir)) {
		err = ext2_dx_find(dir, name, len, ino);
		if (err != -EAGAIN)
			return err;
	}
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

/* The directory changed: its times. */
static void ext2_dir_changed(struct ext2_inode_info *dir)
{
	ext2_touch(dir, true, true);
}

/* Add to a linear directory: the first gap large enough, else a new block. */
static int ext2_dir_add_linear(struct ext2_inode_info *dir, const char *name, size_t len,
			       u32 ino, u32 mode)
{
	u64 lblk, n = ext2_dir_blocks(dir);
	struct buffer_head *bh;
	int err = -ENOSPC;

	for (lblk = 0; lblk < n && err == -ENOSPC; lblk++) {
		bh = ext2_dir_read(dir, lblk);
		if (IS_ERR(bh))
			return PTR_ERR(bh);
		err = ext2_dir_block_add(dir, bh, lblk, name, len, ino, mode);
		brelse(bh);
	}
	if (err != -ENOSPC)
		return err;
	bh = ext2_dir_new_block(dir, &lblk);
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	ext2_dir_format_leaf(dir, bh);
	err = ext2_dir_block_add(dir, bh, lblk, name, len, ino, mode);
	brelse(bh);
	return err;
}

/*
 * Add @name -> @ino (a file of @mode) to @dir, which must not hold @name.
 * Indexed directories insert through the index (htree.c); a bad index
 * (reported) is dropped where e2fsck allows that (no metadata_csum).
 * 0 or -errno.
 */
int ext2_dir_add(struct ext2_inode_info *dir, const char *name, size_t len, u32 ino, u32 mode)
{
	int err;

	if (ext2_inline_dir(dir))
		return -EROFS;	/* inline_data mounts are read-only */
	if (!ext2_dx_indexed(dir)) {	/* an index without dir_index: plain free space */
		dir->ei_raw.i_flags = cpu_to_le32(le32_to_cpu(dir->ei_raw.i_flags) &
						  ~EXT2_INDEX_FL);
	} else {
		err = ext2_dx_add(dir, name, len, ino, mode);
		if (err != -EAGAIN)
			goto out;
		if (dir->ei_fs->fs_csum)
			return -EUCLEAN;
		dir->ei_raw.i_flags = cpu_to_le32(le32_to_cpu(dir->ei_raw.i_flags) &
						  ~EXT2_INDEX_FL);
	}
	err = ext2_dir_add_linear(dir, name, len, ino, mode);
out:
	if (!err)
		ext2_dir_changed(dir);
	return err;
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
	err = ext2_dir_commit(dir, it.it_bh, it.it_lblk);
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
		ext2_de_set_name(dir->ei_fs, de, name, len, mode);
		err = ext2_dir_commit(dir, it.it_bh, it.it_lblk);
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
		if (de->inode && !ext2_de_match(dir->ei_fs, de, ".", 1) &&
		    !ext2_de_match(dir->ei_fs, de, "..", 2)) {
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
	u32 pblk, end;
	int err;

	err = ext2_bmap(dir, 0, true, &pblk);
	if (err)
		return err;
	bh = ext2_bread(fs, pblk);
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	ext2_dir_format_leaf(dir, bh);
	end = le16_to_cpu(de_at(bh, 0)->rec_len);
	de = de_at(bh, 0);
	de->inode = cpu_to_le32(dir->ei_ino);
	de->rec_len = cpu_to_le16(EXT2_DIR_REC_LEN(1));
	ext2_de_set_name(fs, de, ".", 1, EXT2_S_IFDIR);
	de = de_at(bh, EXT2_DIR_REC_LEN(1));
	de->inode = cpu_to_le32(parent);
	de->rec_len = cpu_to_le16((u16)(end - EXT2_DIR_REC_LEN(1)));
	ext2_de_set_name(fs, de, "..", 2, EXT2_S_IFDIR);
	ext2_set_isize(dir, fs->fs_bsize);
	err = ext2_dir_commit(dir, bh, 0);
	brelse(bh);
	return err;
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
	if (ext2_inline_dir(dir))
		return ext2_inline_readdir(dir, pos, d);
	ext2_dir_iter_init(&it, dir, *pos >> fs->fs_bshift);
	while ((r = ext2_dir_next(&it)) == 1) {
		de = ext2_dir_iter_de(&it);
		here = (it.it_lblk << fs->fs_bshift) + it.it_off;
		if (here < *pos || !de->inode)
			continue;
		nlen = ext2_de_namelen(fs, de);
		d->d_ino = le32_to_cpu(de->inode);
		d->d_namlen = (u16)nlen;
		memcpy(d->d_name, de->name, nlen);
		d->d_name[nlen] = '\0';
		d->d_type = ext2_de_vfs_type(fs, de);
		*pos = here + it.it_rec;
		break;
	}
	if (r == 0)
		*pos = ext2_dir_blocks(dir) << fs->fs_bshift;
	ext2_dir_iter_end(&it);
	return r;
}
