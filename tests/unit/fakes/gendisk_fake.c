/* Registry and IRQ stand-ins for driver host tests; see gendisk_fake.h. */
#include "tests/unit/fakes/gendisk_fake.h"
#include "kernel/errno.h"
#include "kernel/printk.h"

#include <stdlib.h>
#include <string.h>

struct gendisk *host_disks[HOST_MAX_DISKS];
unsigned host_nr_disks;
struct host_irq host_irqs[HOST_MAX_IRQS];
unsigned host_nr_irqs;
unsigned host_majors_live;

int register_blkdev(unsigned int major, const char *name)
{
	host_majors_live++;
	return major ? (int)major : 254;
}

int unregister_blkdev(unsigned int major, const char *name)
{
	KASSERT(host_majors_live > 0);
	host_majors_live--;
	return 0;
}

struct gendisk *alloc_disk(int minors)
{
	struct gendisk *d = calloc(1, sizeof(*d));

	d->gd_minors = minors;
	d->gd_logical_block_size = SECTOR_SIZE;
	d->gd_refs = 1;
	return d;
}

int add_disk(struct gendisk *disk)
{
	if (host_nr_disks == HOST_MAX_DISKS)
		return -ENOSPC;
	host_disks[host_nr_disks++] = disk;
	disk->gd_refs++;
	return 0;
}

int del_gendisk(struct gendisk *disk)
{
	unsigned i;

	for (i = 0; i < host_nr_disks; i++)
		if (host_disks[i] == disk) {
			memmove(&host_disks[i], &host_disks[i + 1],
				(--host_nr_disks - i) * sizeof(host_disks[0]));
			put_disk(disk);
			return 0;
		}
	return -EINVAL;
}

void put_disk(struct gendisk *disk)
{
	if (--disk->gd_refs == 0)
		free(disk);
}

void set_capacity(struct gendisk *disk, sector_t sectors) { disk->gd_capacity = sectors; }
sector_t get_capacity(struct gendisk *disk) { return disk->gd_capacity; }

int disk_name_letters(char *buf, size_t size, const char *prefix, unsigned int index)
{
	size_t len = strlen(prefix);

	if (index >= 26 || len + 2 > size)
		return -ENAMETOOLONG;	/* enough for the tests: one letter */
	memcpy(buf, prefix, len);
	buf[len] = (char)('a' + index);
	buf[len + 1] = '\0';
	return 0;
}

int request_irq(unsigned irq, irq_handler_t handler, void *data, const char *name)
{
	if (host_nr_irqs == HOST_MAX_IRQS)
		return -ENOMEM;
	host_irqs[host_nr_irqs++] = (struct host_irq){ irq, handler, data, name };
	return 0;
}

void free_irq(unsigned irq, void *data)
{
	unsigned i;

	for (i = 0; i < host_nr_irqs; i++)
		if (host_irqs[i].hi_irq == irq && host_irqs[i].hi_data == data) {
			host_irqs[i] = host_irqs[--host_nr_irqs];
			return;
		}
}

void host_gendisk_reset(void)
{
	while (host_nr_disks)
		put_disk(host_disks[--host_nr_disks]);
	host_nr_irqs = 0;
}
