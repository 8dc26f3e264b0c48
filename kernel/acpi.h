/*
 * ACPI static tables, as far as interrupt routing needs them: finding the
 * RSDP, walking the RSDT/XSDT to a table by signature, and parsing the
 * MADT ("APIC") into struct acpi_madt_info.  No AML: the DSDT's _PRT is
 * out of reach, which is why PCI INTx routing is a policy of its own
 * (drivers/pci/pci_irq.c).
 *
 * Tables can sit anywhere in physical memory, so every access goes
 * through a struct acpi_mem (map/unmap a physical range).  The kernel's
 * acpi_mem_kernel (kernel/acpi_map.c) is built on ioremap(); host tests
 * pass a fake physical memory.  Tables are firmware data and treated as
 * hostile: checksums, signatures, lengths and entry bounds are checked,
 * walks are capped, and parsing works on a private copy.
 *
 * Layouts from ACPI 6.5: 5.2.5.3 RSDP, 5.2.6 system description table
 * header, 5.2.7 RSDT, 5.2.8 XSDT, 5.2.12 MADT and its entries.
 */
#ifndef KERNEL_ACPI_H
#define KERNEL_ACPI_H

#include "kernel/compiler.h"

/* RSDP (5.2.5.3): 20 bytes in ACPI 1.0, 36 from 2.0 on. */
struct acpi_rsdp {
	char	rsdp_signature[8];	/* "RSD PTR " */
	u8	rsdp_checksum;		/* first 20 bytes sum to 0 */
	char	rsdp_oemid[6];
	u8	rsdp_revision;		/* 0: ACPI 1.0; 2: 2.0 and later */
	u32	rsdp_rsdt;		/* RSDT physical address */
	u32	rsdp_length;		/* 2.0+: whole structure */
	u64	rsdp_xsdt;		/* 2.0+: XSDT physical address */
	u8	rsdp_ext_checksum;	/* 2.0+: all bytes sum to 0 */
	u8	rsdp_rsvd33[3];
} __packed;
_Static_assert(sizeof(struct acpi_rsdp) == 36, "RSDP is 36 bytes");
_Static_assert(offsetof(struct acpi_rsdp, rsdp_rsdt) == 16, "RSDT address at 16");
_Static_assert(offsetof(struct acpi_rsdp, rsdp_xsdt) == 24, "XSDT address at 24");

#define ACPI_RSDP_V1_LEN	20
#define ACPI_RSDP_ALIGN		16	/* found on 16-byte boundaries */

/* System description table header (5.2.6). */
struct acpi_sdt_hdr {
	char	sdt_signature[4];
	u32	sdt_length;		/* header included */
	u8	sdt_revision;
	u8	sdt_checksum;		/* whole table sums to 0 */
	char	sdt_oemid[6];
	char	sdt_oem_table_id[8];
	u32	sdt_oem_revision;
	u32	sdt_creator_id;
	u32	sdt_creator_revision;
} __packed;
_Static_assert(sizeof(struct acpi_sdt_hdr) == 36, "SDT header is 36 bytes");
_Static_assert(offsetof(struct acpi_sdt_hdr, sdt_checksum) == 9, "checksum at 9");

/* MADT (5.2.12): header, then variable-length interrupt controller entries. */
struct acpi_madt {
	struct acpi_sdt_hdr	madt_hdr;	/* "APIC" */
	u32			madt_lapic_addr;
	u32			madt_flags;
#define ACPI_MADT_PCAT_COMPAT		0x1	/* dual 8259s present too */
} __packed;
_Static_assert(sizeof(struct acpi_madt) == 44, "MADT fixed part is 44 bytes");
_Static_assert(offsetof(struct acpi_madt, madt_lapic_addr) == 36, "local APIC address at 36");

struct acpi_madt_entry {
	u8	me_type;
#define ACPI_MADT_LAPIC			0	/* Processor Local APIC (5.2.12.2) */
#define ACPI_MADT_IOAPIC		1	/* I/O APIC (5.2.12.3) */
#define ACPI_MADT_ISO			2	/* Interrupt Source Override (5.2.12.5) */
#define ACPI_MADT_NMI_SOURCE		3	/* NMI Source (5.2.12.6) */
#define ACPI_MADT_LAPIC_NMI		4	/* Local APIC NMI (5.2.12.7) */
#define ACPI_MADT_LAPIC_OVERRIDE	5	/* Local APIC Address Override (5.2.12.8) */
#define ACPI_MADT_X2APIC		9	/* Processor Local x2APIC (5.2.12.12) */
	u8	me_length;
} __packed;

struct acpi_madt_lapic {
	struct acpi_madt_entry	ml_hdr;
	u8			ml_uid;		/* ACPI Processor UID */
	u8			ml_apic_id;
	u32			ml_flags;
#define ACPI_MADT_LAPIC_ENABLED		0x1
#define ACPI_MADT_LAPIC_ONLINE_CAPABLE	0x2
} __packed;
_Static_assert(sizeof(struct acpi_madt_lapic) == 8, "LAPIC entry is 8 bytes");
_Static_assert(offsetof(struct acpi_madt_lapic, ml_flags) == 4, "LAPIC flags at 4");

struct acpi_madt_x2apic {
	struct acpi_madt_entry	mx_hdr;
	u16			mx_rsvd2;
	u32			mx_x2apic_id;
	u32			mx_flags;	/* as ml_flags */
	u32			mx_uid;
} __packed;
_Static_assert(sizeof(struct acpi_madt_x2apic) == 16, "x2APIC entry is 16 bytes");
_Static_assert(offsetof(struct acpi_madt_x2apic, mx_x2apic_id) == 4, "x2APIC ID at 4");

struct acpi_madt_ioapic {
	struct acpi_madt_entry	mi_hdr;
	u8			mi_id;
	u8			mi_rsvd3;
	u32			mi_addr;
	u32			mi_gsi_base;
} __packed;
_Static_assert(sizeof(struct acpi_madt_ioapic) == 12, "IOAPIC entry is 12 bytes");
_Static_assert(offsetof(struct acpi_madt_ioapic, mi_addr) == 4 &&
	       offsetof(struct acpi_madt_ioapic, mi_gsi_base) == 8, "IOAPIC address at 4, GSI base at 8");

struct acpi_madt_iso {
	struct acpi_madt_entry	mo_hdr;
	u8			mo_bus;		/* 0: ISA */
	u8			mo_source;	/* bus-relative IRQ */
	u32			mo_gsi;
	u16			mo_flags;	/* MPS INTI flags, below */
} __packed;
_Static_assert(sizeof(struct acpi_madt_iso) == 10, "override entry is 10 bytes");
_Static_assert(offsetof(struct acpi_madt_iso, mo_gsi) == 4 &&
	       offsetof(struct acpi_madt_iso, mo_flags) == 8, "override GSI at 4, flags at 8");

struct acpi_madt_nmi_source {
	struct acpi_madt_entry	mn_hdr;
	u16			mn_flags;
	u32			mn_gsi;
} __packed;
_Static_assert(sizeof(struct acpi_madt_nmi_source) == 8, "NMI source entry is 8 bytes");
_Static_assert(offsetof(struct acpi_madt_nmi_source, mn_gsi) == 4, "NMI source GSI at 4");

struct acpi_madt_lapic_nmi {
	struct acpi_madt_entry	mln_hdr;
	u8			mln_uid;	/* 0xff: every processor */
	u16			mln_flags;
	u8			mln_lint;	/* LINT0 or LINT1 */
} __packed;
_Static_assert(sizeof(struct acpi_madt_lapic_nmi) == 6, "LAPIC NMI entry is 6 bytes");
_Static_assert(offsetof(struct acpi_madt_lapic_nmi, mln_lint) == 5, "LAPIC NMI LINT# at 5");

struct acpi_madt_lapic_override {
	struct acpi_madt_entry	mlo_hdr;
	u16			mlo_rsvd2;
	u64			mlo_addr;
} __packed;
_Static_assert(sizeof(struct acpi_madt_lapic_override) == 12, "LAPIC override is 12 bytes");
_Static_assert(offsetof(struct acpi_madt_lapic_override, mlo_addr) == 4, "LAPIC address at 4");

/* MPS INTI flags (5.2.12.5, table 5.50). */
#define ACPI_INTI_POLARITY_MASK		0x3
#define   ACPI_INTI_POLARITY_BUS	0x0	/* conforms to the bus */
#define   ACPI_INTI_POLARITY_HIGH	0x1
#define   ACPI_INTI_POLARITY_LOW	0x3
#define ACPI_INTI_TRIGGER_MASK		0xc
#define   ACPI_INTI_TRIGGER_BUS		0x0
#define   ACPI_INTI_TRIGGER_EDGE	0x4
#define   ACPI_INTI_TRIGGER_LEVEL	0xc

/* Limits of what we keep from the MADT; more entries are counted, not kept. */
#define ACPI_MAX_IOAPICS	8
#define ACPI_MAX_OVERRIDES	16
#define ACPI_MAX_NMIS		8
#define ACPI_MAX_CPUS		64	/* processor entries kept (enabled ones) */
#define ACPI_MAX_TABLE_LEN	(64 * 1024)	/* RSDT/XSDT/MADT larger than this: refused */
#define ACPI_MAX_SDT_ENTRIES	256		/* tables listed in the RSDT/XSDT */

struct acpi_ioapic {
	u8	io_id;
	u32	io_addr;
	u32	io_gsi_base;
};

struct acpi_override {
	u8	ov_source;		/* ISA IRQ */
	u32	ov_gsi;
	u16	ov_flags;		/* ACPI_INTI_* */
};

struct acpi_lapic_nmi {
	u8	ln_uid;
	u8	ln_lint;
	u16	ln_flags;
};

struct acpi_nmi_source {
	u32	ns_gsi;
	u16	ns_flags;
};

/* An enabled processor: the APIC ID to send its start-up IPIs to. */
struct acpi_cpu {
	u32	cpu_apic_id;		/* xAPIC ID (< 255) or x2APIC ID */
	u32	cpu_uid;		/* ACPI processor UID */
	bool	cpu_x2apic;		/* listed by an x2APIC entry */
};

/* What the MADT says, checked. */
struct acpi_madt_info {
	u64			mi_lapic_addr;
	bool			mi_pcat_compat;
	unsigned		mi_ncpus;		/* enabled or online-capable LAPICs */
	struct acpi_cpu		mi_cpu[ACPI_MAX_CPUS];	/* the enabled ones, in MADT order */
	unsigned		mi_ncpu;		/* entries in mi_cpu */
	unsigned		mi_ncpus_disabled;	/* not enabled: never started */
	struct acpi_ioapic	mi_ioapic[ACPI_MAX_IOAPICS];
	unsigned		mi_nioapic;
	struct acpi_override	mi_iso[ACPI_MAX_OVERRIDES];
	unsigned		mi_niso;
	struct acpi_lapic_nmi	mi_lapic_nmi[ACPI_MAX_NMIS];
	unsigned		mi_nlapic_nmi;
	struct acpi_nmi_source	mi_nmi_src[ACPI_MAX_NMIS];
	unsigned		mi_nnmi_src;
	unsigned		mi_dropped;		/* malformed or beyond our limits */
};

/* Reach physical memory: map returns NULL on failure; unmap gets map's result. */
struct acpi_mem {
	void	*(*map)(void *ctx, phys_addr_t pa, size_t len);
	void	(*unmap)(void *ctx, void *va, size_t len);
	void	*ctx;
};

/* Where an ISA IRQ arrives (acpi_isa_route). */
struct acpi_isa_route {
	u32	ir_gsi;
	bool	ir_level;		/* else edge */
	bool	ir_active_low;		/* else active high */
};

/* kernel/acpi.c: pure, host-tested. */
u8 acpi_checksum(const void *p, size_t len);
int acpi_find_rsdp(const struct acpi_mem *mem, phys_addr_t *rsdp_pa);
void *acpi_load_table(const struct acpi_mem *mem, phys_addr_t rsdp_pa, const char *sig,
		      u32 *len);
void *acpi_load_table_rsdp(const struct acpi_mem *mem, const void *rsdp, size_t rsdp_len,
			   const char *sig, u32 *len);
int acpi_madt_parse(const void *madt, size_t len, struct acpi_madt_info *mi);
int acpi_isa_route(const struct acpi_madt_info *mi, unsigned isa_irq,
		   struct acpi_isa_route *r);

/* kernel/acpi_map.c: the kernel's physical memory access, and the boot MADT. */
extern const struct acpi_mem acpi_mem_kernel;
const struct acpi_madt_info *acpi_madt(void);
/*
 * A checked copy (kfree it) of the machine's table sig, from the RSDP the
 * loader handed over (multiboot 2) or else the one found in the BIOS
 * areas; ERR_PTR(-ENOENT) when there is none.  Not in interrupt context.
 */
void *acpi_table(const char *sig, u32 *len);

#endif
