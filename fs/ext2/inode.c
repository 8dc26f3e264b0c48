/*
 * ext2 in-core inodes: reading and writing inode table slots, the cache
 * of inodes in use, and what happens when the last reference goes.
 *
 * An inode lives at slot (ino - 1) % s_inodes_per_group of its group's
 * inode table, s_inode_size bytes each; the first 128 bytes are struct
 * ext2_inode, a large inode continues with i_extra_isize bytes of
 * extra fields and then in-inode extended attributes, which we keep
 * untouched (we write back only the first 128 + i_extra_isize bytes, at
 * most the struct).  With metadata_csum the slot's checksum is verified
 * at read and set at every write (inode4.c).
 *
 * The in-core inode holds the raw on-disk copy (ei_raw) as the authority
 * while referenced; ext2_write_inode() copies it to its buffer.  One
 * in-core inode per inode number: ext2_iget() finds a cached one first.
 * An inode whose link count reaches 0 is freed (blocks, attribute block,
 * bitmap bit) when its last reference goes, so an open file outlives its
 * unlink, as on Unix.
 */
#include "fs/ext2/ext2.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

#define EXT2_XATTR_MAGIC	0xEA020000	/* doc: "Extended Attributes", block header */

/* Where inode @ino lives: block and byte offset.  0 or -EUCLEAN. */
int ext2_inode_loc(struct ext2_fs *fs, u32 ino, u32 *blk, u32 *off)
{
	u32 g, idx;
	u64 byte;

	if (ino < 1 || ino > fs->fs_inodes_count)
		return -EUCLEAN;
	g = ext2_ino_group(fs, ino);
	idx = (ino - 1) % fs->fs_inodes_per_group;
	byte = (u64)idx * fs->fs_inode_size;
	*blk = le32_to_cpu(fs->fs_gd[g].bg_inode_table) + (u32)(byte >> fs->fs_bshift);
	*off = (u32)(byte & (fs->fs_bsize - 1));
	return 0;
}

/* Bytes of the slot that struct ext2_inode describes, read at most. */
static u32 ext2_raw_size(const struct ext2_fs *fs)
{
	return min(fs->fs_inode_size, (u32)sizeof(struct ext2_inode));
}

/* Bytes of ei_raw that are @ei's own fields: 128 + i_extra_isize, at most the struct. */
static u32 ext2_raw_len(const struct ext2_inode_info *ei)
{
	if (ei->ei_fs->fs_inode_size <= EXT2_GOOD_OLD_INODE_SIZE)
		return EXT2_GOOD_OLD_INODE_SIZE;
	return min(EXT2_GOOD_OLD_INODE_SIZE + (u32)le16_to_cpu(ei->ei_raw.i_extra_isize),
		   (u32)sizeof(struct ext2_inode));
}

static struct ext2_inode_info *ext2_icache_find(struct ext2_fs *fs, u32 ino)
{
	struct ext2_inode_info *ei;

	list_for_each_entry(ei, &fs->fs_inodes, ei_link)
		if (ei->ei_ino == ino)
			return ei;
	return NULL;
}

static struct ext2_inode_info *ext2_icache_add(struct ext2_fs *fs, u32 ino)
{
	struct ext2_inode_info *ei = kzalloc(sizeof(*ei), GFP_KERNEL);

	if (!ei)
		return NULL;
	ei->ei_fs = fs;
	ei->ei_ino = ino;
	ei->ei_vnode.v_ops = &ext2_vnode_ops;
	ei->ei_vnode.v_mnt = fs->fs_mnt;
	ei->ei_vnode.v_ino = ino;
	ei->ei_vnode.v_count = 1;
	list_add(&ei->ei_link, &fs->fs_inodes);
	fs->fs_ninodes++;
	return ei;
}

static void ext2_icache_drop(struct ext2_inode_info *ei)
{
	list_del(&ei->ei_link);
	ei->ei_fs->fs_ninodes--;
	kfree(ei);
}

/* Check what a live inode read from disk claims; 0 or -EUCLEAN (reported). */
static int ext2_check_inode(struct ext2_fs *fs, struct ext2_inode_info *ei)
{
	const struct ext2_inode *r = &ei->ei_raw;
	u32 mode = le16_to_cpu(r->i_mode), extra = le16_to_cpu(r->i_extra_isize);
	u32 flags = le32_to_cpu(r->i_flags);
	const char *why = NULL;

	if (le16_to_cpu(r->i_links_count) == 0 || mode == 0)
		why = "deleted inode in use";
	else if (fs->fs_inode_size > EXT2_GOOD_OLD_INODE_SIZE &&
		 (EXT2_GOOD_OLD_INODE_SIZE + extra > fs->fs_inode_size || (extra & 3)))
		why = "i_extra_isize beyond the slot";
	else if ((ext2_isreg(ei) || ext2_isdir(ei)) && ext2_isize(ei) > ext2_inode_max_size(ei))
		why = "size beyond the largest file";
	else if (ext2_isdir(ei) && !(flags & EXT4_INLINE_DATA_FL) &&
		 ((!ext2_size_high(ei) && le32_to_cpu(r->i_size_high)) ||
		  (ext2_isize(ei) & (fs->fs_bsize - 1))))
		why = "directory size not a whole number of blocks";
	else if (ext2_islnk(ei) && (ext2_isize(ei) == 0 || ext2_isize(ei) >= fs->fs_bsize ||
				    (ext2_fast_symlink(ei) &&
				     ext2_isize(ei) >= EXT2_FAST_SYMLINK_MAX)))
		why = "symlink length";
	if (!why)
		return 0;
	ext2_error(fs, "iget", "inode %u: %s", ei->ei_ino, why);
	return -EUCLEAN;
}

static int __ext2_iget(struct ext2_fs *fs, u32 ino, bool reserved, struct ext2_inode_info **out);

/**
 * ext2_iget - the in-core inode for @ino, referenced
 * Returns 0, -EUCLEAN for a number out of range, a reserved inode other
 * than the root (the bad-blocks list, the resize inode, the journal: no
 * name may lead to them, as on Linux) or an inode that fails its checks
 * (reported), -EIO, -ENOMEM.  Release with ext2_iput().
 */
int ext2_iget(struct ext2_fs *fs, u32 ino, struct ext2_inode_info **out)
{
	return __ext2_iget(fs, ino, false, out);
}

/* As ext2_iget, for the journal inode (reserved: no name leads to it). */
int ext2_iget_journal(struct ext2_fs *fs, u32 ino, struct ext2_inode_info **out)
{
	return __ext2_iget(fs, ino, true, out);
}

/* ei_csum_seed from the inode number and the generation just set or read. */
static void ext2_inode_seed(const struct ext2_fs *fs, struct ext2_inode_info *ei)
{
	le32 ino = cpu_to_le32(ei->ei_ino);

	if (fs->fs_csum)
		ei->ei_csum_seed = ext2_csum(ext2_csum(fs->fs_csum_seed, &ino, sizeof(ino)),
					     &ei->ei_raw.i_generation,
					     sizeof(ei->ei_raw.i_generation));
}

static int __ext2_iget(struct ext2_fs *fs, u32 ino, bool reserved, struct ext2_inode_info **out)
{
	struct ext2_inode_info *ei;
	struct buffer_head *bh;
	u32 blk, off;
	int err;

	ei = ext2_icache_find(fs, ino);
	if (ei) {
		ei->ei_vnode.v_count++;
		*out = ei;
		return 0;
	}
	if ((ino != EXT2_ROOT_INO && ino < fs->fs_first_ino && !reserved) ||
	    ext2_inode_loc(fs, ino, &blk, &off)) {
		ext2_error(fs, "iget", "inode number %u out of range or reserved", ino);
		return -EUCLEAN;
	}
	bh = ext2_bread(fs, blk);
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	ei = ext2_icache_add(fs, ino);
	if (!ei) {
		err = -ENOMEM;
		goto release_bh;
	}
	memcpy(&ei->ei_raw, bh->b_data + off, ext2_raw_size(fs));
	ext2_inode_seed(fs, ei);
	err = ext2_inode_csum_verify(ei, (const u8 *)bh->b_data + off);
	if (!err)
		err = ext2_check_inode(fs, ei);
	if (!err)
		err = ext2_inode_flags_check(ei);
	if (err) {
		ext2_icache_drop(ei);
		goto release_bh;
	}
	/* bytes past i_extra_isize are attributes, not fields: never read as such */
	memset((u8 *)&ei->ei_raw + ext2_raw_len(ei), 0, sizeof(ei->ei_raw) - ext2_raw_len(ei));
	ei->ei_vnode.v_mode = ext2_mode(ei);
	*out = ei;
release_bh:
	brelse(bh);
	return err;
}

/*
 * The in-core inode for a freshly allocated @ino: the slot on disk is
 * zeroed (any old in-inode attributes go) and the inode starts with @mode,
 * no links, and now for every time.  -EUCLEAN if the slot looks in use
 * (its bitmap bit was wrong; reported).
 */
int ext2_iget_new(struct ext2_fs *fs, u32 ino, u32 mode, struct ext2_inode_info **out)
{
	struct ext2_inode_info *ei;
	struct ext2_inode *r;
	struct buffer_head *bh;
	u32 blk, off, nsec, t;
	s64 now;
	int err = 0;

	if (ext2_icache_find(fs, ino) || ext2_inode_loc(fs, ino, &blk, &off)) {
		ext2_error(fs, "new_inode", "inode %u handed out while in use", ino);
		return -EUCLEAN;
	}
	bh = ext2_bread(fs, blk);
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	r = (struct ext2_inode *)(bh->b_data + off);
	if (le16_to_cpu(r->i_links_count) && !le32_to_cpu(r->i_dtime) && le16_to_cpu(r->i_mode)) {
		ext2_error(fs, "new_inode", "inode %u marked free but in use", ino);
		err = -EUCLEAN;
		goto release_bh;
	}
	ei = ext2_icache_add(fs, ino);
	if (!ei) {
		err = -ENOMEM;
		goto release_bh;
	}
	memset(bh->b_data + off, 0, fs->fs_inode_size);
	ext2_dirty_meta(fs, bh);
	r = &ei->ei_raw;
	r->i_mode = cpu_to_le16((u16)mode);
	r->i_extra_isize = cpu_to_le16((u16)ext2_new_extra_isize(fs));
	ext2_now_ts(&now, &nsec);
	for (t = 0; t < EXT2_NTIMES; t++)
		ext2_set_time(ei, (int)t, now, nsec);
	r->i_generation = cpu_to_le32(ino ^ (u32)now ^ nsec);
	ext2_inode_seed(fs, ei);
	ei->ei_vnode.v_mode = mode;
	ei->ei_dirty = true;
	if ((mode & EXT2_S_IFMT) != EXT2_S_IFLNK)
		ext4_ext_new(ei);	/* a slow symlink gets its tree in namei.c */
	*out = ei;
release_bh:
	brelse(bh);
	return err;
}

/* Copy the in-core inode to its slot if it changed.  0 or -EIO. */
int ext2_write_inode(struct ext2_inode_info *ei)
{
	struct ext2_fs *fs = ei->ei_fs;
	struct buffer_head *bh;
	u32 blk, off;

	if (!ei->ei_dirty || fs->fs_rdonly)
		return 0;
	if (ext2_inode_loc(fs, ei->ei_ino, &blk, &off))
		panic("ext2_write_inode: inode %u", ei->ei_ino);
	bh = ext2_bread(fs, blk);
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	memcpy(bh->b_data + off, &ei->ei_raw, ext2_raw_len(ei));
	ext2_inode_csum_set(ei, (u8 *)bh->b_data + off);
	ext2_dirty_meta(fs, bh);
	brelse(bh);
	ei->ei_dirty = false;
	return 0;
}

void ext2_mark_dirty(struct ext2_inode_info *ei)
{
	ei->ei_dirty = true;
}

u64 ext2_isize(const struct ext2_inode_info *ei)
{
	u64 size = le32_to_cpu(ei->ei_raw.i_size);

	if (ext2_size_high(ei))
		size |= (u64)le32_to_cpu(ei->ei_raw.i_size_high) << 32;
	return size;
}

/*
 * Set the size; a regular file past 2 GiB needs the large_file feature,
 * which is turned on here as Linux does.
 */
void ext2_set_isize(struct ext2_inode_info *ei, u64 size)
{
	struct ext2_fs *fs = ei->ei_fs;
	u32 ro = le32_to_cpu(fs->fs_sb.s_feature_ro_compat);

	ei->ei_raw.i_size = cpu_to_le32((u32)size);
	if (ext2_size_high(ei))
		ei->ei_raw.i_size_high = cpu_to_le32((u32)(size >> 32));
	if (size > 0x7fffffffULL && !(ro & EXT2_FEATURE_RO_COMPAT_LARGE_FILE)) {
		fs->fs_sb.s_feature_ro_compat = cpu_to_le32(ro | EXT2_FEATURE_RO_COMPAT_LARGE_FILE);
		fs->fs_sb_dirty = true;
	}
	ei->ei_dirty = true;
}

void ext2_touch(struct ext2_inode_info *ei, bool mtime, bool ctime)
{
	s64 now;
	u32 nsec;

	ext2_now_ts(&now, &nsec);
	if (mtime)
		ext2_set_time(ei, EXT2_MTIME, now, nsec);
	if (ctime)
		ext2_set_time(ei, EXT2_CTIME, now, nsec);
	ei->ei_dirty = true;
}

/* vop_set_atime: in core only, written back with the rest of the inode. */
int ext2_set_atime(struct vnode *v, s64 atime)
{
	struct ext2_inode_info *ei = EXT2_I(v);

	if (ei->ei_fs->fs_rdonly)
		return -EROFS;
	ext2_set_time(ei, EXT2_ATIME, atime, 0);
	ei->ei_dirty = true;
	return 0;
}

/* Linux's test: a symlink using no blocks besides an attribute block. */
bool ext2_fast_symlink(const struct ext2_inode_info *ei)
{
	u32 ea = le32_to_cpu(ei->ei_raw.i_file_acl) ? ei->ei_fs->fs_bsize >> 9 : 0;

	return ext2_islnk(ei) && ext2_iblocks(ei) == ea;
}

/*
 * Drop the inode's reference on its extended-attribute block (doc:
 * "Extended Attributes": h_magic at 0, h_refcount at 4) and free the block
 * when that was the last.  0 or -errno.
 */
static int ext2_release_xattr(struct ext2_inode_info *ei)
{
	struct ext2_fs *fs = ei->ei_fs;
	u32 blk = le32_to_cpu(ei->ei_raw.i_file_acl), refs;
	struct buffer_head *bh;
	int err = 0;

	if (!blk)
		return 0;
	if (!ext2_data_run(fs, blk, 1)) {
		ext2_error(fs, "release_xattr",
			   "inode %u: attribute block %u out of range or metadata", ei->ei_ino, blk);
		return -EUCLEAN;
	}
	bh = ext2_bread(fs, blk);
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	refs = get_le32(bh->b_data + 4);
	if (get_le32(bh->b_data) != EXT2_XATTR_MAGIC || refs == 0) {
		ext2_error(fs, "release_xattr", "inode %u: bad attribute block %u", ei->ei_ino, blk);
		err = -EUCLEAN;
	} else if (refs == 1) {
		err = ext2_free_block(fs, blk);
	} else {
		put_le32(bh->b_data + 4, refs - 1);
		ext2_dirty_meta(fs, bh);
	}
	brelse(bh);
	if (!err) {
		ei->ei_raw.i_file_acl = 0;
		ext2_add_blocks(ei, -1);
	}
	return err;
}

/* Free an unlinked inode: its blocks, its attribute block, its bitmap bit. */
static int ext2_delete_inode(struct ext2_inode_info *ei)
{
	struct ext2_fs *fs = ei->ei_fs;
	bool isdir = ext2_isdir(ei);
	int err = 0, e;

	if (!ext2_fast_symlink(ei))
		err = ext2_truncate_blocks(ei, 0);
	ext2_set_isize(ei, 0);
	e = ext2_release_xattr(ei);
	if (e && !err)
		err = e;
	ei->ei_raw.i_dtime = cpu_to_le32(ext2_now());
	ei->ei_dirty = true;
	e = ext2_write_inode(ei);
	if (e && !err)
		err = e;
	e = ext2_free_inode(fs, ei->ei_ino, isdir);
	if (e && !err)
		err = e;
	return err;
}

/* vop_release: the last reference went. */
int ext2_inode_release(struct vnode *v)
{
	struct ext2_inode_info *ei = EXT2_I(v);
	int err = 0;

	if (!ei->ei_fs->fs_rdonly) {
		if (le16_to_cpu(ei->ei_raw.i_links_count) == 0)
			err = ext2_delete_inode(ei);
		else
			err = ext2_write_inode(ei);
	}
	ext2_icache_drop(ei);
	return err;
}

void ext2_iput(struct ext2_inode_info *ei)
{
	if (ei)
		vnode_put(&ei->ei_vnode);
}

int ext2_getattr(struct vnode *v, struct vfs_stat *st)
{
	struct ext2_inode_info *ei = EXT2_I(v);
	const struct ext2_inode *r = &ei->ei_raw;

	memset(st, 0, sizeof(*st));
	st->st_ino = ei->ei_ino;
	st->st_mode = le16_to_cpu(r->i_mode);
	st->st_nlink = le16_to_cpu(r->i_links_count);
	st->st_uid = le16_to_cpu(r->i_uid) | (u32)le16_to_cpu(r->i_uid_high) << 16;
	st->st_gid = le16_to_cpu(r->i_gid) | (u32)le16_to_cpu(r->i_gid_high) << 16;
	st->st_size = ext2_isize(ei);
	st->st_blocks = ext2_iblocks(ei);
	st->st_blksize = ei->ei_fs->fs_bsize;
	ext2_get_time(ei, EXT2_ATIME, &st->st_atime, &st->st_atime_ns);
	ext2_get_time(ei, EXT2_MTIME, &st->st_mtime, &st->st_mtime_ns);
	ext2_get_time(ei, EXT2_CTIME, &st->st_ctime, &st->st_ctime_ns);
	return 0;
}
