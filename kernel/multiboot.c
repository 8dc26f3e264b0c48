/*
 * Multiboot v1 information -> struct boot_info (kernel/bootinfo.h).
 *
 * The loader's structures (Multiboot Specification 0.6.96, section 3.3)
 * lie somewhere in low physical memory that mm will hand out, so every
 * field the kernel needs is copied out first, through the early map of
 * the first 1 GiB.  Nothing from the loader is trusted: lengths, counts
 * and strings are bounded, and anything outside the early map is skipped
 * with a warning.  boot_info_parse() (kernel/bootinfo.c) has checked the
 * magic before calling here.
 */
#include "kernel/bootinfo.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/mm/page.h"
#include "lib/string.h"

#define MBI_MEM		(1u << 0)
#define MBI_CMDLINE	(1u << 2)
#define MBI_MODS	(1u << 3)
#define MBI_MMAP	(1u << 6)
#define MBI_LOADER	(1u << 9)

struct mb_info {
	u32	flags;
	u32	mem_lower, mem_upper;	/* KiB below 1 MiB and above it */
	u32	boot_device;
	u32	cmdline;
	u32	mods_count, mods_addr;
	u32	syms[4];
	u32	mmap_length, mmap_addr;
	u32	drives_length, drives_addr;
	u32	config_table;
	u32	boot_loader_name;
} __packed;
_Static_assert(offsetof(struct mb_info, mmap_length) == 44, "multiboot info layout");
_Static_assert(offsetof(struct mb_info, boot_loader_name) == 64, "multiboot info layout");

struct mb_mmap_entry {
	u32	size;		/* of the rest of the entry */
	u64	base_addr;
	u64	length;
	u32	type;
} __packed;
_Static_assert(sizeof(struct mb_mmap_entry) == 24, "multiboot mmap entry");

struct mb_module {
	u32	mod_start, mod_end;
	u32	string;
	u32	reserved;
} __packed;
_Static_assert(sizeof(struct mb_module) == 16, "multiboot module");

#define EARLY_MAP_LIMIT	(1ULL << 30)	/* boot/entry.S maps [0, 1 GiB) */

static void note_range(phys_addr_t start, u64 len)
{
	if (!len)
		return;
	if (!boot_info.info_end || start < boot_info.info_start)
		boot_info.info_start = start;
	if (start + len > boot_info.info_end)
		boot_info.info_end = start + len;
}

/* A pointer to [phys, phys+len) through the early map, or NULL. */
static const void *early_ptr(u64 phys, u64 len)
{
	if (phys == 0 || phys >= EARLY_MAP_LIMIT || len > EARLY_MAP_LIMIT - phys)
		return NULL;
	note_range(phys, len);
	return (const void *)(uintptr_t)(PAGE_OFFSET + phys);
}

/*
 * Copy the loader's string at phys into dst, cut to size - 1 bytes.
 * Returns its whole length: more than size - 1 if it was cut.
 */
static size_t copy_string(char *dst, size_t size, u32 phys)
{
	const char *s = early_ptr(phys, 1);
	size_t n, len;

	dst[0] = '\0';
	if (!s)
		return 0;
	len = strnlen(s, (size_t)(EARLY_MAP_LIMIT - phys));
	n = min(len, size - 1);
	memcpy(dst, s, n);
	dst[n] = '\0';
	note_range(phys, n + 1);
	return len;
}

/* The command line, and what was cut off it for cmdline.c to report. */
static void copy_cmdline(u32 phys)
{
	const char *s = early_ptr(phys, 1);
	size_t len;

	if (!s)
		return;
	len = strnlen(s, (size_t)(EARLY_MAP_LIMIT - phys));
	note_range(phys, len + 1);
	boot_set_cmdline(s, len);
}

static void parse_mmap(u32 addr, u32 length)
{
	const u8 *p = early_ptr(addr, length), *end;

	if (!p) {
		pr_warn("multiboot: memory map at %#x out of reach; ignored\n", addr);
		return;
	}
	end = p + length;
	while (p + sizeof(struct mb_mmap_entry) <= end) {
		struct mb_mmap_entry e;

		memcpy(&e, p, sizeof(e));
		if (e.size < sizeof(e) - 4) {
			pr_warn("multiboot: memory map entry of size %u; map cut here\n", e.size);
			break;
		}
		boot_add_mmap(e.base_addr, e.length, e.type);
		p += (size_t)e.size + 4;
	}
}

static void parse_modules(u32 addr, u32 count)
{
	const struct mb_module *m;
	u32 i;

	if (count > BOOT_MAX_MODULES) {
		pr_warn("multiboot: %u modules, only the first %u are used\n",
			count, BOOT_MAX_MODULES);
		count = BOOT_MAX_MODULES;
	}
	m = early_ptr(addr, (u64)count * sizeof(*m));
	if (!m)
		return;
	for (i = 0; i < count; i++) {
		struct boot_module *b = &boot_info.modules[boot_info.nr_modules];

		if (m[i].mod_end < m[i].mod_start) {
			pr_warn("multiboot: module %u has end before start; skipped\n", i);
			continue;
		}
		b->start = m[i].mod_start;
		b->end = m[i].mod_end;
		copy_string(b->name, sizeof(b->name), m[i].string);
		boot_info.nr_modules++;
	}
}

int multiboot_parse(u32 info_phys)
{
	const struct mb_info *mbi;
	struct mb_info mi;

	mbi = early_ptr(info_phys, sizeof(*mbi));
	if (!mbi)
		return -EINVAL;
	memcpy(&mi, mbi, sizeof(mi));

	if (mi.flags & MBI_MEM) {
		boot_info.mem_lower_kb = mi.mem_lower;
		boot_info.mem_upper_kb = mi.mem_upper;
	}
	if (mi.flags & MBI_CMDLINE)
		copy_cmdline(mi.cmdline);
	if (mi.flags & MBI_LOADER)
		copy_string(boot_info.loader, sizeof(boot_info.loader), mi.boot_loader_name);
	if (mi.flags & MBI_MMAP)
		parse_mmap(mi.mmap_addr, mi.mmap_length);
	if (mi.flags & MBI_MODS)
		parse_modules(mi.mods_addr, mi.mods_count);
	return 0;
}
