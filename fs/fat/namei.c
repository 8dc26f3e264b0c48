/*
 * FAT namespace operations (the vnode ops that change directories):
 * lookup, create, mkdir, unlink, rmdir, rename, and the ops table.
 *
 * A new file gets an entry with the archive attribute, no cluster and
 * size 0; a new directory one zeroed cluster holding "." and ".." (whose
 * cluster is 0 when the parent is the root, fatgen103 "FAT Directory
 * Structure").  Unlink frees the entry at once and the clusters when the
 * last reference to the file goes.  Rename frees the old entry and writes
 * the new one (putting the old back if that fails), moves a directory's
 * ".." along, and refuses to move a directory into itself.  FAT has no
 * hard links or symlinks: those ops are absent and the VFS answers -EPERM.
 */
#include "fs/fat/fat.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

#define FAT_MAX_DEPTH	4096	/* ".." steps taken looking for a loop in rename */

static int fat_lookup(struct vnode *v, const char *name, size_t len, struct vnode **out)
{
	struct fat_node *dir = FAT_N(v), *n;
	struct fat_iter *it;
	u32 clus;
	int err;

	if (dir->n_err)
		return dir->n_err;
	if (len == 1 && name[0] == '.') {
		vnode_get(v);
		*out = v;
		return 0;
	}
	if (len == 2 && name[0] == '.' && name[1] == '.') {
		if (dir->n_root) {
			vnode_get(v);
			*out = v;
			return 0;
		}
		err = fat_dir_parent(dir, &clus);
		if (!err)
			err = fat_iget_dir(dir->n_fs, clus, &n);
		if (!err)
			*out = &n->n_vnode;
		return err;
	}
	it = kmalloc(sizeof(*it), GFP_KERNEL);
	if (!it)
		return -ENOMEM;
	err = fat_dir_find(dir, name, len, it);
	if (!err)
		err = fat_iget(dir->n_fs, &it->it_de, it->it_pos, &n);
	if (!err)
		*out = &n->n_vnode;
	kfree(it);
	return err;
}

/* A fresh short entry: @attr, first cluster @clus, times now. */
static void fat_new_entry(struct fat_fs *fs, struct fat_dirent *de, u8 attr, u32 clus)
{
	u16 date, time;
	u8 tenth;

	memset(de, 0, sizeof(*de));
	de->de_attr = attr;
	fat_time_to_dos(fat_now(), &date, &time, &tenth);
	de->de_crtdate = cpu_to_le16(date);
	de->de_crttime = cpu_to_le16(time);
	de->de_crttimetenth = tenth;
	de->de_wrtdate = de->de_crtdate;
	de->de_wrttime = de->de_crttime;
	de->de_lstaccdate = de->de_crtdate;
	de->de_fstcluslo = cpu_to_le16((u16)clus);
	de->de_fstclushi = cpu_to_le16(fs->fs_g.g_type == 32 ? (u16)(clus >> 16) : 0);
}

/* -EEXIST if @dir has @name, 0 if not, or -errno. */
static int fat_check_absent(struct fat_node *dir, const char *name, size_t len)
{
	struct fat_iter *it = kmalloc(sizeof(*it), GFP_KERNEL);
	int err;

	if (!it)
		return -ENOMEM;
	err = fat_dir_find(dir, name, len, it);
	kfree(it);
	return err == 0 ? -EEXIST : err == -ENOENT ? 0 : err;
}

static int fat_create(struct vnode *v, const char *name, size_t len, u32 mode,
		      struct vnode **out)
{
	struct fat_node *dir = FAT_N(v), *n;
	struct fat_dirent de;
	u64 pos;
	int err;

	if (dir->n_err)
		return dir->n_err;
	err = fat_check_absent(dir, name, len);
	if (err)
		return err;
	fat_new_entry(dir->n_fs, &de, FAT_ATTR_ARCHIVE | (mode & 0222 ? 0 : FAT_ATTR_READ_ONLY), 0);
	err = fat_dir_add(dir, name, len, &de, &pos);
	if (err)
		return err;
	err = fat_iget(dir->n_fs, &de, pos, &n);
	if (!err)
		*out = &n->n_vnode;
	return err;
}

static int fat_mkdir(struct vnode *v, const char *name, size_t len, u32 mode)
{
	struct fat_node *dir = FAT_N(v);
	struct fat_fs *fs = dir->n_fs;
	struct fat_dirent de;
	u32 clus;
	u64 pos;
	int err;

	if (dir->n_err)
		return dir->n_err;
	err = fat_check_absent(dir, name, len);
	if (err)
		return err;
	err = fat_alloc(fs, 0, &clus);
	if (err)
		return err;
	fat_new_entry(fs, &de, FAT_ATTR_DIRECTORY, clus);
	err = fat_dir_init(fs, clus, dir->n_root ? 0 : dir->n_start, &de);
	if (!err)
		err = fat_dir_add(dir, name, len, &de, &pos);
	if (err)
		fat_free_chain(fs, clus);	/* its error, if any, already printed */
	else
		fat_touch(dir);
	return err;
}

/*
 * Remove the entry @it of @dir: its slots now, its clusters now or, when
 * the file is in core, at its release.
 */
static int fat_remove(struct fat_node *dir, struct fat_iter *it)
{
	struct fat_fs *fs = dir->n_fs;
	bool isdir = it->it_de.de_attr & FAT_ATTR_DIRECTORY;
	u32 start = fat_de_start(fs, &it->it_de);
	struct fat_node *n;
	int err;

	n = isdir ? NULL : fat_find_node(fs, it->it_pos);
	if (isdir) {
		struct fat_node *d;

		list_for_each_entry(d, &fs->fs_nodes, n_link)
			if (d->n_dir && !d->n_root && d->n_start == start)
				n = d;
	}
	err = fat_dir_remove(dir, it);
	if (err)
		return err;
	fat_touch(dir);
	if (n) {
		n->n_unlinked = true;	/* the clusters go at release */
		return 0;
	}
	return start ? fat_free_chain(fs, start) : 0;
}

static int fat_unlink(struct vnode *v, const char *name, size_t len)
{
	struct fat_node *dir = FAT_N(v);
	struct fat_iter *it = kmalloc(sizeof(*it), GFP_KERNEL);
	int err;

	if (!it)
		return -ENOMEM;
	err = fat_dir_find(dir, name, len, it);
	if (!err && (it->it_de.de_attr & FAT_ATTR_DIRECTORY))
		err = -EISDIR;
	if (!err)
		err = fat_remove(dir, it);
	kfree(it);
	return err;
}

static int fat_rmdir(struct vnode *v, const char *name, size_t len)
{
	struct fat_node *dir = FAT_N(v), *n;
	struct fat_iter *it = kmalloc(sizeof(*it), GFP_KERNEL);
	int err;

	if (!it)
		return -ENOMEM;
	err = fat_dir_find(dir, name, len, it);
	if (!err && !(it->it_de.de_attr & FAT_ATTR_DIRECTORY))
		err = -ENOTDIR;
	if (err)
		goto out;
	err = fat_iget(dir->n_fs, &it->it_de, it->it_pos, &n);
	if (err)
		goto out;
	if (n->n_vnode.v_mountedhere)
		err = -EBUSY;
	else if (n->n_err)
		err = n->n_err;
	else
		err = fat_dir_empty(n);
	vnode_put(&n->n_vnode);
	if (err == 1)
		err = fat_remove(dir, it);
	else if (err == 0)
		err = -ENOTEMPTY;
out:
	kfree(it);
	return err;
}

/* Is the directory with first cluster @clus @ndir or one of its ancestors?  1, 0, -errno. */
static int fat_is_ancestor(struct fat_node *ndir, u32 clus)
{
	struct fat_node *d = ndir, *p;
	u32 parent, i;
	int r = 0;

	vnode_get(&d->n_vnode);
	for (i = 0; i < FAT_MAX_DEPTH && !d->n_root; i++) {
		if (d->n_start == clus) {
			r = 1;
			break;
		}
		r = fat_dir_parent(d, &parent);
		if (!r)
			r = fat_iget_dir(d->n_fs, parent, &p);
		vnode_put(&d->n_vnode);
		if (r)
			return r;
		d = p;
	}
	vnode_put(&d->n_vnode);
	return i == FAT_MAX_DEPTH ? -EUCLEAN : r;
}

/* Point the ".." of the directory at cluster @clus to @parent (0: root). */
static int fat_set_dotdot(struct fat_fs *fs, u32 clus, u32 parent)
{
	struct buffer_head *bh = fat_bread(fs, fat_cluster_sector(&fs->fs_g, clus));
	struct fat_dirent *d;

	if (IS_ERR(bh))
		return PTR_ERR(bh);
	d = (struct fat_dirent *)bh->b_data + 1;
	if (memcmp(d->de_name, "..         ", 11)) {
		brelse(bh);
		fat_error(fs, "directory at cluster %u has no \"..\" entry", clus);
		return -EUCLEAN;
	}
	d->de_fstcluslo = cpu_to_le16((u16)parent);
	d->de_fstclushi = cpu_to_le16(fs->fs_g.g_type == 32 ? (u16)(parent >> 16) : 0);
	mark_buffer_dirty(bh);
	brelse(bh);
	return 0;
}

static int fat_rename(struct vnode *ov, const char *oname, size_t olen,
		      struct vnode *nv, const char *nname, size_t nlen)
{
	struct fat_node *odir = FAT_N(ov), *ndir = FAT_N(nv), *n;
	struct fat_fs *fs = odir->n_fs;
	struct fat_iter *oit = kmalloc(sizeof(*oit), GFP_KERNEL);
	struct fat_iter *nit = kmalloc(sizeof(*nit), GFP_KERNEL);
	struct fat_dirent de;
	bool isdir;
	u32 start;
	u64 pos;
	int err;

	if (!oit || !nit) {
		err = -ENOMEM;
		goto out;
	}
	err = fat_dir_find(odir, oname, olen, oit);
	if (err)
		goto out;
	isdir = oit->it_de.de_attr & FAT_ATTR_DIRECTORY;
	start = fat_de_start(fs, &oit->it_de);
	if (isdir && odir != ndir) {
		err = fat_is_ancestor(ndir, start);
		if (err == 1)
			err = -EINVAL;		/* into itself */
		if (err)
			goto out;
	}
	err = fat_dir_find(ndir, nname, nlen, nit);
	if (!err) {
		bool ndirent = nit->it_de.de_attr & FAT_ATTR_DIRECTORY;

		if (odir == ndir && nit->it_slot == oit->it_slot) {
			if (olen == nlen && !memcmp(oname, nname, olen))
				goto out;	/* the same name: nothing to do */
			/* a change of case only: fall through and rewrite the entry */
		} else if (isdir != ndirent) {
			err = isdir ? -ENOTDIR : -EISDIR;
			goto out;
		} else {
			err = ndirent ? fat_rmdir(nv, nname, nlen) : fat_unlink(nv, nname, nlen);
			if (err)
				goto out;
		}
	} else if (err != -ENOENT) {
		goto out;
	}
	/*
	 * The old entry goes first, so that its short name may be reused (a
	 * change of case); if the new one cannot be written, the old name is
	 * written back into the slots just freed.
	 */
	de = oit->it_de;
	err = fat_dir_remove(odir, oit);
	if (err)
		goto out;
	err = fat_dir_add(ndir, nname, nlen, &de, &pos);
	if (err) {
		de = oit->it_de;
		if (fat_dir_add(odir, oname, olen, &de, &pos))
			fat_error(fs, "rename: lost the entry of the file at cluster %u", start);
		goto out;
	}
	if (!isdir && (n = fat_find_node(fs, oit->it_pos)) != NULL)
		n->n_depos = pos;
	else if (isdir) {
		list_for_each_entry(n, &fs->fs_nodes, n_link)
			if (n->n_dir && !n->n_root && n->n_start == start)
				n->n_depos = pos;
		if (odir != ndir)
			err = fat_set_dotdot(fs, start, ndir->n_root ? 0 : ndir->n_start);
	}
	fat_touch(odir);
	if (ndir != odir)
		fat_touch(ndir);
out:
	kfree(nit);
	kfree(oit);
	return err;
}

const struct vnode_ops fat_vnode_ops = {
	.vop_lookup	= fat_lookup,
	.vop_getattr	= fat_getattr,
	.vop_read	= fat_read,
	.vop_write	= fat_write,
	.vop_truncate	= fat_truncate,
	.vop_readdir	= fat_readdir,
	.vop_create	= fat_create,
	.vop_mkdir	= fat_mkdir,
	.vop_unlink	= fat_unlink,
	.vop_rmdir	= fat_rmdir,
	.vop_rename	= fat_rename,
	.vop_set_atime	= fat_set_atime,
	.vop_release	= fat_node_release,
};
