/*
 * A PCI configuration space in memory for host tests: see pci_fake.h.
 */
#include <stdlib.h>
#include <string.h>
#include "tests/unit/fakes/pci_fake.h"
#include "drivers/pci/pcireg.h"

u32 pci_fake_get(const struct pci_fake_fn *fn, unsigned off, unsigned size)
{
	u32 v = 0;
	unsigned i;

	for (i = 0; i < size; i++)
		v |= (u32)fn->ff_cfg[off + i] << (8 * i);
	return v;
}

void pci_fake_set(struct pci_fake_fn *fn, unsigned off, unsigned size, u32 val)
{
	unsigned i;

	for (i = 0; i < size; i++)
		fn->ff_cfg[off + i] = (u8)(val >> (8 * i));
}

void pci_fake_wmask(struct pci_fake_fn *fn, unsigned off, unsigned size, u32 mask)
{
	unsigned i;

	for (i = 0; i < size; i++)
		fn->ff_wmask[off + i] = (u8)(mask >> (8 * i));
}

struct pci_fake_fn *pci_fake_find(struct pci_fake *f, u16 bdf)
{
	unsigned i;

	for (i = 0; i < f->pf_nfn; i++)
		if (f->pf_fn[i].ff_bdf == bdf)
			return &f->pf_fn[i];
	return NULL;
}

struct pci_fake_fn *pci_fake_add(struct pci_fake *f, u16 bdf, u16 vendor, u16 device,
				 u32 class24, u8 hdr)
{
	struct pci_fake_fn *fn;

	if (f->pf_nfn == PCI_FAKE_MAX_FN)
		abort();
	fn = &f->pf_fn[f->pf_nfn++];
	memset(fn, 0, sizeof(*fn));
	fn->ff_bdf = bdf;
	pci_fake_set(fn, PCI_VENDOR_ID, 2, vendor);
	pci_fake_set(fn, PCI_DEVICE_ID, 2, device);
	pci_fake_set(fn, PCI_REVISION_ID, 4, class24 << 8 | 0x02);
	pci_fake_set(fn, PCI_HEADER_TYPE, 1, hdr);
	pci_fake_wmask(fn, PCI_COMMAND, 2, PCI_COMMAND_IO | PCI_COMMAND_MEMORY |
		  PCI_COMMAND_MASTER | PCI_COMMAND_INTX_DISABLE);
	fn->ff_w1c[PCI_STATUS + 1] = 0xf9;	/* the error bits, 15..11 and 8 */
	pci_fake_wmask(fn, PCI_INTERRUPT_LINE, 1, 0xff);
	return fn;
}

void pci_fake_bar(struct pci_fake_fn *fn, unsigned i, u32 flags, u64 size, u64 base)
{
	unsigned off = PCI_BAR0 + 4 * i;
	u64 mask = ~(size - 1);

	if (flags & PCI_BAR_SPACE_IO) {
		/* A 16-bit decoder: the upper half reads 0 and ignores writes. */
		pci_fake_wmask(fn, off, 4, (u32)mask & 0xfffcu);
		pci_fake_set(fn, off, 4, ((u32)base & 0xfffc) | flags);
		return;
	}
	pci_fake_wmask(fn, off, 4, (u32)mask & PCI_BAR_MEM_MASK);
	pci_fake_set(fn, off, 4, ((u32)base & PCI_BAR_MEM_MASK) | flags);
	if ((flags & PCI_BAR_MEM_TYPE_MASK) == PCI_BAR_MEM_TYPE_64) {
		pci_fake_wmask(fn, off + 4, 4, (u32)(mask >> 32));
		pci_fake_set(fn, off + 4, 4, (u32)(base >> 32));
	}
}

void pci_fake_irq(struct pci_fake_fn *fn, u8 pin, u8 line)
{
	pci_fake_set(fn, PCI_INTERRUPT_PIN, 1, pin);
	pci_fake_set(fn, PCI_INTERRUPT_LINE, 1, line);
}

void pci_fake_bridge(struct pci_fake_fn *fn, u8 primary, u8 secondary, u8 subordinate)
{
	pci_fake_set(fn, PCI_PRIMARY_BUS, 1, primary);
	pci_fake_set(fn, PCI_SECONDARY_BUS, 1, secondary);
	pci_fake_set(fn, PCI_SUBORDINATE_BUS, 1, subordinate);
	pci_fake_wmask(fn, PCI_PRIMARY_BUS, 3, 0xffffff);
}

void pci_fake_cap(struct pci_fake_fn *fn, u8 off, u8 id)
{
	unsigned pos, ttl = 0;

	pci_fake_set(fn, off + PCI_CAP_LIST_ID, 1, id);
	pci_fake_set(fn, off + PCI_CAP_LIST_NEXT, 1, 0);
	if (!(pci_fake_get(fn, PCI_STATUS, 2) & PCI_STATUS_CAP_LIST)) {
		pci_fake_set(fn, PCI_STATUS, 2, pci_fake_get(fn, PCI_STATUS, 2) |
			     PCI_STATUS_CAP_LIST);
		pci_fake_set(fn, PCI_CAPABILITY_LIST, 1, off);
		return;
	}
	pos = fn->ff_cfg[PCI_CAPABILITY_LIST];
	while (fn->ff_cfg[pos + PCI_CAP_LIST_NEXT] && ttl++ < 64)
		pos = fn->ff_cfg[pos + PCI_CAP_LIST_NEXT];
	fn->ff_cfg[pos + PCI_CAP_LIST_NEXT] = off;
}

void pci_fake_msi(struct pci_fake_fn *fn, u8 off, bool is64, bool maskbit)
{
	u16 ctl = 0x0004;	/* Multiple Message Capable: 4 messages */

	pci_fake_cap(fn, off, PCI_CAP_ID_MSI);
	if (is64)
		ctl |= PCI_MSI_FLAGS_64BIT;
	if (maskbit)
		ctl |= PCI_MSI_FLAGS_MASKBIT;
	pci_fake_set(fn, off + PCI_MSI_FLAGS, 2, ctl);
	pci_fake_wmask(fn, off + PCI_MSI_FLAGS, 2, PCI_MSI_FLAGS_ENABLE | PCI_MSI_FLAGS_QSIZE);
	pci_fake_wmask(fn, off + PCI_MSI_ADDRESS_LO, 4, 0xfffffffc);
	if (is64) {
		pci_fake_wmask(fn, off + PCI_MSI_ADDRESS_HI, 4, 0xffffffff);
		pci_fake_wmask(fn, off + PCI_MSI_DATA_64, 2, 0xffff);
		if (maskbit) {
			pci_fake_wmask(fn, off + PCI_MSI_MASK_64, 4, 0x1);
			pci_fake_set(fn, off + PCI_MSI_MASK_64, 4, 1);
		}
	} else {
		pci_fake_wmask(fn, off + PCI_MSI_DATA_32, 2, 0xffff);
		if (maskbit) {
			pci_fake_wmask(fn, off + PCI_MSI_MASK_32, 4, 0x1);
			pci_fake_set(fn, off + PCI_MSI_MASK_32, 4, 1);
		}
	}
}

static u32 fake_read(void *ctx, u16 bdf, unsigned off, unsigned size)
{
	struct pci_fake *f = ctx;
	struct pci_fake_fn *fn = pci_fake_find(f, bdf);

	f->pf_reads++;
	if (off % size || off + size > 256)
		abort();	/* the core promised aligned, in-range accesses */
	if (!fn)
		return size == 4 ? 0xffffffffu : (1u << (8 * size)) - 1;
	return pci_fake_get(fn, off, size);
}

static void fake_write(void *ctx, u16 bdf, unsigned off, unsigned size, u32 val)
{
	struct pci_fake *f = ctx;
	struct pci_fake_fn *fn = pci_fake_find(f, bdf);
	unsigned i;

	if (off % size || off + size > 256)
		abort();
	if (!fn)
		return;
	if (off >= PCI_BAR0 && off < PCI_BAR0 + 4 * PCI_NUM_BARS && size == 4 &&
	    val == 0xffffffffu &&
	    (pci_fake_get(fn, PCI_COMMAND, 2) & (PCI_COMMAND_IO | PCI_COMMAND_MEMORY)))
		f->pf_hot_probes++;
	for (i = 0; i < size; i++) {
		u8 b = (u8)(val >> (8 * i)), *c = &fn->ff_cfg[off + i];

		*c = (u8)((*c & ~fn->ff_wmask[off + i]) | (b & fn->ff_wmask[off + i]));
		*c &= (u8)~(b & fn->ff_w1c[off + i]);
	}
}

const struct pci_cfg_ops pci_fake_ops = {
	.name = "fake",
	.read = fake_read,
	.write = fake_write,
};
