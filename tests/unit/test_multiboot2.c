/*
 * Host tests of kernel/multiboot2.c and kernel/bootinfo.c: multiboot 2
 * information built by hand, shaped like what GRUB hands over on UEFI
 * (command line, loader name, module, memory map and EFI memory map, new
 * and old ACPI RSDP, framebuffer, EFI64 system table), and broken
 * information: a tag running past the end, a zero-sized tag, a command
 * line longer than boot_info keeps.
 */
#include "tests/unit/unit.h"
#include "kernel/bootinfo.h"
#include "kernel/errno.h"

u8 mb2_info_copy[MB2_INFO_COPY_MAX];
u32 mb2_info_size;

int multiboot_parse(u32 info_phys)
{
	(void)info_phys;
	return -EINVAL;		/* multiboot 1 is reached through the early map: not here */
}

static u8 buf[16384] __attribute__((aligned(8)));
static size_t used;

static void start(void)
{
	memset(&boot_info, 0, sizeof(boot_info));
	memset(buf, 0, sizeof(buf));
	used = 8;
}

/* Append a tag of type with len bytes of data; returns its data. */
static u8 *tag(u32 type, const void *data, u32 len)
{
	u32 size = 8 + len;
	u8 *p = buf + used;

	memcpy(p, &type, 4);
	memcpy(p + 4, &size, 4);
	if (data)
		memcpy(p + 8, data, len);
	used += (size + 7) & ~7u;
	return p + 8;
}

static size_t finish(void)
{
	u32 total;

	tag(0, NULL, 0);
	total = (u32)used;
	memcpy(buf, &total, 4);
	return used;
}

static void put32(u8 *p, u32 v) { memcpy(p, &v, 4); }
static void put64(u8 *p, u64 v) { memcpy(p, &v, 8); }

static void efi_desc(u8 *p, u32 type, u64 phys, u64 pages)
{
	memset(p, 0, 48);
	put32(p, type);
	put64(p + 8, phys);
	put64(p + 24, pages);
}

static void test_grub_uefi(void)
{
	u8 mmap[8 + 2 * 24], efi[8 + 5 * 48], fb[24 + 6], rsdp[36], old[20], mod[8 + 4];
	u8 *p;

	start();
	tag(1, "selftest=* loglevel=7", 22);
	tag(2, "GRUB 2.06", 10);
	put32(mod, 0x200000);
	put32(mod + 4, 0x280000);
	memcpy(mod + 8, "ram", 4);
	tag(3, mod, sizeof(mod));
	/* The multiboot map says one thing; the EFI map must win. */
	put32(mmap, 24);
	put32(mmap + 4, 0);
	memset(mmap + 8, 0, sizeof(mmap) - 8);
	put64(mmap + 8 + 8, 0x9f000);
	put32(mmap + 8 + 16, 1);
	tag(6, mmap, sizeof(mmap));
	memset(old, 0, sizeof(old));
	memcpy(old, "RSD PTR ", 8);
	tag(14, old, sizeof(old));
	memset(rsdp, 0, sizeof(rsdp));
	memcpy(rsdp, "RSD PTR ", 8);
	rsdp[15] = 2;
	tag(15, rsdp, sizeof(rsdp));
	tag(12, "\0\0\0\0\0\0\0\0", 8);
	put32(efi, 48);
	put32(efi + 4, 1);
	p = efi + 8;
	efi_desc(p, 7, 0, 0xa0);		/* conventional: RAM */
	efi_desc(p + 48, 4, 0x100000, 0x100);	/* boot services data: RAM too */
	efi_desc(p + 96, 7, 0x200000, 0x100);	/* ... merged with this one */
	efi_desc(p + 144, 9, 0x300000, 0x10);	/* ACPI reclaim: kept */
	efi_desc(p + 192, 5, 0x310000, 0x10);	/* runtime code: reserved */
	tag(17, efi, sizeof(efi));
	memset(fb, 0, sizeof(fb));
	put64(fb, 0x80000000ULL);
	put32(fb + 8, 7680);
	put32(fb + 12, 1920);
	put32(fb + 16, 1080);
	fb[20] = 32;
	fb[21] = 1;
	fb[24] = 16; fb[25] = 8; fb[26] = 8; fb[27] = 8; fb[28] = 0; fb[29] = 8;
	tag(8, fb, sizeof(fb));
	finish();

	CHECK_EQ(multiboot2_parse(buf, used), 0);
	CHECK_STR(boot_info.cmdline, "selftest=* loglevel=7");
	CHECK_STR(boot_info.loader, "GRUB 2.06");
	CHECK_STR(boot_info.firmware, "efi64");
	CHECK_EQ(boot_info.nr_modules, 1);
	CHECK_EQ(boot_info.modules[0].start, 0x200000);
	CHECK_EQ(boot_info.modules[0].end, 0x280000);
	CHECK_STR(boot_info.modules[0].name, "ram");
	CHECK_EQ(boot_info.nr_mmap, 4);
	CHECK_EQ(boot_info.mmap[0].len, 0xa0000);
	CHECK_EQ(boot_info.mmap[1].base, 0x100000);
	CHECK_EQ(boot_info.mmap[1].len, 0x200000);
	CHECK_EQ(boot_info.mmap[1].type, BOOT_MEM_USABLE);
	CHECK_EQ(boot_info.mmap[2].type, 3);
	CHECK_EQ(boot_info.mmap[3].type, 2);
	CHECK_EQ(boot_info.rsdp_len, 36);
	CHECK_EQ(boot_info.rsdp[15], 2);
	CHECK_EQ(boot_info.fb.fb_addr, 0x80000000ULL);
	CHECK_EQ(boot_info.fb.fb_pitch, 7680);
	CHECK_EQ(boot_info.fb.fb_width, 1920);
	CHECK_EQ(boot_info.fb.fb_bpp, 32);
	CHECK_EQ(boot_info.fb.fb_type, BOOT_FB_RGB);
	CHECK_EQ(boot_info.fb.fb_red_pos, 16);
	CHECK_EQ(boot_info.fb.fb_blue_size, 8);
}

/* Without an EFI map the multiboot map is used, and the old RSDP alone. */
static void test_bios(void)
{
	u8 mmap[8 + 24], old[20];

	start();
	put32(mmap, 24);
	put32(mmap + 4, 0);
	memset(mmap + 8, 0, 24);
	put64(mmap + 8 + 8, 0x9fc00);
	put32(mmap + 8 + 16, 1);
	tag(6, mmap, sizeof(mmap));
	memset(old, 0, sizeof(old));
	memcpy(old, "RSD PTR ", 8);
	tag(14, old, sizeof(old));
	finish();
	CHECK_EQ(multiboot2_parse(buf, used), 0);
	CHECK_EQ(boot_info.nr_mmap, 1);
	CHECK_EQ(boot_info.mmap[0].len, 0x9fc00);
	CHECK_EQ(boot_info.rsdp_len, 20);
	CHECK_EQ(boot_info.fb.fb_addr, 0);
}

static void test_hostile(void)
{
	u8 *p;
	static char longline[BOOT_CMDLINE_MAX + 100];

	/* A tag claiming more than the buffer: the walk stops, nothing read. */
	start();
	tag(2, "GRUB", 5);
	p = tag(1, "x", 2);
	put32(p - 4, 100000);
	finish();
	CHECK_EQ(multiboot2_parse(buf, used), 0);
	CHECK_STR(boot_info.loader, "GRUB");
	CHECK_STR(boot_info.cmdline, "");

	/* A zero-sized tag ends the walk instead of looping on it. */
	start();
	p = tag(1, NULL, 0);
	put32(p - 4, 0);
	finish();
	CHECK_EQ(multiboot2_parse(buf, used), 0);

	/* Too short to hold anything. */
	CHECK_EQ(multiboot2_parse(buf, 4), -EINVAL);

	/* An over-long command line is cut, and the cut is noted. */
	start();
	memset(longline, 'a', sizeof(longline) - 1);
	tag(1, longline, sizeof(longline));
	finish();
	CHECK_EQ(multiboot2_parse(buf, used), 0);
	CHECK_EQ(strlen(boot_info.cmdline), BOOT_CMDLINE_MAX - 1);
	CHECK_EQ(boot_info.cmdline_dropped, 100);
	CHECK(boot_info.cmdline_cut_in_word);
}

/* boot_info_parse() takes multiboot 2 from the copy boot/entry.S made. */
static void test_dispatch(void)
{
	start();
	tag(2, "GRUB", 5);
	finish();
	memcpy(mb2_info_copy, buf, used);
	mb2_info_size = (u32)used;
	CHECK_EQ(boot_info_parse(MB2_BOOTLOADER_MAGIC, 0), 0);
	CHECK_STR(boot_info.loader, "GRUB");
	CHECK_STR(boot_info.firmware, "bios");
	CHECK_EQ(boot_info_parse(0x12345678, 0), -EINVAL);
}

static const struct unit_case cases[] = {
	{ "grub_uefi", test_grub_uefi },
	{ "bios", test_bios },
	{ "hostile", test_hostile },
	{ "dispatch", test_dispatch },
};

UNIT_MAIN("boot/multiboot2", cases)
