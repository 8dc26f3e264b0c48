/*
 * The VFS contract: a mount table of filesystems, each plugged in through
 * a const ops table, and path-based file operations on top.
 *
 * Names: paths are absolute; "." and ".." work, and symlinks are followed
 * up to VFS_MAXSYMLINKS times per walk.  "/" is a directory of its own
 * that holds only mounts, each under one name (/sda1, /hdb5: the boot
 * time automount puts every filesystem there).  A filesystem can also be
 * mounted on any directory of a mounted one, nested as deep as paths go:
 * the mount covers that directory (BSD's v_mountedhere), a walk that
 * reaches it goes on in the mounted root, and ".." at a mount's root leads
 * to the covered directory's parent (or to "/").  A directory takes one
 * mount at most, and a mount's root none: no stacking.
 *
 * Objects: a vnode is one file of one mounted filesystem, reference
 * counted; the filesystem allocates it inside its own in-core inode and
 * frees it in vop_release when the last reference goes.  An open file
 * (struct vfs_file) holds a vnode reference, flags and a position.  A
 * covered directory stays in core while covered: its mount holds a
 * reference, so every lookup of it returns the same vnode.
 *
 * Access times: reading a file or listing a directory on a writable
 * mount updates its atime by Linux's relatime rule (fs/atime.c).
 *
 * Errors: 0 or a count on success, a negative errno on failure.  Every
 * modifying call on a read-only mount fails with -EROFS before the
 * filesystem sees it.
 *
 * Locking: every call declared here may come from any CPU at once (never
 * from interrupt context).  Each takes the VFS's sleeping lock, vfs_lock
 * (fs/vfs_priv.h, fs/vfs_entry.c), around its work, so the VFS and the
 * filesystems below it are still entered by one CPU at a time, while the
 * buffer cache and the block layer under them run on every CPU; a CPU
 * that waits for the lock runs its deferred work.  Mount, umount and
 * vfs_for_each_mount also take vfs_mount_lock, before vfs_lock.  A
 * vfs_file may be shared between CPUs (its position is under vfs_lock);
 * a struct vfs_mount stays valid until it is unmounted.  A CPU that holds
 * vfs_lock and enters again -- deferred work run while it waited for I/O
 * inside a filesystem -- panics rather than waits for itself.  Fields are
 * tagged [I] immutable, [v] vfs_lock, [m] both locks to change, either to
 * read; vnode_get/vnode_put and the vnode_ops are called with vfs_lock
 * held.
 */
#ifndef FS_VFS_H
#define FS_VFS_H

#include "kernel/compiler.h"
#include "lib/list.h"

struct block_device;
struct vfs_mount;
struct vnode;

#define VFS_NAME_MAX		255	/* bytes in one path component */
#define VFS_PATH_MAX		1024	/* bytes in a path, terminator included */
#define VFS_MAXSYMLINKS		8	/* symlinks followed in one walk */
#define VFS_MNTNAME_MAX		32	/* bytes in the name of a mount in "/" */

/* Mode bits: POSIX values, so ext2's i_mode maps one to one. */
#define VFS_S_IFMT	0170000
#define VFS_S_IFSOCK	0140000
#define VFS_S_IFLNK	0120000
#define VFS_S_IFREG	0100000
#define VFS_S_IFBLK	0060000
#define VFS_S_IFDIR	0040000
#define VFS_S_IFCHR	0020000
#define VFS_S_IFIFO	0010000
#define VFS_S_ISDIR(m)	(((m) & VFS_S_IFMT) == VFS_S_IFDIR)
#define VFS_S_ISREG(m)	(((m) & VFS_S_IFMT) == VFS_S_IFREG)
#define VFS_S_ISLNK(m)	(((m) & VFS_S_IFMT) == VFS_S_IFLNK)

/* Directory entry types (Linux DT_ values). */
#define VFS_DT_UNKNOWN	0
#define VFS_DT_FIFO	1
#define VFS_DT_CHR	2
#define VFS_DT_DIR	4
#define VFS_DT_BLK	6
#define VFS_DT_REG	8
#define VFS_DT_LNK	10
#define VFS_DT_SOCK	12

/* Open flags (Linux values). */
#define VFS_O_RDONLY	0x0000
#define VFS_O_WRONLY	0x0001
#define VFS_O_RDWR	0x0002
#define VFS_O_ACCMODE	0x0003
#define VFS_O_CREAT	0x0040
#define VFS_O_EXCL	0x0080
#define VFS_O_TRUNC	0x0200
#define VFS_O_APPEND	0x0400
#define VFS_O_DIRECTORY	0x10000
#define VFS_O_NOFOLLOW	0x20000
#define VFS_O_SYNC	0x101000	/* each write is durable when it returns (fsync) */

/* Seek origins */
#define VFS_SEEK_SET	0
#define VFS_SEEK_CUR	1
#define VFS_SEEK_END	2

/* Mount flags */
#define VFS_MNT_RDONLY	0x0001
/* commit=SECONDS for a journaling filesystem, in the top half; 0: its default */
#define VFS_MNT_COMMIT_SHIFT	16
#define VFS_MNT_COMMIT_MAX	0xFFFFu
#define VFS_MNT_COMMIT(s)	((unsigned)(s) << VFS_MNT_COMMIT_SHIFT)

struct vfs_stat {
	u64	st_ino;
	u32	st_mode;
	u32	st_nlink;
	u32	st_uid, st_gid;
	u64	st_size;
	u64	st_blocks;		/* 512-byte units allocated */
	u32	st_blksize;
	s64	st_atime, st_mtime, st_ctime;	/* seconds since 1970 */
	u32	st_atime_ns, st_mtime_ns, st_ctime_ns;	/* and nanoseconds, 0 if unknown */
};

struct vfs_statfs {
	const char *f_type;		/* "ext2" */
	u32	f_bsize;
	u64	f_blocks, f_bfree, f_bavail;
	u64	f_files, f_ffree;
	u8	f_uuid[16];
	char	f_label[17];
	bool	f_rdonly;
	bool	f_errors;		/* the filesystem has seen corruption */
};

struct vfs_dirent {
	u64	d_ino;
	u8	d_type;			/* VFS_DT_* */
	u16	d_namlen;
	char	d_name[VFS_NAME_MAX + 1];
};

struct vnode {
	const struct vnode_ops	*v_ops;		/* [I] */
	struct vfs_mount	*v_mnt;		/* [I] NULL for "/" */
	u64			v_ino;		/* [I] */
	u32			v_mode;		/* [v] type and permission bits */
	u32			v_count;	/* [v] references */
	struct vfs_mount	*v_mountedhere;	/* [v] the mount covering this directory */
};

/*
 * Per-file operations.  Names are (pointer, length), not terminated, and
 * never ".", ".." (except in lookup) or longer than VFS_NAME_MAX.  Calls
 * that return a vnode return it referenced.
 */
struct vnode_ops {
	int	(*vop_lookup)(struct vnode *dir, const char *name, size_t len,
			      struct vnode **out);
	int	(*vop_getattr)(struct vnode *v, struct vfs_stat *st);
	/* Bytes read (0 at end of file) or -errno. */
	long	(*vop_read)(struct vnode *v, u64 pos, void *buf, size_t len);
	/* Bytes written or -errno; a short count means the disk filled up. */
	long	(*vop_write)(struct vnode *v, u64 pos, const void *buf, size_t len);
	int	(*vop_truncate)(struct vnode *v, u64 size);
	/* 1 and an entry, 0 at the end, or -errno; *pos is opaque. */
	int	(*vop_readdir)(struct vnode *dir, u64 *pos, struct vfs_dirent *de);
	/* The target's length, copied without terminator into buf (truncated). */
	int	(*vop_readlink)(struct vnode *v, char *buf, size_t size);
	int	(*vop_create)(struct vnode *dir, const char *name, size_t len, u32 mode,
			      struct vnode **out);
	int	(*vop_mkdir)(struct vnode *dir, const char *name, size_t len, u32 mode);
	int	(*vop_symlink)(struct vnode *dir, const char *name, size_t len,
			       const char *target);
	int	(*vop_link)(struct vnode *v, struct vnode *dir, const char *name, size_t len);
	int	(*vop_unlink)(struct vnode *dir, const char *name, size_t len);
	int	(*vop_rmdir)(struct vnode *dir, const char *name, size_t len);
	int	(*vop_rename)(struct vnode *odir, const char *oname, size_t olen,
			      struct vnode *ndir, const char *nname, size_t nlen);
	/* Record an access at @atime (seconds since 1970); the VFS decided it is due. */
	int	(*vop_set_atime)(struct vnode *v, s64 atime);
	/* The last reference went: write back, free if unlinked. */
	int	(*vop_release)(struct vnode *v);
};

/* A filesystem type. */
struct vfs_fstype {
	const char	*ft_name;
	/* 1: this device holds one of mine, 0: not mine, -errno: I/O failed. */
	int	(*ft_probe)(struct block_device *bdev);
	/* Fill mnt_root (referenced) and mnt_priv; may add VFS_MNT_RDONLY to mnt_flags. */
	int	(*ft_mount)(struct vfs_mount *mnt, struct block_device *bdev);
	/* -EBUSY while files are in use; otherwise write back and free. */
	int	(*ft_umount)(struct vfs_mount *mnt);
	int	(*ft_sync)(struct vfs_mount *mnt);
	/* Optional: timed work, called between commands (ext3's commit interval). */
	void	(*ft_idle)(struct vfs_mount *mnt);
	int	(*ft_statfs)(struct vfs_mount *mnt, struct vfs_statfs *st);
};

struct vfs_mount {
	struct list_head		mnt_link;	/* [m] on the mount table, in mount order */
	/* [I] the directory this mount covers (referenced), NULL for one in "/" */
	struct vnode			*mnt_covered;
	char				mnt_name[VFS_MNTNAME_MAX];	/* [I] its name in "/" */
	const struct vfs_fstype		*mnt_type;	/* [I] */
	struct block_device		*mnt_bdev;	/* [I] */
	unsigned			mnt_flags;	/* [I] after mount: VFS_MNT_* */
	struct vnode			*mnt_root;	/* [I] after mount */
	void				*mnt_priv;	/* [I] the filesystem's */
};

struct vfs_file {
	struct vnode	*f_vnode;	/* [v] referenced */
	unsigned	f_flags;	/* [I] VFS_O_* */
	u64		f_pos;		/* [v] */
};

/* fs/vfs.c: the mount table, and "/" itself (the directory of mounts) */
extern struct vnode vfs_rootv;
int vfs_register_fstype(const struct vfs_fstype *ft);
/*
 * Mount @bdev on the directory @dir, or under "/" when @dir names a new
 * entry there ("/sda1" or "sda1"); @fstype NULL probes every type.
 */
int vfs_mount(struct block_device *bdev, const char *dir, const char *fstype, unsigned flags);
/* The mount whose root @path names: 0, -EINVAL if no mount's root, or the walk's error. */
int vfs_find_mount(const char *path, struct vfs_mount **out);
/* The mount @path lies on (NULL for "/" itself): 0 or the walk's error. */
int vfs_path_mount(const char *path, struct vfs_mount **out);
int vfs_umount(struct vfs_mount *mnt);
/* Does another mount sit on one of @mnt's directories?  Caller holds a VFS lock. */
bool vfs_mounted_on(const struct vfs_mount *mnt);
/* The full path of the directory @mnt is mounted on, into @buf (@size bytes). */
int vfs_mount_path(const struct vfs_mount *mnt, char *buf, size_t size);
/*
 * Call fn for each mount in mount order; stops at and returns fn's first
 * nonzero.  fn runs with vfs_mount_lock held: it may call the rest of this
 * header, but not mount, unmount or walk the mounts again.
 */
int vfs_for_each_mount(int (*fn)(struct vfs_mount *mnt, void *arg), void *arg);
int vfs_statfs(const char *path, struct vfs_statfs *st);
int vfs_sync(void);
/* Run every mount's ft_idle; the shell calls it while it waits for a key. */
void vfs_idle(void);
/* References, for filesystems and the VFS: the caller holds vfs_lock. */
void vnode_get(struct vnode *v);
int vnode_put(struct vnode *v);

/* fs/atime.c: access times by Linux's relatime rule */
bool vfs_atime_due(const struct vfs_stat *st, s64 now);
/* @v was read or listed: its atime by the rule.  The caller holds vfs_lock. */
int vfs_accessed(struct vnode *v);

/* fs/vfsops.c: operations by path and on open files (fs/vfs_entry.c takes the lock) */
int vfs_open(const char *path, unsigned flags, u32 mode, struct vfs_file **out);
int vfs_close(struct vfs_file *f);
long vfs_read(struct vfs_file *f, void *buf, size_t len);
long vfs_write(struct vfs_file *f, const void *buf, size_t len);
long vfs_pread(struct vfs_file *f, void *buf, size_t len, u64 pos);
long vfs_pwrite(struct vfs_file *f, const void *buf, size_t len, u64 pos);
int vfs_seek(struct vfs_file *f, s64 off, int whence, u64 *newpos);
int vfs_ftruncate(struct vfs_file *f, u64 size);
int vfs_readdir(struct vfs_file *f, struct vfs_dirent *de);
int vfs_fstat(struct vfs_file *f, struct vfs_stat *st);
int vfs_stat(const char *path, struct vfs_stat *st);
int vfs_lstat(const char *path, struct vfs_stat *st);
int vfs_truncate(const char *path, u64 size);
/*
 * fsync(2) of a file or directory by path.  The filesystems have no finer
 * tool than their ft_sync, so this is a sync of the file's filesystem (for
 * ext3 a journal commit and a cache flush).
 */
int vfs_fsync(const char *path);
int vfs_fsync_file(struct vfs_file *f);
int vfs_mkdir(const char *path, u32 mode);
int vfs_rmdir(const char *path);
int vfs_unlink(const char *path);
int vfs_rename(const char *from, const char *to);
int vfs_link(const char *target, const char *path);
int vfs_symlink(const char *target, const char *path);
int vfs_readlink(const char *path, char *buf, size_t size);

/* fs/ext2/super.c */
extern const struct vfs_fstype ext2_fstype;
extern const struct vfs_fstype ext3_fstype;	/* the same driver, for has_journal */
extern const struct vfs_fstype ext4_fstype;	/* the same driver, for ext4 features */
/* 1 and the filesystem's UUID and label (terminated) if @bdev holds ext2, 0 if not, -errno. */
int ext2_read_id(struct block_device *bdev, u8 uuid[16], char label[17]);

/* fs/fat/super.c */
extern const struct vfs_fstype fat_fstype;
/*
 * 1 and the volume ID as "XXXX-XXXX" (@uuid, 10 bytes), the label (@label,
 * 12 bytes) and the FAT type (12, 16, 32) if @bdev holds FAT, 0 if not, -errno.
 */
int fat_read_id(struct block_device *bdev, char *uuid, char *label, u32 *type);

#endif
