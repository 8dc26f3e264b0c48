/*
 * Inside the virtio PCI transport: the common-configuration accessors
 * and the steps virtio_pci.c and virtio_pci_irq.c share.  Not for
 * device drivers (they use virtiovar.h).
 */
#ifndef DRIVERS_VIRTIO_VIRTIO_PCI_PRIV_H
#define DRIVERS_VIRTIO_VIRTIO_PCI_PRIV_H

#include "drivers/virtio/virtioreg.h"
#include "drivers/virtio/virtiovar.h"

/* The common configuration structure (4.1.4.3), by VIRTIO_PCI_COMMON_* offset. */
u8 vp_read8(struct virtio_pci *vp, unsigned off);
u16 vp_read16(struct virtio_pci *vp, unsigned off);
u32 vp_read32(struct virtio_pci *vp, unsigned off);
void vp_write8(struct virtio_pci *vp, unsigned off, u8 v);
void vp_write16(struct virtio_pci *vp, unsigned off, u16 v);
void vp_write32(struct virtio_pci *vp, unsigned off, u32 v);

/* virtio_pci.c: set queue_enable on every queue set up. */
void vp_enable_vqs(struct virtio_pci *vp);
/* virtio_pci_irq.c: undo virtio_pci_setup_irqs (safe if it never ran). */
void vp_free_irqs(struct virtio_pci *vp);

#endif
