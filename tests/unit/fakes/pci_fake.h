/*
 * pci_fake.c: a PCI configuration space in memory, behind pci_cfg_ops,
 * for host tests of the PCI core.  Each function has 256 config bytes, a
 * per-bit write mask (BAR size bits read back as zero, as hardware does)
 * and write-1-to-clear bits (Status).  The fake counts BAR size probes
 * made while decode was on, which the core must never do.
 */
#ifndef TESTS_UNIT_FAKES_PCI_FAKE_H
#define TESTS_UNIT_FAKES_PCI_FAKE_H

#include "drivers/pci/pci.h"

#define PCI_FAKE_MAX_FN	64

struct pci_fake_fn {
	u16	ff_bdf;
	u8	ff_cfg[256];
	u8	ff_wmask[256];	/* 1: bit is writable */
	u8	ff_w1c[256];	/* 1: writing 1 clears the bit */
};

struct pci_fake {
	struct pci_fake_fn	pf_fn[PCI_FAKE_MAX_FN];
	unsigned		pf_nfn;
	unsigned		pf_hot_probes;	/* all-ones BAR writes with decode on */
	unsigned		pf_reads;
};

extern const struct pci_cfg_ops pci_fake_ops;

/* class24 is class << 16 | subclass << 8 | prog-if; hdr includes bit 7. */
struct pci_fake_fn *pci_fake_add(struct pci_fake *f, u16 bdf, u16 vendor, u16 device,
				 u32 class24, u8 hdr);
struct pci_fake_fn *pci_fake_find(struct pci_fake *f, u16 bdf);
/* flags: PCI_BAR_SPACE_IO, or memory type/prefetch bits; io16: 16-bit decoder. */
void pci_fake_bar(struct pci_fake_fn *fn, unsigned i, u32 flags, u64 size, u64 base);
void pci_fake_irq(struct pci_fake_fn *fn, u8 pin, u8 line);
void pci_fake_bridge(struct pci_fake_fn *fn, u8 primary, u8 secondary, u8 subordinate);
/* Append a capability at off, linked after the last one added. */
void pci_fake_cap(struct pci_fake_fn *fn, u8 off, u8 id);
/* An MSI capability at off; is64 and maskbit pick its layout. */
void pci_fake_msi(struct pci_fake_fn *fn, u8 off, bool is64, bool maskbit);
u32 pci_fake_get(const struct pci_fake_fn *fn, unsigned off, unsigned size);
void pci_fake_set(struct pci_fake_fn *fn, unsigned off, unsigned size, u32 val);
/* Which bits of a register the function lets software write (default: none). */
void pci_fake_wmask(struct pci_fake_fn *fn, unsigned off, unsigned size, u32 mask);

#endif
