/*
 * Block devices (block layer): the objects for disks and partitions,
 * their lookup by name, dev_t and PARTUUID, open/close with the exclusive
 * claim rules, read-only enforcement, the partition remap of the submit
 * path, the block-layer ioctls and the filesystem probe hook of blkid.
 * Contract: block/bdev.h; the registry itself is genhd.c.
 *
 * A block_device is created by genhd.c (bdev_alloc), published in its
 * disk's gd_part0/gd_parts[] holding one reference for the registry, and
 * retired by __bdev_detach (del_gendisk, rescan): it is then dead and
 * freed when the last lookup or open reference goes.  Every device holds
 * a reference on its disk.
 *
 * Claim rules (counted per disk in gd_part_claims / gd_part_openers):
 *	whole disk, FMODE_WRITE	-EBUSY while any partition is claimed
 *	partition, FMODE_EXCL	-EBUSY while the whole disk has writers or a holder
 *	whole disk, FMODE_EXCL	-EBUSY while any partition is claimed
 *	any, FMODE_EXCL		-EBUSY while another holder has this device
 */
#include "block/genhd_priv.h"
#include "kernel/errno.h"
#include "kernel/mm/slab.h"
#include "kernel/printk.h"
#include "lib/string.h"

static const struct bdev_fs_probe *bdev_fs_probes[BDEV_MAX_FS_PROBES];	/* [r] */

/* The extended container's device covers one logical block (genhd.c). */
static sector_t bdev_part_len(const struct gendisk *disk, const struct part_entry *pe)
{
	if (pe->pe_flags & PART_F_EXTENDED)
		return min(pe->pe_nr_sects, (sector_t)(disk->gd_logical_block_size / SECTOR_SIZE));
	return pe->pe_nr_sects;
}

struct block_device *bdev_alloc(struct gendisk *disk, u32 partno, const struct part_entry *pe,
				const struct parsed_partitions *pp)
{
	struct block_device *bdev;
	int ext;

	bdev = kzalloc(sizeof(*bdev), GFP_KERNEL);
	if (!bdev)
		return NULL;
	if (partno < (u32)disk->gd_minors) {
		bdev->bd_dev = MKDEV(disk->gd_major, (u32)disk->gd_first_minor + partno);
	} else {
		ext = genhd_ext_minor_alloc();
		if (ext < 0) {
			kfree(bdev);
			return NULL;
		}
		bdev->bd_dev = MKDEV(BLOCK_EXT_MAJOR, (u32)ext);
	}
	bdev->bd_disk = get_disk(disk);
	bdev->bd_partno = partno;
	bdev->bd_refs = 1;
	if (!pe) {
		str_copy(bdev->bd_name, disk->gd_name, sizeof(bdev->bd_name));
		return bdev;
	}
	bdev->bd_part = *pe;
	bdev->bd_start = pe->pe_start;
	bdev->bd_nr_sects = bdev_part_len(disk, pe);
	if (disk_part_name(disk->gd_name, partno, bdev->bd_name, sizeof(bdev->bd_name)) < 0)
		snprintf(bdev->bd_name, sizeof(bdev->bd_name), "%u:%u", MAJOR(bdev->bd_dev),
			 MINOR(bdev->bd_dev));
	part_uuid_format(pp, pe, bdev->bd_partuuid);
	return bdev;
}

static void bdev_free(struct block_device *bdev)
{
	struct gendisk *disk = bdev->bd_disk;

	if (MAJOR(bdev->bd_dev) == BLOCK_EXT_MAJOR)
		__genhd_ext_minor_free(MINOR(bdev->bd_dev));
	kfree(bdev);
	__put_disk(disk);
}

void bdev_free_unpublished(struct block_device *bdev)
{
	unsigned long flags;

	spin_lock_irqsave(&genhd_lock, flags);
	KASSERT(bdev->bd_refs == 1 && !bdev->bd_openers);
	bdev_free(bdev);
	spin_unlock_irqrestore(&genhd_lock, flags);
}

static void __bdev_put(struct block_device *bdev)
{
	assert_spin_locked(&genhd_lock);
	KASSERT(bdev->bd_refs > 0);
	if (--bdev->bd_refs == 0) {
		KASSERT(bdev->bd_dead && !bdev->bd_openers);
		bdev_free(bdev);
	}
}

void __bdev_detach(struct block_device *bdev)
{
	struct gendisk *disk = bdev->bd_disk;

	assert_spin_locked(&genhd_lock);
	KASSERT(!bdev->bd_dead);
	bdev->bd_dead = true;
	if (bdev->bd_partno == 0)
		disk->gd_part0 = NULL;
	else
		disk->gd_parts[bdev->bd_partno] = NULL;
	__bdev_put(bdev);
}

struct block_device *bdev_get(struct block_device *bdev)
{
	unsigned long flags;

	spin_lock_irqsave(&genhd_lock, flags);
	KASSERT(bdev->bd_refs > 0);
	bdev->bd_refs++;
	spin_unlock_irqrestore(&genhd_lock, flags);
	return bdev;
}

void bdev_put(struct block_device *bdev)
{
	unsigned long flags;

	if (!bdev)
		return;
	spin_lock_irqsave(&genhd_lock, flags);
	__bdev_put(bdev);
	spin_unlock_irqrestore(&genhd_lock, flags);
}

/* -- lookup -- */

typedef bool (*bdev_match_fn)(const struct block_device *bdev, const void *key);

/*
 * Where a device comes in listings: after its disk's number, by partition
 * number, so that partitions numbered under BLOCK_EXT_MAJOR still follow
 * their disk.  For the others this is dev_t order.
 */
static u64 bdev_order(const struct block_device *b)
{
	const struct gendisk *disk = b->bd_disk;

	return (u64)MKDEV(disk->gd_major, (u32)disk->gd_first_minor) << 16 | b->bd_partno;
}

/*
 * The live device that matches key and comes first in listing order
 * after after (any device when match is NULL), referenced, or NULL.
 * Registry lock taken.
 */
static struct block_device *bdev_find(bdev_match_fn match, const void *key, bool have_after,
				      u64 after)
{
	struct block_device *b, *best = NULL;
	struct gendisk *disk;
	unsigned long flags;
	u32 i;

	spin_lock_irqsave(&genhd_lock, flags);
	list_for_each_entry(disk, &genhd_disks, gd_list) {
		for (i = 0; i < disk_max_parts(disk); i++) {
			b = i == 0 ? disk->gd_part0 : disk->gd_parts[i];
			if (!b || (have_after && bdev_order(b) <= after))
				continue;
			if (match && !match(b, key))
				continue;
			if (!best || bdev_order(b) < bdev_order(best))
				best = b;
		}
	}
	if (best)
		best->bd_refs++;
	spin_unlock_irqrestore(&genhd_lock, flags);
	return best;
}

static bool bdev_match_name(const struct block_device *bdev, const void *key)
{
	return !strcmp(bdev->bd_name, key);
}

static bool bdev_match_dev(const struct block_device *bdev, const void *key)
{
	return bdev->bd_dev == *(const dev_t *)key;
}

static bool bdev_match_uuid(const struct block_device *bdev, const void *key)
{
	return bdev->bd_partuuid[0] && !str_casecmp(bdev->bd_partuuid, key);
}

struct block_device *bdev_lookup_name(const char *name)
{
	return bdev_find(bdev_match_name, name, false, 0);
}

struct block_device *bdev_lookup_dev(dev_t dev)
{
	return bdev_find(bdev_match_dev, &dev, false, 0);
}

struct block_device *bdev_lookup_partuuid(const char *uuid)
{
	return bdev_find(bdev_match_uuid, uuid, false, 0);
}

#define BDEV_SPEC_PARTUUID	"PARTUUID="
#define BDEV_SPEC_DEV		"/dev/"

struct block_device *bdev_lookup(const char *spec)
{
	const char *colon;
	u64 ma, mi;
	char num[12];

	if (str_starts(spec, BDEV_SPEC_PARTUUID))
		return bdev_lookup_partuuid(spec + sizeof(BDEV_SPEC_PARTUUID) - 1);
	if (str_starts(spec, BDEV_SPEC_DEV))
		spec += sizeof(BDEV_SPEC_DEV) - 1;
	colon = strchr(spec, ':');
	if (colon && (size_t)(colon - spec) < sizeof(num)) {
		memcpy(num, spec, (size_t)(colon - spec));
		num[colon - spec] = '\0';
		if (str_to_u64(num, &ma, false) == 0 && str_to_u64(colon + 1, &mi, false) == 0 &&
		    (ma < BLKDEV_MAJOR_MAX || ma == BLOCK_EXT_MAJOR) && mi < (1U << MINORBITS))
			return bdev_lookup_dev(MKDEV(ma, mi));
		return NULL;
	}
	return bdev_lookup_name(spec);
}

struct block_device *bdev_next(struct block_device *prev)
{
	struct block_device *next;

	next = bdev_find(NULL, NULL, prev != NULL, prev ? bdev_order(prev) : 0);
	bdev_put(prev);
	return next;
}

/* -- open, close, policy -- */

/* Registry lock held. */
/*
 * Work out bd_ro from the disk's state and the writable= list: here, under
 * the registry lock, whenever one of them changes (publication,
 * set_disk_ro, genhd_writable_set), so that the submit path reads a flag
 * instead of taking the lock and comparing names for every bio.
 */
void __bdev_update_ro(struct block_device *bdev)
{
	const struct gendisk *disk = bdev->bd_disk;
	bool ro;

	assert_spin_locked(&genhd_lock);
	if (disk->gd_driver_ro)
		ro = true;
	else if (!disk->gd_policy_ro)
		ro = false;
	else	/* a partition may be named in writable= on its own */
		ro = bdev->bd_partno == 0 ||
		     !genhd_writable_allowed(genhd_writable_get(), bdev->bd_name);
	WRITE_ONCE(bdev->bd_ro, ro);
}

bool bdev_read_only(const struct block_device *bdev)
{
	return READ_ONCE(bdev->bd_ro);
}

sector_t bdev_nr_sects(struct block_device *bdev)
{
	return bdev->bd_partno ? bdev->bd_nr_sects : get_capacity(bdev->bd_disk);
}

/* May bdev be opened with mode by holder?  0 or -errno.  Registry lock held. */
static int __bdev_may_open(const struct block_device *bdev, fmode_t mode, void *holder)
{
	const struct gendisk *disk = bdev->bd_disk;
	const struct block_device *whole = disk->gd_part0;

	if (bdev->bd_dead || (disk->gd_state & GD_DEAD))
		return -ENXIO;
	if ((mode & FMODE_WRITE) && bdev_read_only(bdev))
		return -EROFS;
	if ((mode & FMODE_EXCL) && bdev->bd_holder && bdev->bd_holder != holder)
		return -EBUSY;
	if (bdev->bd_partno == 0) {
		if ((mode & (FMODE_WRITE | FMODE_EXCL)) && disk->gd_part_claims)
			return -EBUSY;
	} else if (mode & FMODE_EXCL) {
		if (whole && (whole->bd_writers || whole->bd_holder))
			return -EBUSY;
	}
	return 0;
}

/* Count an open (or, with sign -1, a close).  Registry lock held. */
static void __bdev_account(struct block_device *bdev, fmode_t mode, void *holder, int sign)
{
	struct gendisk *disk = bdev->bd_disk;

	bdev->bd_openers += (u32)sign;
	if (mode & FMODE_WRITE)
		bdev->bd_writers += (u32)sign;
	if (bdev->bd_partno)
		disk->gd_part_openers += (u32)sign;
	if (mode & FMODE_EXCL) {
		bdev->bd_holders += (u32)sign;
		if (sign > 0 && bdev->bd_holders == 1) {
			bdev->bd_holder = holder;
			if (bdev->bd_partno)
				disk->gd_part_claims++;
		} else if (sign < 0 && bdev->bd_holders == 0) {
			bdev->bd_holder = NULL;
			if (bdev->bd_partno)
				disk->gd_part_claims--;
		}
	}
}

int bdev_open(struct block_device *bdev, fmode_t mode, void *holder)
{
	const struct block_device_operations *ops = bdev->bd_disk->gd_fops;
	unsigned long flags;
	int ret;

	if ((mode & FMODE_EXCL) && !holder)
		return -EINVAL;
	spin_lock_irqsave(&genhd_lock, flags);
	ret = __bdev_may_open(bdev, mode, holder);
	if (ret == 0) {
		/* counted before the driver runs, so a racing claim sees it */
		__bdev_account(bdev, mode, holder, 1);
		bdev->bd_refs++;
	}
	spin_unlock_irqrestore(&genhd_lock, flags);
	if (ret)
		return ret;

	if (ops && ops->bdo_open) {
		ret = ops->bdo_open(bdev, mode);
		if (ret) {
			spin_lock_irqsave(&genhd_lock, flags);
			__bdev_account(bdev, mode, holder, -1);
			__bdev_put(bdev);
			spin_unlock_irqrestore(&genhd_lock, flags);
		}
	}
	return ret;
}

int bdev_close(struct block_device *bdev, fmode_t mode, void *holder)
{
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&genhd_lock, flags);
	if (!bdev->bd_openers || ((mode & FMODE_WRITE) && !bdev->bd_writers) ||
	    ((mode & FMODE_EXCL) && (!bdev->bd_holders || bdev->bd_holder != holder)))
		ret = -EINVAL;
	else
		__bdev_account(bdev, mode, holder, -1);
	spin_unlock_irqrestore(&genhd_lock, flags);
	if (ret)
		return ret;
	bdev_put(bdev);		/* the open's reference */
	return 0;
}

/* -- the submit path -- */

/*
 * Every bio passes here, on any CPU at once, so it takes no lock: the
 * caller's reference keeps bdev alive, bd_dead and bd_ro are single
 * bytes written under the registry lock, a partition's extent is
 * immutable and the disk's capacity is read through its seqcount.  A bio
 * that races with a detach or set_disk_ro may still pass, as it could
 * have just before; the driver's own checks stay the last word.
 */
int bdev_remap(struct block_device *bdev, sector_t *sector, u32 nr_sectors, bool is_write)
{
	sector_t len;

	if (READ_ONCE(bdev->bd_dead))
		return -ENXIO;
	if (is_write && bdev_read_only(bdev))
		return -EROFS;
	len = bdev_nr_sects(bdev);
	if (*sector > len || nr_sectors > len - *sector)
		return -EIO;
	*sector += bdev->bd_start;
	return 0;
}

struct request_queue *bdev_get_queue(struct block_device *bdev)
{
	return bdev->bd_disk->gd_queue;
}

/* HDIO_GETGEO: the driver's CHS, the block layer's partition start. */
static int bdev_getgeo(struct block_device *bdev, struct hd_geometry *geo)
{
	const struct block_device_operations *ops = bdev->bd_disk->gd_fops;
	int ret;

	if (!ops || !ops->bdo_getgeo)
		return -ENOTTY;
	memset(geo, 0, sizeof(*geo));
	ret = ops->bdo_getgeo(bdev, geo);
	if (ret)
		return ret;
	geo->hg_start = bdev->bd_start;
	return 0;
}

int bdev_report(struct block_device *bdev, char *buf, size_t len)
{
	const struct block_device_operations *ops = bdev->bd_disk->gd_fops;

	if (!ops || !ops->bdo_report)
		return -ENOTTY;
	return ops->bdo_report(bdev->bd_disk, buf, len);
}

int bdev_ioctl(struct block_device *bdev, fmode_t mode, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case BLKROGET:
		*(int *)arg = bdev_read_only(bdev);
		return 0;
	case BLKGETSIZE64:
		*(u64 *)arg = bdev_nr_sects(bdev) << SECTOR_SHIFT;
		return 0;
	case BLKRRPART:
		if (bdev->bd_partno)
			return -EINVAL;
		return disk_rescan(bdev->bd_disk);
	case HDIO_GETGEO:
		return bdev_getgeo(bdev, (struct hd_geometry *)arg);
	default:
		return -ENOTTY;
	}
}

/* -- what lies inside (blkid) -- */

int bdev_register_fs_probe(const struct bdev_fs_probe *probe)
{
	unsigned long flags;
	unsigned int i;
	int ret = -ENOSPC;

	spin_lock_irqsave(&genhd_lock, flags);
	for (i = 0; i < BDEV_MAX_FS_PROBES; i++) {
		if (!bdev_fs_probes[i]) {
			bdev_fs_probes[i] = probe;
			ret = 0;
			break;
		}
	}
	spin_unlock_irqrestore(&genhd_lock, flags);
	return ret;
}

int bdev_probe_fs(struct block_device *bdev, struct bdev_fs_info *info)
{
	unsigned int i;
	int ret;

	for (i = 0; i < BDEV_MAX_FS_PROBES && bdev_fs_probes[i]; i++) {
		memset(info, 0, sizeof(*info));
		ret = bdev_fs_probes[i]->fp_probe(bdev, info);
		if (ret != 0)
			return ret;
	}
	return 0;
}
