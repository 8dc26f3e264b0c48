/*
 * Multiboot 2 information -> struct boot_info (kernel/bootinfo.h).
 *
 * Multiboot Specification 2.0, section 3.6: the information is a u32
 * total_size, a reserved u32, then tags, each { u32 type; u32 size; }
 * followed by its data and padded to 8 bytes, ending with a tag of type
 * 0.  It is self-contained (strings are inside their tags), so
 * boot/entry.S copies it whole into the kernel before paging and this
 * parser works on that copy: a pure function of its bytes, host-tested
 * (tests/unit/test_multiboot2.c).
 *
 * What is read: command line (1), loader name (2), modules (3), basic
 * memory (4), memory map (6), framebuffer (8), EFI system table (11, 12:
 * only to know the firmware), ACPI RSDP copies (14 old, 15 new), EFI
 * memory map (17; preferred over 6, with boot-services memory usable,
 * since the kernel never calls the firmware and GRUB has already left
 * boot services).  Every size is bounded by its tag and the tag by the
 * buffer; a tag that does not fit ends the walk with a warning.
 */
#include "kernel/bootinfo.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/string.h"

struct mb2_tag {
	u32	type;
#define MB2_TAG_END		0
#define MB2_TAG_CMDLINE		1
#define MB2_TAG_LOADER		2
#define MB2_TAG_MODULE		3
#define MB2_TAG_MEMINFO		4
#define MB2_TAG_MMAP		6
#define MB2_TAG_FB		8
#define MB2_TAG_EFI32		11
#define MB2_TAG_EFI64		12
#define MB2_TAG_ACPI_OLD	14
#define MB2_TAG_ACPI_NEW	15
#define MB2_TAG_EFI_MMAP	17
	u32	size;		/* header included, padding not */
} __packed;

#define MB2_TAG_ALIGN		8
#define MB2_INFO_HDR		8	/* total_size, reserved */

struct mb2_module {
	struct mb2_tag	mod_tag;
	u32		mod_start, mod_end;
	/* then the module's command line */
} __packed;
_Static_assert(sizeof(struct mb2_module) == 16, "multiboot2 module tag");

struct mb2_meminfo {
	struct mb2_tag	mi_tag;
	u32		mi_lower, mi_upper;	/* KiB */
} __packed;

struct mb2_mmap {
	struct mb2_tag	mm_tag;
	u32		mm_entry_size;
	u32		mm_entry_version;
	/* then entries */
} __packed;
_Static_assert(sizeof(struct mb2_mmap) == 16, "multiboot2 mmap tag");

struct mb2_mmap_entry {
	u64	me_base;
	u64	me_len;
	u32	me_type;
	u32	me_rsvd20;
} __packed;
_Static_assert(sizeof(struct mb2_mmap_entry) == 24, "multiboot2 mmap entry");

/* GRUB's layout: the reserved field after fb_type is a u16 (multiboot2.h). */
struct mb2_fb {
	struct mb2_tag	fb_tag;
	u64		fb_addr;
	u32		fb_pitch, fb_width, fb_height;
	u8		fb_bpp, fb_type;
	u16		fb_rsvd30;
	u8		fb_red_pos, fb_red_size;	/* type 1 (RGB) only */
	u8		fb_green_pos, fb_green_size;
	u8		fb_blue_pos, fb_blue_size;
} __packed;
_Static_assert(offsetof(struct mb2_fb, fb_bpp) == 28, "framebuffer tag layout");
_Static_assert(offsetof(struct mb2_fb, fb_red_pos) == 32, "framebuffer tag layout");

/* UEFI 2.10, 7.2.3 EFI_BOOT_SERVICES.GetMemoryMap(): EFI_MEMORY_DESCRIPTOR. */
struct efi_mem_desc {
	u32	md_type;
#define EFI_LOADER_CODE		1
#define EFI_LOADER_DATA		2
#define EFI_BOOT_SERVICES_CODE	3
#define EFI_BOOT_SERVICES_DATA	4
#define EFI_CONVENTIONAL	7
#define EFI_UNUSABLE		8
#define EFI_ACPI_RECLAIM	9
#define EFI_ACPI_NVS		10
	u32	md_rsvd4;
	u64	md_phys;
	u64	md_virt;
	u64	md_pages;	/* 4 KiB pages */
	u64	md_attr;
} __packed;
_Static_assert(sizeof(struct efi_mem_desc) == 40, "EFI memory descriptor");

#define EFI_PAGE_SIZE		4096

/* Multiboot memory types (Multiboot 2.0, 3.6.8), as boot_info keeps them. */
#define MB_MEM_RESERVED		2
#define MB_MEM_ACPI		3
#define MB_MEM_NVS		4
#define MB_MEM_BAD		5

static u32 efi_type_to_mb(u32 t)
{
	switch (t) {
	case EFI_LOADER_CODE:
	case EFI_LOADER_DATA:
	case EFI_BOOT_SERVICES_CODE:
	case EFI_BOOT_SERVICES_DATA:
	case EFI_CONVENTIONAL:
		return BOOT_MEM_USABLE;
	case EFI_ACPI_RECLAIM:
		return MB_MEM_ACPI;	/* tables live here: keep them */
	case EFI_ACPI_NVS:
		return MB_MEM_NVS;
	case EFI_UNUSABLE:
		return MB_MEM_BAD;
	}
	return MB_MEM_RESERVED;
}

/* A string inside a tag: at most the tag's remaining bytes. */
static void tag_string(char *dst, size_t size, const struct mb2_tag *t, size_t off)
{
	const char *s = (const char *)t + off;
	size_t n = t->size > off ? strnlen(s, t->size - off) : 0;

	n = min(n, size - 1);
	memcpy(dst, s, n);
	dst[n] = '\0';
}

static void parse_mmap(const struct mb2_tag *t)
{
	const struct mb2_mmap *mm = (const void *)t;
	const u8 *p, *end = (const u8 *)t + t->size;
	struct mb2_mmap_entry e;

	if (t->size < sizeof(*mm) || mm->mm_entry_size < sizeof(e)) {
		pr_warn("multiboot2: memory map tag malformed; ignored\n");
		return;
	}
	for (p = (const u8 *)(mm + 1); p + mm->mm_entry_size <= end; p += mm->mm_entry_size) {
		memcpy(&e, p, sizeof(e));
		boot_add_mmap(e.me_base, e.me_len, e.me_type);
	}
}

/*
 * The EFI map, with neighbouring ranges of one kind merged: firmware
 * lists hundreds of small ranges that are one stretch of RAM to us.
 */
static void parse_efi_mmap(const struct mb2_tag *t)
{
	const struct mb2_mmap *mm = (const void *)t;
	const u8 *p, *end = (const u8 *)t + t->size;
	u64 base = 0, len = 0, b, l;
	u32 type = 0, ty;
	struct efi_mem_desc d;

	if (t->size < sizeof(*mm) || mm->mm_entry_size < sizeof(d)) {
		pr_warn("multiboot2: EFI memory map tag malformed; ignored\n");
		return;
	}
	for (p = (const u8 *)(mm + 1); p + mm->mm_entry_size <= end; p += mm->mm_entry_size) {
		memcpy(&d, p, sizeof(d));
		if (d.md_pages > (~0ULL - d.md_phys) / EFI_PAGE_SIZE)
			continue;	/* wraps: nonsense */
		b = d.md_phys;
		l = d.md_pages * EFI_PAGE_SIZE;
		ty = efi_type_to_mb(d.md_type);
		if (len && ty == type && base + len == b) {
			len += l;
			continue;
		}
		if (len)
			boot_add_mmap(base, len, type);
		base = b;
		len = l;
		type = ty;
	}
	if (len)
		boot_add_mmap(base, len, type);
}

static void parse_module(const struct mb2_tag *t)
{
	const struct mb2_module *m = (const void *)t;
	struct boot_module *b;

	if (t->size < sizeof(*m))
		return;
	if (boot_info.nr_modules == BOOT_MAX_MODULES) {
		pr_warn("multiboot2: more than %u modules; the rest are not used\n",
			BOOT_MAX_MODULES);
		return;
	}
	if (m->mod_end < m->mod_start) {
		pr_warn("multiboot2: a module has end before start; skipped\n");
		return;
	}
	b = &boot_info.modules[boot_info.nr_modules++];
	b->start = m->mod_start;
	b->end = m->mod_end;
	tag_string(b->name, sizeof(b->name), t, sizeof(*m));
}

static void parse_fb(const struct mb2_tag *t)
{
	struct mb2_fb f;
	struct boot_fb *fb = &boot_info.fb;

	memset(&f, 0, sizeof(f));
	if (t->size < offsetof(struct mb2_fb, fb_red_pos))
		return;
	memcpy(&f, t, min((size_t)t->size, sizeof(f)));
	fb->fb_addr = f.fb_addr;
	fb->fb_pitch = f.fb_pitch;
	fb->fb_width = f.fb_width;
	fb->fb_height = f.fb_height;
	fb->fb_bpp = f.fb_bpp;
	fb->fb_type = f.fb_type;
	fb->fb_red_pos = f.fb_red_pos;
	fb->fb_red_size = f.fb_red_size;
	fb->fb_green_pos = f.fb_green_pos;
	fb->fb_green_size = f.fb_green_size;
	fb->fb_blue_pos = f.fb_blue_pos;
	fb->fb_blue_size = f.fb_blue_size;
}

/* The new (2.0+) RSDP wins over the old one whichever comes first. */
static void parse_rsdp(const struct mb2_tag *t)
{
	size_t n = min((size_t)(t->size - sizeof(*t)), sizeof(boot_info.rsdp));

	if (t->type == MB2_TAG_ACPI_OLD && boot_info.rsdp_len > 20)
		return;
	memcpy(boot_info.rsdp, t + 1, n);
	boot_info.rsdp_len = (unsigned)n;
}

/**
 * multiboot2_parse - fill boot_info from a copy of the multiboot 2 information
 * @info: the copy (8-byte aligned)
 * @len: bytes of it that are valid
 *
 * Returns 0, or -EINVAL when the header itself is unusable.
 */
int multiboot2_parse(const void *info, size_t len)
{
	const u8 *p = info, *end;
	const struct mb2_tag *mmap = NULL, *efi_mmap = NULL;
	const struct mb2_meminfo *mi;
	u32 total;

	if (len < MB2_INFO_HDR + sizeof(struct mb2_tag))
		return -EINVAL;
	memcpy(&total, p, sizeof(total));
	end = p + min((size_t)total, len);
	for (p += MB2_INFO_HDR; p + sizeof(struct mb2_tag) <= end;
	     p += ALIGN_UP((size_t)((const struct mb2_tag *)p)->size, MB2_TAG_ALIGN)) {
		const struct mb2_tag *t = (const void *)p;

		if (t->type == MB2_TAG_END)
			break;
		if (t->size < sizeof(*t) || t->size > (size_t)(end - p)) {
			pr_warn("multiboot2: tag %u of size %u does not fit; the rest ignored\n",
				t->type, t->size);
			break;
		}
		switch (t->type) {
		case MB2_TAG_CMDLINE:
			boot_set_cmdline((const char *)(t + 1), t->size - sizeof(*t));
			break;
		case MB2_TAG_LOADER:
			tag_string(boot_info.loader, sizeof(boot_info.loader), t, sizeof(*t));
			break;
		case MB2_TAG_MODULE:
			parse_module(t);
			break;
		case MB2_TAG_MEMINFO:
			if (t->size >= sizeof(*mi)) {
				mi = (const void *)t;
				boot_info.mem_lower_kb = mi->mi_lower;
				boot_info.mem_upper_kb = mi->mi_upper;
			}
			break;
		case MB2_TAG_MMAP:
			mmap = t;
			break;
		case MB2_TAG_EFI_MMAP:
			efi_mmap = t;
			break;
		case MB2_TAG_FB:
			parse_fb(t);
			break;
		case MB2_TAG_EFI32:
			str_copy(boot_info.firmware, "efi32", sizeof(boot_info.firmware));
			break;
		case MB2_TAG_EFI64:
			str_copy(boot_info.firmware, "efi64", sizeof(boot_info.firmware));
			break;
		case MB2_TAG_ACPI_OLD:
		case MB2_TAG_ACPI_NEW:
			parse_rsdp(t);
			break;
		}
	}
	if (efi_mmap)
		parse_efi_mmap(efi_mmap);
	else if (mmap)
		parse_mmap(mmap);
	return 0;
}
