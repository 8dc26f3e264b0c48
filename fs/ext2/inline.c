/*
 * Inline data, read only (ext4 wiki "Inline Data"): a small file or
 * directory with EXT4_INLINE_DATA_FL keeps its bytes in the inode, the
 * first 60 in i_block and the rest in the value of the in-inode extended
 * attribute "system.data" (xattr.c); i_size says how many are file data.
 *
 * An inline directory starts i_block with the parent's inode number (le32)
 * instead of "." and ".." entries; ordinary entries follow, tiling the
 * rest of i_block (56 bytes) and, separately, the whole "system.data"
 * value.  readdir makes up "." and ".." at positions 0 and 1, then
 * positions are byte offsets into the inline bytes (i_block first).
 *
 * Writing inline inodes is not supported: a filesystem with inline_data
 * is mounted read-only (super_check.c), and dir.c refuses changes.
 */
#include "fs/ext2/ext2.h"
#include "fs/ext2/htree_fs.h"
#include "kernel/errno.h"
#include "kernel/mm/slab.h"
#include "kernel/printk.h"
#include "lib/string.h"

#define EXT2_INLINE_DIR_PARENT	4	/* i_block begins with the parent's number */
#define EXT2_INLINE_POS_DOTDOT	1	/* readdir positions of the made-up entries */
#define EXT2_INLINE_POS_FIRST	EXT2_INLINE_DIR_PARENT

/* An inline inode's bytes, i_block then "system.data". */
struct ext2_inline_buf {
	u8	*ib_data;	/* kmalloc'd */
	u32	ib_len;		/* 60 + value size */
};

bool ext2_inline(const struct ext2_inode_info *ei)
{
	return le32_to_cpu(ei->ei_raw.i_flags) & EXT4_INLINE_DATA_FL;
}

bool ext2_inline_dir(const struct ext2_inode_info *ei)
{
	return ext2_inline(ei) && ext2_isdir(ei);
}

/* Read the inline bytes of @ei.  0, -EUCLEAN (reported), -EIO, -ENOMEM. */
static int ext2_inline_load(struct ext2_inode_info *ei, struct ext2_inline_buf *ib)
{
	struct ext2_fs *fs = ei->ei_fs;
	struct buffer_head *bh;
	const u8 *val = NULL;
	u32 blk, off;
	int vlen, err;

	ib->ib_data = NULL;
	if (ext2_inode_loc(fs, ei->ei_ino, &blk, &off))
		return -EUCLEAN;
	bh = ext2_bread(fs, blk);
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	vlen = ext2_xattr_ibody_get(ei, (const u8 *)bh->b_data + off, EXT4_XATTR_INDEX_SYSTEM,
				    "data", &val);
	if (vlen == -ENODATA) {
		ext2_error(fs, "inline", "inode %u: inline data without \"system.data\"",
			   ei->ei_ino);
		vlen = -EUCLEAN;
	}
	if (vlen < 0) {
		err = vlen;
		goto release;
	}
	ib->ib_len = EXT4_INLINE_IBLOCK + (u32)vlen;
	/* A file may be longer, its tail a hole (as Linux reads it); a directory not. */
	if (ext2_isdir(ei) && ext2_isize(ei) > ib->ib_len) {
		ext2_error(fs, "inline", "inode %u: size %llu beyond its %u inline bytes",
			   ei->ei_ino, (unsigned long long)ext2_isize(ei), ib->ib_len);
		err = -EUCLEAN;
		goto release;
	}
	ib->ib_data = kmalloc(ib->ib_len, GFP_KERNEL);
	err = -ENOMEM;
	if (!ib->ib_data)
		goto release;
	memcpy(ib->ib_data, ei->ei_raw.i_block, EXT4_INLINE_IBLOCK);
	memcpy(ib->ib_data + EXT4_INLINE_IBLOCK, val, (u32)vlen);
	err = 0;
release:
	brelse(bh);
	return err;
}

/**
 * ext2_inline_read - read from inline file @ei
 * The caller clamped @len to the file size.  Returns bytes read or -errno.
 */
long ext2_inline_read(struct ext2_inode_info *ei, u64 pos, void *buf, size_t len)
{
	struct ext2_inline_buf ib;
	int err;

	err = ext2_inline_load(ei, &ib);
	if (err)
		return err;
	if (pos < ib.ib_len) {
		size_t n = (size_t)min((u64)len, ib.ib_len - pos);

		memcpy(buf, ib.ib_data + pos, n);
		memset((u8 *)buf + n, 0, len - n);	/* past the inline bytes: a hole */
	} else {
		memset(buf, 0, len);
	}
	kfree(ib.ib_data);
	return (long)len;
}

/*
 * The entry at @off of the inline directory bytes: checked against its
 * region [.., @end).  Its rec_len, or -EUCLEAN (reported).
 */
static int ext2_inline_entry(struct ext2_inode_info *dir, const struct ext2_inline_buf *ib,
			     u32 off, u32 end)
{
	const struct ext2_dir_entry *de = (const struct ext2_dir_entry *)(ib->ib_data + off);
	u32 rec, nlen;
	const char *why;

	if (off + sizeof(*de) > end) {
		why = "entry header crosses the region end";
		goto bad;
	}
	rec = le16_to_cpu(de->rec_len);
	nlen = ext2_de_namelen(dir->ei_fs, de);
	if (rec < EXT2_DIR_REC_LEN(1) || rec % EXT2_DIR_PAD || off + rec > end)
		why = "bad rec_len";
	else if (EXT2_DIR_REC_LEN(nlen) > rec)
		why = "name longer than the entry";
	else if (le32_to_cpu(de->inode) > dir->ei_fs->fs_inodes_count)
		why = "inode number out of range";
	else if (le32_to_cpu(de->inode) && nlen == 0)
		why = "empty name";
	else
		return (int)rec;
bad:
	ext2_error(dir->ei_fs, "inline", "directory inode %u, inline offset %u: %s",
		   dir->ei_ino, off, why);
	return -EUCLEAN;
}

/* The end of the region holding @off: i_block or the attribute value. */
static u32 ext2_inline_region_end(const struct ext2_inline_buf *ib, u32 off)
{
	return off < EXT4_INLINE_IBLOCK ? EXT4_INLINE_IBLOCK : ib->ib_len;
}

/*
 * Walk the entries of inline directory @dir from byte @off: stops at the
 * first live entry, *@off on it and its rec_len returned; 0 at the end;
 * -errno.
 */
static int ext2_inline_next(struct ext2_inode_info *dir, const struct ext2_inline_buf *ib,
			    u32 *off)
{
	int rec;

	while (*off < ib->ib_len) {
		rec = ext2_inline_entry(dir, ib, *off, ext2_inline_region_end(ib, *off));
		if (rec < 0)
			return rec;
		if (((const struct ext2_dir_entry *)(ib->ib_data + *off))->inode)
			return rec;
		*off += (u32)rec;
	}
	return 0;
}

/* The parent's inode number, i_block's first word. */
static u32 ext2_inline_parent(const struct ext2_inode_info *dir)
{
	return le32_to_cpu(dir->ei_raw.i_block[0]);
}

/**
 * ext2_inline_find - look @name up in inline directory @dir
 * Returns 0 with *@ino set, -ENOENT, -EUCLEAN (reported), -EIO, -ENOMEM.
 */
int ext2_inline_find(struct ext2_inode_info *dir, const char *name, size_t len, u32 *ino)
{
	struct ext2_inline_buf ib;
	u32 off = EXT2_INLINE_POS_FIRST;
	int rec, err;

	if (len == 1 && name[0] == '.') {
		*ino = dir->ei_ino;
		return 0;
	}
	if (len == 2 && name[0] == '.' && name[1] == '.') {
		*ino = ext2_inline_parent(dir);
		return 0;
	}
	err = ext2_inline_load(dir, &ib);
	if (err)
		return err;
	err = -ENOENT;
	while ((rec = ext2_inline_next(dir, &ib, &off)) > 0) {
		const struct ext2_dir_entry *de = (const struct ext2_dir_entry *)(ib.ib_data + off);

		if (ext2_de_match(dir->ei_fs, de, name, len)) {
			*ino = le32_to_cpu(de->inode);
			err = 0;
			break;
		}
		off += (u32)rec;
	}
	if (rec < 0)
		err = rec;
	kfree(ib.ib_data);
	return err;
}

static void ext2_inline_fill(struct vfs_dirent *d, u32 ino, const char *name, u32 len, u8 type)
{
	d->d_ino = ino;
	d->d_namlen = (u16)len;
	memcpy(d->d_name, name, len);
	d->d_name[len] = '\0';
	d->d_type = type;
}

/**
 * ext2_inline_readdir - the entry of inline directory @dir at or after *@pos
 * Returns 1 with @d filled and *@pos advanced, 0 at the end, -errno.
 */
int ext2_inline_readdir(struct ext2_inode_info *dir, u64 *pos, struct vfs_dirent *d)
{
	struct ext2_inline_buf ib;
	u32 off;
	int rec, err;

	if (*pos == 0) {
		ext2_inline_fill(d, dir->ei_ino, ".", 1, VFS_DT_DIR);
		*pos = EXT2_INLINE_POS_DOTDOT;
		return 1;
	}
	if (*pos == EXT2_INLINE_POS_DOTDOT) {
		ext2_inline_fill(d, ext2_inline_parent(dir), "..", 2, VFS_DT_DIR);
		*pos = EXT2_INLINE_POS_FIRST;
		return 1;
	}
	err = ext2_inline_load(dir, &ib);
	if (err)
		return err;
	off = *pos < EXT2_INLINE_POS_FIRST ? EXT2_INLINE_POS_FIRST : (u32)min(*pos, (u64)ib.ib_len);
	rec = ext2_inline_next(dir, &ib, &off);
	if (rec > 0) {
		const struct ext2_dir_entry *de = (const struct ext2_dir_entry *)(ib.ib_data + off);

		ext2_inline_fill(d, le32_to_cpu(de->inode), de->name,
				 ext2_de_namelen(dir->ei_fs, de), ext2_de_vfs_type(dir->ei_fs, de));
		*pos = off + (u32)rec;
		rec = 1;
	} else if (rec == 0) {
		*pos = ib.ib_len;
	}
	kfree(ib.ib_data);
	return rec;
}
