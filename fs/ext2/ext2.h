/*
 * ext2 internals shared by the files of fs/ext2/: the in-core superblock
 * (struct ext2_fs) and in-core inode (struct ext2_inode_info), and the
 * calls between super.c, super_check.c, csum.c, meta.c, bitmap.c, balloc.c, ialloc.c,
 * inode.c, inode4.c, bmap.c, extents*.c, dir.c, dir_block.c, htree*.c,
 * inline.c, xattr.c, file.c and namei.c.  Nothing outside fs/ext2/
 * includes this; the VFS
 * sees ext2 only through ext2_fstype and the vnode ops.
 *
 * Lock legend: [I] immutable after mount, [v] vfs_lock, which every VFS
 * entry point holds around its calls into the filesystem (see fs/vfs.h).
 */
#ifndef FS_EXT2_EXT2_H
#define FS_EXT2_EXT2_H

#include "fs/buffer.h"
#include "fs/direct_io.h"
#include "fs/vfs.h"
#include "fs/ext2/ext2_fs.h"
#include "lib/crc32c.h"

struct jbd2_journal;

#define EXT2_D_MOUNT	0x01
#define EXT2_D_ALLOC	0x02
#define EXT2_D_DIR	0x04

/* Blocks [z_start, z_end) hold metadata (see meta.c). */
struct ext2_zone {
	u32	z_start;
	u32	z_end;
};

struct ext2_fs {
	struct block_device	*fs_bdev;		/* [I] */
	struct vfs_mount	*fs_mnt;		/* [I] */
	u32			fs_bsize;		/* [I] block size, bytes */
	u32			fs_bshift;		/* [I] log2(fs_bsize) */
	u32			fs_apb;			/* [I] block addresses per block */
	u32			fs_apb_shift;		/* [I] log2(fs_apb) */
	u32			fs_blocks_count;	/* [I] */
	u32			fs_first_data_block;	/* [I] */
	u32			fs_blocks_per_group;	/* [I] */
	u32			fs_inodes_per_group;	/* [I] */
	u32			fs_inodes_count;	/* [I] */
	u32			fs_groups;		/* [I] */
	u32			fs_inode_size;		/* [I] */
	u32			fs_first_ino;		/* [I] first non-reserved inode */
	u32			fs_itable_blocks;	/* [I] inode table blocks per group */
	u32			fs_gdt_blocks;		/* [I] group descriptor blocks */
	u32			fs_desc_size;		/* [I] on-disk descriptor: 32, or 64+ (64bit) */
	u32			fs_desc_per_block;	/* [I] fs_bsize / fs_desc_size */
	u32			fs_first_meta_bg;	/* [I] meta_bg: descriptor blocks kept after
							   the superblock; the rest lie in the first
							   group of their meta group */
	u32			fs_sb_block;		/* [I] superblock in 1 KiB units: 1 */
	u64			fs_max_size;		/* [I] largest file, bytes */
	bool			fs_rdonly;		/* [I] */
	bool			fs_filetype;		/* [I] dirents carry a file type */
	bool			fs_flex_bg;		/* [I] metadata may be outside its group */
	bool			fs_meta_bg;		/* [I] descriptor blocks spread out */
	bool			fs_csum;		/* [I] metadata_csum: crc32c on metadata */
	bool			fs_gdt_csum;		/* [I] gdt_csum or metadata_csum: bg_flags
							   (uninit_bg) and bg_checksum are live */
	bool			fs_ext4;		/* [I] any ext4 feature: the type "ext4" */
	u32			fs_csum_seed;		/* [I] crc32c(~0, s_uuid), or s_checksum_seed
							   with csum_seed; 0 without fs_csum */
	struct ext2_super_block	fs_sb;			/* [v] in-core copy */
	struct ext2_group_desc	*fs_gd;			/* [v] in-core copies, fs_groups of them,
							   each whole (64 bytes) whatever fs_desc_size */
	u8			*fs_gstate;		/* [v] EXT2_GS_* per group */
	struct ext2_zone	*fs_zones;		/* [I] metadata, sorted, disjoint */
	u32			fs_nzones;		/* [I] */
	bool			fs_sb_dirty;		/* [v] fs_sb newer than the disk */
	bool			fs_gd_dirty;		/* [v] fs_gd newer than the disk */
	bool			fs_error;		/* [v] corruption seen since mount */
	u16			fs_mount_state;		/* [v] s_state found at mount, restored at unmount */
	struct list_head	fs_inodes;		/* [v] in-core inodes */
	u32			fs_ninodes;		/* [v] how many */
	struct jbd2_journal	*fs_journal;		/* [I] ext3 read-write, else NULL */
	u32			fs_commit_s;		/* [I] commit= seconds, 0: default */
};

/* fs_gstate: what this mount learnt of a group's bitmaps (bitmap.c) */
#define EXT2_GS_BBITMAP_OK	0x01	/* block bitmap checksum verified */
#define EXT2_GS_BBITMAP_BAD	0x02	/* block bitmap checksum wrong: not allocated from */
#define EXT2_GS_IBITMAP_OK	0x04	/* inode bitmap checksum verified */
#define EXT2_GS_IBITMAP_BAD	0x08	/* inode bitmap checksum wrong: not allocated from */

struct ext2_inode_info {
	struct vnode		ei_vnode;	/* ei_vnode.v_ino is the inode number */
	struct list_head	ei_link;	/* [v] on fs_inodes */
	struct ext2_fs		*ei_fs;		/* [I] */
	u32			ei_ino;		/* [I] */
	struct ext2_inode	ei_raw;		/* [v] the on-disk inode, little-endian */
	bool			ei_dirty;	/* [v] ei_raw newer than the inode table */
	u32			ei_last_block;	/* [v] physical block last allocated: the goal */
	u32			ei_csum_seed;	/* [I] with fs_csum: crc32c(fs_csum_seed, le32 ino,
						   le32 i_generation), the seed of the checksums
						   of the inode and of its extent and directory
						   blocks (ext4 wiki "Checksums") */
};

static inline struct ext2_inode_info *EXT2_I(struct vnode *v)
{
	return container_of(v, struct ext2_inode_info, ei_vnode);
}

static inline u32 ext2_mode(const struct ext2_inode_info *ei)
{
	return le16_to_cpu(ei->ei_raw.i_mode);
}

static inline bool ext2_isdir(const struct ext2_inode_info *ei)
{
	return (ext2_mode(ei) & EXT2_S_IFMT) == EXT2_S_IFDIR;
}

static inline bool ext2_isreg(const struct ext2_inode_info *ei)
{
	return (ext2_mode(ei) & EXT2_S_IFMT) == EXT2_S_IFREG;
}

static inline bool ext2_islnk(const struct ext2_inode_info *ei)
{
	return (ext2_mode(ei) & EXT2_S_IFMT) == EXT2_S_IFLNK;
}

/* crc32c as ext4 uses it: raw register, no inversions (lib/crc32c.h). */
static inline u32 ext2_csum(u32 seed, const void *buf, size_t len)
{
	return crc32c(seed, buf, len);
}

/*
 * Does the inode's slot hold the bytes up to @end (an offset in struct
 * ext2_inode)?  Past 128 only what i_extra_isize covers ("Inode Size").
 */
static inline bool ext2_ifits(const struct ext2_inode_info *ei, size_t end)
{
	return end <= EXT2_GOOD_OLD_INODE_SIZE ||
	       (ei->ei_fs->fs_inode_size > EXT2_GOOD_OLD_INODE_SIZE &&
		end <= EXT2_GOOD_OLD_INODE_SIZE + (size_t)le16_to_cpu(ei->ei_raw.i_extra_isize));
}
#define EXT2_IFITS(ei, field) \
	ext2_ifits(ei, offsetof(struct ext2_inode, field) + sizeof(((struct ext2_inode *)0)->field))

/* Does the filesystem have this ro_compat / incompat feature (dynamic revision only)? */
static inline bool ext2_ro_feature(const struct ext2_fs *fs, u32 bit)
{
	return le32_to_cpu(fs->fs_sb.s_rev_level) >= EXT2_DYNAMIC_REV &&
	       (le32_to_cpu(fs->fs_sb.s_feature_ro_compat) & bit);
}

static inline bool ext2_incompat_feature(const struct ext2_fs *fs, u32 bit)
{
	return le32_to_cpu(fs->fs_sb.s_rev_level) >= EXT2_DYNAMIC_REV &&
	       (le32_to_cpu(fs->fs_sb.s_feature_incompat) & bit);
}

/* The group a block or an inode belongs to. */
static inline u32 ext2_block_group(const struct ext2_fs *fs, u32 blk)
{
	return (blk - fs->fs_first_data_block) / fs->fs_blocks_per_group;
}

static inline u32 ext2_ino_group(const struct ext2_fs *fs, u32 ino)
{
	return (ino - 1) / fs->fs_inodes_per_group;
}

/* A block number a pointer may legitimately hold. */
static inline bool ext2_valid_block(const struct ext2_fs *fs, u32 blk)
{
	return blk >= fs->fs_first_data_block && blk < fs->fs_blocks_count;
}

/* Descriptor counts, lo and hi halves (the hi ones are zero in 32-byte descriptors). */
static inline u32 ext2_gd_free_blocks(const struct ext2_group_desc *gd)
{
	return le16_to_cpu(gd->bg_free_blocks_count) |
	       (u32)le16_to_cpu(gd->bg_free_blocks_count_hi) << 16;
}

static inline u32 ext2_gd_free_inodes(const struct ext2_group_desc *gd)
{
	return le16_to_cpu(gd->bg_free_inodes_count) |
	       (u32)le16_to_cpu(gd->bg_free_inodes_count_hi) << 16;
}

static inline u32 ext2_gd_used_dirs(const struct ext2_group_desc *gd)
{
	return le16_to_cpu(gd->bg_used_dirs_count) |
	       (u32)le16_to_cpu(gd->bg_used_dirs_count_hi) << 16;
}

static inline u32 ext2_gd_itable_unused(const struct ext2_group_desc *gd)
{
	return le16_to_cpu(gd->bg_itable_unused) |
	       (u32)le16_to_cpu(gd->bg_itable_unused_hi) << 16;
}

static inline void ext2_gd_set_free_blocks(struct ext2_group_desc *gd, u32 n)
{
	gd->bg_free_blocks_count = cpu_to_le16((u16)n);
	gd->bg_free_blocks_count_hi = cpu_to_le16((u16)(n >> 16));
}

static inline void ext2_gd_set_free_inodes(struct ext2_group_desc *gd, u32 n)
{
	gd->bg_free_inodes_count = cpu_to_le16((u16)n);
	gd->bg_free_inodes_count_hi = cpu_to_le16((u16)(n >> 16));
}

static inline void ext2_gd_set_used_dirs(struct ext2_group_desc *gd, u32 n)
{
	gd->bg_used_dirs_count = cpu_to_le16((u16)n);
	gd->bg_used_dirs_count_hi = cpu_to_le16((u16)(n >> 16));
}

static inline void ext2_gd_set_itable_unused(struct ext2_group_desc *gd, u32 n)
{
	gd->bg_itable_unused = cpu_to_le16((u16)n);
	gd->bg_itable_unused_hi = cpu_to_le16((u16)(n >> 16));
}

/* Superblock free-block count, lo and hi (64bit). */
static inline u64 ext2_sb_free_blocks(const struct ext2_super_block *sb)
{
	return le32_to_cpu(sb->s_free_blocks_count) |
	       (u64)le32_to_cpu(sb->s_free_blocks_count_hi) << 32;
}

static inline void ext2_sb_set_free_blocks(struct ext2_super_block *sb, u64 n)
{
	sb->s_free_blocks_count = cpu_to_le32((u32)n);
	sb->s_free_blocks_count_hi = cpu_to_le32((u32)(n >> 32));
}

/* Group @g's bg_flags has @flag, and the flags mean something (uninit_bg). */
static inline bool ext2_gd_flag(const struct ext2_fs *fs, u32 g, u16 flag)
{
	return fs->fs_gdt_csum && (le16_to_cpu(fs->fs_gd[g].bg_flags) & flag);
}

/* super.c */
struct buffer_head *ext2_bread(struct ext2_fs *fs, u32 blk);
struct buffer_head *ext2_getblk_zero(struct ext2_fs *fs, u32 blk);
void ext2_error(struct ext2_fs *fs, const char *where, const char *fmt, ...) __printf(3, 4);
u32 ext2_now(void);
int ext2_write_super(struct ext2_fs *fs);

/* super_check.c: the on-disk superblock and descriptors, checked */
int ext2_check_geometry(struct ext2_fs *fs, const struct ext2_super_block *sb,
			u64 devbytes, const char *dev);
int ext2_check_features(struct ext2_fs *fs, const char *dev, bool *force_ro);
bool ext2_sb_is_ext4(const struct ext2_super_block *sb);
u64 ext2_max_size(const struct ext2_fs *fs);
int ext2_load_groups(struct ext2_fs *fs, const char *dev, bool *force_ro);
u32 ext2_desc_block(const struct ext2_fs *fs, u32 i);
bool ext2_group_has_super(const struct ext2_fs *fs, u32 group);
u32 ext2_group_head_blocks(const struct ext2_fs *fs, u32 group);

/* csum.c: superblock, descriptor and bitmap checksums */
void ext2_sb_csum_set(struct ext2_super_block *sb);
bool ext2_sb_csum_ok(const struct ext2_super_block *sb);
u16 ext2_gd_csum(const struct ext2_fs *fs, u32 g, const void *desc);
enum ext2_bitmap { EXT2_BLOCK_BITMAP, EXT2_INODE_BITMAP };
/* Record @map's checksum in group @g's in-core descriptor (the caller dirties it). */
void ext2_bitmap_csum_set(struct ext2_fs *fs, u32 g, enum ext2_bitmap which, const void *map);
/* Does the descriptor hold @map's checksum?  True without metadata_csum. */
bool ext2_bitmap_csum_ok(const struct ext2_fs *fs, u32 g, enum ext2_bitmap which,
			 const void *map);

/*
 * bitmap.c: group @g's bitmap for a change -- read and checked once per
 * mount, or built and written for an uninitialised group.  -EUCLEAN for
 * one whose checksum failed (reported once), or the read's error.
 */
struct buffer_head *ext2_read_bitmap(struct ext2_fs *fs, u32 g, enum ext2_bitmap which);
/* The bitmap in @bh changed: its checksum, then into the journal or dirty. */
void ext2_bitmap_changed(struct ext2_fs *fs, u32 g, enum ext2_bitmap which,
			 struct buffer_head *bh);
/* Blocks in group @g: the last group may be short. */
u32 ext2_group_nblocks(const struct ext2_fs *fs, u32 g);

/* meta.c: where metadata lies */
int ext2_meta_init(struct ext2_fs *fs, const char *dev);
u32 ext2_data_run(const struct ext2_fs *fs, u32 blk, u32 n);
void ext2_meta_mark_group(const struct ext2_fs *fs, u32 g, u8 *map);

/* balloc.c: blocks */
int ext2_new_blocks(struct ext2_fs *fs, u32 goal, u32 max, u32 *out);
int ext2_free_block(struct ext2_fs *fs, u32 blk);
int ext2_find_zero(const u8 *map, u32 nbits, u32 start);

/* ialloc.c: inodes */
int ext2_new_inode(struct ext2_fs *fs, struct ext2_inode_info *dir, u32 mode,
		   struct ext2_inode_info **out);
int ext2_free_inode(struct ext2_fs *fs, u32 ino, bool isdir);

/* inode.c */
int ext2_iget(struct ext2_fs *fs, u32 ino, struct ext2_inode_info **out);
int ext2_iget_journal(struct ext2_fs *fs, u32 ino, struct ext2_inode_info **out);
int ext2_iget_new(struct ext2_fs *fs, u32 ino, u32 mode, struct ext2_inode_info **out);
void ext2_iput(struct ext2_inode_info *ei);
int ext2_write_inode(struct ext2_inode_info *ei);
void ext2_mark_dirty(struct ext2_inode_info *ei);
u64 ext2_isize(const struct ext2_inode_info *ei);
void ext2_set_isize(struct ext2_inode_info *ei, u64 size);
void ext2_touch(struct ext2_inode_info *ei, bool mtime, bool ctime);
int ext2_set_atime(struct vnode *v, s64 atime);
int ext2_inode_release(struct vnode *v);
int ext2_getattr(struct vnode *v, struct vfs_stat *st);
bool ext2_fast_symlink(const struct ext2_inode_info *ei);
int ext2_inode_loc(struct ext2_fs *fs, u32 ino, u32 *blk, u32 *off);

/* inode4.c: the ext4 fields of an inode */
int ext2_inode_csum_verify(struct ext2_inode_info *ei, const u8 *slot);
void ext2_inode_csum_set(struct ext2_inode_info *ei, u8 *slot);
u32 ext2_new_extra_isize(const struct ext2_fs *fs);
enum { EXT2_ATIME, EXT2_MTIME, EXT2_CTIME, EXT2_CRTIME, EXT2_NTIMES };
void ext2_get_time(const struct ext2_inode_info *ei, int which, s64 *sec, u32 *nsec);
void ext2_set_time(struct ext2_inode_info *ei, int which, s64 sec, u32 nsec);
void ext2_now_ts(s64 *sec, u32 *nsec);
u64 ext2_iblocks(const struct ext2_inode_info *ei);
void ext2_add_blocks(struct ext2_inode_info *ei, int nblocks);
u64 ext2_inode_max_size(const struct ext2_inode_info *ei);
bool ext2_size_high(const struct ext2_inode_info *ei);
u32 ext2_link_max(const struct ext2_fs *fs);
int ext2_dir_may_link(const struct ext2_inode_info *dir);
u32 ext2_dir_inc_links(const struct ext2_inode_info *dir);
u32 ext2_dir_dec_links(const struct ext2_inode_info *dir);
int ext2_inode_flags_check(struct ext2_inode_info *ei);

/* bmap.c: a run of a file's blocks, for ext2_map_blocks() */
struct ext2_map {
	u64	m_lblk;		/* in: first logical block */
	u32	m_len;		/* in: most blocks wanted (>= 1); out: blocks in the run */
	u32	m_pblk;		/* out: disk block of m_lblk, 0 for a hole */
	bool	m_new;		/* out: the run's blocks were allocated by this call */
};
#define EXT2_MAP_CREATE	0x1	/* allocate the blocks of a hole */
#define EXT2_MAP_ZERO	0x2	/* and zero new data blocks through the cache */

int ext2_map_blocks(struct ext2_inode_info *ei, struct ext2_map *map, unsigned flags);
int ext2_bmap(struct ext2_inode_info *ei, u64 lblk, bool create, u32 *pblk);
int ext2_truncate_blocks(struct ext2_inode_info *ei, u64 size);

/* extents.c, extents_write.c: ext4 extent trees, for inodes with EXT4_EXTENTS_FL */
bool ext4_has_extents(const struct ext2_fs *fs);
bool ext4_uses_extents(const struct ext2_inode_info *ei);
void ext4_ext_new(struct ext2_inode_info *ei);
int ext4_ext_map(struct ext2_inode_info *ei, struct ext2_map *map, unsigned flags);
int ext4_ext_truncate(struct ext2_inode_info *ei, u64 size);

/* dir.c */
int ext2_dir_find(struct ext2_inode_info *dir, const char *name, size_t len, u32 *ino);
int ext2_dir_parent(struct ext2_inode_info *dir, u32 *ino);
int ext2_dir_add(struct ext2_inode_info *dir, const char *name, size_t len,
		 u32 ino, u32 mode);
int ext2_dir_remove(struct ext2_inode_info *dir, const char *name, size_t len);
int ext2_dir_set(struct ext2_inode_info *dir, const char *name, size_t len,
		 u32 ino, u32 mode);
int ext2_dir_empty(struct ext2_inode_info *dir);
int ext2_dir_init(struct ext2_inode_info *dir, u32 parent);
int ext2_lookup(struct vnode *dir, const char *name, size_t len, struct vnode **out);
int ext2_readdir(struct vnode *dir, u64 *pos, struct vfs_dirent *de);
u8 ext2_de_vfs_type(const struct ext2_fs *fs, const struct ext2_dir_entry *de);

/* dir_block.c: one directory block (the leaves of htree.c too) */
u32 ext2_de_namelen(const struct ext2_fs *fs, const struct ext2_dir_entry *de);
void ext2_de_set_name(const struct ext2_fs *fs, struct ext2_dir_entry *de,
		      const char *name, size_t len, u32 mode);
bool ext2_de_match(const struct ext2_fs *fs, const struct ext2_dir_entry *de,
		   const char *name, size_t len);
int ext2_dir_check_entry(struct ext2_inode_info *dir, struct buffer_head *bh, u32 off, u32 end);
struct buffer_head *ext2_dir_read(struct ext2_inode_info *dir, u64 lblk);
u32 ext2_dir_end(struct ext2_inode_info *dir, struct buffer_head *bh, u64 lblk);
int ext2_dir_commit(struct ext2_inode_info *dir, struct buffer_head *bh, u64 lblk);
void ext2_dir_set_tail(const struct ext2_fs *fs, struct buffer_head *bh);
void ext2_dir_format_leaf(struct ext2_inode_info *dir, struct buffer_head *bh);
struct buffer_head *ext2_dir_new_block(struct ext2_inode_info *dir, u64 *lblk);
int ext2_dir_block_find(struct ext2_inode_info *dir, struct buffer_head *bh, u64 lblk,
			const char *name, size_t len, u32 *ino);
int ext2_dir_block_add(struct ext2_inode_info *dir, struct buffer_head *bh, u64 lblk,
		       const char *name, size_t len, u32 ino, u32 mode);

/* htree.c, htree_add.c, htree_hash.c: hash tree directories */
u32 ext2_dx_hash(unsigned version, const u32 seed[4], const char *name, size_t len);
bool ext2_dx_indexed(const struct ext2_inode_info *dir);
bool ext2_dx_is_index(const struct ext2_inode_info *dir, struct buffer_head *bh, u64 lblk);
int ext2_dx_csum_verify(struct ext2_inode_info *dir, struct buffer_head *bh, u64 lblk);
void ext2_dx_csum_set(struct ext2_inode_info *dir, struct buffer_head *bh, u64 lblk);
int ext2_dx_find(struct ext2_inode_info *dir, const char *name, size_t len, u32 *ino);
int ext2_dx_add(struct ext2_inode_info *dir, const char *name, size_t len, u32 ino, u32 mode);

/* inline.c, xattr.c: inline data (read-only) */
bool ext2_inline(const struct ext2_inode_info *ei);
bool ext2_inline_dir(const struct ext2_inode_info *ei);
int ext2_inline_find(struct ext2_inode_info *dir, const char *name, size_t len, u32 *ino);
int ext2_inline_readdir(struct ext2_inode_info *dir, u64 *pos, struct vfs_dirent *d);
long ext2_inline_read(struct ext2_inode_info *ei, u64 pos, void *buf, size_t len);
int ext2_xattr_ibody_get(struct ext2_inode_info *ei, const u8 *slot, u8 index,
			 const char *name, const u8 **value);

/* file.c */
long ext2_read(struct vnode *v, u64 pos, void *buf, size_t len);
long ext2_write(struct vnode *v, u64 pos, const void *buf, size_t len);
int ext2_truncate(struct vnode *v, u64 size);
int ext2_readlink(struct vnode *v, char *buf, size_t size);

/* namei.c: the namespace operations, as vnode ops (unjournaled) */
int ext2_create(struct vnode *dv, const char *name, size_t len, u32 mode, struct vnode **out);
int ext2_mkdir(struct vnode *dv, const char *name, size_t len, u32 mode);
int ext2_symlink(struct vnode *dv, const char *name, size_t len, const char *target);
int ext2_link(struct vnode *v, struct vnode *dv, const char *name, size_t len);
int ext2_unlink(struct vnode *dv, const char *name, size_t len);
int ext2_rmdir(struct vnode *dv, const char *name, size_t len);
int ext2_rename(struct vnode *odv, const char *oname, size_t olen,
		struct vnode *ndv, const char *nname, size_t nlen);

/* handle.c: the vnode ops table, each changing op inside a journal handle */
extern const struct vnode_ops ext2_vnode_ops;

/* journal.c: the ext3 journal (fs/jbd2/jbd2.h) */
bool ext2_has_journal(const struct ext2_fs *fs);
int ext2_journal_mount(struct ext2_fs *fs, const char *dev, bool ro, bool *again);
void ext2_journal_mark(struct ext2_fs *fs);
int ext2_journal_start(struct ext2_fs *fs);
int ext2_journal_stop(struct ext2_fs *fs);
void ext2_journal_free(struct ext2_fs *fs);
int ext2_journal_sync(struct ext2_fs *fs);
/*
 * The caller changed metadata block @bh: into the running transaction
 * (journaled) or dirty (plain ext2).  0 or the journal's error.
 */
int ext2_dirty_meta(struct ext2_fs *fs, struct buffer_head *bh);
/* Block @blk was freed: revoke it in the journal.  0 or -errno. */
int ext2_journal_forget(struct ext2_fs *fs, u32 blk);
/* Freed by the uncommitted transaction: not to be allocated yet. */
bool ext2_block_busy(const struct ext2_fs *fs, u32 blk);
int ext2_journal_begin(struct ext2_fs *fs, bool may_commit);
/* Close the handle; returns @ret, or the journal's error if @ret was not one. */
int ext2_journal_end(struct ext2_fs *fs, int ret);

#endif
