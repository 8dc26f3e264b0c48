/*
 * libFuzzer target: the host build of the VFS and FAT over an in-memory
 * image (the fuzzer's input, copied so that writes land in memory).
 *
 * For each input: mount read-write, walk the tree (bounded), read every
 * file found, then change things (create, write past the end, append,
 * mkdir, rename, truncate, unlink, rmdir, a long name) and unmount.  Any
 * crash, sanitizer report, hang (libFuzzer's -timeout), buffer reference
 * or allocation left behind is a bug: the last two abort here.  Seeds:
 * tests/host/fat_fuzz.sh makes FAT12/16/32 images with mkfs.fat and mtools.
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
#define FUZZ_MAX_VOLUME		(48u << 20)	/* bytes a BPB may make the device grow to */

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
		vfs_pwrite(f, fuzz_buf, 100, 30000);
		vfs_close(f);
	}
	vfs_mkdir("/f/A directory with a long name", 0755);
	vfs_rename("/f/fz", "/f/A directory with a long name/moved file.txt");
	vfs_truncate("/f/A directory with a long name/moved file.txt", 10);
	vfs_unlink("/f/A directory with a long name/moved file.txt");
	vfs_rmdir("/f/A directory with a long name");
	if (!vfs_open("/f/x.tar.gz", VFS_O_WRONLY | VFS_O_CREAT | VFS_O_APPEND, 0644, &f)) {
		vfs_write(f, fuzz_buf, 700);
		vfs_close(f);
	}
	vfs_rename("/f/x.tar.gz", "/f/X.TAR.GZ");
	vfs_unlink("/f/X.TAR.GZ");
	vfs_sync();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct block_device *bdev;
	size_t dev = size;
	u64 vol;
	u8 *img;

	if (size < 2048 || size > (4 << 20))
		return 0;
	/*
	 * A FAT32 volume is 32 MiB at least, too big for a seed: the input is
	 * its start (boot sector, FATs, root, files) and the device is as long
	 * as the BPB says, zero-filled, up to FUZZ_MAX_VOLUME.
	 */
	vol = (u64)(data[11] | data[12] << 8) *
	      (data[19] | data[20] << 8 ? (u32)(data[19] | data[20] << 8) :
	       (u32)(data[32] | data[33] << 8 | data[34] << 16 | (u32)data[35] << 24));
	if (vol > dev && vol <= FUZZ_MAX_VOLUME)
		dev = (size_t)vol;
	img = calloc(1, dev);
	if (!img)
		return 0;
	memcpy(img, data, size);
	bdev = bdev_mem_open(img, dev & ~(u64)511, false, "fuzz0");
	vfs_register_fstype(&fat_fstype);
	if (bdev && vfs_mount(bdev, "/f", "vfat", 0) == 0) {
		struct vfs_mount *m;

		walk_tree();
		change_things();
		walk_tree();
		if (vfs_find_mount("/f", &m) || vfs_umount(m))
			abort();	/* nothing is open: unmount must succeed */
	}
	if (bdev && bdev_file_close(bdev))
		abort();		/* a buffer reference leaked */
	free(img);
	if (host_slab_live)
		abort();		/* an allocation leaked */
	return 0;
}
