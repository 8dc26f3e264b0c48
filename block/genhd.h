/*
 * The gendisk registry: how a driver hands a whole disk to the block layer.
 *
 * A driver registers a major (register_blkdev, 0 for a dynamic one),
 * allocates a gendisk (alloc_disk(minors)), fills in its name, queue,
 * capacity, operations and private data, and calls add_disk().  The block
 * layer then scans the partition table (block/partitions/), creates a
 * block_device (block/bdev.h) for the disk and each partition, and applies
 * the writable= policy: a disk not named there is read-only.  Drivers never
 * see partitions.  del_gendisk() takes the disk and its partitions away
 * (open ones fail their I/O); the last put_disk() frees it.
 *
 * Names: sda, sdb, ... for SATA/AHCI (disk_sd_get), hda..hdd
 * for IDE, ram0, mem0, nullb0 for memory devices; partitions append their
 * number, with a 'p' when the disk name ends in a digit (sda1, ram0p1).
 * Device numbers: the disk and its first minors - 1 partitions use the
 * driver's major; with GENHD_FL_EXT_DEVT (the ATA disks) the partitions
 * past them, up to number 255, get the next free minor of BLOCK_EXT_MAJOR,
 * as in Linux, so a GPT slot 200 or a 60th logical partition is not lost.
 *
 * Lock legend for struct gendisk (the registry lock, genhd.c):
 *	[I] set by the driver before add_disk, immutable afterwards
 *	[r] registry lock
 *	[d] the driver's own
 */
#ifndef BLOCK_GENHD_H
#define BLOCK_GENHD_H

#include "block/partitions/check.h"
#include "kernel/seqcount.h"
#include "lib/list.h"

struct gendisk;
struct block_device;
struct request_queue;

#define DISK_NAME_LEN		16	/* "nullb0", "sdaa", with room for "p15" */
#define DISK_MODEL_LEN		41	/* ATA IDENTIFY words 27-46, NUL included */
#define BLKDEV_MAJOR_MAX	256	/* majors 1..255 */
#define BLKDEV_DYNAMIC_FIRST	254	/* dynamic majors are handed out downwards */
#define BLKDEV_DYNAMIC_LAST	234
#define DISK_MAX_PARTS		256	/* partition numbers 1..255, as in Linux */
#define BLOCK_EXT_MAJOR		259	/* Linux's: partitions past a disk's own minors */

typedef unsigned int fmode_t;
#define FMODE_READ		0x1u
#define FMODE_WRITE		0x2u
#define FMODE_EXCL		0x4u	/* exclusive claim, with a holder */

struct hd_geometry {
	u8	hg_heads;
	u8	hg_sectors;
	u16	hg_cylinders;
	u64	hg_start;		/* the partition's first sector */
};

/*
 * What a driver provides, and who calls it.  Every hook may be NULL: the
 * block layer checks.  None is called with a lock held; each may sleep.
 */
struct block_device_operations {
	/*
	 * bdev_open, after the claim checks: is the device still there and
	 * usable?  0, or -ENXIO (detached, failed) / -ENOMEDIUM.
	 */
	int	(*bdo_open)(struct block_device *bdev, fmode_t mode);
	/*
	 * bdev_ioctl(HDIO_GETGEO): the disk's CHS geometry into hg_heads,
	 * hg_sectors and hg_cylinders; hg_start (the partition's first
	 * sector) is the block layer's.  0 or -errno.
	 */
	int	(*bdo_getgeo)(struct block_device *bdev, struct hd_geometry *geo);
	/*
	 * disk_rescan (BLKRRPART, rereadpt), before the partitions are read
	 * again; drivers also call it after their own reset recovery: bring
	 * the capacity in line with what the device now reports.  0, or
	 * -errno (the rescan is not done).
	 */
	int	(*bdo_revalidate_disk)(struct gendisk *disk);
	/*
	 * bdev_report (the shell's diskinfo): a few lines of driver-specific
	 * facts ("link 6.0 Gbps\n", ...) into
	 * buf, at most len bytes with the NUL.  Returns the byte count
	 * written (without the NUL), or -errno.
	 */
	int	(*bdo_report)(struct gendisk *disk, char *buf, size_t len);
};

struct gendisk {
	int		gd_major;			/* [I] */
	int		gd_first_minor;			/* [I] */
	int		gd_minors;			/* [I] from alloc_disk: disk + partitions */
	char		gd_name[DISK_NAME_LEN];		/* [I] */
	char		gd_model[DISK_MODEL_LEN];	/* [I] "" if unknown */
	const struct block_device_operations *gd_fops;	/* [I] */
	struct request_queue *gd_queue;			/* [I] opaque here */
	void		*gd_private_data;		/* [d] */
	u32		gd_logical_block_size;		/* [I] bytes: 512 (default) or 4096 */
	u32		gd_physical_block_size;		/* [I] bytes; 0: the logical size */
	u32		gd_alignment_offset;		/* [I] bytes from LBA 0 to a physical boundary */
	u32		gd_flags;			/* [I] */
#define GENHD_FL_REMOVABLE	0x01
#define GENHD_FL_NO_PART_SCAN	0x02	/* never scan (e.g. a null device) */
#define GENHD_FL_EXT_DEVT	0x04	/* keep partitions up to DISK_MAX_PARTS - 1; those
					   past gd_minors get BLOCK_EXT_MAJOR numbers */
	sector_t	gd_capacity;			/* [r] 512-byte sectors; lockless readers
							   go through gd_capacity_seq */
	seqcount_t	gd_capacity_seq;		/* [r] */
	bool		gd_driver_ro;			/* [r] set_disk_ro(): the medium is read-only */
	bool		gd_policy_ro;			/* [r] not named in writable= */

	/* the registry's; drivers do not touch these */
	struct list_head gd_list;			/* [r] all added disks */
	int		gd_refs;			/* [r] get_disk/put_disk */
	u32		gd_state;			/* [r] */
#define GD_ADDED		0x01
#define GD_DEAD			0x02	/* del_gendisk ran: opens and I/O fail */
#define GD_SCANNING		0x04	/* a partition scan is reading */
	struct block_device *gd_part0;			/* [r] the whole disk, once added */
	struct block_device **gd_parts;			/* [r] [partno], 1..disk_max_parts()-1 */
	struct part_entry *gd_table;			/* [r] the scanned table, for "part" */
	u32		gd_table_nr;			/* [r] */
	enum part_scheme gd_scheme;			/* [r] */
	u32		gd_disk_sig;			/* [r] dos disk signature */
	struct part_guid gd_disk_guid;			/* [r] gpt disk GUID */
	u32		gd_part_claims;			/* [r] partitions held exclusively */
	u32		gd_part_openers;		/* [r] opens of partitions */
};

/*
 * register_blkdev - reserve a major number for a driver
 * @major: the number wanted, or 0 for a free dynamic one
 * @name: the driver's name, for messages (kept by pointer)
 * Returns the major (> 0), or -EBUSY if taken / none free, -EINVAL if out of range.
 */
int register_blkdev(unsigned int major, const char *name);
int unregister_blkdev(unsigned int major, const char *name);

/*
 * alloc_disk - a new gendisk for a disk with minors device numbers (the
 * disk and minors - 1 partitions; more with GENHD_FL_EXT_DEVT)
 * Returns it with one reference (drop with put_disk), zeroed but for the
 * defaults (512-byte blocks), or NULL if minors is 0 or out of memory.
 */
struct gendisk *alloc_disk(int minors);

/*
 * add_disk - make a filled-in disk visible: block devices, policy, partitions
 * Returns 0, -EEXIST if the name or device numbers are taken, -EINVAL for
 * a missing name or bad block size, -ENOMEM.  A partition table that
 * cannot be read is reported and leaves the disk without partitions; that
 * is not an error of add_disk.  May sleep (the scan reads).
 */
int add_disk(struct gendisk *disk);

/*
 * del_gendisk - remove an added disk and its partitions from the registry
 * Open block devices stay allocated until closed, but fail new I/O
 * (-ENXIO from bdev_remap).  Returns 0, or -EINVAL if not added.
 */
int del_gendisk(struct gendisk *disk);

/*
 * References: get_disk() takes one on a disk that has one already;
 * put_disk() drops one (NULL is ignored) and the last frees the disk.
 * Any context.
 */
struct gendisk *get_disk(struct gendisk *disk);
void put_disk(struct gendisk *disk);

/* The disk's size in 512-byte sectors, under the registry lock.  Any context. */
void set_capacity(struct gendisk *disk, sector_t sectors);
sector_t get_capacity(struct gendisk *disk);
/* The driver says the medium is (not) writable; writable= still applies. */
void set_disk_ro(struct gendisk *disk, bool ro);
/* Read-only for either reason? */
bool disk_is_ro(struct gendisk *disk);

/*
 * disk_rescan - read the partition table again (BLKRRPART)
 * Returns 0 (also when there is no table), -EBUSY while a partition is
 * open or another scan runs, -ENXIO for a deleted disk, or the read error
 * (the partitions found before stay).  May sleep.
 */
int disk_rescan(struct gendisk *disk);

/*
 * disk_flush_caches - send a cache flush to every disk whose queue has a
 * volatile write cache (BLK_FLUSH_CACHE), each bounded by its queue's
 * timeouts; the shutdown hook of genhd_flush.c.  Returns 0 or the first
 * error; every result is printed.  Sleeps.
 */
int disk_flush_caches(void);

/*
 * How many partition slots the disk has, the whole disk included: its
 * minors, or DISK_MAX_PARTS (at least) with GENHD_FL_EXT_DEVT.
 */
u32 disk_max_parts(const struct gendisk *disk);

/* Name helpers: "sd", 0 -> "sda"; 25 -> "sdz"; 26 -> "sdaa".  Returns 0 or -ENAMETOOLONG. */
int disk_name_letters(char *buf, size_t size, const char *prefix, unsigned int index);

/*
 * sd disks (genhd_sd.c): disk_sd_get takes the lowest free index and
 * writes its name ("sda" for 0) into name; returns the index, -ENOSPC
 * when all DISK_SD_MAX are taken, or -ENAMETOOLONG.  disk_sd_put gives
 * an index back.  disk_sd_devt is the disk's device number as Linux
 * numbers sd disks (8:0 for sda, 65:0 for sdq, ...), DISK_SD_MINORS per
 * disk.  Any context.
 */
#define DISK_SD_MAX		(26 * 27)	/* sda .. sdzz */
#define DISK_SD_MINORS		16		/* sda + 15 partitions */
int disk_sd_get(char *name, size_t size);
void disk_sd_put(unsigned int index);
dev_t disk_sd_devt(unsigned int index);
/* The name of partition partno of disk: "sda1", "ram0p1".  Returns 0 or -ENAMETOOLONG. */
int disk_part_name(const char *disk_name, u32 partno, char *buf, size_t size);

/*
 * The writable= policy.  list is "all", or comma-separated names of disks
 * or partitions; a disk named there (or "all") is writable along with its
 * partitions, a partition named alone is writable by itself.  NULL or ""
 * allows nothing.
 */
bool genhd_writable_allowed(const char *list, const char *name);
/* The current policy string (the writable= parameter); tests may replace it. */
const char *genhd_writable_get(void);
void genhd_writable_set(const char *list);

/*
 * Copy the scanned table: up to max entries into out, their count into
 * *nr, the disk id into *sig / *guid.  Returns the scheme.
 */
enum part_scheme disk_copy_table(struct gendisk *disk, struct part_entry *out, u32 max,
				 u32 *nr, u32 *sig, struct part_guid *guid);

#endif
