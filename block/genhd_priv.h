/*
 * Between genhd.c and bdev.c only: the registry lock and list, and the
 * calls that create and retire block_device objects.  Not a contract for
 * anyone else.
 */
#ifndef BLOCK_GENHD_PRIV_H
#define BLOCK_GENHD_PRIV_H

#include "block/bdev.h"
#include "kernel/spinlock.h"

/*
 * The registry lock guards the disk list, the major table and every [r]
 * field of struct gendisk and struct block_device.  Taken with interrupts
 * off: bdev_put may run in interrupt context.  Never held across I/O or
 * a driver hook, and never taken for a bio: the submit path reads the
 * few [r] fields it needs locklessly (bdev_remap).
 */
extern spinlock_t genhd_lock;
extern struct list_head genhd_disks;

/*
 * A new, unlinked block device for partno of disk (referenced once; it
 * takes a reference on the disk).  pe, found in the table pp, is copied;
 * both NULL for the whole disk.  NULL if out of memory.
 */
struct block_device *bdev_alloc(struct gendisk *disk, u32 partno, const struct part_entry *pe,
				const struct parsed_partitions *pp);
/* Free a device that was never published (no lock needed). */
void bdev_free_unpublished(struct block_device *bdev);
/* Recompute bdev->bd_ro after its disk or the writable= list changed.  Lock held. */
void __bdev_update_ro(struct block_device *bdev);
/* Mark bdev dead and drop the registry's reference.  Registry lock held. */
void __bdev_detach(struct block_device *bdev);
/*
 * Device numbers of BLOCK_EXT_MAJOR: the lowest free minor (registry lock
 * taken), or -ENOSPC when all are in use; and its release, lock held.
 */
int genhd_ext_minor_alloc(void);
void __genhd_ext_minor_free(unsigned int minor);
/* Drop a disk reference with the registry lock held. */
void __put_disk(struct gendisk *disk);

#endif
