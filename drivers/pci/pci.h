/*
 * PCI: the contract between the PCI core, the code that reaches
 * configuration space, and the drivers of PCI functions.
 *
 * A pci_host owns one configuration space, reached through a small ops
 * table (mechanism #1 port I/O in the kernel, a fake in host tests), the
 * list of functions found by pci_scan(), and the drivers registered with
 * it.  After enumeration and at every registration the core matches each
 * unbound function against each driver's id table, in registration
 * order, and calls probe(); a probe that returns -ENODEV declines, any
 * other error is reported once and leaves the function unbound.
 *
 * Drivers register themselves from an initcall, so no central list names
 * them:
 *
 *	static const struct pci_device_id ahci_ids[] = {
 *		{ PCI_DEVICE_CLASS(0x01, 0x06, 0x01) },
 *		{ 0 }
 *	};
 *	static const struct pci_driver ahci_driver = {
 *		.name = "ahci", .id_table = ahci_ids, .probe = ahci_probe,
 *	};
 *	static int ahci_init(void) { return pci_register_driver(&ahci_driver); }
 *	device_initcall(ahci_init);
 *
 * Locks: [I] set during enumeration, read-only after; [h] ph_lock of the
 * host (registry: the device list, driver table and bindings); [d] the
 * bound driver's (it serialises its own use of the function).
 */
#ifndef DRIVERS_PCI_PCI_H
#define DRIVERS_PCI_PCI_H

#include "kernel/spinlock.h"
#include "lib/list.h"

#define PCI_ANY_ID		(~0u)
#define PCI_MAX_DRIVERS		16

/* bus:dev.fn packed as in mechanism #1 and in Linux: bus << 8 | dev << 3 | fn */
#define PCI_BDF(b, d, f)	((u16)(((b) << 8) | ((d) << 3) | (f)))
#define PCI_BDF_BUS(bdf)	((u8)((bdf) >> 8))
#define PCI_BDF_DEV(bdf)	((u8)(((bdf) >> 3) & 0x1f))
#define PCI_BDF_FN(bdf)		((u8)((bdf) & 0x7))

/*
 * Configuration-space access.  off is below 256 and aligned to size
 * (1, 2 or 4); the core never asks otherwise.  A read of an absent
 * function returns all ones.  The ops serialise themselves.
 */
struct pci_cfg_ops {
	const char	*name;
	u32		(*read)(void *ctx, u16 bdf, unsigned off, unsigned size);
	void		(*write)(void *ctx, u16 bdf, unsigned off, unsigned size, u32 val);
};

enum pci_bar_type {
	PCI_BAR_NONE = 0,	/* unimplemented, or the upper half of a 64-bit BAR */
	PCI_BAR_IO,
	PCI_BAR_MEM32,
	PCI_BAR_MEM64,
};

struct pci_bar {
	u64		pb_base;	/* [I] bus address as firmware assigned it */
	u64		pb_size;	/* [I] bytes decoded, a power of two */
	u8		pb_type;	/* [I] enum pci_bar_type */
	bool		pb_prefetch;	/* [I] memory BAR marked prefetchable */
};

struct pci_host;
struct pci_driver;

struct pci_dev {
	struct list_head	pd_link;	/* [h] on ph_devices, in scan order */
	struct pci_host		*pd_host;	/* [I] */
	struct pci_dev		*pd_parent;	/* [I] bridge above, NULL on bus 0 */
	u16			pd_bdf;		/* [I] PCI_BDF() */
	u16			pd_vendor;	/* [I] */
	u16			pd_device;	/* [I] */
	u16			pd_subvendor;	/* [I] type 0 headers only */
	u16			pd_subdevice;	/* [I] */
	u8			pd_class;	/* [I] base class */
	u8			pd_subclass;	/* [I] */
	u8			pd_progif;	/* [I] programming interface */
	u8			pd_revision;	/* [I] */
	u8			pd_hdr_type;	/* [I] without the multi-function bit */
	u8			pd_irq_pin;	/* [I] 0 none, 1..4 INTA#..INTD# */
	u8			pd_irq_line;	/* [I] firmware's Interrupt Line */
	u8			pd_msi_cap;	/* [I] MSI capability offset, 0 none */
	u8			pd_msix_cap;	/* [I] MSI-X capability offset, 0 none */
	u8			pd_secondary;	/* [I] bridges: secondary bus */
	u8			pd_subordinate;	/* [I] bridges: subordinate bus */
	struct pci_bar		pd_bar[6];	/* [I] decoded BARs (2 for bridges) */
	int			pd_irq;		/* [d] kernel IRQ in use, -1 none */
	bool			pd_msi_on;	/* [d] MSI enabled by pci_enable_msi */
	u16			pd_msix_nvec;	/* [d] MSI-X entries in use, 0: MSI-X off */
	volatile u8		*pd_msix_table;	/* [d] mapping of those entries */
	const struct pci_driver	*pd_driver;	/* [h] bound driver, NULL none */
	void			*pd_drvdata;	/* [d] the bound driver's softc */
};

/*
 * A match entry: every field is a value or PCI_ANY_ID.  A table ends with
 * an all-zero entry.  pid_data is for the driver (quirk flags).
 */
struct pci_device_id {
	u32		pid_vendor;
	u32		pid_device;
	u32		pid_class;
	u32		pid_subclass;
	u32		pid_progif;
	unsigned long	pid_data;
};

#define PCI_DEVICE(v, d) \
	.pid_vendor = (v), .pid_device = (d), .pid_class = PCI_ANY_ID, \
	.pid_subclass = PCI_ANY_ID, .pid_progif = PCI_ANY_ID
#define PCI_DEVICE_CLASS(c, s, p) \
	.pid_vendor = PCI_ANY_ID, .pid_device = PCI_ANY_ID, .pid_class = (c), \
	.pid_subclass = (s), .pid_progif = (p)

struct pci_driver {
	const char			*name;
	const struct pci_device_id	*id_table;
	/* 0: bound; -ENODEV: not mine; other: failed (probe says why). */
	int				(*probe)(struct pci_dev *dev,
						 const struct pci_device_id *id);
	void				(*remove)(struct pci_dev *dev);	/* optional */
};

/*
 * The chipset's INTx routing, where it can be read (pci_ich.c: Intel
 * ICH6 and later): for each device number on bus 0 that has a route
 * register, the PIRQ each of its pins INTA#-INTD# drives.  In I/O APIC
 * mode PIRQ n arrives on GSI ir_gsi_base + n, level-triggered, active
 * low; ir_apic_only() then detaches it from the 8259.
 */
struct pci_intx_routes {
	struct pci_dev	*ir_router;	/* [I] the PIRQ router (LPC bridge), NULL: no table */
	const char	*ir_why;	/* [I] why there is no table, for the boot lines */
	u32		ir_known;	/* [I] bit d: device d's pins are in ir_pirq[d] */
	u8		ir_pirq[32][4];	/* [I] [device][pin - 1] -> PIRQ, 0 = PIRQA */
	u32		ir_gsi_base;	/* [I] */
	void		(*ir_apic_only)(struct pci_dev *router, unsigned pirq);	/* [I] */
};

struct pci_host {
	const struct pci_cfg_ops	*ph_ops;	/* [I] */
	void				*ph_ctx;	/* [I] ops' context */
	spinlock_t			ph_lock;
	struct list_head		ph_devices;	/* [h] struct pci_dev */
	unsigned			ph_ndevs;	/* [h] */
	const struct pci_driver		*ph_drivers[PCI_MAX_DRIVERS];	/* [h] */
	unsigned			ph_ndrivers;	/* [h] */
	struct pci_intx_routes		ph_intx;	/* [I] read once after the scan */
};

/* pci.c: enumeration, registry and matching. */
void pci_host_init(struct pci_host *host, const struct pci_cfg_ops *ops, void *ctx);
int pci_scan(struct pci_host *host);
int pci_host_add_driver(struct pci_host *host, const struct pci_driver *drv);
void pci_host_destroy(struct pci_host *host);
const struct pci_device_id *pci_match_id(const struct pci_device_id *ids,
					 const struct pci_dev *dev);
struct pci_dev *pci_find_bdf(struct pci_host *host, u16 bdf);

/* pci.c: configuration access for one function. */
u8 pci_read8(const struct pci_dev *dev, unsigned off);
u16 pci_read16(const struct pci_dev *dev, unsigned off);
u32 pci_read32(const struct pci_dev *dev, unsigned off);
void pci_write8(struct pci_dev *dev, unsigned off, u8 val);
void pci_write16(struct pci_dev *dev, unsigned off, u16 val);
void pci_write32(struct pci_dev *dev, unsigned off, u32 val);

/* pci.c: command register, BARs, capabilities, MSI programming. */
void pci_set_command(struct pci_dev *dev, u16 set, u16 clear);
int pci_bar_ioport(const struct pci_dev *dev, unsigned bar, u16 *port, u32 *len);
int pci_find_cap(const struct pci_dev *dev, u8 cap_id);
int pci_msi_program(struct pci_dev *dev, u64 addr, u16 data);
void pci_msi_disable(struct pci_dev *dev);

/* pci_class.c: names and the lspci line. */
const char *pci_class_name(u8 cls, u8 subclass, u8 progif);
int pci_format_dev(const struct pci_dev *dev, char *buf, size_t size);
int pci_format_bar(const struct pci_bar *bar, unsigned idx, char *buf, size_t size);

/* pci_ich.c: the Intel ICH/PCH INTx route registers. */
struct pci_dev *pci_ich_router(struct pci_host *host, phys_addr_t *rcba);
int pci_ich_read_routes(struct pci_host *host, struct pci_dev *lpc, const volatile void *dir);

/* pci_x86.c (kernel only): the system's host, behind mechanism #1. */
extern struct pci_host pci_sys;
int pci_register_driver(const struct pci_driver *drv);
void *pci_map_bar(struct pci_dev *dev, unsigned bar);

/* pci_irq.c (kernel only): interrupts for a function. */
int pci_intx_irq(struct pci_dev *dev);
int pci_enable_msi(struct pci_dev *dev);
void pci_disable_msi(struct pci_dev *dev);

/*
 * pci_msix.c (kernel only; host-tested with a fake ioremap): MSI-X, one
 * IRQ per table entry.  A driver with several queues asks for a vector
 * each and gives each its own context through request_irq(irqs[i],
 * handler, ctx_i, name).
 */
int pci_msix_count(const struct pci_dev *dev);
int pci_enable_msix(struct pci_dev *dev, int *irqs, unsigned nvec);
void pci_msix_mask(struct pci_dev *dev, unsigned entry);
void pci_msix_unmask(struct pci_dev *dev, unsigned entry);
void pci_disable_msix(struct pci_dev *dev);

#endif
