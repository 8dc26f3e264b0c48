/*
 * Access times, by the rule Linux mounts with by default (relatime): a
 * read of a file or a listing of a directory records the time of access
 * only when the recorded one says nothing useful any more -- it is not
 * newer than the last change to the contents (mtime) or to the inode
 * (ctime), or it is a day old.  Tools that ask "was this read since it
 * was written?" still get the right answer, and a file read over and over
 * costs one inode write a day instead of one per read.  A read-only mount
 * never records an access.
 *
 * The VFS decides here; the filesystem only stores the time it is given
 * (vop_set_atime).  Locking: called under vfs_lock (fs/vfs.h).
 */
#include "fs/vfs.h"
#include "kernel/time.h"

#define VFS_ATIME_REFRESH	(24 * 60 * 60)	/* seconds: an atime this old is renewed */

/**
 * vfs_atime_due - does an access at @now need a new atime in @st?
 *
 * Yes when atime <= mtime, atime <= ctime, or atime is VFS_ATIME_REFRESH
 * or more behind @now; never when atime already equals @now.
 */
bool vfs_atime_due(const struct vfs_stat *st, s64 now)
{
	if (st->st_atime == now)
		return false;
	return st->st_atime <= st->st_mtime || st->st_atime <= st->st_ctime ||
	       now - st->st_atime >= VFS_ATIME_REFRESH;
}

/**
 * vfs_accessed - @v was read or listed: record it if the rule says so
 *
 * Returns 0 (also when nothing was due, the mount is read-only, or the
 * filesystem keeps no atime) or the filesystem's error.
 */
int vfs_accessed(struct vnode *v)
{
	struct vfs_stat st;
	s64 now;
	int err;

	if (!v->v_mnt || (v->v_mnt->mnt_flags & VFS_MNT_RDONLY) || !v->v_ops->vop_set_atime)
		return 0;
	err = v->v_ops->vop_getattr(v, &st);
	if (err)
		return err;
	now = (s64)wallclock_unix();
	return vfs_atime_due(&st, now) ? v->v_ops->vop_set_atime(v, now) : 0;
}
