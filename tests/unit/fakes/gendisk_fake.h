/*
 * Controls of gendisk_fake.c: the registry calls a disk driver makes
 * (register_blkdev, alloc_disk, add_disk, set_capacity, put_disk,
 * disk_name_letters) without the registry, and request_irq/free_irq
 * without an interrupt controller.  Added disks and requested IRQs are
 * recorded for the test to inspect; nothing is scanned or routed.
 */
#ifndef TESTS_UNIT_FAKES_GENDISK_FAKE_H
#define TESTS_UNIT_FAKES_GENDISK_FAKE_H

#include "block/genhd.h"
#include "kernel/irq.h"

#define HOST_MAX_DISKS	8
#define HOST_MAX_IRQS	8

struct host_irq {
	unsigned	hi_irq;
	irq_handler_t	hi_handler;
	void		*hi_data;
	const char	*hi_name;
};

extern struct gendisk *host_disks[HOST_MAX_DISKS];	/* added, in order */
extern unsigned host_nr_disks;
extern struct host_irq host_irqs[HOST_MAX_IRQS];	/* requested, not freed */
extern unsigned host_nr_irqs;
extern unsigned host_majors_live;			/* registered, not unregistered */

/* Forget every disk (put) and IRQ recorded so far. */
void host_gendisk_reset(void);

#endif
