/*
 * ACPI static tables: RSDP discovery, RSDT/XSDT walk, MADT parsing, and
 * the ISA IRQ routing the MADT's overrides describe.  Portable code: all
 * physical memory is reached through a struct acpi_mem (kernel/acpi.h),
 * so host tests run it over fake memory.
 *
 * Discovery (ACPI 6.5 5.2.5.1): the RSDP sits on a 16-byte boundary in the
 * first KiB of the EBDA (segment in the BIOS data area word at 40Eh) or in
 * the BIOS area E0000h-FFFFFh.  UEFI machines hand it over through the
 * boot loader instead (multiboot2 tags 14/15), which boot_info does not
 * carry yet: on those the search may come up empty and we stay on the PIC.
 *
 * Every table is loaded as a checked private copy (kmalloc): signature,
 * length within ACPI_MAX_TABLE_LEN, checksum.  The RSDT/XSDT walk is
 * capped at ACPI_MAX_SDT_ENTRIES; the MADT walk is bounded by the table
 * length, and an entry that is too short, runs past the end or says
 * something we cannot use is counted in mi_dropped, never trusted.
 */
#include "kernel/acpi.h"
#include "kernel/errno.h"
#include "kernel/mm/slab.h"
#include "lib/byteorder.h"
#include "lib/string.h"

#define ACPI_BDA_EBDA_SEG	0x40e		/* BIOS data area: EBDA segment */
#define ACPI_EBDA_SEARCH_LEN	1024
#define ACPI_EBDA_LOW		0x80000		/* a sane EBDA sits in 512-640 KiB */
#define ACPI_EBDA_HIGH		0xa0000
#define ACPI_BIOS_AREA		0xe0000
#define ACPI_BIOS_AREA_LEN	0x20000

static const char rsdp_sig[8] = { 'R', 'S', 'D', ' ', 'P', 'T', 'R', ' ' };

/* Byte sum; a valid ACPI structure sums to 0. */
u8 acpi_checksum(const void *p, size_t len)
{
	const u8 *b = p;
	u8 sum = 0;

	while (len--)
		sum = (u8)(sum + *b++);
	return sum;
}

/* Is there a valid RSDP at p, with avail bytes readable from p? */
static bool rsdp_valid(const u8 *p, size_t avail)
{
	struct acpi_rsdp r;

	if (avail < ACPI_RSDP_V1_LEN || memcmp(p, rsdp_sig, sizeof(rsdp_sig)) != 0)
		return false;
	if (acpi_checksum(p, ACPI_RSDP_V1_LEN) != 0)
		return false;
	if (p[offsetof(struct acpi_rsdp, rsdp_revision)] < 2)
		return true;
	if (avail < sizeof(r))
		return false;
	memcpy(&r, p, sizeof(r));
	return le32_to_cpu(r.rsdp_length) >= sizeof(r) && acpi_checksum(p, sizeof(r)) == 0;
}

/* Search [pa, pa+len) on 16-byte boundaries. */
static int scan_rsdp(const struct acpi_mem *mem, phys_addr_t pa, size_t len,
		     phys_addr_t *found)
{
	const u8 *va = mem->map(mem->ctx, pa, len);
	size_t off;
	int err = -ENOENT;

	if (!va)
		return -ENOMEM;
	for (off = 0; off + ACPI_RSDP_V1_LEN <= len; off += ACPI_RSDP_ALIGN) {
		if (rsdp_valid(va + off, len - off)) {
			*found = pa + off;
			err = 0;
			break;
		}
	}
	mem->unmap(mem->ctx, (void *)va, len);
	return err;
}

/**
 * acpi_find_rsdp - locate the Root System Description Pointer
 * @mem: physical memory access
 * @rsdp_pa: its physical address on success
 *
 * Returns 0, -ENOENT when neither area holds a valid one, -ENOMEM when
 * the areas cannot be mapped.
 */
int acpi_find_rsdp(const struct acpi_mem *mem, phys_addr_t *rsdp_pa)
{
	const u8 *bda;
	phys_addr_t ebda;
	int err;

	bda = mem->map(mem->ctx, ACPI_BDA_EBDA_SEG, 2);
	if (!bda)
		return -ENOMEM;
	ebda = (phys_addr_t)get_le16(bda) << 4;
	mem->unmap(mem->ctx, (void *)bda, 2);
	if (ebda >= ACPI_EBDA_LOW && ebda < ACPI_EBDA_HIGH) {
		err = scan_rsdp(mem, ebda, ACPI_EBDA_SEARCH_LEN, rsdp_pa);
		if (err != -ENOENT)
			return err;
	}
	return scan_rsdp(mem, ACPI_BIOS_AREA, ACPI_BIOS_AREA_LEN, rsdp_pa);
}

/*
 * Load the table at pa as a checked private copy.  sig may be NULL to
 * accept any.  Returns the copy (kfree it) or ERR_PTR(-EIO/-E2BIG/-ENOMEM),
 * or ERR_PTR(-ENOENT) when the signature differs.
 */
static void *load_sdt(const struct acpi_mem *mem, phys_addr_t pa, const char *sig, u32 *lenp)
{
	struct acpi_sdt_hdr h;
	const void *va;
	void *copy;
	u32 len;

	if (!pa)
		return ERR_PTR(-EIO);
	va = mem->map(mem->ctx, pa, sizeof(h));
	if (!va)
		return ERR_PTR(-ENOMEM);
	memcpy(&h, va, sizeof(h));
	mem->unmap(mem->ctx, (void *)va, sizeof(h));
	if (sig && memcmp(h.sdt_signature, sig, 4) != 0)
		return ERR_PTR(-ENOENT);
	len = le32_to_cpu(h.sdt_length);
	if (len < sizeof(h))
		return ERR_PTR(-EIO);
	if (len > ACPI_MAX_TABLE_LEN)
		return ERR_PTR(-E2BIG);
	copy = kmalloc(len, GFP_KERNEL);
	if (!copy)
		return ERR_PTR(-ENOMEM);
	va = mem->map(mem->ctx, pa, len);
	if (!va) {
		kfree(copy);
		return ERR_PTR(-ENOMEM);
	}
	memcpy(copy, va, len);
	mem->unmap(mem->ctx, (void *)va, len);
	/* Checked on the copy, so what we use is what we checked. */
	if (memcmp(copy, h.sdt_signature, 4) != 0 || get_le32((u8 *)copy + 4) != len ||
	    acpi_checksum(copy, len) != 0) {
		kfree(copy);
		return ERR_PTR(-EIO);
	}
	*lenp = len;
	return copy;
}

/* Search a loaded RSDT (esz 4) or XSDT (esz 8) for sig. */
static void *search_root(const struct acpi_mem *mem, const u8 *root, u32 rlen, unsigned esz,
			 const char *sig, u32 *lenp)
{
	unsigned i, n = (rlen - sizeof(struct acpi_sdt_hdr)) / esz;
	int err = -ENOENT;

	if (n > ACPI_MAX_SDT_ENTRIES)
		n = ACPI_MAX_SDT_ENTRIES;
	for (i = 0; i < n; i++) {
		const u8 *e = root + sizeof(struct acpi_sdt_hdr) + i * esz;
		phys_addr_t pa = esz == 8 ? get_le64(e) : get_le32(e);
		void *t = load_sdt(mem, pa, sig, lenp);

		if (!IS_ERR(t))
			return t;
		/* A bad copy of the table we want is worth reporting over "absent". */
		if (PTR_ERR(t) != -ENOENT && err == -ENOENT)
			err = (int)PTR_ERR(t);
	}
	return ERR_PTR(err);
}

/**
 * acpi_load_table_rsdp - find a table by signature, from an RSDP copy
 * @mem: physical memory access
 * @rsdp: the RSDP's bytes (a multiboot 2 loader hands over such a copy)
 * @rsdp_len: how many bytes of it are there (20 for ACPI 1.0, 36 after)
 * @sig: four characters, e.g. "APIC" for the MADT
 * @len: the table's length on success
 *
 * The XSDT is used when the RSDP (revision 2+) names one that checks out,
 * else the RSDT.  Returns a kmalloc'd copy the caller frees, or
 * ERR_PTR(-ENOENT) when absent, -EIO for a corrupt table or RSDP, -E2BIG,
 * -ENOMEM.
 */
void *acpi_load_table_rsdp(const struct acpi_mem *mem, const void *rsdp, size_t rsdp_len,
			   const char *sig, u32 *len)
{
	struct acpi_rsdp r;
	void *root = ERR_PTR(-EIO), *t;
	u32 rlen = 0;
	unsigned esz = 4;

	memset(&r, 0, sizeof(r));
	memcpy(&r, rsdp, min(rsdp_len, sizeof(r)));
	if (!rsdp_valid((const u8 *)&r, min(rsdp_len, sizeof(r))))
		return ERR_PTR(-EIO);

	if (r.rsdp_revision >= 2 && le64_to_cpu(r.rsdp_xsdt)) {
		root = load_sdt(mem, le64_to_cpu(r.rsdp_xsdt), "XSDT", &rlen);
		esz = 8;
	}
	if (IS_ERR(root)) {
		root = load_sdt(mem, le32_to_cpu(r.rsdp_rsdt), "RSDT", &rlen);
		esz = 4;
	}
	if (IS_ERR(root))
		return PTR_ERR(root) == -ENOENT ? ERR_PTR(-EIO) : root;
	t = search_root(mem, root, rlen, esz, sig, len);
	kfree(root);
	return t;
}

/**
 * acpi_load_table - find a table by signature and return a checked copy
 * @mem: physical memory access
 * @rsdp_pa: from acpi_find_rsdp()
 * @sig: four characters, e.g. "APIC" for the MADT
 * @len: the table's length on success
 *
 * As acpi_load_table_rsdp(), with the RSDP read from memory first.
 */
void *acpi_load_table(const struct acpi_mem *mem, phys_addr_t rsdp_pa, const char *sig,
		      u32 *len)
{
	struct acpi_rsdp r;
	const void *va;

	va = mem->map(mem->ctx, rsdp_pa, sizeof(r));
	if (!va)
		return ERR_PTR(-ENOMEM);
	memcpy(&r, va, sizeof(r));
	mem->unmap(mem->ctx, (void *)va, sizeof(r));
	return acpi_load_table_rsdp(mem, &r, sizeof(r), sig, len);
}

static void madt_add_override(struct acpi_madt_info *mi, const struct acpi_madt_iso *e)
{
	unsigned i;

	/* Only ISA overrides mean anything here; the first for a source wins. */
	if (e->mo_bus != 0 || e->mo_source >= 16 || mi->mi_niso == ACPI_MAX_OVERRIDES) {
		mi->mi_dropped++;
		return;
	}
	for (i = 0; i < mi->mi_niso; i++) {
		if (mi->mi_iso[i].ov_source == e->mo_source) {
			mi->mi_dropped++;
			return;
		}
	}
	mi->mi_iso[mi->mi_niso].ov_source = e->mo_source;
	mi->mi_iso[mi->mi_niso].ov_gsi = le32_to_cpu(e->mo_gsi);
	mi->mi_iso[mi->mi_niso].ov_flags = le16_to_cpu(e->mo_flags);
	mi->mi_niso++;
}

/*
 * A processor entry (5.2.12.2, 5.2.12.12).  Only enabled processors are
 * kept: an online-capable one is absent until hot-added, and a disabled
 * one must not be started.  An APIC ID of 0xff in an xAPIC entry is not
 * an address.  A processor listed twice (xAPIC and x2APIC entries for the
 * same ID) is kept once.
 */
static void madt_cpu(struct acpi_madt_info *mi, u32 apic_id, u32 uid, u32 flags, bool x2)
{
	unsigned i;

	for (i = 0; i < mi->mi_ncpu; i++)
		if (mi->mi_cpu[i].cpu_apic_id == apic_id && (flags & ACPI_MADT_LAPIC_ENABLED))
			return;
	if (flags & (ACPI_MADT_LAPIC_ENABLED | ACPI_MADT_LAPIC_ONLINE_CAPABLE))
		mi->mi_ncpus++;
	if (!(flags & ACPI_MADT_LAPIC_ENABLED)) {
		mi->mi_ncpus_disabled++;
		return;
	}
	if ((!x2 && apic_id == 0xff) || (x2 && apic_id == 0xffffffffu) ||
	    mi->mi_ncpu == ACPI_MAX_CPUS) {
		mi->mi_dropped++;
		return;
	}
	mi->mi_cpu[mi->mi_ncpu].cpu_apic_id = apic_id;
	mi->mi_cpu[mi->mi_ncpu].cpu_uid = uid;
	mi->mi_cpu[mi->mi_ncpu].cpu_x2apic = x2;
	mi->mi_ncpu++;
}

/* One entry, already bounds-checked to lie inside the table; copied to a local. */
static void madt_entry(struct acpi_madt_info *mi, const u8 *p, unsigned len)
{
	union {
		struct acpi_madt_lapic		lapic;
		struct acpi_madt_ioapic		ioapic;
		struct acpi_madt_iso		iso;
		struct acpi_madt_nmi_source	nmi;
		struct acpi_madt_lapic_nmi	lnmi;
		struct acpi_madt_lapic_override	lover;
		struct acpi_madt_x2apic		x2apic;
	} e;
	static const u8 min_len[] = {
		[ACPI_MADT_LAPIC] = sizeof(struct acpi_madt_lapic),
		[ACPI_MADT_IOAPIC] = sizeof(struct acpi_madt_ioapic),
		[ACPI_MADT_ISO] = sizeof(struct acpi_madt_iso),
		[ACPI_MADT_NMI_SOURCE] = sizeof(struct acpi_madt_nmi_source),
		[ACPI_MADT_LAPIC_NMI] = sizeof(struct acpi_madt_lapic_nmi),
		[ACPI_MADT_LAPIC_OVERRIDE] = sizeof(struct acpi_madt_lapic_override),
		[ACPI_MADT_X2APIC] = sizeof(struct acpi_madt_x2apic),
	};
	u8 type = p[0];

	if (type >= ARRAY_SIZE(min_len) || !min_len[type])
		return;		/* SAPIC, GIC, ...: not for us, and not an error */
	if (len < min_len[type]) {
		mi->mi_dropped++;
		return;
	}
	memcpy(&e, p, min_len[type]);
	switch (type) {
	case ACPI_MADT_LAPIC:
		madt_cpu(mi, e.lapic.ml_apic_id, e.lapic.ml_uid, le32_to_cpu(e.lapic.ml_flags), false);
		break;
	case ACPI_MADT_X2APIC:
		madt_cpu(mi, le32_to_cpu(e.x2apic.mx_x2apic_id), le32_to_cpu(e.x2apic.mx_uid),
			 le32_to_cpu(e.x2apic.mx_flags), true);
		break;
	case ACPI_MADT_IOAPIC:
		if (mi->mi_nioapic == ACPI_MAX_IOAPICS || !e.ioapic.mi_addr ||
		    (le32_to_cpu(e.ioapic.mi_addr) & 0x3)) {
			mi->mi_dropped++;
			break;
		}
		mi->mi_ioapic[mi->mi_nioapic].io_id = e.ioapic.mi_id;
		mi->mi_ioapic[mi->mi_nioapic].io_addr = le32_to_cpu(e.ioapic.mi_addr);
		mi->mi_ioapic[mi->mi_nioapic].io_gsi_base = le32_to_cpu(e.ioapic.mi_gsi_base);
		mi->mi_nioapic++;
		break;
	case ACPI_MADT_ISO:
		madt_add_override(mi, &e.iso);
		break;
	case ACPI_MADT_NMI_SOURCE:
		if (mi->mi_nnmi_src == ACPI_MAX_NMIS) {
			mi->mi_dropped++;
			break;
		}
		mi->mi_nmi_src[mi->mi_nnmi_src].ns_gsi = le32_to_cpu(e.nmi.mn_gsi);
		mi->mi_nmi_src[mi->mi_nnmi_src].ns_flags = le16_to_cpu(e.nmi.mn_flags);
		mi->mi_nnmi_src++;
		break;
	case ACPI_MADT_LAPIC_NMI:
		if (mi->mi_nlapic_nmi == ACPI_MAX_NMIS || e.lnmi.mln_lint > 1) {
			mi->mi_dropped++;
			break;
		}
		mi->mi_lapic_nmi[mi->mi_nlapic_nmi].ln_uid = e.lnmi.mln_uid;
		mi->mi_lapic_nmi[mi->mi_nlapic_nmi].ln_lint = e.lnmi.mln_lint;
		mi->mi_lapic_nmi[mi->mi_nlapic_nmi].ln_flags = le16_to_cpu(e.lnmi.mln_flags);
		mi->mi_nlapic_nmi++;
		break;
	case ACPI_MADT_LAPIC_OVERRIDE:
		mi->mi_lapic_addr = le64_to_cpu(e.lover.mlo_addr);
		break;
	}
}

/**
 * acpi_madt_parse - decode a MADT
 * @madt: a checked copy (acpi_load_table); @len: its length
 * @mi: filled in
 *
 * Returns 0, or -EIO when the fixed part is not a MADT.  A malformed
 * entry chain ends the walk with what came before kept and mi_dropped
 * counting the damage.
 */
int acpi_madt_parse(const void *madt, size_t len, struct acpi_madt_info *mi)
{
	const u8 *p = madt;
	struct acpi_madt m;
	size_t off, tlen;

	memset(mi, 0, sizeof(*mi));
	if (len < sizeof(m))
		return -EIO;
	memcpy(&m, madt, sizeof(m));
	tlen = le32_to_cpu(m.madt_hdr.sdt_length);
	if (memcmp(m.madt_hdr.sdt_signature, "APIC", 4) != 0 || tlen < sizeof(m) || tlen > len)
		return -EIO;
	mi->mi_lapic_addr = le32_to_cpu(m.madt_lapic_addr);
	mi->mi_pcat_compat = le32_to_cpu(m.madt_flags) & ACPI_MADT_PCAT_COMPAT;

	for (off = sizeof(m); off + sizeof(struct acpi_madt_entry) <= tlen; ) {
		unsigned elen = p[off + 1];

		if (elen < sizeof(struct acpi_madt_entry) || off + elen > tlen) {
			mi->mi_dropped++;
			break;
		}
		madt_entry(mi, p + off, elen);
		off += elen;
	}
	return 0;
}

/**
 * acpi_isa_route - where ISA IRQ isa_irq arrives at the IOAPICs
 * @mi: parsed MADT; @isa_irq: 0..15; @r: filled on success
 *
 * An override gives the GSI and, unless it says "conforms to the bus",
 * polarity and trigger; ISA's own convention is edge, active high.  An
 * ISA IRQ whose GSI another source was moved onto (IRQ 2 when IRQ 0 goes
 * to GSI 2) has no line: -ENOENT.  -EINVAL for isa_irq >= 16.
 */
int acpi_isa_route(const struct acpi_madt_info *mi, unsigned isa_irq, struct acpi_isa_route *r)
{
	unsigned i;

	if (isa_irq >= 16)
		return -EINVAL;
	r->ir_gsi = isa_irq;
	r->ir_level = false;
	r->ir_active_low = false;
	for (i = 0; i < mi->mi_niso; i++) {
		const struct acpi_override *ov = &mi->mi_iso[i];

		if (ov->ov_source == isa_irq) {
			r->ir_gsi = ov->ov_gsi;
			r->ir_active_low = (ov->ov_flags & ACPI_INTI_POLARITY_MASK) ==
					   ACPI_INTI_POLARITY_LOW;
			r->ir_level = (ov->ov_flags & ACPI_INTI_TRIGGER_MASK) ==
				      ACPI_INTI_TRIGGER_LEVEL;
			return 0;
		}
	}
	for (i = 0; i < mi->mi_niso; i++)
		if (mi->mi_iso[i].ov_gsi == isa_irq)
			return -ENOENT;
	return 0;
}
