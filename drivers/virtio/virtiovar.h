/*
 * The virtio modern PCI transport (virtio 1.1, 4.1) as device drivers
 * use it: find and map the capabilities, walk the device status through
 * initialisation (3.1.1), negotiate features, set up and notify
 * virtqueues, read the device configuration consistently, and deliver
 * interrupts (MSI-X, one vector per queue and one for configuration
 * changes, else INTx with the ISR).
 *
 * Order a driver follows:
 *	virtio_pci_init()          reset, ACKNOWLEDGE, DRIVER
 *	virtio_pci_negotiate()     features, FEATURES_OK checked
 *	virtio_pci_setup_vq() x n  rings
 *	virtio_pci_setup_irqs()    MSI-X or INTx, handlers to ops
 *	virtio_pci_driver_ok()     the device may now use the queues
 * and on any failure after init, virtio_pci_fail() then
 * virtio_pci_teardown().
 *
 * Locks: [I] set during the steps above, read-only after; [d] the
 * driver's (a queue's fields belong to whoever owns that queue).
 */
#ifndef DRIVERS_VIRTIO_VIRTIOVAR_H
#define DRIVERS_VIRTIO_VIRTIOVAR_H

#include "drivers/virtio/virtqueue.h"
#include "kernel/types.h"

struct pci_dev;
struct virtio_pci;

#define VIRTIO_PCI_MAX_VQS	16	/* queues one function may use here */

struct virtio_pci_ops {
	/* Queue qidx may have used buffers.  Interrupt context. */
	void	(*vo_vq_intr)(struct virtio_pci *vp, u16 qidx);
	/* The configuration (or the status: NEEDS_RESET) changed.  Interrupt context. */
	void	(*vo_config)(struct virtio_pci *vp);
};

struct virtio_pci_vq {
	struct virtq		pq_vq;		/* [d] the ring */
	struct virtio_pci	*pq_vp;		/* [I] */
	u16			pq_index;	/* [I] queue number on the device */
	u16			pq_vector;	/* [I] MSI-X vector, or VIRTIO_MSI_NO_VECTOR */
	volatile u16		*pq_notify;	/* [I] where to write pq_index (4.1.4.4) */
	void			*pq_ring;	/* [I] the ring block, lowmem pages */
	unsigned		pq_order;	/* [I] */
	void			*pq_state;	/* [I] virtq bookkeeping */
};

struct virtio_pci {
	struct pci_dev		*vp_pdev;	/* [I] */
	char			vp_name[16];	/* [I] for messages: "virtio0" */
	volatile u8		*vp_common;	/* [I] 4.1.4.3 */
	volatile u8		*vp_isr;	/* [I] 4.1.4.5 */
	volatile u8		*vp_devcfg;	/* [I] 4.1.4.6, NULL if none */
	u32			vp_devcfg_len;	/* [I] */
	volatile u8		*vp_notify;	/* [I] 4.1.4.4 */
	u32			vp_notify_len;	/* [I] */
	u32			vp_notify_mult;	/* [I] notify_off_multiplier */
	void			*vp_bars[6];	/* [I] mapped BARs, NULL unused */
	u64			vp_features;	/* [I] negotiated */
	u16			vp_max_vqs;	/* [I] num_queues the device offers */
	u16			vp_nvqs;	/* [I] queues set up */
	struct virtio_pci_vq	*vp_vqs[VIRTIO_PCI_MAX_VQS];	/* [I] */
	const struct virtio_pci_ops *vp_ops;	/* [I] */
	void			*vp_priv;	/* [I] the device driver's softc */
	int			vp_irq;		/* [I] INTx IRQ, -1 none */
	bool			vp_msix;	/* [I] MSI-X in use */
	bool			vp_msix_shared;	/* [I] ... one vector for all queues */
	u16			vp_msix_nvec;	/* [I] entries enabled */
	int			vp_msix_irqs[VIRTIO_PCI_MAX_VQS + 1];	/* [I] entry -> IRQ */
	char			vp_irq_names[VIRTIO_PCI_MAX_VQS][20];	/* [I] "vda-q1" */
	u32			vp_intr;	/* [a] interrupts taken, for the report */
};

/**
 * virtio_pci_init - find a function's virtio structures and start it
 * @vp: zeroed transport state to fill
 * @dev: the PCI function
 * @name: name for messages (copied)
 *
 * Maps the BARs that hold the common, notify, ISR and device
 * configuration structures, resets the device and sets ACKNOWLEDGE and
 * DRIVER (3.1.1 steps 1-3).  Return: 0; -ENODEV when the function has no
 * modern capabilities (a legacy-only device); -ENXIO/-ETIMEDOUT otherwise.
 */
int virtio_pci_init(struct virtio_pci *vp, struct pci_dev *dev, const char *name);

/**
 * virtio_pci_negotiate - agree on features (3.1.1 steps 4-6)
 * @vp: after virtio_pci_init
 * @wanted: the feature bits the driver understands (VIRTIO_BIT(n) ...)
 *
 * VERSION_1 is required of the device.  Sets FEATURES_OK and checks the
 * device kept it.  Return: 0 with vp_features set, or -ENODEV.
 */
int virtio_pci_negotiate(struct virtio_pci *vp, u64 wanted);

static inline bool virtio_has(const struct virtio_pci *vp, unsigned bit)
{
	return (vp->vp_features & (1ull << bit)) != 0;
}

/**
 * virtio_pci_setup_vq - allocate and program queue @index
 * @vp: negotiated
 * @index: queue number
 * @max: the most entries the driver wants (the device may offer fewer)
 *
 * Return: the queue, or NULL (-errno in *err) when the device has no such
 * queue or memory ran out.  Interrupt vectors are set by setup_irqs.
 */
struct virtio_pci_vq *virtio_pci_setup_vq(struct virtio_pci *vp, u16 index, u16 max, int *err);

/**
 * virtio_pci_setup_irqs - route interrupts to @ops, then enable the queues
 * @vp: every queue set up
 * @ops: handlers, called in interrupt context
 * @priv: stored in vp_priv
 *
 * MSI-X with a vector per queue and one for configuration changes when the
 * function has enough, else INTx (the ISR says which).  Return: 0 or -errno.
 */
int virtio_pci_setup_irqs(struct virtio_pci *vp, const struct virtio_pci_ops *ops, void *priv);

/*
 * How many queues can have an MSI-X vector of their own (the table size
 * less the configuration vector), 0 when MSI-X is not to be used: a
 * driver with a queue per CPU asks for no more, so that no vector is
 * shared.  Any time after virtio_pci_init.
 */
u16 virtio_pci_msix_queues(struct virtio_pci *vp);

/* 3.1.1 step 8: the driver is ready; the device may use the queues. */
void virtio_pci_driver_ok(struct virtio_pci *vp);
/* 4.1.4.3.2: reset the device (bounded wait); queues and vectors stay set up. */
int virtio_pci_reset(struct virtio_pci *vp);
/* 2.1: give up on the device (sets FAILED). */
void virtio_pci_fail(struct virtio_pci *vp);
/* Reset the device, free the queues and interrupts and unmap the BARs. */
void virtio_pci_teardown(struct virtio_pci *vp);

/* The device status byte (2.1), for NEEDS_RESET checks and the report. */
u8 virtio_pci_status(struct virtio_pci *vp);

/* Tell the device queue q has new buffers (4.1.5.2). */
void virtio_pci_notify(struct virtio_pci_vq *q);

/*
 * Read @len (1, 2, 4 or 8) bytes of device configuration at @off,
 * retried until config_generation is stable (2.4.1).  0 past the end.
 */
u64 virtio_pci_cfg_read(struct virtio_pci *vp, unsigned off, unsigned len);

#endif
