/*
 * Path walk: from a path string to a vnode, one component at a time.
 *
 * Paths are absolute ("/sda1/etc/passwd"; a relative path is taken from
 * "/").  "." stays, ".." goes up, and a symlink met on the way (or at the
 * end, when following) is spliced in: its target replaces the component
 * and the walk goes on from "/" or from the link's directory.  At most
 * VFS_MAXSYMLINKS links per walk (-ELOOP), VFS_PATH_MAX bytes of path
 * after splicing (-ENAMETOOLONG): the walk is a loop over a buffer, never
 * a recursion, so no disk contents decide its depth.
 *
 * Mounts, as in the BSD namei: the walk never stands on a directory a
 * mount covers, but on the mounted root (walk_cross); ".." at a mount's
 * root is ".." of the directory it covers, or "/" for a mount in "/";
 * ".." at "/" is "/".
 *
 * Locking: the whole walk runs under vfs_lock (fs/vfs_priv.h); its
 * callers are inside the VFS already.
 */
#include "fs/vfs_priv.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

struct nameidata {
	char		*nd_path;	/* the rest of the path, spliced in place */
	char		*nd_tmp;	/* scratch for splicing a symlink */
	struct vnode	*nd_cur;	/* referenced */
	unsigned	nd_links;	/* symlinks followed so far */
};

/* Where the walk stands at @v: the root of a mount covering @v (the reference moves). */
static struct vnode *walk_cross(struct vnode *v)
{
	struct vfs_mount *m = v->v_mountedhere;

	if (!m)
		return v;
	vnode_get(m->mnt_root);
	vnode_put(v);		/* never the last reference: the mount holds one */
	return m->mnt_root;
}

/* Step from @nd->nd_cur to its parent. */
static int walk_dotdot(struct nameidata *nd)
{
	struct vnode *dir = nd->nd_cur, *up;
	int err;

	if (!dir->v_mnt)
		return 0;			/* "/" is its own parent */
	if (dir == dir->v_mnt->mnt_root) {
		dir = dir->v_mnt->mnt_covered;	/* never a mount's root: no stacking */
		if (!dir) {
			up = &vfs_rootv;
			vnode_get(up);
			goto step;
		}
	}
	err = dir->v_ops->vop_lookup(dir, "..", 2, &up);
	if (err)
		return err;
step:
	vnode_put(nd->nd_cur);
	nd->nd_cur = walk_cross(up);
	return 0;
}

/*
 * Replace the symlink component with the link's target: the new path is
 * target + "/" + @rest (just target when @rest is empty).  The walk restarts at "/" for an absolute target.
 */
static int walk_splice(struct nameidata *nd, struct vnode *link, const char *rest)
{
	size_t rlen = strlen(rest);
	int n;

	if (++nd->nd_links > VFS_MAXSYMLINKS)
		return -ELOOP;
	if (!link->v_ops->vop_readlink)
		return -EINVAL;
	n = link->v_ops->vop_readlink(link, nd->nd_tmp, VFS_PATH_MAX);
	if (n < 0)
		return n;
	if (n == 0)
		return -ENOENT;
	if ((size_t)n + 1 + rlen + 1 > VFS_PATH_MAX)
		return -ENAMETOOLONG;
	if (rlen) {
		nd->nd_tmp[n++] = '/';
		memcpy(nd->nd_tmp + n, rest, rlen);
	}
	nd->nd_tmp[n + rlen] = '\0';
	memcpy(nd->nd_path, nd->nd_tmp, (size_t)n + rlen + 1);
	if (nd->nd_path[0] == '/') {
		vnode_put(nd->nd_cur);
		nd->nd_cur = &vfs_rootv;
		vnode_get(nd->nd_cur);
	}
	return 0;
}

enum walk_mode {
	WALK_NORMAL,	/* end on the last component */
	WALK_PARENT,	/* stop before it, copy it to @last */
	WALK_CREATE,	/* end on it if it exists, else as WALK_PARENT */
};

/*
 * Walk @path.  WALK_NORMAL ends on the last component, following a final
 * symlink if @follow; WALK_PARENT stops at its directory and copies the
 * name to @last; WALK_CREATE does the first if the last component exists
 * (*found = true) and the second if not, so that a create through a
 * dangling symlink makes the link's target, as open(O_CREAT) does on Unix.
 * The result is nd->nd_cur (referenced).
 */
static int walk(struct nameidata *nd, const char *path, bool follow, enum walk_mode mode,
		char *last, bool *found)
{
	bool parent = mode == WALK_PARENT;
	char *p, *end;
	struct vnode *next;
	size_t len;
	int err;

	if (strlen(path) >= VFS_PATH_MAX)
		return -ENAMETOOLONG;
	if (path[0] == '\0')
		return -ENOENT;
	memcpy(nd->nd_path, path, strlen(path) + 1);
	nd->nd_cur = &vfs_rootv;
	vnode_get(nd->nd_cur);
	p = nd->nd_path;
	for (;;) {
		bool is_last, is_dir_wanted;

		while (*p == '/')
			p++;
		if (*p == '\0') {
			if (parent)
				return -EBUSY;	/* "/" or "/sda1/" has no last name */
			return 0;
		}
		for (end = p; *end && *end != '/'; end++)
			;
		len = (size_t)(end - p);
		if (len > VFS_NAME_MAX)
			return -ENAMETOOLONG;
		is_dir_wanted = *end == '/';
		while (*end == '/')
			end++;
		is_last = *end == '\0';
		if (!VFS_S_ISDIR(nd->nd_cur->v_mode))
			return -ENOTDIR;
		if (parent && is_last) {
			if ((len == 1 && p[0] == '.') || (len == 2 && p[0] == '.' && p[1] == '.'))
				return -EINVAL;
			memcpy(last, p, len);
			last[len] = '\0';
			return 0;
		}
		if (len == 1 && p[0] == '.') {
			p = end;
			continue;
		}
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			err = walk_dotdot(nd);
			if (err)
				return err;
			p = end;
			continue;
		}
		err = nd->nd_cur->v_ops->vop_lookup(nd->nd_cur, p, len, &next);
		if (err == -ENOENT && mode == WALK_CREATE && is_last && !is_dir_wanted) {
			memcpy(last, p, len);
			last[len] = '\0';
			*found = false;
			return 0;
		}
		if (err)
			return err;
		if (VFS_S_ISLNK(next->v_mode) && (!is_last || follow || is_dir_wanted)) {
			/* @end points into nd_path, which the splice rewrites: copy first. */
			size_t rlen = strlen(end);

			memmove(nd->nd_path, end, rlen + 1);
			err = walk_splice(nd, next, nd->nd_path);
			vnode_put(next);
			if (err)
				return err;
			p = nd->nd_path;
			continue;
		}
		vnode_put(nd->nd_cur);
		nd->nd_cur = walk_cross(next);
		if (is_last && is_dir_wanted && !VFS_S_ISDIR(nd->nd_cur->v_mode))
			return -ENOTDIR;
		p = end;
	}
}

static int nd_init(struct nameidata *nd)
{
	nd->nd_path = kmalloc(2 * VFS_PATH_MAX, GFP_KERNEL);
	if (!nd->nd_path)
		return -ENOMEM;
	nd->nd_tmp = nd->nd_path + VFS_PATH_MAX;
	nd->nd_cur = NULL;
	nd->nd_links = 0;
	return 0;
}

/**
 * __vfs_lookup - the vnode @path names, referenced
 * @follow: follow a symlink in the last component
 * Returns 0, -ENOENT, -ENOTDIR, -ELOOP, -ENAMETOOLONG, or the
 * filesystem's error.  Release with vnode_put().
 */
int __vfs_lookup(const char *path, bool follow, struct vnode **out)
{
	struct nameidata nd;
	int err;

	err = nd_init(&nd);
	if (err)
		return err;
	err = walk(&nd, path, follow, WALK_NORMAL, NULL, NULL);
	if (err)
		vnode_put(nd.nd_cur);
	else
		*out = nd.nd_cur;
	kfree(nd.nd_path);
	return err;
}

int __vfs_lookup_parent(const char *path, struct vnode **dir, char *name)
{
	struct nameidata nd;
	int err;

	err = nd_init(&nd);
	if (err)
		return err;
	err = walk(&nd, path, false, WALK_PARENT, name, NULL);
	if (err)
		vnode_put(nd.nd_cur);
	else
		*dir = nd.nd_cur;
	kfree(nd.nd_path);
	return err;
}

/**
 * __vfs_lookup_create - resolve @path for a create
 * Returns 0 with *found true and the file in *out (following a final
 * symlink if @follow), or with *found false, the directory the file is to
 * be made in as *out and its name in @name (VFS_NAME_MAX + 1 bytes).
 * *out is referenced either way.
 */
int __vfs_lookup_create(const char *path, bool follow, struct vnode **out, char *name, bool *found)
{
	struct nameidata nd;
	int err;

	err = nd_init(&nd);
	if (err)
		return err;
	*found = true;
	err = walk(&nd, path, follow, WALK_CREATE, name, found);
	if (err)
		vnode_put(nd.nd_cur);
	else
		*out = nd.nd_cur;
	kfree(nd.nd_path);
	return err;
}
