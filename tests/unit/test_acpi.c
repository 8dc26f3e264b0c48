/*
 * Host tests of kernel/acpi.c (RSDP search, RSDT/XSDT walk, MADT parsing,
 * ISA routing) and kernel/apic_encode.c over hand-made tables in a fake
 * physical memory: a MADT shaped like QEMU's (one LAPIC, one I/O APIC at
 * FEC00000h, overrides 0->2 and 5/9/10/11 level/high), an RSDP in the EBDA
 * and one in the BIOS area, an XSDT above 4 GiB, and broken tables: bad
 * checksums, zero-length entries, truncation, oversize lengths.
 */
#include "tests/unit/unit.h"
#include "tests/unit/fakes/fakes.h"
#include "kernel/acpi.h"
#include "kernel/apic.h"
#include "kernel/apicreg.h"
#include "kernel/errno.h"
#include "kernel/mm/slab.h"
#include "lib/byteorder.h"

#define LOW_SIZE	(1024 * 1024)
#define NHIGH		4
#define HIGH_SIZE	8192

/* Physical memory: the first MiB, and a few pages anywhere above it. */
struct fakemem {
	u8		low[LOW_SIZE];
	phys_addr_t	high_base[NHIGH];
	u8		high[NHIGH][HIGH_SIZE];
	int		live;		/* mappings not yet unmapped */
	unsigned	maps;
};

static struct fakemem fm;

static u8 *phys(phys_addr_t pa, size_t len)
{
	unsigned i;

	if (pa + len <= LOW_SIZE)
		return fm.low + pa;
	for (i = 0; i < NHIGH; i++)
		if (fm.high_base[i] && pa >= fm.high_base[i] &&
		    pa + len <= fm.high_base[i] + HIGH_SIZE)
			return fm.high[i] + (pa - fm.high_base[i]);
	return NULL;
}

static void *fake_map(void *ctx, phys_addr_t pa, size_t len)
{
	u8 *p = phys(pa, len);

	if (p) {
		fm.live++;
		fm.maps++;
	}
	return p;
}

static void fake_unmap(void *ctx, void *va, size_t len)
{
	fm.live--;
}

static const struct acpi_mem mem = { fake_map, fake_unmap, NULL };

static void reset(void)
{
	memset(&fm, 0, sizeof(fm));
	fm.high_base[0] = 0x07fe0000;		/* where SeaBIOS puts tables at -m 128M */
	fm.high_base[1] = 0x100000000ull;	/* above 4 GiB */
}

static void fix_checksum(u8 *t, size_t len, size_t at)
{
	t[at] = 0;
	t[at] = (u8)(0x100 - acpi_checksum(t, len));
}

static void put_rsdp(phys_addr_t pa, u8 rev, u32 rsdt, u64 xsdt)
{
	struct acpi_rsdp r;

	memset(&r, 0, sizeof(r));
	memcpy(r.rsdp_signature, "RSD PTR ", 8);
	memcpy(r.rsdp_oemid, "BOCHS ", 6);
	r.rsdp_revision = rev;
	r.rsdp_rsdt = rsdt;
	if (rev >= 2) {
		r.rsdp_length = sizeof(r);
		r.rsdp_xsdt = xsdt;
	}
	fix_checksum((u8 *)&r, ACPI_RSDP_V1_LEN, offsetof(struct acpi_rsdp, rsdp_checksum));
	if (rev >= 2)
		fix_checksum((u8 *)&r, sizeof(r), offsetof(struct acpi_rsdp, rsdp_ext_checksum));
	memcpy(phys(pa, sizeof(r)), &r, sizeof(r));
}

/* A table: header + body; returns its length. */
static u32 put_table(phys_addr_t pa, const char *sig, const void *body, u32 blen)
{
	struct acpi_sdt_hdr h;
	u8 *t = phys(pa, sizeof(h) + blen);

	memset(&h, 0, sizeof(h));
	memcpy(h.sdt_signature, sig, 4);
	h.sdt_length = sizeof(h) + blen;
	h.sdt_revision = 1;
	memcpy(h.sdt_oemid, "BOCHS ", 6);
	memcpy(t, &h, sizeof(h));
	memcpy(t + sizeof(h), body, blen);
	fix_checksum(t, h.sdt_length, offsetof(struct acpi_sdt_hdr, sdt_checksum));
	return h.sdt_length;
}

/* MADT body as QEMU 7.2 builds it for one CPU (hw/i386/acpi-common.c). */
static u32 qemu_madt_body(u8 *b)
{
	u32 n = 0;
	u8 e_lapic[8] = { 0, 8, 0, 0, 1, 0, 0, 0 };
	u8 e_ioapic[12] = { 1, 12, 0, 0, 0x00, 0x00, 0xc0, 0xfe, 0, 0, 0, 0 };
	u8 e_iso0[10] = { 2, 10, 0, 0, 2, 0, 0, 0, 0x00, 0x00 };
	u8 e_nmi[6] = { 4, 6, 0xff, 0, 0, 1 };
	static const u8 pci_irqs[] = { 5, 9, 10, 11 };
	unsigned i;

	put_le32(b, 0xfee00000);		/* local APIC address */
	put_le32(b + 4, ACPI_MADT_PCAT_COMPAT);
	n = 8;
	memcpy(b + n, e_lapic, 8); n += 8;
	memcpy(b + n, e_ioapic, 12); n += 12;
	memcpy(b + n, e_iso0, 10); n += 10;
	for (i = 0; i < ARRAY_SIZE(pci_irqs); i++) {
		u8 e[10] = { 2, 10, 0, pci_irqs[i], pci_irqs[i], 0, 0, 0, 0x0d, 0x00 };

		memcpy(b + n, e, 10);
		n += 10;
	}
	memcpy(b + n, e_nmi, 6); n += 6;
	return n;
}

/* SeaBIOS layout: RSDP in F0000h, RSDT listing FACP and APIC high up. */
static void build_seabios(void)
{
	u8 body[256];
	u32 rsdt[2] = { 0x07fe0100, 0x07fe0400 };
	u32 n;

	reset();
	put_le16(phys(0x40e, 2), 0x9fc0);	/* an EBDA with no RSDP in it */
	put_rsdp(0xf5a40, 0, 0x07fe0000, 0);
	put_table(0x07fe0000, "RSDT", rsdt, sizeof(rsdt));
	memset(body, 0, sizeof(body));
	put_table(0x07fe0100, "FACP", body, 116);
	n = qemu_madt_body(body);
	put_table(0x07fe0400, "APIC", body, n);
}

static void check_qemu_madt(const struct acpi_madt_info *mi)
{
	CHECK(mi->mi_lapic_addr == 0xfee00000);
	CHECK(mi->mi_pcat_compat);
	CHECK_EQ(mi->mi_ncpus, 1);
	CHECK_EQ(mi->mi_nioapic, 1);
	CHECK_EQ(mi->mi_ioapic[0].io_addr, 0xfec00000);
	CHECK_EQ(mi->mi_ioapic[0].io_gsi_base, 0);
	CHECK_EQ(mi->mi_niso, 5);
	CHECK_EQ(mi->mi_iso[0].ov_source, 0);
	CHECK_EQ(mi->mi_iso[0].ov_gsi, 2);
	CHECK_EQ(mi->mi_iso[3].ov_source, 10);
	CHECK_EQ(mi->mi_iso[3].ov_flags, 0x0d);
	CHECK_EQ(mi->mi_nlapic_nmi, 1);
	CHECK_EQ(mi->mi_lapic_nmi[0].ln_uid, 0xff);
	CHECK_EQ(mi->mi_lapic_nmi[0].ln_lint, 1);
	CHECK_EQ(mi->mi_dropped, 0);
}

static void test_seabios_rsdt(void)
{
	struct acpi_madt_info mi;
	phys_addr_t rsdp = 0;
	void *madt;
	u32 len = 0;

	build_seabios();
	CHECK_EQ(acpi_find_rsdp(&mem, &rsdp), 0);
	CHECK(rsdp == 0xf5a40);
	madt = acpi_load_table(&mem, rsdp, "APIC", &len);
	CHECK(!IS_ERR(madt));
	if (IS_ERR(madt))
		return;
	CHECK_EQ(len, 44 + 8 + 12 + 10 * 5 + 6);
	CHECK_EQ(acpi_madt_parse(madt, len, &mi), 0);
	check_qemu_madt(&mi);
	kfree(madt);
	madt = acpi_load_table(&mem, rsdp, "HPET", &len);
	CHECK(IS_ERR(madt) && PTR_ERR(madt) == -ENOENT);
	CHECK_EQ(fm.live, 0);
	CHECK_EQ(host_slab_live, 0);
}

/* ACPI 2.0 RSDP in the EBDA; its XSDT (above 4 GiB) wins over the RSDT. */
static void test_ebda_xsdt(void)
{
	struct acpi_madt_info mi;
	phys_addr_t rsdp = 0;
	u8 body[256];
	u64 xsdt[1] = { 0x100000400ull };
	u32 rsdt[1] = { 0x07fe0400 }, len = 0, n;
	void *madt;

	reset();
	put_le16(phys(0x40e, 2), 0x9fc0);
	put_rsdp(0x9fc00 + 0x30, 2, 0x07fe0000, 0x100000000ull);
	put_table(0x07fe0000, "RSDT", rsdt, sizeof(rsdt));
	put_table(0x100000000ull, "XSDT", xsdt, sizeof(xsdt));
	n = qemu_madt_body(body);
	put_table(0x07fe0400, "APIC", body, n);	/* the RSDT's copy: 1 I/O APIC */
	body[8 + 8 + 5] = 0x10;			/* the XSDT's copy: I/O APIC at FEC01000h */
	put_table(0x100000400ull, "APIC", body, n);
	/* A decoy in the BIOS area with a broken checksum. */
	put_rsdp(0xe0000, 0, 0x07fe0000, 0);
	phys(0xe0000, 20)[9] ^= 0xff;
	CHECK_EQ(acpi_find_rsdp(&mem, &rsdp), 0);
	CHECK(rsdp == 0x9fc30);
	madt = acpi_load_table(&mem, rsdp, "APIC", &len);
	CHECK(!IS_ERR(madt));
	if (IS_ERR(madt))
		return;
	CHECK_EQ(acpi_madt_parse(madt, len, &mi), 0);
	CHECK_EQ(mi.mi_ioapic[0].io_addr, 0xfec01000);
	kfree(madt);

	/* A corrupt XSDT falls back to the RSDT. */
	phys(0x100000000ull, 40)[36] ^= 1;
	madt = acpi_load_table(&mem, rsdp, "APIC", &len);
	CHECK(!IS_ERR(madt));
	if (!IS_ERR(madt)) {
		CHECK_EQ(acpi_madt_parse(madt, len, &mi), 0);
		CHECK_EQ(mi.mi_ioapic[0].io_addr, 0xfec00000);
		kfree(madt);
	}
	CHECK_EQ(fm.live, 0);
	CHECK_EQ(host_slab_live, 0);
}

static void test_rsdp_rejects(void)
{
	phys_addr_t rsdp = 0;

	reset();
	CHECK_EQ(acpi_find_rsdp(&mem, &rsdp), -ENOENT);
	/* Off a 16-byte boundary: not found. */
	put_rsdp(0xf0008, 0, 0x07fe0000, 0);
	CHECK_EQ(acpi_find_rsdp(&mem, &rsdp), -ENOENT);
	/* Bad 2.0 extended checksum; then a good one further up. */
	put_rsdp(0xf0010, 2, 0x07fe0000, 0x100000000ull);
	phys(0xf0010, 36)[30] ^= 0x55;
	CHECK_EQ(acpi_find_rsdp(&mem, &rsdp), -ENOENT);
	put_rsdp(0xfff00, 0, 0x07fe0000, 0);
	CHECK_EQ(acpi_find_rsdp(&mem, &rsdp), 0);
	CHECK(rsdp == 0xfff00);
	/* An EBDA pointer into nonsense is ignored, not followed. */
	put_le16(phys(0x40e, 2), 0x0010);
	CHECK_EQ(acpi_find_rsdp(&mem, &rsdp), 0);
	CHECK(rsdp == 0xfff00);
	CHECK_EQ(fm.live, 0);
}

static void test_table_rejects(void)
{
	phys_addr_t rsdp = 0xf5a40;
	void *t;
	u32 len;
	u8 *madt;

	build_seabios();
	madt = phys(0x07fe0400, 36);
	madt[40] ^= 1;				/* checksum now wrong */
	t = acpi_load_table(&mem, rsdp, "APIC", &len);
	CHECK(IS_ERR(t) && PTR_ERR(t) == -EIO);
	madt[40] ^= 1;
	put_le32(madt + 4, 0x7fffffff);		/* absurd length */
	t = acpi_load_table(&mem, rsdp, "APIC", &len);
	CHECK(IS_ERR(t) && PTR_ERR(t) == -E2BIG);
	put_le32(madt + 4, 8);			/* shorter than its header */
	t = acpi_load_table(&mem, rsdp, "APIC", &len);
	CHECK(IS_ERR(t) && PTR_ERR(t) == -EIO);
	/* An RSDT entry pointing nowhere: skipped, the search goes on. */
	build_seabios();
	{
		u32 rsdt[3] = { 0x3fff0000, 0x07fe0100, 0x07fe0400 };

		put_table(0x07fe0000, "RSDT", rsdt, sizeof(rsdt));
	}
	t = acpi_load_table(&mem, rsdp, "APIC", &len);
	CHECK(!IS_ERR(t));
	if (!IS_ERR(t))
		kfree(t);
	/* A broken RSDT: nothing to walk. */
	phys(0x07fe0000, 40)[37] ^= 1;
	t = acpi_load_table(&mem, rsdp, "APIC", &len);
	CHECK(IS_ERR(t) && PTR_ERR(t) == -EIO);
	/* Out of memory copying a table. */
	build_seabios();
	host_slab_fail_after = 1;
	t = acpi_load_table(&mem, rsdp, "APIC", &len);
	CHECK(IS_ERR(t) && PTR_ERR(t) == -ENOMEM);
	host_slab_fail_after = -1;
	CHECK_EQ(fm.live, 0);
	CHECK_EQ(host_slab_live, 0);
}

/* A MADT built in a local buffer (the parser only needs a checked copy). */
static u8 madt_buf[1024];

static u32 madt_with(const u8 *entries, u32 elen)
{
	struct acpi_madt m;

	memset(&m, 0, sizeof(m));
	memcpy(m.madt_hdr.sdt_signature, "APIC", 4);
	m.madt_hdr.sdt_length = sizeof(m) + elen;
	m.madt_lapic_addr = 0xfee00000;
	memcpy(madt_buf, &m, sizeof(m));
	memcpy(madt_buf + sizeof(m), entries, elen);
	return m.madt_hdr.sdt_length;
}

static void test_madt_malformed(void)
{
	struct acpi_madt_info mi;
	u8 e[512];
	u32 n = 0, len, i;

	/* A zero-length entry would loop forever if trusted. */
	memset(e, 0, sizeof(e));
	e[0] = ACPI_MADT_LAPIC; e[1] = 8; e[4] = 1; n = 8;
	e[n] = ACPI_MADT_ISO; e[n + 1] = 0; n += 10;
	len = madt_with(e, n);
	CHECK_EQ(acpi_madt_parse(madt_buf, len, &mi), 0);
	CHECK_EQ(mi.mi_ncpus, 1);
	CHECK_EQ(mi.mi_dropped, 1);

	/* An entry running past the end; a short override; a non-ISA one. */
	n = 0;
	{
		u8 short_iso[6] = { ACPI_MADT_ISO, 6, 0, 1, 1, 0 };
		u8 pci_iso[10] = { ACPI_MADT_ISO, 10, 1, 4, 20, 0, 0, 0, 0xf, 0 };
		u8 dup_iso[10] = { ACPI_MADT_ISO, 10, 0, 9, 9, 0, 0, 0, 0xf, 0 };
		u8 x2apic[16] = { 9, 16 };
		u8 lover[12] = { ACPI_MADT_LAPIC_OVERRIDE, 12, 0, 0, 0, 0, 0xe0, 0xfe, 1, 0, 0, 0 };
		u8 bad_lint[6] = { ACPI_MADT_LAPIC_NMI, 6, 0xff, 0, 0, 7 };

		memcpy(e + n, short_iso, 6); n += 6;
		memcpy(e + n, pci_iso, 10); n += 10;
		memcpy(e + n, dup_iso, 10); n += 10;
		memcpy(e + n, dup_iso, 10); n += 10;
		memcpy(e + n, x2apic, 16); n += 16;
		memcpy(e + n, lover, 12); n += 12;
		memcpy(e + n, bad_lint, 6); n += 6;
		e[n] = ACPI_MADT_IOAPIC; e[n + 1] = 12; n += 4;	/* truncated by the table end */
	}
	len = madt_with(e, n);
	CHECK_EQ(acpi_madt_parse(madt_buf, len, &mi), 0);
	CHECK_EQ(mi.mi_niso, 1);
	CHECK_EQ(mi.mi_iso[0].ov_source, 9);
	CHECK(mi.mi_lapic_addr == 0x1fee00000ull);
	CHECK_EQ(mi.mi_nlapic_nmi, 0);
	CHECK_EQ(mi.mi_nioapic, 0);
	CHECK_EQ(mi.mi_dropped, 5);	/* short, non-ISA, duplicate, bad LINT, truncated */

	/* More I/O APICs than we keep. */
	n = 0;
	for (i = 0; i < ACPI_MAX_IOAPICS + 1; i++) {
		u8 io[12] = { ACPI_MADT_IOAPIC, 12, (u8)i, 0, 0, (u8)(i << 4), 0xc0, 0xfe,
			      (u8)(24 * i), 0, 0, 0 };

		memcpy(e + n, io, 12);
		n += 12;
	}
	len = madt_with(e, n);
	CHECK_EQ(acpi_madt_parse(madt_buf, len, &mi), 0);
	CHECK_EQ(mi.mi_nioapic, ACPI_MAX_IOAPICS);
	CHECK_EQ(mi.mi_ioapic[7].io_gsi_base, 168);
	CHECK_EQ(mi.mi_dropped, 1);

	/* Not a MADT, or a length beyond the buffer. */
	len = madt_with(e, 0);
	madt_buf[0] = 'X';
	CHECK_EQ(acpi_madt_parse(madt_buf, len, &mi), -EIO);
	len = madt_with(e, 24);
	CHECK_EQ(acpi_madt_parse(madt_buf, len - 1, &mi), -EIO);
	CHECK_EQ(acpi_madt_parse(madt_buf, 20, &mi), -EIO);
}

/* Processor entries: only enabled ones are kept, each APIC ID once. */
static void test_madt_cpus(void)
{
	static const u8 e[] = {
		ACPI_MADT_LAPIC, 8, 0, 0, 1, 0, 0, 0,		/* uid 0, APIC 0, enabled */
		ACPI_MADT_LAPIC, 8, 1, 1, 0, 0, 0, 0,		/* disabled */
		ACPI_MADT_LAPIC, 8, 2, 2, 2, 0, 0, 0,		/* online-capable: not yet */
		ACPI_MADT_LAPIC, 8, 3, 0xff, 1, 0, 0, 0,	/* APIC ID 0xff: not an address */
		ACPI_MADT_X2APIC, 16, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 7, 0, 0, 0,	  /* APIC 1 */
		ACPI_MADT_X2APIC, 16, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 8, 0, 0, 0,	  /* APIC 0 again */
		ACPI_MADT_X2APIC, 16, 0, 0, 0x2c, 1, 0, 0, 1, 0, 0, 0, 9, 0, 0, 0, /* APIC 300 */
	};
	struct acpi_madt_info mi;
	u32 len = madt_with(e, sizeof(e));

	CHECK_EQ(acpi_madt_parse(madt_buf, len, &mi), 0);
	CHECK_EQ(mi.mi_ncpu, 3);
	CHECK_EQ(mi.mi_cpu[0].cpu_apic_id, 0);
	CHECK(!mi.mi_cpu[0].cpu_x2apic);
	CHECK_EQ(mi.mi_cpu[1].cpu_apic_id, 1);
	CHECK_EQ(mi.mi_cpu[1].cpu_uid, 7);
	CHECK(mi.mi_cpu[1].cpu_x2apic);
	CHECK_EQ(mi.mi_cpu[2].cpu_apic_id, 300);
	CHECK_EQ(mi.mi_ncpus, 5);
	CHECK_EQ(mi.mi_ncpus_disabled, 2);
	CHECK_EQ(mi.mi_dropped, 1);
}

static void test_isa_route(void)
{
	struct acpi_madt_info mi;
	struct acpi_isa_route r;
	u8 body[256];
	u32 n, len;

	n = qemu_madt_body(body);
	len = madt_with(body + 8, n - 8);
	CHECK_EQ(acpi_madt_parse(madt_buf, len, &mi), 0);

	CHECK_EQ(acpi_isa_route(&mi, 0, &r), 0);	/* the PIT, on pin 2 */
	CHECK_EQ(r.ir_gsi, 2);
	CHECK(!r.ir_level && !r.ir_active_low);
	CHECK_EQ(acpi_isa_route(&mi, 2, &r), -ENOENT);	/* its pin went to IRQ 0 */
	CHECK_EQ(acpi_isa_route(&mi, 1, &r), 0);	/* keyboard: identity, ISA default */
	CHECK_EQ(r.ir_gsi, 1);
	CHECK(!r.ir_level && !r.ir_active_low);
	CHECK_EQ(acpi_isa_route(&mi, 11, &r), 0);	/* a PCI line, as QEMU declares it */
	CHECK_EQ(r.ir_gsi, 11);
	CHECK(r.ir_level && !r.ir_active_low);
	CHECK_EQ(acpi_isa_route(&mi, 14, &r), 0);
	CHECK_EQ(r.ir_gsi, 14);
	CHECK_EQ(acpi_isa_route(&mi, 16, &r), -EINVAL);

	/* Real firmware: SCI level/active-low, and an IRQ moved to GSI 20. */
	mi.mi_iso[1].ov_flags = ACPI_INTI_POLARITY_LOW | ACPI_INTI_TRIGGER_LEVEL;
	CHECK_EQ(acpi_isa_route(&mi, 5, &r), 0);
	CHECK(r.ir_level && r.ir_active_low);
	mi.mi_iso[2].ov_gsi = 20;
	CHECK_EQ(acpi_isa_route(&mi, 9, &r), 0);
	CHECK_EQ(r.ir_gsi, 20);
	mi.mi_iso[0].ov_flags = ACPI_INTI_POLARITY_BUS | ACPI_INTI_TRIGGER_BUS;
	CHECK_EQ(acpi_isa_route(&mi, 0, &r), 0);
	CHECK(!r.ir_level && !r.ir_active_low);
}

static void test_apic_encode(void)
{
	u64 addr;
	u32 data;

	CHECK(ioapic_rte_encode(42, 0, true, false, true) == 0x1802aull);
	CHECK(ioapic_rte_encode(0x30, 3, false, true, false) == (0x2030ull | 3ull << 56));
	CHECK(ioapic_rte_encode(0x20, 0, false, false, false) == 0x20);
	msi_compose(1, 0x41, &addr, &data);
	CHECK(addr == 0xfee01000ull);
	CHECK_EQ(data, 0x41);
	msi_compose(0, 0xfe, &addr, &data);
	CHECK(addr == 0xfee00000ull);
	CHECK_EQ(data, 0xfe);
	CHECK_EQ(lapic_lvt_nmi(0), LAPIC_LVT_DM_NMI);
	CHECK_EQ(lapic_lvt_nmi(ACPI_INTI_POLARITY_LOW | ACPI_INTI_TRIGGER_LEVEL),
		 LAPIC_LVT_DM_NMI | LAPIC_LVT_ACTIVE_LOW);
}

static const struct unit_case cases[] = {
	{ "seabios_rsdt", test_seabios_rsdt },
	{ "ebda_xsdt", test_ebda_xsdt },
	{ "rsdp_rejects", test_rsdp_rejects },
	{ "table_rejects", test_table_rejects },
	{ "madt_malformed", test_madt_malformed },
	{ "madt_cpus", test_madt_cpus },
	{ "isa_route", test_isa_route },
	{ "apic_encode", test_apic_encode },
};

UNIT_MAIN("acpi", cases)
