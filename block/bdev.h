/*
 * Block devices: the openable things, one for each added disk and one for
 * each of its partitions.  A partition is only {disk, start, length}; the
 * block core calls bdev_remap() in its submit path to turn a
 * partition-relative sector into a disk sector, bounds-checked, and to
 * refuse writes to a read-only device before they reach the driver.
 *
 * Lifetime: lookups return a referenced block_device (bdev_put drops it);
 * a reference keeps the object and its disk allocated, not the disk
 * attached: after del_gendisk or a rescan that removed it, a device is
 * "dead" and opens and I/O on it fail with -ENXIO.
 *
 * Opening: bdev_open(bdev, mode, holder).  FMODE_WRITE needs a writable
 * device (-EROFS otherwise).  FMODE_EXCL claims the device for holder (a
 * mounted filesystem claims its partition) and fails with -EBUSY if another
 * holder has it.  A disk and its partitions exclude each other: opening the
 * whole disk for writing fails while a partition is claimed, and claiming a
 * partition fails while the whole disk is open for writing or claimed.
 *
 * Lock legend for struct block_device (the registry lock, genhd.c):
 *	[I] immutable after creation	[r] registry lock
 */
#ifndef BLOCK_BDEV_H
#define BLOCK_BDEV_H

#include "block/genhd.h"

#define BDEV_NAME_LEN		DISK_NAME_LEN
#define BDEV_UUID_LEN		(PART_GUID_STR_LEN + 1)

struct block_device {
	dev_t		bd_dev;			/* [I] */
	struct gendisk	*bd_disk;		/* [I] referenced */
	u32		bd_partno;		/* [I] 0: the whole disk */
	sector_t	bd_start;		/* [I] first disk sector */
	sector_t	bd_nr_sects;		/* [I] partitions; the disk reads gd_capacity */
	char		bd_name[BDEV_NAME_LEN];	/* [I] "sda1" */
	char		bd_partuuid[BDEV_UUID_LEN];	/* [I] "" for a disk */
	struct part_entry bd_part;		/* [I] its table entry (zeroed for a disk) */
	bool		bd_ro;			/* [r] writes refused (the medium, or writable=
						   does not name it); read locklessly by the
						   submit path, kept by __bdev_update_ro */
	bool		bd_dead;		/* [r] detached from its disk; read locklessly
						   by the submit path */
	int		bd_refs;		/* [r] */
	u32		bd_openers;		/* [r] */
	u32		bd_writers;		/* [r] opens with FMODE_WRITE */
	void		*bd_holder;		/* [r] exclusive claimer, or NULL */
	u32		bd_holders;		/* [r] FMODE_EXCL opens by bd_holder */
};

/* References. */
struct block_device *bdev_get(struct block_device *bdev);
void bdev_put(struct block_device *bdev);

/*
 * Lookups; each returns a referenced device or NULL.  bdev_lookup takes
 * what a user types: "sda1", "/dev/sda1", "8:1" or "PARTUUID=<uuid>"
 * (a GPT GUID in either case, or dos "SSSSSSSS-NN").
 */
struct block_device *bdev_lookup_name(const char *name);
struct block_device *bdev_lookup_dev(dev_t dev);
struct block_device *bdev_lookup_partuuid(const char *uuid);
struct block_device *bdev_lookup(const char *spec);

/*
 * All block devices, each disk in (major, minor) order followed by its
 * partitions by number: pass NULL for the first, the previous one (whose
 * reference is dropped) for the next.  Referenced; the caller may sleep
 * between calls.  NULL at the end.
 */
struct block_device *bdev_next(struct block_device *prev);

/*
 * bdev_open - open a device
 * @mode: FMODE_READ / FMODE_WRITE, with FMODE_EXCL to claim it for @holder
 * Returns 0, -ENXIO (gone), -EROFS (write to a read-only device), -EBUSY
 * (claim rules above), -EINVAL (FMODE_EXCL without a holder), or the
 * driver's bdo_open error (-ENXIO, -ENOMEDIUM: the device is not usable).  The caller keeps its reference until bdev_close.
 * May sleep (the driver's open).
 */
int bdev_open(struct block_device *bdev, fmode_t mode, void *holder);
/* Undo one bdev_open with the same mode and holder.  Returns 0 or -EINVAL. */
int bdev_close(struct block_device *bdev, fmode_t mode, void *holder);

/* "sda1": valid while the caller holds its reference. */
static inline const char *bdev_name(const struct block_device *bdev)
{
	return bdev->bd_name;
}

/* Is a write to bdev refused (medium, writable= policy)? */
bool bdev_read_only(const struct block_device *bdev);
/* Size in 512-byte sectors. */
sector_t bdev_nr_sects(struct block_device *bdev);

/*
 * bdev_remap - map I/O on a device to its disk (the block core's submit path)
 * @sector: in: device-relative 512-byte sector; out: disk sector
 * @nr_sectors: length (0 for a flush)
 * Returns 0, -EIO if any part lies past the device's end (nothing is
 * changed: the neighbour is never touched), -EROFS for a write to a
 * read-only device, -ENXIO for a device whose disk went away.  Any context.
 */
int bdev_remap(struct block_device *bdev, sector_t *sector, u32 nr_sectors, bool is_write);
/* The queue bios to bdev go to. */
struct request_queue *bdev_get_queue(struct block_device *bdev);

/*
 * The ioctls: the block layer answers them, with the driver's
 * bdo_getgeo for HDIO_GETGEO; anything else is -ENOTTY.
 */
#define HDIO_GETGEO		0x0301	/* *(struct hd_geometry *)arg; -ENOTTY: no CHS */
#define BLKROGET		0x125E	/* *(int *)arg = read-only */
#define BLKRRPART		0x125F	/* re-read the partition table (whole disk only) */
#define BLKGETSIZE64		0x80081272	/* *(u64 *)arg = size in bytes */
int bdev_ioctl(struct block_device *bdev, fmode_t mode, unsigned int cmd, unsigned long arg);

/*
 * The driver's facts about the disk under bdev (its bdo_report), one per
 * line, into buf (at most len bytes with the NUL).  Returns the bytes
 * written, -ENOTTY when the driver has none, or its -errno.  May sleep.
 */
int bdev_report(struct block_device *bdev, char *buf, size_t len);

/*
 * The hook blkid uses for what lies inside a device: a filesystem
 * registers a probe that fills in its type, UUID and label, and returns 1
 * if it recognised the device, 0 if not, or -errno.  Up to
 * BDEV_MAX_FS_PROBES probes.
 */
struct bdev_fs_info {
	char	fi_type[16];
	char	fi_uuid[BDEV_UUID_LEN];
	char	fi_label[64];
};

struct bdev_fs_probe {
	const char	*fp_name;
	int		(*fp_probe)(struct block_device *bdev, struct bdev_fs_info *info);
};

#define BDEV_MAX_FS_PROBES	8
int bdev_register_fs_probe(const struct bdev_fs_probe *probe);
/* Run the probes in order; 1 with *info filled in, 0 if none matched, -errno. */
int bdev_probe_fs(struct block_device *bdev, struct bdev_fs_info *info);

#endif
