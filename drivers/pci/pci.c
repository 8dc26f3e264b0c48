/*
 * PCI core: enumeration, BAR decoding, capabilities, MSI programming and
 * the driver registry.  Bus-neutral and portable: configuration space is
 * reached only through the host's pci_cfg_ops, so host tests run all of
 * this over a fake configuration space (tests/unit/fakes/pci_fake.c).
 *
 * Enumeration (PCI 3.0 6.1, PCI-to-PCI Bridge 1.2 3.2) walks bus 0, every
 * device, and every function of a multi-function device, and descends
 * through each PCI-to-PCI bridge to the secondary bus the firmware
 * programmed.  The walk is bounded: each bus is scanned at most once (a
 * bridge pointing back at a visited bus is reported and skipped) and
 * bridges nest at most PCI_MAX_DEPTH deep.  Nothing is renumbered.
 *
 * BAR sizes come from the write-all-ones probe (6.2.5.1) with I/O and
 * memory decode turned off around it, so that a half-written BAR never
 * claims someone else's addresses.
 *
 * Matching is data: each driver's id table against each function.  See
 * pci.h for the probe contract and the lock legend.
 */
#include "drivers/pci/pci.h"
#include "drivers/pci/pcireg.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/mm/slab.h"
#include "lib/bitmap.h"
#include "lib/string.h"

#define PCI_D_SCAN	0x01
#define PCI_D_BIND	0x02

#define PCI_MAX_DEPTH	16	/* bridges below bridges; real machines use < 8 */
#define PCI_CAP_TTL	48	/* (256 - 64) / 4: more entries means a loop */
#define PCI_IO_SPACE_END	0x10000	/* x86 I/O ports are 16-bit: 64 KiB */

/* Raw configuration access by bdf, for functions not yet in the list. */
static u32 cfg_read(struct pci_host *host, u16 bdf, unsigned off, unsigned size)
{
	KASSERT(off < PCI_CFG_SIZE && off % size == 0);
	return host->ph_ops->read(host->ph_ctx, bdf, off, size);
}

static void cfg_write(struct pci_host *host, u16 bdf, unsigned off, unsigned size, u32 val)
{
	KASSERT(off < PCI_CFG_SIZE && off % size == 0);
	host->ph_ops->write(host->ph_ctx, bdf, off, size, val);
}

/*
 * Configuration access for one function: off below 256 and aligned to the
 * access size.  Any context; the host's ops serialise the hardware.
 */
u8 pci_read8(const struct pci_dev *dev, unsigned off)
{
	return (u8)cfg_read(dev->pd_host, dev->pd_bdf, off, 1);
}

u16 pci_read16(const struct pci_dev *dev, unsigned off)
{
	return (u16)cfg_read(dev->pd_host, dev->pd_bdf, off, 2);
}

u32 pci_read32(const struct pci_dev *dev, unsigned off)
{
	return cfg_read(dev->pd_host, dev->pd_bdf, off, 4);
}

void pci_write8(struct pci_dev *dev, unsigned off, u8 val)
{
	cfg_write(dev->pd_host, dev->pd_bdf, off, 1, val);
}

void pci_write16(struct pci_dev *dev, unsigned off, u16 val)
{
	cfg_write(dev->pd_host, dev->pd_bdf, off, 2, val);
}

void pci_write32(struct pci_dev *dev, unsigned off, u32 val)
{
	cfg_write(dev->pd_host, dev->pd_bdf, off, 4, val);
}

/*
 * Set and clear Command register bits (6.2.2).  A 16-bit write, so the
 * Status register next to it, whose error bits are write-1-to-clear, is
 * never touched.
 */
void pci_set_command(struct pci_dev *dev, u16 set, u16 clear)
{
	u16 cmd = pci_read16(dev, PCI_COMMAND);

	pci_write16(dev, PCI_COMMAND, (u16)((cmd & ~clear) | set));
}

/**
 * pci_bar_ioport - the I/O port range of an I/O BAR
 * @dev: the function; @bar: BAR index
 * @port, @len: the range on success
 *
 * Returns 0; -EINVAL for a BAR that is not I/O; -ENXIO when firmware left
 * it unassigned (base 0) or it lies beyond the 64 KiB x86 port space.
 */
int pci_bar_ioport(const struct pci_dev *dev, unsigned bar, u16 *port, u32 *len)
{
	const struct pci_bar *b;

	if (bar >= ARRAY_SIZE(dev->pd_bar) || dev->pd_bar[bar].pb_type != PCI_BAR_IO)
		return -EINVAL;
	b = &dev->pd_bar[bar];
	if (b->pb_base == 0 || b->pb_base + b->pb_size > PCI_IO_SPACE_END)
		return -ENXIO;
	*port = (u16)b->pb_base;
	*len = (u32)b->pb_size;
	return 0;
}

/*
 * Offset of the first capability with this ID (6.7), or 0.  Bounded: a
 * list that loops, points into the header, or runs past PCI_CAP_TTL
 * entries ends the walk.
 */
int pci_find_cap(const struct pci_dev *dev, u8 cap_id)
{
	unsigned pos, ttl;

	if (!(pci_read16(dev, PCI_STATUS) & PCI_STATUS_CAP_LIST))
		return 0;
	if (dev->pd_hdr_type == PCI_HEADER_TYPE_CARDBUS)
		return 0;	/* its list pointer lives elsewhere; none used here */
	pos = pci_read8(dev, PCI_CAPABILITY_LIST);
	for (ttl = 0; ttl < PCI_CAP_TTL; ttl++) {
		u8 id;

		pos &= ~3u;
		if (pos < PCI_STD_HEADER_END)
			return 0;
		id = pci_read8(dev, pos + PCI_CAP_LIST_ID);
		if (id == 0xff)
			return 0;	/* reads of a vanished function */
		if (id == cap_id)
			return (int)pos;
		pos = pci_read8(dev, pos + PCI_CAP_LIST_NEXT);
	}
	DPRINTF(PCI_D_SCAN, "pci %02x:%02x.%u: capability list loops\n",
		PCI_BDF_BUS(dev->pd_bdf), PCI_BDF_DEV(dev->pd_bdf), PCI_BDF_FN(dev->pd_bdf));
	return 0;
}

/**
 * pci_msi_program - point a function's MSI capability at addr/data and enable it
 * @dev: the function; must have an MSI capability (pd_msi_cap)
 * @addr: Message Address (the local APIC's window on x86)
 * @data: Message Data (the vector)
 *
 * Programs a single message (Multiple Message Enable = 0, 6.8.1.3), unmasks
 * it when per-vector masking exists, enables MSI and disables INTx.
 * Returns 0, -ENODEV without the capability, -ERANGE for an address above
 * 4 GiB on a 32-bit-only capability.
 */
int pci_msi_program(struct pci_dev *dev, u64 addr, u16 data)
{
	unsigned cap = dev->pd_msi_cap;
	u16 ctl;
	bool is64;

	if (!cap)
		return -ENODEV;
	ctl = pci_read16(dev, cap + PCI_MSI_FLAGS);
	is64 = ctl & PCI_MSI_FLAGS_64BIT;
	if ((addr >> 32) && !is64)
		return -ERANGE;

	/* Off while the address and data are half-written. */
	ctl &= (u16)~(PCI_MSI_FLAGS_ENABLE | PCI_MSI_FLAGS_QSIZE);
	pci_write16(dev, cap + PCI_MSI_FLAGS, ctl);
	pci_write32(dev, cap + PCI_MSI_ADDRESS_LO, (u32)addr);
	if (is64) {
		pci_write32(dev, cap + PCI_MSI_ADDRESS_HI, (u32)(addr >> 32));
		pci_write16(dev, cap + PCI_MSI_DATA_64, data);
	} else {
		pci_write16(dev, cap + PCI_MSI_DATA_32, data);
	}
	if (ctl & PCI_MSI_FLAGS_MASKBIT)
		pci_write32(dev, cap + (is64 ? PCI_MSI_MASK_64 : PCI_MSI_MASK_32), 0);
	pci_write16(dev, cap + PCI_MSI_FLAGS, ctl | PCI_MSI_FLAGS_ENABLE);
	pci_set_command(dev, PCI_COMMAND_INTX_DISABLE, 0);
	return 0;
}

/* Turn MSI off and let the function use INTx again. */
void pci_msi_disable(struct pci_dev *dev)
{
	unsigned cap = dev->pd_msi_cap;
	u16 ctl;

	if (!cap)
		return;
	ctl = pci_read16(dev, cap + PCI_MSI_FLAGS);
	pci_write16(dev, cap + PCI_MSI_FLAGS, ctl & (u16)~PCI_MSI_FLAGS_ENABLE);
	pci_set_command(dev, 0, PCI_COMMAND_INTX_DISABLE);
}

static bool orig_is_64(u32 bar)
{
	return !(bar & PCI_BAR_SPACE_IO) &&
	       (bar & PCI_BAR_MEM_TYPE_MASK) == PCI_BAR_MEM_TYPE_64;
}

/*
 * Size BAR i by the all-ones probe; returns how many BAR slots it used
 * (2 for a 64-bit memory BAR, else 1).  Decode must be off (caller).
 */
static unsigned decode_bar(struct pci_dev *dev, unsigned i, unsigned nbars)
{
	struct pci_bar *b = &dev->pd_bar[i];
	unsigned off = PCI_BAR0 + 4 * i;
	u32 orig, probe, orig_hi = 0, probe_hi = 0;
	u64 mask;

	orig = pci_read32(dev, off);
	pci_write32(dev, off, ~0u);
	probe = pci_read32(dev, off);
	pci_write32(dev, off, orig);
	if (probe == 0 || probe == ~0u)
		return 1;	/* unimplemented (or a function that stopped answering) */

	if (orig & PCI_BAR_SPACE_IO) {
		/* A 16-bit decoder reads its upper half as 0: only the low bit counts. */
		mask = probe & PCI_BAR_IO_MASK;
		b->pb_type = PCI_BAR_IO;
		b->pb_base = orig & PCI_BAR_IO_MASK;
	} else if (orig_is_64(orig)) {
		if (i + 1 >= nbars) {
			DPRINTF(PCI_D_SCAN, "pci: 64-bit BAR%u has no upper half\n", i);
			return 1;
		}
		orig_hi = pci_read32(dev, off + 4);
		pci_write32(dev, off + 4, ~0u);
		probe_hi = pci_read32(dev, off + 4);
		pci_write32(dev, off + 4, orig_hi);
		mask = ((u64)probe_hi << 32) | (probe & PCI_BAR_MEM_MASK);
		b->pb_type = PCI_BAR_MEM64;
		b->pb_base = ((u64)orig_hi << 32) | (orig & PCI_BAR_MEM_MASK);
		b->pb_prefetch = orig & PCI_BAR_MEM_PREFETCH;
	} else {
		/* 32-bit, or the obsolete below-1MiB type, which decodes alike. */
		mask = probe & PCI_BAR_MEM_MASK;
		b->pb_type = PCI_BAR_MEM32;
		b->pb_base = orig & PCI_BAR_MEM_MASK;
		b->pb_prefetch = orig & PCI_BAR_MEM_PREFETCH;
	}
	/*
	 * The size is the lowest writable address bit (6.2.5.1).  Not
	 * ~mask + 1: top address bits may be hardwired to 0 (a 16-bit I/O
	 * decoder, a 64-bit BAR of a device that decodes only 36 bits).
	 */
	b->pb_size = mask & (~mask + 1);
	if (!b->pb_size) {
		DPRINTF(PCI_D_SCAN, "pci: BAR%u has no writable address bit\n", i);
		memset(b, 0, sizeof(*b));
	}
	return orig_is_64(orig) ? 2 : 1;
}

static void decode_bars(struct pci_dev *dev)
{
	unsigned i, nbars;
	u16 cmd;

	switch (dev->pd_hdr_type) {
	case PCI_HEADER_TYPE_NORMAL:
		nbars = PCI_NUM_BARS;
		break;
	case PCI_HEADER_TYPE_BRIDGE:
		nbars = PCI_BRIDGE_BAR_COUNT;
		break;
	default:
		return;
	}
	cmd = pci_read16(dev, PCI_COMMAND);
	if (cmd & (PCI_COMMAND_IO | PCI_COMMAND_MEMORY))
		pci_write16(dev, PCI_COMMAND, cmd & (u16)~(PCI_COMMAND_IO | PCI_COMMAND_MEMORY));
	for (i = 0; i < nbars; )
		i += decode_bar(dev, i, nbars);
	if (cmd & (PCI_COMMAND_IO | PCI_COMMAND_MEMORY))
		pci_write16(dev, PCI_COMMAND, cmd);
}

/* An ID pair that no function has: absent, or a bus that floats. */
static bool vendor_absent(u16 vendor)
{
	return vendor == PCI_VENDOR_NONE || vendor == 0x0000;
}

/* Read one function's header into a new pci_dev; NULL when out of memory. */
static struct pci_dev *add_function(struct pci_host *host, u16 bdf, struct pci_dev *parent)
{
	struct pci_dev *dev;
	unsigned long flags;
	u32 classrev;

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return NULL;
	dev->pd_host = host;
	dev->pd_parent = parent;
	dev->pd_bdf = bdf;
	dev->pd_irq = -1;
	dev->pd_vendor = pci_read16(dev, PCI_VENDOR_ID);
	dev->pd_device = pci_read16(dev, PCI_DEVICE_ID);
	classrev = pci_read32(dev, PCI_REVISION_ID);
	dev->pd_revision = (u8)classrev;
	dev->pd_progif = (u8)(classrev >> 8);
	dev->pd_subclass = (u8)(classrev >> 16);
	dev->pd_class = (u8)(classrev >> 24);
	dev->pd_hdr_type = pci_read8(dev, PCI_HEADER_TYPE) & PCI_HEADER_TYPE_MASK;
	dev->pd_irq_line = pci_read8(dev, PCI_INTERRUPT_LINE);
	dev->pd_irq_pin = pci_read8(dev, PCI_INTERRUPT_PIN);
	if (dev->pd_irq_pin > 4)
		dev->pd_irq_pin = 0;	/* reserved values: treat as no pin */
	if (dev->pd_hdr_type == PCI_HEADER_TYPE_NORMAL) {
		dev->pd_subvendor = pci_read16(dev, PCI_SUBSYSTEM_VENDOR_ID);
		dev->pd_subdevice = pci_read16(dev, PCI_SUBSYSTEM_ID);
	} else if (dev->pd_hdr_type == PCI_HEADER_TYPE_BRIDGE) {
		dev->pd_secondary = pci_read8(dev, PCI_SECONDARY_BUS);
		dev->pd_subordinate = pci_read8(dev, PCI_SUBORDINATE_BUS);
	}
	decode_bars(dev);
	dev->pd_msi_cap = (u8)pci_find_cap(dev, PCI_CAP_ID_MSI);
	dev->pd_msix_cap = (u8)pci_find_cap(dev, PCI_CAP_ID_MSIX);

	spin_lock_irqsave(&host->ph_lock, flags);
	list_add_tail(&dev->pd_link, &host->ph_devices);
	host->ph_ndevs++;
	spin_unlock_irqrestore(&host->ph_lock, flags);
	DPRINTF(PCI_D_SCAN, "pci %02x:%02x.%u %04x:%04x class %02x%02x%02x\n",
		PCI_BDF_BUS(bdf), PCI_BDF_DEV(bdf), PCI_BDF_FN(bdf), dev->pd_vendor,
		dev->pd_device, dev->pd_class, dev->pd_subclass, dev->pd_progif);
	return dev;
}

struct scan_state {
	struct pci_host	*ss_host;
	u32		ss_seen[BITMAP_WORDS(PCI_MAX_BUS)];	/* buses already scanned */
	int		ss_err;				/* first allocation failure */
};

/*
 * Scan one bus and, through bridges, the buses below it.  Recursion is on
 * hardware topology, capped by PCI_MAX_DEPTH and by ss_seen (a bus is
 * entered once), so at most 256 frames can exist and in practice < 8.
 */
static void scan_bus(struct scan_state *ss, u8 bus, struct pci_dev *parent, unsigned depth)
{
	struct pci_host *host = ss->ss_host;
	unsigned d, f, nfn;

	bitmap_set(ss->ss_seen, bus);
	for (d = 0; d < PCI_MAX_DEV; d++) {
		u16 bdf0 = PCI_BDF(bus, d, 0);

		if (vendor_absent((u16)cfg_read(host, bdf0, PCI_VENDOR_ID, 2)))
			continue;
		nfn = cfg_read(host, bdf0, PCI_HEADER_TYPE, 1) & PCI_HEADER_TYPE_MULTIFN ?
			PCI_MAX_FN : 1;
		for (f = 0; f < nfn; f++) {
			u16 bdf = PCI_BDF(bus, d, f);
			struct pci_dev *dev;
			u8 sec;

			if (vendor_absent((u16)cfg_read(host, bdf, PCI_VENDOR_ID, 2)))
				continue;
			dev = add_function(host, bdf, parent);
			if (!dev) {
				ss->ss_err = -ENOMEM;
				return;
			}
			if (dev->pd_hdr_type != PCI_HEADER_TYPE_BRIDGE)
				continue;
			sec = dev->pd_secondary;
			if (sec <= bus || bitmap_test(ss->ss_seen, sec) ||
			    depth + 1 >= PCI_MAX_DEPTH) {
				pr_warn("pci %02x:%02x.%u: bridge to bus %02x not followed"
					" (unassigned, loop or too deep)\n", bus, d, f, sec);
				continue;
			}
			scan_bus(ss, sec, dev, depth + 1);
			if (ss->ss_err)
				return;
		}
	}
}

/* Does id match dev?  Every field is the value or PCI_ANY_ID. */
static bool id_matches(const struct pci_device_id *id, const struct pci_dev *dev)
{
	return (id->pid_vendor == PCI_ANY_ID || id->pid_vendor == dev->pd_vendor) &&
	       (id->pid_device == PCI_ANY_ID || id->pid_device == dev->pd_device) &&
	       (id->pid_class == PCI_ANY_ID || id->pid_class == dev->pd_class) &&
	       (id->pid_subclass == PCI_ANY_ID || id->pid_subclass == dev->pd_subclass) &&
	       (id->pid_progif == PCI_ANY_ID || id->pid_progif == dev->pd_progif);
}

/* The first entry of a zero-terminated table that matches dev, or NULL. */
const struct pci_device_id *pci_match_id(const struct pci_device_id *ids,
					 const struct pci_dev *dev)
{
	for (; ids && ids->pid_vendor; ids++)
		if (id_matches(ids, dev))
			return ids;
	return NULL;
}

/*
 * Offer an unbound dev to drv.  The binding is claimed under the host
 * lock and probe runs without it (probe may wait for the device).
 * Returns 0 when bound, -ENODEV when not, or probe's error.
 */
static int try_bind(struct pci_host *host, struct pci_dev *dev, const struct pci_driver *drv)
{
	const struct pci_device_id *id = pci_match_id(drv->id_table, dev);
	unsigned long flags;
	int err;

	if (!id)
		return -ENODEV;
	spin_lock_irqsave(&host->ph_lock, flags);
	if (dev->pd_driver) {
		spin_unlock_irqrestore(&host->ph_lock, flags);
		return -EBUSY;
	}
	dev->pd_driver = drv;
	spin_unlock_irqrestore(&host->ph_lock, flags);

	err = drv->probe(dev, id);
	if (err) {
		spin_lock_irqsave(&host->ph_lock, flags);
		dev->pd_driver = NULL;
		spin_unlock_irqrestore(&host->ph_lock, flags);
		if (err != -ENODEV)
			pr_err("pci %02x:%02x.%u: %s: probe failed: %s\n",
			       PCI_BDF_BUS(dev->pd_bdf), PCI_BDF_DEV(dev->pd_bdf),
			       PCI_BDF_FN(dev->pd_bdf), drv->name, errstr(err));
	}
	DPRINTF(PCI_D_BIND, "pci: %s probe of %04x -> %d\n", drv->name, dev->pd_bdf, err);
	return err;
}

/* Offer dev to each registered driver, in registration order. */
static void bind_device(struct pci_host *host, struct pci_dev *dev)
{
	unsigned i;

	for (i = 0; i < host->ph_ndrivers && !dev->pd_driver; i++)
		try_bind(host, dev, host->ph_drivers[i]);
}

/**
 * pci_host_init - prepare an empty host over a configuration space
 * @host: caller-owned, lives as long as its devices
 * @ops: configuration access; @ctx: its context
 */
void pci_host_init(struct pci_host *host, const struct pci_cfg_ops *ops, void *ctx)
{
	memset(host, 0, sizeof(*host));
	host->ph_ops = ops;
	host->ph_ctx = ctx;
	spin_lock_init(&host->ph_lock, "pci_host");
	INIT_LIST_HEAD(&host->ph_devices);
}

/**
 * pci_scan - enumerate every function of the host, then bind drivers
 * @host: an initialised host, not yet scanned
 *
 * Returns the number of functions found, -EBUSY if already scanned, or
 * -ENOMEM (what was found before the failure stays listed).  Boot context:
 * scanning and driver registration run one at a time.
 */
int pci_scan(struct pci_host *host)
{
	struct scan_state ss;
	struct pci_dev *dev;

	if (host->ph_ndevs)
		return -EBUSY;
	memset(&ss, 0, sizeof(ss));
	ss.ss_host = host;
	scan_bus(&ss, 0, NULL, 0);
	list_for_each_entry(dev, &host->ph_devices, pd_link)
		bind_device(host, dev);
	return ss.ss_err ? ss.ss_err : (int)host->ph_ndevs;
}

/**
 * pci_host_add_driver - register a driver and offer it every unbound function
 * @host: the host; @drv: lives forever (drivers are static const)
 *
 * Returns 0, -EEXIST if registered already, -ENOSPC past PCI_MAX_DRIVERS.
 * Probe failures are reported by try_bind and do not fail registration.
 */
int pci_host_add_driver(struct pci_host *host, const struct pci_driver *drv)
{
	struct pci_dev *dev;
	unsigned long flags;
	unsigned i;

	KASSERT(drv->probe && drv->name);
	spin_lock_irqsave(&host->ph_lock, flags);
	for (i = 0; i < host->ph_ndrivers; i++) {
		if (host->ph_drivers[i] == drv) {
			spin_unlock_irqrestore(&host->ph_lock, flags);
			return -EEXIST;
		}
	}
	if (host->ph_ndrivers == PCI_MAX_DRIVERS) {
		spin_unlock_irqrestore(&host->ph_lock, flags);
		return -ENOSPC;
	}
	host->ph_drivers[host->ph_ndrivers++] = drv;
	spin_unlock_irqrestore(&host->ph_lock, flags);

	list_for_each_entry(dev, &host->ph_devices, pd_link)
		if (!dev->pd_driver)
			try_bind(host, dev, drv);
	return 0;
}

/* The function at bdf, or NULL. */
struct pci_dev *pci_find_bdf(struct pci_host *host, u16 bdf)
{
	struct pci_dev *dev, *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&host->ph_lock, flags);
	list_for_each_entry(dev, &host->ph_devices, pd_link) {
		if (dev->pd_bdf == bdf) {
			found = dev;
			break;
		}
	}
	spin_unlock_irqrestore(&host->ph_lock, flags);
	return found;
}

/* Unbind (remove hooks) and free every function; the host can be rescanned. */
void pci_host_destroy(struct pci_host *host)
{
	struct pci_dev *dev, *t;

	list_for_each_entry_safe(dev, t, &host->ph_devices, pd_link) {
		if (dev->pd_driver && dev->pd_driver->remove)
			dev->pd_driver->remove(dev);
		list_del(&dev->pd_link);
		kfree(dev);
	}
	host->ph_ndevs = 0;
	host->ph_ndrivers = 0;
}
