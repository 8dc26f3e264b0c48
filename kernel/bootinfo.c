/*
 * struct boot_info (kernel/bootinfo.h): the one place the rest of the
 * kernel learns what the boot loader said, and the helpers both multiboot
 * parsers share.
 *
 * boot_info_parse() looks at the magic the loader left in EAX and hands
 * the information to the multiboot 1 parser (kernel/multiboot.c, the
 * information lies in low memory, reached through the early map) or the
 * multiboot 2 parser (kernel/multiboot2.c, the information was copied
 * into the kernel by boot/entry.S).  Both fill the same fields through
 * boot_add_mmap() and boot_set_cmdline(), which bound everything they are
 * given: the loader's data is not trusted.
 */
#include "kernel/bootinfo.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/string.h"

struct boot_info boot_info;

/* Append one memory range, as the loader gave it. */
void boot_add_mmap(u64 base, u64 len, u32 type)
{
	if (boot_info.nr_mmap == BOOT_MAX_MMAP) {
		pr_warn("boot: more than %u memory map entries; rest ignored\n", BOOT_MAX_MMAP);
		return;
	}
	boot_info.mmap[boot_info.nr_mmap].base = base;
	boot_info.mmap[boot_info.nr_mmap].len = len;
	boot_info.mmap[boot_info.nr_mmap].type = type;
	boot_info.nr_mmap++;
}

/*
 * Keep the command line s (len bytes readable, no NUL needed), cut to
 * BOOT_CMDLINE_MAX - 1 bytes; what was cut off is noted for cmdline.c
 * to report.
 */
void boot_set_cmdline(const char *s, size_t len)
{
	size_t kept = sizeof(boot_info.cmdline) - 1;

	len = strnlen(s, len);
	if (len <= kept) {
		memcpy(boot_info.cmdline, s, len);
		boot_info.cmdline[len] = '\0';
		return;
	}
	memcpy(boot_info.cmdline, s, kept);
	boot_info.cmdline[kept] = '\0';
	boot_info.cmdline_dropped = (u32)(len - kept);
	boot_info.cmdline_cut_in_word = s[kept] != ' ' && s[kept] != '\t';
}

int boot_info_parse(u32 magic, u32 info_phys)
{
	size_t len;

	boot_info.magic = magic;
	str_copy(boot_info.firmware, "bios", sizeof(boot_info.firmware));
	switch (magic) {
	case MB1_BOOTLOADER_MAGIC:
		return multiboot_parse(info_phys);
	case MB2_BOOTLOADER_MAGIC:
		len = min((size_t)mb2_info_size, sizeof(mb2_info_copy));
		if (mb2_info_size > sizeof(mb2_info_copy))
			pr_warn("multiboot2: %u bytes of boot information, only %zu kept\n",
				mb2_info_size, sizeof(mb2_info_copy));
		return multiboot2_parse(mb2_info_copy, len);
	}
	return -EINVAL;
}
