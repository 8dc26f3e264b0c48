/*
 * In-core FAT nodes: made from a directory entry (fat_iget), from a
 * directory's first cluster (fat_iget_dir, for ".."), or for the root;
 * found again while in core, so that one file is one vnode; written back
 * to their short entry (first cluster, size, times); and released, which
 * frees the clusters of an unlinked file.  Also stat's view of a FAT file:
 * no owners and no permissions on disk, so 0755 directories and 0644
 * files (0444 with the read-only attribute), owned by root.
 */
#include "fs/fat/fat.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

#define FAT_INO_FILE_BASE	(1ULL << 32)	/* file numbers above every cluster number */

/* A stable number for stat: the first cluster of a directory, the entry's place for a file. */
u64 fat_ino(const struct fat_fs *fs, const struct fat_dirent *de, u64 pos)
{
	if (de->de_attr & FAT_ATTR_DIRECTORY)
		return fat_de_start(fs, de);
	return FAT_INO_FILE_BASE + pos / FAT_DIRENT_SIZE;
}

static struct fat_node *fat_node_alloc(struct fat_fs *fs, bool dir, u64 ino)
{
	struct fat_node *n = kzalloc(sizeof(*n), GFP_KERNEL);

	if (!n)
		return NULL;
	n->n_fs = fs;
	n->n_dir = dir;
	n->n_vnode.v_ops = &fat_vnode_ops;
	n->n_vnode.v_mnt = fs->fs_mnt;
	n->n_vnode.v_ino = ino;
	n->n_vnode.v_count = 1;
	n->n_vnode.v_mode = dir ? VFS_S_IFDIR | 0755 : VFS_S_IFREG | 0644;
	list_add(&n->n_link, &fs->fs_nodes);
	fs->fs_nnodes++;
	return n;
}

struct fat_node *fat_find_node(struct fat_fs *fs, u64 pos)
{
	struct fat_node *n;

	list_for_each_entry(n, &fs->fs_nodes, n_link)
		if (!n->n_dir && !n->n_unlinked && n->n_depos == pos)
			return n;
	return NULL;
}

static struct fat_node *fat_find_dir(struct fat_fs *fs, u32 clus)
{
	struct fat_node *n;

	list_for_each_entry(n, &fs->fs_nodes, n_link)
		if (n->n_dir && !n->n_unlinked && n->n_start == clus)
			return n;
	return NULL;
}

int fat_iget_root(struct fat_fs *fs, struct fat_node **out)
{
	const struct fat_geom *g = &fs->fs_g;
	u32 clus = g->g_type == 32 ? g->g_root_clus : 0;
	struct fat_node *n = fat_find_dir(fs, clus);

	if (n && n->n_root) {
		vnode_get(&n->n_vnode);
		*out = n;
		return 0;
	}
	n = fat_node_alloc(fs, true, g->g_type == 32 ? clus : 1);
	if (!n)
		return -ENOMEM;
	n->n_root = true;
	n->n_start = clus;
	fat_check_chain(n);
	*out = n;
	return n->n_err;
}

/* The directory whose first cluster is @clus (0 or the FAT32 root cluster: the root). */
int fat_iget_dir(struct fat_fs *fs, u32 clus, struct fat_node **out)
{
	struct fat_node *n;

	if (clus == 0 || (fs->fs_g.g_type == 32 && clus == fs->fs_g.g_root_clus))
		return fat_iget_root(fs, out);
	if (!fat_valid_cluster(&fs->fs_g, clus)) {
		fat_error(fs, "directory cluster %u outside the volume", clus);
		return -EUCLEAN;
	}
	n = fat_find_dir(fs, clus);
	if (n) {
		vnode_get(&n->n_vnode);
		*out = n;
		return 0;
	}
	n = fat_node_alloc(fs, true, clus);
	if (!n)
		return -ENOMEM;
	n->n_start = clus;
	fat_check_chain(n);	/* a bad chain fails the directory's I/O, not the lookup */
	*out = n;
	return 0;
}

/* The node of the entry @de at @pos (referenced), made if not in core. */
int fat_iget(struct fat_fs *fs, const struct fat_dirent *de, u64 pos, struct fat_node **out)
{
	struct fat_node *n;
	int err;

	if (de->de_attr & FAT_ATTR_DIRECTORY) {
		u32 clus = fat_de_start(fs, de);

		if (clus == 0 || (fs->fs_g.g_type == 32 && clus == fs->fs_g.g_root_clus)) {
			fat_error(fs, "directory entry points at the root");
			return -EUCLEAN;
		}
		err = fat_iget_dir(fs, clus, out);
		if (!err && !(*out)->n_depos) {
			(*out)->n_depos = pos;
			(*out)->n_mdate = le16_to_cpu(de->de_wrtdate);
			(*out)->n_mtime = le16_to_cpu(de->de_wrttime);
			(*out)->n_cdate = le16_to_cpu(de->de_crtdate);
			(*out)->n_ctime = le16_to_cpu(de->de_crttime);
			(*out)->n_adate = le16_to_cpu(de->de_lstaccdate);
			(*out)->n_attr = de->de_attr;
		}
		return err;
	}
	n = fat_find_node(fs, pos);
	if (n) {
		vnode_get(&n->n_vnode);
		*out = n;
		return 0;
	}
	n = fat_node_alloc(fs, false, fat_ino(fs, de, pos));
	if (!n)
		return -ENOMEM;
	n->n_depos = pos;
	n->n_start = fat_de_start(fs, de);
	n->n_size = le32_to_cpu(de->de_filesize);
	n->n_attr = de->de_attr;
	n->n_mdate = le16_to_cpu(de->de_wrtdate);
	n->n_mtime = le16_to_cpu(de->de_wrttime);
	n->n_cdate = le16_to_cpu(de->de_crtdate);
	n->n_ctime = le16_to_cpu(de->de_crttime);
	n->n_adate = le16_to_cpu(de->de_lstaccdate);
	if (n->n_attr & FAT_ATTR_READ_ONLY)
		n->n_vnode.v_mode = VFS_S_IFREG | 0444;
	fat_check_chain(n);	/* a bad chain fails the file's I/O, not the lookup */
	*out = n;
	return 0;
}

/* Copy @n's first cluster, size and times into its short entry (dirty buffer). */
int fat_write_node(struct fat_node *n)
{
	struct fat_fs *fs = n->n_fs;
	struct buffer_head *bh;
	struct fat_dirent *de;

	if (!n->n_dirty || n->n_root || n->n_unlinked || !n->n_depos || fs->fs_rdonly)
		return 0;
	bh = fat_bread(fs, (u32)(n->n_depos >> fs->fs_g.g_bps_shift));
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	de = (struct fat_dirent *)(bh->b_data + (n->n_depos & (fs->fs_g.g_bps - 1)));
	if (!n->n_dir) {
		de->de_fstcluslo = cpu_to_le16((u16)n->n_start);
		de->de_fstclushi = cpu_to_le16(fs->fs_g.g_type == 32 ? (u16)(n->n_start >> 16) : 0);
		de->de_filesize = cpu_to_le32(n->n_size);
	}
	de->de_wrtdate = cpu_to_le16(n->n_mdate);
	de->de_wrttime = cpu_to_le16(n->n_mtime);
	de->de_lstaccdate = cpu_to_le16(n->n_adate);
	if (!n->n_dir)
		de->de_attr |= FAT_ATTR_ARCHIVE;	/* changed since the last backup */
	mark_buffer_dirty(bh);
	brelse(bh);
	n->n_dirty = false;
	return 0;
}

/* The file changed now: modification and access dates. */
void fat_touch(struct fat_node *n)
{
	fat_time_to_dos(fat_now(), &n->n_mdate, &n->n_mtime, NULL);
	n->n_adate = n->n_mdate;
	n->n_dirty = true;
}

int fat_set_atime(struct vnode *v, s64 atime)
{
	struct fat_node *n = FAT_N(v);
	u16 date, time;

	fat_time_to_dos(atime, &date, &time, NULL);
	if (date != n->n_adate) {
		n->n_adate = date;
		n->n_dirty = true;
	}
	return 0;
}

int fat_node_release(struct vnode *v)
{
	struct fat_node *n = FAT_N(v);
	struct fat_fs *fs = n->n_fs;
	int err = 0;

	if (n->n_unlinked && n->n_start && !fs->fs_rdonly && !n->n_err)
		err = fat_free_chain(fs, n->n_start);
	else if (!n->n_unlinked)
		err = fat_write_node(n);
	list_del(&n->n_link);
	fs->fs_nnodes--;
	kfree(n);
	return err;
}

int fat_getattr(struct vnode *v, struct vfs_stat *st)
{
	struct fat_node *n = FAT_N(v);
	const struct fat_geom *g = &n->n_fs->fs_g;

	memset(st, 0, sizeof(*st));
	st->st_ino = v->v_ino;
	st->st_mode = v->v_mode;
	st->st_nlink = n->n_dir ? 2 : 1;
	st->st_size = n->n_dir ? (u64)n->n_nclus * g->g_csize : n->n_size;
	if (n->n_root && g->g_type != 32)
		st->st_size = (u64)g->g_root_ents * FAT_DIRENT_SIZE;
	st->st_blocks = (u64)n->n_nclus * (g->g_csize / 512);
	st->st_blksize = g->g_csize;
	st->st_mtime = fat_time_from_dos(n->n_mdate, n->n_mtime);
	st->st_ctime = n->n_cdate ? fat_time_from_dos(n->n_cdate, n->n_ctime) : st->st_mtime;
	st->st_atime = n->n_adate ? fat_time_from_dos(n->n_adate, 0) : st->st_mtime;
	return 0;
}
