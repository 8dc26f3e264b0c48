/*
 * libFuzzer target: the host build of the VFS and ext2 over an in-memory
 * image (the fuzzer's input, copied so that writes land in memory).
 *
 * For each input: mount read-write, walk the tree (bounded), read every
 * file found, read symlinks, then change things (create, write, mkdir,
 * rename, truncate, unlink, rmdir) and unmount.  Any crash, sanitizer
 * report, hang (libFuzzer's -timeout), buffer reference or allocation left
 * behind is a bug: the last two abort here, and so does a write outside
 * the filesystem: to the first 1024 bytes (the boot block) or past the
 * last block the superblock claims.  The same target runs the ext4 seed
 * corpus (tests/host/ext4_fuzz.sh): one driver mounts both.
 *
 *	clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -DHOST_TEST \
 *		tests/fuzz/fuzz_ext2.c fs/vfs.c fs/vfs_entry.c fs/namei.c fs/vfsops.c fs/atime.c fs/ext2/*.c \
 *		fs/jbd2/{format,blockmap,recovery,journal,transaction,commit}.c \
 *		tests/unit/fakes/jbd2_io_fake.c \
 *		lib/strutil.c lib/errstr.c lib/sort.c lib/crc32c.c tests/unit/fakes/{buffer_file,slab_fake,wallclock_fake}.c \
 *		tests/unit/host/kernel_shim.c -o fuzz_ext2
 *	./fuzz_ext2 CORPUS_DIR	(seed corpus: tests/host/ext2_fuzz.sh makes one)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fs/vfs.h"
#include "kernel/errno.h"
#include "tests/unit/fakes/fakes.h"
#include "tests/unit/fakes/buffer_file.h"

#define FUZZ_MAX_DIRS		64	/* directories visited per input */
#define FUZZ_MAX_ENTRIES	256	/* entries read per directory */
#define FUZZ_MAX_READ		(256 * 1024)	/* bytes read per file */

static char fuzz_buf[64 * 1024];

static void read_file(const char *path)
{
	struct vfs_file *f;
	size_t total = 0;
	long n;

	if (vfs_open(path, VFS_O_RDONLY, 0, &f))
		return;
	while (total < FUZZ_MAX_READ && (n = vfs_read(f, fuzz_buf, sizeof(fuzz_buf))) > 0)
		total += (size_t)n;
	vfs_close(f);
}

static void walk_tree(void)
{
	static char dirs[FUZZ_MAX_DIRS][VFS_PATH_MAX];
	char path[VFS_PATH_MAX];
	struct vfs_dirent de;
	struct vfs_stat st;
	struct vfs_file *f;
	int ndirs = 1, i, k;

	strcpy(dirs[0], "/f");
	for (i = 0; i < ndirs; i++) {
		if (vfs_open(dirs[i], VFS_O_RDONLY | VFS_O_DIRECTORY, 0, &f))
			continue;
		for (k = 0; k < FUZZ_MAX_ENTRIES && vfs_readdir(f, &de) == 1; k++) {
			if (!strcmp(de.d_name, ".") || !strcmp(de.d_name, ".."))
				continue;
			if (snprintf(path, sizeof(path), "%s/%s", dirs[i], de.d_name) >= (int)sizeof(path))
				continue;
			if (vfs_lstat(path, &st))
				continue;
			if (VFS_S_ISDIR(st.st_mode) && ndirs < FUZZ_MAX_DIRS)
				strcpy(dirs[ndirs++], path);
			else if (VFS_S_ISREG(st.st_mode))
				read_file(path);
			else if (VFS_S_ISLNK(st.st_mode)) {
				vfs_readlink(path, fuzz_buf, sizeof(fuzz_buf));
				read_file(path);
			}
		}
		vfs_close(f);
	}
}

static void change_things(void)
{
	struct vfs_file *f;

	memset(fuzz_buf, 'z', sizeof(fuzz_buf));
	if (!vfs_open("/f/fz", VFS_O_WRONLY | VFS_O_CREAT, 0644, &f)) {
		vfs_pwrite(f, fuzz_buf, 5000, 0);
		vfs_pwrite(f, fuzz_buf, 100, 300000);
		vfs_close(f);
	}
	vfs_mkdir("/f/fzd", 0755);
	vfs_rename("/f/fz", "/f/fzd/moved");
	vfs_symlink("../lost+found/x/y", "/f/fzd/sl");
	vfs_link("/f/fzd/moved", "/f/hl");
	vfs_truncate("/f/hl", 10);
	vfs_unlink("/f/fzd/moved");
	vfs_unlink("/f/fzd/sl");
	vfs_rmdir("/f/fzd");
	vfs_rename("/f/lost+found", "/f/lf2");
	vfs_unlink("/f/hl");
	vfs_sync();
}

/*
 * Abort if the filesystem wrote outside itself: the boot block (bytes
 * 0-1023) or anything past s_blocks_count blocks (the low 32 bits; a
 * wider count is refused at mount, so nothing is written then).
 */
static void check_outside(const u8 *orig, const u8 *img, size_t size)
{
	u32 blocks = (u32)orig[1028] | (u32)orig[1029] << 8 | (u32)orig[1030] << 16 |
		     (u32)orig[1031] << 24;
	u32 log = (u32)orig[1048] | (u32)orig[1049] << 8 | (u32)orig[1050] << 16 |
		  (u32)orig[1051] << 24;
	u64 end;

	if (memcmp(orig, img, 1024))
		abort();		/* the boot block was written */
	if (log > 6)
		return;			/* not mountable: nothing to bound */
	end = (u64)blocks << (10 + log);
	if (end < size && memcmp(orig + end, img + end, size - end))
		abort();		/* written past the filesystem's end */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct block_device *bdev;
	u8 *img;

	if (size < 2048 || size > (4 << 20))
		return 0;
	img = malloc(size);
	if (!img)
		return 0;
	memcpy(img, data, size);
	bdev = bdev_mem_open(img, size & ~(u64)511, false, "fuzz0");
	vfs_register_fstype(&ext2_fstype);
	if (bdev && vfs_mount(bdev, "/f", "ext2", 0) == 0) {
		struct vfs_mount *m;

		walk_tree();
		change_things();
		walk_tree();
		if (vfs_find_mount("/f", &m) || vfs_umount(m))
			abort();	/* nothing is open: unmount must succeed */
	}
	if (bdev && bdev_file_close(bdev))
		abort();		/* a buffer reference leaked */
	check_outside(data, img, size & ~(size_t)511);
	free(img);
	if (host_slab_live)
		abort();		/* an allocation leaked */
	return 0;
}
