/*
 * The kernel's way into ACPI tables: struct acpi_mem over ioremap(), any
 * table by signature (acpi_table()), and the boot MADT, found and parsed
 * once (acpi_madt()).  The RSDP comes from the boot loader when it gave
 * one (multiboot 2 tags 14/15: the only way on UEFI machines, which have
 * nothing in the BIOS areas), else from the EBDA/BIOS-area search.
 *
 * Integration note: ioremap() maps uncached, which is right for the
 * handful of small reads done here.  Tables live in firmware-reserved RAM
 * that mm may also map cached in the linear map; should that aliasing
 * matter, a cached "memremap" from mm is the better tool and only
 * acpi_phys_map() changes.
 */
#include "kernel/acpi.h"
#include "kernel/bootinfo.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/mm/slab.h"
#include "kernel/mm/vmap.h"
#include "lib/string.h"

static void *acpi_phys_map(void *ctx, phys_addr_t pa, size_t len)
{
	return ioremap(pa, len);
}

static void acpi_phys_unmap(void *ctx, void *va, size_t len)
{
	iounmap(va);
}

const struct acpi_mem acpi_mem_kernel = {
	.map = acpi_phys_map,
	.unmap = acpi_phys_unmap,
	.ctx = NULL,
};

struct acpi_boot {
	bool			ab_tried;	/* [I] after the first acpi_madt() */
	bool			ab_found;	/* [I] */
	struct acpi_madt_info	ab_madt;	/* [I] */
};

static struct acpi_boot acpi_boot;

/*
 * The RSDP's bytes into r (*n of them): the boot loader's copy, or the
 * one found in the BIOS areas.  0, or the search's -ENOENT / -ENOMEM.
 */
static int boot_rsdp(struct acpi_rsdp *r, size_t *n)
{
	phys_addr_t pa;
	const void *va;
	int err;

	if (boot_info.rsdp_len) {
		*n = min((size_t)boot_info.rsdp_len, sizeof(*r));
		memcpy(r, boot_info.rsdp, *n);
		return 0;
	}
	err = acpi_find_rsdp(&acpi_mem_kernel, &pa);
	if (err)
		return err;
	va = ioremap(pa, sizeof(*r));
	if (!va)
		return -ENOMEM;
	memcpy(r, va, sizeof(*r));
	iounmap((void *)va);
	*n = sizeof(*r);
	return 0;
}

void *acpi_table(const char *sig, u32 *len)
{
	struct acpi_rsdp r;
	size_t n;
	int err;

	err = boot_rsdp(&r, &n);
	if (err)
		return ERR_PTR(err);
	return acpi_load_table_rsdp(&acpi_mem_kernel, &r, n, sig, len);
}

/* Find, check and parse the MADT; errors are reported here, once. */
static int load_madt(struct acpi_madt_info *mi)
{
	struct acpi_rsdp r;
	void *madt;
	size_t n;
	u32 len;
	int err;

	err = boot_rsdp(&r, &n);
	if (err == -ENOENT) {
		pr_info("acpi: no RSDP in the EBDA or the BIOS area\n");
		return err;
	} else if (err) {
		pr_warn("acpi: RSDP search failed (%s)\n", errstr(err));
		return err;
	}
	if (boot_info.rsdp_len)
		pr_info("acpi: RSDP from the boot loader (ACPI %s)\n",
			n > ACPI_RSDP_V1_LEN ? "2.0+" : "1.0");
	madt = acpi_load_table_rsdp(&acpi_mem_kernel, &r, n, "APIC", &len);
	if (IS_ERR(madt)) {
		err = (int)PTR_ERR(madt);
		pr_info("acpi: no usable MADT (%s)\n", errstr(err));
		return err;
	}
	err = acpi_madt_parse(madt, len, mi);
	kfree(madt);
	if (err) {
		pr_warn("acpi: MADT does not parse (%s)\n", errstr(err));
		return err;
	}
	if (mi->mi_dropped)
		pr_warn("acpi: MADT: %u entries malformed or beyond our limits, ignored\n",
			mi->mi_dropped);
	return 0;
}

/**
 * acpi_madt - the boot MADT, parsed
 *
 * Returns NULL when the machine has none we can use.  The first call (boot,
 * one CPU) does the work; later calls return the same answer.
 */
const struct acpi_madt_info *acpi_madt(void)
{
	if (!acpi_boot.ab_tried) {
		acpi_boot.ab_tried = true;
		acpi_boot.ab_found = load_madt(&acpi_boot.ab_madt) == 0;
	}
	return acpi_boot.ab_found ? &acpi_boot.ab_madt : NULL;
}
