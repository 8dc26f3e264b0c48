/*
 * FAT internals shared by the files of fs/fat/: the in-core volume
 * (struct fat_fs) and in-core file (struct fat_node), and the calls
 * between super.c, table.c, dir.c, file.c and namei.c.  Nothing outside
 * fs/fat/ includes this; the VFS sees FAT only through fat_fstype and the
 * vnode ops, blkid through fat_read_id().
 *
 * FAT has no inodes: a file is its directory entry.  An in-core node is
 * found again by where that entry lies (n_depos, the byte offset of the
 * short entry in the volume), except a directory, which is found by its
 * first cluster: ".." names a directory by cluster, never by entry, and a
 * directory always has one.  The root is the node with n_root set.
 *
 * Lock legend: [I] immutable after mount (or creation), [v] vfs_lock, which
 * every VFS entry point holds around its calls into the filesystem (see
 * fs/vfs.h).
 */
#ifndef FS_FAT_FAT_H
#define FS_FAT_FAT_H

#include "fs/buffer.h"
#include "fs/direct_io.h"
#include "fs/vfs.h"
#include "fs/fat/fat_format.h"

#define FAT_D_MOUNT	0x01
#define FAT_D_ALLOC	0x02

#define FAT_FREE_UNKNOWN	0xFFFFFFFF

struct fat_node;

struct fat_fs {
	struct block_device	*fs_bdev;	/* [I] */
	struct vfs_mount	*fs_mnt;	/* [I] */
	struct fat_geom		fs_g;		/* [I] from the BPB */
	bool			fs_rdonly;	/* [I] */
	bool			fs_error;	/* [v] corruption seen since mount */
	u32			fs_free;	/* [v] free clusters, or FAT_FREE_UNKNOWN */
	u32			fs_next_free;	/* [v] where the next allocation looks first */
	u32			fs_fat1;	/* [I] FAT[1] as found at mount, restored at unmount */
	struct list_head	fs_nodes;	/* [v] in-core nodes */
	u32			fs_nnodes;	/* [v] how many */
};

struct fat_node {
	struct vnode		n_vnode;
	struct list_head	n_link;		/* [v] on fs_nodes */
	struct fat_fs		*n_fs;		/* [I] */
	bool			n_root;		/* [I] the root directory */
	bool			n_dir;		/* [I] */
	u64			n_depos;	/* [v] byte offset of the short entry; 0 for root */
	u32			n_start;	/* [v] first cluster, 0 if none */
	u32			n_size;		/* [v] bytes, files only */
	u8			n_attr;		/* [v] FAT_ATTR_* */
	u16			n_mdate, n_mtime;	/* [v] DOS date and time */
	u16			n_cdate, n_ctime;	/* [v] */
	u16			n_adate;	/* [v] */
	u32			n_nclus;	/* [v] clusters in the chain */
	u32			n_last;		/* [v] its last cluster, 0 if none */
	int			n_err;		/* [v] the chain is corrupt: this, for every I/O */
	bool			n_dirty;	/* [v] the entry must be written back */
	bool			n_unlinked;	/* [v] no entry left: free at release */
	u32			n_cur_l, n_cur_p;	/* [v] bmap cursor: logical -> disk cluster */
};

static inline struct fat_node *FAT_N(struct vnode *v)
{
	return container_of(v, struct fat_node, n_vnode);
}

static inline struct fat_fs *FAT_FS(struct fat_node *n)
{
	return n->n_fs;
}

static inline u32 fat_de_start(const struct fat_fs *fs, const struct fat_dirent *de)
{
	u32 hi = fs->fs_g.g_type == 32 ? le16_to_cpu(de->de_fstclushi) : 0;

	return (hi << 16) | le16_to_cpu(de->de_fstcluslo);
}

/* A directory entry found by fat_dir_next(). */
struct fat_iter {
	u32			it_idx;		/* next slot to read */
	struct fat_lfn_state	it_lfn;
	u32			it_lfn_first;	/* slot of the first entry of a pending long name */
	/* the entry returned */
	struct fat_dirent	it_de;
	u32			it_slot;	/* its short entry */
	u32			it_first;	/* its first slot (long-name entries included) */
	u64			it_pos;		/* byte offset of the short entry in the volume */
	size_t			it_len;
	char			it_name[VFS_NAME_MAX + 1];
};

/* super.c */
void fat_error(struct fat_fs *fs, const char *fmt, ...) __printf(2, 3);
struct buffer_head *fat_bread(struct fat_fs *fs, u32 sector);
struct buffer_head *fat_getblk_zero(struct fat_fs *fs, u32 sector);
s64 fat_now(void);

/* table.c: the FAT */
int fat_get(struct fat_fs *fs, u32 clus, u32 *val);
int fat_set(struct fat_fs *fs, u32 clus, u32 val);
int fat_alloc(struct fat_fs *fs, u32 prev, u32 *out);
int fat_free_chain(struct fat_fs *fs, u32 start);
int fat_count_free(struct fat_fs *fs);
int fat_check_chain(struct fat_node *n);
int fat_bmap(struct fat_node *n, u32 lclus, bool create, u32 *pclus);
int fat_truncate_chain(struct fat_node *n, u32 keep);

/* dir.c */
int fat_dir_next(struct fat_node *dir, struct fat_iter *it);
int fat_dir_find(struct fat_node *dir, const char *name, size_t len, struct fat_iter *it);
int fat_dir_add(struct fat_node *dir, const char *name, size_t len, struct fat_dirent *de,
		u64 *pos);
int fat_dir_remove(struct fat_node *dir, const struct fat_iter *it);
int fat_dir_empty(struct fat_node *dir);
int fat_dir_init(struct fat_fs *fs, u32 clus, u32 parent, const struct fat_dirent *tmpl);
int fat_dir_parent(struct fat_node *dir, u32 *clus);
int fat_readdir(struct vnode *dir, u64 *pos, struct vfs_dirent *de);

/* inode.c: in-core nodes */
int fat_iget(struct fat_fs *fs, const struct fat_dirent *de, u64 pos, struct fat_node **out);
int fat_iget_dir(struct fat_fs *fs, u32 clus, struct fat_node **out);
int fat_iget_root(struct fat_fs *fs, struct fat_node **out);
struct fat_node *fat_find_node(struct fat_fs *fs, u64 pos);
int fat_write_node(struct fat_node *n);
void fat_touch(struct fat_node *n);
int fat_node_release(struct vnode *v);
int fat_getattr(struct vnode *v, struct vfs_stat *st);
int fat_set_atime(struct vnode *v, s64 atime);
u64 fat_ino(const struct fat_fs *fs, const struct fat_dirent *de, u64 pos);

/* file.c */
long fat_read(struct vnode *v, u64 pos, void *buf, size_t len);
long fat_write(struct vnode *v, u64 pos, const void *buf, size_t len);
int fat_truncate(struct vnode *v, u64 size);

/* namei.c */
extern const struct vnode_ops fat_vnode_ops;

#endif
